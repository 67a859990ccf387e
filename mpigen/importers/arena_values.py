"""The values of an ``arena submit`` line's flags, typed as arena reads them (ints, booleans,
durations, quantities, ``KEY=VALUE`` pairs, each with its default), and the diagnostics of the
importer (:mod:`mpigen.importers.arena`): a value arena would refuse is reported, and its default
read instead."""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, Severity
from ..operator.quantity import Quantity
from .arena_flags import FLAGS, Values, parse_bool, parse_duration_seconds, parse_int

SOURCE = "<arena>"
TAG = "v0.15.5"
_BY_NAME = {flag.name: flag for flag in FLAGS}


def _error(sink: list[Diagnostic], code: str, message: str, flag: str = "",
           severity: Severity = Severity.ERROR) -> None:
    sink.append(_diag(code, severity, message, flag))


def _warn(sink: list[Diagnostic], code: str, message: str, flag: str = "",
          severity: Severity = Severity.WARNING) -> None:
    sink.append(_diag(code, severity, message, flag))


def _diag(code: str, severity: Severity, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(SOURCE, None, None, path, code, severity, message)


class FlagReader:
    """The flags of one ``arena submit`` line (their values, the positional command, the problems
    the flag reader found), read typed, with arena's defaults."""

    def __init__(self, job: str, values: Values, positional: list[str], problems: list[tuple[str, str]]):
        self.job, self.values, self.positional = job, values, positional
        self.diagnostics: list[Diagnostic] = []
        for spelling, problem in problems:
            if problem == "unknown":
                _error(self.diagnostics, "arena-flag", f"unknown flag {spelling} for arena submit {self.kind} (arena {TAG})", spelling)
            else:
                _error(self.diagnostics, "arena-value", f"flag {spelling} needs a value", spelling)

    @property
    def kind(self) -> str:
        return {"mpi": "mpijob", "pytorch": "pytorchjob", "tf": "tfjob"}[self.job]

    def given(self, name: str) -> bool:
        return name in self.values

    def string(self, name: str) -> str:
        got = self.values.get(name)
        if got:
            return got[-1]
        default = _BY_NAME[name].default
        if name == "clean-task-policy":
            return "All" if self.job == "mpi" else "Running"
        return default

    def strings(self, name: str) -> list[str]:
        return self.values.get(name, [])

    def typed(self, name: str, parse: Any) -> Any:
        text = self.string(name)
        try:
            return parse(text)
        except ValueError as exc:
            _error(self.diagnostics, "arena-value", f"--{name}: {exc}", f"--{name}")
            return parse(_BY_NAME[name].default)

    def integer(self, name: str) -> int:
        return self.typed(name, parse_int)

    def boolean(self, name: str) -> bool:
        return self.typed(name, parse_bool)

    def queue(self) -> bool:
        """arena's ``--queue``: Kube-Queue's switch, which people take for a queue name."""
        meaning = ("arena's --queue is not a queue name: it is Kube-Queue's switch, which creates the job suspended "
                   "(annotation scheduling.x-k8s.io/suspend: \"true\") until kube-queue admits it")
        text = self.string("queue")
        try:
            enabled = parse_bool(text)
        except ValueError:
            _error(self.diagnostics, "arena-value", f"--queue {text!r}: {meaning}; to run the job in a Volcano queue "
                   f"or a Kueue LocalQueue named {text!r}, drop --queue and set spec.scheduling.queue (with "
                   "scheduling.gang) in the spec", "--queue")
            return False
        if enabled:
            _warn(self.diagnostics, "arena-queue", f"{meaning}; the imported spec does the same, so the job starts "
                  "only on a cluster running kube-queue (for a Volcano queue or a Kueue LocalQueue, drop --queue and "
                  "set spec.scheduling.queue)", "--queue")
        return enabled

    def seconds(self, name: str) -> int:
        return self.typed(name, parse_duration_seconds)

    def quantity(self, name: str) -> str:
        text = self.string(name)
        if text:
            try:
                Quantity.parse(text)
            except ValueError:
                _error(self.diagnostics, "arena-value", f"--{name}: {text!r} is not a Kubernetes quantity", f"--{name}")
        return text

    def pairs(self, name: str) -> dict[str, str]:
        """transformSliceToMap(values, "="): an item without = is dropped by arena."""
        out: dict[str, str] = {}
        for item in self.strings(name):
            key, eq, value = item.partition("=")
            if eq:
                out[key] = value
            else:
                _warn(self.diagnostics, "arena-ignored", f"--{name} {item!r} has no '=': arena ignores it", f"--{name}")
        return out
