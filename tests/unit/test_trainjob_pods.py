"""The production pod fields and the pod template patch of a TrainJob spec (``spec.runtime``):
roles are the runtime's replicated jobs; every field reaches the pods Trainer v2.3.0 creates
(checked through mpigen's port of its runtime framework, which the oracle compares with the real
one) by the TrainJob's fields, its runtime patch or the TrainingRuntime copy; the patch is applied
to the copy; and the rules that guard them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mpigen.diagnostics import Severity
from mpigen.load.trainer_runtimes import default_runtimes, runtimes_from
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs
from mpigen.trainer import framework

HEAD = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: demo
  namespace: research
spec:
"""
TORCH = ("  framework: pytorch\n  runtime: torch-distributed\n  image: pytorch/pytorch:2.7.1\n"
         "  command: [torchrun, train.py]\n  workers: 1\n")
DEEPSPEED = ("  framework: mpi\n  runtime: deepspeed-distributed\n  image: ghcr.io/kubeflow/trainer/deepspeed-runtime:v2.3.0\n"
             "  command: [mpirun, python, train.py]\n  workers: 2\n")
TORCHTUNE = ("  framework: pytorch\n  runtime: torchtune-llama3.2-1b\n  image: ghcr.io/kubeflow/trainer/torchtune-trainer:v2.3.0\n"
             "  command: [tune, run]\n  workers: 0\n")


def compile_body(body: str, runtimes: Any = None):
    return compile_specs(load_text(HEAD + body, "demo.yaml"), "demo.yaml", Options(trainer_runtimes=runtimes))


def built(body: str, runtimes: Any = None) -> dict[str, dict[str, Any]]:
    result = compile_body(body, runtimes)
    errors = [d.format() for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not errors, errors
    return {obj["kind"]: obj for obj in result.jobs[0].base}


def findings(body: str, runtimes: Any = None) -> list[tuple[str, str, Severity]]:
    return [(d.code, d.path, d.severity) for d in compile_body(body, runtimes).diagnostics]


def trainer_objects(objects: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """What Trainer creates for the built TrainJob on the copy written beside it (else the runtime
    it names): the JobSet's pod templates by replicated job, and the PodGroup."""
    job = objects["TrainJob"]
    runtime = objects.get("TrainingRuntime") or default_runtimes().find(
        "ClusterTrainingRuntime", job["spec"]["runtimeRef"]["name"])
    result = framework.build(job, runtime)
    jobset = next(o for o in result.objects if o["kind"] == "JobSet")
    pods = {rjob["name"]: rjob["template"]["spec"]["template"] for rjob in jobset["spec"]["replicatedJobs"]}
    return {"pods": pods, "podgroup": result.podgroup}


def pods(body: str, runtimes: Any = None) -> dict[str, dict[str, Any]]:
    return trainer_objects(built(body, runtimes))["pods"]


def node_container(template: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in template["spec"]["containers"] if c["name"] == "node")


def patched_pods(job: dict[str, Any]) -> dict[str, dict[str, Any]]:
    jobs = job["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"]
    return {j["name"]: j["template"]["spec"]["template"] for j in jobs}


def copied_pods(runtime: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {j["name"]: j["template"]["spec"]["template"] for j in runtime["spec"]["template"]["spec"]["replicatedJobs"]}


def cluster_runtime(name: str, change: Any) -> Any:
    runtime = copy.deepcopy(default_runtimes().find("ClusterTrainingRuntime", name))
    change(runtime)
    return runtimes_from([runtime], "cluster.yaml")


# --- roles ---------------------------------------------------------------------------------------


def test_roles_are_the_runtimes_replicated_jobs() -> None:
    body = DEEPSPEED + """  resources: {gpu: 8}
  roles:
    launcher: {nodeSelector: {node-role: cpu}}
    node: {nodeSelector: {node-role: gpu}}
"""
    found = pods(body)
    assert found["launcher"]["spec"]["nodeSelector"] == {"node-role": "cpu"}
    assert found["node"]["spec"]["nodeSelector"] == {"node-role": "gpu"}


@pytest.mark.parametrize("body, runtimes, message", [
    (DEEPSPEED + "  roles: {nodes: {nodeSelector: {a: b}}}\n", None,
     "ClusterTrainingRuntime 'deepspeed-distributed' has no replicated job 'nodes': a TrainJob's roles are its "
     "runtime's replicated jobs, node, launcher (did you mean 'node'?)"),
    (TORCH + "  roles: {worker: {nodeSelector: {a: b}}}\n", None,
     "ClusterTrainingRuntime 'torch-distributed' has no replicated job 'worker': a TrainJob's roles are its "
     "runtime's replicated jobs, node (did you mean 'node'?)"),
    (TORCH + "  roles: {trainer: {nodeSelector: {a: b}}}\n",
     cluster_runtime("torch-distributed", lambda r: r["spec"]["template"]["spec"]["replicatedJobs"][0].update(
         name="trainers")),
     "ClusterTrainingRuntime 'torch-distributed' has no replicated job 'trainer': a TrainJob's roles are its "
     "runtime's replicated jobs, trainers (did you mean 'trainers'?)"),
])
def test_an_unknown_role_names_the_runtimes_jobs(body: str, runtimes: Any, message: str) -> None:
    result = compile_body(body, runtimes)
    (found,) = [d for d in result.diagnostics if d.code == "role-unknown"]
    assert found.severity is Severity.ERROR and found.message == message and not result.jobs


# --- every field reaches the pods, and which way -------------------------------------------------

# field -> (the spec's lines, where it goes: "patch", "copy" or "trainer", a check on the node pod)
FIELDS: dict[str, tuple[str, str, Any]] = {
    "nodeSelector": ("  nodeSelector: {pool: gpu}\n", "patch", lambda p: p["spec"]["nodeSelector"] == {"pool": "gpu"}),
    "affinity": ("  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                 "[{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: x}}}]}}\n", "patch",
                 lambda p: "podAntiAffinity" in p["spec"]["affinity"]),
    "tolerations": ("  tolerations: [{operator: Exists}]\n", "patch",
                    lambda p: p["spec"]["tolerations"] == [{"operator": "Exists"}]),
    "podSecurityContext": ("  podSecurityContext: {runAsUser: 1000}\n", "patch",
                           lambda p: p["spec"]["securityContext"]["runAsUser"] == 1000),
    "securityContext": ("  securityContext: {capabilities: {add: [IPC_LOCK]}}\n", "patch",
                        lambda p: node_container(p)["securityContext"] == {"capabilities": {"add": ["IPC_LOCK"]}}),
    "volumes": ("  volumes: [{name: cfg, configMap: {name: settings}, mountPath: /etc/cfg}]\n", "patch",
                lambda p: {"name": "cfg", "configMap": {"name": "settings"}} in p["spec"]["volumes"]
                and {"name": "cfg", "mountPath": "/etc/cfg"} in node_container(p)["volumeMounts"]),
    "serviceAccountName": ("  serviceAccountName: trainer\n", "patch",
                           lambda p: p["spec"]["serviceAccountName"] == "trainer"),
    "labels": ("  labels: {tier: gpu}\n", "patch", lambda p: p["metadata"]["labels"]["tier"] == "gpu"),
    "args": ("  args: [--epochs, \"3\"]\n", "trainer", lambda p: node_container(p)["args"] == ["--epochs", "3"]),
    "hostNetwork": ("  hostNetwork: true\n", "copy",
                    lambda p: (p["spec"]["hostNetwork"], p["spec"]["dnsPolicy"]) == (True, "ClusterFirstWithHostNet")),
    "dnsPolicy": ("  dnsPolicy: None\n  podTemplatePatch: {spec: {dnsConfig: {nameservers: [1.1.1.1]}}}\n", "copy",
                  lambda p: p["spec"]["dnsPolicy"] == "None"),
    "runtimeClassName": ("  runtimeClassName: nvidia\n", "copy", lambda p: p["spec"]["runtimeClassName"] == "nvidia"),
    "topologySpreadConstraints": (
        "  topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, "
        "whenUnsatisfiable: DoNotSchedule}]\n", "copy", lambda p: p["spec"]["topologySpreadConstraints"][0]["maxSkew"] == 1),
    "resourceClaims": ("  resourceClaims: [{name: gpus, resourceClaimTemplateName: eight-gpus}]\n", "copy",
                       lambda p: p["spec"]["resourceClaims"][0]["name"] == "gpus"
                       and node_container(p)["resources"]["claims"] == [{"name": "gpus"}]),
    "ports": ("  ports: [{containerPort: 9090, name: metrics}]\n", "copy",
              lambda p: (9090, "metrics") in [(q["containerPort"], q.get("name")) for q in node_container(p)["ports"]]),
    "readinessProbe": ("  readinessProbe: {tcpSocket: {port: 29500}}\n", "copy",
                       lambda p: node_container(p)["readinessProbe"] == {"tcpSocket": {"port": 29500}}),
    "envFrom": ("  envFrom: [{configMapRef: {name: settings}}]\n", "copy",
                lambda p: node_container(p)["envFrom"] == [{"configMapRef": {"name": "settings"}}]),
    "initContainers": ("  initContainers: [{name: fetch, image: busybox:1.36, command: [\"true\"]}]\n", "copy",
                       lambda p: [c["name"] for c in p["spec"]["initContainers"]] == ["fetch"]),
    "sidecars": ("  sidecars: [{name: shipper, image: fluent/fluent-bit:3.1}]\n", "copy",
                 lambda p: p["spec"]["initContainers"] == [{"name": "shipper", "image": "fluent/fluent-bit:3.1",
                                                            "restartPolicy": "Always"}]),
    "podTemplatePatch": ("  podTemplatePatch: {spec: {terminationGracePeriodSeconds: 5}}\n", "copy",
                         lambda p: p["spec"]["terminationGracePeriodSeconds"] == 5),
}


@pytest.mark.parametrize("name", list(FIELDS))
def test_each_field_reaches_the_pods_the_way_trainer_lets_it(name: str) -> None:
    lines, way, check = FIELDS[name]
    objects = built(TORCH + lines)
    assert check(trainer_objects(objects)["pods"]["node"]), name
    assert ("TrainingRuntime" in objects) == (way == "copy"), name  # no copy when a patch suffices
    job = objects["TrainJob"]
    if way == "trainer":
        assert job["spec"]["trainer"]["args"] == ["--epochs", "3"]
    if way == "copy":
        assert check(copied_pods(objects["TrainingRuntime"])["node"]), name
        assert job["spec"]["runtimeRef"] == {"apiGroup": "trainer.kubeflow.org", "kind": "TrainingRuntime",
                                             "name": "demo"}


def test_the_copy_says_why_at_the_field() -> None:
    result = compile_body(TORCH + "  hostNetwork: true\n  roles:\n    node: {envFrom: [{secretRef: {name: s}}]}\n")
    notes = {d.path: d.message for d in result.diagnostics if d.code == "runtime-copy"}
    copied = ("mpigen writes the TrainingRuntime 'demo' beside the TrainJob, a copy of ClusterTrainingRuntime "
              "'torch-distributed' that the TrainJob names: ")
    assert notes == {
        "spec.hostNetwork": copied + "the pods' hostNetwork (and its dnsPolicy) can only be said by a runtime's pod "
                                     "templates (a runtime patch has no hostNetwork)",
        "spec.roles.node.envFrom": copied + "the node training container's envFrom can only be said by a runtime's "
                                            "pod templates (a runtime patch's container takes only env, volumeMounts "
                                            "and securityContext)"}


def test_job_wide_pod_settings_reach_every_training_job_not_the_initializers() -> None:
    body = TORCHTUNE + "  nodeSelector: {pool: gpu}\n  roles:\n    model-initializer: {nodeSelector: {pool: cpu}}\n"
    found = pods(body)
    assert found["node"]["spec"]["nodeSelector"] == {"pool": "gpu"}
    assert found["model-initializer"]["spec"]["nodeSelector"] == {"pool": "cpu"}
    assert "nodeSelector" not in found["dataset-initializer"]["spec"]


def test_an_initializers_env_goes_through_the_initializer_api() -> None:
    body = TORCHTUNE + "  roles:\n    dataset-initializer: {env: {HF_HUB_OFFLINE: \"1\"}}\n"
    objects = built(body)
    assert set(objects) == {"TrainJob"}
    assert objects["TrainJob"]["spec"]["initializer"] == {"dataset": {"env": [{"name": "HF_HUB_OFFLINE", "value": "1"}]}}
    env = next(c for c in pods(body)["dataset-initializer"]["spec"]["containers"]
               if c["name"] == "dataset-initializer")["env"]
    assert {"name": "HF_HUB_OFFLINE", "value": "1"} in env


# --- per role on an MPI runtime: what Trainer's trainer API covers and what it does not -----------


def test_mpi_program_is_the_launchers_and_the_nodes_keep_sshd() -> None:
    body = DEEPSPEED + "  args: [--deepspeed]\n  envFrom: [{secretRef: {name: creds}}]\n"
    found = pods(body)
    launcher, node = node_container(found["launcher"]), node_container(found["node"])
    assert launcher["command"] == ["mpirun", "python", "train.py"] and launcher["args"] == ["--deepspeed"]
    assert node["command"] == ["/usr/sbin/sshd"]  # the runtime's
    # deepspeed-distributed runs its launcher as a node: trainer.env and envFrom reach both
    assert node["envFrom"] == launcher["envFrom"] == [{"secretRef": {"name": "creds"}}]


def test_a_roles_image_the_trainer_api_does_not_cover_goes_to_the_copy() -> None:
    body = DEEPSPEED + "  roles:\n    node: {image: registry.example/sshd:1}\n    launcher: {image: registry.example/launch:1}\n"
    objects = built(body)
    assert objects["TrainJob"]["spec"]["trainer"]["image"] == "registry.example/launch:1"
    assert node_container(copied_pods(objects["TrainingRuntime"])["node"])["image"] == "registry.example/sshd:1"
    found = trainer_objects(objects)["pods"]
    assert node_container(found["node"])["image"] == "registry.example/sshd:1"
    assert node_container(found["launcher"])["image"] == "registry.example/launch:1"


def test_role_env_differing_between_jobs_trainer_env_reaches() -> None:
    body = DEEPSPEED + "  env: {A: \"1\"}\n  roles:\n    launcher: {env: {B: \"2\"}}\n    node: {env: {A: \"3\"}}\n"
    objects = built(body)
    assert "env" not in objects["TrainJob"]["spec"]["trainer"]  # no variable is the same in both
    found = trainer_objects(objects)["pods"]
    env = {job: {e["name"]: e.get("value") for e in node_container(pod)["env"]} for job, pod in found.items()}
    assert env["launcher"]["A"] == "1" and env["launcher"]["B"] == "2" and env["node"]["A"] == "3"
    assert "B" not in env["node"]


def test_roles_resources_differing_are_the_copys_not_resources_per_node() -> None:
    body = DEEPSPEED + "  resources: {gpu: 8, cpu: \"32\"}\n  scheduling: {gang: volcano}\n" \
                       "  roles:\n    launcher: {resources: {cpu: \"2\"}}\n"
    objects = built(body)
    assert "resourcesPerNode" not in objects["TrainJob"]["spec"]["trainer"]
    found = trainer_objects(objects)
    assert node_container(found["pods"]["launcher"])["resources"]["requests"] == {"cpu": "2"}
    assert node_container(found["pods"]["node"])["resources"]["requests"] == {"cpu": "32", "nvidia.com/gpu": "8"}
    assert found["podgroup"]["spec"]["minResources"] == {"cpu": "66", "nvidia.com/gpu": "16"}


def test_resource_claims_need_the_copy_since_resources_per_node_drops_them() -> None:
    body = TORCH + "  resources: {gpu: 1}\n  resourceClaims: [{name: rdma, resourceClaimTemplateName: ib}]\n"
    objects = built(body)
    assert "resourcesPerNode" not in objects["TrainJob"]["spec"]["trainer"]
    assert node_container(trainer_objects(objects)["pods"]["node"])["resources"] == {
        "limits": {"nvidia.com/gpu": "1"}, "requests": {"nvidia.com/gpu": "1"}, "claims": [{"name": "rdma"}]}


def test_the_same_resources_everywhere_stay_resources_per_node() -> None:
    objects = built(DEEPSPEED + "  resources: {gpu: 8}\n  nodeSelector: {a: b}\n")
    assert set(objects) == {"TrainJob"}
    assert objects["TrainJob"]["spec"]["trainer"]["resourcesPerNode"]["limits"] == {"nvidia.com/gpu": "8"}


# --- the pod template patch ------------------------------------------------------------------------


def test_a_patch_that_adds_a_gpu_raises_the_podgroups_min_resources() -> None:
    base = TORCH + "  resources: {cpu: \"4\"}\n  scheduling: {gang: volcano}\n"
    patch = """  podTemplatePatch:
    spec:
      containers:
      - name: node
        resources: {limits: {nvidia.com/gpu: "2"}, requests: {nvidia.com/gpu: "2"}}
"""
    plain, patched = trainer_objects(built(base)), trainer_objects(built(base + patch))
    assert plain["podgroup"]["spec"]["minResources"] == {"cpu": "8"}
    assert patched["podgroup"]["spec"]["minResources"] == {"cpu": "8", "nvidia.com/gpu": "4"}
    assert node_container(patched["pods"]["node"])["resources"]["limits"] == {"cpu": "4", "nvidia.com/gpu": "2"}


def test_a_role_patch_applies_to_its_job_in_the_copy_after_the_job_wide_one() -> None:
    body = DEEPSPEED + """  podTemplatePatch: {spec: {terminationGracePeriodSeconds: 60, hostIPC: true}}
  roles:
    launcher: {podTemplatePatch: {spec: {terminationGracePeriodSeconds: 5}}}
"""
    copied = copied_pods(built(body)["TrainingRuntime"])
    assert (copied["launcher"]["spec"]["terminationGracePeriodSeconds"], copied["launcher"]["spec"]["hostIPC"]) == (5, True)
    assert (copied["node"]["spec"]["terminationGracePeriodSeconds"], copied["node"]["spec"]["hostIPC"]) == (60, True)


def test_a_patch_wins_over_a_field_it_also_sets_which_then_moves_to_the_copy() -> None:
    body = TORCH + "  nodeSelector: {pool: a, zone: z}\n  tolerations: [{operator: Exists}]\n" \
                   "  podTemplatePatch: {spec: {nodeSelector: {pool: b}}}\n"
    objects = built(body)
    assert "nodeSelector" not in patched_pods(objects["TrainJob"])["node"]["spec"]  # it would be applied after the patch
    assert "tolerations" in patched_pods(objects["TrainJob"])["node"]["spec"]  # what the patch leaves stays a patch
    assert trainer_objects(objects)["pods"]["node"]["spec"]["nodeSelector"] == {"pool": "b", "zone": "z"}
    assert ("patch-overrides", "spec.podTemplatePatch.spec.nodeSelector", Severity.WARNING) in findings(body)


@pytest.mark.parametrize("patch, expected", [
    ("{spec: {containers: [{name: node, image: x}]}}", "spec.podTemplatePatch.spec.containers[0].image"),
    ("{spec: {containers: [{name: node, env: [{name: A, value: x}]}]}}",
     "spec.podTemplatePatch.spec.containers[0].env[0]"),
    ("{spec: {containers: [{name: node, env: [{name: PET_NNODES, value: x}]}]}}",
     "spec.podTemplatePatch.spec.containers[0].env[0]"),
    ("{spec: {containers: [{name: node, resources: {requests: {cpu: \"9\"}}}]}}",
     "spec.podTemplatePatch.spec.containers[0].resources.requests.cpu"),
    ("{metadata: {labels: {jobset.sigs.k8s.io/jobset-name: x}}}",
     'spec.podTemplatePatch.metadata.labels["jobset.sigs.k8s.io/jobset-name"]'),
    ("{metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}}",
     'spec.podTemplatePatch.metadata.labels["trainer.kubeflow.org/trainjob-ancestor-step"]'),
    ("{spec: {subdomain: x}}", "spec.podTemplatePatch.spec.subdomain"),
    ("{spec: {schedulerName: default-scheduler}}", "spec.podTemplatePatch.spec.schedulerName"),
    ("{replicas: 2}", "spec.podTemplatePatch.replicas"),
])
def test_what_trainer_or_jobset_owns_is_an_error_at_the_patch(patch: str, expected: str) -> None:
    body = TORCH + "  env: {A: \"1\"}\n  resources: {cpu: \"4\"}\n  scheduling: {gang: volcano}\n" \
                   "  podTemplatePatch: " + patch + "\n"
    assert ("patch-owned", expected, Severity.ERROR) in findings(body)
    assert not compile_body(body).jobs


def test_no_patch_overrides_warning_where_trainer_sets_the_value_over_the_patch() -> None:
    body = TORCH + "  env: {A: \"1\"}\n  podTemplatePatch: {spec: {containers: [{name: node, image: x, env: " \
                   "[{name: A, value: b}]}]}}\n"
    codes = [code for code, _, _ in findings(body)]
    assert codes.count("patch-owned") == 2 and "patch-overrides" not in codes


def test_the_mpi_plugins_volumes_are_owned() -> None:
    body = DEEPSPEED + "  roles:\n    node:\n      podTemplatePatch: {spec: {containers: [{name: node, volumeMounts: " \
                       "[{name: keys, mountPath: /home/mpiuser/.ssh}]}]}}\n"
    assert ("patch-owned", "spec.roles.node.podTemplatePatch.spec.containers[0].volumeMounts[0]", Severity.ERROR) \
        in findings(body)


def test_a_patch_error_is_at_its_line_through_the_copys_schema() -> None:
    body = TORCH + "  podTemplatePatch: {spec: {hostIPC: \"yes\"}}\n"
    assert ("schema", "spec.podTemplatePatch.spec.hostIPC", Severity.ERROR) in findings(body)
    assert not compile_body(body).jobs


def test_a_lint_finding_on_a_patched_value_is_at_the_patch() -> None:
    body = TORCH + """  scheduling: {gang: volcano}
  roles:
    node:
      podTemplatePatch:
        spec:
          containers:
          - name: node
            resources: {limits: {nvidia.com/gpu: "1"}}
"""
    assert ("trainer-limit-only-resource",
            'spec.roles.node.podTemplatePatch.spec.containers[0].resources.limits["nvidia.com/gpu"]',
            Severity.WARNING) in findings(body)


def test_a_container_the_patch_adds_is_a_warning_and_lands_in_the_copy() -> None:
    body = TORCH + "  podTemplatePatch: {spec: {containers: [{name: exporter, image: prom/node-exporter:v1.8.2}]}}\n"
    assert ("patch-adds-container", "spec.podTemplatePatch.spec.containers[0]", Severity.WARNING) in findings(body)
    names = [c["name"] for c in pods(body)["node"]["spec"]["containers"]]
    assert sorted(names) == ["exporter", "node"]


# --- the rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize("body, expected", [
    (TORCH + "  ports: [{containerPort: 9090}]\n", ("runtime-field", "spec.ports[0]")),
    (TORCH + "  roles: {node: {ports: [{containerPort: 29500, name: x}]}}\n",
     ("runtime-field", "spec.roles.node.ports[0]")),
    (DEEPSPEED + "  initContainers: [{name: node, image: busybox}]\n", ("init-container-name", "spec.initContainers[0].name")),
    (TORCH + "  sidecars: [{name: s, image: x, volumeMounts: [{name: logs, mountPath: /logs}]}]\n",
     ("volume-undefined", "spec.sidecars[0].volumeMounts[0].name")),
])
def test_rules(body: str, expected: tuple) -> None:
    assert expected + (Severity.ERROR,) in findings(body)


def test_a_sidecar_may_mount_the_runtimes_and_trainers_volumes() -> None:
    body = DEEPSPEED + "  sidecars: [{name: s, image: x, volumeMounts: [{name: mpi-ssh-auth, mountPath: /keys}]}]\n"
    assert not [f for f in findings(body) if f[2] is Severity.ERROR]


def test_the_gang_fit_reads_the_roles_placement() -> None:
    from mpigen.operator.quantity import Quantity
    from mpigen.scheduler.fit import CANNOT_FIT, FITS, gang_fit
    from mpigen.scheduler.gang import trainjob_gang
    from mpigen.scheduler.nodes import Node

    body = DEEPSPEED + "  resources: {gpu: 8}\n  scheduling: {gang: volcano}\n" \
                       "  roles:\n    launcher: {resources: {cpu: \"1\"}, nodeSelector: {node-role: cpu}}\n"
    objects = built(body)
    gang = trainjob_gang(framework.build(objects["TrainJob"], objects["TrainingRuntime"]).objects)

    def node(name: str, role: str, allocatable: dict[str, str]) -> Node:
        return Node(name, {"node-role": role},
                    allocatable={k: Quantity.parse(v) for k, v in {"pods": "110", **allocatable}.items()})

    gpus = [node(f"gpu-{i}", "gpu", {"cpu": "64", "nvidia.com/gpu": "8"}) for i in range(3)]
    assert gang_fit(gang.roles, gang.min_member, gpus).outcome == CANNOT_FIT  # the launcher needs a CPU node
    assert gang_fit(gang.roles, gang.min_member, gpus + [node("cpu-0", "cpu", {"cpu": "8"})]).outcome == FITS


# ------------------------------------------------------------------ the runtime's program, requests unlike limits


def test_without_image_and_command_the_runtime_s_run() -> None:
    body = "  framework: pytorch\n  runtime: torch-distributed\n  workers: 1\n"
    objects = built(body)
    assert "TrainingRuntime" not in objects
    assert "image" not in objects["TrainJob"]["spec"]["trainer"]
    assert "command" not in objects["TrainJob"]["spec"]["trainer"]
    runtime = default_runtimes().find("ClusterTrainingRuntime", "torch-distributed")
    image = node_container(copied_pods(runtime)["node"])["image"]
    assert node_container(pods(body)["node"])["image"] == image
    assert "command" not in node_container(pods(body)["node"])


def test_an_empty_command_is_still_written_without_image() -> None:
    job = built("  framework: pytorch\n  runtime: torch-distributed\n  command: []\n  workers: 1\n")["TrainJob"]
    assert job["spec"]["trainer"] == {"command": [], "numNodes": 2}


def test_a_spec_without_runtime_still_needs_image_and_command() -> None:
    found = findings("  framework: pytorch\n  workers: 1\n")
    assert [(c, p) for c, p, s in found if s is Severity.ERROR] == [("missing-field", "spec"), ("missing-field", "spec")]
    messages = [d.message for d in compile_body("  framework: pytorch\n  workers: 1\n").diagnostics]
    assert sorted(messages) == ["missing required field 'command'", "missing required field 'image'"]


def test_requests_unlike_limits_in_a_patch_are_resources_per_node_not_a_copy() -> None:
    body = TORCH + """  resources: {gpu: 1}
  podTemplatePatch:
    spec:
      containers:
      - name: node
        resources: {requests: {cpu: "2", memory: 4096Mi}, limits: {cpu: 4, memory: 8Gi}}
"""
    objects = built(body)
    assert "TrainingRuntime" not in objects
    assert objects["TrainJob"]["spec"]["trainer"]["resourcesPerNode"] == {
        "limits": {"cpu": "4", "memory": "8Gi", "nvidia.com/gpu": "1"},
        "requests": {"cpu": "2", "memory": "4Gi", "nvidia.com/gpu": "1"}}
    assert node_container(pods(body)["node"])["resources"] == objects["TrainJob"]["spec"]["trainer"]["resourcesPerNode"]


def test_patched_resources_the_roles_do_not_share_stay_in_the_copy() -> None:
    # deepspeed's launcher and nodes both take resourcesPerNode: one role's own patch cannot be it
    body = DEEPSPEED + """  roles:
    node:
      podTemplatePatch: {spec: {containers: [{name: node, resources: {requests: {cpu: "1"}}}]}}
"""
    objects = built(body)
    assert "resourcesPerNode" not in objects["TrainJob"]["spec"]["trainer"]
    assert node_container(copied_pods(objects["TrainingRuntime"])["node"])["resources"] == {"requests": {"cpu": "1"}}
    assert ("runtime-copy", "spec.roles.node.podTemplatePatch", Severity.INFO) in findings(body)


def test_a_patched_resource_with_a_directive_stays_in_the_copy() -> None:
    body = TORCH + "  podTemplatePatch: {spec: {containers: [{name: node, resources: {$patch: replace, " \
                   "requests: {cpu: \"1\"}}}]}}\n"
    assert "TrainingRuntime" in built(body)


def test_an_environment_may_leave_the_image_to_the_runtime() -> None:
    result = compile_body(TORCH + "  environments:\n    dev: {image: null}\n")
    assert result.ok, [d.format() for d in result.diagnostics]
    assert "image" not in next(o for o in result.jobs[0].environments["dev"] if o["kind"] == "TrainJob")["spec"][
        "trainer"]
