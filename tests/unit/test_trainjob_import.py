"""mpigen import manifest of a Kubeflow Trainer v2.3.0 TrainJob (mpigen.importers.manifest_trainjob):
the shortest spec that builds back to what Trainer creates for it, its runtime found as validate
finds it, and what cannot be carried said at its path.

Each import here that carries everything is also built and compared with the manifest
(mpigen.importers.roundtrip.trainjob_differences: the runtime snapshot, PodGroup, MPI objects and
JobSet explain shows for each).
"""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from mpigen.diagnostics import Severity
from mpigen.emit.yaml_emit import dump
from mpigen.importers.manifest import ImportOptions, Imported, import_job
from mpigen.importers.roundtrip import trainjob_differences
from mpigen.load.trainer_runtimes import default_runtimes, with_runtimes
from mpigen.load.yaml_loader import load_text
from mpigen.main import cli
from mpigen.pipeline import Options, compile_specs
from mpigen.trainer.runtimes import runtime_ref
from mpigen.validation import prune_nulls

TORCH = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: ddp
  namespace: vision
spec:
  runtimeRef: {name: torch-distributed}
  trainer:
    numNodes: 4
    command: [torchrun, train.py]
    env:
    - {name: NCCL_DEBUG, value: WARN}
    resourcesPerNode:
      requests: {cpu: "2", memory: 8Gi}
      limits: {cpu: "4", memory: 8Gi}
  runtimePatches:
  - manager: example.com/platform
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  metadata:
                    labels: {team: vision}
                  spec:
                    nodeSelector: {pool: gpu}
                    serviceAccountName: trainer
                    volumes:
                    - name: data
                      persistentVolumeClaim: {claimName: imagenet}
                    containers:
                    - name: node
                      volumeMounts: [{name: data, mountPath: /data}]
"""

VOLCANO_RUNTIME = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch-volcano}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  podGroupPolicy: {volcano: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                schedulerName: volcano
                containers: [{name: node, image: pytorch/pytorch:2.7.1}]
"""


def documents(text: str) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    docs = [prune_nulls(d) for d in yaml.safe_load_all(text) if d]
    job = next(d for d in docs if d["kind"] == "TrainJob")
    return job, tuple(d for d in docs if d is not job)


def imported(text: str, cluster: str = "", alone: bool = False) -> Imported:
    """The import of the TrainJob of ``text`` (``cluster``: runtimes the cluster has; ``alone``:
    without the other objects of the file, its runtimes the cluster's), checked when it carries
    everything: the spec builds, and Trainer creates the same for it."""
    job, beside = documents(text)
    runtimes = with_runtimes(default_runtimes(), [*beside, *(d for d in yaml.safe_load_all(cluster) if d)])
    result = import_job(job, ImportOptions(beside=() if alone else beside, runtimes=runtimes))
    if any(f[2] is Severity.ERROR for f in result.findings):
        return result
    built = compile_specs(load_text(dump(result.spec), "spec.yaml"), "spec.yaml", Options(trainer_runtimes=runtimes))
    assert built.ok, [d.format() for d in built.diagnostics]
    _, kind, name = runtime_ref(job)
    runtime = runtimes.find(kind, name, job["metadata"].get("namespace"))
    assert trainjob_differences(job, runtime, built.jobs[0].base, runtimes) == []
    return result


def losses(text: str, cluster: str = "") -> list[tuple[str, str]]:
    return [(".".join(map(str, path)), code) for path, code, severity, _ in imported(text, cluster).findings
            if severity is Severity.ERROR]


def test_the_trainjob_s_fields_and_its_runtime_patch() -> None:
    result = imported(TORCH)
    assert result.findings == [] and result.spec["metadata"] == {"name": "ddp", "namespace": "vision"}
    spec = result.spec["spec"]
    assert (spec["framework"], spec["runtime"], spec["workers"]) == ("pytorch", "torch-distributed", 3)
    assert "image" not in spec  # the runtime's
    assert spec["command"] == ["torchrun", "train.py"] and spec["env"] == {"NCCL_DEBUG": "WARN"}
    assert spec["labels"] == {"team": "vision"} and spec["nodeSelector"] == {"pool": "gpu"}
    assert spec["serviceAccountName"] == "trainer"
    assert spec["volumes"] == [{"name": "data", "claimName": "imagenet", "mountPath": "/data"}]
    # requests below the limits: a patch of the node container, which mpigen writes as resourcesPerNode
    assert spec["podTemplatePatch"] == {"spec": {"containers": [{"name": "node", "resources": {
        "requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"cpu": "4", "memory": "8Gi"}}}]}}
    assert "resources" not in spec


def test_requests_equal_to_the_limits_are_the_spec_s_resources() -> None:
    text = TORCH.replace('requests: {cpu: "2", memory: 8Gi}', 'requests: {cpu: "4", memory: 8Gi, nvidia.com/gpu: "1"}') \
        .replace('limits: {cpu: "4", memory: 8Gi}', 'limits: {cpu: "4", memory: 8Gi, nvidia.com/gpu: "1"}')
    spec = imported(text).spec["spec"]
    assert spec["resources"] == {"cpu": "4", "memory": "8Gi", "gpu": 1} and "podTemplatePatch" not in spec


def test_quantities_are_read_as_trainer_reads_them() -> None:
    text = TORCH.replace('requests: {cpu: "2", memory: 8Gi}', "requests: {cpu: 4, memory: 8192Mi}")
    spec = imported(text).spec["spec"]
    assert spec["resources"] == {"cpu": "4", "memory": "8Gi"} and "podTemplatePatch" not in spec


def test_kueue_labels_are_the_kueue_gang_and_suspend_is_kueue_s() -> None:
    text = TORCH.replace("  namespace: vision\n", "  namespace: vision\n  labels:\n    kueue.x-k8s.io/queue-name: "
                         "team\n    kueue.x-k8s.io/priority-class: high\n").replace("spec:\n  runtimeRef",
                                                                                  "spec:\n  suspend: true\n  runtimeRef")
    result = imported(text)
    assert result.spec["spec"]["scheduling"] == {"gang": "kueue", "queue": "team", "priorityClass": "high"}
    assert "labels" not in result.spec["metadata"]
    assert [(p, c) for p, c, _, _ in result.findings] == [(("spec", "suspend"), "import-dropped")]


def test_a_runtime_of_the_file_is_named_as_it_is_and_its_volcano_queue_is_the_spec_s() -> None:
    job = TORCH.replace("runtimeRef: {name: torch-distributed}", "runtimeRef: {name: torch-volcano}").replace(
        "      template:\n        spec:\n          replicatedJobs:",
        "      template:\n        metadata:\n          annotations: {scheduling.volcano.sh/queue-name: research}\n"
        "        spec:\n          replicatedJobs:")
    result = imported(VOLCANO_RUNTIME + "---\n" + job)
    assert result.spec["spec"]["runtime"] == "torch-volcano" and result.consumed == []
    assert result.spec["spec"]["scheduling"] == {"queue": "research"}
    # on a runtime without a volcano podGroupPolicy, the annotation is the JobSet's own: lost
    assert losses(job.replace("name: torch-volcano", "name: torch-distributed")) == [
        ("spec.runtimePatches.0.trainingRuntimeSpec.template.metadata.annotations.scheduling.volcano.sh/queue-name",
         "import-lost")]


def test_the_copy_mpigen_writes_is_read_back_as_the_settings_that_write_it() -> None:
    spec = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {name: gpt, namespace: research}
spec:
  framework: mpi
  runtime: deepspeed-distributed
  command: [mpirun, python, train.py]
  workers: 2
  resources: {gpu: 8}
  hostNetwork: true
  sidecars: [{name: logs, image: fluent/fluent-bit:3.1.9}]
  scheduling: {gang: volcano, queue: research, priorityClass: gpu-training}
  roles:
    launcher: {env: {ONLY_HERE: "1"}}
    node: {podTemplatePatch: {spec: {terminationGracePeriodSeconds: 300}}}
"""
    built = compile_specs(load_text(spec, "gpt.yaml"), "gpt.yaml", Options())
    assert built.ok
    text = "---\n".join(dump(o) for o in built.jobs[0].base)
    result = imported(text)
    assert result.findings == [] and [o["kind"] for o in result.consumed] == ["TrainingRuntime"]
    out = result.spec["spec"]
    assert out["runtime"] == "deepspeed-distributed" and out["hostNetwork"] is True
    assert out["scheduling"] == {"gang": "volcano", "priorityClass": "gpu-training", "queue": "research"}
    assert out["sidecars"] == [{"name": "logs", "image": "fluent/fluent-bit:3.1.9"}]
    assert out["roles"] == {"launcher": {"env": {"ONLY_HERE": "1"}},
                            "node": {"podTemplatePatch": {"spec": {"terminationGracePeriodSeconds": 300}}}}
    # the TrainJob alone, its copy the cluster's: the spec names the copy as it is
    alone = imported(text, cluster=dump(built.jobs[0].base[0]), alone=True)
    assert alone.spec["spec"]["runtime"] == {"name": "gpt", "kind": "TrainingRuntime"} and alone.findings == []


def test_a_trainingruntime_that_is_no_copy_mpigen_writes_is_named_as_it_is() -> None:
    runtime = VOLCANO_RUNTIME.replace("ClusterTrainingRuntime\nmetadata: {name: torch-volcano}",
                                      "TrainingRuntime\nmetadata: {name: ddp, namespace: vision}")
    job = TORCH.replace("runtimeRef: {name: torch-distributed}", "runtimeRef: {name: ddp, kind: TrainingRuntime}")
    result = imported(runtime + "---\n" + job)
    assert result.spec["spec"]["runtime"] == {"name": "ddp", "kind": "TrainingRuntime"} and result.consumed == []


@pytest.mark.parametrize("change, path", [
    (("          replicatedJobs:", "        metadata:\n          labels: {team: x}\n        spec:\n          replicatedJobs:"),
     "spec.runtimePatches.0.trainingRuntimeSpec.template.metadata.labels.team"),
    (("            template:\n              spec:\n                template:",
      "            template:\n              metadata:\n                labels: {a: b}\n              spec:\n"
      "                template:"),
     "spec.runtimePatches.0.trainingRuntimeSpec.template.spec.replicatedJobs.0.template.metadata.labels"),
    (("                    serviceAccountName: trainer", "                    terminationGracePeriodSeconds: 30"),
     "spec.runtimePatches.0.trainingRuntimeSpec.template.spec.replicatedJobs.0.template.spec.template.spec."
     "terminationGracePeriodSeconds"),
    (("    - {name: NCCL_DEBUG, value: WARN}", "    - name: POD\n      valueFrom: {fieldRef: {fieldPath: metadata.name}}"),
     "spec.trainer.env.0"),
    (("    - {name: NCCL_DEBUG, value: WARN}", "    - {name: Z, value: z}\n    - {name: A, value: a}"), "spec.trainer.env"),
    (("    - {name: NCCL_DEBUG, value: WARN}", "    - name: T\n      valueFrom: {secretKeyRef: {name: s, key: k, "
      "optional: true}}"), "spec.trainer.env.0"),
    (("  runtimeRef:", "  managedBy: kueue.x-k8s.io/multikueue\n  runtimeRef:"), "spec.managedBy"),
    (("runtimeRef: {name: torch-distributed}", "runtimeRef: {name: jax-distributed}"), "spec.runtimeRef.name"),
    (("                    labels: {team: vision}", "                    labels: {}"), "metadata.labels.team"),
])
def test_what_is_not_carried_is_said_at_its_path(change: tuple[str, str], path: str) -> None:
    text = TORCH.replace("  namespace: vision\n", "  namespace: vision\n  labels: {team: vision}\n") \
        if path == "metadata.labels.team" else TORCH
    assert change[0] in text
    assert losses(text.replace(*change)) == [(path, "import-lost")]


def test_mpi_runtimes_count_the_node_job_s_pods() -> None:
    text = TORCH.replace("torch-distributed", "deepspeed-distributed").replace("torchrun, train.py",
                                                                              "mpirun, python, train.py")
    assert imported(text).spec["spec"]["workers"] == 3  # the launcher is a node: numNodes 4, 3 node pods
    # numNodes 1: the mpi plugin still gives the node job max(1 - 1, 1) pods, as numNodes 2 does
    one = imported(text.replace("numNodes: 4", "numNodes: 1"))
    assert one.spec["spec"]["workers"] == 1
    assert [(p, c) for p, c, _, _ in one.findings] == [(("spec", "trainer", "numNodes"), "import-dropped")]


BARE = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: bare}
spec:
  runtimeRef: {name: RUNTIME}
"""

def _three_nodes() -> str:
    """deepspeed-distributed as a runtime of its own: mlPolicy.numNodes 3, the launcher no node, and
    a node job of 2 pods (its parallelism)."""
    runtime = copy.deepcopy(default_runtimes().find("ClusterTrainingRuntime", "deepspeed-distributed", None))
    runtime["metadata"] = {"name": "mpi-three"}
    runtime["spec"]["mlPolicy"]["numNodes"] = 3
    runtime["spec"]["mlPolicy"]["mpi"]["runLauncherAsNode"] = False
    node = next(r for r in runtime["spec"]["template"]["spec"]["replicatedJobs"] if r["name"] == "node")
    node["template"]["spec"]["parallelism"] = 2
    return dump(runtime)


def test_a_trainjob_without_trainer_numnodes() -> None:
    """Without trainer.numNodes Trainer keeps the counts its runtime gives: the MPI node job's pods
    are the spec's workers; a torch TrainJob without trainer gets none of the torch plugin's
    variables and port, which a spec's TrainJob (always with trainer) gets."""
    assert imported(BARE.replace("RUNTIME", "mlx-distributed")).spec["spec"]["workers"] == 1
    assert imported(BARE.replace("RUNTIME", "deepspeed-distributed")).findings == []
    three = imported(_three_nodes() + "---\n" + BARE.replace("RUNTIME", "mpi-three"))
    assert three.spec["spec"]["workers"] == 2 and three.findings == []  # the node job's parallelism
    assert losses(BARE.replace("RUNTIME", "torch-distributed")) == [("spec.trainer", "import-lost")]
    assert losses(BARE.replace("RUNTIME", "torchtune-llama3.2-1b")) == [("spec.trainer", "import-lost")]
    assert imported(BARE.replace("RUNTIME", "torch-distributed") + "  trainer: {}\n").findings == []


def test_runtime_patches_of_one_replicated_job_merge_as_trainer_merges_them() -> None:
    pod = {"metadata": {"labels": {"kueue.x-k8s.io/podset": "node"}},
           "spec": {"nodeSelector": {"flavor": "a100"}, "tolerations": [{"key": "gpu", "operator": "Exists"}],
                    "volumes": [{"name": "cache", "emptyDir": {}}],
                    "containers": [{"name": "node", "volumeMounts": [{"name": "cache", "mountPath": "/cache"}]}]}}
    entry = {"manager": "kueue.x-k8s.io/manager", "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": [
        {"name": "node", "template": {"spec": {"template": pod}}}]}}}}
    second = textwrap.indent(yaml.safe_dump([entry], sort_keys=False), "  ")  # TORCH's second runtime patch
    result = imported(TORCH + second)
    assert result.findings == []
    spec = result.spec["spec"]
    assert spec["nodeSelector"] == {"pool": "gpu", "flavor": "a100"}  # maps merge
    assert spec["tolerations"] == [{"key": "gpu", "operator": "Exists"}]
    assert spec["labels"] == {"kueue.x-k8s.io/podset": "node", "team": "vision"}
    # the later patch's volume first, as the strategic merge orders them (and Trainer's pods have them)
    assert spec["volumes"] == [{"name": "cache", "emptyDir": {}, "mountPath": "/cache"},
                               {"name": "data", "claimName": "imagenet", "mountPath": "/data"}]
    # what is lost is said in the patch that says it
    del pod["spec"]["tolerations"]
    pod["spec"]["terminationGracePeriodSeconds"] = 9
    second = textwrap.indent(yaml.safe_dump([entry], sort_keys=False), "  ")
    assert losses(TORCH + second) == [(
        "spec.runtimePatches.1.trainingRuntimeSpec.template.spec.replicatedJobs.0.template.spec.template.spec."
        "terminationGracePeriodSeconds", "import-lost")]


def test_an_initializer_s_storage_uri_is_its_storage_uri_variable() -> None:
    text = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tune}
spec:
  runtimeRef: {name: torchtune-llama3.2-1b}
  initializer:
    dataset: {storageUri: "hf://tatsu-lab/alpaca"}
    model:
      storageUri: hf://meta-llama/Llama-3.2-1B-Instruct
      env: [{name: TOKEN_FILE, value: /secrets/token}]
  trainer:
    numNodes: 1
    resourcesPerNode: {limits: {nvidia.com/gpu: "2"}, requests: {nvidia.com/gpu: "2"}}
"""
    roles = imported(text).spec["spec"]["roles"]
    assert roles == {"dataset-initializer": {"env": {"STORAGE_URI": "hf://tatsu-lab/alpaca"}},
                     "model-initializer": {"env": {"STORAGE_URI": "hf://meta-llama/Llama-3.2-1B-Instruct",
                                                   "TOKEN_FILE": "/secrets/token"}}}
    assert losses(text.replace("env: [{name: TOKEN_FILE", "env: [{name: ACCESS_FILE")) == [
        ("spec.initializer.model.storageUri", "import-lost")]
    assert losses(text.replace('dataset: {storageUri: "hf://tatsu-lab/alpaca"}', "dataset: {secretRef: {name: hf}}")) \
        == [("spec.initializer.dataset.secretRef", "import-lost")]


def run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["import", "manifest", *args], input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_the_command_finds_the_runtime_in_the_file_and_beside_it(tmp_path: Path) -> None:
    (tmp_path / "runtime.yaml").write_text(VOLCANO_RUNTIME, encoding="utf-8")
    job = tmp_path / "job.yaml"
    job.write_text(TORCH.replace("name: torch-distributed", "name: torch-volcano"), encoding="utf-8")
    code, out, err = run([str(job)])
    assert code == 0, err
    assert yaml.safe_load(out)["spec"]["runtime"] == "torch-volcano"
    both = tmp_path / "both" / "job.yaml"
    both.parent.mkdir()
    both.write_text(VOLCANO_RUNTIME + "---\n" + job.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run([str(both)])
    assert code == 0, err
    assert f"{both}:1:1: warning import-other-object trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime " \
           "torch-volcano is not imported: the spec names it (spec.runtime)" in err


def test_the_command_refuses_what_validate_refuses(tmp_path: Path) -> None:
    text = TORCH.replace("    - {name: NCCL_DEBUG, value: WARN}", "    - {name: PET_NNODES, value: '2'}")
    code, out, err = run(["-"], stdin=text)
    assert (code, out) == (1, "") and "error trainjob-invalid" in err


def test_the_command_says_what_a_trainjob_without_trainer_lacks() -> None:
    code, out, err = run(["-"], stdin=BARE.replace("RUNTIME", "torch-distributed"))
    assert (code, out) == (1, "") and "error import-lost" in err and "import-mismatch" not in err


def test_the_command_s_copy_is_consumed(tmp_path: Path) -> None:
    spec = ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: demo}\nspec:\n  framework: pytorch\n"
            "  runtime: torch-distributed\n  image: pytorch/pytorch:2.7.1\n  command: [torchrun, t.py]\n  workers: 1\n"
            "  scheduling: {gang: scheduler-plugins}\n")
    built = compile_specs(load_text(spec, "s.yaml"), "s.yaml", Options())
    code, out, err = run(["-"], stdin="---\n".join(dump(o) for o in built.jobs[0].base))
    assert code == 0, err
    assert "import-other-object" not in err
    assert yaml.safe_load(out)["spec"]["scheduling"] == {"gang": "scheduler-plugins"}
