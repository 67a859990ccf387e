"""mpigen.operator.podgroup against mpi-operator's own podgroup tests, plus mpigen's.

Part 1 runs every case of kubeflow/mpi-operator ``pkg/controller/podgroup_test.go``
at tag v0.8.2 (the same file as v0.8.0's). The case data lives in ``tests/cases/upstream_podgroup/*.yaml``
(one file per Go test function, each case under its Go name); this module
discovers the files and dispatches each to the checker for its ``go_test``.

Part 2 holds mpigen's own cases: the v0.4.x line, the priority ordering, the
fixed equal-priority order, cost independence from the replica count, etc.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mpigen.operator import podgroup as pg
from mpigen.operator.mpi_defaults import set_defaults
from mpigen.operator.podgroup import (
    GANG_SCHEDULER_PLUGINS,
    GANG_VOLCANO,
    OperatorPanicError,
    add_resources,
    calculate_min_available,
    calculate_min_resources,
    calculate_priority_class_name,
    decorate_pod_template,
    new_pod_group,
)
from mpigen.operator.quantity import Quantity
from mpigen.versions import OperatorVersion

V04 = OperatorVersion(0, 4, 0)

CASE_DIR = Path(__file__).resolve().parents[1] / "cases" / "upstream_podgroup"

# Number of cases in each Go test function at v0.8.2 (TestCalculatePGMinResources:
# 4 volcanoTests + 5 schedTests).
UPSTREAM_CASE_COUNTS = {
    "TestNewPodGroup": 3,
    "TestCalcPriorityClassName": 4,
    "TestDecoratePodTemplateSpec": 1,
    "TestCalculatePGMinResources": 9,
    "TestAddResources": 4,
    "TestCalculateMinAvailable": 2,
    "TestReplicasOrder": 2,
}


def _load_documents() -> list[dict]:
    docs = []
    for path in sorted(CASE_DIR.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text())
        doc["_file"] = path.name
        docs.append(doc)
    return docs


def _params() -> list:
    params = []
    for doc in _load_documents():
        for case in doc["cases"]:
            name = f"{case['gang']}/{case['name']}" if "gang" in case else case["name"]
            params.append(pytest.param(doc["go_test"], case, id=f"{doc['go_test']}/{name}"))
    return params


def _assert_resource_list(got: dict | None, want: dict | None) -> None:
    """Go compares ResourceLists with cmp.Diff, which uses Quantity.Equal (by
    value); mpigen additionally requires the exact canonical string."""
    if want is None:
        assert got is None
        return
    assert got is not None
    assert sorted(got) == sorted(want)
    for name, literal in want.items():
        assert got[name] == Quantity.parse(literal), name  # what Go compares
        assert str(got[name]) == literal, name  # what mpigen emits


# ---------------------------------------------------------------- checkers


def check_new_pod_group(case: dict) -> None:
    job = case["job"]
    before = copy.deepcopy(job)
    pcs = case.get("priority_classes") or {}
    for gang, key in ((GANG_VOLCANO, "want_volcano"), (GANG_SCHEDULER_PLUGINS, "want_scheduler_plugins")):
        got = new_pod_group(job, gang, pcs)
        # Emitted quantities are strings; equal canonical strings imply what Go
        # checks (equal values).
        assert got == case[key], gang
        for name, literal in case[key]["spec"].get("minResources", {}).items():
            assert Quantity.parse(got["spec"]["minResources"][name]) == Quantity.parse(literal)
    assert job == before


def check_calc_priority_class_name(case: dict) -> None:
    job = {"spec": {"mpiReplicaSpecs": case["replicas"],
                    "runPolicy": {"schedulingPolicy": case.get("scheduling_policy")}}}
    assert calculate_priority_class_name(job) == case["want"]


def check_decorate_pod_template_spec(case: dict) -> None:
    template = case["template"]
    before = copy.deepcopy(template)
    got = decorate_pod_template(template, case["job_name"], GANG_VOLCANO)
    assert got == case["want_volcano"]
    got = decorate_pod_template(template, case["job_name"], GANG_SCHEDULER_PLUGINS,
                                case["scheduler_plugins_scheduler_name"])
    assert got == case["want_scheduler_plugins"]
    assert template == before


def check_calculate_pg_min_resources(case: dict) -> None:
    job = case["job"]
    before = copy.deepcopy(job)
    got = calculate_min_resources(case["min_member"], job, case.get("priority_classes") or {},
                                  gang=case["gang"])
    _assert_resource_list(got, case["want"])
    assert job == before


def check_add_resources(case: dict) -> None:
    raw = case["min_resources"]
    min_resources = None if raw is None else {k: Quantity.parse(v) for k, v in raw.items()}
    snapshot = None if raw is None else dict(min_resources)
    got = add_resources(min_resources, case["resources"], case["replicas"])
    _assert_resource_list(got, case["want"])
    assert min_resources == snapshot  # the input dict is not mutated


def check_calculate_min_available(case: dict) -> None:
    assert calculate_min_available(case["job"]) == case["want"]


def check_replicas_order(case: dict) -> None:
    got = pg._sort_replicas_order([dict(e) for e in case["original"]])
    assert got == case["expected"]


CHECKERS = {
    "TestNewPodGroup": check_new_pod_group,
    "TestCalcPriorityClassName": check_calc_priority_class_name,
    "TestDecoratePodTemplateSpec": check_decorate_pod_template_spec,
    "TestCalculatePGMinResources": check_calculate_pg_min_resources,
    "TestAddResources": check_add_resources,
    "TestCalculateMinAvailable": check_calculate_min_available,
    "TestReplicasOrder": check_replicas_order,
}


@pytest.mark.parametrize(("go_test", "case"), _params())
def test_upstream(go_test: str, case: dict) -> None:
    CHECKERS[go_test](case)


def test_upstream_case_files_are_complete() -> None:
    counts: dict[str, int] = {}
    for doc in _load_documents():
        assert doc["go_test"] in CHECKERS, doc["_file"]
        assert doc["source"].startswith("kubeflow/mpi-operator pkg/controller/podgroup_test.go@v0.8.2 "), doc["_file"]
        assert doc["source"].endswith(doc["go_test"]), doc["_file"]
        counts[doc["go_test"]] = counts.get(doc["go_test"], 0) + len(doc["cases"])
    assert counts == UPSTREAM_CASE_COUNTS


# ------------------------------------------------------ mpigen's own cases


def _container(requests=None, limits=None) -> dict:
    resources = {}
    if requests is not None:
        resources["requests"] = requests
    if limits is not None:
        resources["limits"] = limits
    return {"name": "main", "image": "mpi:latest", "resources": resources}


def _job(launcher=None, worker=None, workers=2, *, launcher_pc=None, worker_pc=None,
         policy=None, worker_first=False, worker_extra=None) -> dict:
    def replica(n, containers, pc, extra=None):
        spec = {"containers": containers or [_container()]}
        if pc:
            spec["priorityClassName"] = pc
        spec.update(extra or {})
        return {"replicas": n, "template": {"spec": spec}}

    specs = {"Launcher": replica(1, launcher, launcher_pc),
             "Worker": replica(workers, worker, worker_pc, worker_extra)}
    if worker_first:
        specs = {"Worker": specs["Worker"], "Launcher": specs["Launcher"]}
    spec = {"mpiReplicaSpecs": specs}
    if policy is not None:
        spec["runPolicy"] = {"schedulingPolicy": policy}
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
            "metadata": {"name": "job", "namespace": "ml"}, "spec": spec}


def _strs(resources: dict | None) -> dict | None:
    return None if resources is None else {k: str(v) for k, v in resources.items()}


BASIC = _job([_container({"cpu": "1", "memory": "2Gi"})], [_container({"cpu": "10", "memory": "20Gi"})])


class TestLegacyV04:
    def test_volcano_has_no_computed_min_resources(self):
        got = new_pod_group(BASIC, GANG_VOLCANO, version=V04)
        assert got["spec"] == {"minMember": 3}
        assert new_pod_group(BASIC, GANG_VOLCANO)["spec"]["minResources"] == {"cpu": "21", "memory": "42Gi"}
        assert calculate_min_resources(3, BASIC, {}, V04, gang=GANG_VOLCANO) is None

    def test_volcano_policy_without_min_resources(self):
        job = copy.deepcopy(BASIC)
        job["spec"]["runPolicy"] = {"schedulingPolicy": {"minAvailable": 2}}
        assert new_pod_group(job, GANG_VOLCANO, version=OperatorVersion(0, 4, 1))["spec"] == {"minMember": 2}

    def test_volcano_explicit_min_resources(self):
        job = copy.deepcopy(BASIC)
        job["spec"]["runPolicy"] = {"schedulingPolicy": {"minResources": {"cpu": "4"}}}
        assert new_pod_group(job, GANG_VOLCANO, version=V04)["spec"]["minResources"] == {"cpu": "4"}

    def test_scheduler_plugins_sum_matches_v08(self):
        assert new_pod_group(BASIC, GANG_SCHEDULER_PLUGINS, version=V04) == new_pod_group(
            BASIC, GANG_SCHEDULER_PLUGINS)

    def test_scheduler_plugins_min_member_zero_crashes(self):
        job = copy.deepcopy(BASIC)
        job["spec"]["runPolicy"] = {"schedulingPolicy": {"minAvailable": 0}}
        with pytest.raises(OperatorPanicError, match="would crash"):
            new_pod_group(job, GANG_SCHEDULER_PLUGINS, version=V04)
        # v0.8.0 copes: minMember and minResources are both omitted.
        assert new_pod_group(job, GANG_SCHEDULER_PLUGINS)["spec"] == {"scheduleTimeoutSeconds": 0}

    def test_launcher_only_crashes_in_v04_only(self):
        job = copy.deepcopy(BASIC)
        del job["spec"]["mpiReplicaSpecs"]["Worker"]
        with pytest.raises(OperatorPanicError, match="index out of range"):
            new_pod_group(job, GANG_SCHEDULER_PLUGINS, version=V04)
        assert new_pod_group(job, GANG_SCHEDULER_PLUGINS)["spec"]["minResources"] == {"cpu": "1", "memory": "2Gi"}

    def test_zero_replicas_add_no_key_in_v04(self):
        # minAvailable 1 cuts the Worker to 0 replicas: v0.8.0 multiplies by 0
        # and keeps a "0" entry, v0.4.0's loop never runs.
        job = _job([_container({"cpu": "1"})], [_container({"cpu": "1", "nvidia.com/gpu": "1"})],
                   policy={"minAvailable": 1})
        assert _strs(calculate_min_resources(1, job, {})) == {"cpu": "1", "nvidia.com/gpu": "0"}
        assert _strs(calculate_min_resources(1, job, {}, V04)) == {"cpu": "1"}

    def test_unmodelled_versions(self):
        with pytest.raises(ValueError, match="predates"):
            new_pod_group(BASIC, GANG_VOLCANO, version=OperatorVersion(0, 3, 0))


class TestPriorityOrder:
    PCS = {"low": 10, "high": 100}

    def test_launcher_lower_priority_is_cut(self):
        # order = [Worker(high), Launcher(low)]; 5 replicas > minMember 3, so the
        # SECOND entry (the Launcher) becomes minMember-1 = 2; the Worker keeps 4.
        job = _job([_container({"cpu": "1", "memory": "1Gi"})], [_container({"cpu": "2", "memory": "4Gi"})],
                   workers=4, launcher_pc="low", worker_pc="high", policy={"minAvailable": 3})
        assert _strs(calculate_min_resources(3, job, self.PCS)) == {"cpu": "10", "memory": "18Gi"}
        got = new_pod_group(job, GANG_VOLCANO, self.PCS)
        assert got["spec"]["minResources"] == {"cpu": "10", "memory": "18Gi"}
        assert got["spec"]["priorityClassName"] == "low"  # the Launcher's name comes first

    def test_equal_priority_cuts_the_worker(self):
        job = _job([_container({"cpu": "1"})], [_container({"cpu": "2"})], workers=3, policy={"minAvailable": 2})
        assert _strs(calculate_min_resources(2, job, {})) == {"cpu": "3"}

    def test_unknown_priority_class_counts_as_zero(self):
        job = _job([_container({"cpu": "1"})], [_container({"cpu": "2"})], workers=3,
                   launcher_pc="missing", worker_pc="low")
        # Launcher 0 < Worker 10: the Launcher is second and cut to minMember-1.
        assert _strs(calculate_min_resources(2, job, self.PCS)) == {"cpu": "7"}

    @pytest.mark.parametrize("worker_first", [False, True], ids=["launcher-listed-first", "worker-listed-first"])
    def test_equal_priority_launcher_first_sets_the_format(self, worker_first):
        # mpigen's deliberate choice: equal priorities -> Launcher then Worker,
        # whatever the YAML order. A sum keeps its first operand's format:
        # 1Gi + 1024M = 2097741824 = 2048576Ki (BinarySI) or "2097741824" (DecimalSI).
        job = _job([_container({"memory": "1Gi"})], [_container({"memory": "1024M"})], workers=1,
                   worker_first=worker_first)
        assert str(calculate_min_resources(None, job, {})["memory"]) == "2048576Ki"
        swapped = _job([_container({"memory": "1024M"})], [_container({"memory": "1Gi"})], workers=1,
                       worker_first=worker_first)
        assert str(calculate_min_resources(None, swapped, {})["memory"]) == "2097741824"

    def test_higher_priority_worker_sets_the_format(self):
        job = _job([_container({"memory": "1Gi"})], [_container({"memory": "1024M"})], workers=1,
                   worker_pc="high")
        assert str(calculate_min_resources(None, job, self.PCS)["memory"]) == "2097741824"


class TestSums:
    def test_replica_count_scales_without_cost(self, monkeypatch):
        calls = []
        original = Quantity.mul

        def counting_mul(self, n):
            calls.append(n)
            return original(self, n)

        monkeypatch.setattr(Quantity, "mul", counting_mul)
        results = {}
        for workers in (2, 10_000):
            calls.clear()
            job = _job([_container({"cpu": "1", "memory": "1Gi"})],
                       [_container({"cpu": "250m", "memory": "512Mi"})], workers=workers)
            results[workers] = new_pod_group(job, GANG_SCHEDULER_PLUGINS)["spec"]["minResources"]
            assert len(calls) == 4  # 2 resources x 2 replica types, whatever the count
        assert results[2] == {"cpu": "1500m", "memory": "2Gi"}
        assert results[10_000] == {"cpu": "2501", "memory": "5001Gi"}
        # Worker share is proportional to the replica count: 5000x.
        cpu_share = {n: Quantity.parse(r["cpu"]).add(Quantity.parse("-1")) for n, r in results.items()}
        assert cpu_share[10_000] == cpu_share[2].mul(5000)

    def test_requests_merged_with_limits(self):
        job = _job([_container()], [_container({"cpu": "2"}, {"cpu": "4", "memory": "8Gi", "nvidia.com/gpu": "1"})],
                   workers=3)
        assert _strs(calculate_min_resources(None, job, {})) == {"cpu": "6", "memory": "24Gi", "nvidia.com/gpu": "3"}

    @pytest.mark.parametrize(("raw", "want"), [(0.5, "500m"), (1.0, "1"), (1e16, "10P"), (1e-7, "100e-9")])
    def test_unquoted_yaml_floats_read_as_go_json_numbers(self, raw, want):
        job = _job([_container({"cpu": raw})], [_container()])
        assert _strs(calculate_min_resources(None, job, {})) == {"cpu": want}

    def test_init_containers_ignored(self):
        job = _job([_container()], [_container({"cpu": "1"})],
                   worker_extra={"initContainers": [_container({"cpu": "100", "memory": "1Gi"})]})
        assert _strs(calculate_min_resources(3, job, {})) == {"cpu": "2"}

    def test_empty_resources_add_nothing(self):
        start = {"cpu": Quantity.parse("1")}
        for resources in (None, {}, {"requests": {}}, {"requests": None, "limits": {}}, {"claims": [{"name": "x"}]}):
            got = add_resources(start, resources, 5)
            assert got == start and got is not start

    def test_missing_replicas_crash_like_the_operator(self):
        job = copy.deepcopy(BASIC)
        del job["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"]
        with pytest.raises(OperatorPanicError, match="nil pointer"):
            calculate_min_resources(1, job, {})
        # After defaulting (Worker replicas 0, minMember 1) it works.
        assert _strs(calculate_min_resources(1, set_defaults(job), {})) == {"cpu": "1", "memory": "2Gi"}


class TestPodGroupShape:
    def test_explicit_min_resources_passed_through_canonical(self):
        job = copy.deepcopy(BASIC)
        job["spec"]["runPolicy"] = {"schedulingPolicy": {"minResources": {"memory": "1024Mi", "cpu": "0.5"}}}
        for gang in (GANG_VOLCANO, GANG_SCHEDULER_PLUGINS):
            assert new_pod_group(job, gang)["spec"]["minResources"] == {"cpu": "500m", "memory": "1Gi"}

    def test_explicit_empty_min_resources(self):
        job = copy.deepcopy(BASIC)
        job["spec"]["runPolicy"] = {"schedulingPolicy": {"minResources": {}}}
        assert new_pod_group(job, GANG_VOLCANO)["spec"]["minResources"] == {}  # *ResourceList, non-nil
        assert "minResources" not in new_pod_group(job, GANG_SCHEDULER_PLUGINS)["spec"]  # omitempty map

    def test_min_member_zero(self):
        job = copy.deepcopy(BASIC)
        job["spec"]["runPolicy"] = {"schedulingPolicy": {"minAvailable": 0, "queue": "q"}}
        assert calculate_min_resources(0, job, {}) is None
        assert new_pod_group(job, GANG_VOLCANO)["spec"] == {"queue": "q"}
        assert new_pod_group(job, GANG_SCHEDULER_PLUGINS)["spec"] == {"scheduleTimeoutSeconds": 0}

    def test_metadata_and_key_order(self):
        got = new_pod_group(BASIC, GANG_VOLCANO)
        assert list(got) == ["apiVersion", "kind", "metadata", "spec"]
        assert got["metadata"] == {"name": "job", "namespace": "ml"}
        assert list(got["spec"]["minResources"]) == ["cpu", "memory"]

    def test_inputs_not_mutated(self):
        job = _job([_container({"cpu": "1"})], [_container({"cpu": "2"})], workers=5, policy={"minAvailable": 2})
        before = copy.deepcopy(job)
        for gang in (GANG_VOLCANO, GANG_SCHEDULER_PLUGINS):
            new_pod_group(job, gang)
        assert job == before

    def test_unknown_gang(self):
        with pytest.raises(ValueError, match="gang"):
            new_pod_group(BASIC, "kube-batch")


def test_decorate_overwrites_and_keeps_existing():
    template = {"metadata": {"labels": {"app": "x"}, "annotations": {"a": "b"}},
                "spec": {"schedulerName": "default-scheduler", "containers": []}}
    before = copy.deepcopy(template)
    got = decorate_pod_template(template, "job", GANG_SCHEDULER_PLUGINS)
    assert got["spec"]["schedulerName"] == "scheduler-plugins-scheduler"
    assert got["metadata"]["labels"] == {"app": "x", "scheduling.x-k8s.io/pod-group": "job"}
    got = decorate_pod_template(template, "job", GANG_VOLCANO)
    assert got["spec"]["schedulerName"] == "volcano"
    assert got["metadata"]["annotations"] == {"a": "b", "scheduling.k8s.io/group-name": "job"}
    assert template == before
