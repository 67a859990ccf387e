"""mpigen import manifest: an MPIJob, PyTorchJob or TFJob manifest -> the shortest spec that builds back
to the same job (mpigen.importers.manifest), and the command around it (a TrainJob:
tests/unit/test_trainjob_import.py).

Each import here is also built and compared with the manifest (mpigen.importers.roundtrip): the
objects the operator creates for both are the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from mpigen.diagnostics import Severity
from mpigen.emit.yaml_emit import dump
from mpigen.importers.manifest import ImportOptions, Imported, import_job
from mpigen.importers.roundtrip import differences
from mpigen.load.yaml_loader import load_text
from mpigen.main import cli
from mpigen.pipeline import Options, compile_specs
from mpigen.validation import prune_nulls

PI = """apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: pi
spec:
  slotsPerWorker: 1
  runPolicy:
    cleanPodPolicy: Running
    ttlSecondsAfterFinished: 60
  sshAuthMountPath: /home/mpiuser/.ssh
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers:
          - image: mpioperator/mpi-pi:openmpi
            name: mpi-launcher
            securityContext: {runAsUser: 1000}
            command: [mpirun]
            args: [-n, "2", /home/mpiuser/pi]
            resources: {limits: {cpu: 1, memory: 1Gi}}
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - image: mpioperator/mpi-pi:openmpi
            name: mpi-worker
            securityContext: {runAsUser: 1000}
            command: [/usr/sbin/sshd]
            args: [-De, -f, /home/mpiuser/.sshd_config]
            resources: {limits: {cpu: 1, memory: 1Gi}}
"""

PYTORCH = """apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: ddp
  namespace: vision
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers:
          - name: pytorch
            image: pytorch/pytorch:2.3.1
            command: [torchrun, train.py]
            resources: {limits: {nvidia.com/gpu: "1", cpu: "4"}, requests: {nvidia.com/gpu: "1", cpu: "4"}}
    Worker:
      replicas: 3
      restartPolicy: OnFailure
      template:
        spec:
          nodeSelector: {pool: gpu}
          containers:
          - name: pytorch
            image: pytorch/pytorch:2.3.1
            command: [torchrun, train.py]
            resources: {limits: {nvidia.com/gpu: "1", cpu: "4"}, requests: {nvidia.com/gpu: "1", cpu: "4"}}
"""


def imported(text: str, **options: Any) -> Imported:
    """The import of the manifest, checked: the spec builds, and back to the same job."""
    job = prune_nulls(yaml.safe_load(text))
    result = import_job(job, ImportOptions(**options))
    if any(f[2] is Severity.ERROR for f in result.findings):
        return result
    built = compile_specs(load_text(dump(result.spec), "spec.yaml"), "spec.yaml", Options())
    assert built.ok, [d.format() for d in built.diagnostics]
    assert differences(job, built.jobs[0].base[0], result.gang, result.options) == []
    return result


def findings(text: str) -> list[tuple[str, str, Severity]]:
    return [(".".join(map(str, path)), code, severity) for path, code, severity, _ in imported(text).findings]


def test_mpi_operator_pi_example() -> None:
    """mpi-operator's examples/v2beta1/pi/pi.yaml: non-root SSH, the containers' own names, mpirun
    written as the command with its arguments, limits without requests (a patch)."""
    spec = imported(PI).spec["spec"]
    assert spec["command"] == ["mpirun"] and spec["args"] == ["-n", "2", "/home/mpiuser/pi"]
    assert spec["securityContext"] == {"runAsUser": 1000}
    assert spec["mpi"] == {"sshAuthMountPath": "/home/mpiuser/.ssh"}
    assert spec["runPolicy"] == {"ttlSecondsAfterFinished": 60}  # Running is mpigen's default too
    assert "slotsPerWorker" not in spec  # 1, what mpigen computes
    launcher, worker = spec["roles"]["launcher"], spec["roles"]["worker"]
    assert launcher["containerName"] == "mpi-launcher" and worker["containerName"] == "mpi-worker"
    assert worker["command"] == ["/usr/sbin/sshd"] and worker["args"] == ["-De", "-f", "/home/mpiuser/.sshd_config"]
    assert launcher["podTemplatePatch"] == {"spec": {"containers": [
        {"name": "mpi-launcher", "resources": {"limits": {"cpu": 1, "memory": "1Gi"}}}]}}


def test_roles_that_agree_are_job_wide_and_those_that_differ_per_role() -> None:
    spec = imported(PYTORCH).spec
    assert spec["metadata"] == {"name": "ddp", "namespace": "vision"}
    body = spec["spec"]
    assert body["resources"] == {"gpu": 1, "cpu": "4"} and body["workers"] == 3
    assert body["command"] == ["torchrun", "train.py"]
    assert body["roles"] == {"worker": {"nodeSelector": {"pool": "gpu"}}}
    assert body["runPolicy"] == {"cleanPodPolicy": "None"}  # the operator's default, not mpigen's
    assert "podTemplatePatch" not in body


def test_what_mpigen_writes_by_design_comes_back_as_the_manifest_says() -> None:
    """The Istio opt-out mpigen writes on every pod is not asked for again; another value is kept."""
    text = PYTORCH.replace("        spec:\n          nodeSelector",
                           "        metadata: {annotations: {sidecar.istio.io/inject: \"true\"}}\n"
                           "        spec:\n          nodeSelector")
    body = imported(text).spec["spec"]
    assert body["roles"]["worker"]["annotations"] == {"sidecar.istio.io/inject": "true"}
    assert "annotations" not in body


def test_mpigens_own_output_comes_back_short() -> None:
    """A job mpigen built imports to its spec's fields: the program under mpigen's mpirun line,
    shmSize and code sync, the gang."""
    source = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {name: bert, namespace: nlp}
spec:
  framework: mpi
  image: horovod/horovod:0.28.1
  command: [python, train.py]
  workers: 4
  resources: {gpu: 2, cpu: "8"}
  env: {NCCL_DEBUG: INFO}
  shmSize: 2Gi
  code: {git: {repository: https://github.com/example/bert.git, secret: bert-git}}
  scheduling: {gang: volcano, queue: nlp}
"""
    built = compile_specs(load_text(source, "bert.yaml"), "bert.yaml", Options())
    job = built.jobs[0].base[0]
    result = imported(dump(job))
    assert result.findings == []
    assert result.spec["spec"] == yaml.safe_load(source)["spec"] | {"resources": {"gpu": 2, "cpu": "8"}}


def test_a_gang_and_only_the_scheduling_values_that_change_the_pod_group() -> None:
    text = PYTORCH.replace("spec:\n  pytorchReplicaSpecs:", """spec:
  runPolicy:
    schedulingPolicy: {minAvailable: 4, queue: research, scheduleTimeoutSeconds: 60}
  pytorchReplicaSpecs:""").replace("        spec:\n          containers", "        spec:\n          schedulerName: volcano\n"
                                   "          containers", 1)
    result = imported(text)
    assert result.gang == "volcano"
    assert result.spec["spec"]["scheduling"] == {"gang": "volcano", "queue": "research"}  # 4: every pod, computed
    assert findings(text) == [("spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds", "import-dropped",
                               Severity.WARNING)]


def test_kueue_labels_are_the_kueue_gang() -> None:
    text = PYTORCH.replace("  namespace: vision\n", "  namespace: vision\n  labels: {kueue.x-k8s.io/queue-name: "
                           "team-a, team: a}\n").replace("spec:\n  pytorchReplicaSpecs:",
                                                         "spec:\n  runPolicy: {suspend: true}\n  pytorchReplicaSpecs:")
    result = imported(text)
    assert result.spec["metadata"]["labels"] == {"team": "a"}
    assert result.spec["spec"]["scheduling"] == {"gang": "kueue", "queue": "team-a"}
    assert ("spec.runPolicy.suspend", "import-dropped", Severity.WARNING) in findings(text)


@pytest.mark.parametrize("change, expected", [
    (("  pytorchReplicaSpecs:", "  elasticPolicy: {minReplicas: 1, maxReplicas: 3}\n  pytorchReplicaSpecs:"),
     ("spec.elasticPolicy", "import-lost", Severity.ERROR)),
    (("  pytorchReplicaSpecs:", "  nprocPerNode: gpu\n  pytorchReplicaSpecs:"),
     ("spec.nprocPerNode", "import-lost", Severity.ERROR)),
    (("      replicas: 3\n      restartPolicy: OnFailure", "      replicas: 3\n      restartPolicy: Never"),
     ("spec.pytorchReplicaSpecs.Worker.restartPolicy", "import-lost", Severity.ERROR)),
    (("  namespace: vision\n", "  namespace: vision\n  finalizers: [example.com/x]\n"),
     ("metadata.finalizers", "import-lost", Severity.ERROR)),
    (("  namespace: vision\n", "  namespace: vision\n  uid: 1f0c\n  resourceVersion: \"7\"\n"),
     ("metadata.uid", "import-dropped", Severity.WARNING)),
    (("        spec:\n          nodeSelector", "        spec:\n          restartPolicy: Always\n          nodeSelector"),
     ("spec.pytorchReplicaSpecs.Worker.template.spec.restartPolicy", "import-dropped", Severity.WARNING)),
    (("        spec:\n          nodeSelector", "        metadata: {name: x}\n        spec:\n          nodeSelector"),
     ("spec.pytorchReplicaSpecs.Worker.template.metadata.name", "import-lost", Severity.ERROR)),
])
def test_what_is_not_carried_is_said_at_its_path(change: tuple[str, str], expected: tuple) -> None:
    text = PYTORCH.replace(*change, 1)
    assert text != PYTORCH
    assert expected in findings(text)


def test_a_pytorchjob_without_a_master_is_lost() -> None:
    text = "\n".join(line for line in PYTORCH.splitlines() if line) \
        .split("    Master:")[0] + "    Worker:" + PYTORCH.split("    Worker:")[1]
    assert ("spec.pytorchReplicaSpecs", "import-lost", Severity.ERROR) in findings(text)


def test_env_the_spec_cannot_say_goes_into_the_patch() -> None:
    """A variable from the downward API, and variables out of name order (mpigen sorts them)."""
    text = PYTORCH.replace("            command: [torchrun, train.py]\n", """            command: [torchrun, train.py]
            env:
            - {name: B, value: "1"}
            - {name: POD, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
""")
    body = imported(text).spec["spec"]
    assert "env" not in body
    assert body["podTemplatePatch"]["spec"]["containers"][0]["env"][1] == {
        "name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}


def test_an_mpi_worker_without_a_command_runs_the_operators_sshd() -> None:
    text = PI.replace("            command: [/usr/sbin/sshd]\n            args: [-De, -f, /home/mpiuser/.sshd_config]\n", "")
    assert imported(text).spec["spec"]["roles"]["worker"]["command"] == ["/usr/sbin/sshd", "-De"]


def test_an_mpirun_line_of_mpigens_form_is_said_as_its_program() -> None:
    text = PI.replace("command: [mpirun]\n            args: [-n, \"2\", /home/mpiuser/pi]",
                      "command: [mpirun, -np, \"2\", -bind-to, none, -map-by, slot, -x, PATH, -x, LD_LIBRARY_PATH, "
                      "/home/mpiuser/pi]")
    body = imported(text).spec["spec"]
    assert body["command"] == ["/home/mpiuser/pi"] and "mpirun" not in body.get("mpi", {})
    other = PI.replace("command: [mpirun]\n            args: [-n, \"2\", /home/mpiuser/pi]",
                       "command: [/bin/launch.sh]")
    assert imported(other).spec["spec"]["mpi"]["mpirun"] is False


# ------------------------------------------------------------------------------ the command


def run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["import", "manifest", *args], input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_the_command_prints_the_spec(tmp_path: Path) -> None:
    file = tmp_path / "pi.yaml"
    file.write_text(PI, encoding="utf-8")
    code, out, err = run([str(file)])
    assert code == 0, err
    assert yaml.safe_load(out) == imported(PI).spec
    assert run(["-"], stdin=PI)[:2] == (0, out)


def test_errors_print_nothing_and_every_other_object_is_said(tmp_path: Path) -> None:
    file = tmp_path / "two.yaml"
    file.write_text(PI.replace("  name: pi\n", "  name: pi\n  finalizers: [x]\n") + "---\n"
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n" + PYTORCH, encoding="utf-8")
    code, out, err = run([str(file)])
    assert (code, out) == (1, "")
    assert f"{file}:5:15: error import-lost metadata.finalizers" in err
    assert f"{file}:36:1: warning import-other-object v1 ConfigMap is not imported" in err
    assert f"{file}:40:1: error import-second-job a second job (PyTorchJob ddp)" in err


def test_a_list_item_is_imported_at_its_lines(tmp_path: Path) -> None:
    items = "\n".join("  " + line if line else line for line in PYTORCH.replace("  name: ddp\n", "  name: ddp\n"
                                                                                 "  uid: x\n").splitlines())
    file = tmp_path / "list.yaml"
    file.write_text("apiVersion: v1\nkind: List\nitems:\n-" + items[1:] + "\n", encoding="utf-8")
    code, out, err = run([str(file)])
    assert code == 0, err
    assert f"{file}:8:10: warning import-dropped metadata.uid is not imported" in err
    assert yaml.safe_load(out)["metadata"]["name"] == "ddp"


def test_a_retired_api_version_is_migrated_first(tmp_path: Path) -> None:
    legacy = ("apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: old}\nspec:\n  slotsPerWorker: 1\n"
              "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n        spec:\n          "
              "containers: [{name: mpi, image: horovod/horovod:0.28.1, command: [mpirun, python, t.py]}]\n"
              "    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers: [{name: mpi, "
              "image: horovod/horovod:0.28.1}]\n")
    file = tmp_path / "old.yaml"
    file.write_text(legacy, encoding="utf-8")
    code, out, err = run([str(file)])
    assert code == 0, err
    assert "warning lossy-migration" in err
    assert yaml.safe_load(out)["spec"]["containerName"] == "mpi"


@pytest.mark.parametrize("text, message", [
    ("apiVersion: trainer.kubeflow.org/v1\nkind: TrainJob\nmetadata: {name: t}\nspec: {runtimeRef: {name: x}}\n",
     "error import-kind TrainJob trainer.kubeflow.org/v1: mpigen imports TrainJob trainer.kubeflow.org/v1alpha1"),
    ("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t}\nspec: {runtimeRef: {name: x}}\n",
     "error trainjob-runtime-missing"),  # validate's verdict: no import
    ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
     "error import-kind no MPIJob, PyTorchJob, TFJob or TrainJob"),
    ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: s}\nspec: {}\n",
     "error import-kind this is an mpigen spec already"),
    (PYTORCH.replace("replicas: 3", "replicas: -1"), "error"),  # validate's verdict: no import
])
def test_nothing_to_import(text: str, message: str) -> None:
    code, out, err = run(["-"], stdin=text)
    assert (code, out) == (1, ""), err
    assert message in err


def test_usage_errors_exit_2() -> None:
    code, out, err = run(["no/such/file.yaml"])
    assert (code, out) == (2, "") and "cannot read" in err
    assert run(["-", "--gang", "kube-batch"], stdin=PI)[0] == 2


def test_the_operators_gang_when_the_pod_templates_name_none() -> None:
    """schedulingPolicy is read only by an operator run with --gang-scheduling: without a gang on the
    pod templates it is not imported (a warning), with --gang it is the spec's gang."""
    text = PYTORCH.replace("spec:\n  pytorchReplicaSpecs:", "spec:\n  runPolicy:\n    schedulingPolicy: {queue: "
                           "research}\n  pytorchReplicaSpecs:")
    assert ("spec.runPolicy.schedulingPolicy.queue", "import-dropped", Severity.WARNING) in findings(text)
    with_gang = imported(text, gang="volcano")
    assert with_gang.findings == [] and with_gang.spec["spec"]["scheduling"] == {"gang": "volcano", "queue": "research"}
    code, out, err = run(["-", "--gang", "volcano"], stdin=text)
    assert code == 0, err
    assert yaml.safe_load(out)["spec"]["scheduling"] == {"gang": "volcano", "queue": "research"}


def test_a_scheduler_plugins_scheduler_named_by_the_pod_templates() -> None:
    text = PYTORCH.replace("        spec:\n          containers", "        metadata: {labels: {scheduling.x-k8s.io/"
                           "pod-group: ddp}}\n        spec:\n          schedulerName: coscheduler\n          containers")
    result = imported(text)
    assert result.spec["spec"]["scheduling"] == {"gang": "scheduler-plugins", "schedulerName": "coscheduler"}


def test_kube_batch_with_its_pod_group_beside() -> None:
    """The pods name kube-batch and their group, and the file holds kube-batch's PodGroup (as mpigen
    writes it): a spec's gang kube-batch, whose PodGroup the build writes again."""
    result = CliRunner().invoke(cli, ["build", str(Path(__file__).parents[2] / "specs" / "kube-batch-tfjob.yaml")])
    assert result.exit_code == 0, result.stderr
    code, out, err = run(["-"], stdin=result.stdout)
    assert code == 0 and "import-other-object" not in err, err
    assert yaml.safe_load(out)["spec"]["scheduling"] == {"gang": "kube-batch", "queue": "default"}
    without = result.stdout.split("\n---\n")[0] + "\n"  # the job alone: its pods' marks go into the spec as they are
    code, out, err = run(["-"], stdin=without)
    assert code == 0, err
    assert "scheduling" not in yaml.safe_load(out)["spec"]
