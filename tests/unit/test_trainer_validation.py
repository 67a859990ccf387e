"""Kubeflow Trainer v2.3.0 in ``mpigen validate``: the CRDs' CEL rules (mpigen/spec/schema_rules.py),
the default runtimes (mpigen/load/trainer_runtimes.py), the runtime Info (mpigen/trainer/info.py),
the webhooks (mpigen/trainer/validation.py) and the rules that need the runtimes of a cluster.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from mpigen.lint.base import LintOptions
from mpigen.lint.runner import lint_object
from mpigen.load.trainer_runtimes import default_runtimes, runtimes_from
from mpigen.spec.schema_rules import PORTS, failures, is_transition_rule, rule_tree, tree_for
from mpigen.trainer.framework import runtime_info, webhook_problems
from mpigen.trainer.info import merge_runtime_patches, pod_spec_of
from mpigen.trainer.validation import runtime_problems as runtime_problems_of
from tests.odd_shapes import replaced, subpaths

ROOT = Path(__file__).resolve().parents[2]
LOCK = json.loads((ROOT / "schemas" / "lock.json").read_text("utf-8"))
API = "trainer.kubeflow.org/v1alpha1"


# ---------------------------------------------------------------- the CEL rules


def shipped_rules() -> set[str]:
    found = set()

    def walk(node):
        if isinstance(node, dict):
            found.update(r["rule"] for r in node.get("x-kubernetes-validations", []))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for rel in LOCK["schemas"]:
        walk(json.loads((ROOT / "schemas" / rel).read_text("utf-8")))
    return found


def test_every_cel_rule_of_the_shipped_schemas_is_ported_or_a_transition_rule() -> None:
    rules = shipped_rules()
    assert {r for r in rules if not is_transition_rule(r)} <= set(PORTS), \
        "port the new rule in mpigen/spec/schema_rules.py"
    assert set(PORTS) <= rules, "a port whose rule no shipped schema carries"
    assert "self == oldSelf" in rules and is_transition_rule("self == oldSelf")


def test_schemas_without_rules_cost_nothing() -> None:
    assert tree_for("kubeflow.org/mpijob_v2beta1.json") is None
    assert tree_for("kubeflow.org/pytorchjob_v1.json") is None  # only a transition rule
    assert tree_for("trainer.kubeflow.org/trainjob_v1alpha1.json") is not None


def rule(text: str):
    return PORTS[text].check


@pytest.mark.parametrize("text, good, bad", [
    ("self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
     [{"metadata": {"name": "a"}}, {"metadata": {"name": "a-1"}}],
     [{"metadata": {"name": "A"}}, {"metadata": {"name": "1a"}}, {"metadata": {"name": "a-"}},
      {"metadata": {"name": "a\n"}}, {"metadata": {"name": "a.b"}}]),
    ("size(self.metadata.name) <= 63", [{"metadata": {"name": "a" * 63}}], [{"metadata": {"name": "a" * 64}}]),
    ("self == '' || self.matches('^[A-Za-z][A-Za-z0-9+.-]*://.+$')",
     ["", "s3://b/p", "hf://org/model", "gs+x.y-z://a"], ["s3:/b", "://a", "1s3://a", "s3://", "s3://a\nb"]),
    ("self in ['trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue']",
     ["kueue.x-k8s.io/multikueue"], ["kueue.x-k8s.io/manager", ""]),
    ("has(self.lastUpdatedTime)", [{"lastUpdatedTime": "2025-01-01T00:00:00Z"}], [{"progressPercentage": 5}]),
    ("[has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)].filter(x, x).size() <= 1",
     [{}, {"torch": {}}, {"numNodes": 2, "mpi": {}}], [{"torch": {}, "jax": {}}]),
    ("self >= 1", [1, 8], [0, -1]),
    ("!self.exists(c, c == 'node')", [["sidecar"], []], [["sidecar", "node"]]),
    ("!(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder == 'InOrder' && "
     "self.replicatedJobs.exists(x, has(x.dependsOn)))",
     [{"startupPolicy": {"startupPolicyOrder": "AnyOrder"}, "replicatedJobs": [{"dependsOn": []}]},
      {"startupPolicy": {"startupPolicyOrder": "InOrder"}, "replicatedJobs": [{"name": "a"}]},
      {"replicatedJobs": [{"dependsOn": []}]}],
     [{"startupPolicy": {"startupPolicyOrder": "InOrder"}, "replicatedJobs": [{"name": "a"}, {"dependsOn": []}]}]),
    ("self.templates.all(t, !has(t.metadata.namespace) || size(t.metadata.namespace) == 0)",
     [{"templates": [{"metadata": {"name": "a"}}, {"metadata": {"namespace": ""}}]}],
     [{"templates": [{"metadata": {"name": "a"}}, {"metadata": {"namespace": "x"}}]}]),
])
def test_each_port(text: str, good: list, bad: list) -> None:
    for value in good:
        assert rule(text)(value) is True, value
    for value in bad:
        assert rule(text)(value) is False, value
    assert rule(text)(object()) is None  # a shape the rule cannot read: the structural schema reports it


def test_rules_are_found_where_the_schema_puts_them() -> None:
    schema = {"type": "object", "properties": {
        "items": {"type": "array", "items": {"type": "integer", "x-kubernetes-validations": [
            {"rule": "self >= 1", "message": "at least one"}, {"rule": "self == oldSelf", "message": "immutable"}]}},
        "map": {"type": "object", "additionalProperties": {"type": "array", "x-kubernetes-validations": [
            {"rule": "!self.exists(c, c == 'node')", "message": "no node"}]}},
        "plain": {"type": "string"}}}
    tree = rule_tree(schema)
    found = list(failures({"items": [3, 0, -2], "map": {"a": ["node"], "b": []}, "plain": "x"}, tree))
    assert found == [(("items", 1), "at least one", "self >= 1"), (("items", 2), "at least one", "self >= 1"),
                     (("map", "a"), "no node", "!self.exists(c, c == 'node')")]
    assert rule_tree({"type": "object", "properties": {"a": {"type": "string"}}}) is None


# ---------------------------------------------------------------- the default runtimes


def test_the_default_runtimes_are_the_generated_file() -> None:
    runtimes = default_runtimes()
    assert runtimes.defaults and "v2.3.0" in runtimes.source
    assert runtimes.names("ClusterTrainingRuntime") == [
        "deepspeed-distributed", "jax-distributed", "mlx-distributed", "torch-distributed", "torchtune-llama3.2-1b",
        "torchtune-llama3.2-3b", "torchtune-qwen2.5-1.5b", "xgboost-distributed"]
    data = (ROOT / "mpigen" / "data" / "trainer" / "v2.3.0" / "runtimes.json").read_bytes()
    entry = LOCK["data"]["trainer/v2.3.0/runtimes.json"]
    assert hashlib.sha256(data).hexdigest() == entry["sha256"], "runtimes.json was edited by hand: run make schemas"
    assert entry["kubectl"] == "v1.37.1" and LOCK["sources"][entry["source"]]["sum"].startswith("h1:")
    torch = runtimes.find("ClusterTrainingRuntime", "torch-distributed", "anywhere")
    assert torch["metadata"]["labels"]["trainer.kubeflow.org/webhook-validation"] == "disabled"
    images = {c["image"] for item in json.loads(data)["items"]
              for rj in item["spec"]["template"]["spec"]["replicatedJobs"]
              for c in rj["template"]["spec"]["template"]["spec"]["containers"] if "ghcr.io/kubeflow" in c["image"]}
    assert images and all(image.endswith(":v2.3.0") for image in images), "the overlay's image tags"


def test_runtimes_of_a_cluster_are_looked_up_by_kind_namespace_and_name() -> None:
    mine = {"apiVersion": API, "kind": "TrainingRuntime", "metadata": {"name": "torch", "namespace": "research"}}
    cluster = {"apiVersion": API, "kind": "ClusterTrainingRuntime", "metadata": {"name": "torch"}}
    runtimes = runtimes_from([mine, cluster, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}},
                              {"apiVersion": API, "kind": "TrainingRuntime", "metadata": {}}], "cluster.yaml")
    assert not runtimes.defaults and len(runtimes.objects) == 2
    assert runtimes.find("TrainingRuntime", "torch", "research") is mine
    assert runtimes.find("TrainingRuntime", "torch", "other") is None
    assert runtimes.find("TrainingRuntime", "torch", None) is None  # the job's namespace: default
    assert runtimes.find("ClusterTrainingRuntime", "torch", "any") is cluster


# ---------------------------------------------------------------- runtime Info


def job(**spec) -> dict:
    return {"apiVersion": API, "kind": "TrainJob", "metadata": {"name": "j"},
            "spec": {"runtimeRef": {"name": "torch-distributed"}, **spec}}


def patch(*rjobs, manager="example.com/m", annotations=None) -> dict:
    template: dict = {"spec": {"replicatedJobs": list(rjobs)}}
    if annotations:
        template["metadata"] = {"annotations": annotations}
    return {"manager": manager, "trainingRuntimeSpec": {"template": template}}


def pod_patch(name: str, **pod) -> dict:
    return {"name": name, "template": {"spec": {"template": {"spec": pod}}}}


TORCH = default_runtimes().find("ClusterTrainingRuntime", "torch-distributed")
TUNE = default_runtimes().find("ClusterTrainingRuntime", "torchtune-llama3.2-1b")


def test_patches_merge_as_a_strategic_merge_patch() -> None:
    """Keyed lists merge by key; what the runtime lacks is added before its items (apimachinery's
    order); replicated jobs go back to the runtime's order, an added one counting as its first."""
    spec = merge_runtime_patches(job(runtimePatches=[
        patch(pod_patch("node", containers=[{"name": "node", "volumeMounts": [{"name": "cache", "mountPath": "/c"}]}],
                        nodeSelector={"a": "b"}),
              pod_patch("model-initializer", containers=[{"name": "model-initializer", "volumeMounts": [
                  {"name": "other", "mountPath": "/workspace"}]}]),
              {"name": "extra"})]), copy.deepcopy(TUNE["spec"]["template"]["spec"]))
    names = [j["name"] for j in spec["replicatedJobs"]]
    # the added job and the runtime's first both sort at 0 (Trainer's webhook refuses the patch anyway:
    # trainjob-patch-target-missing); the others keep the runtime's order
    assert set(names[:2]) == {"extra", "dataset-initializer"} and names[2:] == ["model-initializer", "node"]
    jobs = {j["name"]: j for j in spec["replicatedJobs"]}
    node = jobs["node"]["template"]["spec"]["template"]["spec"]
    assert node["nodeSelector"] == {"a": "b"}
    assert [m["name"] for m in node["containers"][0]["volumeMounts"]] == ["cache", "initializer"]
    model = jobs["model-initializer"]["template"]["spec"]["template"]["spec"]["containers"][0]
    assert model["volumeMounts"] == [{"mountPath": "/workspace", "name": "other"}]  # merged by mountPath
    assert TUNE["spec"]["template"]["spec"]["replicatedJobs"][0]["name"] == "dataset-initializer"  # not modified


def test_resources_per_node_merge_into_the_trainer_node_container() -> None:
    info = runtime_info(job(trainer={"resourcesPerNode": {"requests": {"cpu": "8"}, "limits": {"nvidia.com/gpu": 1}}}),
                        TUNE)
    pods = {rjob["name"]: pod_spec_of(rjob) for rjob in info.jobset_spec["replicatedJobs"]}
    assert pods["node"]["containers"][0]["resources"] == {"limits": {"nvidia.com/gpu": "1"}, "requests": {"cpu": "8"}}
    assert "resources" not in pods["model-initializer"]["containers"][0]
    assert info.pod_set_by_name("node").ancestor == "trainer"


# ---------------------------------------------------------------- the webhooks


def problems(trainjob: dict, runtime: dict | None = TORCH, priority_classes=None) -> list[tuple[str, str]]:
    from mpigen.diagnostics import format_path

    return [(format_path(path), message) for path, message in webhook_problems(trainjob, runtime, priority_classes)]


def runtime_problems(runtime: dict) -> list[tuple[tuple, str]]:
    """The runtime webhook's problems, at paths of the runtime."""
    return [(path[1:], message) for path, message in runtime_problems_of(runtime)]


def test_runtime_webhook() -> None:
    runtime = copy.deepcopy(TUNE)
    assert runtime_problems(runtime) == []  # labelled webhook-validation: disabled
    del runtime["metadata"]["labels"]["trainer.kubeflow.org/webhook-validation"]
    assert runtime_problems(runtime) == []
    jobs = runtime["spec"]["template"]["spec"]["replicatedJobs"]
    jobs[0]["replicas"] = 3
    jobs[1]["template"]["spec"]["template"]["spec"]["containers"][0]["name"] = "model"
    jobs[2]["template"]["metadata"]["labels"]["trainer.kubeflow.org/trainjob-ancestor-step"] = "other"
    jobs[2]["replicas"] = 2  # not an ancestor: not checked
    found = [(path, message.split(": ", 1)[1]) for path, message in runtime_problems(runtime)]
    assert found == [
        (("spec", "template", "spec", "replicatedJobs", 0, "replicas"), '3: always must be 1'),
        (("spec", "template", "spec", "replicatedJobs", 1, "template", "spec", "template", "spec", "containers"),
         '["model"]: must contain the required container for the ancestor: model-initializer; name the container '
         "that runs the model-initializer step 'model-initializer' (Trainer puts the TrainJob's "
         "spec.initializer.model (storageUri, env) there)")]


def test_unsupported_runtime_kind() -> None:
    assert problems(job(runtimeRef={"name": "x", "kind": "JobSet"}), None) == [
        ("spec.runtimeRef", "unsupported runtime: JobSet.trainer.kubeflow.org")]
    assert problems(job(runtimeRef={"name": "x", "apiGroup": "example.com"}), None) == [
        ("spec.runtimeRef", "unsupported runtime: ClusterTrainingRuntime.example.com")]
    assert problems(job(runtimeRef={"name": "x", "kind": "TrainingRuntime"}), None) == []


def test_initializers_need_their_jobs_containers_and_volume() -> None:
    assert problems(job(initializer={"model": {"storageUri": "hf://m"}})) == [
        ("spec.runtimeRef", "must have model-initializer job when trainJob is configured with input modelConfig")]
    assert problems(job(initializer={"dataset": {}, "model": {}}), TUNE) == []
    no_mount = copy.deepcopy(TUNE)
    del no_mount["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
        "containers"][0]["volumeMounts"]
    assert problems(job(initializer={"dataset": {}}), no_mount) == [
        ("spec.runtimeRef", "must have volumeMount with name - initializer in container dataset-initializer of the "
                            "dataset-initializer job")]
    # a patch can add the mount back: the webhook reads the merged template
    fixed = job(initializer={"dataset": {}}, runtimePatches=[patch(pod_patch("dataset-initializer", containers=[
        {"name": "dataset-initializer", "volumeMounts": [{"name": "initializer", "mountPath": "/workspace"}]}]))])
    assert problems(fixed, no_mount) == []


def test_runtime_patches() -> None:
    bad = job(runtimePatches=[patch(pod_patch("node", containers=[{"name": "node", "env": [{"name": "A"}]}]),
                                    manager="Example.com/x"),
                              patch(manager="example.com"), patch(pod_patch("nodes"), manager="a.io/b c")])
    assert problems(bad) == [
        ("spec.runtimePatches[0].manager", 'Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist '
         "of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
         "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*"
         "[a-z0-9])?)*')"),
        ("spec.runtimePatches", "must not have envs for the dataset-initializer, model-initializer, node containers"),
        ("spec.runtimePatches[1].manager", 'Invalid value: "example.com": must be a domain-prefixed path (such as '
                                           '"acme.io/foo")'),
        ("spec.runtimePatches[2].manager", 'Invalid value: "b c": Invalid path (regex used for validation is '
                                           "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')")]


def test_reserved_environment_by_framework() -> None:
    env = [{"name": n} for n in ("PET_NODE_RANK", "OMPI_MCA_plm_rsh_args", "DMLC_TASK_ID", "OK")]
    ds = default_runtimes().find("ClusterTrainingRuntime", "deepspeed-distributed")
    xgb = default_runtimes().find("ClusterTrainingRuntime", "xgboost-distributed")
    assert problems(job(trainer={"env": env})) == [
        ("spec.trainer.env", "must not have reserved envs, invalid envs configured: [PET_NODE_RANK]")]
    assert problems(job(trainer={"env": env}), ds) == [
        ("spec.trainer.env", "must not have reserved envs, invalid envs configured: [OMPI_MCA_plm_rsh_args]")]
    assert problems(job(trainer={"env": env}), xgb) == [
        ("spec.trainer.env[2]", "Forbidden: DMLC_TASK_ID is reserved for the XGBoost runtime")]
    assert problems(job(trainer={"env": env}), default_runtimes().find("ClusterTrainingRuntime", "jax-distributed")) == []


def test_mpi_launcher_as_node_needs_both_jobs() -> None:
    ds = copy.deepcopy(default_runtimes().find("ClusterTrainingRuntime", "deepspeed-distributed"))
    assert problems(job(trainer={"numNodes": 4}), ds) == []
    ds["spec"]["template"]["spec"]["replicatedJobs"] = ds["spec"]["template"]["spec"]["replicatedJobs"][1:]
    assert problems(job(trainer={"numNodes": 4}), ds) == [
        ("spec.trainer.numNodes", "Invalid value: 4: must have 1 when MPI trainingRuntime with enabled "
                                  "runLauncherAsNode does not have either launcher and node")]
    assert problems(job(trainer={"numNodes": 1}), ds) == []


def test_torch_env_injection_targets() -> None:
    runtime = copy.deepcopy(TORCH)
    runtime["spec"]["mlPolicy"]["torch"] = {"envInjection": {"targets": [{"jobName": "node", "containerNames": ["pre"]}]}}
    assert problems(job(), runtime) == [
        ("spec.runtimeRef", "envInjection target podSet 'node' container 'pre' not found in runtime template")]
    # the init container may come from a runtime patch: the check reads the merged template
    assert problems(job(runtimePatches=[patch(pod_patch("node", initContainers=[{"name": "pre"}]))]), runtime) == []


def test_torchtune() -> None:
    tune = {"command": ["tune", "run"]}
    assert problems(job(runtimeRef={"name": "torchtune-llama3.2-1b"}, trainer=tune), TUNE) == []
    assert problems(job(runtimeRef={"name": "torchtune-llama3.2-1b"},
                        trainer={**tune, "numNodes": 2, "args": ["model.lora_attn_modules=[q_proj]",
                                                                 "output_dir=/tmp", "batch_size=2"]}), TUNE) == [
        ("spec.trainer.numNodes", "Invalid value: 2: must be 1 for llama3_2/1B model"),
        ("spec.trainer.numNodes", "Invalid value: 2: LoRA fine-tuning is not supported for multi-node training in "
                                  "TorchTune"),
        ("spec.trainer.args[1]", "Invalid value: \"output_dir=/tmp\": must not set immutable config 'output_dir' in "
                                 "trainer args; it is managed by the runtime")]
    # QLoRA on 2 GPUs (the runtime's limit): distributed QLoRA, which the 1B model does not support
    qlora = {**tune, "args": ["model.quantize_base=True"]}
    assert [p for p, _ in problems(job(runtimeRef={"name": "torchtune-llama3.2-1b"}, trainer=qlora), TUNE)] == [
        "spec.trainer.numProcPerNode", "spec.trainer.resourcesPerNode"]
    one_gpu = {**qlora, "resourcesPerNode": {"limits": {"nvidia.com/gpu": 1}}}
    assert problems(job(runtimeRef={"name": "torchtune-llama3.2-1b"}, trainer=one_gpu), TUNE) == []
    dora = {**tune, "args": ["model.quantize_base=True", "model.use_dora=true"]}
    assert problems(job(runtimeRef={"name": "torchtune-llama3.2-1b"}, trainer=dora), TUNE) == []
    assert problems(job(runtimeRef={"name": "torchtune-qwen2.5-1.5b"}, trainer=one_gpu), TUNE) == [
        ("spec.runtimeRef.name", 'Invalid value: "torchtune-qwen2.5-1.5b": QLoRA is not supported for '
                                 "qwen2_5/1.5B model")]
    assert problems(job(runtimeRef={"name": "my-tune"}, trainer=tune), TUNE) == [
        ("spec.runtimeRef.name", 'Invalid value: "my-tune": must have a supported pretrained model, invalid model '
                                 "configured: ")]


def flux_runtime() -> dict:
    runtime = copy.deepcopy(TORCH)
    runtime["spec"]["mlPolicy"] = {"numNodes": 1, "flux": {"numProcPerNode": 1}}
    return runtime


def test_flux() -> None:
    assert problems(job(), flux_runtime()) == []
    assert problems(job(trainer={"numProcPerNode": 0}), flux_runtime()) == [
        ("spec.trainer.numProcPerNode", "Invalid value: 0: must be greater than or equal to 1 for Flux TrainJob")]
    assert problems(job(runtimePatches=[patch(pod_patch("node", initContainers=[{"name": "flux-installer"}]))]),
                    flux_runtime()) == [
        ("spec.trainer.initContainers", "Invalid value: \"flux-installer\": InitContainer 'flux-installer' is reserved")]


def volcano_runtime(*classes: str | None, queue: str | None = None) -> dict:
    runtime = copy.deepcopy(TORCH)
    runtime["spec"]["podGroupPolicy"] = {"volcano": {}}
    if queue is not None:
        runtime["spec"]["template"]["metadata"] = {"annotations": {"scheduling.volcano.sh/queue-name": queue}}
    jobs = runtime["spec"]["template"]["spec"]["replicatedJobs"]
    base = jobs[0]
    jobs[:] = []
    for i, cls in enumerate(classes):
        rj = copy.deepcopy(base)
        rj["name"] = f"job{i}"
        if cls is not None:
            rj["template"]["spec"]["template"]["spec"]["priorityClassName"] = cls
        jobs.append(rj)
    return runtime


def test_volcano() -> None:
    assert problems(job(), volcano_runtime("a", queue="")) == [
        ('spec.annotations["scheduling.volcano.sh/queue-name"]', 'Invalid value: "": Volcano queue name must not be '
                                                                 "empty")]
    assert problems(job(runtimePatches=[patch(annotations={"scheduling.volcano.sh/queue-name": "q"})]),
                    volcano_runtime(queue="")) == []
    assert problems(job(), volcano_runtime("a", "b")) == []  # no cluster classes given: not checked
    missing = problems(job(), volcano_runtime("a", None, "b"), {"a": 10})
    assert missing == [("spec.templateSpec.priorityClassName", 'Invalid value: "b": PriorityClass "b" doesn\'t exist: '
                                                               'priorityclasses.scheduling.k8s.io "b" not found')]
    # a system class ends the check: the classes after it are not looked up
    assert problems(job(), volcano_runtime("a", "system-node-critical", "b"), {"a": 10}) == []


# ---------------------------------------------------------------- rules that read the cluster's runtimes


def lint(obj: dict, runtimes=None, code: str | None = None) -> list[tuple[str, str]]:
    from mpigen.diagnostics import format_path

    options = LintOptions(trainer_runtimes=runtimes)
    return [(c, format_path(p)) for p, c, _, _ in lint_object(obj, options) if code is None or c == code]


def gang_runtime(kind: str = "ClusterTrainingRuntime", namespace: str | None = None) -> dict:
    runtime = copy.deepcopy(TORCH)
    runtime["kind"] = kind
    runtime["metadata"] = {"name": "torch-gang", **({"namespace": namespace} if namespace else {})}
    runtime["spec"]["podGroupPolicy"] = {"coscheduling": {"scheduleTimeoutSeconds": 60}}
    return runtime


def test_runtime_missing_reads_the_cluster_runtimes() -> None:
    cluster = runtimes_from([gang_runtime(), gang_runtime("TrainingRuntime", "research")], "the runtimes of cluster.yaml")
    on_default = job(runtimeRef={"name": "torch-distributed"})
    assert lint(on_default, None, "trainjob-runtime-missing") == []
    assert lint(on_default, cluster, "trainjob-runtime-missing") == [("trainjob-runtime-missing", "spec.runtimeRef.name")]
    assert lint(job(runtimeRef={"name": "torch-gang"}), cluster, "trainjob-runtime-missing") == []
    namespaced = job(runtimeRef={"name": "torch-gang", "kind": "TrainingRuntime"})
    assert lint(namespaced, cluster, "trainjob-runtime-missing") == [("trainjob-runtime-missing", "spec.runtimeRef.name")]
    namespaced["metadata"]["namespace"] = "research"
    assert lint(namespaced, cluster, "trainjob-runtime-missing") == []
    message = next(m for _, c, _, m in lint_object(on_default, LintOptions(trainer_runtimes=cluster)))
    assert "the runtimes of cluster.yaml" in message and "known: torch-gang" in message


def test_limit_only_resources_of_a_trainjob_need_a_gang_runtime() -> None:
    cluster = runtimes_from([gang_runtime()], "cluster.yaml")
    limits = job(runtimeRef={"name": "torch-gang"}, trainer={"resourcesPerNode": {
        "requests": {"cpu": "8"}, "limits": {"cpu": "8", "nvidia.com/gpu": 4}}})
    assert lint(limits, cluster, "trainer-limit-only-resource") == [
        ("trainer-limit-only-resource", 'spec.trainer.resourcesPerNode.limits["nvidia.com/gpu"]')]
    limits["spec"]["trainer"]["resourcesPerNode"]["requests"]["nvidia.com/gpu"] = 4
    assert lint(limits, cluster, "trainer-limit-only-resource") == []
    # the request may come from the runtime's own node container: the merge keeps it
    runtime = gang_runtime()
    runtime["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0][
        "resources"] = {"requests": {"nvidia.com/gpu": 4}}
    only_limit = job(runtimeRef={"name": "torch-gang"}, trainer={"resourcesPerNode": {"limits": {"nvidia.com/gpu": 4}}})
    assert lint(only_limit, runtimes_from([runtime], "c"), "trainer-limit-only-resource") == []
    assert lint(only_limit, None, "trainer-limit-only-resource") == []  # torch-gang is not a default: nothing to read


def test_patch_targets_are_the_runtime_before_the_merge() -> None:
    cluster = runtimes_from([gang_runtime()], "cluster.yaml")
    bad = job(runtimeRef={"name": "torch-gang"}, runtimePatches=[patch(pod_patch("node", initContainers=[{"name": "x"}]))])
    assert lint(bad, cluster, "trainjob-patch-target-missing") == [
        ("trainjob-patch-target-missing",
         "spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec"
         ".initContainers[0].name")]
    assert lint(bad, None, "trainjob-patch-target-missing") == []  # runtime unknown: not checked


ODD = ("text", 7, True, [], {}, [None], None)


@pytest.mark.parametrize("case", ["trainjob", "runtimes"])
def test_the_webhooks_survive_odd_shapes(case: str) -> None:
    """Every node of the invalid cases replaced by a value of another type: the ports (run on what
    the schema may already refuse) return problems, never raise."""
    import yaml

    from mpigen.validation import ValidateOptions, prune_nulls
    from mpigen.validation.engine import trainer_admission

    text = (ROOT / "tests" / "cases" / "validate" / "trainer" / "invalid" / f"{case}.yaml").read_text("utf-8")
    for obj in yaml.safe_load_all(text):
        runtime = obj if obj["kind"] != "TrainJob" else TUNE
        for where in list(subpaths(obj))[1:]:
            for value in ODD:
                odd = prune_nulls(replaced(obj, where, value))
                if odd.get("kind") == "TrainJob":
                    for found in (webhook_problems(odd, runtime, {"a": 1}),
                                  webhook_problems(odd, volcano_runtime("a", "b", queue=""), {})):
                        assert all(isinstance(message, str) for _, message in found)
                    lint_object(odd, LintOptions(trainer_runtimes=runtimes_from([gang_runtime()], "c")))
                elif isinstance(odd.get("spec"), dict):
                    if odd.get("kind") in ("TrainingRuntime", "ClusterTrainingRuntime"):  # as validate calls it
                        trainer_admission(odd, ValidateOptions())
                    webhook_problems(job(), odd)
                    lint_object(odd)
