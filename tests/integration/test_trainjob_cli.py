"""``mpigen explain`` and ``mpigen podgroup`` on Kubeflow Trainer v2.3.0 TrainJobs, through the
real command line: the runtime comes from ``--cluster``, its podGroupPolicy decides the PodGroup.
(The objects themselves are checked against Trainer's framework in tests/oracle.)"""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.golden.cases import run
from tests.work import lines_run

ANCESTOR = {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}


def _runtime(name: str, ml_policy: dict, rjobs: list[dict], policy: dict | None = None, kind: str =
             "ClusterTrainingRuntime") -> dict:
    spec: dict = {"mlPolicy": ml_policy, "template": {"spec": {"replicatedJobs": rjobs}}}
    if policy is not None:
        spec["podGroupPolicy"] = policy
    return {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": kind, "metadata": {"name": name}, "spec": spec}


def _rjob(name: str, labels: dict | None = None, **container: object) -> dict:
    template: dict = {"spec": {"template": {"spec": {"containers": [{"name": "node", "image": "img", **container}]}}}}
    if labels:
        template["metadata"] = {"labels": labels}
    return {"name": name, "template": template}


TORCH = _runtime("torch-gang", {"numNodes": 1, "torch": {}}, [_rjob("node", ANCESTOR)], {"coscheduling": {}})
TORCH_PLAIN = _runtime("torch-plain", {"numNodes": 1, "torch": {}}, [_rjob("node", ANCESTOR)])
MPI = _runtime("mpi-volcano", {"numNodes": 1, "mpi": {"runLauncherAsNode": True}},
               [_rjob("node", command=["/usr/sbin/sshd"]), _rjob("launcher", ANCESTOR)], {"volcano": {}})
PRIORITY_CLASS = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"},
                  "value": 1000}


def _trainjob(runtime: str, **trainer: object) -> dict:
    return {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "pi"},
            "spec": {"runtimeRef": {"name": runtime}, "trainer": trainer}}


def _files(tmp_path: Path, job: dict, *cluster: dict) -> tuple[str, str]:
    job_file, cluster_file = tmp_path / "trainjob.yaml", tmp_path / "cluster.yaml"
    job_file.write_text(yaml.safe_dump(job))
    cluster_file.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": list(cluster)}))
    return str(job_file), str(cluster_file)


def test_explain_text_shows_podgroup_numprocpernode_and_env(tmp_path: Path) -> None:
    job, cluster = _files(tmp_path, _trainjob("torch-gang", numNodes=4, resourcesPerNode={
        "requests": {"cpu": "8", "memory": "32Gi"}, "limits": {"nvidia.com/gpu": 2}}), TORCH, PRIORITY_CLASS)
    code, out, err = run(["explain", job, "--cluster", cluster])
    assert code == 0, err
    # the runtime in the cluster file is read, not "ignored"; validate's verdict on the job is reported
    assert [line.split(" ", 3)[1:3] for line in err.splitlines()] == [["warning", "trainer-limit-only-resource"]]
    lines = out.splitlines()
    assert lines[0] == ("TrainJob default/pi (Trainer v2.3.0; ClusterTrainingRuntime torch-gang: torch; "
                        "podGroupPolicy: coscheduling)")
    assert "  minMember: 4   scheduleTimeoutSeconds: 60" in lines
    assert "  minResources: cpu=32 memory=128Gi" in lines
    assert "  not counted: nvidia.com/gpu (set as a limit only; minResources sums requests)" in lines
    assert "  numProcPerNode: auto (torchrun starts one process per GPU: 2 per node in trainer.resourcesPerNode)" \
        in lines
    assert "  Replicated job node (trainer): 4 pod(s) pi-node-0-0.pi .. pi-node-0-3.pi" in lines
    assert "    PodGroup by label scheduling.x-k8s.io/pod-group: pi" in lines
    assert ("      env set: PET_NNODES=4 PET_NPROC_PER_NODE=auto PET_NODE_RANK=<job completion index> "
            "PET_MASTER_ADDR=pi-node-0-0.pi PET_MASTER_PORT=29500") in lines


def test_explain_mpi_hostfile_is_summarized_and_the_yaml_complete(tmp_path: Path) -> None:
    job, cluster = _files(tmp_path, _trainjob("mpi-volcano", numNodes=10_000, numProcPerNode=2), MPI)
    code, out, err = run(["explain", job, "--cluster", cluster])
    assert code == 0, err
    assert "Hostfile (/etc/mpi/hostfile in ConfigMap pi-mpi-hostfile, OpenMPI): 10000 line(s)" in out
    assert "  ... 9995 more lines, same pattern ..." in out and "  pi-launcher-0-0.pi slots=2" in out
    assert "  numProcPerNode: 2 (trainer.numProcPerNode)" in out
    code, out, err = run(["explain", job, "--cluster", cluster, "--format", "yaml"])
    assert code == 0, err
    docs = list(yaml.safe_load_all(out))
    assert [(d["kind"], d["metadata"]["name"]) for d in docs] == [
        ("ConfigMap", "pi-runtime-snapshot"), ("PodGroup", "pi"), ("Secret", "pi-mpi-ssh-auth"),
        ("ConfigMap", "pi-mpi-hostfile"), ("JobSet", "pi")]
    assert docs[1]["spec"] == {"minMember": 10_000, "minResources": {}}
    assert len(docs[3]["data"]["hostfile"].splitlines()) == 10_000
    assert yaml.safe_load(docs[0]["data"]["runtime"])["spec"]["mlPolicy"]["mpi"]["sshAuthMountPath"] == "/root/.ssh"


def test_explain_without_the_runtime_says_it_is_missing(tmp_path: Path) -> None:
    job, cluster = _files(tmp_path, _trainjob("torch-gang"))
    code, out, err = run(["explain", job])  # no cluster file: not among Trainer's default runtimes
    assert code == 1 and out == ""
    assert ("error trainjob-runtime-missing ClusterTrainingRuntime 'torch-gang' is not among the default runtimes of "
            "Kubeflow Trainer v2.3.0 (the cluster's runtimes were not given)") in err
    assert "(spec.runtimeRef.name)" in err
    job, cluster = _files(tmp_path, _trainjob("torch-distributed"), TORCH)
    code, out, err = run(["podgroup", job, "--cluster", cluster])  # the cluster's runtimes, not the defaults
    assert code == 1 and out == ""
    assert "error trainjob-runtime-missing ClusterTrainingRuntime 'torch-distributed' is not among the runtimes of " \
        f"{cluster}" in err


def test_without_runtimes_in_the_cluster_file_the_defaults_are_used(tmp_path: Path) -> None:
    job, cluster = _files(tmp_path, _trainjob("torch-distributed", numNodes=2), PRIORITY_CLASS)
    for args in (["explain", job], ["explain", job, "--cluster", cluster], ["podgroup", job, "--cluster", cluster]):
        code, out, err = run(args)
        assert code == 0, err
    code, out, _ = run(["explain", job])
    assert out.startswith("TrainJob default/pi (Trainer v2.3.0; ClusterTrainingRuntime torch-distributed: torch; ")


def test_a_list_and_a_broken_job_beside_a_good_one(tmp_path: Path) -> None:
    """As for an MPIJob: the items of a List are jobs, and one with validate's error is not explained."""
    bad = dict(_trainjob("torch-gang", env=[{"name": "PET_NNODES", "value": "2"}]), metadata={"name": "bad"})
    job_file = tmp_path / "jobs.yaml"
    job_file.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [_trainjob("torch-gang"), bad]}))
    _, cluster = _files(tmp_path, _trainjob("torch-gang"), TORCH)
    code, out, err = run(["explain", str(job_file), "--cluster", cluster])
    assert code == 1 and out == ""
    assert f"{job_file}:" in err and "error trainjob-invalid" in err and "(items[1].spec.trainer.env)" in err


def test_explain_reports_what_the_webhook_refuses(tmp_path: Path) -> None:
    job, cluster = _files(tmp_path, _trainjob("torch-gang", env=[{"name": "PET_NNODES", "value": "2"}]), TORCH)
    code, _, err = run(["explain", job, "--cluster", cluster])
    assert code == 1
    assert ("error trainjob-invalid Trainer's webhook rejects this TrainJob: must not have reserved envs, invalid envs "
            "configured: [PET_NNODES] (spec.trainer.env)") in err


def test_podgroup_needs_no_gang_for_a_trainjob(tmp_path: Path) -> None:
    job, cluster = _files(tmp_path, _trainjob("mpi-volcano", numNodes=3), MPI, PRIORITY_CLASS)
    code, out, err = run(["podgroup", job, "--cluster", cluster])
    assert code == 0, err
    assert yaml.safe_load(out) == {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                   "metadata": {"name": "pi", "namespace": "default"},
                                   "spec": {"minMember": 3, "minResources": {}}}


def test_podgroup_of_a_runtime_without_pod_group_policy_is_a_note(tmp_path: Path) -> None:
    job, cluster = _files(tmp_path, _trainjob("torch-plain", numNodes=2), TORCH_PLAIN)
    code, out, err = run(["podgroup", job, "--cluster", cluster])
    assert code == 0 and out == ""
    assert "info no-podgroup ClusterTrainingRuntime torch-plain has no podGroupPolicy: Trainer creates no " \
           "PodGroup for this TrainJob" in err


def _odd_runtimes() -> list[tuple[str, dict]]:
    template_null = yaml.safe_load(yaml.safe_dump(TORCH))
    template_null["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"] = None
    metadata_int = dict(yaml.safe_load(yaml.safe_dump(TORCH)), metadata=1)
    container_null = yaml.safe_load(yaml.safe_dump(TORCH))
    container_null["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
        "containers"] = [None]
    return [("pod template null", template_null), ("metadata not a mapping", metadata_int),
            ("a null container", container_null)]


def test_odd_runtimes_are_diagnosed_not_crashed_on(tmp_path: Path) -> None:
    """A runtime the API server would store as Go's zero values (a null pod template) or refuse (a
    metadata that is no mapping, a null container) gives output or diagnostics, never exit 3."""
    for name, runtime in _odd_runtimes():
        job, cluster = _files(tmp_path, _trainjob("torch-gang", numNodes=2), runtime)
        for args in (["explain", job], ["explain", job, "--format", "yaml"], ["podgroup", job]):
            code, _, err = run([*args, "--cluster", cluster])
            assert code in (0, 1), (name, args, err)
            assert "internal error" not in err, (name, err)


def test_explain_says_when_the_pods_of_a_volcano_runtime_name_no_volcano_scheduler(tmp_path: Path) -> None:
    """Trainer's volcano plugin annotates the pods with the PodGroup and sets no schedulerName: a
    runtime whose pod templates name none sends them to the default scheduler, with no gang."""
    job, cluster = _files(tmp_path, _trainjob("mpi-volcano", numNodes=2), MPI)
    code, out, err = run(["explain", job, "--cluster", cluster])
    assert code == 0, err
    assert ("  not gang-scheduled: the pods of node (schedulerName unset), launcher (schedulerName unset) go to "
            "another scheduler than volcano, which binds them one by one; Trainer sets no schedulerName: write "
            "schedulerName: volcano in the runtime's pod templates") in out.splitlines()
    on_volcano = yaml.safe_load(yaml.safe_dump(MPI))
    for rjob in on_volcano["spec"]["template"]["spec"]["replicatedJobs"]:
        rjob["template"]["spec"]["template"]["spec"]["schedulerName"] = "volcano"
    job, cluster = _files(tmp_path, _trainjob("mpi-volcano", numNodes=2), on_volcano)
    code, out, err = run(["explain", job, "--cluster", cluster])
    assert code == 0 and "not gang-scheduled" not in out, err


def test_explain_costs_the_same_per_node_for_ten_thousand_nodes(tmp_path: Path) -> None:
    """The work of explaining a TrainJob grows linearly with its nodes (a hostfile line each): the
    lines of Python run per node from 1,000 to 10,000 nodes are no more than from 100 to 1,000
    (a loop over the nodes inside a loop over them would cost ten times as much). Counted, not
    timed (it was a 30-second bound)."""
    lines = {}
    for nodes in (100, 100, 1_000, 10_000):  # the first run imports what explain needs
        job, cluster = _files(tmp_path, _trainjob("mpi-volcano", numNodes=nodes, numProcPerNode=2), MPI)
        (code, out, err), lines[nodes] = lines_run(run, ["explain", job, "--cluster", cluster, "--format", "yaml"])
        assert code == 0 and out.count(" slots=2") == nodes, err
    small, large = (lines[1_000] - lines[100]) / 900, (lines[10_000] - lines[1_000]) / 9_000
    assert large <= 1.5 * small, (small, large)
