"""An admission verdict: whether the scheduler's queue lets a job's gang in, with the proof.

Three outcomes, as :class:`mpigen.scheduler.fit.Verdict` has for the nodes:

* **cannot admit** (``queue-cannot-admit``, an error), only with a proof the user can check from
  the cluster file: a queue that does not exist or is not open, or a limit of the queue (or of the
  cluster) with what already holds it and what the gang needs;
* **may not admit** (``queue-may-not-admit``, a warning): it depends on what else runs (PodGroups
  that wait ahead of it and would take the room first) or on rules mpigen does not evaluate;
* **admits** (``queue-admits``, a note): which queue and what share of it the gang gets.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...diagnostics import Diagnostic, Severity

ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT = "admits", "cannot admit", "may not admit"
CODES = {ADMITS: ("queue-admits", Severity.INFO), CANNOT_ADMIT: ("queue-cannot-admit", Severity.ERROR),
         MAY_NOT_ADMIT: ("queue-may-not-admit", Severity.WARNING)}


@dataclass(frozen=True)
class Admission:
    outcome: str  # ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT
    scheduler: str  # who decides: "Volcano v1.15.1"
    queue: str  # the queue the gang goes to
    reasons: tuple[str, ...]  # the proofs; for ADMITS the queue's share
    basis: str  # what the verdict was computed from (the configuration, the file's objects)
    kind: str = "queue"  # what decides: a Volcano "queue", a Kueue "LocalQueue", an "ElasticQuota"
    subject: str = "the gang"  # what is admitted: "the gang", "the Workload", "the pods"

    @property
    def headline(self) -> str:
        """``queue research cannot admit the gang``, ``LocalQueue team-a/main admits the Workload``."""
        return f"{self.kind} {self.queue} {self.outcome} {self.subject}"

    def message(self) -> str:
        """One line, for a diagnostic."""
        return f"{self.headline} ({self.basis}): " + "; and ".join(self.reasons)

    def diagnostic(self, file: str, line: int | None, column: int | None, path: str) -> Diagnostic:
        code, severity = CODES[self.outcome]
        return Diagnostic(file, line, column, path, code, severity, self.message())
