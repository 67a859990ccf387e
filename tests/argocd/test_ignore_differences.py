"""The ignoreDifferences of `mpigen argocd` under gojq, as Argo CD v3.5.1 runs them
(tests/argocd/argocd-lua): each case is a manifest as Git holds it (mpigen's own output where
mpigen writes the kind) and the live object after a controller, a webhook or the API server
changed it. Argo CD's default diff of a custom resource sees drift (:func:`drift`) without the
rules and none with them; a change a user makes stays visible with them."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
import yaml

from cluster.components import module_dir
from mpigen.gitops import argocd
from tests.argocd import harness

GOLDEN = harness.ROOT / "golden"
KUEUE_QUEUE = "kueue.x-k8s.io/queue-name"
FLAVOR_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def drift(config: object, live: object, path: str = "") -> list[str]:
    """Where Argo CD's legacy diff shows a custom resource out of sync, the manifest having been
    applied as it is (its last applied configuration is the one in Git): gitops-engine's
    threeWayMergePatch takes jsonmergepatch.CreateThreeWayJSONMergePatch(orig, config, live),
    which, with orig equal to config, deletes nothing and sets what config says where live
    differs -- maps key by key, lists and values whole. Drift is where that changes live."""
    if isinstance(config, dict) and isinstance(live, dict):
        out = []
        for key, value in config.items():
            where = f"{path}.{key}"
            out += [where] if key not in live else drift(value, live[key], where)
        return out
    return [] if config == live else [path]


def _golden(name: str) -> dict:
    return yaml.safe_load((GOLDEN / name / "base.yaml").read_text())


def _replica_templates(job: dict) -> list[dict]:
    specs = next(v for k, v in job["spec"].items() if k.endswith("ReplicaSpecs"))
    return [replica["template"]["spec"] for replica in specs.values()]


def _with_tolerations(job: dict) -> dict:
    """A job as Git may hold it under Kueue: suspend written out, tolerations of its own."""
    job = copy.deepcopy(job)
    job["spec"]["runPolicy"]["suspend"] = False
    for template in _replica_templates(job):
        template["tolerations"] = [{"key": "team", "operator": "Equal", "value": "nlp", "effect": "NoSchedule"}]
    return job


def _kueue_admitted_then_preempted(job: dict) -> dict:
    """Kueue appended its flavor's tolerations when it admitted the job, then suspended it."""
    job = copy.deepcopy(job)
    job["spec"]["runPolicy"]["suspend"] = True
    for template in _replica_templates(job):
        template["tolerations"].append(FLAVOR_TOLERATION)
    return job


def _ports_defaulted(protocol: str) -> Callable[[dict], dict]:
    def change(job: dict) -> dict:
        job = copy.deepcopy(job)
        for template in _replica_templates(job):
            for container in template["containers"]:
                for port in container.get("ports", []):
                    port["protocol"] = protocol
        return job
    return change


def _elastic(job: dict) -> dict:
    job = copy.deepcopy(job)
    job["spec"]["elasticPolicy"] = {"minReplicas": 1, "maxReplicas": 8, "metrics": [
        {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]}
    return job


def _scaled(job: dict) -> dict:
    job = copy.deepcopy(job)
    job["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = 6
    return job


def _kueue_trainjob(job: dict) -> dict:
    """Kueue's webhook and admission: its runtime patch beside mpigen's, MultiKueue's managedBy,
    the TrainJob suspended."""
    job = copy.deepcopy(job)
    job["spec"]["suspend"] = True
    job["spec"]["managedBy"] = "kueue.x-k8s.io/multikueue"
    pod = {"nodeSelector": {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}, "tolerations": [FLAVOR_TOLERATION]}
    node = {"name": "node", "template": {"spec": {"template": {"spec": pod}}}}
    job["spec"]["runtimePatches"].append({"manager": "kueue.x-k8s.io/manager",
                                          "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": [node]}}}})
    return job


def _jobset() -> dict:
    """A JobSet as one writes it by hand: the API server's and JobSet's webhook's defaults left out."""
    pod = {"containers": [{"name": "worker", "image": "example/train:1", "ports": [{"containerPort": 29500}]}]}
    claim = {"metadata": {"name": "scratch"},
             "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}}}
    return {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
            "metadata": {"name": "allreduce", "namespace": "research"},
            "spec": {"failurePolicy": {"maxRestarts": 3, "rules": [{"action": "FailJobSet",
                                                                    "onJobFailureReasons": ["PodFailurePolicy"]}]},
                     "replicatedJobs": [{"name": "workers", "template": {"spec": {
                         "parallelism": 4, "completions": 4, "template": {"spec": pod}}}}],
                     "volumeClaimPolicies": [{"templates": [claim]}]}}


def _jobset_defaulted(job: dict) -> dict:
    """What the CRD's defaults and JobSet's mutating webhook (Default) write at creation."""
    job = copy.deepcopy(job)
    spec = job["spec"]
    spec.update(successPolicy={"operator": "All"}, startupPolicy={"startupPolicyOrder": "AnyOrder"},
                network={"enableDNSHostnames": True, "publishNotReadyAddresses": True}, suspend=False)
    spec["failurePolicy"]["restartStrategy"] = "Recreate"
    for i, rule in enumerate(spec["failurePolicy"]["rules"]):
        rule["name"] = f"failurePolicyRule{i}"
    for policy in spec["volumeClaimPolicies"]:
        policy["retentionPolicy"] = {"whenDeleted": "Delete"}
    for replicated in spec["replicatedJobs"]:
        replicated.update(replicas=1, groupName="default")
        replicated["template"]["spec"]["completionMode"] = "Indexed"
        pod = replicated["template"]["spec"]["template"]["spec"]
        pod["restartPolicy"] = "OnFailure"
        for container in pod["containers"]:
            for port in container.get("ports", []):
                port["protocol"] = "TCP"
    return job


def _jobset_scaled(job: dict) -> dict:
    job = _jobset_defaulted(job)
    job["spec"]["replicatedJobs"][0]["replicas"] = 2
    return job


def _podgroup(queue: str) -> dict:
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
            "metadata": {"name": "bert", "namespace": "research"},
            "spec": {"minMember": 5, "queue": queue}}


def _queue(name: str) -> Callable[[dict], dict]:
    def change(group: dict) -> dict:
        group = copy.deepcopy(group)
        group["spec"]["queue"] = name
        return group
    return change


def _without_queue_label(job: dict) -> dict:
    job = copy.deepcopy(job)
    del job["metadata"]["labels"][KUEUE_QUEUE]
    return job


@dataclass(frozen=True)
class Case:
    name: str
    desired: dict  # as Git holds it
    change: Callable[[dict], dict]  # what happens to it in the cluster
    drift: list[str]  # where Argo CD sees drift without the rules
    kept: list[str]  # where it still does with them (a user's change)
    rules: tuple[str, ...]  # the rules the case exercises

    @property
    def kind(self) -> str:
        group = self.desired["apiVersion"].rpartition("/")[0]
        return f"{group}/{self.desired['kind']}"


_KUEUE_MPI = _with_tolerations(_golden("kueue-mpi"))
_MPI_PATHS = [".spec.runPolicy.suspend", ".spec.mpiReplicaSpecs.Launcher.template.spec.tolerations",
              ".spec.mpiReplicaSpecs.Worker.template.spec.tolerations"]
_PYTORCH_PORTS = [".spec.pytorchReplicaSpecs.Master.template.spec.containers",
                  ".spec.pytorchReplicaSpecs.Worker.template.spec.containers"]
_TF_PORTS = [f".spec.tfReplicaSpecs.{role}.template.spec.containers" for role in ("Chief", "PS", "Worker", "Evaluator")]
_WORKERS = ".spec.pytorchReplicaSpecs.Worker.replicas"
_JOBSET_LISTS = [".spec.failurePolicy.rules", ".spec.replicatedJobs", ".spec.volumeClaimPolicies"]
CASES = [
    Case("mpijob-kueue-preempted", _KUEUE_MPI, _kueue_admitted_then_preempted, _MPI_PATHS, [],
         ("kueue-suspend", "kueue-tolerations")),
    Case("mpijob-without-kueue-suspended-by-hand", _without_queue_label(_KUEUE_MPI), _kueue_admitted_then_preempted,
         _MPI_PATHS, _MPI_PATHS, ()),
    Case("pytorchjob-port-protocol-defaulted", _golden("pytorch-spread"), _ports_defaulted("TCP"), _PYTORCH_PORTS, [],
         ("crd-default-port-protocol",)),
    Case("pytorchjob-port-protocol-changed", _golden("pytorch-spread"), _ports_defaulted("UDP"), _PYTORCH_PORTS,
         _PYTORCH_PORTS, ()),
    Case("pytorchjob-elastic-scaled-by-its-hpa", _elastic(_golden("pytorch-spread")),
         lambda job: _ports_defaulted("TCP")(_scaled(job)), [*_PYTORCH_PORTS, _WORKERS], [],
         ("elastic-worker-replicas", "crd-default-port-protocol")),
    Case("pytorchjob-scaled-by-hand", _golden("pytorch-spread"), lambda job: _ports_defaulted("TCP")(_scaled(job)),
         [*_PYTORCH_PORTS, _WORKERS], [_WORKERS], ()),
    Case("tfjob-port-protocol-defaulted", _golden("tensorflow-ps"), _ports_defaulted("TCP"), _TF_PORTS, [],
         ("crd-default-port-protocol",)),
    Case("trainjob-kueue", _golden("trainjob-kueue"), _kueue_trainjob, [".spec.runtimePatches"], [],
         ("kueue-runtime-patch",)),
    Case("trainjob-kueue-managed-by", dict(_golden("trainjob-kueue"), spec=dict(
        _golden("trainjob-kueue")["spec"], suspend=False, managedBy="trainer.kubeflow.org/trainjob-controller")),
         _kueue_trainjob, [".spec.runtimePatches", ".spec.suspend", ".spec.managedBy"], [],
         ("kueue-runtime-patch", "kueue-suspend", "kueue-managed-by")),
    Case("jobset-defaulted", _jobset(), _jobset_defaulted, _JOBSET_LISTS, [],
         ("jobset-replicated-job-defaults", "jobset-policy-defaults", "crd-default-port-protocol")),
    Case("jobset-scaled-by-hand", _jobset(), _jobset_scaled, _JOBSET_LISTS, [".spec.replicatedJobs"], ()),
    Case("podgroup-namespace-queue", _podgroup("default"), _queue("research"), [".spec.queue"], [],
         ("volcano-namespace-queue",)),
    Case("podgroup-queue-named-in-git", _podgroup("nlp"), _queue("research"), [".spec.queue"], [".spec.queue"], ()),
]


def test_every_rule_is_exercised() -> None:
    names = [rule.name for rule in argocd.ignore_rules()]
    assert len(names) == len(set(names)) == 9
    assert {name for case in CASES for name in case.rules} == set(names)


@pytest.fixture(scope="module")
def normalized(argocd_lua: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Each case's desired and live objects, as they are and through its kind's rules."""
    folder = tmp_path_factory.mktemp("objects")
    rules = argocd.ignore_differences()
    requests = []
    for case in CASES:
        for side, obj in (("desired", case.desired), ("live", case.change(case.desired))):
            path = folder / f"{case.name}-{side}.json"
            path.write_text(json.dumps(obj))
            requests += [{"id": f"{case.name}/{side}/raw", "object": str(path), "jq": []},
                         {"id": f"{case.name}/{side}/ignored", "object": str(path), "jq": rules.get(case.kind, [])}]
    responses = harness.run(argocd_lua, "normalize", requests)
    assert not [r for r in responses if r.get("error")], [r for r in responses if r.get("error")]
    return {r["id"]: r["object"] for r in responses}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_argocd_sees_drift_only_where_git_differs(case: Case, normalized: dict[str, dict]) -> None:
    raw = drift(normalized[f"{case.name}/desired/raw"], normalized[f"{case.name}/live/raw"])
    assert sorted(raw) == sorted(case.drift)
    ignored = drift(normalized[f"{case.name}/desired/ignored"], normalized[f"{case.name}/live/ignored"])
    assert sorted(ignored) == sorted(case.kept)


def _property(schema: dict, path: str) -> dict:
    """The schema of a field of a CRD's openAPIV3Schema: ``spec.replicatedJobs[].replicas``."""
    for part in path.split("."):
        name = part.removesuffix("[]")
        schema = schema["additionalProperties"] if name == "*" else schema["properties"][name]
        if part.endswith("[]"):
            schema = schema["items"]
    return schema


CRD_DEFAULTS = [  # (module, version, file, field, default): what the crd-default rules rely on
    ("github.com/kubeflow/mpi-operator", "v0.8.2", "manifests/base/kubeflow.org_mpijobs.yaml",
     "spec.mpiReplicaSpecs.*.template.spec.containers[].ports[].protocol", "TCP"),
    ("github.com/kubeflow/mpi-operator", "v0.8.2", "manifests/base/kubeflow.org_mpijobs.yaml",
     "spec.mpiReplicaSpecs.*.template.spec.initContainers[].ports[].protocol", "TCP"),
    ("github.com/kubeflow/training-operator", "v1.9.4", "manifests/base/crds/kubeflow.org_pytorchjobs.yaml",
     "spec.pytorchReplicaSpecs.*.template.spec.containers[].ports[].protocol", "TCP"),
    ("github.com/kubeflow/training-operator", "v1.9.4", "manifests/base/crds/kubeflow.org_tfjobs.yaml",
     "spec.tfReplicaSpecs.*.template.spec.initContainers[].ports[].protocol", "TCP"),
    ("sigs.k8s.io/jobset", "v0.12.0", "config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml",
     "spec.replicatedJobs[].template.spec.template.spec.containers[].ports[].protocol", "TCP"),
    ("sigs.k8s.io/jobset", "v0.12.0", "config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml",
     "spec.replicatedJobs[].replicas", 1),
    ("sigs.k8s.io/jobset", "v0.12.0", "config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml",
     "spec.replicatedJobs[].groupName", "default"),
    ("sigs.k8s.io/jobset", "v0.12.0", "config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml",
     "spec.volumeClaimPolicies[].retentionPolicy.whenDeleted", "Delete"),
    ("volcano.sh/volcano", "v1.15.1", "config/crd/volcano/bases/scheduling.volcano.sh_podgroups.yaml",
     "spec.queue", "default"),
]


@pytest.mark.parametrize(("module", "version", "file", "field", "default"), CRD_DEFAULTS,
                         ids=[f"{f.rpartition('/')[2]}:{p}" for _, _, f, p, _ in CRD_DEFAULTS])
def test_the_pinned_crds_give_the_defaults_the_rules_remove(module: str, version: str, file: str, field: str,
                                                             default: object) -> None:
    crd = yaml.safe_load((module_dir(module, version) / file).read_text())
    (served,) = [v for v in crd["spec"]["versions"] if v.get("storage")]
    assert _property(served["schema"]["openAPIV3Schema"], field).get("default") == default
