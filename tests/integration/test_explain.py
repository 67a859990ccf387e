"""``mpigen explain`` on specs and manifests."""

from __future__ import annotations

import yaml

from tests.golden.cases import run


def test_text_for_a_spec_names_every_decision() -> None:
    code, out, err = run(["explain", "specs/horovod-volcano.yaml"])
    assert code == 0, err
    assert "PodGroup scheduling.volcano.sh/v1beta1 tensorflow-benchmarks" in out
    assert "minMember: 3   queue: research   priorityClassName: high-priority" in out
    assert "minResources: cpu=8500m memory=33Gi nvidia.com/gpu=2" in out
    assert "tensorflow-benchmarks-worker-1.tensorflow-benchmarks.research.svc slots=1" in out
    assert "PodGroup by annotation scheduling.k8s.io/group-name: tensorflow-benchmarks" in out
    assert "OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile" in out


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
