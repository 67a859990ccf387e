"""``mpigen podgroup`` against the cases of mpi-operator v0.8.2 pkg/controller/podgroup_test.go.

The TestNewPodGroup cases (ported as data in tests/cases/upstream_podgroup/new_pod_group.yaml)
are written out as MPIJob manifests and run through the real command line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.golden.cases import ROOT, run

CASES = yaml.safe_load((ROOT / "tests/cases/upstream_podgroup/new_pod_group.yaml").read_text())["cases"]
GANGS = [("volcano", "want_volcano"), ("scheduler-plugins", "want_scheduler_plugins")]


def manifest_of(job: dict) -> str:
    """An upstream test job as a manifest whose pods the API server accepts: Go's tests leave
    containers without name and image, which the CRD and the Pod rules require (mpigen podgroup
    judges a job as mpigen validate does; neither changes the PodGroup)."""
    job = json.loads(json.dumps(job))
    for replica in job["spec"]["mpiReplicaSpecs"].values():
        for i, container in enumerate(replica["template"]["spec"]["containers"]):
            container.setdefault("name", f"c{i}")
            container.setdefault("image", "mpioperator/mpi-pi:openmpi")
    return yaml.safe_dump({"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", **job})


@pytest.mark.parametrize("gang, want_key", GANGS)
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_upstream_new_pod_group_cases(case: dict, gang: str, want_key: str, tmp_path: Path) -> None:
    manifest = tmp_path / "mpijob.yaml"
    manifest.write_text(manifest_of(case["job"]))
    code, out, err = run(["podgroup", str(manifest), "--gang", gang])
    assert code == 0, err
    assert not out.startswith("---"), "one PodGroup is printed as one plain YAML document"
    got = yaml.safe_load(out)
    assert "ownerReferences" not in got["metadata"]
    assert got == case[want_key]


def test_scheduler_name_does_not_change_the_podgroup(tmp_path: Path) -> None:
    manifest = tmp_path / "mpijob.yaml"
    manifest.write_text(manifest_of(CASES[0]["job"]))
    _, a, _ = run(["podgroup", str(manifest), "--gang", "scheduler-plugins"])
    _, b, _ = run(["podgroup", str(manifest), "--gang", "scheduler-plugins", "--scheduler-name", "coscheduler"])
    assert a == b


def test_built_manifest_round_trips_through_podgroup() -> None:
    """The PodGroup of a built manifest says what the manifest's schedulingPolicy says."""
    code, out, err = run(["build", "specs/priority-order.yaml", "--cluster", "specs/cluster/priorityclasses.yaml"])
    assert code == 0, err
    job = yaml.safe_load(out)
    path = ROOT / ".pytest-built.yaml"
    try:
        path.write_text(out)
        code, pg, err = run(["podgroup", str(path), "--gang", "volcano", "--cluster",
                             "specs/cluster/priorityclasses.yaml"])
    finally:
        path.unlink()
    assert code == 0, err
    group = yaml.safe_load(pg)
    policy = job["spec"]["runPolicy"]["schedulingPolicy"]
    assert group["spec"] == {"minMember": policy["minAvailable"], "queue": policy["queue"],
                             "priorityClassName": policy["priorityClass"], "minResources": policy["minResources"]}


def test_v04_volcano_has_no_computed_min_resources(tmp_path: Path) -> None:
    manifest = tmp_path / "mpijob.yaml"
    manifest.write_text(manifest_of(CASES[1]["job"]))
    _, new, _ = run(["podgroup", str(manifest), "--gang", "volcano"])
    code, old, err = run(["podgroup", str(manifest), "--gang", "volcano", "--operator-version", "v0.4.0"])
    assert code == 0, err
    assert "minResources" in yaml.safe_load(new)["spec"]
    assert "minResources" not in yaml.safe_load(old)["spec"]


@pytest.mark.parametrize("text, code_name, line", [
    ("apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: x}\nspec:\n  mpiReplicaSpecs:\n"
     "    Launcher:\n      replicas: 1\n      template:\n        spec:\n          containers:\n"
     "          - resources: {requests: {cpu: 2 cores}}\n", "quantity", 11),
    ("apiVersion: kubeflow.org/v1alpha2\nkind: MPIJob\nmetadata: {name: x}\nspec: {}\n", "legacy-api-version", 1),
    ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "no-mpijob", None),
    ("apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: x}\nspec: {}\n", "missing-field", 4),
])
def test_bad_manifests_are_reported(text: str, code_name: str, line: int | None, tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(text)
    code, out, err = run(["podgroup", str(manifest), "--gang", "volcano"])
    assert code == 1 and out == ""
    assert f" {code_name} " in err
    if line is not None:
        assert f"m.yaml:{line}:" in err
    assert "Traceback" not in err


# ------------------------------------------------------------------ PyTorchJob, TFJob, kind: List

PYTORCHJOB = """\
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, namespace: ns, annotations: {team: vision}}
spec:
  runPolicy:
    schedulingPolicy: {queue: research, scheduleTimeoutSeconds: 60}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers: [{name: pytorch, image: i, resources: {requests: {cpu: "1"}, limits: {memory: 1Gi}}}]
    Worker:
      replicas: 2
      template:
        spec:
          containers: [{name: pytorch, image: i, resources: {limits: {cpu: "2", memory: 1Gi}}}]
"""

TFJOB = """\
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf}
spec:
  tfReplicaSpecs:
    PS:
      template:
        spec:
          containers: [{name: tensorflow, image: i, resources: {requests: {cpu: 500m}}}]
    Worker:
      replicas: 2
      template:
        spec:
          containers: [{name: tensorflow, image: i}]
"""


def _indented(text: str, prefix: str = "  ") -> str:
    lines = text.splitlines()
    return "\n".join([f"- {lines[0]}"] + [prefix + line for line in lines[1:]]) + "\n"


@pytest.mark.parametrize("gang, want", [
    ("volcano", {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                 "metadata": {"name": "pt", "namespace": "ns", "annotations": {"team": "vision"}},
                 "spec": {"minMember": 3, "queue": "research", "minResources": {"cpu": "5", "memory": "2Gi"}}}),
    ("scheduler-plugins", {"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
                           "metadata": {"name": "pt", "namespace": "ns", "annotations": {"team": "vision"}},
                           "spec": {"minMember": 3, "minResources": {"cpu": "5", "memory": "2Gi"},
                                    "scheduleTimeoutSeconds": 60}}),
])
def test_pytorchjob_podgroup(gang: str, want: dict, tmp_path: Path) -> None:
    manifest = tmp_path / "pt.yaml"
    manifest.write_text(PYTORCHJOB)
    code, out, err = run(["podgroup", str(manifest), "--gang", gang])
    assert code == 0, err
    assert yaml.safe_load(out) == want
    # --operator-version names an mpi-operator release: a PyTorchJob always follows training-operator v1.9.4
    _, legacy, _ = run(["podgroup", str(manifest), "--gang", gang, "--operator-version", "v0.4.0"])
    assert legacy == out


def test_jobs_inside_a_list_are_found_with_their_lines(tmp_path: Path) -> None:
    manifest = tmp_path / "list.yaml"
    manifest.write_text("apiVersion: v1\nkind: List\nitems:\n" + _indented(PYTORCHJOB) + _indented(TFJOB))
    code, out, err = run(["podgroup", str(manifest), "--gang", "volcano"])
    assert code == 0, err
    groups = list(yaml.safe_load_all(out))
    assert [g["metadata"]["name"] for g in groups] == ["pt", "tf"]
    assert groups[1]["spec"] == {"minMember": 3, "queue": "default", "minResources": {"cpu": "500m"}}
    broken = manifest.read_text().replace("[{name: tensorflow, image: i}]", "[{name: other, image: i}]")
    manifest.write_text(broken)
    code, out, err = run(["podgroup", str(manifest), "--gang", "volcano"])
    assert code == 1 and out == ""
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "{name: other, image: i}" in text)
    # the training-operator's webhook refuses it too; the lint rule says it in its own terms, once
    assert f"list.yaml:{line}:" in err and " container-name " in err and " training-job-invalid " not in err


def test_mpijob_inside_a_list(tmp_path: Path) -> None:
    manifest = tmp_path / "list.yaml"
    manifest.write_text("apiVersion: v1\nkind: List\nitems:\n" + _indented(manifest_of(CASES[0]["job"])))
    code, out, err = run(["podgroup", str(manifest), "--gang", "volcano"])
    assert code == 0, err
    assert yaml.safe_load(out) == CASES[0]["want_volcano"]


def test_suspended_training_job_gets_no_podgroup(tmp_path: Path) -> None:
    manifest = tmp_path / "pt.yaml"
    manifest.write_text(PYTORCHJOB.replace("  runPolicy:\n", "  runPolicy:\n    suspend: true\n"))
    code, out, err = run(["podgroup", str(manifest), "--gang", "volcano"])
    assert code == 1 and out == ""
    assert " not-created " in err and "suspend" in err


def test_map_order_dependent_min_resources_is_a_warning(tmp_path: Path) -> None:
    manifest = tmp_path / "tf.yaml"
    manifest.write_text(TFJOB.replace("replicas: 2", "replicas: 3").replace(
        "metadata: {name: tf}\nspec:\n", "metadata: {name: tf}\nspec:\n  runPolicy:\n    schedulingPolicy: {minAvailable: 2}\n"))
    code, out, err = run(["podgroup", str(manifest), "--gang", "scheduler-plugins"])
    assert code == 0, err
    assert " warning nondeterministic " in err
    assert yaml.safe_load(out)["spec"]["minResources"] == {"cpu": "500m"}  # PS first, as in the document


LIMIT_ONLY = "tests/cases/lint/trainer-limit-only-resource/bad-pytorchjob.yaml"


def test_a_gpu_given_only_as_a_limit_of_a_volcano_pytorchjob() -> None:
    """training-operator v1.9.0 takes a container's limits only when it has no requests: the
    PodGroup holds the 4 pods' CPU and memory requests and no GPU (as the operator computes it,
    which tests/oracle checks against the real controller), and the GPU limit of each replica type
    is warned about at its line, as validate warns."""
    code, out, err = run(["podgroup", LIMIT_ONLY])
    assert code == 0, err
    assert yaml.safe_load(out)["spec"] == {"minMember": 4, "queue": "default",
                                           "minResources": {"cpu": "32", "memory": "128Gi"}}
    assert [line.split(" ", 3)[:3] for line in err.splitlines()] == [
        [f"{LIMIT_ONLY}:25:40:", "warning", "trainer-limit-only-resource"],
        [f"{LIMIT_ONLY}:39:40:", "warning", "trainer-limit-only-resource"]]
    assert run(["validate", LIMIT_ONLY])[1].count("warning trainer-limit-only-resource") == 2
