"""Acceptance: everything mpigen writes is taken by a real kube-apiserver 1.35 with the CRDs of the
pinned operators installed and their webhooks in place (training-operator's validating webhook,
Kubeflow Trainer's TrainJob defaulter and TrainJob/TrainingRuntime/ClusterTrainingRuntime
validators, JobSet's).

Every golden output, every spec of specs/ in every environment, 300 random compiled specs, the
production variants of 150 of them (the production pod fields, per-role settings and pod template
patches of tests/random_specs.py's production_variant) and the TrainJob variants of 80 (its
trainjob_variant, with the TrainJob's production pod fields), and the TrainJob cases of
tests/cases/trainjobs/ go through `kubectl apply --server-side --dry-run=server`; every kustomize
tree `mpigen build -o` writes (base and overlays) is applied for real with `kubectl apply -k` and
deleted again. Trainer's TrainJob webhook looks up the runtime the TrainJob names, which a dry run
does not create: the runtimes of a batch (and of the other files of its golden case) that the
cluster lacks are created for real first (one such batch at a time) and deleted after it; the
PriorityClasses the random specs name and the cluster lacks are created for the test (the webhook
looks up a pod template's PriorityClass too). The webhook reads runtimes from the manager's cache,
which has a new one a moment after the API server stored it: a TrainJob applied together with its
new TrainingRuntime is refused ("must be created before the TrainJob is created") and taken when
applied again; the test applies again for up to RUNTIME_CACHE_SECONDS. The figure is `A/N objects
accepted by the API server`.
"""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from tests.e2e.conftest import FIGURES, NOT_CACHED_YET, ROOT, RUNTIME_CACHE_SECONDS, Kube
from tests.random_specs import PRIORITY_CLASSES, production_variant, random_specs, spec_yaml, trainjob_variant

RANDOM_SPECS = 300
PRODUCTION_VARIANTS = 150  # of the random specs, with production pod fields
TRAINJOB_VARIANTS = 80  # of the random specs, as TrainJobs (those of PyTorch and MPI)
SEED = 20261123
RUNTIME_KINDS = ("TrainingRuntime", "ClusterTrainingRuntime")
_RUNTIMES = threading.Lock()  # batches that create runtimes for real run one at a time


def _identity(obj: dict) -> tuple[str, str, str, str]:
    meta = obj.get("metadata") or {}
    return obj.get("apiVersion", ""), obj.get("kind", ""), meta.get("namespace") or "default", meta.get("name", "")


def _documents(text: str) -> list[dict]:
    return [d for d in yaml.safe_load_all(text) if isinstance(d, dict)]


def _dry_run(kube: Kube, objects: list[dict], beside: list[dict] = ()) -> list[str]:
    """The refusals of one server-side dry-run apply of OBJECTS (one kubectl call), with the
    runtimes OBJECTS's TrainJobs name in place: OBJECTS's own and those BESIDE them (the other
    files of a golden case)."""
    runtimes = [o for o in [*objects, *beside] if o.get("kind") in RUNTIME_KINDS]
    if not runtimes or not any(o.get("kind") == "TrainJob" for o in objects):
        return _dry_run_apply(kube, objects)
    with _RUNTIMES:
        created = []
        try:
            for runtime in runtimes:
                meta = runtime.get("metadata") or {}
                scope = [] if runtime["kind"] == "ClusterTrainingRuntime" else ["-n", meta.get("namespace") or "default"]
                if kube.kubectl("get", runtime["kind"].lower(), meta.get("name", ""), *scope, check=False).returncode:
                    done = kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-",
                                        stdin=json.dumps(runtime), check=False)
                    if done.returncode == 0:
                        created.append((runtime["kind"].lower(), meta.get("name", ""), scope))
            # The webhook reads runtimes from the manager's cache, which sees a new one a moment later.
            deadline = time.monotonic() + RUNTIME_CACHE_SECONDS
            while True:
                refusals = _dry_run_apply(kube, objects)
                if not any(NOT_CACHED_YET in r for r in refusals) or time.monotonic() > deadline:
                    return refusals
                time.sleep(0.5)
        finally:
            for kind, name, scope in created:
                kube.kubectl("delete", kind, name, *scope, "--wait=true", "--timeout=60s", check=False, timeout=90)


def _dry_run_apply(kube: Kube, objects: list[dict]) -> list[str]:
    done = kube.kubectl("apply", "--server-side", "--dry-run=server", "--field-manager=mpigen-e2e",
                        "-o", "json", "-f", "-", stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": objects}),
                        check=False)
    if done.returncode == 0:
        return []
    accepted = {_identity(o) for o in (json.loads(done.stdout).get("items", []) if done.stdout.strip() else [])}
    missing = [_identity(o) for o in objects if _identity(o) not in accepted]
    return [f"{'/'.join(m)}: {done.stderr.strip()}" for m in missing] or [done.stderr.strip()]


def _batches(kube: Kube) -> list[tuple[str, list[dict], list[dict]]]:
    """(source, objects, objects beside them) for every golden output, spec environment and random spec."""
    batches = []
    for path in sorted(ROOT.glob("golden/*/*.yaml")):
        if path.name != "case.yaml":
            siblings = [d for p in sorted(path.parent.glob("*.yaml")) if p not in (path, path.parent / "case.yaml")
                        for d in _documents(p.read_text())]
            batches.append((path.relative_to(ROOT).as_posix(), _documents(path.read_text()), siblings))
    for spec in sorted(ROOT.glob("specs/*.yaml")):
        envs = sorted((yaml.safe_load(spec.read_text())["spec"].get("environments") or {}))
        for env in [None, *envs]:
            built = kube.mpigen("build", str(spec), *(["--env", env] if env else []))
            assert built.returncode == 0, built.stderr
            batches.append((f"{spec.name} --env {env}" if env else spec.name, _documents(built.stdout), []))
    for path in sorted((ROOT / "tests" / "cases" / "trainjobs").glob("*.yaml")):
        batches.append((path.relative_to(ROOT).as_posix(), _documents(path.read_text()), []))
    specs = random_specs(SEED, RANDOM_SPECS)
    for name, spec in specs:
        built = kube.mpigen("build", "-", stdin=spec_yaml(spec))
        assert built.returncode == 0, f"random spec {name} does not compile:\n{built.stderr}\n{spec_yaml(spec)}"
        batches.append((f"random {name}", _documents(built.stdout), []))
    return batches + _variant_batches(kube, specs)


def _variant_batches(kube: Kube, specs: list[tuple[str, dict]]) -> list[tuple[str, list[dict], list[dict]]]:
    """The production variants of the first PRODUCTION_VARIANTS random specs (pod fields, per-role
    settings, pod template patches: ``production_variant``) and the TrainJob variants of the first
    TRAINJOB_VARIANTS (``trainjob_variant``, with its production pod fields), each as mpigen builds
    it. A variant the spec rules refuse is left out; most are built (a floor each)."""
    rng = random.Random(SEED)
    batches, drawn = [], {"production": 0, "trainjob": 0}
    variants = [("production", name, production_variant(rng, spec)) for name, spec in specs[:PRODUCTION_VARIANTS]]
    variants += [("trainjob", name, trainjob_variant(rng, spec)) for name, spec in specs[:TRAINJOB_VARIANTS]]
    for kind, name, spec in variants:
        if spec is None:  # a TensorFlow spec: Trainer has no runtime for it
            continue
        drawn[kind] += 1
        built = kube.mpigen("build", "-", stdin=spec_yaml(spec))
        if built.returncode == 0:
            batches.append((f"{kind} variant {name}", _documents(built.stdout), []))
    built_counts = {kind: sum(source.startswith(f"{kind} variant ") for source, _, _ in batches) for kind in drawn}
    assert built_counts["production"] >= PRODUCTION_VARIANTS * 3 // 4, (built_counts, drawn)
    assert built_counts["trainjob"] >= max(TRAINJOB_VARIANTS // 2, drawn["trainjob"] * 3 // 4), (built_counts, drawn)
    return batches


@pytest.fixture(scope="module")
def priority_classes(kube: Kube):
    """The PriorityClasses the random specs name (tests/random_specs.py), those the cluster lacks
    created for this module and deleted after it: Trainer's TrainJob and TrainingRuntime webhook
    refuses a pod template naming a PriorityClass that does not exist (a TrainJob variant's)."""
    created = [name for name in PRIORITY_CLASSES
               if kube.kubectl("get", "priorityclass", name, check=False).returncode != 0]
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=json.dumps({
        "apiVersion": "v1", "kind": "List",
        "items": [{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
                   "value": 100, "description": "named by tests/random_specs.py"} for name in created]}))
    yield PRIORITY_CLASSES
    for name in created:
        kube.kubectl("delete", "priorityclass", name, "--wait=true", "--timeout=60s", check=False, timeout=90)


def test_every_output_is_accepted(kube: Kube, spec_namespaces: list[str], priority_classes: list[str],
                                  tmp_path: Path) -> None:
    batches = _batches(kube)
    with ThreadPoolExecutor(max_workers=4) as pool:
        refusals = list(pool.map(lambda batch: _dry_run(kube, batch[1], batch[2]), batches))
    total = sum(len(objects) for _, objects, _ in batches)
    refused = sum(len(rs) for rs in refusals)
    problems = [f"{source}: {r}" for (source, _, _), rs in zip(batches, refusals) for r in rs]

    # Every kustomize tree, base and overlays, applied for real (then deleted).
    trees = sorted(p for p in ROOT.glob("golden/*/tree/*") if p.is_dir())
    for tree in trees:
        for folder in [tree / "base", *sorted((tree / "overlays").glob("*"))]:
            rendered = _documents(kube.kubectl("kustomize", str(folder)).stdout)
            total += len(rendered)
            done = kube.apply_when_cached("-k", str(folder), "--field-manager=mpigen-e2e")
            if done.returncode != 0:  # kubectl names no object it refused: count the folder's
                refused += len(rendered)
                problems.append(f"kubectl apply -k {folder.relative_to(ROOT)}: {done.stderr.strip()}")
            kube.kubectl("delete", "-k", str(folder), "--ignore-not-found", "--wait=true", "--timeout=120s",
                         check=False, timeout=180)
    FIGURES.append(f"{total - refused}/{total} objects accepted by the API server")
    assert not problems, "\n".join(problems)
