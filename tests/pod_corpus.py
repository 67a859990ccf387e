"""The pod-rules corpus (tests/cases/pod_rules/): Pods the API server refuses, one problem each.

Every file holds two documents: a bare Pod (``apiVersion: v1``, ``kind: Pod``, a name, no
namespace) with exactly one problem, and a job whose pod template is that Pod's metadata and spec:
an MPIJob's Worker, or a PyTorchJob's Master where mpi-operator would overwrite the field. The
leading comment says what is wrong and what to expect:

- ``# code:`` the mpigen code that reports the job (a ``pod-*`` rule);
- ``# message:`` a substring of mpigen's message, which is the API server's own wording;
- ``# path:`` where mpigen points, as a path in the Pod (``spec.containers[0].ports[0].name``); the
  job's diagnostic is at the template's path followed by it. The API server sometimes reports the
  enclosing field (``resources.requests`` for a request above its limit);
- ``# apiserver:`` (only where it differs from ``message``) what kube-apiserver 1.35 answers
  instead: an admission plugin (Priority, ServiceAccount, RuntimeClass) refuses such a Pod before
  validation does;
- ``# go:`` the Go function of k8s.io/kubernetes v1.35.1 ``pkg/apis/core/validation`` ported;
- ``# operator:`` (only where mpi-operator's own additions make the problem) the Pod carries what
  mpi-operator v0.8.2 adds to the template, so it is not the template's copy.

Send the Pods to a kube-apiserver 1.35 (``kubectl create --dry-run=server -f``): each must be
refused with ``apiserver`` (else ``message``) in the answer. ``python -m tests.pod_corpus`` prints
mpigen's side: "validate catches A/N pod errors the API server refuses at pod creation".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CORPUS = Path(__file__).resolve().parent / "cases" / "pod_rules"
KEYS = ("code", "message", "path", "apiserver", "go", "operator")


@dataclass(frozen=True)
class Case:
    path: Path
    header: dict[str, str]  # the keys above; "what" is the first comment line
    pod: dict[str, Any]
    job: dict[str, Any]

    @property
    def apiserver(self) -> str:
        """The substring the API server's refusal contains."""
        return self.header.get("apiserver") or self.header["message"]


def read(path: Path) -> Case:
    header: dict[str, str] = {}
    for line in path.read_text("utf-8").splitlines():
        if not line.startswith("#"):
            break
        key, sep, value = line[1:].strip().partition(": ")
        if sep and key in KEYS:
            header[key] = value
        else:
            header.setdefault("what", line[1:].strip())
    pod, job = yaml.safe_load_all(path.read_text("utf-8"))
    return Case(path, header, pod, job)


def template(job: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """(path, template) of the job's pod template that carries the problem."""
    if job["kind"] == "MPIJob":
        path = ("spec", "mpiReplicaSpecs", "Worker", "template")
    else:
        path = ("spec", "pytorchReplicaSpecs", "Master", "template")
    node = job
    for key in path:
        node = node[key]
    return path, node


def cases() -> list[Case]:
    return [read(path) for path in sorted(CORPUS.glob("*.yaml"))]


def errors(case: Case) -> list[Any]:
    """The error diagnostics ``mpigen validate`` gives the case's file (the Pod has no schema)."""
    from mpigen.diagnostics import Severity
    from mpigen.validation.engine import ValidateOptions, validate_bytes

    diagnostics, _ = validate_bytes(case.path.read_bytes(), str(case.path), ValidateOptions())
    return [d for d in diagnostics if d.severity is Severity.ERROR]


def expected_path(case: Case) -> str:
    """Where the job's diagnostic must be: the template's path, then the header's path."""
    from mpigen.diagnostics import format_path

    return f"{format_path(template(case.job)[0])}.{case.header['path']}"


def caught(case: Case) -> bool:
    """Whether validate reports the case's problem: its code, at its field, with its message."""
    return any(d.code == case.header["code"] and d.path == expected_path(case) and case.header["message"] in d.message
               for d in errors(case))


def summary(all_cases: list[Case]) -> str:
    found = [case for case in all_cases if caught(case)]
    missed = sorted(case.path.stem for case in all_cases if case not in found)
    line = f"validate catches {len(found)}/{len(all_cases)} pod errors the API server refuses at pod creation"
    return line + (f"; missed: {', '.join(missed)}" if missed else "")


if __name__ == "__main__":
    print(summary(cases()))
