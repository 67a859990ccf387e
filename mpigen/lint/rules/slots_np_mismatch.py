"""mpirun's rank count does not match the slots the hostfile gives it.

The operator writes the hostfile itself: one line per worker with ``slots=<slotsPerWorker>``
(OpenMPI) or ``<host>:<slotsPerWorker>`` (Intel MPI, MPICH), plus the launcher's own line when
runLauncherAsWorker is true (``newConfigMap`` in mpi-operator v0.8.0
``pkg/controller/mpi_job_controller.go``). An ``-np``/``-n``/``-c``/``--np`` in the launcher's
mpirun (containers[0] command and args, also inside ``sh -c``) that asks for more ranks than that
makes OpenMPI refuse to start ("not enough slots") and makes Intel MPI and MPICH oversubscribe;
fewer ranks leave slots, and the GPUs behind them, idle. A rank count that is not a literal
integer (``-np $NP``) is not checked. (slotsPerWorker against the GPUs per worker is
``slots-gpu-mismatch``.)

Fix: set ``-np`` to workers × slotsPerWorker (plus slotsPerWorker with runLauncherAsWorker).
"""

from __future__ import annotations

import posixpath
import re
from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import argv, current_api, first_container, is_int, mpi_role, replicas, shell_words

CODE = "slots-np-mismatch"
SEVERITY = Severity.ERROR
KINDS = ("MPIJob",)

LAUNCHERS = {"mpirun", "mpiexec", "mpiexec.hydra", "orterun"}
COUNT = {"-np", "--np", "-n", "--n", "-c"}
# Options whose next word(s) are values, so the program starts at the first other bare word.
VALUED = dict.fromkeys(["-x", "-bind-to", "--bind-to", "-map-by", "--map-by", "-rank-by", "--rank-by",
                        "-hostfile", "--hostfile", "-machinefile", "--machinefile", "-f", "-H", "-host",
                        "--host", "-hosts", "-npernode", "--npernode", "-N", "-ppn", "-perhost", "-wdir",
                        "--wdir", "-prefix", "--prefix", "-iface", "-bootstrap", "-launcher"], 1)
VALUED.update(dict.fromkeys(["-mca", "--mca", "-gmca", "--gmca", "-genv", "-env"], 2))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def rank_count(words: list[str]) -> tuple[int, str] | None:
    """(index, text) of the rank count given to mpirun; None when mpirun or the option is absent."""
    start = next((i for i, w in enumerate(words) if posixpath.basename(w) in LAUNCHERS), None)
    i = len(words) if start is None else start + 1
    while i < len(words):
        word = words[i]
        if word in COUNT:
            return (i + 1, words[i + 1]) if i + 1 < len(words) else None
        if word.split("=")[0] in COUNT and "=" in word:
            return i, word.split("=", 1)[1]
        if not word.startswith("-"):
            return None  # the program: its own options are not mpirun's
        i += 1 + VALUED.get(word, 0)
    return None


def find_np(container: dict) -> tuple[str, str] | None:
    """(field holding it, count word) of the launcher's mpirun, looking into shell scripts too."""
    words = list(argv(container))
    found = rank_count([w for _, _, w in words])
    if found is not None:
        return words[found[0]][0], found[1]
    for field, _, word in words:
        split = shell_words(word) if " " in word else None
        if split and (found := rank_count(split)) is not None:
            return field, found[1]
    return None


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    launcher, worker = mpi_role(ctx, "Launcher"), mpi_role(ctx, "Worker")
    slots = ctx.get("spec", "slotsPerWorker", default=1)
    if not current_api(ctx) or not is_int(slots):
        return
    workers = replicas(worker[1], 0) if worker else 0
    as_worker = ctx.get("spec", "runLauncherAsWorker") is True
    container = first_container(launcher[1].get("template")) if launcher else None
    found = find_np(container) if container and workers is not None and workers >= 0 else None
    if found and re.fullmatch("[0-9]+", found[1]) and int(found[1]) != (workers + as_worker) * slots:
        field, np = found[0], int(found[1])
        expected = (workers + as_worker) * slots
        hosts = f"({workers} workers + the launcher)" if as_worker else f"{workers} workers"
        effect = ("OpenMPI refuses to start with too few slots, Intel MPI and MPICH oversubscribe" if np > expected
                  else f"{plural(expected - np, 'slot')} {'stays' if expected - np == 1 else 'stay'} idle")
        yield (launcher[0] + ("template", "spec", "containers", 0, field),
               f"mpirun asks for {plural(np, 'rank')} but the hostfile has {plural(expected, 'slot')} ({hosts} × "
               f"slotsPerWorker {slots}): {effect}; set -np to {expected} or change the workers or slotsPerWorker")
