"""`make bench-demo`: what a fresh clone's `make demo` costs, the README's first command.

Each run clones the checkout's HEAD into a new temporary folder (as `git clone` gives it: no
.venv, no bytecode) and times `make demo` there: the virtualenv, the install of mpigen and what it
needs to run, and the build of the example spec. pip's cache is the user's own (warm) or a new,
empty one (cold: every wheel downloaded). Reported per cache: the median wall time, the median
CPU seconds (user + system of every process of the run), the size of .venv, and the load average
before and after the runs, which says how shared the machine was.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def one_run(cache: str) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and the .venv's size (MB) of one fresh clone's `make demo`."""
    with tempfile.TemporaryDirectory(prefix="mpigen-demo-") as scratch:
        clone = Path(scratch) / "mpigen"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "MAKE", "MFLAGS"))}
        if cache == "cold":
            env["PIP_CACHE_DIR"] = str(Path(scratch) / "pip-cache")
        cpu, start = _cpu(), time.perf_counter()
        result = subprocess.run(["make", "demo"], cwd=clone, env=env, capture_output=True, text=True, check=False)
        wall, cpu = time.perf_counter() - start, _cpu() - cpu
        if result.returncode != 0 or "kind: MPIJob" not in result.stdout:
            raise SystemExit(f"make demo failed ({result.returncode}): {result.stderr[-2000:]}")
        return wall, cpu, _size_mb(clone / ".venv")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("make") is None:
        raise SystemExit("make is not on PATH")
    load = os.getloadavg()[0]
    print(f"fresh clone of {ROOT} at HEAD, `make demo`, {args.repeat} run(s) each, cold and warm in turns")
    runs: dict[str, list[tuple[float, float, float]]] = {"cold": [], "warm": []}
    for _ in range(args.repeat):
        for cache in runs:
            runs[cache].append(one_run(cache))
    print("| pip cache | wall (median) | CPU s (median) | .venv |")
    print("|---|---|---|---|")
    for cache, figures in runs.items():
        walls, cpus, sizes = zip(*figures)
        print(f"| {cache} | {statistics.median(walls):.1f} s | {statistics.median(cpus):.1f} s | {max(sizes):.0f} MB |")
    print(f"load average (1 min): {load:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
