"""``mpigen migrate --to trainjob`` (:mod:`mpigen.migrate.trainjob`): the mapping of every field,
the TrainingRuntime beside the TrainJob, each loss, and the gang before and after."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mpigen.diagnostics import Severity
from mpigen.migrate import TrainJobOptions, migrate_to_trainjob
from mpigen.migrate.trainjob import migrate
from mpigen.migrate.trainjob.gang import compare_gang, new_podgroup, old_podgroup
from mpigen.trainer.framework import build

PI: dict[str, Any] = {
    "apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
    "metadata": {"name": "pi", "namespace": "hpc", "labels": {"app": "pi"}, "annotations": {"owner": "me"},
                 "uid": "1234"},
    "spec": {
        "slotsPerWorker": 2, "sshAuthMountPath": "/home/mpiuser/.ssh",
        "runPolicy": {"cleanPodPolicy": "Running", "backoffLimit": 4, "activeDeadlineSeconds": 600, "suspend": True},
        "mpiReplicaSpecs": {
            "Launcher": {"replicas": 1, "template": {"spec": {"containers": [{
                "name": "launcher", "image": "pi:1", "command": ["mpirun"], "args": ["-n", "6", "/pi"],
                "env": [{"name": "OMPI_MCA_btl", "value": "self,tcp"}],
                "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]}}},
            "Worker": {"replicas": 3, "template": {"spec": {"containers": [{
                "name": "worker", "image": "pi-worker:1",
                "resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "2", "nvidia.com/gpu": 2}}}]}}}}}}

SIMPLE: dict[str, Any] = {
    "apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "ddp"},
    "spec": {"nprocPerNode": "2", "pytorchReplicaSpecs": {
        role: {"replicas": n, "restartPolicy": "OnFailure", "template": {"spec": {"containers": [{
            "name": "pytorch", "image": "ddp:1", "command": ["torchrun", "train.py"], "args": ["--epochs", "1"],
            "env": [{"name": "EPOCHS", "value": "1"}],
            "resources": {"limits": {"nvidia.com/gpu": 2}}}]}}}
        for role, n in (("Master", 1), ("Worker", 3))}}}


def _run(old: dict[str, Any], gang: str | None = None) -> tuple[list[dict[str, Any]], list[Any]]:
    objects, changes = migrate(copy.deepcopy(old), gang)
    assert objects is not None, changes
    return objects, changes


def _codes(changes: list[Any], path: tuple) -> list[tuple[str, Severity]]:
    return [(c.code, c.severity) for c in changes if tuple(c.path) == path]


def _node(runtime: dict[str, Any], name: str) -> dict[str, Any]:
    return next(j for j in runtime["spec"]["template"]["spec"]["replicatedJobs"] if j["name"] == name)


def _exists(obj: Any, path: tuple) -> bool:
    for step in path:
        if isinstance(obj, dict) and step in obj:
            obj = obj[step]
        elif isinstance(obj, list) and isinstance(step, int) and 0 <= step < len(obj):
            obj = obj[step]
        else:
            return False
    return True


# ------------------------------------------------------------------ MPIJob


def test_mpijob_becomes_a_trainjob_on_a_trainingruntime_beside() -> None:
    (runtime, trainjob), changes = _run(PI)
    assert runtime["kind"] == "TrainingRuntime" and runtime["metadata"] == {"name": "pi", "namespace": "hpc"}
    assert trainjob["kind"] == "TrainJob" and trainjob["apiVersion"] == "trainer.kubeflow.org/v1alpha1"
    assert trainjob["metadata"] == {"name": "pi", "namespace": "hpc", "labels": {"app": "pi"},
                                    "annotations": {"owner": "me"}}
    assert trainjob["spec"]["runtimeRef"] == {"name": "pi", "kind": "TrainingRuntime"}
    assert trainjob["spec"]["trainer"] == {"image": "pi:1", "command": ["mpirun"], "args": ["-n", "6", "/pi"],
                                           "numNodes": 3, "numProcPerNode": 2}
    assert trainjob["spec"]["suspend"] is True and trainjob["spec"]["activeDeadlineSeconds"] == 600
    assert runtime["spec"]["mlPolicy"] == {"numNodes": 1, "mpi": {
        "numProcPerNode": 2, "mpiImplementation": "OpenMPI", "sshAuthMountPath": "/home/mpiuser/.ssh",
        "runLauncherAsNode": False}}
    assert ("trainingruntime-beside", Severity.INFO) in _codes(changes, ("spec",))
    assert _codes(changes, ("metadata", "uid")) == [("dropped-field", Severity.INFO)]


def test_mpijob_pod_templates_go_to_the_runtime() -> None:
    (runtime, _), changes = _run(PI)
    launcher, node = _node(runtime, "launcher"), _node(runtime, "node")
    assert launcher["template"]["metadata"]["labels"] == {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}
    assert launcher["template"]["spec"]["backoffLimit"] == 4  # mpi-operator's launcher Job had it
    (container,) = launcher["template"]["spec"]["template"]["spec"]["containers"]
    assert container["name"] == "node" and container["image"] == "pi:1" and "command" not in container
    assert container["env"] == [{"name": "OMPI_MCA_btl", "value": "self,tcp"}]  # reserved in trainer.env: kept here
    assert container["resources"]["requests"] == {"cpu": "1", "memory": "1Gi"}
    (worker,) = node["template"]["spec"]["template"]["spec"]["containers"]
    assert worker["name"] == "node" and worker["image"] == "pi-worker:1"
    assert (worker["command"], worker["args"]) == (["/usr/sbin/sshd"], ["-De"])
    assert worker["resources"]["requests"] == {"cpu": "2", "nvidia.com/gpu": 2}
    assert node["template"]["spec"]["template"]["spec"]["restartPolicy"] == "Never"
    assert runtime["spec"]["template"]["spec"]["successPolicy"] == {"operator": "All",
                                                                   "targetReplicatedJobs": ["launcher"]}
    workers = ("spec", "mpiReplicaSpecs", "Worker", "template", "spec", "containers")
    assert ("added-field", Severity.INFO) in _codes(changes, workers + (0,))  # sshd
    assert _codes(changes, workers + (0, "name")) == [("migrated-field", Severity.INFO)]
    assert _codes(changes, ("spec", "runPolicy", "backoffLimit")) == [("migrated-field", Severity.INFO)]
    assert _codes(changes, ("spec", "runPolicy", "cleanPodPolicy")) == [("dropped-field", Severity.INFO)]


@pytest.mark.parametrize("old", [PI, SIMPLE], ids=["mpijob", "pytorchjob"])
def test_default_clean_pod_policy_is_reported(old: dict[str, Any]) -> None:
    old = copy.deepcopy(old)
    old["spec"].get("runPolicy", {}).pop("cleanPodPolicy", None)
    _, changes = _run(old)
    at = ("spec", "runPolicy") if "runPolicy" in old["spec"] else ("spec",)
    assert [c.message for c in changes if tuple(c.path) == at and "cleanPodPolicy unset" in c.message]


def test_mpijob_runs_as_trainer_builds_it() -> None:
    """The framework gives the launcher job 1 pod and the node job numNodes (runLauncherAsNode: false)."""
    (runtime, trainjob), _ = _run(PI)
    built = build(trainjob, runtime)
    counts = {ps.name: ps.count for ps in built.info.pod_sets}
    assert counts == {"node": 3, "launcher": 1}
    hostfile = next(o for o in built.objects if o["kind"] == "ConfigMap")["data"]["hostfile"]
    assert str(hostfile).count("slots=2") == 3


def test_run_launcher_as_worker_and_wait_for_workers() -> None:
    old = copy.deepcopy(PI)
    old["spec"].update(runLauncherAsWorker=True, launcherCreationPolicy="WaitForWorkersReady")
    (runtime, trainjob), changes = _run(old)
    assert trainjob["spec"]["trainer"]["numNodes"] == 4
    assert runtime["spec"]["mlPolicy"]["mpi"]["runLauncherAsNode"] is True
    assert _node(runtime, "launcher")["dependsOn"] == [{"name": "node", "status": "Ready"}]
    assert {ps.name: ps.count for ps in build(trainjob, runtime).info.pod_sets} == {"node": 3, "launcher": 1}
    assert _codes(changes, ("spec", "launcherCreationPolicy")) == [("migrated-field", Severity.INFO)]


def test_wait_for_workers_ready_with_a_gang_would_deadlock() -> None:
    """A gang runtime whose launcher dependsOn the nodes never starts: the PodGroup counts the
    launcher's pod, which JobSet creates only once the nodes are Ready."""
    old = _volcano(PI)
    old["spec"]["launcherCreationPolicy"] = "WaitForWorkersReady"
    (runtime, _), changes = _run(old)
    assert all("dependsOn" not in job for job in runtime["spec"]["template"]["spec"]["replicatedJobs"])
    assert _codes(changes, ("spec", "launcherCreationPolicy")) == [("lossy-migration", Severity.WARNING)]


@pytest.mark.parametrize("implementation", ["Intel", "MPICH"])
def test_mpi_implementations_trainer_lacks_are_refused(implementation: str) -> None:
    old = copy.deepcopy(PI)
    old["spec"]["mpiImplementation"] = implementation
    objects, changes = migrate(old)
    assert objects is None
    assert _codes(changes, ("spec", "mpiImplementation")) == [("not-migratable", Severity.ERROR)]


@pytest.mark.parametrize("old, path", [
    ({"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "t"}, "spec": {}}, ("kind",)),
    ({"apiVersion": "kubeflow.org/v1alpha2", "kind": "MPIJob", "metadata": {"name": "m"}, "spec": {}},
     ("apiVersion",)),
    ({"apiVersion": "kubeflow.org/v1beta2", "kind": "PyTorchJob", "metadata": {"name": "p"}, "spec": {}},
     ("apiVersion",)),
    ({"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "m"},
      "spec": {"mpiReplicaSpecs": {}}}, ("spec", "mpiReplicaSpecs")),
])
def test_what_is_refused(old: dict[str, Any], path: tuple) -> None:
    objects, changes, done, _ = migrate_to_trainjob(old, TrainJobOptions())
    assert objects == [old] and not done
    assert [(c.path, c.code) for c in changes] == [(path, "not-migratable")]
    assert changes[0].message.endswith("the document is passed through unchanged")


def test_other_documents_pass_through() -> None:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    objects, changes, done, _ = migrate_to_trainjob(config, TrainJobOptions())
    assert objects == [config] and not done and changes[0].code == "nothing-to-migrate"


@pytest.mark.parametrize("policy, code, severity", [
    ({"cleanPodPolicy": "All"}, "trainjob-not-carried", Severity.ERROR),
    ({"cleanPodPolicy": "None"}, "trainjob-not-carried", Severity.ERROR),
    ({"ttlSecondsAfterFinished": 60}, "lossy-migration", Severity.WARNING),
    ({"managedBy": "kueue.x-k8s.io/multikueue"}, "migrated-field", Severity.INFO),
    ({"managedBy": "kubeflow.org/mpi-operator"}, "dropped-field", Severity.INFO),
    ({"managedBy": "example.com/mine"}, "trainjob-not-carried", Severity.ERROR),
])
def test_run_policy(policy: dict[str, Any], code: str, severity: Severity) -> None:
    old = copy.deepcopy(PI)
    old["spec"]["runPolicy"] = policy
    (runtime, trainjob), changes = _run(old)
    (key,) = policy
    assert _codes(changes, ("spec", "runPolicy", key)) == [(code, severity)]
    if key == "ttlSecondsAfterFinished":
        assert runtime["spec"]["template"]["spec"]["ttlSecondsAfterFinished"] == 60
    if code == "migrated-field" and key == "managedBy":
        assert trainjob["spec"]["managedBy"] == "kueue.x-k8s.io/multikueue"
    elif key == "managedBy":
        assert "managedBy" not in trainjob["spec"]


# ------------------------------------------------------------------ gangs


def _volcano(old: dict[str, Any], **policy: Any) -> dict[str, Any]:
    old = copy.deepcopy(old)
    old["spec"].setdefault("runPolicy", {})["schedulingPolicy"] = policy
    field = "mpiReplicaSpecs" if old["kind"] == "MPIJob" else "pytorchReplicaSpecs"
    for replica in old["spec"][field].values():
        replica["template"]["spec"]["schedulerName"] = "volcano"
        replica["template"]["spec"]["priorityClassName"] = "high"
    return old


@pytest.mark.parametrize("old", [PI, SIMPLE], ids=["mpijob", "pytorchjob"])
def test_volcano_gang_is_the_runtimes_pod_group_policy_and_the_same(old: dict[str, Any]) -> None:
    old = _volcano(old, queue="research", priorityClass="high")
    objects, changes = _run(old)
    runtime = objects[0]
    assert runtime["kind"] == "TrainingRuntime" and runtime["spec"]["podGroupPolicy"] == {"volcano": {}}
    assert runtime["spec"]["template"]["metadata"]["annotations"] == {"scheduling.volcano.sh/queue-name": "research"}
    before, (after, _) = old_podgroup(old, None, "x"), new_podgroup(objects)
    assert before["spec"]["queue"] == after["spec"]["queue"] == "research"
    assert before["spec"]["minMember"] == after["spec"]["minMember"]
    assert before["spec"]["priorityClassName"] == after["spec"]["priorityClassName"] == "high"
    (gang,) = compare_gang(old, objects, None, "x")
    assert (gang.code, gang.severity) == ("trainjob-gang", Severity.INFO) and "the same gang" in gang.message


def test_scheduler_plugins_from_the_gang_option() -> None:
    old = copy.deepcopy(PI)
    old["spec"]["runPolicy"]["schedulingPolicy"] = {"scheduleTimeoutSeconds": 90}
    (runtime, trainjob), changes = _run(old, gang="scheduler-plugins")
    assert runtime["spec"]["podGroupPolicy"] == {"coscheduling": {"scheduleTimeoutSeconds": 90}}
    for name in ("node", "launcher"):
        assert _node(runtime, name)["template"]["spec"]["template"]["spec"]["schedulerName"] == (
            "scheduler-plugins-scheduler")
    (gang,) = compare_gang(old, [runtime, trainjob], "scheduler-plugins", "scheduler-plugins-scheduler")
    assert gang.severity is Severity.INFO, gang.message


def test_a_gang_the_trainjob_cannot_keep_is_reported() -> None:
    old = _volcano(PI, minAvailable=2, minResources={"cpu": "1"})
    objects, changes = _run(old)
    at = ("spec", "runPolicy", "schedulingPolicy")
    assert _codes(changes, at + ("minAvailable",)) == [("trainjob-not-carried", Severity.ERROR)]
    assert _codes(changes, at + ("minResources",)) == [("trainjob-not-carried", Severity.ERROR)]
    (gang,) = compare_gang(old, objects, None, "x")
    assert gang.severity is Severity.WARNING and "minMember 2 -> 4" in gang.message


@pytest.mark.parametrize("old, resources", [
    (PI, {"cpu": "7", "memory": "1Gi", "nvidia.com/gpu": "6"}),  # the launcher's 1 cpu, 1Gi; 3 workers' 2 cpu, 2 GPUs
    (SIMPLE, {"nvidia.com/gpu": "8"}),  # 4 nodes of 2 GPUs (limits only: the requests are written from them)
], ids=["mpijob", "pytorchjob"])
def test_min_resources_trainer_computes_alike_are_dropped_not_refused(old: dict[str, Any], resources: dict) -> None:
    """A job whose minResources are the sum of its pods' requests (mpigen's own write them so)
    keeps its gang: Trainer computes the same. It was refused ('minResources cannot be carried')
    while compare_gang said the PodGroups were equal."""
    old = _volcano(old, minResources=resources, priorityClass="high")
    objects, changes = _run(old)
    at = ("spec", "runPolicy", "schedulingPolicy", "minResources")
    assert _codes(changes, at) == [("dropped-field", Severity.INFO)], [c.message for c in changes]
    assert not [c for c in changes if c.severity is Severity.ERROR]
    (gang,) = compare_gang(old, objects, None, "x")
    assert gang.severity is Severity.INFO, gang.message
    more = _volcano(old, minResources={**resources, "nvidia.com/gpu": "9"}, priorityClass="high")
    _, changes = migrate(copy.deepcopy(more))
    [refused] = [c for c in changes if tuple(c.path) == at]
    assert (refused.code, refused.severity) == ("trainjob-not-carried", Severity.ERROR)
    assert refused.message.startswith("minResources cannot be carried: Trainer computes the PodGroup's minResources "
                                      "from the pods' requests (")


def test_a_volcano_task_name_of_each_role_is_dropped_under_a_volcano_gang() -> None:
    """training-operator wrote volcano.sh/task-spec on every pod itself; mpigen's PyTorchJobs carry
    it per role, which made the Worker template differ from the Master's (refused)."""
    old = _volcano(SIMPLE)
    for role in ("Master", "Worker"):
        old["spec"]["pytorchReplicaSpecs"][role]["template"]["metadata"] = {
            "annotations": {"volcano.sh/task-spec": role.lower()}}
    objects, changes = _run(old)
    assert not [c.message for c in changes if c.severity is Severity.ERROR]
    for role in ("Master", "Worker"):
        assert _codes(changes, ("spec", "pytorchReplicaSpecs", role, "template", "metadata", "annotations",
                                "volcano.sh/task-spec")) == [("dropped-field", Severity.INFO)]
    assert "volcano.sh/task-spec" not in str(objects)
    without_gang = copy.deepcopy(old)  # no Volcano gang: the annotation is the user's, and differs
    for replica in without_gang["spec"]["pytorchReplicaSpecs"].values():
        del replica["template"]["spec"]["schedulerName"]
    _, changes = migrate(without_gang, "none")
    assert ("trainjob-not-carried", Severity.ERROR) in _codes(
        changes, ("spec", "pytorchReplicaSpecs", "Worker", "template", "metadata"))


@pytest.mark.parametrize("old, pods", [(PI, 4), (SIMPLE, 4)], ids=["mpijob", "pytorchjob"])
def test_min_available_of_every_pod_is_kept(old: dict[str, Any], pods: int) -> None:
    old = _volcano(old, minAvailable=pods, priorityClass="high")
    objects, changes = _run(old)
    assert _codes(changes, ("spec", "runPolicy", "schedulingPolicy", "minAvailable")) == [
        ("dropped-field", Severity.INFO)]
    (gang,) = compare_gang(old, objects, None, "x")
    assert gang.severity is Severity.INFO, gang.message


def test_training_operator_priority_class_is_the_scheduling_policys_only() -> None:
    """training-operator's Volcano PodGroup takes schedulingPolicy.priorityClass only, Trainer's
    the pod templates': the same pods get a PodGroup with a priority class now, and it is said."""
    old = _volcano(SIMPLE)
    (gang,) = compare_gang(old, _run(old)[0], None, "x")
    assert gang.severity is Severity.WARNING
    assert "priorityClassName none -> high (Trainer's Volcano PodGroup takes the priorityClassName" in gang.message


def test_limits_only_are_counted_as_the_old_operator_counted_them() -> None:
    """Trainer's PodGroup counts requests only; the requests written from the limits keep the gang."""
    objects, _ = _run(PI, gang="volcano")
    (after, _) = new_podgroup(objects)
    assert after["spec"]["minResources"] == {"cpu": "7", "memory": "1Gi", "nvidia.com/gpu": "6"}


def test_no_gang_before_or_after() -> None:
    objects, _ = _run(PI)
    (gang,) = compare_gang(PI, objects, None, "x")
    assert gang.severity is Severity.INFO and "no gang before or after" in gang.message


# ------------------------------------------------------------------ PyTorchJob


def test_pytorchjob_runs_on_torch_distributed() -> None:
    (trainjob,), changes = _run(SIMPLE)
    assert trainjob["spec"]["runtimeRef"] == {"name": "torch-distributed"}
    assert trainjob["spec"]["trainer"] == {
        "image": "ddp:1", "command": ["torchrun", "train.py"], "args": ["--epochs", "1"],
        "env": [{"name": "EPOCHS", "value": "1"}], "numNodes": 4,
        "resourcesPerNode": {"limits": {"nvidia.com/gpu": 2}, "requests": {"nvidia.com/gpu": 2}},
        "numProcPerNode": 2}
    assert "runtimePatches" not in trainjob["spec"]
    master = ("spec", "pytorchReplicaSpecs", "Master")
    assert _codes(changes, master + ("replicas",)) == [("migrated-field", Severity.INFO)]
    assert _codes(changes, ("spec", "nprocPerNode")) == [("migrated-field", Severity.INFO)]
    assert not [c for c in changes if c.severity is not Severity.INFO]  # torchrun: nothing lost


def test_pytorchjob_rest_of_the_pod_goes_to_runtime_patches() -> None:
    old = copy.deepcopy(SIMPLE)
    for replica in old["spec"]["pytorchReplicaSpecs"].values():
        replica["template"]["metadata"] = {"labels": {"team": "a"}}
        replica["template"]["spec"].update(nodeSelector={"gpu": "a100"}, volumes=[{"name": "d", "emptyDir": {}}])
        replica["template"]["spec"]["containers"][0]["volumeMounts"] = [{"name": "d", "mountPath": "/d"}]
    (trainjob,), _ = _run(old)
    (patch,) = trainjob["spec"]["runtimePatches"]
    assert patch["manager"] == "mpigen.dev/migrate"
    (rjob,) = patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"]
    assert rjob["name"] == "node"
    assert rjob["template"]["spec"]["template"] == {
        "metadata": {"labels": {"team": "a"}},
        "spec": {"nodeSelector": {"gpu": "a100"}, "volumes": [{"name": "d", "emptyDir": {}}],
                 "containers": [{"name": "node", "volumeMounts": [{"name": "d", "mountPath": "/d"}]}]}}


@pytest.mark.parametrize("change", [
    lambda pod: pod["containers"][0].update(imagePullPolicy="Always"),
    lambda pod: pod["containers"].append({"name": "sidecar", "image": "s:1"}),
    lambda pod: pod.update(initContainers=[{"name": "init", "image": "i:1"}]),
    lambda pod: pod.update(hostNetwork=True),
])
def test_what_a_patch_cannot_say_needs_a_runtime_beside(change: Any) -> None:
    old = copy.deepcopy(SIMPLE)
    for replica in old["spec"]["pytorchReplicaSpecs"].values():
        change(replica["template"]["spec"])
    (runtime, trainjob), changes = _run(old)
    assert runtime["spec"]["mlPolicy"] == {"numNodes": 4, "torch": {}}
    assert trainjob["spec"]["runtimeRef"] == {"name": "ddp", "kind": "TrainingRuntime"}
    (node,) = runtime["spec"]["template"]["spec"]["replicatedJobs"]
    assert node["name"] == "node"
    pod = node["template"]["spec"]["template"]["spec"]
    assert pod["containers"][0]["name"] == "node" and "command" not in pod["containers"][0]
    assert ("trainingruntime-beside", Severity.INFO) in _codes(changes, ("spec",))


def test_pytorchjob_losses() -> None:
    old = copy.deepcopy(SIMPLE)
    old["spec"]["elasticPolicy"] = {"minReplicas": 1}
    old["spec"]["nprocPerNode"] = "cpu"
    workers = old["spec"]["pytorchReplicaSpecs"]["Worker"]
    workers["restartPolicy"] = "ExitCode"
    workers["template"]["spec"]["containers"][0]["image"] = "other:1"
    master = old["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]
    master["command"] = ["python", "train.py"]
    master["ports"] = [{"name": "pytorchjob-port", "containerPort": 23456}]
    objects, changes = _run(old)
    base = ("spec", "pytorchReplicaSpecs")
    assert _codes(changes, ("spec", "elasticPolicy")) == [("trainjob-not-carried", Severity.ERROR)]
    assert _codes(changes, ("spec", "nprocPerNode")) == [("lossy-migration", Severity.WARNING)]
    assert ("trainjob-not-carried", Severity.ERROR) in _codes(changes, base + ("Worker", "restartPolicy"))
    assert _codes(changes, base + ("Worker", "template", "spec", "containers")) == [
        ("trainjob-not-carried", Severity.ERROR)]
    container = base + ("Master", "template", "spec", "containers", 0)
    assert ("lossy-migration", Severity.WARNING) in _codes(changes, container + ("command",))  # not torchrun
    assert _codes(changes, container + ("ports", 0)) == [("lossy-migration", Severity.WARNING)]
    assert "ports" not in str(objects)


def test_every_change_is_at_a_field_of_the_old_job() -> None:
    for old, gang in ((PI, None), (_volcano(PI, queue="q", minAvailable=1), None), (SIMPLE, "volcano"),
                      (_volcano(SIMPLE, queue="q"), None)):
        objects, changes = _run(old, gang)
        changes += compare_gang(old, objects, gang, "x")
        for change in changes:
            assert _exists(old, tuple(change.path)), (change.path, change.message)


def test_a_trainingruntime_without_namespace_is_found_in_default() -> None:
    """As kubectl creates it, and as a TrainJob without a namespace looks it up."""
    from mpigen.load.trainer_runtimes import runtimes_from

    runtime = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainingRuntime", "metadata": {"name": "r"}}
    runtimes = runtimes_from([runtime], "test")
    assert runtimes.find("TrainingRuntime", "r") is runtime
    assert runtimes.find("TrainingRuntime", "r", "default") is runtime
    assert runtimes.find("TrainingRuntime", "r", "other") is None


ODD = (None, "x", 3, True, [], {}, [None], {"a": None})


@pytest.mark.parametrize("old, role", [(PI, "Worker"), (SIMPLE, "Master")], ids=["mpijob", "pytorchjob"])
def test_replicas_that_are_no_number_are_reported(old: dict[str, Any], role: str) -> None:
    old = copy.deepcopy(old)
    field = "mpiReplicaSpecs" if old["kind"] == "MPIJob" else "pytorchReplicaSpecs"
    old["spec"][field][role]["replicas"] = "3"
    _, changes = _run(old)
    assert ("trainjob-not-carried", Severity.ERROR) in _codes(changes, ("spec", field, role, "replicas"))


@pytest.mark.parametrize("old", [_volcano(PI, queue="q", minAvailable=3), _volcano(SIMPLE, queue="q")],
                         ids=["mpijob", "pytorchjob"])
def test_any_node_of_any_type_never_raises(old: dict[str, Any]) -> None:
    """migrate reads manifests nothing has checked: every node replaced by a value of another type
    gives objects or reasons, never an exception (a user never sees a traceback)."""
    from tests.odd_shapes import replaced, subpaths

    for path in list(subpaths(old))[1:]:
        if path in (("apiVersion",), ("kind",)):
            continue
        for value in ODD:
            odd = replaced(old, path, value)
            objects, changes, _, _ = migrate_to_trainjob(odd, TrainJobOptions())
            assert objects and all(isinstance(c.message, str) for c in changes), path
