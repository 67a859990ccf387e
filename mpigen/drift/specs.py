"""``mpigen check``'s work on the specs it must compile: each compiled, and its jobs' trees compared.

The work of one spec does not depend on another's, so many specs (a check with a cold cache: a
fresh clone in CI, a change of mpigen or of the cluster file) are spread over every core by the
validation's workers (:func:`mpigen.validation.spread`); a few stay in this process.
The results are in the order of the specs, the same as one process gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from .compare import JobDrift, check_jobs

if TYPE_CHECKING:
    from ..pipeline import Options

SECONDS_PER_SPEC = 0.003
"""What compiling a spec and comparing its trees costs, measured on the 2-core development machine
(bench/generate.py's specs, two environments each, in one process after a first spec): about
3 ms. With the validation's ``MIN_WORK_PER_PROCESS`` (24 ms), a check of ten specs or
more gets a second process."""


@dataclass(frozen=True)
class SpecCheck:
    """One spec file compiled: its diagnostics, and the drift of each job it defines (in order)."""

    diagnostics: list[Diagnostic]
    jobs: list[JobDrift]


def check_spec(name: str, raw: bytes, options: Options, root: Path) -> SpecCheck:
    """The spec file ``name`` (its bytes ``raw``) compiled, and its jobs' trees under ``root`` compared."""
    from ..load.yaml_loader import load_bytes
    from ..pipeline import compile_specs

    result = compile_specs(load_bytes(raw, name), name, options)
    return SpecCheck(result.diagnostics, check_jobs(result.jobs, root))


def check_specs(specs: list[tuple[str, bytes]], options: Options, root: Path,
                workers: int | None = None) -> list[SpecCheck]:
    """:func:`check_spec` of every (name, bytes), in order; on ``workers`` cores at most (default:
    every core), as many as the work is worth."""
    from ..validation import cores, processes_by_estimate, spread

    processes = processes_by_estimate(len(specs) * SECONDS_PER_SPEC, workers or cores())
    if processes < 2:
        return [check_spec(name, raw, options, root) for name, raw in specs]
    return spread(specs, lambda spec: check_spec(*spec, options, root), processes)
