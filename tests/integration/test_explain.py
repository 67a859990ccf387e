"""``mpigen explain`` on specs and manifests."""

from __future__ import annotations

import json

import yaml

from tests.golden.cases import ROOT, run


def test_text_for_a_spec_names_every_decision() -> None:
    code, out, err = run(["explain", "specs/horovod-volcano.yaml"])
    assert code == 0, err
    assert "PodGroup scheduling.volcano.sh/v1beta1 tensorflow-benchmarks" in out
    assert "minMember: 3   queue: research   priorityClassName: high-priority" in out
    assert "minResources: cpu=8500m memory=33Gi nvidia.com/gpu=2" in out
    assert "tensorflow-benchmarks-worker-1.tensorflow-benchmarks.research.svc slots=1" in out
    assert "PodGroup by annotation scheduling.k8s.io/group-name: tensorflow-benchmarks" in out
    assert "OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile" in out
    # mpi-operator v0.8.2 (the default) sets the launcher Job's podReplacementPolicy; v0.8.0 did not
    replaced = "podReplacementPolicy Failed: a launcher pod is replaced only once it has failed"
    assert f"Launcher Job tensorflow-benchmarks-launcher ({replaced}, never while it terminates)" in out
    code, out, err = run(["explain", "specs/horovod-volcano.yaml", "--operator-version", "v0.8.0"])
    assert code == 0 and "Launcher Job tensorflow-benchmarks-launcher\n" in out and replaced not in out, err


def test_yaml_lists_every_object_and_matches_the_built_schedulingpolicy() -> None:
    code, out, err = run(["explain", "specs/scheduler-plugins-envs.yaml", "--env", "prod", "--format", "yaml"])
    assert code == 0, err
    objects = [o for o in yaml.safe_load_all(out) if o]
    kinds = [o["kind"] for o in objects]
    assert kinds.count("Pod") == 16 and kinds[-1] == "Job"
    group = next(o for o in objects if o["kind"] == "PodGroup")
    _, built, _ = run(["build", "specs/scheduler-plugins-envs.yaml", "--env", "prod"])
    policy = yaml.safe_load(built)["spec"]["runPolicy"]["schedulingPolicy"]
    assert group["spec"] == {"minMember": policy["minAvailable"], "minResources": policy["minResources"],
                             "scheduleTimeoutSeconds": policy["scheduleTimeoutSeconds"]}


def test_manifest_with_explicit_gang_and_cluster_domain(tmp_path) -> None:
    _, built, _ = run(["build", "specs/intel-mpi.yaml"])
    path = tmp_path / "job.yaml"
    path.write_text(built)
    code, out, err = run(["explain", str(path), "--gang", "scheduler-plugins", "--cluster-domain", "cluster.local"])
    assert code == 0, err
    assert "pi-intel-worker-0.pi-intel.default.svc.cluster.local:1" in out
    assert "PodGroup by label scheduling.x-k8s.io/pod-group: pi-intel" in out


def test_a_job_the_operator_rejects(tmp_path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text("apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: x}\nspec:\n"
                    "  mpiReplicaSpecs:\n    Launcher: {replicas: 2, template: {spec: {containers: [{name: a}]}}}\n")
    code, out, err = run(["explain", str(path)])
    assert code == 1 and "the operator rejects this MPIJob" in err


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_text_summarizes_a_long_hostfile_with_the_count_left_out(tmp_path) -> None:
    spec = (ROOT / "specs" / "horovod-volcano.yaml").read_text().replace("workers: 2\n", "workers: 5000\n")
    code, out, err = run(["explain", _write(tmp_path, "big.yaml", spec)])
    assert code == 0, err
    hosts = [line for line in out.splitlines() if ".tensorflow-benchmarks.research.svc slots=1" in line]
    assert [h.split(".")[0].strip() for h in hosts] == [
        "tensorflow-benchmarks-worker-0", "tensorflow-benchmarks-worker-1", "tensorflow-benchmarks-worker-2",
        "tensorflow-benchmarks-worker-3", "tensorflow-benchmarks-worker-4999"]
    assert "  ... 4995 more lines, same pattern ...\n" in out
    assert "Hostfile (/etc/mpi/hostfile in ConfigMap tensorflow-benchmarks-config, OpenMPI): 5000 line(s)" in out
    code, full, err = run(["explain", _write(tmp_path, "big.yaml", spec), "--format", "yaml"])
    config = next(o for o in yaml.safe_load_all(full) if o and o["kind"] == "ConfigMap")
    assert config["data"]["hostfile"].count("\n") == 5000  # the YAML stays complete


def test_operator_crash_in_a_manifest_is_at_the_priority_class(tmp_path) -> None:
    manifest = ("apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: pi}\nspec:\n"
                "  sshAuthMountPath: /root/.ssh\n  mpiReplicaSpecs:\n"
                "    Launcher:\n      replicas: 1\n      template: {spec: {containers: [{name: l, image: i}]}}\n"
                "    Worker:\n      replicas: 2\n      template:\n        spec:\n"
                "          priorityClassName: high\n          containers: [{name: w, image: i}]\n")
    path = _write(tmp_path, "job.yaml", manifest)
    code, _, err = run(["explain", path, "--gang", "scheduler-plugins", "--operator-version", "v0.4.0"])
    assert code == 1 and f"{path}:14:30: error operator-crash" in err, err
    assert err.rstrip().endswith("(spec.mpiReplicaSpecs.Worker.template.spec.priorityClassName)"), err


def test_operator_crash_in_an_environment_is_at_the_field_that_set_it(tmp_path) -> None:
    spec = (ROOT / "specs" / "horovod-volcano.yaml").read_text().replace("    priorityClass: high-priority\n", "")
    spec += "  environments:\n    prod:\n      scheduling:\n        priorityClass: urgent\n"
    path = _write(tmp_path, "env.yaml", spec)
    assert run(["explain", path, "--gang", "scheduler-plugins", "--operator-version", "v0.4.0"])[0] == 0
    code, _, err = run(["explain", path, "--env", "prod", "--gang", "scheduler-plugins", "--operator-version", "v0.4.0"])
    line = spec.splitlines().index("        priorityClass: urgent") + 1
    assert code == 1 and f"{path}:{line}:" in err, err
    assert "(spec.environments.prod.scheduling.priorityClass)" in err, err


PYTORCHJOB = """\
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: mnist, namespace: ml}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers: [{name: pytorch, image: pytorch/mnist:1.0}]
    Worker:
      replicas: WORKERS
      template:
        spec:
          containers: [{name: pytorch, image: pytorch/mnist:1.0}]
"""

TFJOB = """\
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: dist}
spec:
  tfReplicaSpecs:
    PS:
      replicas: 2
      template: {spec: {containers: [{name: tensorflow, image: tf:2}]}}
    Worker:
      replicas: WORKERS
      template: {spec: {containers: [{name: tensorflow, image: tf:2}]}}
"""


def test_pytorchjob_text_and_yaml(tmp_path) -> None:
    path = _write(tmp_path, "pt.yaml", PYTORCHJOB.replace("WORKERS", "3"))
    code, out, err = run(["explain", path, "--gang", "volcano"])
    assert code == 0, err
    assert out.startswith("PyTorchJob ml/mnist (training-operator v1.9.4, gang scheduler: volcano)\n")
    assert "Worker: 3 Pod(s) mnist-worker-0 .. mnist-worker-2, each with a headless Service of its name" in out
    assert "MASTER_ADDR=mnist-master-0" in out and "WORLD_SIZE=4 RANK=1" in out
    assert "init container init-pytorch (alpine:3.10): waits until mnist-master-0 resolves" in out
    code, out, err = run(["explain", path, "--gang", "volcano", "--format", "yaml"])
    objects = [o for o in yaml.safe_load_all(out) if o]
    assert [(o["kind"], o["metadata"]["name"]) for o in objects][:3] == [
        ("PodGroup", "mnist"), ("Pod", "mnist-master-0"), ("Service", "mnist-master-0")]
    ranks = [next(e["value"] for e in o["spec"]["containers"][0]["env"] if e["name"] == "RANK")
             for o in objects if o["kind"] == "Pod"]
    assert ranks == ["0", "1", "2", "3"]


def test_tfjob_text_is_bounded_and_yaml_has_every_tf_config(tmp_path) -> None:
    big = _write(tmp_path, "big.yaml", TFJOB.replace("WORKERS", "1000000"))
    code, out, err = run(["explain", big, "--cluster-domain", "cluster.local"])
    assert code == 0, err
    assert ("TF_CONFIG = cluster: {ps: 2 (dist-ps-0.default.svc.cluster.local:2222 .. dist-ps-1.default.svc.cluster"
            ".local:2222), worker: 1000000 (dist-worker-0.default.svc.cluster.local:2222 .. dist-worker-999999.default"
            ".svc.cluster.local:2222)}; task: {type: worker, index: 0}; environment: cloud") in out
    assert len(out) < 4000
    code, out, err = run(["explain", _write(tmp_path, "tf.yaml", TFJOB.replace("WORKERS", "2")), "--format", "yaml"])
    configs = [json.loads(o["spec"]["containers"][0]["env"][0]["value"]) for o in yaml.safe_load_all(out)
               if o and o["kind"] == "Pod"]
    assert [c["task"] for c in configs] == [{"type": "ps", "index": 0}, {"type": "ps", "index": 1},
                                            {"type": "worker", "index": 0}, {"type": "worker", "index": 1}]
    assert configs[0]["cluster"]["worker"] == ["dist-worker-0.default.svc:2222", "dist-worker-1.default.svc:2222"]


def test_a_training_job_the_webhook_rejects(tmp_path) -> None:
    path = _write(tmp_path, "bad.yaml", PYTORCHJOB.replace("WORKERS", "1").replace("      replicas: 1\n", "      replicas: 2\n", 1))
    code, _, err = run(["explain", path])
    assert code == 1 and f"{path}:7:17: error training-job-invalid" in err and "Master replicas must be 1" in err, err


def test_a_pytorch_spec(tmp_path) -> None:
    spec = ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: mnist}\nspec:\n"
            "  framework: pytorch\n  image: pytorch/mnist:1.0\n  command: [python, train.py]\n  workers: 2\n")
    code, out, err = run(["explain", _write(tmp_path, "spec.yaml", spec)])
    assert code == 0, err
    assert out.startswith("PyTorchJob default/mnist (training-operator v1.9.4, gang scheduler: none)")
    assert "Worker: 2 Pod(s) mnist-worker-0 .. mnist-worker-1" in out


def test_explain_names_kube_batch_and_no_volcano_task_spec() -> None:
    from tests.golden.cases import run

    code, out, err = run(["explain", "specs/kube-batch-tfjob.yaml"])
    assert code == 0, err
    assert "kube-batch PodGroup by annotation scheduling.k8s.io/group-name: tf-smoke-gpu" in out
    assert "task-spec" not in out
