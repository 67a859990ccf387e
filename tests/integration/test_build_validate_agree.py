"""build checks what it builds: ``mpigen validate`` of what ``mpigen build`` prints reports nothing
that build did not report (by code and severity), for every golden case, every spec of ``specs/``
and of ``tests/cases/specs/{valid,warnings}``, in every environment, and 1,000 random valid specs.

validate is given what it would be given for the cluster the spec describes: the spec's
``--cluster`` and ``--operator-version`` (a golden case's), and for scheduler-plugins the
scheduler name the spec names (validate cannot know how the operator is configured otherwise).
Build and validate run in-process, with the schemas loaded once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mpigen.emit.yaml_emit import dump_all
from mpigen.lint.base import LintOptions
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs
from mpigen.validation import ValidateOptions, validate_bytes
from mpigen.versions import DEFAULT_OPERATOR_VERSION, OperatorVersion
from tests.golden.cases import ROOT, discover
from tests.random_specs import random_specs, spec_yaml

RANDOM_SPECS = 1000
SEED = 20260
CASE_SPECS = sorted((ROOT / "specs").glob("*.yaml")) + sorted((ROOT / "tests" / "cases" / "specs" / "valid").glob(
    "*.yaml")) + sorted((ROOT / "tests" / "cases" / "specs" / "warnings").glob("*.yaml"))
KEYS = {"MPIJob": "mpiReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}


def _classes(cluster: str | None) -> dict[str, int] | None:
    if not cluster:
        return None
    return {d["metadata"]["name"]: d["value"] for d in yaml.safe_load((ROOT / cluster).read_text())["items"]}


def _scheduler_name(objects: list[dict[str, Any]]) -> str | None:
    """The scheduler-plugins scheduler the pod templates name (the operator's --gang-scheduling)."""
    for obj in objects:
        for replica in obj.get("spec", {}).get(KEYS.get(obj["kind"], ""), {}).values():
            template = replica["template"]
            if "scheduling.x-k8s.io/pod-group" in (template.get("metadata", {}).get("labels") or {}):
                return template["spec"].get("schedulerName")
    return None


def disagreements(text: str, name: str, version: OperatorVersion = DEFAULT_OPERATOR_VERSION,
                  classes: dict[str, int] | None = None, kinds: set[str] | None = None) -> list[str]:
    """What validate reports on the spec's built objects (any environment) that build did not,
    or why the spec did not build. A build that succeeds reported no error, so any error of
    validate is one. ``kinds``, when given, gains the kinds of the base's objects."""
    result = compile_specs(load_text(text, name), name, Options(version, classes))
    if kinds is not None:
        kinds |= {obj["kind"] for job in result.jobs for obj in job.base}
    if not result.ok:
        return [f"{name} does not build: " + "; ".join(d.format() for d in result.diagnostics)]
    reported = {(d.code, d.severity) for d in result.diagnostics}
    out = []
    for job in result.jobs:
        for env in [None, *job.environments]:
            objects = job.objects(env)
            lint = LintOptions(scheduler_name=_scheduler_name(objects), priority_classes=classes,
                               operator_version=version)
            options = ValidateOptions(lint=lint, build=Options(version, classes))
            found, _ = validate_bytes(dump_all(objects).encode(), "built.yaml", options)
            out += [f"{name} --env {env}: {d.format()}" for d in found if (d.code, d.severity) not in reported]
    return out


def test_goldens_agree() -> None:
    problems = []
    for case in discover():
        version = OperatorVersion.parse(case.operator_version) if case.operator_version else DEFAULT_OPERATOR_VERSION
        problems += disagreements((ROOT / case.spec).read_text(), case.name, version, _classes(case.cluster))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", CASE_SPECS, ids=[f"{p.parent.name}/{p.stem}" for p in CASE_SPECS])
def test_spec_agrees(path: Path) -> None:
    problems = disagreements(path.read_text(), path.name)
    assert not problems, "\n".join(problems)


def test_random_specs_agree() -> None:
    specs = random_specs(SEED, RANDOM_SPECS)
    assert len({name for name, _ in specs}) == RANDOM_SPECS
    problems = []
    for name, doc in specs:
        problems += disagreements(spec_yaml(doc), f"{name}.yaml")
    assert not problems, f"{len(problems)} disagreement(s):\n" + "\n".join(problems[:20])


RANDOM_TRAINJOB_SPECS = 300


def test_random_trainjob_specs_agree() -> None:
    """The same for random specs with ``spec.runtime`` (Kubeflow Trainer TrainJobs on the default
    runtimes, a TrainingRuntime copy beside those whose gang or pods need one)."""
    import random

    from tests.random_specs import trainjob_variant

    rng = random.Random(SEED)
    specs = [(name, trainjob_variant(rng, doc)) for name, doc in random_specs(SEED + 1, RANDOM_TRAINJOB_SPECS)]
    specs = [(name, doc) for name, doc in specs if doc is not None]
    assert len(specs) >= RANDOM_TRAINJOB_SPECS // 2
    problems = []
    kinds: set[str] = set()
    for name, doc in specs:
        problems += disagreements(spec_yaml(doc), f"{name}.yaml", kinds=kinds)
    assert {"TrainJob", "TrainingRuntime"} <= kinds, kinds
    assert not problems, f"{len(problems)} disagreement(s):\n" + "\n".join(problems[:20])


def test_the_corpus_holds_findings_validate_makes_on_built_objects() -> None:
    """The property is not vacuous: on some specs of the corpus validate does find something (a
    warning build reports too), so a build that stopped checking its output would fail above."""
    found = set()
    for path in CASE_SPECS:
        result = compile_specs(load_text(path.read_text(), path.name), path.name, Options())
        for job in result.jobs:
            validated, _ = validate_bytes(dump_all(job.base).encode(), "built.yaml", ValidateOptions())
            found |= {d.code for d in validated}
    assert {"slots-gpu-mismatch", "priority-class-not-on-pods"} <= found, found


SIZED_SPEC = """\
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {name: pi, namespace: research}
spec:
  framework: FRAMEWORK
  image: img
  command: [python, train.py]
  workers: WORKERS
  EXTRA
"""
"""A spec whose size the tests below set: its hostfile's bytes depend on the name and namespace."""


@pytest.mark.parametrize("workers, problem", [(13_906, None), (13_907, "grows to 1048629 bytes once every worker runs"),
                                              (100_000, "holds 3988900 bytes")])
def test_a_hostfile_configmap_over_1_mib_is_refused_at_workers(workers: int, problem: str | None) -> None:
    """mpi-operator writes the hostfile (and discover_hosts.sh, which lists the running workers)
    into one ConfigMap, which the API server refuses over 1 MiB of data: build says so at
    `workers`, as validate says it of the built MPIJob at the Worker replicas."""
    text = SIZED_SPEC.replace("FRAMEWORK", "mpi").replace("WORKERS", str(workers)).replace("EXTRA", "")
    result = compile_specs(load_text(text, "pi.yaml"), "pi.yaml", Options())
    found = [d for d in result.diagnostics if d.code == "hostfile-too-large"]
    if problem is None:
        assert result.ok and not found
        assert disagreements(text, "pi.yaml") == []
        return
    assert not result.ok and [(d.line, d.path) for d in found] == [(8, "spec.workers")]
    assert problem in found[0].message and found[0].message.endswith("at most 13906 workers fit")



@pytest.mark.parametrize("framework, extra, fits, what", [
    ("mpi", "scheduling: {gang: volcano}", 2_147_483_646, "the gang's minMember (every pod of the job) 2147483648"),
    ("pytorch", "scheduling: {gang: scheduler-plugins}", 2_147_483_646,
     "the gang's minMember (every pod of the job) 2147483648"),
    ("pytorch", "scheduling: {gang: none}", 2_147_483_646, "WORLD_SIZE and PET_NNODES become -2147483648"),
    ("tensorflow", "tensorflow: {ps: {replicas: 1}, chief: {}}\n  scheduling: {gang: volcano}", 2_147_483_645,
     "the gang's minMember (every pod of the job) 2147483648"),
    ("tensorflow", "tensorflow: {ps: {replicas: 1}}\n  scheduling: {gang: kube-batch}", 2_147_483_646,
     "the gang's minMember (every pod of the job) 2147483648"),
    ("mpi", "runtime: deepspeed-distributed", 2_147_483_646, "trainer.numNodes 2147483648"),
    ("mpi", "slotsPerWorker: 1073741824", 1, "the hostfile gives mpirun 2147483648 slots"),  # -np
])
def test_a_count_beyond_int32_is_refused_by_build_at_workers(framework: str, extra: str, fits: int, what: str) -> None:
    """workers: 2147483647 once built its minAvailable 2147483648 (the schema refused it in
    validate), or the wrapped -2147483648 of the operator's own sum, or numNodes 2147483648.
    build refuses every sum that does not fit in 32 bits at `workers` (count-overflow); one worker
    less builds, and validate of what it prints reports nothing build did not."""
    text = SIZED_SPEC.replace("FRAMEWORK", framework).replace("EXTRA", extra)
    over = text.replace("WORKERS", str(fits + 1))
    result = compile_specs(load_text(over, "pi.yaml"), "pi.yaml", Options())
    found = [d for d in result.diagnostics if d.code == "count-overflow"]
    assert not result.ok and [(d.line, d.path) for d in found] == [(8, "spec.workers")], result.diagnostics
    assert what in found[0].message
    if framework != "mpi" or "runtime" in extra or fits == 1:  # 2^31 MPI workers: a hostfile far over 1 MiB
        assert disagreements(text.replace("WORKERS", str(fits)), "pi.yaml") == []


def test_validate_refuses_a_trainjob_whose_podgroup_counts_more_than_int32() -> None:
    """Trainer's PodGroup counts every pod of every replicated job: numNodes 2147483647 and a
    dataset initializer make 2147483648, which wraps."""
    text = """\
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: torch-gang, namespace: research}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  podGroupPolicy: {coscheduling: {scheduleTimeoutSeconds: 600}}
  template:
    spec:
      replicatedJobs:
      - name: dataset-initializer
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}}
          spec:
            template:
              spec:
                schedulerName: scheduler-plugins-scheduler
                containers:
                - name: dataset-initializer
                  image: ghcr.io/kubeflow/trainer/dataset-initializer:v2.3.0
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            template:
              spec:
                schedulerName: scheduler-plugins-scheduler
                containers: [{name: node, image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: big, namespace: research}
spec:
  runtimeRef: {name: torch-gang, kind: TrainingRuntime}
  trainer: {numNodes: NODES}
"""
    for nodes, refused in ((2147483646, False), (2147483647, True)):
        found, _ = validate_bytes(text.replace("NODES", str(nodes)).encode(), "tj.yaml", ValidateOptions())
        overflow = [(d.line, d.path) for d in found if d.code == "count-overflow"]
        assert overflow == ([(34, "spec.trainer.numNodes")] if refused else []), found


def test_build_refuses_a_trainjob_whose_mpi_ranks_are_more_than_int32() -> None:
    """An MPI runtime's hostfile gives every node numProcPerNode slots (deepspeed-distributed: the
    launcher is a node too): 2 nodes x 1073741824 do not fit in 32 bits, 2 x 1073741823 do."""
    spec = SIZED_SPEC.replace("FRAMEWORK", "mpi").replace("WORKERS", "1").replace(
        "EXTRA", "runtime: deepspeed-distributed\n  slotsPerWorker: SLOTS")
    result = compile_specs(load_text(spec.replace("SLOTS", "1073741824"), "pi.yaml"), "pi.yaml", Options())
    found = [(d.line, d.path, d.message) for d in result.diagnostics if d.code == "count-overflow"]
    assert not result.ok and found == [(8, "spec.workers", "the built TrainJob pi at spec.trainer.numNodes: the hostfile "
                                       "Trainer writes gives mpirun 2147483648 slots (2 nodes x 1073741824), beyond "
                                       "the 32-bit count of ranks it keeps (2147483647): mpirun cannot start them")]
    assert disagreements(spec.replace("SLOTS", "1073741823"), "pi.yaml") == []
