"""Differential testing of mpigen's gang-scheduling port against the real mpi-operator controllers.

The oracles (``tests/oracle/mpi-v0.8``, built once against mpi-operator v0.8.2 and once against
v0.8.0, and ``tests/oracle/mpi-v0.4``) are small Go programs that run the real controller of
mpi-operator v0.8.2 / v0.8.0 / v0.4.0 (Go module dependencies, nothing copied) once per JSON line
against fake clientsets and print every object it created. This module

* builds them once into ``tests/oracle/bin/`` with ``go build`` (skipped when the binary is newer
  than its sources);
* runs a batch of cases through each binary in ONE process (JSON lines in, JSON lines out);
* compares, case by case, the operator's outcome (objects created / job rejected / panic) with
  mpigen's, the PodGroup it created with ``new_pod_group(set_defaults(job), ...)``, and the gang
  decoration (schedulerName, group annotation, group label) of every worker Pod and of the
  launcher Job's template with ``decorate_pod_template``, the number of worker Pods, and their
  containers' resources (and the launcher's) with what mpigen says the operator creates
  (``mpi_controller`` for v0.8.x, the template for v0.4.0), and the launcher Job itself (whether
  it is created, and its spec but for the template) with ``mpi_controller.created_objects``;
* shrinks every disagreement to a minimal reproduction (fewer replicas, containers, resources,
  fields), re-running the oracle in the same process.

Quantities in ``minResources`` are compared by value and by exact string. Where the operator is
not deterministic -- equal priorities, where Go's map iteration puts the Launcher or the Worker
first and only the *format* of a sum of mixed-format quantities changes -- the string must be one
of the outcomes Go can produce: mpigen's own (Launcher first) or the one with the Worker first,
computed by mpigen's code with the two equal-priority entries swapped.

``python -m tests.oracle.harness --cases N`` (``make oracle``) prints each disagreement with its
minimal reproduction and ends with the line ``A/N cases agree``.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator
from unittest import mock

from mpigen.operator import mpi_controller
from mpigen.operator import podgroup as pg
from mpigen.operator.mpi_defaults import set_defaults
from mpigen.operator.mpi_validation import validate_mpijob
from mpigen.versions import OperatorVersion
from tests.oracle import trainer, training

ORACLE_DIR = Path(__file__).resolve().parent
ROOT = ORACLE_DIR.parents[1]
BIN_DIR = ORACLE_DIR / "bin"
GOMODCACHE = ROOT / ".cache" / "gomod"
# operator version -> oracle binary (tests/oracle/bin/<name>), built from the module folder of that
# name unless ORACLE_BUILDS names another folder and go.mod
ORACLES = {"v0.8.2": "mpi-v0.8", "v0.8.0": "mpi-v0.8.0", "v0.4.0": "mpi-v0.4"}
# binary -> (module folder, its go.mod for this build): one main.go, built against two releases
ORACLE_BUILDS = {"mpi-v0.8.0": ("mpi-v0.8", "go.v0.8.0.mod")}
# training-operator v1.9.4 (PyTorchJob, TFJob): cases with "version": TRAINING (see training.py)
TRAINING = training.VERSION
# Kubeflow Trainer v2.3.0 (TrainJob): cases with "version": TRAINER (see trainer.py)
TRAINER = trainer.VERSION
ALL_ORACLES = {**ORACLES, TRAINING: training.MODULE, TRAINER: trainer.MODULE}
MAX_PODS = 3  # worker Pods listed in full per case; counts and decorations cover all of them

DNS1035 = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
_GO_FIELD_ERROR = re.compile(
    r"((?:metadata|spec)(?:\.[A-Za-z]+|\[[A-Za-z0-9]+\])*): "
    r"(?:Invalid value|Required value|Unsupported value|Duplicate value|Forbidden|Too long|Not found)")


class BuildError(RuntimeError):
    pass


# ------------------------------------------------------------------ building and running


def go_env() -> dict[str, str]:
    return dict(os.environ, GOFLAGS="-mod=mod", GOMODCACHE=str(GOMODCACHE))


def build(module: str, *, force: bool = False) -> tuple[Path, float | None]:
    """``go build`` the oracle ``module`` into ``tests/oracle/bin/<module>``: the folder
    ``tests/oracle/<module>`` with its go.mod, or the folder and go.mod ``ORACLE_BUILDS`` names.

    Returns the binary and the build time in seconds, or None when it was already up to date.
    """
    go = shutil.which("go")
    if go is None:
        raise BuildError("the go command is not on PATH")
    folder, modfile = ORACLE_BUILDS.get(module, (module, "go.mod"))
    src = ORACLE_DIR / folder
    out = BIN_DIR / module
    inputs = [src / modfile, src / (modfile.removesuffix(".mod") + ".sum"), *src.glob("*.go")]
    newest = max(p.stat().st_mtime for p in inputs)
    if not force and out.exists() and out.stat().st_mtime >= newest:
        return out, None
    BIN_DIR.mkdir(exist_ok=True)
    started = time.monotonic()
    # -trimpath: without it Go's build cache keys every package by its folder, and each clone has
    # its own module cache (.cache/gomod), so every fresh clone added gigabytes of new cache entries.
    proc = subprocess.run([go, "build", "-trimpath", f"-modfile={modfile}", "-o", str(out), "."], cwd=src,
                          env=go_env(), capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"go build in {src} failed:\n{proc.stderr}")
    return out, time.monotonic() - started


class Oracle:
    """One long-lived oracle process: requests are JSON lines in, responses JSON lines out."""

    def __init__(self, binary: Path, args: list[str] | None = None):
        self.binary = binary
        self.proc = subprocess.Popen([str(binary), *(args or [])], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1 << 20)
        self._stderr: list[str] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self._stderr.append(line)

    def run(self, requests: list[dict]) -> list[dict]:
        """Sends every request, then reads as many responses (a writer thread avoids a pipe deadlock)."""
        def write() -> None:
            for request in requests:
                self.proc.stdin.write(json.dumps(request, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        responses = []
        for request in requests:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"oracle {self.binary.name} exited ({self.proc.poll()}): "
                                   + "".join(self._stderr[-20:]))
            response = json.loads(line)
            if response.get("id") != request["id"]:
                raise RuntimeError(f"oracle answered {response.get('id')!r} to {request['id']!r}")
            responses.append(response)
        writer.join()
        return responses

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.stdin.close()
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=30)
        if self.proc.poll() is None:
            self.proc.kill()


def request_of(case: dict) -> dict:
    """The oracle's request line for a case (everything but ``version``)."""
    if case["version"] == TRAINING:
        return training.request_of(case)
    if case["version"] == TRAINER:
        return trainer.request_of(case)
    request = {k: case[k] for k in ("id", "mpijob", "priorityClasses", "gang", "schedulerName")}
    request["maxPods"] = MAX_PODS
    return request


# ------------------------------------------------------------------ what mpigen says


@dataclass
class Expected:
    outcome: str  # "ok" | "invalid" | "panic" | "mpigen-error"
    detail: str = ""
    invalid_paths: list[str] = field(default_factory=list)
    podgroup: dict | None = None
    # every minResources string map Go can produce (one, or two with equal priorities)
    min_resources_variants: list[dict[str, str]] = field(default_factory=list)
    decorations: dict[tuple[str, str], dict] = field(default_factory=dict)
    workers: int = 0
    # (kind, role) -> the template's containers' resources, as the created objects must carry them
    resources: dict[tuple[str, str], list[dict]] = field(default_factory=dict)
    # the launcher Job's spec but for its template (None: no launcher Job at the first sync)
    launcher: dict | None = None


def go_field_path(path: tuple) -> str:
    """('spec', 'mpiReplicaSpecs', 'Worker', 'replicas') -> 'spec.mpiReplicaSpecs[Worker].replicas'."""
    out = ""
    previous = None
    for part in path:
        if isinstance(part, int) or previous == "mpiReplicaSpecs":
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
        previous = part
    return out


def name_problem(job: dict) -> list[str]:
    """``validateMPIJobName``: the last worker's hostname must be a DNS-1035 label."""
    worker = ((job.get("spec") or {}).get("mpiReplicaSpecs") or {}).get("Worker")
    replicas = 1
    if worker is not None and isinstance(worker.get("replicas"), int) and worker["replicas"] > 0:
        replicas = worker["replicas"]
    host = f"{(job.get('metadata') or {}).get('name', '')}-worker-{replicas - 1}"
    if len(host) > 63 or not DNS1035.fullmatch(host):
        return ["metadata.name"]
    return []


@contextlib.contextmanager
def equal_priorities_swapped() -> Iterator[None]:
    """mpigen's podgroup code with the other order Go's map iteration can give equal priorities.

    mpigen orders Launcher then Worker and sorts stably; Go ranges over a map, so with equal
    priorities the Worker may come first. Only ``_replicas_order`` is patched: the cut and the
    sum are mpigen's own code.
    """
    original = pg._replicas_order

    def swapped(job, priority_classes):
        order = original(job, priority_classes)
        if len(order) == 2 and order[0]["priority"] == order[1]["priority"]:
            order = [order[1], order[0]]
        return order

    with mock.patch.object(pg, "_replicas_order", swapped):
        yield


def _template(job: dict, rtype: str) -> dict | None:
    spec = ((job.get("spec") or {}).get("mpiReplicaSpecs") or {}).get(rtype)
    return None if spec is None else (spec.get("template") or {})


def _decoration_of(template: dict) -> dict:
    meta = template.get("metadata") or {}
    return {"schedulerName": (template.get("spec") or {}).get("schedulerName") or "",
            "groupAnnotation": (meta.get("annotations") or {}).get(pg.VOLCANO_GROUP_NAME_ANNOTATION),
            "groupLabel": (meta.get("labels") or {}).get(pg.SCHEDULER_PLUGINS_POD_GROUP_LABEL)}


def _created_resources(job: dict, rtype: str, gang: str, scheduler_name: str, version: str,
                       priority_classes: dict[str, int] | None = None) -> list[dict]:
    """The containers' resources of the worker Pods / launcher Job mpigen says the operator creates:
    from ``mpi_controller`` (mpigen's port of the v0.8.x object builders) for v0.8.x, else the
    template's."""
    if not OperatorVersion.parse(version).legacy:
        job = dict(job, metadata=dict(job["metadata"]))
        job["metadata"].setdefault("namespace", "default")
        if gang and not (job["spec"].get("runPolicy") or {}).get("suspend"):  # the PodGroup is made first
            job = mpi_controller.as_mutated_by_min_resources(job, gang, priority_classes,
                                                             OperatorVersion.parse(version))
        if rtype == "Worker":
            pod = mpi_controller.worker_pod(job, 0, gang or None, scheduler_name)["spec"]
        else:
            pod = mpi_controller.launcher_template(job, gang or None, scheduler_name)["spec"]
    else:  # the template's quantities, written as Go's String() writes them
        pod = (_template(job, rtype) or {}).get("spec") or {}
        return [{part: {n: mpi_controller.go_quantity_text(v) for n, v in (c.get("resources") or {}).get(part).items()}
                 for part in ("requests", "limits") if isinstance((c.get("resources") or {}).get(part), dict)}
                for c in pod.get("containers") or []]
    return [c.get("resources") or {} for c in pod.get("containers") or []]


def _launcher_spec(job: dict, gang: str, scheduler_name: str, version: str,
                   priority_classes: dict[str, int]) -> dict | None:
    """The spec, template aside, of the launcher Job ``mpi_controller`` says the first sync creates."""
    objects = mpi_controller.created_objects(job, gang or None, scheduler_name=scheduler_name,
                                             priority_classes=priority_classes,
                                             version=OperatorVersion.parse(version), max_workers=0)
    launcher = next((o for o in objects if o["kind"] == "Job"), None)
    return None if launcher is None else {k: v for k, v in launcher["spec"].items() if k != "template"}


def expected(case: dict) -> Expected:
    """What mpigen says the operator does with this case."""
    if case["version"] == TRAINING:
        return training.expected(case)
    if case["version"] == TRAINER:
        return trainer.expected(case)
    version = case["version"]
    gang = case["gang"]
    scheduler_name = case["schedulerName"] or pg.DEFAULT_SCHEDULER_PLUGINS_NAME
    try:
        job = set_defaults(case["mpijob"], OperatorVersion.parse(version))
        invalid = sorted(set([go_field_path(p) for p, _ in validate_mpijob(job)] + name_problem(job)))
        if invalid:
            return Expected("invalid", "; ".join(invalid), invalid_paths=invalid)
        pcs = {pc["name"]: pc["value"] for pc in case["priorityClasses"]}
        exp = Expected("ok")
        worker = job["spec"]["mpiReplicaSpecs"].get("Worker")
        exp.workers = worker["replicas"] if worker is not None else 0
        name = job["metadata"]["name"]
        for rtype, key in (("Worker", ("Pod", "worker")), ("Launcher", ("Job", "launcher"))):
            template = _template(job, rtype)
            if template is None:
                continue
            exp.resources[key] = _created_resources(job, rtype, gang, scheduler_name, version, pcs)
            if gang:
                template = pg.decorate_pod_template(template, name, gang, scheduler_name)
            exp.decorations[key] = _decoration_of(template)
        if not gang:
            exp.launcher = _launcher_spec(job, gang, scheduler_name, version, pcs)
            return exp
        try:
            release = OperatorVersion.parse(version)
            exp.podgroup = pg.new_pod_group(job, gang, pcs, scheduler_name=scheduler_name, version=release)
            with equal_priorities_swapped():
                other = pg.new_pod_group(job, gang, pcs, scheduler_name=scheduler_name, version=release)
        except pg.OperatorPanicError as e:
            return Expected("panic", str(e))
        exp.launcher = _launcher_spec(job, gang, scheduler_name, version, pcs)
        for group in (exp.podgroup, other):
            variant = group["spec"].get("minResources") if group else None
            if variant is not None and variant not in exp.min_resources_variants:
                exp.min_resources_variants.append(variant)
        return exp
    except Exception as e:  # a crash of mpigen's port is a disagreement, not a harness failure
        return Expected("mpigen-error", f"{type(e).__name__}: {e}")


# ------------------------------------------------------------------ comparing


@dataclass
class Disagreement:
    case_id: str
    version: str
    key: str  # what disagrees, e.g. "outcome ok/panic", "podgroup.spec.minResources"
    detail: str
    # A note is an expected difference that is not a disagreement: the operator's output is one of
    # the outcomes Go can produce but not the one mpigen fixed (see MAP_ORDER_NOTE).
    note: bool = False


MAP_ORDER_NOTE = "podgroup.spec.minResources.format:equal-priority-order"


def oracle_outcome(response: dict) -> str:
    error = response.get("error") or ""
    if not error:
        return "ok"
    if error.startswith("validation:"):
        return "invalid"
    if error.startswith("panic:"):
        return "panic"
    return "error"


_QUANTITY_TEXT = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)")
_DECIMAL_SUFFIX = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY_SUFFIX = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}


def exact_value(text: str) -> Fraction:
    """The exact value a quantity string spells, with no rounding or capping.

    For comparing values: re-parsing a quantity caps BinarySI at 2**63-1 (as Go does), so two
    spellings of one huge value, 30579283667054742636Ki and 31313186475064056459264, would
    compare unequal through Quantity.parse.
    """
    sign, whole, frac, suffix = _QUANTITY_TEXT.fullmatch(text).groups()
    value = Fraction(int(whole or "0")) + (Fraction(int(frac), 10 ** len(frac)) if frac else 0)
    if suffix in _DECIMAL_SUFFIX:
        value *= Fraction(10) ** _DECIMAL_SUFFIX[suffix]
    elif suffix in _BINARY_SUFFIX:
        value *= 2 ** _BINARY_SUFFIX[suffix]
    else:  # e/E exponent
        value *= Fraction(10) ** int(suffix[1:])
    return -value if sign == "-" else value


def _quantity_maps_equal_by_value(a: dict[str, str], b: dict[str, str]) -> bool:
    return sorted(a) == sorted(b) and all(exact_value(a[k]) == exact_value(b[k]) for k in a)


def compare_podgroup(case: dict, exp: Expected, got: dict | None) -> Iterator[Disagreement]:
    def dis(key: str, detail: str) -> Disagreement:
        return Disagreement(case["id"], case["version"], key, detail)

    want = exp.podgroup
    if want is None or got is None:
        if (want is None) != (got is None):
            yield dis("podgroup.presence", f"operator created {'no' if got is None else 'a'} PodGroup, "
                                           f"mpigen {'none' if want is None else 'one'}")
        return
    for key in ("apiVersion", "kind"):
        if got.get(key) != want.get(key):
            yield dis(f"podgroup.{key}", f"operator {got.get(key)!r}, mpigen {want.get(key)!r}")
    got_meta = {k: v for k, v in (got.get("metadata") or {}).items() if k in ("name", "namespace")}
    if got_meta != want["metadata"]:
        yield dis("podgroup.metadata", f"operator {got_meta}, mpigen {want['metadata']}")
    got_spec = dict(got.get("spec") or {})
    want_spec = dict(want["spec"])
    got_min = got_spec.pop("minResources", None)
    want_min = want_spec.pop("minResources", None)
    for key in sorted(set(got_spec) | set(want_spec)):
        if got_spec.get(key) != want_spec.get(key):
            yield dis(f"podgroup.spec.{key}", f"operator {got_spec.get(key)!r}, mpigen {want_spec.get(key)!r}")
    if (got_min is None) != (want_min is None):
        yield dis("podgroup.spec.minResources", f"operator {got_min!r}, mpigen {want_min!r}")
    elif got_min is not None:
        if got_min not in exp.min_resources_variants:
            if not _quantity_maps_equal_by_value(got_min, want_min):
                yield dis("podgroup.spec.minResources.value", f"operator {got_min}, mpigen {want_min}")
            else:
                yield dis("podgroup.spec.minResources.format",
                          f"operator {got_min}, mpigen's possible outcomes {exp.min_resources_variants}")
        elif got_min != want_min:
            # One of Go's outcomes, not mpigen's: Go's map iteration put the Worker first.
            yield Disagreement(case["id"], case["version"], MAP_ORDER_NOTE,
                               f"operator {got_min}, mpigen {want_min}", note=True)


def compare(case: dict, response: dict, exp: Expected | None = None) -> list[Disagreement]:
    exp = exp or expected(case)
    if case["version"] == TRAINING:
        return training.compare(case, response, exp)
    if case["version"] == TRAINER:
        return trainer.compare(case, response, exp)
    out: list[Disagreement] = []

    def dis(key: str, detail: str) -> None:
        out.append(Disagreement(case["id"], case["version"], key, detail))

    got = oracle_outcome(response)
    if exp.outcome == "mpigen-error":
        dis("mpigen-error", f"mpigen raised {exp.detail}; operator: {response.get('error') or 'ok'}")
        return out
    if got != exp.outcome:
        dis(f"outcome {got}/{exp.outcome}",
            f"operator: {response.get('error') or 'created its objects'}"
            + (f" [{response['panicAt']}]" if response.get("panicAt") else "")
            + f"; mpigen: {exp.detail or 'creates them'}")
        return out
    if got == "invalid":
        paths = sorted(set(_GO_FIELD_ERROR.findall(response["error"])))
        if paths != exp.invalid_paths:
            dis("validation.paths", f"operator rejects {paths}, mpigen {exp.invalid_paths}")
        return out
    if got != "ok":
        return out  # both panic: the operator would crash either way
    podgroups = [o for o in response["objects"] if o.get("kind") == "PodGroup"]
    if len(podgroups) > 1:
        dis("podgroup.count", f"operator created {len(podgroups)} PodGroups")
    out.extend(compare_podgroup(case, exp, podgroups[0] if podgroups else None))  # (notes included)
    pods = response["counts"].get("Pod", 0)
    if pods != exp.workers:
        dis("pods.count", f"operator created {pods} Pods, mpigen expects {exp.workers} workers")
    for deco in response["decorations"]:
        key = (deco["kind"], deco["role"])
        got_deco = {k: deco[k] for k in ("schedulerName", "groupAnnotation", "groupLabel")}
        want_deco = exp.decorations.get(key)
        if want_deco is None:
            dis("decoration.unexpected", f"operator made a {key[0]} with role {key[1]!r}: {got_deco}")
        elif got_deco != want_deco:
            dis(f"decoration.{key[0]}.{key[1]}", f"operator {got_deco}, mpigen {want_deco}")
    jobs = [o for o in response["objects"] if o.get("kind") == "Job"]
    if (exp.launcher is None) != (not jobs):
        dis("launcher.presence", f"operator created {len(jobs)} launcher Job(s), "
                                 f"mpigen {'none' if exp.launcher is None else 'one'}")
    elif jobs:
        got_launcher = {k: v for k, v in jobs[0]["spec"].items() if k != "template"}
        if got_launcher != exp.launcher:
            dis("launcher.spec", f"operator {got_launcher}, mpigen {exp.launcher}")
    for obj in response["objects"]:
        if obj.get("kind") == "Pod":
            key, containers = ("Pod", "worker"), obj["spec"].get("containers") or []
        elif obj.get("kind") == "Job":
            key, containers = ("Job", "launcher"), obj["spec"]["template"]["spec"].get("containers") or []
        else:
            continue
        for i, (container, want) in enumerate(zip(containers, exp.resources.get(key, []))):
            problem = _resources_problem(container.get("resources") or {}, want)
            if problem:
                dis(f"resources.{key[0]}.{key[1]}", f"{obj['metadata']['name']} container {i}: {problem}")
                break
    return out


def _resources_problem(got: dict, want: dict) -> str:
    """How a created container's resources differ from what mpigen says they are ("" if not).

    The operator writes each quantity with Go's String(): the text it was parsed from when the
    parser judged it canonical, else the canonical form (which for some huge values drops the
    suffix: 1e24 prints "1"); ``str()`` of mpigen's Quantity reproduces exactly that.
    """
    for part in ("requests", "limits"):
        got_list, want_list = got.get(part) or {}, want.get(part) or {}
        if sorted(got_list) != sorted(want_list):
            return f"{part} {got_list}, template {want_list}"
        for name in got_list:
            # mpigen's builders already write Go's String(); parsing that again would clamp a
            # multiplied binary value above 2^63-1 (9214Pi), which the operator never re-parses.
            text = want_list[name] if isinstance(want_list[name], str) else str(pg._parse(want_list[name]))
            if got_list[name] != text:
                g, w = exact_value(got_list[name]), exact_value(text)
                ratio = f" (x{g / w})" if w else ""
                return f"{part}.{name} is {got_list[name]}, the template says {want_list[name]!r}{ratio}"
    return ""


# ------------------------------------------------------------------ shrinking


def _replace(case: dict, path: tuple, value: Any = ..., *, delete: bool = False) -> dict:
    new = copy.deepcopy(case)
    parent = new
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        if isinstance(parent, list):
            parent.pop(path[-1])
        else:
            del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return new


def _candidates(case: dict) -> Iterator[dict]:
    """Smaller variants of a case, roughly the biggest simplifications first."""
    spec_path = ("mpijob", "spec")
    spec = case["mpijob"]["spec"]
    specs = spec.get("mpiReplicaSpecs") or {}
    worker = specs.get("Worker")
    if worker is not None and isinstance(worker.get("replicas"), int):
        n = worker["replicas"]
        for smaller in sorted({0, 1, 2, 3, n // 2, n - 1}):
            if 0 <= smaller < n:
                yield _replace(case, spec_path + ("mpiReplicaSpecs", "Worker", "replicas"), smaller)
    policy = (spec.get("runPolicy") or {}).get("schedulingPolicy")
    for i in range(len(case["priorityClasses"])):
        yield _replace(case, ("priorityClasses", i), delete=True)
    for rtype in list(specs):
        yield _replace(case, spec_path + ("mpiReplicaSpecs", rtype), delete=True)
    if policy is not None:
        yield _replace(case, spec_path + ("runPolicy", "schedulingPolicy"), delete=True)
        for key in list(policy):
            yield _replace(case, spec_path + ("runPolicy", "schedulingPolicy", key), delete=True)
        for name in list(policy.get("minResources") or {}):
            yield _replace(case, spec_path + ("runPolicy", "schedulingPolicy", "minResources", name), delete=True)
    for key in list(spec.get("runPolicy") or {}):
        if key != "schedulingPolicy":
            yield _replace(case, spec_path + ("runPolicy", key), delete=True)
    for key in list(spec):
        if key not in ("mpiReplicaSpecs", "runPolicy"):
            yield _replace(case, spec_path + (key,), delete=True)
    if "annotations" in case["mpijob"]["metadata"]:
        yield _replace(case, ("mpijob", "metadata", "annotations"), delete=True)
    for rtype, replica in specs.items():
        rpath = spec_path + ("mpiReplicaSpecs", rtype)
        template = replica.get("template") or {}
        if "metadata" in template:
            yield _replace(case, rpath + ("template", "metadata"), delete=True)
        pod = template.get("spec") or {}
        for key in list(pod):
            if key != "containers":
                yield _replace(case, rpath + ("template", "spec", key), delete=True)
        containers = pod.get("containers") or []
        for i, container in enumerate(containers):
            cpath = rpath + ("template", "spec", "containers", i)
            if len(containers) > 1:
                yield _replace(case, cpath, delete=True)
            res = container.get("resources")
            if res is None:
                continue
            yield _replace(case, cpath + ("resources",), delete=True)
            for part in list(res):
                yield _replace(case, cpath + ("resources", part), delete=True)
                for name, value in list((res.get(part) or {}).items()):
                    yield _replace(case, cpath + ("resources", part, name), delete=True)
                    if value not in ("1", 1):
                        yield _replace(case, cpath + ("resources", part, name), "1")
        if "replicas" in replica and rtype == "Launcher":
            yield _replace(case, rpath + ("replicas",), delete=True)
    for i, pc in enumerate(case["priorityClasses"]):
        if pc["value"] not in (0, 1):
            yield _replace(case, ("priorityClasses", i, "value"), 1)
    if "runPolicy" in spec:
        yield _replace(case, spec_path + ("runPolicy",), delete=True)
    for rtype, replica in specs.items():
        for i, container in enumerate(((replica.get("template") or {}).get("spec") or {}).get("containers") or []):
            if container.get("name") != "c":
                yield _replace(case, spec_path + ("mpiReplicaSpecs", rtype, "template", "spec", "containers", i,
                                                  "name"), "c")
    if case["mpijob"]["metadata"]["name"] != "pi":
        yield _replace(case, ("mpijob", "metadata", "name"), "pi")
    if case["mpijob"]["metadata"].get("namespace") != "default":
        yield _replace(case, ("mpijob", "metadata", "namespace"), "default")


def _size(case: dict) -> tuple[int, int]:
    worker = (case["mpijob"]["spec"].get("mpiReplicaSpecs") or {}).get("Worker") or {}
    replicas = worker.get("replicas") if isinstance(worker.get("replicas"), int) else 0
    return (len(json.dumps(case)), replicas)


CANONICAL_QUANTITIES = ("1", "2", "0.5", "1.5Gi", "1Gi")


def _canonical_variants(case: dict) -> Iterator[dict]:
    """The same case with values replaced by canonical ones (not smaller, but alike across cases)."""
    for path, _ in _quantity_paths(case):
        if path[-1] != "memory" and "memory" not in _parent(case, path):
            moved = _replace(case, path, delete=True)
            _parent(moved, path)["memory"] = _parent(case, path)[path[-1]]
            yield moved
        if path[-2] == "limits" and "requests" not in _parent(case, path[:-1]):
            moved = _replace(case, path[:-1], delete=True)
            _parent(moved, path[:-1])["requests"] = _parent(case, path[:-1])["limits"]
            yield moved
    for path, value in _quantity_paths(case):
        rank = CANONICAL_QUANTITIES.index(value) if value in CANONICAL_QUANTITIES else len(CANONICAL_QUANTITIES)
        for simpler in CANONICAL_QUANTITIES[:rank]:
            yield _replace(case, path, simpler)
    if case["schedulerName"] not in ("", pg.DEFAULT_SCHEDULER_PLUGINS_NAME):
        yield _replace(case, ("schedulerName",), pg.DEFAULT_SCHEDULER_PLUGINS_NAME)
    specs = case["mpijob"]["spec"].get("mpiReplicaSpecs") or {}
    names = {pc["name"]: f"class-{i}" for i, pc in enumerate(case["priorityClasses"])}
    for rtype, replica in specs.items():
        pod = ((replica or {}).get("template") or {}).get("spec") or {}
        pc = pod.get("priorityClassName")
        if pc and pc not in names.values():
            wanted = names.get(pc, "missing")
            if pc != wanted:
                variant = _replace(case, ("mpijob", "spec", "mpiReplicaSpecs", rtype, "template", "spec",
                                          "priorityClassName"), wanted)
                for i, other in enumerate(variant["priorityClasses"]):
                    if other["name"] == pc:
                        variant["priorityClasses"][i]["name"] = wanted
                yield variant


def _parent(case: dict, path: tuple) -> Any:
    node = case
    for key in path[:-1]:
        node = node[key]
    return node


def _quantity_paths(case: dict) -> Iterator[tuple[tuple, Any]]:
    spec = case["mpijob"]["spec"]
    policy = (spec.get("runPolicy") or {}).get("schedulingPolicy") or {}
    for name, value in (policy.get("minResources") or {}).items():
        yield ("mpijob", "spec", "runPolicy", "schedulingPolicy", "minResources", name), value
    for rtype, replica in (spec.get("mpiReplicaSpecs") or {}).items():
        containers = (((replica or {}).get("template") or {}).get("spec") or {}).get("containers") or []
        for i, container in enumerate(containers):
            for part, values in (container.get("resources") or {}).items():
                for name, value in (values or {}).items():
                    yield (("mpijob", "spec", "mpiReplicaSpecs", rtype, "template", "spec", "containers", i,
                            "resources", part, name), value)


def shrink(case: dict, still_disagrees: Callable[[dict], bool], budget: int = 2000) -> dict:
    """Greedy shrinking: take any smaller variant that still shows the same disagreement, then
    canonical values where they keep it (so that the reproductions of one bug look alike)."""
    current = _shrink(case, still_disagrees, budget)
    for _ in range(50):
        for candidate in _canonical_variants(current):
            if still_disagrees(candidate):
                current = candidate
                break
        else:
            break
    return current


def _shrink(case: dict, still_disagrees: Callable[[dict], bool], budget: int) -> dict:
    current = case
    progress = True
    while progress and budget > 0:
        progress = False
        for candidate in _candidates(current):
            if _size(candidate) >= _size(current):
                continue
            budget -= 1
            if still_disagrees(candidate):
                current = candidate
                progress = True
                break
            if budget <= 0:
                break
    return current


# ------------------------------------------------------------------ running a batch


@dataclass
class Result:
    case: dict
    response: dict
    expected: Expected
    found: list[Disagreement]  # disagreements and notes

    @property
    def disagreements(self) -> list[Disagreement]:
        return [d for d in self.found if not d.note]

    @property
    def notes(self) -> list[Disagreement]:
        return [d for d in self.found if d.note]


class Harness:
    """Builds the oracles, keeps one process per operator version, runs and shrinks cases."""

    def __init__(self, versions=tuple(ORACLES), *, force_build: bool = False, log=None):
        self.log = log or (lambda msg: None)
        self.build_seconds: dict[str, float | None] = {}
        self.oracles: dict[str, Oracle] = {}
        for version in versions:
            binary, seconds = build(ALL_ORACLES[version], force=force_build)
            self.build_seconds[version] = seconds
            self.log(f"oracle {ALL_ORACLES[version]}: " + ("up to date" if seconds is None else f"built in {seconds:.1f}s"))
            self.oracles[version] = Oracle(binary, trainer.oracle_args() if version == TRAINER else None)

    def close(self) -> None:
        for oracle in self.oracles.values():
            oracle.close()

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def run(self, cases: list[dict]) -> list[Result]:
        """Every case through its version's oracle: one batch per oracle process."""
        by_version: dict[str, list[dict]] = {}
        for case in cases:
            by_version.setdefault(case["version"], []).append(case)
        responses: dict[str, dict] = {}
        for version, batch in by_version.items():
            started = time.monotonic()
            for case, response in zip(batch, self.oracles[version].run([request_of(c) for c in batch])):
                responses[case["id"]] = response
            self.log(f"{ALL_ORACLES[version]}: {len(batch)} cases in {time.monotonic() - started:.1f}s")
        results = []
        for case in cases:
            response = responses[case["id"]]
            exp = expected(case)
            results.append(Result(case, response, exp, compare(case, response, exp)))
        return results

    def disagreements_of(self, case: dict) -> list[Disagreement]:
        [response] = self.oracles[case["version"]].run([request_of(case)])
        return [d for d in compare(case, response) if not d.note]

    def minimal(self, case: dict, key: str) -> dict:
        """The smallest variant of ``case`` that still shows a disagreement with this key."""
        def still(candidate: dict) -> bool:
            return any(d.key == key for d in self.disagreements_of(candidate))
        if case["version"] == TRAINING:
            return training.shrink(case, still)
        if case["version"] == TRAINER:
            return trainer.shrink(case, still)
        return shrink(case, still)


def reproduction(case: dict) -> str:
    """A case as the oracle's request line, plus the operator version."""
    request = request_of(case)
    request.pop("maxPods", None)
    return f"version {case['version']}: " + json.dumps(request, separators=(",", ":"))


def coverage(results: list[Result]) -> dict[str, int]:
    """What a batch exercised, so that a test cannot pass by comparing nothing."""
    counts: dict[str, int] = {}

    def bump(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    for r in results:
        if r.case["version"] in (TRAINING, TRAINER):
            for key in (training if r.case["version"] == TRAINING else trainer).coverage_keys(r):
                bump(key)
            continue
        version, gang = r.case["version"], r.case["gang"] or "none"
        bump(f"outcome {r.expected.outcome}")
        bump(f"oracle {oracle_outcome(r.response)} {version}")
        if r.expected.podgroup is not None and oracle_outcome(r.response) == "ok":
            bump(f"podgroup {version} {gang}")
            if r.expected.podgroup["spec"].get("minResources"):
                bump(f"minResources {version} {gang}")
            if len(r.expected.min_resources_variants) > 1:
                bump("minResources format depends on map order")
            if r.notes:
                bump("operator took the other equal-priority order")
        if r.expected.launcher is not None and oracle_outcome(r.response) == "ok":
            bump(f"launcher Job {version}")
        if r.expected.workers >= 1000 and oracle_outcome(r.response) == "ok":
            bump("1000+ workers")
    return dict(sorted(counts.items()))


def report(harness: Harness, results: list[Result], *, out=sys.stdout, shrink_limit: int = 40) -> dict:
    """Prints every disagreement with a minimal reproduction (identical ones once) and the summary."""
    disagreeing = [r for r in results if r.disagreements]
    minimal_seen: dict[str, list[str]] = {}
    shrunk = 0
    for result in disagreeing:
        first = result.disagreements[0]
        print(f"DISAGREEMENT {result.case['id']} ({first.version}, gang {result.case['gang'] or 'none'}):", file=out)
        for d in result.disagreements:
            print(f"  {d.key}: {d.detail}", file=out)
        if shrunk < shrink_limit:
            shrunk += 1
            small = harness.minimal(result.case, first.key)
            small["id"] = "min"
            text = reproduction(small)
            again = harness.disagreements_of(small)
            if text in minimal_seen:
                print(f"  minimal reproduction: same as for {minimal_seen[text][0]}", file=out)
            else:
                print(f"  minimal reproduction: {text}", file=out)
                for d in again:
                    print(f"    -> {d.key}: {d.detail}", file=out)
            minimal_seen.setdefault(text, []).append(result.case["id"])
        else:
            print(f"  (not shrunk: more than {shrink_limit} disagreeing cases) {reproduction(result.case)}", file=out)
    noted = [r for r in results if r.notes and not r.disagreements]
    plugin_order = [r for r in noted if r.case["version"] == TRAINER]
    noted = [r for r in noted if r.case["version"] != TRAINER]
    if noted:
        print(f"NOTE {len(noted)} agreeing case(s) where Go's map iteration ordered equal-priority replica "
              f"types otherwise than mpigen's fixed order (MPIJob: Launcher, Worker; PyTorchJob/TFJob: the "
              f"document's), so the operator wrote another of its possible minResources; (e.g. "
              f"{noted[0].case['id']}: {noted[0].notes[0].detail})", file=out)
    if plugin_order:
        print(f"NOTE {len(plugin_order)} agreeing TrainJob case(s) where Go's map iteration ran Trainer's plugins in "
              f"another order than mpigen's (the registry's source order), so the env came in another order; (e.g. "
              f"{plugin_order[0].case['id']}: {plugin_order[0].notes[0].detail})", file=out)
    agree = len(results) - len(disagreeing)
    print("coverage: " + ", ".join(f"{k}: {v}" for k, v in coverage(results).items()), file=out)
    print(f"{agree}/{len(results)} cases agree", file=out)
    return {"agree": agree, "total": len(results), "minimal": minimal_seen}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.oracle.harness", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="number of random cases (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis seed for the cases (default 0)")
    parser.add_argument("--versions", default=",".join(ALL_ORACLES),
                        help=f"operator versions (default: all; {TRAINING} is training-operator's PyTorchJob/TFJob "
                             f"and {TRAINER} Kubeflow Trainer's TrainJob: each family of oracles -- mpi-operator, "
                             "training-operator, Trainer -- gets an equal share of the cases)")
    parser.add_argument("--rebuild", action="store_true", help="go build even when the binaries are up to date")
    parser.add_argument("--shrink-limit", type=int, default=40, help="shrink at most this many disagreements")
    parser.add_argument("--strict", action="store_true", help="exit 1 when any case disagrees")
    args = parser.parse_args(argv)
    from tests.oracle.strategies import draw_cases, draw_trainer_cases, draw_training_cases

    versions = tuple(v.strip() for v in args.versions.split(",") if v.strip())
    unknown = [v for v in versions if v not in ALL_ORACLES]
    if unknown:
        parser.error(f"unknown operator version(s) {unknown}; known: {list(ALL_ORACLES)}")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    started = time.monotonic()
    mpi_versions = tuple(v for v in versions if v not in (TRAINING, TRAINER))
    families = [f for f, on in (("mpi", mpi_versions), ("training", TRAINING in versions),
                                ("trainer", TRAINER in versions)) if on]
    share = {f: args.cases // len(families) for f in families}
    share[families[0]] += args.cases - sum(share.values())
    cases = (draw_cases(share["mpi"], seed=args.seed, versions=mpi_versions) if "mpi" in share else []) \
        + (draw_training_cases(share["training"], seed=args.seed) if "training" in share else []) \
        + (draw_trainer_cases(share["trainer"] - share["trainer"] // 4, seed=args.seed)
           + trainer.built_cases(share["trainer"] // 4, seed=args.seed) if "trainer" in share else [])
    log(f"{len(cases)} cases drawn (seed {args.seed}) in {time.monotonic() - started:.1f}s")
    with Harness(versions, force_build=args.rebuild, log=log) as harness:
        results = harness.run(cases)
        summary = report(harness, results, shrink_limit=args.shrink_limit)
    return 1 if args.strict and summary["agree"] != summary["total"] else 0


if __name__ == "__main__":
    sys.exit(main())
