"""``mpigen podgroup``: the PodGroup the operator would create for an existing MPIJob.

The MPIJob is defaulted as the operator defaults it (``scheme.Default`` in its sync loop), then
handed to the port of ``newPodGroup``. Only the shape the computation relies on is checked
here, each problem reported with its line.
"""

from __future__ import annotations

from typing import Any

from .diagnostics import Diagnostic, Severity, format_path
from .load.yaml_loader import Document, LoadResult
from .operator import podgroup as pg
from .operator.mpi_defaults import set_defaults
from .operator.quantity import Quantity, QuantityError
from .operator.versions import format_version

MPIJOB_API = "kubeflow.org/v2beta1"
LEGACY_MPIJOB_APIS = ("kubeflow.org/v1alpha1", "kubeflow.org/v1alpha2", "kubeflow.org/v1")


def _shape_problems(job: dict[str, Any]) -> list[tuple[tuple, str]]:
    """Structural problems that would stop the operator (or this computation)."""
    problems: list[tuple[tuple, str]] = []

    def expect(value: Any, kind: type | tuple, path: tuple, what: str) -> bool:
        if value is None:
            return False
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            problems.append((path, f"expected {what}"))
            return False
        return True

    meta = job.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta.get("name"):
        problems.append((("metadata",), "an MPIJob needs metadata.name"))
    spec = job.get("spec")
    if not isinstance(spec, dict):
        problems.append((("spec",), "an MPIJob needs a spec mapping"))
        return problems
    run_policy = spec.get("runPolicy")
    if expect(run_policy, dict, ("spec", "runPolicy"), "a mapping"):
        policy = run_policy.get("schedulingPolicy")
        base = ("spec", "runPolicy", "schedulingPolicy")
        if expect(policy, dict, base, "a mapping"):
            for key in ("minAvailable", "scheduleTimeoutSeconds"):
                expect(policy.get(key), int, base + (key,), "an integer")
            for key in ("queue", "priorityClass"):
                expect(policy.get(key), str, base + (key,), "a string")
            problems += _quantities(policy.get("minResources"), base + ("minResources",))
    replicas = spec.get("mpiReplicaSpecs")
    if not isinstance(replicas, dict) or not isinstance(replicas.get("Launcher"), dict):
        problems.append((("spec", "mpiReplicaSpecs"), "an MPIJob needs spec.mpiReplicaSpecs with a Launcher"))
        return problems
    for role, replica in replicas.items():
        path = ("spec", "mpiReplicaSpecs", role)
        if role not in ("Launcher", "Worker"):
            problems.append((path, f"unknown replica type {role!r}: an MPIJob has Launcher and Worker"))
            continue
        if not expect(replica, dict, path, "a mapping"):
            continue
        expect(replica.get("replicas"), int, path + ("replicas",), "an integer")
        template = replica.get("template")
        if not isinstance(template, dict) or not isinstance(template.get("spec"), dict):
            problems.append((path + ("template",), "a replica needs template.spec"))
            continue
        pod = template["spec"]
        expect(pod.get("priorityClassName"), str, path + ("template", "spec", "priorityClassName"), "a string")
        containers = pod.get("containers")
        if not isinstance(containers, list) or not containers:
            problems.append((path + ("template", "spec", "containers"), "a pod needs at least one container"))
            continue
        for i, container in enumerate(containers):
            cpath = path + ("template", "spec", "containers", i)
            if not expect(container, dict, cpath, "a container mapping"):
                continue
            resources = container.get("resources")
            if expect(resources, dict, cpath + ("resources",), "a mapping"):
                for part in ("requests", "limits"):
                    problems += _quantities(resources.get(part), cpath + ("resources", part))
    return problems


def _quantities(values: Any, path: tuple) -> list[tuple[tuple, str]]:
    if values is None:
        return []
    if not isinstance(values, dict):
        return [(path, "expected a mapping of resource names to quantities")]
    out = []
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            out.append((path + (name,), "expected a quantity"))
            continue
        try:
            Quantity.parse(repr(value) if isinstance(value, float) else str(value))
        except QuantityError as exc:
            out.append((path + (name,), f"{value!r} is not a Kubernetes quantity ({exc})"))
    return out


def podgroups(loaded: LoadResult, filename: str, gang: str, scheduler_name: str,
              priority_classes: dict[str, int] | None, version: tuple[int, int, int]
              ) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """One PodGroup per MPIJob document in ``loaded``."""
    diagnostics = list(loaded.diagnostics)
    groups: list[dict[str, Any]] = []

    def report(doc: Document, path: tuple, code: str, message: str) -> None:
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), code, Severity.ERROR, message))

    for doc in loaded.documents:
        data = doc.data
        if not isinstance(data, dict) or data.get("kind") != "MPIJob":
            continue
        if data.get("apiVersion") in LEGACY_MPIJOB_APIS:
            report(doc, ("apiVersion",), "legacy-api",
                   f"{data['apiVersion']} MPIJobs are no longer served; convert it to {MPIJOB_API} "
                   "(mpigen migrate) first")
            continue
        if data.get("apiVersion") != MPIJOB_API:
            report(doc, ("apiVersion",), "unknown-api", f"unknown MPIJob apiVersion {data.get('apiVersion')!r}")
            continue
        problems = _shape_problems(data)
        for path, message in problems:
            report(doc, path, "mpijob-shape", message)
        if problems:
            continue
        try:
            group = pg.new_pod_group(set_defaults(data), gang, priority_classes or {},
                                     scheduler_name=scheduler_name, version=format_version(version))
        except pg.OperatorPanicError as exc:
            report(doc, ("spec",), "operator-crash", str(exc))
            continue
        groups.append(group)
    if not groups and not diagnostics:
        diagnostics.append(Diagnostic(filename, None, None, "", "no-mpijob", Severity.ERROR,
                                      f"no {MPIJOB_API} MPIJob in this file"))
    return groups, diagnostics
