"""mpigen.operator.mpi_defaults.set_defaults vs mpi-operator's SetDefaults_MPIJob.

The first test ports every case of TestSetDefaults_MPIJob in
kubeflow/mpi-operator ``pkg/apis/kubeflow/v2beta1/default_test.go`` at tag v0.8.2 (the same file as v0.8.0's)
(ids are the Go case names); Go's zero-valued MPIJob{} is the empty dict here.
The rest are mpigen's own cases for the dict representation.
"""

from __future__ import annotations

import copy

import pytest

from mpigen.operator.mpi_defaults import set_defaults

_BASE_SPEC = {
    "slotsPerWorker": 1,
    "runPolicy": {"cleanPodPolicy": "None"},
    "sshAuthMountPath": "/root/.ssh",
    "mpiImplementation": "OpenMPI",
    "launcherCreationPolicy": "AtStartup",
}


def _overridden(impl: str) -> dict:
    return {"spec": {
        "slotsPerWorker": 10,
        "runPolicy": {"cleanPodPolicy": "Running", "ttlSecondsAfterFinished": 2,
                      "activeDeadlineSeconds": 3, "backoffLimit": 4},
        "sshAuthMountPath": "/home/mpiuser/.ssh",
        "mpiImplementation": impl,
        "launcherCreationPolicy": "AtStartup",
    }}


# source: kubeflow/mpi-operator pkg/apis/kubeflow/v2beta1/default_test.go@v0.8.2 TestSetDefaults_MPIJob
UPSTREAM_CASES = {
    "base defaults": ({}, {"spec": _BASE_SPEC}),
    "base defaults overridden (intel)": (_overridden("Intel"), _overridden("Intel")),
    "base defaults overridden (mpich)": (_overridden("MPICH"), _overridden("MPICH")),
    "launcher defaults": (
        {"spec": {"mpiReplicaSpecs": {"Launcher": {}}}},
        {"spec": {**_BASE_SPEC, "mpiReplicaSpecs": {"Launcher": {"replicas": 1, "restartPolicy": "OnFailure"}}}},
    ),
    "worker defaults": (
        {"spec": {"mpiReplicaSpecs": {"Worker": {}}}},
        {"spec": {**_BASE_SPEC, "mpiReplicaSpecs": {"Worker": {"replicas": 0, "restartPolicy": "Never"}}}},
    ),
}


@pytest.mark.parametrize(("job", "want"), list(UPSTREAM_CASES.values()), ids=list(UPSTREAM_CASES))
def test_upstream_set_defaults(job, want):
    before = copy.deepcopy(job)
    assert set_defaults(job) == want
    assert job == before


def test_upstream_case_count():
    assert len(UPSTREAM_CASES) == 5


def test_missing_run_policy_is_created_and_other_fields_kept():
    job = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "a"},
           "spec": {"runPolicy": None, "mpiReplicaSpecs": {
               "Launcher": {"template": {"spec": {"containers": [{"name": "l"}]}}},
               "Worker": {"replicas": 4, "restartPolicy": "OnFailure", "template": {}}}}}
    got = set_defaults(job)
    assert got["spec"]["runPolicy"] == {"cleanPodPolicy": "None"}
    assert got["spec"]["mpiReplicaSpecs"]["Launcher"] == {
        "template": {"spec": {"containers": [{"name": "l"}]}}, "restartPolicy": "OnFailure", "replicas": 1}
    assert got["spec"]["mpiReplicaSpecs"]["Worker"] == {"replicas": 4, "restartPolicy": "OnFailure", "template": {}}
    assert got["metadata"] == {"name": "a"}


def test_scheduling_policy_untouched_and_no_crd_defaults():
    job = {"spec": {"runPolicy": {"schedulingPolicy": {"queue": "q"}, "suspend": None}}}
    got = set_defaults(job)
    assert got["spec"]["runPolicy"] == {"schedulingPolicy": {"queue": "q"}, "suspend": None, "cleanPodPolicy": "None"}
    assert "runLauncherAsWorker" not in got["spec"]


def test_null_and_empty_values_count_as_unset():
    job = {"spec": {"slotsPerWorker": None, "sshAuthMountPath": "", "mpiImplementation": None,
                    "launcherCreationPolicy": "", "runPolicy": {"cleanPodPolicy": None},
                    "mpiReplicaSpecs": {"Launcher": {"restartPolicy": "", "replicas": None}}}}
    got = set_defaults(job)["spec"]
    assert {k: got[k] for k in _BASE_SPEC} == _BASE_SPEC
    assert got["mpiReplicaSpecs"]["Launcher"] == {"restartPolicy": "OnFailure", "replicas": 1}


def test_zero_values_are_kept():
    job = {"spec": {"slotsPerWorker": 0, "mpiReplicaSpecs": {"Worker": {"replicas": 0}}}}
    got = set_defaults(job)["spec"]
    assert got["slotsPerWorker"] == 0
    assert got["mpiReplicaSpecs"]["Worker"] == {"replicas": 0, "restartPolicy": "Never"}


def test_null_replica_spec_is_left_alone():
    got = set_defaults({"spec": {"mpiReplicaSpecs": {"Launcher": None}}})
    assert got["spec"]["mpiReplicaSpecs"] == {"Launcher": None}
    assert "mpiReplicaSpecs" not in set_defaults({})["spec"]
