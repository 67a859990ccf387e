"""How `make bench` times a command: cold, as a new process, several commands in turns.

Every command runs REPEAT times, the commands taking turns (so that a change in the machine's
load falls on all of them), after one untimed run of each (it writes Python's bytecode caches,
as installing a package does, and brings the inputs into the page cache). A command's figure is
the median wall time of its runs, and beside it the median CPU seconds (user + system, every
process and thread of the command, from the kernel's accounting of the children). Peak RSS is
measured in a process tree of its own (a fresh interpreter that runs only the command): the
kernel's high-water mark covers every child of a process.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# Children write and reuse bytecode caches as an installed package does (pip compiles on
# install); an environment that forbids writing them would time the compiler on every run.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@dataclass(frozen=True)
class Command:
    """One command to time: its exit codes that count as a run (others stop the bench), its
    folder and environment, and what to do untimed before each run (empty a cache: a cold run)."""

    argv: list[str]
    ok: tuple[int, ...] = (0,)
    cwd: Path | None = None
    env: dict[str, str] | None = None
    before: Callable[[], None] | None = None


@dataclass(frozen=True)
class Timing:
    """Median wall seconds and median CPU seconds of a command's runs."""

    wall: float
    cpu: float


class Failed(Exception):
    """A command exited with a code its Command does not accept; ``reason`` says it in a few
    words: mpigen's first error code (`mpigen exited 1: error file-too-large`), else the end of
    its output."""

    def __init__(self, argv: list[str], returncode: int, output: str):
        code = re.search(r": error ([a-z0-9-]+) ", output)
        said = f"error {code.group(1)}" if code else output.strip()[-200:]
        self.reason = f"{Path(argv[0]).name} exited {returncode}: {said}"
        super().__init__(f"{' '.join(argv[:4])}... exited {returncode}: {output[-500:]}")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command: Command) -> tuple[float, float]:
    """Wall and CPU seconds of one cold run; Failed if its exit code is not one it accepts."""
    if command.before:
        command.before()
    cpu = _cpu()
    start = time.perf_counter()
    result = subprocess.run(command.argv, cwd=command.cwd, env=command.env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - start
    used = _cpu() - cpu
    if result.returncode not in command.ok:  # run it again, untimed, for what it says
        raise Failed(command.argv, *output_of(command))
    return elapsed, used


def in_turns(commands: list[Command], repeat: int, warm_up: bool = True) -> list[Timing]:
    """The medians of ``repeat`` runs of each command, the commands taking turns, after one
    untimed run of each (unless ``warm_up`` is false)."""
    if warm_up:
        for command in commands:
            run_once(command)
    walls: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for i, command in enumerate(commands):
            wall, cpu = run_once(command)
            walls[i].append(wall)
            cpus[i].append(cpu)
    return [Timing(statistics.median(w), statistics.median(c)) for w, c in zip(walls, cpus)]


def peak_rss(command: Command) -> int:
    """Peak RSS (MiB) of one run of ``command``, in a process tree of its own."""
    if command.before:
        command.before()
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    return int(subprocess.run([sys.executable, "-c", probe, *command.argv], cwd=command.cwd, env=command.env,
                              capture_output=True, text=True, check=True).stdout) // 1024


def output_of(command: Command) -> tuple[int, str]:
    """Exit code and output (stdout, then stderr) of one untimed run: what the bench checks
    about a peer's run (that it read every file)."""
    if command.before:
        command.before()
    result = subprocess.run(command.argv, cwd=command.cwd, env=command.env, capture_output=True, text=True,
                            check=False)
    return result.returncode, result.stdout + result.stderr


def compile_times(texts: list[str], runs: int = 300) -> list[float]:
    """Median seconds to compile each spec to its MPIJob and kustomize tree, in this process,
    the specs taking turns (so that a change in the machine's load falls on all), after one
    untimed round."""
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs
    from mpigen.render.kustomize import kustomize_files

    def once(text: str) -> float:
        start = time.perf_counter()
        result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
        for job in result.jobs:
            kustomize_files(job)
        return time.perf_counter() - start

    for text in texts:
        once(text)
    times: list[list[float]] = [[] for _ in texts]
    for _ in range(runs):
        for i, text in enumerate(texts):
            times[i].append(once(text))
    return [statistics.median(t) for t in times]
