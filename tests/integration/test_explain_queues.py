"""``mpigen explain --cluster`` and ``mpigen podgroup --cluster`` with Volcano Queues: will the
queue admit the gang? (issue 21 item 2; the rules are tested in tests/unit/test_volcano_admission.py)

The cluster file is the local cluster's four kwok nodes of 8 GPUs and its PriorityClasses
(tests/cases/cluster/kwok-nodes.yaml) with the Queues of each test joined by a ``---`` line, as
``kubectl get queues -o yaml`` prints them.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.golden.cases import ROOT, run

NODES = (ROOT / "tests" / "cases" / "cluster" / "kwok-nodes.yaml").read_text()
BASIS = ("Volcano v1.15.1's default scheduler configuration; the cluster file's 1 Queue, no PodGroups or Pods: "
         "nothing else is taken to run")
PROOF = ("capability 8 nvidia.com/gpu, none in use; this gang needs 16 (proportion plugin: queue resource quota "
         "insufficient), so the PodGroup stays Pending however little else runs")


def queue(name: str, spec: str = "{weight: 1}", state: str = "Open") -> str:
    return (f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {{name: {name}}}\nspec: {spec}\n"
            f"status: {{state: {state}}}\n")


def spec(queue_name: str, workers: int = 2, runtime: str = "") -> str:
    """The issue's job: an MPIJob of 2 workers x 8 GPUs in a Volcano queue."""
    return ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: bert, namespace: team-a}\n"
            "spec:\n  framework: mpi\n  image: mpioperator/tensorflow-benchmarks:latest\n"
            f"  command: [python, train.py]\n  workers: {workers}\n"
            "  resources: {gpu: 8, cpu: '16', memory: 64Gi}\n"
            "  mpi: {launcher: {resources: {cpu: '1', memory: 1Gi}}}\n"
            f"  scheduling: {{gang: volcano, queue: {queue_name}}}\n")


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_the_issue_a_gang_that_fits_the_nodes_but_not_its_queue(tmp_path: Path) -> None:
    """Issue 21's reproduction: 2 workers x 8 GPUs in a queue of capability 8 GPUs, on nodes that
    fit the gang: queue-cannot-admit with the proof, exit 1, the objects printed all the same; the
    same job in an open queue without a capability passes."""
    cluster = _write(tmp_path, "cluster.yaml", NODES + "---\n" + queue("research", "{capability: {nvidia.com/gpu: '8'}}")
                     + "---\n" + queue("open"))
    path = _write(tmp_path, "job.yaml", spec("research"))
    code, out, err = run(["explain", path, "--cluster", cluster])
    assert code == 1
    assert err == (f"{path}:11:38: error queue-cannot-admit queue research cannot admit the gang ({BASIS.replace('1 Queue', '2 Queues')}): "
                   f"{PROOF} (spec.scheduling.queue)\n")
    assert "  On the cluster file's 4 nodes (allocatable; the Pods on them are not in the file): the gang fits\n" in out
    assert (f"  Queue research ({BASIS.replace('1 Queue', '2 Queues')}): cannot admit the gang\n    {PROOF}\n") in out
    code, out, err = run(["explain", _write(tmp_path, "open.yaml", spec("open")), "--cluster", cluster])
    assert code == 0
    assert "info queue-admits queue open admits the gang" in err and "error" not in err
    assert "16 of 32 nvidia.com/gpu (the cluster's; 0 in use)" in out


def test_podgroup_says_it_too_and_prints_the_podgroup(tmp_path: Path) -> None:
    cluster = _write(tmp_path, "cluster.yaml", NODES + "---\n" + queue("research", "{capability: {nvidia.com/gpu: '8'}}"))
    _, built, _ = run(["build", _write(tmp_path, "spec.yaml", spec("research"))])
    path = _write(tmp_path, "job.yaml", built)
    code, out, err = run(["podgroup", path, "--cluster", cluster])
    assert code == 1
    line = next(i for i, text in enumerate(built.splitlines(), 1) if text.strip() == "queue: research")
    assert err == (f"{path}:{line}:14: error queue-cannot-admit queue research cannot admit the gang ({BASIS}): {PROOF} "
                   "(spec.runPolicy.schedulingPolicy.queue)\n")
    assert yaml.safe_load(out)["spec"]["queue"] == "research"


def test_a_closed_queue_and_a_missing_one(tmp_path: Path) -> None:
    cluster = _write(tmp_path, "cluster.yaml", NODES + "---\n" + queue("research", state="Closed"))
    code, _, err = run(["explain", _write(tmp_path, "job.yaml", spec("research")), "--cluster", cluster])
    assert code == 1 and "error queue-cannot-admit queue research cannot admit the gang" in err
    assert "queue research is Closed: Volcano's PodGroup webhook refuses a PodGroup in a queue that is not Open" in err
    code, _, err = run(["explain", _write(tmp_path, "typo.yaml", spec("reserch")), "--cluster", cluster])
    assert code == 1 and "queue reserch does not exist (the queues: default, research, root)" in err


def test_no_queue_verdict_without_queues_in_the_file_or_for_scheduler_plugins(tmp_path: Path) -> None:
    nodes = _write(tmp_path, "nodes.yaml", NODES)
    code, out, err = run(["explain", _write(tmp_path, "job.yaml", spec("research")), "--cluster", nodes])
    assert (code, err) == (0, "") and "Queue research" not in out
    cluster = _write(tmp_path, "cluster.yaml", NODES + "---\n" + queue("research", "{capability: {nvidia.com/gpu: '8'}}"))
    text = spec("research").replace("gang: volcano", "gang: scheduler-plugins")
    code, out, err = run(["explain", _write(tmp_path, "sp.yaml", text), "--cluster", cluster])
    assert code == 0 and "admit" not in err and "Queue research" not in out  # scheduler-plugins has no queue


def test_queues_without_nodes_still_prove_a_capability(tmp_path: Path) -> None:
    """Without Nodes the cluster's total is unknown: only the queue's capability bounds it, and the
    overcommit plugin is not evaluated, which makes an admission a warning."""
    cluster = _write(tmp_path, "queues.yaml", queue("research", "{capability: {nvidia.com/gpu: '8'}}"))
    code, _, err = run(["explain", _write(tmp_path, "job.yaml", spec("research")), "--cluster", cluster])
    assert code == 1 and "capability 8 nvidia.com/gpu, none in use; this gang needs 16" in err
    code, _, err = run(["explain", _write(tmp_path, "small.yaml", spec("research", workers=1)), "--cluster", cluster])
    assert code == 0
    assert "warning queue-may-not-admit" in err and "the overcommit plugin (no Nodes were read)" in err


def test_a_trainjob_on_a_volcano_runtime_is_judged_by_its_queue(tmp_path: Path) -> None:
    """A TrainJob's Volcano PodGroup (Trainer's volcano podGroupPolicy, the queue of the runtime's
    annotation): 2 nodes of 8 GPUs in a queue of 8, at the job's numNodes, as the fit verdict."""
    text = ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: gang, namespace: research}\n"
            "spec:\n  framework: pytorch\n  runtime: torch-distributed\n  image: pytorch/pytorch:2.7.1\n"
            "  command: [torchrun, train.py]\n  workers: 1\n  resources: {gpu: 8, cpu: '16', memory: 64Gi}\n"
            "  scheduling: {gang: volcano, queue: research}\n")
    cluster = _write(tmp_path, "cluster.yaml", NODES + "---\n" + queue("research", "{capability: {nvidia.com/gpu: '8'}}"))
    path = _write(tmp_path, "tj.yaml", text)
    for command in ("explain", "podgroup"):
        code, out, err = run([command, path, "--cluster", cluster])
        assert code == 1
        assert f"{path}:9:12: error queue-cannot-admit queue research cannot admit the gang ({BASIS}): {PROOF} " \
               "(spec.workers)\n" in err
    assert yaml.safe_load(out)["spec"]["queue"] == "research"  # podgroup prints it all the same
