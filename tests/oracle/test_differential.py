"""Differential tests: mpigen's gang-scheduling port against the real mpi-operator controllers.

The oracles in ``tests/oracle/mpi-v0.8`` (built against v0.8.2 and against v0.8.0) and
``tests/oracle/mpi-v0.4`` run the real controller of mpi-operator v0.8.2 / v0.8.0 / v0.4.0 (see their
``main.go`` and ``harness.py``). Here a batch of random
MPIJobs (``strategies.py``; ``MPIGEN_ORACLE_CASES``, default 300, and ``MPIGEN_ORACLE_SEED``,
default 0) goes through each oracle in one process, and every case must agree with mpigen --
outcome (objects created / job rejected / operator panics), PodGroup, gang decoration of the
worker Pods and launcher Job, the launcher Job's spec -- or show a difference listed below as data:

* ``DELIBERATE_DIFFERENCES``: where mpigen chooses on purpose, with the reason;
* ``KNOWN_BUGS``: disagreements that are bugs in mpigen's port, with the fix. Each has its
  minimal reproduction, run as a strict xfail: once mpigen is fixed the test XPASSes, which
  fails, so the entry gets removed.

Marked ``oracle`` (``-m "not oracle"`` deselects it). The first run builds the oracles with
``go build`` (minutes on a cold Go build cache); later runs reuse ``tests/oracle/bin/``. Without
the go command the tests fail (the ``go`` fixture of ``tests/oracle/conftest.py``), as those of
``test_golden_explain.py`` do.
"""

from __future__ import annotations

import copy
import io
import os

import pytest

from tests.oracle import harness as h
from tests.oracle.strategies import draw_cases

pytestmark = pytest.mark.oracle

CASES = int(os.environ.get("MPIGEN_ORACLE_CASES", "300"))
SEED = int(os.environ.get("MPIGEN_ORACLE_SEED", "0"))


def _job(launcher_containers: list[dict], worker_containers: list[dict] | None, workers: int = 1, *,
         launcher_pc: str | None = None, worker_pc: str | None = None) -> dict:
    def template(containers: list[dict], pc: str | None) -> dict:
        spec: dict = {"containers": [dict(c, image="mpioperator/mpi-pi:openmpi") for c in containers]}
        if pc:
            spec["priorityClassName"] = pc
        return {"spec": spec}

    specs = {"Launcher": {"replicas": 1, "template": template(launcher_containers, launcher_pc)}}
    if worker_containers is not None:
        specs["Worker"] = {"replicas": workers, "template": template(worker_containers, worker_pc)}
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
            "metadata": {"name": "pi", "namespace": "default"}, "spec": {"mpiReplicaSpecs": specs}}


def _case(version: str, gang: str, mpijob: dict, *, scheduler_name: str = "scheduler-plugins-scheduler",
          priority_classes: list[dict] | None = None) -> dict:
    return {"id": "fixed", "version": version, "gang": gang,
            "schedulerName": scheduler_name if gang == "scheduler-plugins" else "",
            "priorityClasses": priority_classes or [], "mpijob": mpijob}


def _uses_priority_class(case: dict) -> bool:
    specs = case["mpijob"]["spec"].get("mpiReplicaSpecs") or {}
    return any(((r or {}).get("template") or {}).get("spec", {}).get("priorityClassName") for r in specs.values())


# Differences mpigen makes on purpose. "key" is the key of a harness note or disagreement.
DELIBERATE_DIFFERENCES = [
    {
        "id": "equal-priority-order",
        "key": h.MAP_ORDER_NOTE,
        "reason": "With equal PriorityClass values calPGMinResource orders Launcher and Worker as Go ranges "
                  "over the mpiReplicaSpecs map: randomly. The order only changes the format of a sum of "
                  "quantities written in different formats (a sum keeps its first operand's format). mpigen "
                  "fixes Launcher, then Worker, so that its output is reproducible; the harness accepts either "
                  "outcome and notes the cases where the operator took the other one.",
        # Launcher 1Gi (BinarySI) + 2 x Worker 1000M (DecimalSI): 3001701Ki or 3073741824.
        "case": _case("v0.8.2", "volcano", _job([{"name": "l", "resources": {"requests": {"memory": "1Gi"}}}],
                                                [{"name": "w", "resources": {"requests": {"memory": "1000M"}}}],
                                                2)),
    },
    {
        "id": "scheduler-plugins-default-name",
        "key": "decoration.",  # decoration.Pod.worker and decoration.Job.launcher
        "reason": "The operator has no default scheduler name: --gang-scheduling=X with X other than volcano "
                  "selects scheduler-plugins and X becomes the pods' schedulerName. mpigen assumes the "
                  "operator runs with --gang-scheduling=scheduler-plugins-scheduler (the scheduler-plugins "
                  "scheduler's name) unless spec.scheduling.schedulerName says otherwise, while the oracle, "
                  "given no schedulerName, passes the literal --gang-scheduling=scheduler-plugins. The random "
                  "cases always name the scheduler; this fixed case documents the difference.",
        "case": _case("v0.8.2", "scheduler-plugins", _job([{"name": "l"}], [{"name": "w"}]), scheduler_name=""),
    },
]

# Bugs in mpigen's ports found by these tests (not fixed here: mpigen/ is not this test's to edit).
KNOWN_BUGS: list[dict] = []


def _bug_for(case: dict, d: h.Disagreement) -> dict | None:
    return next((bug for bug in KNOWN_BUGS if bug["matches"](case, d)), None)


def _documented(d: h.Disagreement) -> bool:
    return any(d.key.startswith(diff["key"]) for diff in DELIBERATE_DIFFERENCES)


@pytest.fixture(scope="module")
def harness(go):
    with h.Harness() as running:
        yield running


def _largest_cases() -> list[dict]:
    """10,000 workers for each version and gang scheduler, whatever the random draw holds."""
    out = []
    for version in h.ORACLES:
        for gang in ("volcano", "scheduler-plugins"):
            job = _job([{"name": "l", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}],
                       [{"name": "w", "resources": {"requests": {"cpu": "4", "memory": "16Gi"},
                                                    "limits": {"nvidia.com/gpu": "1"}}}], 10_000)
            out.append(dict(_case(version, gang, job), id=f"largest-{version}-{gang}"))
    return out


@pytest.fixture(scope="module")
def results(harness):
    return harness.run(draw_cases(CASES, seed=SEED) + _largest_cases())


def test_random_cases_agree_with_the_real_operators(harness, results):
    assert len(results) == CASES + len(_largest_cases())
    unexplained = [r for r in results if any(_bug_for(r.case, d) is None for d in r.disagreements)]
    undocumented_notes = [n for r in results for n in r.notes if not _documented(n)]
    if unexplained or undocumented_notes:
        text = io.StringIO()
        h.report(harness, unexplained, out=text, shrink_limit=5)
        pytest.fail(f"{len(unexplained)} of {len(results)} cases disagree with the operator (seed {SEED}); "
                    f"notes not documented: {undocumented_notes}\n{text.getvalue()}")


def test_the_batch_exercised_what_matters(results):
    cov = h.coverage(results)
    for version in h.ORACLES:
        for gang in ("volcano", "scheduler-plugins"):
            assert cov.get(f"podgroup {version} {gang}", 0) >= 5, (version, gang, cov)
        assert cov.get(f"oracle invalid {version}", 0) >= 5, cov
    for version in ("v0.8.2", "v0.8.0"):
        assert cov.get(f"minResources {version} volcano", 0) >= 5, cov
        assert cov.get(f"minResources {version} scheduler-plugins", 0) >= 5, cov
        assert cov.get(f"launcher Job {version}", 0) >= 20, cov  # its spec: podReplacementPolicy by release
    assert cov.get("minResources format depends on map order", 0) >= 1, cov
    assert cov.get("outcome panic", 0) >= 1, cov
    assert cov.get("1000+ workers", 0) >= len(_largest_cases()), cov


@pytest.mark.parametrize("diff", DELIBERATE_DIFFERENCES, ids=lambda diff: diff["id"])
def test_deliberate_difference_is_what_the_data_says(harness, diff):
    if diff["id"] == "equal-priority-order":
        # Go's map order is random: run the case many times; every outcome must be one mpigen
        # accepts, mpigen's own must be among them, and the other order must occur.
        cases = [dict(copy.deepcopy(diff["case"]), id=f"r{i}") for i in range(256)]
        results = harness.run(cases)
        assert not [d for r in results for d in r.disagreements]
        notes = [n for r in results for n in r.notes]
        assert notes and all(n.key == diff["key"] for n in notes)
        assert len(notes) < len(results)  # mpigen's order occurred too
    else:
        [result] = harness.run([dict(diff["case"])])
        assert result.disagreements and all(d.key.startswith(diff["key"]) for d in result.disagreements)
        assert all("'schedulerName': 'scheduler-plugins'" in d.detail for d in result.disagreements)


FIXED_BUGS = [
    # Was a KNOWN_BUG: mpi-operator v0.5.0+ multiplies a decimal quantity (1.5Gi) of the job's own
    # template in place while it computes minResources, so the Pods and the launcher Job created next
    # carry replicas x the value. mpi_controller.as_mutated_by_min_resources now models it (explain
    # shows it; the decimal-quantity-multiplied lint warns about such manifests).
    _case("v0.8.0", "volcano", _job([{"name": "l"}], [{"name": "w", "resources": {"requests": {"memory": "1.5Gi"}}}], 2)),
    _case("v0.8.0", "scheduler-plugins", _job([{"name": "l", "resources": {"limits": {"cpu": "0.5Ki"}}}],
                                              [{"name": "w", "resources": {"requests": {"memory": "2.5Mi"},
                                                                           "limits": {"memory": "2.5Mi"}}}], 3,
                                              launcher_pc="low"),
          priority_classes=[{"name": "low", "value": -10}]),
    # Was a KNOWN_BUG (v0.4-scheduler-plugins-sum-by-repeated-addition): v0.4.0 sums minResources by
    # adding every container's requests once per replica, and keeps a lone first quantity's parsed text
    # (DeepCopy): this cpu is written "0356Ki". podgroup._legacy_sum now follows that loop in closed form.
    _case("v0.4.0", "scheduler-plugins",
          _job([{"name": "l", "resources": {"requests": {"cpu": "0356Ki"}}}], [{"name": "w"}])),
    # The multiplied product is not parsed again: 4607Pi x 2 = 9214Pi, above 2^63-1, which a re-parse
    # would clamp (found by make oracle N=10000).
    _case("v0.8.0", "volcano", _job([{"name": "l"}], [{"name": "w", "resources": {"requests": {"memory": "4607Pi"}}}], 2)),
]


@pytest.mark.parametrize("case", FIXED_BUGS, ids=[f"{c['version']}-{c['gang']}-{i}" for i, c in enumerate(FIXED_BUGS)])
def test_fixed_bug_stays_fixed(harness, case):
    [result] = harness.run([dict(case)])
    assert not result.disagreements, [f"{d.key}: {d.detail}" for d in result.disagreements]


def _known_bug_is_fixed(harness, bug):
    [result] = harness.run([dict(bug["case"])])
    # While the bug is there, its reproduction must show exactly this bug (else a real failure) ...
    if not all(bug["matches"](result.case, d) for d in result.disagreements):
        pytest.fail(f"the reproduction of {bug['id']} shows another disagreement: {result.disagreements}")
    # ... and this fails (xfail); once mpigen is fixed it passes (XPASS, strict): remove the entry.
    assert not result.disagreements, [f"{d.key}: {d.detail}" for d in result.disagreements]


# One test per known bug; none is the state to be in, and then there is no test (a parametrize
# over nothing is an error at collection: pyproject's empty_parameter_set_mark).
if KNOWN_BUGS:
    test_known_bug_is_fixed = pytest.mark.parametrize("bug", [pytest.param(bug, id=bug["id"], marks=pytest.mark.xfail(
        strict=True, raises=AssertionError, reason=f"known mpigen bug {bug['id']} (see KNOWN_BUGS)"))
        for bug in KNOWN_BUGS])(_known_bug_is_fixed)


def _config_map_cases() -> list[dict]:
    """Jobs across the digit boundaries of the worker index, every MPI implementation, the launcher
    as a worker, and v0.4.0's hostfile (its workers' Service)."""
    out = []
    for i, (version, workers, spec) in enumerate([
            ("v0.8.0", 1234, {"slotsPerWorker": 3}),
            ("v0.8.0", 101, {"mpiImplementation": "Intel", "runLauncherAsWorker": True, "slotsPerWorker": 12}),
            ("v0.8.0", 10, {"mpiImplementation": "MPICH"}),
            ("v0.4.0", 1001, {"mpiImplementation": "Intel"})]):
        job = _job([{"name": "l"}], [{"name": "w"}], workers)
        job["metadata"] = {"name": "hostfile-size", "namespace": "research"}
        job["spec"].update(spec)
        out.append(dict(_case(version, "", job), id=f"config-map-{i}"))
    return out


def test_config_map_bytes_are_those_of_the_operators_config_map(harness):
    """The closed form behind hostfile-too-large (config_map_bytes: the bytes of data the API
    server counts against its 1 MiB) against the ConfigMap the real controller creates."""
    from mpigen.operator.mpi_controller import config_map_bytes
    from mpigen.operator.mpi_defaults import set_defaults
    from mpigen.versions import OperatorVersion

    results = harness.run(_config_map_cases())
    assert len(results) == 4
    for result in results:
        [config] = [o for o in result.response["objects"] if o["kind"] == "ConfigMap"]
        version = OperatorVersion.parse(result.case["version"])
        expected, _ = config_map_bytes(set_defaults(result.case["mpijob"], version), legacy=version.legacy)
        assert sum(len(value.encode()) for value in config["data"].values()) == expected, result.case["id"]


# ------------------------------------------------------------------ PyTorchJob / TFJob (training-operator v1.9.4)

TRAINING_CASES = int(os.environ.get("MPIGEN_ORACLE_TRAINING_CASES", "150"))


def _training_job(kind: str, specs: dict, policy: dict | None = None) -> dict:
    key, container = {"PyTorchJob": ("pytorchReplicaSpecs", "pytorch"), "TFJob": ("tfReplicaSpecs", "tensorflow")}[kind]
    replica_specs = {}
    for rtype, (replicas, resources) in specs.items():
        c = {"name": container, "image": "busybox"}
        if resources is not None:
            c["resources"] = resources
        replica_specs[rtype] = {"replicas": replicas, "template": {"spec": {"containers": [c]}}}
    spec: dict = {key: replica_specs}
    if policy is not None:
        spec["runPolicy"] = {"schedulingPolicy": policy}
    return {"apiVersion": "kubeflow.org/v1", "kind": kind, "metadata": {"name": "job", "namespace": "default"},
            "spec": spec}


def _training_case(gang: str, job: dict, case_id: str = "fixed") -> dict:
    return {"id": case_id, "version": h.TRAINING, "gang": gang,
            "schedulerName": "scheduler-plugins-scheduler" if gang == "scheduler-plugins" else "",
            "priorityClasses": [], "job": job}


def _largest_training_cases() -> list[dict]:
    """10,000 pods of one type for each kind and gang scheduler; only the first case has the
    oracle create (and compare) every Pod, the others stop after the PodGroup (see training.py)."""
    big = {"requests": {"cpu": "4", "memory": "16Gi"}, "limits": {"nvidia.com/gpu": "1"}}
    out = []
    for gang in ("volcano", "scheduler-plugins"):
        out.append(_training_case(gang, _training_job("PyTorchJob", {"Master": (1, {"requests": {"cpu": "1"}}),
                                                                      "Worker": (10_000, big)}), f"largest-pt-{gang}"))
        out[-1]["skipPods"] = gang == "scheduler-plugins"
        out.append(_training_case(gang, _training_job("TFJob", {"PS": (2, {"limits": {"memory": "1Gi"}}),
                                                                 "Worker": (10_000, big)}), f"largest-tf-{gang}"))
    return out


@pytest.fixture(scope="module")
def training_harness(go):
    with h.Harness((h.TRAINING,)) as running:
        yield running


@pytest.fixture(scope="module")
def training_results(training_harness):
    from tests.oracle.strategies import draw_training_cases

    suspended = _training_case("volcano", _training_job("PyTorchJob", {"Worker": (2, None)}), "suspended")
    suspended["job"]["spec"]["runPolicy"] = {"suspend": True}
    return training_harness.run(draw_training_cases(TRAINING_CASES, seed=SEED) + _largest_training_cases()
                                + [suspended])


def test_random_training_jobs_agree_with_the_real_operator(training_harness, training_results):
    assert len(training_results) == TRAINING_CASES + len(_largest_training_cases()) + 1
    disagreeing = [r for r in training_results if r.disagreements]
    notes = {n.key for r in training_results for n in r.notes}
    assert notes <= {h.training.MAP_ORDER_NOTE}, notes
    if disagreeing:
        text = io.StringIO()
        h.report(training_harness, disagreeing, out=text, shrink_limit=5)
        pytest.fail(f"{len(disagreeing)} of {len(training_results)} PyTorchJob/TFJob cases disagree with "
                    f"training-operator v1.9.4 (seed {SEED})\n{text.getvalue()}")


def test_the_training_batch_exercised_what_matters(training_results):
    cov = h.coverage(training_results)
    for kind in ("PyTorchJob", "TFJob"):
        for gang in ("volcano", "scheduler-plugins"):
            assert cov.get(f"training podgroup {kind} {gang}", 0) >= 5, (kind, gang, cov)
    for gang in ("volcano", "scheduler-plugins"):
        assert cov.get(f"training minResources {gang}", 0) >= 5, cov
    assert cov.get("training minResources depends on map order", 0) >= 1, cov
    assert cov.get("training 1000+ pods", 0) >= 1, cov  # a PyTorchJob: every Pod created and compared
    assert cov.get("training 1000+ replicas", 0) >= 3, cov  # PodGroup only (a TFJob's TF_CONFIG is O(n^2))
    assert cov.get("training outcome skipped", 0) >= 1, cov  # suspended jobs


def test_training_operator_min_resources_is_nondeterministic(training_harness):
    """Equal priorities and a minAvailable cut: which replica type is counted first is Go's map
    order, so even the VALUE of minResources varies between runs of the real operator. Every
    run's result must be one of mpigen's outcomes, and more than one must occur."""
    job = _training_job("TFJob", {"PS": (1, {"requests": {"cpu": "1"}}), "Worker": (3, {"requests": {"cpu": "2"}})},
                        {"minAvailable": 2})
    cases = [_training_case("volcano", copy.deepcopy(job), f"r{i}") for i in range(64)]
    results = training_harness.run(cases)
    assert not [d for r in results for d in r.disagreements]
    seen = {tuple(sorted(r.response["podgroup"]["spec"]["minResources"].items())) for r in results}
    assert seen == {(("cpu", "3"),), (("cpu", "4"),)}, seen
    assert len(results[0].expected.min_resources_variants) == 2


def test_training_operator_creates_a_pod_for_zero_replicas(training_harness):
    """Operator bug, modelled by the harness: core.CalculatePodSliceSize returns
    max(highest index + 1, replicas), 1 with no Pods, so a type with replicas: 0 gets Pod 0 in
    the first sync (the next sync deletes it as out of range). The PodGroup does not count it."""
    job = _training_job("TFJob", {"PS": (0, {"requests": {"cpu": "1"}}), "Worker": (2, None)})
    [result] = training_harness.run([_training_case("scheduler-plugins", job)])
    assert not result.disagreements
    assert result.response["counts"]["Pod"] == 3
    assert result.response["podgroup"]["spec"]["minMember"] == 2
    assert "minResources" not in result.response["podgroup"]["spec"]


# ------------------------------------------------------------------ TrainJob (Kubeflow Trainer v2.3.0)

TRAINER_CASES = int(os.environ.get("MPIGEN_ORACLE_TRAINER_CASES", "250"))
BUILT_TRAINER_CASES = int(os.environ.get("MPIGEN_ORACLE_BUILT_TRAINER_CASES", "80"))
"""TrainJobs mpigen builds from random specs (``trainer.built_cases``), on the copies written beside them."""

# Differences mpigen makes on purpose between what it shows and what the oracle prints.
TRAINER_DELIBERATE_DIFFERENCES = [
    {
        "id": "xgboost-env-plugin-order",
        "key": h.trainer.ENV_ORDER_NOTE,
        "reason": "The framework runs the plugins of an extension point in Go's map order over the registry, drawn "
                  "when the controller starts. On an xgboost runtime both the plainml plugin (the TrainJob's env) and "
                  "the xgboost plugin (DMLC_*) append to the trainer container's env, so their order varies from one "
                  "controller start to another. mpigen runs the plugins in the registry's source order (plainml "
                  "first); the harness accepts the other order as a note.",
    },
    {
        "id": "snapshot-typemeta",
        "key": "snapshot",
        "reason": "The runtime snapshot ConfigMap holds the runtime as the controller read it. The manager's cached "
                  "client sets apiVersion and kind on what it returns (controller-runtime pkg/cache/internal/"
                  "cache_reader.go), the fake client of the oracle clears them (pkg/client/fake/client.go, "
                  "ensureTypeMeta): mpigen writes them, the harness compares the snapshot without them. The YAML "
                  "text itself is mpigen's writer (keys sorted, as Go's sigs.k8s.io/yaml sorts them); the harness "
                  "compares it read back.",
    },
]


def _largest_trainer_cases() -> list[dict]:
    """10,000 nodes on the torch and the MPI (runLauncherAsNode) runtimes, under both gang schedulers."""
    bases = h.trainer.base_runtimes()
    out = []
    for name in ("torch-distributed", "deepspeed-distributed"):
        for policy in ({"coscheduling": {}}, {"volcano": {}}):
            out.append(h.trainer.fixed_case(
                f"largest-{name}-{next(iter(policy))}", bases[name],
                {"numNodes": 10_000, "resourcesPerNode": {"requests": {"cpu": "4", "memory": "16Gi"},
                                                          "limits": {"nvidia.com/gpu": 8}}}, policy=policy))
    return out


@pytest.fixture(scope="module")
def trainer_harness(go):
    with h.Harness((h.TRAINER,)) as running:
        yield running


@pytest.fixture(scope="module")
def trainer_results(trainer_harness):
    from tests.oracle.strategies import draw_trainer_cases

    return trainer_harness.run(draw_trainer_cases(TRAINER_CASES, seed=SEED) + _largest_trainer_cases()
                               + h.trainer.example_cases() + h.trainer.built_cases(BUILT_TRAINER_CASES, seed=SEED))


def test_random_trainjobs_agree_with_the_real_framework(trainer_harness, trainer_results):
    assert len(trainer_results) == TRAINER_CASES + len(_largest_trainer_cases()) + len(h.trainer.example_cases()) \
        + BUILT_TRAINER_CASES
    disagreeing = [r for r in trainer_results if r.disagreements]
    notes = {n.key for r in trainer_results for n in r.notes}
    assert notes <= {d["key"] for d in TRAINER_DELIBERATE_DIFFERENCES}, notes
    if disagreeing:
        text = io.StringIO()
        h.report(trainer_harness, disagreeing, out=text, shrink_limit=5)
        pytest.fail(f"{len(disagreeing)} of {len(trainer_results)} TrainJob cases disagree with Trainer v2.3.0's "
                    f"runtime framework (seed {SEED})\n{text.getvalue()}")


def test_the_trainer_batch_exercised_what_matters(trainer_results):
    cov = h.coverage(trainer_results)
    for policy in ("torch", "mpi"):
        for gang in ("coscheduling", "volcano"):
            assert cov.get(f"trainer {policy} {gang}", 0) >= 5, (policy, gang, cov)
    for gang in ("coscheduling", "volcano"):
        assert cov.get(f"trainer minResources {gang}", 0) >= 5, cov
    for kind in ("auto", "cpu", "int", "gpu", "runtime"):
        assert cov.get(f"trainer numProcPerNode {kind}", 0) >= 3, (kind, cov)
    assert cov.get("trainer GPU limits only", 0) >= 5, cov
    assert cov.get("trainer priority class", 0) >= 5, cov
    assert cov.get("trainer TrainingRuntime", 0) >= 5, cov
    assert cov.get("trainer runtime patches", 0) >= 3, cov
    assert cov.get("trainer outcome refused", 0) >= 5, cov
    assert cov.get("trainer 1000+ nodes", 0) >= len(_largest_trainer_cases()), cov
    # the TrainJobs build writes, with the production pod fields on the TrainingRuntime copy
    assert cov.get("trainer built from a spec", 0) >= BUILT_TRAINER_CASES * 3 // 4, cov
    assert cov.get("trainer built on a copy", 0) >= BUILT_TRAINER_CASES // 2, cov
    for field in ("hostNetwork", "initContainers", "resourceClaims", "topologySpreadConstraints"):
        assert cov.get(f"trainer pods' {field}", 0) >= 3, (field, cov)


def test_xgboost_env_order_is_the_plugin_order(trainer_harness):
    """Go's plugin order is drawn anew for each case (the oracle builds the framework per case): on an
    xgboost runtime both env orders occur, mpigen's (plainml first) among them, every run otherwise equal."""
    bases = h.trainer.base_runtimes()
    case = h.trainer.fixed_case("x", bases["xgboost-distributed"],
                                {"numNodes": 2, "env": [{"name": "A", "value": "1"}]})
    results = trainer_harness.run([dict(copy.deepcopy(case), id=f"x{i}") for i in range(48)])
    assert not [d for r in results for d in r.disagreements]
    notes = [n for r in results for n in r.notes]
    assert notes and all(n.key == h.trainer.ENV_ORDER_NOTE for n in notes)
    assert len(notes) < len(results)
