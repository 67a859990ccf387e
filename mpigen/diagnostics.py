"""The one diagnostic type every stage returns, and the exit codes of the CLI.

A stage never prints or exits: it returns data plus a list of :class:`Diagnostic`.
The CLI formats them and turns them into an exit code.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace
from typing import Iterable

EXIT_OK = 0
EXIT_INVALID = 1  # invalid input, or drift
EXIT_USAGE = 2  # usage or I/O error
EXIT_INTERNAL = 3  # a bug in mpigen


class UsageError(Exception):
    """A usage or I/O error, not a problem of the input: a file that cannot be found or read, an
    environment the spec lacks, an option's value mpigen does not know. The command line prints it
    as ``mpigen: MESSAGE`` (exit code 2); the Python API (:mod:`mpigen.api`) raises it.
    ``path``: the file that could not be found or read, when that is the error."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """One problem: where it is (file, line:column, JSON path), which rule, how bad, what.

    Ordered by its fields in turn (for a stable order of diagnostics whose lines are all known;
    :func:`sort_diagnostics` orders any)."""

    file: str
    line: int | None
    column: int | None
    path: str
    code: str
    severity: Severity
    message: str

    def format(self) -> str:
        """``FILE:LINE:COL: SEVERITY CODE message (json.path)``, always on one line: control
        characters from the input (in a key, a value quoted in a message) are escaped."""
        where = one_line(self.file)
        if self.line is not None:
            where += f":{self.line}:{self.column or 1}"
        text = f"{where}: {self.severity.value} {self.code} {one_line(self.message)}"
        if self.path:
            text += f" ({one_line(self.path)})"
        return text

    def with_file(self, file: str) -> Diagnostic:
        return replace(self, file=file)


CODES = frozenset({
    "added-field", "arena-credential", "arena-differs", "arena-flag", "arena-ignored", "arena-kind", "arena-queue",
    "arena-required", "arena-unsupported", "arena-value", "clean-pod-policy-none", "cluster", "cluster-forbidden",
    "cluster-not-served", "code-source",
    "config-data", "container-name", "count-overflow", "decimal-quantity-multiplied", "default-runtime",
    "deployment-spec", "deprecated-runtime", "dropped-field", "duplicate-job", "empty-file", "env-reserved", "file-too-large",
    "framework-field", "gang-cannot-fit", "gang-ignored", "gang-may-not-fit", "git-credentials-over-http",
    "gpu-topology", "group-mark", "host-network-dns", "host-network-ssh", "host-path", "hostfile-too-large",
    "hostname", "immutable-field", "import-dropped", "import-kind", "import-lost", "import-mismatch", "import-other-object",
    "import-second-job", "init-container-name", "io-error", "istio-sidecar", "job-failed", "job-suspended",
    "kubeconform", "kueue-ignored",
    "kueue-priority-class", "kueue-queue", "kueue-suspend", "launcher-gpu", "launcher-wait-gang-deadlock",
    "legacy-api-version", "lossy-migration", "migrated-api", "migrated-field", "min-available",
    "min-available-too-large", "min-resources-mismatch", "min-resources-order", "missing-field", "mpijob-invalid",
    "no-mpijob", "no-podgroup", "no-schema", "no-spec", "nondeterministic", "not-a-spec", "not-an-object",
    "not-created", "not-migratable", "nothing-to-migrate", "object-meta", "object-missing", "operator-crash",
    "operator-version",
    "patch-adds-container", "patch-container-order", "patch-directive", "patch-element-order", "patch-field",
    "patch-merge-key", "patch-not-pod-template", "patch-overrides", "patch-owned", "patch-retain-keys",
    "patch-type", "plaintext-credential", "pod-containers",
    "pod-env", "pod-ports", "pod-probes", "pod-resources",
    "pod-scheduling", "pod-security", "pod-spec", "pod-unschedulable", "pod-volumes",
    "podgroup-differs", "podgroup-unschedulable", "priority-class", "priority-class-not-on-pods",
    "priority-class-spec", "priority-order", "quantity", "quantity-overflow", "queue-admits", "queue-cannot-admit",
    "queue-ignored", "queue-may-not-admit", "role-conflict",
    "role-null", "role-unknown", "runtime-copy", "runtime-field", "runtime-framework", "runtime-not-found",
    "schedule-timeout-zero", "scheduler-name", "scheduler-name-mismatch", "schema", "service-spec", "sidecar",
    "slots-gpu-mismatch", "slots-np-mismatch", "ssh-path-non-root", "stale-staging", "tensorboard-host-path",
    "template-file", "tensorboard-log-dir", "tensorboard-log-volume", "tensorboard-name", "trainer-depends-on-gang-deadlock",
    "trainer-limit-only-resource",
    "trainer-volcano-priority-class", "trainer-volcano-scheduler-name", "training-job-invalid",
    "trainingruntime-beside", "trainingruntime-invalid", "trainjob-gang", "trainjob-invalid",
    "trainjob-not-carried", "trainjob-patch-target-missing", "trainjob-runtime-missing", "unknown-api",
    "unknown-field", "unknown-null-field", "usage-error", "volcano-queue-name", "volume-mount-path", "volume-name",
    "volume-source", "volume-undefined", "worker-no-sshd", "workers", "workload-not-admitted",
    "yaml-bool", "yaml-duplicate-key",
    "yaml-encoding", "yaml-key", "yaml-merge", "yaml-number", "yaml-recursive-alias", "yaml-syntax", "yaml-tag",
    "yaml-too-deep", "yaml-too-large", "yaml-value", "zero-replicas",
})
"""Every code a diagnostic of mpigen can carry (docs/errors.md describes each; a test keeps this
set equal to the codes the source gives): what ``--disable`` and a configuration's ``disable`` may
name, with ``all`` (every rule)."""
DISABLE_ALL = "all"


def unknown_codes(codes: Iterable[str]) -> str | None:
    """What is wrong with ``codes`` (to switch off) when one is no code of mpigen's, each with the
    code it was probably meant to be; None when every one is a code, or ``all``."""
    wrong = [code for code in codes if code not in CODES and code != DISABLE_ALL]
    if not wrong:
        return None
    import difflib  # only when there is a wrong code to explain

    said = []
    for code in sorted(set(wrong)):
        close = [known for known in sorted(CODES) if known.startswith(code)]  # a code cut short
        close = close if len(close) == 1 else difflib.get_close_matches(code, sorted(CODES), n=1, cutoff=0.7)
        said.append(f"unknown code {code!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return "; ".join(said) + " (`mpigen rules` lists the lint rules, docs/errors.md every code)"


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` with its control characters (line breaks, carriage returns...) escaped as Python writes
    them: user text in a line of output stays on that line."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def format_path(path: Iterable[str | int]) -> str:
    """A JSON path as users read it: ``spec.volumes[0].claimName``.

    Keys that are not plain identifiers are quoted: ``metadata.annotations["a.b/c"]``.
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("_", "a").replace("-", "a").isalnum() and not part[:1].isdigit():
            out += f".{part}" if out else part
        else:
            escaped = part.replace("\\", "\\\\").replace('"', '\\"')
            out += f'["{escaped}"]'
    return out


GENERIC_CODE = "schema"
"""The schema's own code: a value of the wrong type, out of range, or not matching a pattern."""
SCHEMA_CODES = frozenset({GENERIC_CODE, "unknown-field", "missing-field"})


def one_per_problem(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each problem once: a generic ``schema`` error is dropped where an error of another check
    stands at the same file and JSON path (``quantity`` for ``gpu: two``, ``hostname`` for
    ``name: Bad_Name``). That check knows what the field means and says what is wrong in those
    terms; the schema says only that a type or a pattern did not match. A warning at the same
    place does not replace an error, and the schema's other codes (an unknown or a missing field)
    are problems of their own. Order is kept."""
    diagnostics = list(diagnostics)
    specific = {(d.file, d.path) for d in diagnostics
                if d.severity is Severity.ERROR and d.code not in SCHEMA_CODES}
    if not specific:
        return diagnostics
    return [d for d in diagnostics if d.code != GENERIC_CODE or (d.file, d.path) not in specific]


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to a misspelt ``word`` (case aside: ``openmpi`` gives ``OpenMPI``), or None."""
    import difflib  # only when there is an error to explain

    by_folded: dict[str, str] = {}
    for choice in choices:
        by_folded.setdefault(choice.casefold(), choice)
    close = difflib.get_close_matches(word.casefold(), list(by_folded), n=1)
    return by_folded[close[0]] if close else None


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Stable, readable order: by file, then position, then code; duplicates removed."""
    unique = set(diagnostics)
    return sorted(unique, key=lambda d: (d.file, d.line or 0, d.column or 0, d.path, d.code,
                                         d.severity.value, d.message))
