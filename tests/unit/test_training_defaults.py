"""mpigen.operator.training_defaults against training-operator v1.9.4's own defaults tests
(``tests/cases/upstream_training``), plus mpigen's cases for the rules those tests leave out."""

from __future__ import annotations

import copy

import pytest

from mpigen.operator.podgroup import OperatorPanicError
from mpigen.operator.training_defaults import (
    camel_case_replica_types,
    set_default_nproc_per_node,
    set_defaults,
    set_elastic_policy,
)
from tests.upstream_training import cases as _cases

# Cases per Go test function at v1.9.4 (the same test files as v1.9.0's).
UPSTREAM_COUNTS = {"TestSetDefaultTFJob": 5, "TestSetTypeNames": 1, "TestSetElasticPolicy": 5,
                   "TestSetDefaultNprocPerNode": 2}


def test_every_upstream_defaults_case_is_ported() -> None:
    for go_test, count in UPSTREAM_COUNTS.items():
        assert len(_cases(go_test)) == count, go_test


@pytest.mark.parametrize("case", _cases("TestSetDefaultTFJob"))
def test_upstream_set_default_tfjob(case: dict) -> None:
    original = copy.deepcopy(case["original"])
    assert set_defaults(case["original"]) == case["expected"]
    assert case["original"] == original  # copy on write


@pytest.mark.parametrize("case", _cases("TestSetTypeNames"))
def test_upstream_set_type_names(case: dict) -> None:
    specs = camel_case_replica_types(case["specs"], ("PS", "Worker", "Chief", "Master", "Evaluator"))
    assert case["deleted"] not in specs
    assert specs[case["set"]] is case["specs"][case["deleted"]]


@pytest.mark.parametrize("case", _cases("TestSetElasticPolicy"))
def test_upstream_set_elastic_policy(case: dict) -> None:
    spec = copy.deepcopy(case["spec"])
    set_elastic_policy(spec)
    assert spec["elasticPolicy"]["minReplicas"] == case["min_replicas"]
    assert spec["elasticPolicy"]["maxReplicas"] == case["max_replicas"]


@pytest.mark.parametrize("case", _cases("TestSetDefaultNprocPerNode"))
def test_upstream_set_default_nproc_per_node(case: dict) -> None:
    spec = copy.deepcopy(case["spec"])
    set_default_nproc_per_node(spec)
    assert spec["nprocPerNode"] == case["nproc_per_node"]


# ------------------------------------------------------------------ mpigen's cases


def _pytorchjob(**spec) -> dict:
    return {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "pt"}, "spec": spec}


def test_pytorchjob_defaults() -> None:
    job = _pytorchjob(pytorchReplicaSpecs={
        "master": {"template": {"spec": {"containers": [{"name": "sidecar"}, {"name": "pytorch"}]}}},
        "Worker": {"replicas": 3, "restartPolicy": "Never",
                   "template": {"spec": {"containers": [{"name": "other", "image": "x"}]}}}})
    out = set_defaults(job)
    assert out["spec"]["runPolicy"] == {"cleanPodPolicy": "None"}
    assert out["spec"]["nprocPerNode"] == "auto"
    assert "successPolicy" not in out["spec"]
    master = out["spec"]["pytorchReplicaSpecs"]["Master"]  # camel-cased
    assert "master" not in out["spec"]["pytorchReplicaSpecs"]
    assert (master["replicas"], master["restartPolicy"]) == (1, "OnFailure")
    # the port goes to the container named pytorch, else to the first one
    assert "ports" not in master["template"]["spec"]["containers"][0]
    assert master["template"]["spec"]["containers"][1]["ports"] == [{"name": "pytorchjob-port", "containerPort": 23456}]
    worker = out["spec"]["pytorchReplicaSpecs"]["Worker"]
    assert (worker["replicas"], worker["restartPolicy"]) == (3, "Never")
    assert worker["template"]["spec"]["containers"][0]["ports"] == [{"name": "pytorchjob-port", "containerPort": 23456}]
    assert "ports" not in job["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]


def test_explicit_values_are_kept() -> None:
    job = _pytorchjob(runPolicy={"cleanPodPolicy": ""}, nprocPerNode="4",
                      elasticPolicy={"nProcPerNode": 2, "minReplicas": 1},
                      pytorchReplicaSpecs={"Worker": {"replicas": 0, "template": {"spec": {"containers": [{}]}}}})
    out = set_defaults(job)
    assert out["spec"]["runPolicy"]["cleanPodPolicy"] == ""  # a non-nil pointer to "" in Go
    assert out["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] == 0
    assert out["spec"]["elasticPolicy"] == {"nProcPerNode": 2, "minReplicas": 1, "maxReplicas": 1}
    assert out["spec"]["nprocPerNode"] == "4"


def test_elastic_policy_with_nproc_per_node_gets_no_default() -> None:
    job = _pytorchjob(elasticPolicy={"nProcPerNode": 2},
                      pytorchReplicaSpecs={"Worker": {"replicas": 5, "template": {"spec": {"containers": [{}]}}}})
    out = set_defaults(job)
    assert "nprocPerNode" not in out["spec"]
    assert out["spec"]["elasticPolicy"]["minReplicas"] == out["spec"]["elasticPolicy"]["maxReplicas"] == 5


def test_a_non_canonical_key_replaces_the_canonical_one() -> None:
    specs = {"Worker": {"replicas": 1}, "worker": {"replicas": 7}}
    assert camel_case_replica_types(specs, ("Worker",)) == {"Worker": {"replicas": 7}}


@pytest.mark.parametrize("specs, message", [
    ({"Worker": None}, "is null"),
    ({"Worker": {"template": {"spec": {"containers": []}}}}, "no containers"),
    ({"Worker": {"template": {}}}, "no containers"),
])
def test_operator_panics(specs: dict, message: str) -> None:
    with pytest.raises(OperatorPanicError, match=message):
        set_defaults({"kind": "TFJob", "spec": {"tfReplicaSpecs": specs}})


def test_elastic_policy_without_worker_panics() -> None:
    job = _pytorchjob(elasticPolicy={}, pytorchReplicaSpecs={
        "Master": {"replicas": 1, "template": {"spec": {"containers": [{"name": "pytorch"}]}}}})
    with pytest.raises(OperatorPanicError, match="Worker"):
        set_defaults(job)


def test_other_kinds_are_refused() -> None:
    with pytest.raises(ValueError):
        set_defaults({"kind": "MPIJob", "spec": {}})


def test_tfjob_without_spec_gets_value_structs() -> None:
    assert set_defaults({"kind": "TFJob"}) == {"kind": "TFJob", "spec": {"runPolicy": {"cleanPodPolicy": "None"},
                                                                        "successPolicy": ""}}
