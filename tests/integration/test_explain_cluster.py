"""``mpigen explain --cluster`` and ``mpigen podgroup --cluster`` with the cluster's Nodes: does the gang fit?

The cluster file is what kubectl printed for the local cluster of `make cluster` (four kwok nodes of
64 cpu, 512Gi, 8 nvidia.com/gpu and 110 pods): `kubectl get nodes -o yaml`, a `---` line, then
`kubectl get priorityclasses -o yaml` (tests/cases/cluster/kwok-nodes.yaml).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.golden.cases import ROOT, run

CLUSTER = str(ROOT / "tests" / "cases" / "cluster" / "kwok-nodes.yaml")
BASIS = "the cluster file's 4 nodes (allocatable; the Pods on them are not in the file)"
TOO_LARGE = ("5 workers need 8 nvidia.com/gpu each; each of the 4 nodes can hold at most 1 (8 nvidia.com/gpu "
             "allocatable): room for 4 of 5")


def spec(workers: int, framework: str = "mpi", gang: str = "volcano", extra: str = "") -> str:
    launcher = "  mpi: {launcher: {resources: {cpu: '1', memory: 1Gi}}}\n" if framework == "mpi" else ""
    timeout = ", scheduleTimeoutSeconds: 60" if gang == "scheduler-plugins" else ""
    return ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: gang, namespace: volcano}\n"
            f"spec:\n  framework: {framework}\n  image: mpioperator/tensorflow-benchmarks:latest\n"
            f"  command: [python, train.py]\n  workers: {workers}\n"
            "  resources: {gpu: 8, cpu: '16', memory: 64Gi}\n" + launcher
            + f"  scheduling: {{gang: {gang}{timeout}}}\n" + extra)


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_gang_that_fits_shows_a_placement_under_its_podgroup(tmp_path: Path) -> None:
    code, out, err = run(["explain", _write(tmp_path, "fits.yaml", spec(4)), "--cluster", CLUSTER])
    assert (code, err) == (0, "")
    assert ("PodGroup scheduling.volcano.sh/v1beta1 gang\n"
            "  minMember: 5\n"
            "  minResources: cpu=65 memory=257Gi nvidia.com/gpu=32\n"
            f"  On {BASIS}: the gang fits\n"
            "    node-0..node-3: 1 worker each; launcher on node-0\n\n") in out


def test_a_gang_one_worker_too_large_cannot_fit_and_explain_fails(tmp_path: Path) -> None:
    path = _write(tmp_path, "too-large.yaml", spec(5))
    code, out, err = run(["explain", path, "--cluster", CLUSTER])
    assert code == 1
    assert err == (f"{path}:11:22: error gang-cannot-fit the gang cannot fit {BASIS}: {TOO_LARGE} "
                   "(spec.scheduling.gang)\n")
    assert f"  On {BASIS}: the gang cannot fit\n    {TOO_LARGE}\n" in out  # what the operator creates, all the same
    code, out, err = run(["explain", path, "--cluster", CLUSTER, "--format", "yaml"])
    assert code == 1 and "error gang-cannot-fit" in err
    assert [o["kind"] for o in yaml.safe_load_all(out) if o].count("Pod") == 5


def test_a_pytorch_gang_on_scheduler_plugins(tmp_path: Path) -> None:
    path = _write(tmp_path, "pt.yaml", spec(3, "pytorch", "scheduler-plugins"))
    code, out, err = run(["explain", path, "--cluster", CLUSTER])
    assert (code, err) == (0, "")
    assert "    master on node-0; node-1..node-3: 1 worker each\n" in out
    code, out, err = run(["explain", _write(tmp_path, "pt5.yaml", spec(4, "pytorch", "scheduler-plugins")),
                          "--cluster", CLUSTER])
    assert code == 1
    assert "the gang's 5 pods ask 40 nvidia.com/gpu, the 4 schedulable nodes have 32 in all" in err


def test_one_list_of_nodes_and_priority_classes(tmp_path: Path) -> None:
    """As `kubectl get priorityclasses,nodes -o yaml` prints them: one List; the classes still order
    minResources."""
    nodes, classes = (d for d in yaml.safe_load_all(Path(CLUSTER).read_text()))
    joined = {"apiVersion": "v1", "kind": "List", "items": classes["items"] + nodes["items"]}
    cluster = _write(tmp_path, "cluster.yaml", yaml.safe_dump(joined))
    extra = "  priorityClassName: gpu-training\n  mpi: {launcher: {priorityClassName: launcher-low}}\n"
    text = spec(4, extra=extra).replace("  mpi: {launcher: {resources: {cpu: '1', memory: 1Gi}}}\n", "")
    code, out, err = run(["explain", _write(tmp_path, "job.yaml", text), "--cluster", cluster])
    assert (code, err) == (0, "")
    assert "priorityClassName: launcher-low" in out and "    node-0..node-3: 1 worker each; launcher on node-0\n" in out


def test_constraints_mpigen_does_not_evaluate_are_a_warning(tmp_path: Path) -> None:
    _, built, _ = run(["build", _write(tmp_path, "spec.yaml", spec(2))])
    job = yaml.safe_load(built)
    worker = job["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]
    worker["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"training.kubeflow.org/job-role": "worker"}},
         "topologyKey": "kubernetes.io/hostname"}]}}
    path = _write(tmp_path, "job.yaml", yaml.safe_dump(job))
    code, out, err = run(["explain", path, "--cluster", CLUSTER])
    assert code == 0
    assert err == (f"{path}:1:1: warning gang-may-not-fit the gang may not fit {BASIS}: mpigen does not evaluate the "
                   "workers' required podAntiAffinity; without that: node-0, node-1: 1 worker each; launcher on "
                   "node-0\n")


def test_no_verdict_without_nodes_or_without_a_gang(tmp_path: Path) -> None:
    classes = _write(tmp_path, "classes.yaml", Path(CLUSTER).read_text().split("\n---\n")[1])
    code, out, err = run(["explain", _write(tmp_path, "big.yaml", spec(5)), "--cluster", classes])
    assert (code, err) == (0, "") and "the gang" not in out
    code, out, err = run(["explain", _write(tmp_path, "none.yaml", spec(5, gang="none")), "--cluster", CLUSTER])
    assert (code, err) == (0, "") and "the gang" not in out


def test_podgroup_checks_the_gang_too(tmp_path: Path) -> None:
    _, built, _ = run(["build", _write(tmp_path, "spec.yaml", spec(5))])
    path = _write(tmp_path, "job.yaml", built)
    code, out, err = run(["podgroup", path, "--gang", "volcano", "--cluster", CLUSTER])
    assert code == 1
    line = built.splitlines().index("apiVersion: kubeflow.org/v2beta1") + 1
    assert err == f"{path}:{line}:1: error gang-cannot-fit the gang cannot fit {BASIS}: {TOO_LARGE}\n"
    assert yaml.safe_load(out)["spec"]["minMember"] == 6  # the PodGroup is printed all the same
    _, built, _ = run(["build", _write(tmp_path, "spec.yaml", spec(4))])
    code, out, err = run(["podgroup", _write(tmp_path, "job.yaml", built), "--gang", "volcano", "--cluster", CLUSTER])
    assert (code, err) == (0, "")


def trainjob_spec(workers: int) -> str:
    """PyTorch DDP as a TrainJob on torch-distributed (a coscheduling copy): workers + 1 nodes of 8 GPUs."""
    return ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: gang, namespace: research}\n"
            "spec:\n  framework: pytorch\n  runtime: torch-distributed\n  image: pytorch/pytorch:2.7.1\n"
            f"  command: [torchrun, train.py]\n  workers: {workers}\n"
            "  resources: {gpu: 8, cpu: '16', memory: 64Gi}\n"
            "  scheduling: {gang: scheduler-plugins, scheduleTimeoutSeconds: 60}\n")


def test_a_trainjob_gang_is_checked_on_the_nodes(tmp_path: Path) -> None:
    """A TrainJob's gang is the replicated jobs of the JobSet Trainer builds: 4 nodes of 8 GPUs fit
    the 4 kwok nodes, 5 do not (explain and podgroup print their objects all the same, exit 1)."""
    code, out, err = run(["explain", _write(tmp_path, "fits.yaml", trainjob_spec(3)), "--cluster", CLUSTER])
    assert code == 0 and "gang-" not in err, err
    assert f"  On {BASIS}: the gang fits\n    node-0..node-3: 1 node each\n" in out
    path = _write(tmp_path, "too-large.yaml", trainjob_spec(4))
    code, out, err = run(["explain", path, "--cluster", CLUSTER])
    too_large = ("5 nodes need 8 nvidia.com/gpu each; each of the 4 nodes can hold at most 1 (8 nvidia.com/gpu "
                 "allocatable): room for 4 of 5")
    assert code == 1
    assert f"{path}:9:12: error gang-cannot-fit the gang cannot fit {BASIS}: {too_large} (spec.workers)\n" in err
    assert f"  On {BASIS}: the gang cannot fit\n    {too_large}\n" in out
    code, out, err = run(["explain", path, "--cluster", CLUSTER, "--format", "yaml"])
    assert code == 1 and "error gang-cannot-fit" in err and "kind: JobSet" in out
    code, out, err = run(["podgroup", path, "--cluster", CLUSTER])
    assert code == 1 and "error gang-cannot-fit" in err
    assert yaml.safe_load(out)["spec"]["minMember"] == 5
