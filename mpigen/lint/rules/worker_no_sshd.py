"""The MPIJob workers' command does not start sshd.

With kubeflow.org/v2beta1 the launcher's mpirun (OpenMPI, Intel MPI and MPICH alike) starts the
ranks on the workers over SSH, so each worker's containers[0] must run sshd. When command and args
are both unset the operator runs ``/usr/sbin/sshd -De`` itself (``newWorker`` in mpi-operator
v0.8.2 ``pkg/controller/mpi_job_controller.go``; its tensorflow-benchmarks example relies on
this), so that case is not reported; nor is args without command, which runs under the image's
own ENTRYPOINT (it may start sshd). A command, with its args, must start sshd: ``sshd`` as the
program (after wrappers such as ``tini --``), as a command of a ``sh -c`` script, or through
``service ssh start``. A worker running the training program or ``sleep`` leaves the launcher
unable to connect. A command that runs a script file (``/entrypoint.sh``, ``bash start.sh``)
cannot be read and is not reported.

Fix: run ``/usr/sbin/sshd -De`` in the workers (with ``-f ~/.sshd_config`` for a non-root image),
or leave command and args unset so the operator does; the training program belongs in the
launcher's mpirun.
"""

from __future__ import annotations

import posixpath
import shlex
from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import argv, current_api, first_container, mpi_role, shell_script, shell_words, simple_commands

CODE = "worker-no-sshd"
SEVERITY = Severity.WARNING
KINDS = ("MPIJob",)

WRAPPERS = {"tini", "dumb-init", "exec", "env", "nohup", "sudo", "setsid", "--"}


def starts_sshd(words: list[str]) -> bool | None:
    """True if this command starts sshd, False if not, None if it cannot tell (a script file)."""
    i = 0
    while i < len(words) and (posixpath.basename(words[i]) in WRAPPERS or (i and words[i].startswith("-"))
                              or (i and "=" in words[i])):
        i += 1
    words = words[i:]
    if not words:
        return False
    program = posixpath.basename(words[0])
    if program == "sshd" or (program in ("service", "ssh") and "start" in words[1:3]):
        return True
    script = shell_script(words)
    if script is not None:
        split = shell_words(script)
        results = [starts_sshd(c) for c in simple_commands(split)] if split is not None else [None]
        return True if True in results else None if None in results else False
    if program in ("sh", "bash", "dash", "ash", "zsh", "ksh") or program.endswith(".sh"):
        return None
    return False


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    worker = mpi_role(ctx, "Worker")
    container = first_container(worker[1].get("template")) if worker and current_api(ctx) else None
    words = list(argv(container)) if container else []
    if not words or words[0][0] != "command" or starts_sshd([w for _, _, w in words]) is not False:
        return
    shown = shlex.join(w for _, _, w in words)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    yield (worker[0] + ("template", "spec", "containers", 0, words[0][0]),
           f"the workers run {shown!r}, which does not start sshd: the launcher's mpirun reaches the "
           "workers over SSH and cannot connect; run /usr/sbin/sshd -De, or leave command and args unset "
           "so the operator does")
