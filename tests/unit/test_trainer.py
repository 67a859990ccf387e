"""mpigen.trainer: the port of Kubeflow Trainer v2.3.0's runtime framework, rule by rule.

The cases come from Trainer's own code (file references in mpigen/trainer/*.py); the differential
tests (tests/oracle/test_differential.py) check the same port against the real framework.
"""

from __future__ import annotations

import copy

import pytest

from mpigen.load.trainer_runtimes import runtimes_from
from mpigen.trainer import defaults, framework, patch, runtimes, validation
from mpigen.trainer.info import TrainerError, new_runtime_info, pod_requests
from tests.work import lines_run

ANCESTOR = {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}


def _rjob(name: str, containers: list[dict], labels: dict | None = None, **pod: object) -> dict:
    template: dict = {"spec": {"template": {"spec": {"containers": containers, **pod}}}}
    if labels:
        template["metadata"] = {"labels": labels}
    return {"name": name, "template": template}


def torch_runtime(resources: dict | None = None, policy: dict | None = None, **pod: object) -> dict:
    node = {"name": "node", "image": "pytorch"}
    if resources is not None:
        node["resources"] = resources
    spec: dict = {"mlPolicy": {"numNodes": 1, "torch": {}},
                  "template": {"spec": {"replicatedJobs": [_rjob("node", [node], ANCESTOR, **pod)]}}}
    if policy is not None:
        spec["podGroupPolicy"] = policy
    return {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "ClusterTrainingRuntime",
            "metadata": {"name": "torch-distributed"}, "spec": spec}


def deepspeed_runtime(policy: dict | None = None, launcher_as_node: bool = True) -> dict:
    """The MPI layout of manifests/base/runtimes/deepspeed_distributed.yaml."""
    spec: dict = {"mlPolicy": {"numNodes": 1, "mpi": {"numProcPerNode": 1, "sshAuthMountPath": "/home/mpiuser/.ssh",
                                                      "runLauncherAsNode": launcher_as_node}},
                  "template": {"spec": {"replicatedJobs": [
                      _rjob("node", [{"name": "node", "image": "ds", "command": ["/usr/sbin/sshd"]}]),
                      _rjob("launcher", [{"name": "node", "image": "ds"}], ANCESTOR)]}}}
    if policy is not None:
        spec["podGroupPolicy"] = policy
    return {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "ClusterTrainingRuntime",
            "metadata": {"name": "deepspeed-distributed"}, "spec": spec}


def trainjob(runtime: str = "torch-distributed", **trainer: object) -> dict:
    spec: dict = {"runtimeRef": {"name": runtime}}
    if trainer:
        spec["trainer"] = trainer
    return {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
            "metadata": {"name": "pi", "namespace": "research"}, "spec": spec}


def _obj(built: framework.Built, kind: str) -> dict:
    return next(o for o in built.objects if o["kind"] == kind)


def _node(built: framework.Built, rjob: str = "node") -> dict:
    spec = _obj(built, "JobSet")["spec"]
    pod = next(r for r in spec["replicatedJobs"] if r["name"] == rjob)["template"]["spec"]["template"]["spec"]
    return next(c for c in pod["containers"] if c["name"] == "node")


def _env(container: dict) -> dict:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container.get("env") or []}


# ------------------------------------------------------------------ defaults (the CRDs)


def test_crd_defaults_fill_what_the_plugins_dereference() -> None:
    runtime = defaults.runtime_defaults(deepspeed_runtime({"coscheduling": {}, "volcano": {"networkTopology": {}}}))
    assert runtime["spec"]["mlPolicy"]["mpi"]["mpiImplementation"] == "OpenMPI"
    assert runtime["spec"]["podGroupPolicy"]["coscheduling"] == {"scheduleTimeoutSeconds": 60}
    assert runtime["spec"]["podGroupPolicy"]["volcano"]["networkTopology"] == {"highestTierAllowed": 1, "mode": "hard"}
    assert [r["replicas"] for r in runtime["spec"]["template"]["spec"]["replicatedJobs"]] == [1, 1]
    job = defaults.trainjob_defaults(trainjob())
    assert job["spec"]["runtimeRef"] == {"name": "torch-distributed", "apiGroup": "trainer.kubeflow.org",
                                         "kind": "ClusterTrainingRuntime"}
    assert job["spec"]["suspend"] is False
    # a default applies only where its parent exists, and never overwrites
    assert "podGroupPolicy" not in defaults.runtime_defaults(torch_runtime())["spec"]
    assert defaults.runtime_defaults(torch_runtime(policy={"coscheduling": {"scheduleTimeoutSeconds": 5}}))[
        "spec"]["podGroupPolicy"]["coscheduling"]["scheduleTimeoutSeconds"] == 5


def test_pod_template_defaults_reach_ports_and_env_refs() -> None:
    node = {"name": "node", "ports": [{"containerPort": 1}],
            "env": [{"name": "A", "valueFrom": {"secretKeyRef": {"key": "k"}}}]}
    runtime = defaults.runtime_defaults(torch_runtime())
    pod = runtime["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]
    pod["containers"] = [node]
    container = defaults.runtime_defaults(runtime)["spec"]["template"]["spec"]["replicatedJobs"][0][
        "template"]["spec"]["template"]["spec"]["containers"][0]
    assert container["ports"] == [{"containerPort": 1, "protocol": "TCP"}]
    assert container["env"][0]["valueFrom"]["secretKeyRef"] == {"key": "k", "name": ""}


# ------------------------------------------------------------------ strategic merge patch


def test_merge_lists_by_key_keep_the_original_order_and_append_new_items() -> None:
    original = {"replicatedJobs": [
        {"name": "a", "template": {"spec": {"template": {"spec": {"containers": [{"name": "x", "image": "1"}]}}}}},
        {"name": "b"}]}
    merged = patch.merge(original, {"replicatedJobs": [
        {"name": "b", "replicas": 2},
        {"name": "a", "template": {"spec": {"template": {"spec": {
            "containers": [{"name": "y", "image": "2"}, {"name": "x", "env": [{"name": "E", "value": "v"}]}],
            "tolerations": [{"key": "t"}], "nodeSelector": {"pool": "gpu"}}}}}}]}, patch.JOBSET_SPEC)
    assert [r["name"] for r in merged["replicatedJobs"]] == ["b", "a"]  # patch order, as SMP gives it
    pod = merged["replicatedJobs"][1]["template"]["spec"]["template"]["spec"]
    assert pod["containers"] == [{"name": "y", "image": "2"},
                                 {"name": "x", "image": "1", "env": [{"name": "E", "value": "v"}]}]
    assert pod["tolerations"] == [{"key": "t"}] and pod["nodeSelector"] == {"pool": "gpu"}
    assert original["replicatedJobs"][1] == {"name": "b"}  # inputs untouched


def test_merge_null_deletes_and_directives() -> None:
    assert patch.merge({"a": 1, "b": {"c": 2}}, {"a": None, "b": {"$patch": "replace", "d": 3}}, {}) == {"b": {"d": 3}}
    spec = {"replicatedJobs": [{"name": "a"}, {"name": "b"}]}
    assert patch.merge(spec, {"replicatedJobs": [{"name": "a", "$patch": "delete"}]}, patch.JOBSET_SPEC) == \
        {"replicatedJobs": [{"name": "b"}]}
    with pytest.raises(patch.PatchError):
        patch.merge(spec, {"replicatedJobs": [{"replicas": 1}]}, patch.JOBSET_SPEC)


def test_runtime_patches_restore_the_runtime_order_of_replicated_jobs() -> None:
    job = trainjob("deepspeed-distributed")
    job["spec"]["runtimePatches"] = [{"manager": "kueue.x-k8s.io/manager", "trainingRuntimeSpec": {"template": {
        "metadata": {"annotations": {"scheduling.volcano.sh/queue-name": "q"}},
        "spec": {"replicatedJobs": [{"name": "launcher", "template": {"spec": {"template": {
            "spec": {"nodeSelector": {"pool": "cpu"}}}}}}]}}}}]
    built = framework.build(job, deepspeed_runtime({"volcano": {}}))
    spec = _obj(built, "JobSet")["spec"]
    assert [r["name"] for r in spec["replicatedJobs"]] == ["node", "launcher"]
    assert spec["replicatedJobs"][1]["template"]["spec"]["template"]["spec"]["nodeSelector"] == {"pool": "cpu"}
    assert _obj(built, "JobSet")["metadata"]["annotations"] == {"scheduling.volcano.sh/queue-name": "q"}
    assert _obj(built, "PodGroup")["spec"]["queue"] == "q"


# ------------------------------------------------------------------ PodRequests and the PodGroup


def test_pod_requests_follow_the_kubernetes_resource_helpers() -> None:
    pod = {"containers": [{"resources": {"requests": {"cpu": "1"}, "limits": {"nvidia.com/gpu": "1"}}},
                          {"resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}],
           "initContainers": [{"resources": {"requests": {"cpu": "4"}}},  # the largest need wins over the sum
                              {"restartPolicy": "Always", "resources": {"requests": {"memory": "1Gi"}}}],
           "overhead": {"memory": "100Mi"}}
    got = {k: str(v) for k, v in pod_requests(pod).items()}
    assert got == {"cpu": "4", "memory": "2148Mi"}  # limits never stand in for requests
    pod["resources"] = {"requests": {"cpu": "8", "nvidia.com/gpu": "1"}}  # pod level: cpu, memory, hugepages only
    assert str(pod_requests(pod)["cpu"]) == "8" and "nvidia.com/gpu" not in pod_requests(pod)


def test_coscheduling_podgroup_counts_every_pod_set_and_requests_only() -> None:
    runtime = torch_runtime(policy={"coscheduling": {}})
    job = trainjob(numNodes=10_000, resourcesPerNode={"requests": {"cpu": "4", "memory": "16Gi"},
                                                      "limits": {"nvidia.com/gpu": "8"}})
    small = trainjob(numNodes=2, resourcesPerNode=job["spec"]["trainer"]["resourcesPerNode"])
    framework.build(small, runtime)  # what is computed once (cached) is not counted below
    _, two = lines_run(framework.build, small, runtime)
    built, lines = lines_run(framework.build, job, runtime)
    assert lines - two < 100, (two, lines)  # no loop over the nodes: the work of 2 nodes (counted, not timed)
    group = built.podgroup
    assert group["apiVersion"] == "scheduling.x-k8s.io/v1alpha1"
    assert group["spec"] == {"minMember": 10_000, "minResources": {"cpu": "40k", "memory": "160000Gi"},
                             "scheduleTimeoutSeconds": 60}
    assert _obj(built, "JobSet")["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["metadata"][
        "labels"] == {"scheduling.x-k8s.io/pod-group": "pi"}


def test_volcano_podgroup_queue_priority_class_and_topology() -> None:
    runtime = deepspeed_runtime({"volcano": {"networkTopology": {"mode": "soft"}}})
    runtime["spec"]["template"]["metadata"] = {"annotations": {"scheduling.volcano.sh/queue-name": "research"}}
    rjobs = runtime["spec"]["template"]["spec"]["replicatedJobs"]
    rjobs[0]["template"]["spec"]["template"]["spec"]["priorityClassName"] = "high"
    rjobs[1]["template"]["spec"]["template"]["spec"]["priorityClassName"] = "low"  # the last one set wins
    built = framework.build(trainjob("deepspeed-distributed", numNodes=4), runtime, {"high": 10, "low": 1})
    assert built.podgroup["apiVersion"] == "scheduling.volcano.sh/v1beta1"
    assert built.podgroup["spec"] == {"minMember": 4, "minResources": {}, "queue": "research",
                                      "priorityClassName": "low",
                                      "networkTopology": {"mode": "soft", "highestTierAllowed": 1}}
    with pytest.raises(framework.Refused, match='PriorityClass "low" doesn\'t exist'):
        framework.build(trainjob("deepspeed-distributed"), runtime, {"high": 10})


def test_no_pod_group_policy_no_podgroup() -> None:
    built = framework.build(trainjob(), torch_runtime())
    assert built.podgroup is None and [o["kind"] for o in built.objects] == ["JobSet"]


# ------------------------------------------------------------------ numProcPerNode and the env


@pytest.mark.parametrize("trainer, runtime_resources, want", [
    ({"numNodes": 1}, {"limits": {"nvidia.com/gpu": "4"}}, "auto"),  # GPUs: torchrun's auto
    ({"resourcesPerNode": {"requests": {"cpu": "3500m"}}}, None, "4"),  # no GPU: the CPUs, rounded up
    ({"resourcesPerNode": {"limits": {"cpu": "2"}, "requests": {"cpu": "0"}}}, None, "2"),  # a zero request: the limit
    ({"numNodes": 1}, None, "1"),  # nothing: at least 1
    # intstr.FromInt makes the CPU count an int32: 3e9 wraps around (as Trainer writes it)
    ({"resourcesPerNode": {"requests": {"cpu": "3e9"}}}, None, "-1294967296"),
    ({"numProcPerNode": 3}, {"limits": {"nvidia.com/gpu": "4"}}, "3"),
    # resourcesPerNode replaces the runtime's resources for the count, it is not merged into them
    ({"resourcesPerNode": {"requests": {"memory": "1Gi"}}}, {"limits": {"nvidia.com/gpu": "4"}}, "1"),
])
def test_torch_num_proc_per_node(trainer: dict, runtime_resources: dict | None, want: str) -> None:
    built = framework.build(trainjob(**trainer), torch_runtime(runtime_resources))
    assert _env(_node(built))["PET_NPROC_PER_NODE"] == want


def test_torch_env_needs_a_trainer() -> None:
    """The trainer container is looked up only when the TrainJob has ``spec.trainer``: without it,
    no PET_* variables at all (torch.go: ``if trainJob.Spec.Trainer != nil``)."""
    assert "env" not in _node(framework.build(trainjob(), torch_runtime()))


def test_torch_env_and_port() -> None:
    runtime = torch_runtime()
    runtime["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0][
        "ports"] = [{"containerPort": 8080}]  # unnamed: UpsertPort replaces it (two nil names are equal)
    built = framework.build(trainjob(numNodes=3, env=[{"name": "NCCL_DEBUG", "value": "INFO"}]), runtime)
    node = _node(built)
    assert [e["name"] for e in node["env"]] == ["NCCL_DEBUG", "PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK",
                                                "PET_MASTER_ADDR", "PET_MASTER_PORT"]
    assert _env(node)["PET_NNODES"] == "3" and _env(node)["PET_MASTER_ADDR"] == "pi-node-0-0.pi"
    assert node["ports"] == [{"containerPort": 29500}]
    assert _obj(built, "JobSet")["spec"]["replicatedJobs"][0]["template"]["spec"]["parallelism"] == 3


def test_torchtune_command() -> None:
    runtime = torch_runtime({"limits": {"nvidia.com/gpu": 2}})
    runtime["metadata"]["name"] = "torchtune-llama3.2-1b"
    node = runtime["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
        "containers"][0]
    node["command"] = ["tune", "run", "output_dir=/workspace/output", "epochs=1"]
    built = framework.build(trainjob("torchtune-llama3.2-1b", command=["tune", "run"],
                                     args=["model.lora_attn_modules=[q_proj]"]), runtime)
    assert _node(built)["command"] == ["tune", "run", "--rdzv_endpoint=pi-node-0-0.pi:29500",
                                       "lora_finetune_distributed", "--config", "llama3_2/1B_lora",
                                       "output_dir=/workspace/output"]
    assert "PET_MASTER_ADDR" not in _env(_node(built))


def test_mpi_launcher_as_node_hostfile_slots_and_env() -> None:
    job = trainjob("deepspeed-distributed", numNodes=10_000,
                   resourcesPerNode={"limits": {"nvidia.com/gpu": "4"}}, env=[{"name": "A", "value": "1"}])
    built = framework.build(job, deepspeed_runtime({"coscheduling": {}}))
    hostfile = _obj(built, "ConfigMap")["data"]["hostfile"]
    assert len(hostfile) == 10_000 and built.num_proc_per_node == 4  # numProcPerNode 1 -> the GPUs
    assert hostfile.line(0) == "pi-node-0-0.pi slots=4"
    assert hostfile.line(9998) == "pi-node-0-9998.pi slots=4"
    assert hostfile.line(9999) == "pi-launcher-0-0.pi slots=4"  # the launcher is a node
    wrapped = framework.build(trainjob("deepspeed-distributed",
                                       resourcesPerNode={"limits": {"nvidia.com/gpu": "4294967298"}}),
                              deepspeed_runtime())
    assert wrapped.num_proc_per_node == 2  # ptr.To(int32(gpuQ))
    assert built.podgroup["spec"]["minMember"] == 10_000
    launcher, node = _node(built, "launcher"), _node(built, "node")
    assert _env(launcher) == {"OMPI_MCA_orte_default_hostfile": "/etc/mpi/hostfile",
                              "OMPI_MCA_orte_keep_fqdn_hostnames": "true", "OMPI_MCA_orte_set_default_slots": "4",
                              "OMPI_MCA_plm_rsh_args": "-o ConnectionAttempts=10", "A": "1"}
    assert _env(node) == {"A": "1"}  # runLauncherAsNode: the node job gets the TrainJob's env too
    assert [m["mountPath"] for m in launcher["volumeMounts"]] == ["/home/mpiuser/.ssh", "/etc/mpi"]
    assert _obj(built, "Secret")["type"] == "kubernetes.io/ssh-auth"


def test_mpi_without_launcher_as_node() -> None:
    built = framework.build(trainjob("deepspeed-distributed", numNodes=3, numProcPerNode=2),
                            deepspeed_runtime(launcher_as_node=False))
    assert str(_obj(built, "ConfigMap")["data"]["hostfile"]).splitlines() == [
        f"pi-node-0-{i}.pi slots=2" for i in range(3)]
    assert "env" not in _node(built, "node")  # the TrainJob's env goes to the trainer (launcher) only


# ------------------------------------------------------------------ webhooks and lookups


def test_webhooks_refuse() -> None:
    with pytest.raises(framework.Refused) as refused:
        framework.build(trainjob(env=[{"name": "PET_NNODES", "value": "1"}]), torch_runtime())
    assert refused.value.problems == [(("spec", "trainer", "env"),
                                       "must not have reserved envs, invalid envs configured: [PET_NNODES]")]
    runtime = torch_runtime()
    runtime["spec"]["template"]["spec"]["replicatedJobs"][0]["replicas"] = 2
    with pytest.raises(framework.Refused) as refused:
        framework.build(trainjob(), runtime)
    assert refused.value.problems[0][0] == ("runtime", "spec", "template", "spec", "replicatedJobs", 0, "replicas")
    runtime = torch_runtime()
    runtime["spec"]["mlPolicy"] = {"flux": {}}
    with pytest.raises(TrainerError, match="flux"):
        framework.build(trainjob(), runtime)


def test_find_runtime_by_kind_name_and_namespace() -> None:
    cluster = torch_runtime()
    namespaced = dict(copy.deepcopy(cluster), kind="TrainingRuntime",
                      metadata={"name": "torch-distributed", "namespace": "other"})
    job = trainjob()

    def find(objects: list) -> dict | None:
        _, kind, name = runtimes.runtime_ref(job)
        return runtimes_from(objects, "c").find(kind, name, job["metadata"].get("namespace"))

    assert find([namespaced, cluster]) is cluster
    job["spec"]["runtimeRef"]["kind"] = "TrainingRuntime"
    assert find([namespaced, cluster]) is None  # another namespace
    namespaced["metadata"]["namespace"] = "research"
    assert find([cluster, namespaced]) is namespaced
    job["spec"]["runtimeRef"]["apiGroup"] = "example.com"
    assert validation.supported_runtime(job) == (("spec", "runtimeRef"),
                                                 "unsupported runtime: TrainingRuntime.example.com")


def test_shape_problems_name_the_field() -> None:
    job = trainjob(numNodes="two", resourcesPerNode={"requests": {"cpu": "lots"}})
    assert [p for p, _ in runtimes.trainjob_shape(job)] == [("spec", "trainer", "numNodes"),
                                                            ("spec", "trainer", "resourcesPerNode", "requests", "cpu")]
    runtime = torch_runtime()
    runtime["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"] = [
        {"image": "x"}]
    assert runtimes.runtime_shape(runtime)[0][1] == "a container needs a name"


def test_runtime_info_counts_and_merged_resources() -> None:
    runtime = defaults.runtime_defaults(torch_runtime({"requests": {"cpu": "1"}, "limits": {"memory": "1000M"}}))
    job = defaults.trainjob_defaults(trainjob(resourcesPerNode={"requests": {"memory": "2Gi"}}))
    info = new_runtime_info(job, runtime)
    container = info.jobset_spec["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0]
    assert container["resources"] == {"limits": {"memory": "1G"}, "requests": {"cpu": "1", "memory": "2Gi"}}
    assert {k: str(v) for k, v in info.pod_sets[0].single_pod_requests.items()} == {"cpu": "1", "memory": "2Gi"}
    assert validation.trainjob_problems(info, job, None) == []
