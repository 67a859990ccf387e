"""``mpigen explain --cluster`` and ``mpigen podgroup --cluster`` with Kueue's queues and
scheduler-plugins' ElasticQuotas: will Kueue admit the job's Workload, will capacity scheduling let
its pods in? (issue 21 item 2; the rules are tested in tests/unit/test_kueue_*.py and
tests/unit/test_elasticquota.py)

The cluster file holds the objects as ``kubectl get ... -o yaml`` prints them, joined by ``---``
lines; the job is specs/kueue-mpi.yaml (4 workers x 4 GPUs in LocalQueue nlp/team-nlp).
"""

from __future__ import annotations

from pathlib import Path

from tests.golden.cases import ROOT, run

SPEC = str(ROOT / "specs" / "kueue-mpi.yaml")
BASIS = ("Kueue v0.19.2's default configuration (fair sharing off); the cluster file's 2 ClusterQueues, "
         "1 LocalQueue, 1 ResourceFlavor and {workloads}")


def cluster_queue(name: str, gpus: int, lending: str = "") -> str:
    return (f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {{name: {name}}}\nspec:\n"
            "  namespaceSelector: {}\n  cohortName: ai\n  resourceGroups:\n"
            "  - coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n    - name: a100\n      resources:\n"
            "      - {name: cpu, nominalQuota: '100'}\n      - {name: memory, nominalQuota: 1000Gi}\n"
            f"      - {{name: nvidia.com/gpu, nominalQuota: {gpus}{lending}}}\n")


def workload(name: str, cq: str, gpus: int) -> str:
    return (f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {{name: {name}, namespace: nlp}}\n"
            "spec: {queueName: team-nlp, priority: 0}\nstatus:\n"
            "  conditions: [{type: QuotaReserved, status: 'True'}]\n  admission:\n"
            f"    clusterQueue: {cq}\n    podSetAssignments:\n    - name: worker\n"
            f"      flavors: {{nvidia.com/gpu: a100}}\n      resourceUsage: {{nvidia.com/gpu: '{gpus}'}}\n      count: 1\n")


QUEUES = ("apiVersion: v1\nkind: Namespace\nmetadata: {name: nlp}\n---\n"
          "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a100}\n"
          "spec: {nodeLabels: {gpu: a100}}\n---\n"
          "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: team-nlp, namespace: nlp}\n"
          "spec: {clusterQueue: team-nlp}\n")


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_cluster_queue_that_admits_within_its_nominal_quota_and_holds_a_job_over_it(tmp_path: Path) -> None:
    """16 GPUs within a nominal quota of 16: admitted (queue-admits, exit 0); with 8 of them in use and
    a cohort that lends none, held with the proof (queue-cannot-admit, exit 1, printed all the
    same); when the other ClusterQueue of the cohort lends 8, admitted again, borrowing."""
    cluster = _write(tmp_path, "a.yaml", QUEUES + "---\n" + cluster_queue("team-nlp", 16) + "---\n"
                     + cluster_queue("team-b", 8, ", lendingLimit: 0"))
    code, out, err = run(["explain", SPEC, "--cluster", cluster])
    assert code == 0, err
    assert err == (f"{SPEC}:17:12: info queue-admits LocalQueue nlp/team-nlp admits the Workload "
                   f"({BASIS.format(workloads='0 Workloads')}): ClusterQueue team-nlp admits it now, within its nominal "
                   "quota: launcher (1): requests nothing; worker (4): flavor a100 for cpu, memory, nvidia.com/gpu "
                   "(spec.scheduling.queue)\n")
    assert "Kueue v0.19.2:\n  LocalQueue nlp/team-nlp (" in out

    held = _write(tmp_path, "b.yaml", QUEUES + "---\n" + cluster_queue("team-nlp", 16) + "---\n"
                  + cluster_queue("team-b", 8, ", lendingLimit: 0") + "---\n" + workload("other", "team-nlp", 8))
    code, out, err = run(["explain", SPEC, "--cluster", held])
    assert code == 1
    assert ("error queue-cannot-admit LocalQueue nlp/team-nlp cannot admit the Workload "
            f"({BASIS.format(workloads='1 Workload')}): ClusterQueue team-nlp: nominalQuota 16 nvidia.com/gpu on flavor "
            "a100, 8 in use by 1 Workload (nlp/other), cohort ai can lend 0 now (at most 0); this job needs 16; and no "
            "admitted Workload that Kueue may preempt (preemption.withinClusterQueue Never, reclaimWithinCohort Never, "
            "borrowWithinCohort Never) would make room, so the Workload stays pending until enough of what holds the "
            "quota finishes") in err
    assert "Worker Pods bert-pretrain-worker-0 .. bert-pretrain-worker-3 (4)" in out  # printed all the same

    lent = _write(tmp_path, "c.yaml", QUEUES + "---\n" + cluster_queue("team-nlp", 16) + "---\n"
                  + cluster_queue("team-b", 8) + "---\n" + workload("other", "team-nlp", 8))
    code, _, err = run(["explain", SPEC, "--cluster", lent])
    assert code == 0, err
    assert "ClusterQueue team-nlp admits it now, borrowing 8 nvidia.com/gpu of flavor a100 from cohort ai" in err


def test_podgroup_says_the_workload_verdict_of_a_job_without_podgroup(tmp_path: Path) -> None:
    cluster = _write(tmp_path, "a.yaml", QUEUES + "---\n" + cluster_queue("team-nlp", 8) + "---\n"
                     + cluster_queue("team-b", 0))
    _, built, _ = run(["build", SPEC])
    path = _write(tmp_path, "job.yaml", built)
    code, _, err = run(["podgroup", path, "--cluster", cluster])
    assert code == 1
    line = next(i for i, text in enumerate(built.splitlines(), 1) if "kueue.x-k8s.io/queue-name" in text)
    assert f"{path}:{line}:" in err and "error queue-cannot-admit LocalQueue nlp/team-nlp cannot admit the Workload" in err
    assert "error not-created" in err


def test_an_elastic_quota_that_holds_a_namespace(tmp_path: Path) -> None:
    """A scheduler-plugins gang (specs/scheduler-plugins-envs.yaml) in a namespace whose ElasticQuota
    max is below what the gang asks."""
    spec = str(ROOT / "specs" / "scheduler-plugins-envs.yaml")
    _, built, _ = run(["build", spec])
    namespace = next(line.split(":", 1)[1].strip() for line in built.splitlines() if line.strip().startswith("namespace:"))
    quota = (f"apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: ElasticQuota\nmetadata: {{name: q, namespace: {namespace}}}\n"
             "spec: {min: {cpu: '1', memory: 1Gi}, max: {cpu: '1', memory: 1Gi}}\n")
    code, _, err = run(["explain", spec, "--cluster", _write(tmp_path, "q.yaml", quota)])
    assert code == 1
    assert f"error queue-cannot-admit ElasticQuota {namespace}/q cannot admit the pods (scheduler-plugins v0.33.5 " \
           "capacity scheduling" in err
    assert "(capacity scheduling PreFilter: \"is more than Max\")" in err


def test_a_trainjob_kueue_queues(tmp_path: Path) -> None:
    """specs/trainjob-kueue.yaml: 8 nodes of 1 GPU, one PodSet per replicated job of the JobSet, in a
    ClusterQueue of 8 GPUs read as v1beta1; its prod environment names a LocalQueue that does not exist."""
    cluster = _write(tmp_path, "v.yaml", (
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: vision}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: gpu}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: vision}\nspec:\n"
        "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu, memory, nvidia.com/gpu]\n"
        "    flavors:\n    - name: gpu\n      resources:\n      - {name: cpu, nominalQuota: '64'}\n"
        "      - {name: memory, nominalQuota: 512Gi}\n      - {name: nvidia.com/gpu, nominalQuota: 8}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: team-vision, namespace: vision}\n"
        "spec: {clusterQueue: vision}\n"))
    spec = str(ROOT / "specs" / "trainjob-kueue.yaml")
    code, out, err = run(["explain", spec, "--cluster", cluster])
    assert code == 0, err
    assert (f"{spec}:26:12: info queue-admits LocalQueue vision/team-vision admits the Workload") in err
    assert "ClusterQueue vision admits it now, within its nominal quota: node (8): flavor gpu for cpu, memory, " \
           "nvidia.com/gpu (spec.scheduling.queue)" in err
    assert "Kueue v0.19.2:\n  LocalQueue vision/team-vision (" in out
    code, _, err = run(["explain", spec, "--env", "prod", "--cluster", cluster])
    assert code == 1
    assert "error queue-cannot-admit LocalQueue vision/production cannot admit the Workload" in err
    assert "(spec.environments.prod.scheduling.queue)" in err
