"""A spec with ``spec.runtime`` compiles to a Kubeflow Trainer v2.3.0 TrainJob (mpigen/render/trainjob.py,
mpigen/spec/runtime_rules.py): the field mapping, the TrainingRuntime copy and the spec errors."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from mpigen.load.trainer_runtimes import default_runtimes, runtimes_from
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs


def _spec(**fields: Any) -> dict[str, Any]:
    spec = {"framework": "pytorch", "runtime": "torch-distributed", "image": "img:1", "command": ["torchrun", "t.py"],
            "workers": 3}
    spec.update(fields)
    return {"apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob",
            "metadata": {"name": "job", "namespace": "research"}, "spec": spec}


def _compile(doc: dict[str, Any], runtimes: Any = None):
    return compile_specs(load_text(yaml.safe_dump(doc, sort_keys=False), "spec.yaml"), "spec.yaml",
                         Options(trainer_runtimes=runtimes))


def _built(doc: dict[str, Any], env: str | None = None, runtimes: Any = None) -> dict[str, dict[str, Any]]:
    result = _compile(doc, runtimes)
    assert result.ok, [d.format() for d in result.diagnostics]
    return {obj["kind"]: obj for obj in result.jobs[0].objects(env)}


def _errors(doc: dict[str, Any], runtimes: Any = None) -> list[str]:
    return [d.format() for d in _compile(doc, runtimes).diagnostics if d.severity.value == "error"]


def _patch_pod(job: dict[str, Any], rjob: str) -> dict[str, Any]:
    jobs = job["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"]
    return next(j for j in jobs if j["name"] == rjob)["template"]["spec"]["template"]


def _runtime(name: str, **spec: Any) -> dict[str, Any]:
    runtime = copy.deepcopy(default_runtimes().find("ClusterTrainingRuntime", name))
    runtime["spec"].update(spec)
    return runtime


# ------------------------------------------------------------------ the mapping


def test_pytorch_fields_map_to_the_trainjob() -> None:
    doc = _spec(resources={"gpu": 2, "cpu": "1.5", "memory": "1024Mi"}, env={"B": "2", "A": {"secretKeyRef": {
        "name": "s", "key": "k"}}}, runPolicy={"activeDeadlineSeconds": 600, "suspend": True})
    doc["metadata"]["labels"] = {"team": "x"}
    doc["metadata"]["annotations"] = {"note": "y"}
    job = _built(doc)["TrainJob"]
    assert job["apiVersion"] == "trainer.kubeflow.org/v1alpha1"
    assert job["metadata"] == {"name": "job", "namespace": "research", "labels": {"team": "x"},
                               "annotations": {"note": "y"}}
    assert job["spec"]["runtimeRef"] == {"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime",
                                         "name": "torch-distributed"}
    trainer = job["spec"]["trainer"]
    assert trainer["image"] == "img:1" and trainer["command"] == ["torchrun", "t.py"]
    assert trainer["env"] == [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
                              {"name": "B", "value": "2"}]
    assert trainer["numNodes"] == 4  # the workers besides the Master, and the Master
    quantities = {"cpu": "1500m", "memory": "1Gi", "nvidia.com/gpu": "2"}
    assert trainer["resourcesPerNode"] == {"limits": quantities, "requests": quantities}
    assert "numProcPerNode" not in trainer  # torch: the runtime's (auto with GPUs)
    assert job["spec"]["suspend"] is True and job["spec"]["activeDeadlineSeconds"] == 600


def test_pod_settings_go_through_one_runtime_patch() -> None:
    doc = _spec(volumes=[{"claimName": "data", "mountPath": "/data", "readOnly": True}], shmSize="2048Mi",
                nodeSelector={"pool": "gpu"}, tolerations=[{"operator": "Exists"}], imagePullSecrets=["reg"],
                serviceAccountName="sa", labels={"pod": "l"}, annotations={"pod": "a"})
    job = _built(doc)["TrainJob"]
    (patch,) = job["spec"]["runtimePatches"]
    assert patch["manager"] == "mpigen.dev/spec"
    template = _patch_pod(job, "node")
    assert template["metadata"] == {"labels": {"pod": "l"},
                                    "annotations": {"pod": "a", "sidecar.istio.io/inject": "false"}}
    pod = template["spec"]
    assert pod["containers"] == [{"name": "node", "volumeMounts": [
        {"name": "data", "mountPath": "/data", "readOnly": True}, {"name": "dshm", "mountPath": "/dev/shm"}]}]
    assert pod["volumes"] == [{"name": "data", "persistentVolumeClaim": {"claimName": "data", "readOnly": True}},
                              {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "2Gi"}}]
    assert pod["nodeSelector"] == {"pool": "gpu"} and pod["tolerations"] == [{"operator": "Exists"}]
    assert pod["imagePullSecrets"] == [{"name": "reg"}] and pod["serviceAccountName"] == "sa"


def test_mpi_workers_are_the_node_jobs_pods() -> None:
    """deepspeed-distributed runs its launcher as a node: numNodes = workers + 1; a runtime whose
    launcher is not a node: numNodes = workers. slotsPerWorker is numProcPerNode."""
    doc = _spec(framework="mpi", runtime="deepspeed-distributed", workers=3, slotsPerWorker=4)
    job = _built(doc)["TrainJob"]
    assert job["spec"]["trainer"]["numNodes"] == 4 and job["spec"]["trainer"]["numProcPerNode"] == 4
    assert {j["name"] for j in job["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"][
        "replicatedJobs"]} == {"node", "launcher"}  # both run the training pods' settings
    apart = _runtime("deepspeed-distributed")
    apart["spec"]["mlPolicy"]["mpi"]["runLauncherAsNode"] = False
    cluster = runtimes_from([apart], "cluster.yaml")
    assert _built(doc, runtimes=cluster)["TrainJob"]["spec"]["trainer"]["numNodes"] == 3


def test_kueue_labels_the_trainjob_and_leaves_suspend_to_kueue() -> None:
    job = _built(_spec(scheduling={"gang": "kueue", "queue": "team", "priorityClass": "high"}))
    assert set(job) == {"TrainJob"}  # the runtime as it is
    assert job["TrainJob"]["metadata"]["labels"] == {"kueue.x-k8s.io/priority-class": "high",
                                                     "kueue.x-k8s.io/queue-name": "team"}
    assert "suspend" not in job["TrainJob"]["spec"]


def test_tensorboard_is_beside_the_trainjob() -> None:
    built = _built(_spec(volumes=[{"claimName": "runs", "mountPath": "/runs"}], tensorboard={"logDir": "/runs/x"}))
    assert set(built) == {"TrainJob", "Deployment", "Service"}


# ------------------------------------------------------------------ the runtime copy


def test_no_gang_asked_uses_the_runtime_as_it_is() -> None:
    job = _built(_spec())["TrainJob"]
    assert job["spec"]["runtimeRef"]["kind"] == "ClusterTrainingRuntime"


def test_volcano_on_a_runtime_without_it_is_a_copy_beside_the_trainjob() -> None:
    doc = _spec(framework="mpi", runtime="deepspeed-distributed", scheduling={
        "gang": "volcano", "queue": "q", "priorityClass": "high"})
    result = _compile(doc)
    built = {obj["kind"]: obj for obj in result.jobs[0].base}
    assert [obj["kind"] for obj in result.jobs[0].base] == ["TrainingRuntime", "TrainJob"]
    runtime, job = built["TrainingRuntime"], built["TrainJob"]
    assert runtime["metadata"]["name"] == "job" and runtime["metadata"]["namespace"] == "research"
    assert runtime["spec"]["podGroupPolicy"] == {"volcano": {}}
    assert runtime["spec"]["mlPolicy"] == default_runtimes().find(
        "ClusterTrainingRuntime", "deepspeed-distributed")["spec"]["mlPolicy"]
    for rjob in runtime["spec"]["template"]["spec"]["replicatedJobs"]:
        pod = rjob["template"]["spec"]["template"]["spec"]
        assert pod["schedulerName"] == "volcano" and pod["priorityClassName"] == "high"
    assert job["spec"]["runtimeRef"] == {"apiGroup": "trainer.kubeflow.org", "kind": "TrainingRuntime", "name": "job"}
    assert job["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["metadata"] == {
        "annotations": {"scheduling.volcano.sh/queue-name": "q"}}
    notes = [d.format() for d in result.diagnostics if d.code == "runtime-copy"]
    assert notes[0] == (
        "spec.yaml:15:11: info runtime-copy mpigen writes the TrainingRuntime 'job' beside the TrainJob, a copy of "
        "ClusterTrainingRuntime 'deepspeed-distributed' that the TrainJob names: only a runtime says the "
        "podGroupPolicy, and ClusterTrainingRuntime 'deepspeed-distributed' has no podGroupPolicy and gang volcano "
        "asks for a volcano podGroupPolicy; its pods of node, launcher do not name the scheduler volcano (Trainer "
        "never sets schedulerName) (spec.scheduling.gang)")


def test_a_gang_copy_starts_its_replicated_jobs_together() -> None:
    """deepspeed-distributed's launcher dependsOn its nodes: under a gang it would never be created
    (trainer-depends-on-gang-deadlock, seen on the local cluster), so the copy leaves it out."""
    result = _compile(_spec(framework="mpi", runtime="deepspeed-distributed", scheduling={"gang": "volcano"}))
    runtime = result.jobs[0].base[0]
    assert [rjob["name"] for rjob in runtime["spec"]["template"]["spec"]["replicatedJobs"]] == ["node", "launcher"]
    assert not any("dependsOn" in rjob for rjob in runtime["spec"]["template"]["spec"]["replicatedJobs"])
    notes = [d.format() for d in result.diagnostics if "leaves out" in d.message]
    assert notes == [
        "spec.yaml:15:11: info runtime-copy the TrainingRuntime 'job' leaves out launcher's dependsOn (node Ready): "
        "the gang's PodGroup counts every pod and no pod is bound before all exist, so the replicated jobs start "
        "together (as an MPIJob's launcher does under a gang); a launcher is restarted until the nodes' SSH servers "
        "answer (spec.scheduling.gang)"]
    in_order = _runtime("torch-distributed", podGroupPolicy={"volcano": {}})
    in_order["spec"]["template"]["spec"]["startupPolicy"] = {"startupPolicyOrder": "InOrder"}
    copied = _built(_spec(scheduling={"gang": "scheduler-plugins"}),
                    runtimes=runtimes_from([in_order], "cluster.yaml"))["TrainingRuntime"]
    assert "startupPolicy" not in copied["spec"]["template"]["spec"]
    no_gang = _built(_spec(framework="mpi", runtime="deepspeed-distributed", priorityClassName="high"))
    assert no_gang["TrainingRuntime"]["spec"]["template"]["spec"]["replicatedJobs"][1]["dependsOn"] == [
        {"name": "node", "status": "Ready"}]  # no gang: the runtime's order is kept
    # The nodes need what the initializers fetch: a dependency on Complete stays, and the runtime
    # cannot be gang-scheduled (the lint rule, on the copy build writes).
    tune = _compile(_spec(runtime="torchtune-llama3.2-1b", workers=0, scheduling={"gang": "volcano"}))
    assert "trainer-depends-on-gang-deadlock" in {d.code for d in tune.diagnostics if d.severity.value == "error"}


def test_a_torchtune_runtime_copy_keeps_the_model_in_its_name() -> None:
    """Trainer reads a torchtune job's model from its runtime's name: a copy named after the job
    alone was refused by the webhook ("must have a supported pretrained model")."""
    doc = _spec(runtime="torchtune-llama3.2-1b", workers=0, command=["tune", "run"], priorityClassName="high",
                resources={"gpu": 1})
    doc["metadata"]["name"] = "llama-ft"
    built = _built(doc)
    assert built["TrainingRuntime"]["metadata"]["name"] == "llama.ft-llama3.2-1b"
    assert built["TrainJob"]["spec"]["runtimeRef"]["name"] == "llama.ft-llama3.2-1b"
    plain = _built(_spec(priorityClassName="high"))  # any other runtime's copy is named after the job
    assert plain["TrainingRuntime"]["metadata"]["name"] == plain["TrainJob"]["spec"]["runtimeRef"]["name"] == "job"


def test_scheduler_plugins_copy_has_the_timeout_and_the_scheduler() -> None:
    doc = _spec(scheduling={"gang": "scheduler-plugins", "schedulerName": "coscheduler", "scheduleTimeoutSeconds": 90})
    runtime = _built(doc)["TrainingRuntime"]
    assert runtime["spec"]["podGroupPolicy"] == {"coscheduling": {"scheduleTimeoutSeconds": 90}}
    assert list(runtime["spec"]) == ["mlPolicy", "podGroupPolicy", "template"]
    pod = runtime["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]
    assert pod["schedulerName"] == "coscheduler"


def test_a_runtime_that_gives_the_gang_is_not_copied() -> None:
    given = _runtime("torch-distributed", podGroupPolicy={"coscheduling": {"scheduleTimeoutSeconds": 60}})
    given["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
        "schedulerName"] = "scheduler-plugins-scheduler"
    cluster = runtimes_from([given], "cluster.yaml")
    assert set(_built(_spec(scheduling={"gang": "scheduler-plugins", "scheduleTimeoutSeconds": 60}),
                      runtimes=cluster)) == {"TrainJob"}
    assert _built(_spec(scheduling={"gang": "scheduler-plugins", "scheduleTimeoutSeconds": 120}), runtimes=cluster)[
        "TrainingRuntime"]["spec"]["podGroupPolicy"] == {"coscheduling": {"scheduleTimeoutSeconds": 120}}
    assert set(_built(_spec(), runtimes=cluster)) == {"TrainJob"}  # no gang asked: the runtime's


def test_gang_none_on_a_runtime_with_a_podgroup_policy_is_a_copy_without_it() -> None:
    cluster = runtimes_from([_runtime("torch-distributed", podGroupPolicy={"volcano": {}})], "cluster.yaml")
    result = _compile(_spec(scheduling={"gang": "none"}), cluster)
    runtime = result.jobs[0].base[0]
    assert runtime["kind"] == "TrainingRuntime" and "podGroupPolicy" not in runtime["spec"]
    assert any("has a volcano podGroupPolicy and scheduling.gang is none" in d.message
               for d in result.diagnostics if d.code == "runtime-copy")


def test_code_sync_and_pod_only_fields_live_in_the_copy() -> None:
    doc = _spec(code={"git": {"repository": "https://example.com/a/b.git", "secret": "git"}},
                imagePullPolicy="Always")
    built = _built(doc)
    pod = built["TrainingRuntime"]["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"][
        "spec"]
    assert [c["name"] for c in pod["initContainers"]] == ["code-sync"]
    assert [v["name"] for v in pod["volumes"]] == ["code", "git-secret"]
    (node,) = pod["containers"]
    assert node["workingDir"] == "/code/b" and node["imagePullPolicy"] == "Always"
    assert node["volumeMounts"] == [{"name": "code", "mountPath": "/code"}]
    assert pod["securityContext"]["fsGroup"] == 65533
    assert "schedulerName" not in pod  # no gang asked
    assert "runtimePatches" not in built["TrainJob"]["spec"] or all(
        "initContainers" not in j["template"]["spec"]["template"].get("spec", {})
        for j in built["TrainJob"]["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"][
            "replicatedJobs"])
    # A runtime's own fsGroup stays (git-sync reads the Secret through it): deepspeed's 1000 is
    # mpiuser's, whose SSH keys need it.
    mpi = _built(_spec(framework="mpi", runtime="deepspeed-distributed", code=doc["spec"]["code"]))
    for rjob in mpi["TrainingRuntime"]["spec"]["template"]["spec"]["replicatedJobs"]:
        assert rjob["template"]["spec"]["template"]["spec"]["securityContext"] == {
            "fsGroup": 1000, "fsGroupChangePolicy": "OnRootMismatch"}, rjob["name"]


def test_environments_patch_the_trainjob_and_the_copy() -> None:
    doc = _spec(scheduling={"gang": "scheduler-plugins", "scheduleTimeoutSeconds": 60},
                environments={"prod": {"workers": 7, "scheduling": {"scheduleTimeoutSeconds": 600}}})
    prod = _built(doc, "prod")
    assert prod["TrainJob"]["spec"]["trainer"]["numNodes"] == 8
    assert prod["TrainingRuntime"]["spec"]["podGroupPolicy"]["coscheduling"]["scheduleTimeoutSeconds"] == 600


# ------------------------------------------------------------------ what is refused


@pytest.mark.parametrize("fields,message", [
    ({"framework": "tensorflow"},
     "spec.yaml:6:12: error runtime-framework Kubeflow Trainer v2.3.0 has no TensorFlow runtime: framework: "
     "tensorflow compiles to a TFJob; remove spec.runtime (or use framework: pytorch or mpi with a runtime of that "
     "framework) (spec.runtime)"),
    ({"runtime": "deepspeed-distributed"},
     "spec.yaml:6:12: error runtime-framework ClusterTrainingRuntime 'deepspeed-distributed' has an mlPolicy with "
     "mpi, but framework: pytorch needs a runtime with mlPolicy.torch (such as torch-distributed): change the runtime "
     "or the framework (spec.runtime)"),
    ({"framework": "mpi"},
     "spec.yaml:6:12: error runtime-framework ClusterTrainingRuntime 'torch-distributed' has an mlPolicy with torch, "
     "but framework: mpi needs a runtime with mlPolicy.mpi (such as deepspeed-distributed or mlx-distributed): "
     "change the runtime or the framework (spec.runtime)"),
    ({"runtime": {"name": "mine", "kind": "TrainingRuntime"}},
     "spec.yaml:6:3: error runtime-not-found TrainingRuntime 'mine' is not among the default runtimes of Kubeflow "
     "Trainer v2.3.0 in the job's namespace (TrainingRuntimes: none); give the cluster's runtimes with --cluster FILE "
     "(kubectl get clustertrainingruntimes,trainingruntimes -A -o yaml) (spec.runtime)"),
    ({"restartPolicy": "Never"},
     "spec.yaml:10:18: error runtime-field restartPolicy cannot be set for a TrainJob: the JobSet template of "
     "ClusterTrainingRuntime 'torch-distributed' sets the pods' restart policy (spec.restartPolicy)"),
    ({"pytorch": {"port": 1234}},
     "spec.yaml:11:5: error runtime-field pytorch.port cannot be set for a TrainJob: Trainer's torch plugin uses "
     "port 29500 (PET_MASTER_PORT) (spec.pytorch.port)"),
    ({"runPolicy": {"cleanPodPolicy": "All"}},
     "spec.yaml:11:21: error runtime-field runPolicy.cleanPodPolicy cannot be set for a TrainJob: a TrainJob has no "
     "cleanPodPolicy: the JobSet's pods stay as its Jobs leave them (spec.runPolicy.cleanPodPolicy)"),
    ({"runPolicy": {"activeDeadlineSeconds": 0}},
     "spec.yaml:11:28: error runtime-field runPolicy.activeDeadlineSeconds 0 cannot be set for a TrainJob: Trainer's "
     "CRD takes 1 or more (no deadline: leave it out) (spec.runPolicy.activeDeadlineSeconds)"),
    ({"scheduling": {"gang": "volcano", "minAvailable": 2}},
     "spec.yaml:12:19: error runtime-field scheduling.minAvailable cannot be set for a TrainJob: Trainer sets the "
     "PodGroup's minMember to every pod of the TrainJob; it cannot be chosen (spec.scheduling.minAvailable)"),
    ({"scheduling": {"gang": "kube-batch"}},
     "spec.yaml:11:11: error runtime-field gang: kube-batch cannot be used with a TrainJob: Trainer's podGroupPolicy "
     "knows coscheduling (gang: scheduler-plugins) and volcano (spec.scheduling.gang)"),
])
def test_what_a_trainjob_cannot_say_is_an_error(fields: dict[str, Any], message: str) -> None:
    """Each at the field's path, with its code and message (the spec's line of the field: the
    keys are written in the order of _spec, the field last)."""
    assert [e.split(" ", 1)[1] for e in _errors(_spec(**fields))] == [message.split(" ", 1)[1]]


@pytest.mark.parametrize("value", [[None], [[]], ["launcher"]], ids=["null", "list", "name"])
def test_a_list_where_refused_settings_go_is_reported_not_a_crash(value: list[Any]) -> None:
    """mpi: [...] (or pytorch, runPolicy) in an environment of a TrainJob spec: what is wrong is
    said (the schema, framework-field), and the refusal of mpi.* has no field name to report at
    (its items were taken for names: an internal error, exit 3)."""
    doc = _spec(environments={"dev": {"mpi": value, "pytorch": value, "runPolicy": value}})
    errors = _errors(doc)
    assert "error schema expected a mapping, got a list (spec.environments.dev.runPolicy)" in " ".join(errors)
    assert not [e for e in errors if "runtime-field" in e], errors


def test_mpi_refusals() -> None:
    errors = _errors(_spec(framework="mpi", runtime="deepspeed-distributed", workers=0,
                           mpi={"implementation": "Intel", "launcher": {"image": "l"}}))
    assert any(e.endswith("error runtime-field a TrainJob on ClusterTrainingRuntime 'deepspeed-distributed' has at "
                          "least 1 node pod besides the launcher: Trainer's mpi plugin gives the node job at least "
                          "one; set workers to 1 or more (spec.workers)") for e in errors), errors
    assert any(e.endswith("mpi.implementation cannot be set for a TrainJob on ClusterTrainingRuntime "
                          "'deepspeed-distributed': the runtime's mlPolicy.mpi decides it (spec.mpi.implementation)")
               for e in errors)
    assert any("mpi.launcher cannot be set" in e and e.endswith("(spec.mpi.launcher)") for e in errors)
    apart = _runtime("deepspeed-distributed")
    apart["spec"]["mlPolicy"]["mpi"]["runLauncherAsNode"] = False
    errors = _errors(_spec(framework="mpi", runtime="deepspeed-distributed", resources={"cpu": 1}),
                     runtimes_from([apart], "cluster.yaml"))
    assert any("trainer.resourcesPerNode would size the launcher" in e and e.endswith("(spec.resources)")
               for e in errors)


def test_a_runtime_spec_is_not_held_to_the_operators_rules() -> None:
    """The MPIJob's rules (worker hostnames, mpi-operator versions, the operator's timeout) do not
    apply: a TrainJob's pods and PodGroup are Trainer's."""
    result = _compile(_spec(scheduling={"gang": "scheduler-plugins"}))
    assert result.ok and not [d for d in result.diagnostics if d.code == "schedule-timeout-zero"]


def test_the_built_trainjob_is_checked_by_trainers_webhook() -> None:
    """The validate-output stage runs Trainer's TrainJob webhook: a reserved env var is an error at spec.env."""
    (error,) = _errors(_spec(env={"PET_NNODES": "2"}))
    assert "trainjob-invalid" in error and "PET_NNODES" in error and error.endswith("(spec.env)")


def test_cluster_runtimes_are_used_before_the_defaults() -> None:
    mine = _runtime("torch-distributed")
    mine["metadata"]["name"] = "team-torch"
    cluster = runtimes_from([mine], "cluster.yaml")
    job = _built(_spec(runtime="team-torch"), runtimes=cluster)["TrainJob"]
    assert job["spec"]["runtimeRef"]["name"] == "team-torch"
    assert any("runtime-not-found" in e and "(ClusterTrainingRuntimes: team-torch)" in e
               for e in _errors(_spec(), cluster))


def test_the_runtimes_gang_takes_the_queue_when_none_is_asked() -> None:
    """gang omitted: a Volcano runtime's PodGroup takes the queue (the JobSet annotation); on a
    runtime without a podGroupPolicy the queue does nothing, which a warning says."""
    cluster = runtimes_from([_runtime("torch-distributed", podGroupPolicy={"volcano": {}})], "cluster.yaml")
    result = _compile(_spec(scheduling={"queue": "q"}), cluster)
    assert result.ok and not [d for d in result.diagnostics if d.code == "gang-ignored"]
    (job,) = result.jobs[0].base
    assert job["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["metadata"] == {
        "annotations": {"scheduling.volcano.sh/queue-name": "q"}}
    warnings = [d.format() for d in _compile(_spec(scheduling={"queue": "q"})).diagnostics if d.code == "gang-ignored"]
    assert [w.split(" ", 1)[1] for w in warnings] == [
        "warning gang-ignored queue has no effect: scheduling.gang is not set and ClusterTrainingRuntime "
        "'torch-distributed' has no podGroupPolicy (set scheduling.gang) (spec.scheduling.queue)"]


def test_a_copy_never_replaces_the_runtime_it_copies() -> None:
    mine = _runtime("torch-distributed")
    mine.update(kind="TrainingRuntime", metadata={"name": "job", "namespace": "research"})
    cluster = runtimes_from([mine], "cluster.yaml")
    doc = _spec(runtime={"name": "job", "kind": "TrainingRuntime"}, scheduling={"gang": "volcano"})
    assert [e.split(" ", 1)[1] for e in _errors(doc, cluster)] == [
        "error runtime-field the TrainingRuntime mpigen writes beside the TrainJob is named after the job, 'job', "
        "as the runtime it would copy: applying it would replace that runtime; rename the job or the runtime "
        "(spec.runtime)"]
    assert set(_built(_spec(runtime={"name": "job", "kind": "TrainingRuntime"}), runtimes=cluster)) == {"TrainJob"}
