"""``arena submit mpijob|pytorchjob|tfjob ...`` -> an mpigen spec (``mpigen import arena``).

Ported from kubeflow/arena **v0.15.5** (see :mod:`mpigen.importers.arena_flags` for the files): the
spec describes the job arena's Helm chart would create, with arena's effective defaults written out
where they differ from mpigen's (``imagePullPolicy: Always``, ``workingDir: /root``, ``backoffLimit``,
``cleanPodPolicy`` All for MPI, ``shmSize: 2Gi``, a NodePort TensorBoard). Rules:

- The command (the positional arguments, joined by spaces as arena joins them) runs as
  ``[SHELL, -c, COMMAND]`` (``--shell``, default ``sh``), as arena's charts run it.
- MPI: arena's MPIJob (kubeflow.org/v1alpha1) runs the command on the launcher only, so users write
  ``mpirun ...`` themselves. A command that contains ``mpirun``, ``mpiexec`` or ``horovodrun`` is kept
  verbatim as the launcher's command with ``mpi.mpirun: false`` (mpigen adds no mpirun of its own);
  any other command runs under mpigen's mpirun on every slot (a warning says so).
- PyTorch: arena's ``--workers`` counts the master: ``spec.workers`` = workers - 1 (1: master only).
- TensorFlow: 1 worker without ``--ps`` is arena's standalone mode: one Chief, no workers.
- Arena's own bookkeeping (user labels, GPU-count annotations, the ``workers``/``gpus`` variables,
  ``NVIDIA_VISIBLE_DEVICES=void`` without GPUs, hostPID/hostIPC) is not imported.

Pure: argv in, ``(spec, diagnostics)`` out. Every problem is reported, not only the first.
"""

from __future__ import annotations

import shlex
from typing import Any

from ..diagnostics import Diagnostic, Severity
from .arena_flags import KINDS, OTHER_KINDS, Values, flags_for, read
from .arena_spec import _Builder
from .arena_values import SOURCE, TAG, _diag  # noqa: F401 (SOURCE, TAG: the importer's names, as before)


class ArenaUsageError(ValueError):
    """The argv is not an ``arena submit <kind> ...`` line at all (a usage error, exit 2)."""


def split_command_line(text: str) -> list[str]:
    """A pasted command line (``\\`` line continuations, a ``$``/``➜`` prompt, ``#`` comment lines)
    as the shell would split it."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    try:
        words = shlex.split("\n".join(lines).replace("\\\n", " "))  # \ + newline: a line continuation
    except ValueError as exc:
        raise ArenaUsageError(f"cannot split the command line: {exc}") from None
    return words[1:] if words[:1] in (["$"], ["➜"], ["%"]) else words


def import_arena(argv: list[str]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Translate an arena command line (with or without the leading ``arena``) into a spec."""
    tokens = list(argv)
    if tokens and tokens[0].rsplit("/", 1)[-1] == "arena":
        tokens = tokens[1:]
    values: Values = {}
    positional: list[str] = []
    problems: list[tuple[str, str]] = []
    words: list[str] = []
    i = 0
    while len(words) < 2 and i < len(tokens):  # global flags may come before `submit` and the kind
        i += read(tokens[i:], flags_for(None), values, positional, problems, stop_at_word=True)
        if i < len(tokens):
            if tokens[i] == "--":
                break
            words.append(tokens[i])
            i += 1
    if not words or words[0] != "submit":
        raise ArenaUsageError("expected an arena command line: [arena] submit mpijob|pytorchjob|tfjob FLAGS... COMMAND")
    if len(words) < 2:
        raise ArenaUsageError("arena submit needs a job kind: mpijob (mpi), pytorchjob (pytorch), tfjob (tf)")
    if words[1] not in KINDS:
        if words[1] in OTHER_KINDS:
            return {}, [_diag("arena-kind", Severity.ERROR, f"arena submit {words[1]}: mpigen imports only mpijob, "
                              "pytorchjob and tfjob")]
        raise ArenaUsageError(f"arena submit {words[1]}: not an arena job kind (mpijob, pytorchjob, tfjob)")
    job = KINDS[words[1]]
    read(tokens[i:], flags_for(job), values, positional, problems)
    return _Builder(job, values, positional, problems).build()
