"""mpirun's or horovodrun's rank count does not match the slots the hostfile gives it.

The operator writes the hostfile itself: one line per worker with ``slots=<slotsPerWorker>``
(OpenMPI) or ``<host>:<slotsPerWorker>`` (Intel MPI, MPICH), plus the launcher's own line when
runLauncherAsWorker is true (``newConfigMap`` in mpi-operator v0.8.2
``pkg/controller/mpi_job_controller.go``), at ``/etc/mpi/hostfile``. An ``-np``/``-n``/``-c``/``--np``
in the launcher's mpirun (containers[0] command and args, also inside ``sh -c``) that asks for more
ranks than that makes OpenMPI refuse to start ("not enough slots") and makes Intel MPI and MPICH
oversubscribe; fewer ranks leave slots, and the GPUs behind them, idle. ``horovodrun -np N``
(``--num-proc``) runs mpirun with ``-np N`` on the hosts it is given (Horovod's
``horovod/runner/launch.py`` ``_run`` and ``horovod/runner/mpi_run.py``): with ``--hostfile
/etc/mpi/hostfile`` its count is checked as mpirun's; without ``--hostfile`` or ``-H`` it runs
all N ranks on ``localhost:N``, the launcher, and every worker slot stays idle. A rank count that
is not a literal integer (``-np $NP``), hosts of the user's own (``-H``, another hostfile) and
Horovod's elastic mode (``--min-np``, ``--host-discovery-script``) are not checked.
(slotsPerWorker against the GPUs per worker is ``slots-gpu-mismatch``.)

Fix: set ``-np`` to workers × slotsPerWorker (plus slotsPerWorker with runLauncherAsWorker), and
give horovodrun the operator's hostfile (``--hostfile /etc/mpi/hostfile``). An MPIJob without
workers (Worker ``replicas`` unset defaults to 0) is told how many workers its ``-np`` needs.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Iterator

from ...diagnostics import Severity
from ...operator.mpi_controller import CONFIG_MOUNT_PATH
from ..base import Context, Path
from ._common import argv, current_api, first_container, is_int, mpi_role, replicas, shell_words

CODE = "slots-np-mismatch"
SEVERITY = Severity.ERROR
KINDS = ("MPIJob",)

HOSTFILE = f"{CONFIG_MOUNT_PATH}/hostfile"  # where the operator mounts the hostfile it writes
LAUNCHERS = {"mpirun", "mpiexec", "mpiexec.hydra", "orterun"}
COUNT = {"-np", "--np", "-n", "--n", "-c"}
# Options whose next word(s) are values, so the program starts at the first other bare word.
VALUED = dict.fromkeys(["-x", "-bind-to", "--bind-to", "-map-by", "--map-by", "-rank-by", "--rank-by",
                        "-hostfile", "--hostfile", "-machinefile", "--machinefile", "-f", "-H", "-host",
                        "--host", "-hosts", "-npernode", "--npernode", "-N", "-ppn", "-perhost", "-wdir",
                        "--wdir", "-prefix", "--prefix", "-iface", "-bootstrap", "-launcher"], 1)
VALUED.update(dict.fromkeys(["-mca", "--mca", "-gmca", "--gmca", "-genv", "-env"], 2))

# horovodrun's options (``parse_args`` in horovod/runner/launch.py): the rank count, the hosts,
# elastic mode, and every other option that takes a value (argparse stops at the first bare word:
# the training command).
HOROVODRUN = "horovodrun"
HOROVOD_COUNT = {"-np", "--num-proc"}
HOROVOD_HOSTS = {"-H", "--hosts"}
HOROVOD_HOSTFILE = {"-hostfile", "--hostfile"}
HOROVOD_ELASTIC = {"--min-np", "--min-num-proc", "--max-np", "--max-num-proc", "--host-discovery-script"}
HOROVOD_VALUED = dict.fromkeys([
    "--start-timeout", "--network-interfaces", "--network-interface", "--output-filename", "--config-file",
    "-p", "--ssh-port", "-i", "--ssh-identity-file", "--fusion-threshold-mb", "--cycle-time-ms",
    "--cache-capacity", "--autotune-log-file", "--autotune-warmup-samples", "--autotune-steps-per-sample",
    "--autotune-bayes-opt-max-samples", "--autotune-gaussian-process-noise", "--slots-per-host",
    "--elastic-timeout", "--reset-limit", "--timeline-filename", "--stall-check-warning-time-seconds",
    "--stall-check-shutdown-time-seconds", "--mpi-args", "--binding-args", "--num-nccl-streams",
    "--thread-affinity", "--gloo-timeout-seconds", "--log-level"], 1)
HOROVOD_VALUED["--blacklist-cooldown-range"] = 2


@dataclass(frozen=True, slots=True)
class Launch:
    """What the launcher's command line says about its ranks."""

    tool: str  # mpirun (any MPI launcher) or horovodrun
    count: str  # the rank count, as written
    index: int  # of the word holding it
    hosts: str | None = None  # horovodrun: -H HOSTS, or "hostfile:PATH"; None: localhost only
    elastic: bool = False  # horovodrun's elastic mode: the rank count varies


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _option(word: str, names: set[str]) -> tuple[bool, str | None]:
    """(``word`` is one of ``names``, its ``=value`` if written ``--name=value``)."""
    if word in names:
        return True, None
    name, eq, value = word.partition("=")
    return (True, value) if eq and name in names else (False, None)


def _mpirun(words: list[str], start: int) -> Launch | None:
    i = start + 1
    while i < len(words):
        word = words[i]
        found, value = _option(word, COUNT)
        if found:
            if value is not None:
                return Launch("mpirun", value, i)
            return Launch("mpirun", words[i + 1], i + 1) if i + 1 < len(words) else None
        if not word.startswith("-"):
            return None  # the program: its own options are not mpirun's
        i += 1 + VALUED.get(word, 0)
    return None


def _horovodrun(words: list[str], start: int) -> Launch | None:
    count: tuple[str, int] | None = None
    hosts: str | None = None
    elastic = False
    i = start + 1
    while i < len(words):
        word = words[i]
        if not word.startswith("-"):
            break  # the training command
        name = word.partition("=")[0]
        inline = "=" in word
        value = word.partition("=")[2] if inline else (words[i + 1] if i + 1 < len(words) else None)
        where = i if inline else i + 1
        if name in HOROVOD_COUNT and value is not None:
            count = (value, where)
        elif name in HOROVOD_HOSTS and value is not None:
            hosts = value
        elif name in HOROVOD_HOSTFILE and value is not None:
            hosts = f"hostfile:{value}"
        elif name in HOROVOD_ELASTIC:
            elastic = True
        if name in HOROVOD_COUNT | HOROVOD_HOSTS | HOROVOD_HOSTFILE | HOROVOD_ELASTIC:
            i += 1 if inline else 2
        else:
            i += 1 + (0 if inline else HOROVOD_VALUED.get(name, 0))
    if count is None:
        return None
    return Launch(HOROVODRUN, count[0], count[1], hosts, elastic)


def rank_count(words: list[str]) -> Launch | None:
    """The rank count given to the first MPI launcher (or horovodrun) of ``words``; None when the
    launcher or its count is absent."""
    for i, word in enumerate(words):
        tool = posixpath.basename(word)
        if tool in LAUNCHERS:
            return _mpirun(words, i)
        if tool == HOROVODRUN:
            return _horovodrun(words, i)
    return None


def find_np(container: dict) -> tuple[str, Launch] | None:
    """(field holding it, launch) of the launcher's mpirun or horovodrun, looking into shell scripts too."""
    words = list(argv(container))
    found = rank_count([w for _, _, w in words])
    if found is not None:
        return words[found.index][0], found
    for field, _, word in words:
        split = shell_words(word) if " " in word else None
        if split and (found := rank_count(split)) is not None:
            return field, found
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
    if not found or not re.fullmatch("[0-9]+", found[1].count) or found[1].elastic:
        return
    field, launch = found
    where = launcher[0] + ("template", "spec", "containers", 0, field)
    np, expected = int(launch.count), (workers + as_worker) * slots
    hosts = f"({workers} workers + the launcher)" if as_worker else f"{workers} workers"
    if launch.tool == HOROVODRUN and launch.hosts is None:
        if workers > 0:
            yield (where, f"horovodrun is given no --hostfile or -H, so it runs all {plural(np, 'rank')} on the "
                          f"launcher (localhost:{np}) and the hostfile's {plural(expected, 'slot')} ({hosts} × "
                          f"slotsPerWorker {slots}) stay idle; add --hostfile {HOSTFILE} and set -np to {expected}")
        return
    if launch.tool == HOROVODRUN and launch.hosts != f"hostfile:{HOSTFILE}":
        return  # hosts of the user's own
    if np != expected and expected == 0:  # no workers: -np 0 is no answer
        unset = worker is None or "replicas" not in worker[1]
        needed = -(-np // slots) if slots > 0 else np
        yield (where,
               f"{launch.tool} asks for {plural(np, 'rank')} but the MPIJob has no workers (Worker replicas "
               f"{'is unset, and defaults to' if unset else 'is'} 0), so the hostfile has no slots; set Worker "
               f"replicas to {needed}"
               + (f" (× slotsPerWorker {slots} = {needed * slots} slots)" if slots > 1 else ""))
    elif np != expected:
        effect = ("OpenMPI refuses to start with too few slots, Intel MPI and MPICH oversubscribe" if np > expected
                  else f"{plural(expected - np, 'slot')} {'stays' if expected - np == 1 else 'stay'} idle")
        yield (where,
               f"{launch.tool} asks for {plural(np, 'rank')} but the hostfile has {plural(expected, 'slot')} "
               f"({hosts} × slotsPerWorker {slots}): {effect}; set -np to {expected} or change the workers or "
               f"slotsPerWorker")
