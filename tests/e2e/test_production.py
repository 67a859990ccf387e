"""Issue 20's proof on the local cluster: the production specs run where their placement says.

Each job below is built from its spec with `mpigen build`, found clean by `mpigen validate`,
applied (the API server takes it) in the namespace whose operators run its gang (as
test_operators.py moves a golden job), and within WAIT_SECONDS every pod of it is bound and
Running (kwok). Then, on the live objects:

- every pod is on a node its placement allows, checked here from the live Pods and Nodes and
  not by mpigen's scheduler port: the node has the labels of the pod's nodeSelector, the pod
  tolerates each of the node's NoSchedule/NoExecute taints, and the node has the extended
  resources (GPUs, RDMA devices) the pod requests; each role is on the nodes the spec means (the
  launcher on the CPU node, the workers on InfiniBand GPU nodes); no two pods share the topology
  value of a required pod anti-affinity term (PyTorch: one pod per node); a DoNotSchedule
  topology spread constraint holds (PyTorch: the zone skew within maxSkew, over the zones of the
  nodes the pods may select, as PodTopologySpread counts them);
- the live PodGroup equals the written schedulingPolicy (minMember, queue, minResources), and its
  minResources is what the gang's pods really request: the sum over the live pods of each pod's
  requests as kube-scheduler counts them (containers and sidecars added, init containers taken
  at their peak), device resources (rdma/hca) and patched containers included;
- an MPIJob's live slotsPerWorker is the GPUs each live worker requests, and its live launcher's
  `mpirun -np` the slots of every worker;
- every object the operator created equals `mpigen explain --format yaml --cluster FILE` (the
  cluster's Nodes and PriorityClasses), compared as test_operators.py compares them.

The jobs are specs/horovod-infiniband.yaml (the launcher on cpu-0, the workers on gpu-0..gpu-3),
specs/pytorch-spread.yaml (one pod per GPU node, two per zone) and a variant of the first whose
workers get their GPUs only from a podTemplatePatch: its live PodGroup's minResources count them,
and its live launcher's `mpirun -np` too (without the patch the job asks for no GPU and -np is the
number of workers: test_a_patch_that_gives_the_workers_their_gpus_counts_in_the_gang). They share
the GPU nodes, so they run one after the other, each deleted and its objects gone before the next.
The figure is `A/N production jobs run where their placement says`.
"""

from __future__ import annotations

import copy
import json
import re
import time
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from cluster.objects import GPU_PRODUCT, GPU_PRODUCT_LABEL, INSTANCE_TYPE_LABEL, RDMA_RESOURCE
from tests.e2e.conftest import FIGURES, ROOT, Kube
from tests.e2e.test_operators import (EXPLAIN_NAMESPACE, _delete_and_wait, _server_defaulted, explain_differences,
                                      gang_of, live_objects)

WAIT_SECONDS = 120  # for every pod of a job to be bound and Running
GPU = "nvidia.com/gpu"
JOB_KINDS = ("MPIJob", "PyTorchJob")
RESULTS: dict[str, bool] = {}  # case -> every pod Running where its placement says, objects as explained
# role -> (labels its node must have, resources its node must have allocatable)
GPU_NODE = ({GPU_PRODUCT_LABEL: GPU_PRODUCT}, (GPU,))
HOROVOD_ROLES = {"launcher": ({INSTANCE_TYPE_LABEL: "cpu"}, ()),
                 "worker": ({GPU_PRODUCT_LABEL: GPU_PRODUCT}, (GPU, RDMA_RESOURCE))}
# case -> (spec, its roles' nodes)
CASES = {
    "horovod-infiniband": ("specs/horovod-infiniband.yaml", HOROVOD_ROLES),
    "pytorch-spread": ("specs/pytorch-spread.yaml", {"master": GPU_NODE, "worker": GPU_NODE}),
    "horovod-infiniband-gpu-patch": ("specs/horovod-infiniband.yaml", HOROVOD_ROLES),
}
# The variant: no GPU in the job-wide resources; the workers' patch gives the training container 8.
GPU_PATCH = {"spec": {"containers": [{"name": "worker", "resources": {"limits": {GPU: "8"}, "requests": {GPU: "8"}}}]}}


def spec_of(case: str, patched: bool = True) -> dict:
    """The spec document of CASE (the GPU-patch variant without its patch unless PATCHED)."""
    doc = yaml.safe_load((ROOT / CASES[case][0]).read_text())
    if case.endswith("-gpu-patch"):
        doc["metadata"]["name"] += "-gpu-patch"
        del doc["spec"]["resources"]["gpu"]
        if patched:
            doc["spec"]["roles"]["worker"]["podTemplatePatch"] = copy.deepcopy(GPU_PATCH)
    return doc


def _build(kube: Kube, doc: dict, path: Path) -> dict:
    """The job `mpigen build` writes for the spec DOC (saved at PATH), found clean by `mpigen validate`."""
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    built = kube.mpigen("build", str(path))
    assert built.returncode == 0, built.stderr
    assert "warning" not in built.stderr, built.stderr
    output = path.with_suffix(".built.yaml")
    output.write_text(built.stdout)
    validated = kube.mpigen("validate", str(output))
    assert validated.returncode == 0 and "0 error(s), 0 warning(s)" in validated.stdout + validated.stderr, (
        validated.stdout + validated.stderr)
    (job,) = [d for d in yaml.safe_load_all(built.stdout) if isinstance(d, dict) and d.get("kind") in JOB_KINDS]
    return job


# ------------------------------------------------------------------------------------------------
# quantities and requests, as the scheduler counts them

_QUANTITY = re.compile(r"^([0-9.]+(?:[eE][-+]?[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$")
_SUFFIX = {None: 1, "n": Fraction(1, 10**9), "u": Fraction(1, 10**6), "m": Fraction(1, 1000), "k": 10**3,
           "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18,
           **{s: 1024 ** (i + 1) for i, s in enumerate(("Ki", "Mi", "Gi", "Ti", "Pi", "Ei"))}}


def quantity(text: str | int) -> Fraction:
    match = _QUANTITY.match(str(text))
    assert match, f"not a quantity: {text!r}"
    number, suffix = match.groups()
    return Fraction(number) * _SUFFIX[suffix]


def _add(total: dict[str, Fraction], more: dict[str, Fraction]) -> None:
    for name, value in more.items():
        total[name] = total.get(name, 0) + value


def pod_requests(pod: dict) -> dict[str, Fraction]:
    """A live Pod's requests (the API server has filled them from limits) as kube-scheduler adds
    them: every container and sidecar (an init container with restartPolicy Always), and each
    other init container at its peak (beside the sidecars started before it)."""
    def requests(container: dict) -> dict[str, Fraction]:
        return {k: quantity(v) for k, v in ((container.get("resources") or {}).get("requests") or {}).items()}

    total: dict[str, Fraction] = {}
    for container in pod["spec"]["containers"]:
        _add(total, requests(container))
    sidecars: dict[str, Fraction] = {}
    for container in pod["spec"].get("initContainers") or []:
        if container.get("restartPolicy") == "Always":
            _add(total, requests(container))
            _add(sidecars, requests(container))
            continue
        running = dict(sidecars)
        _add(running, requests(container))
        for name, value in running.items():
            total[name] = max(total.get(name, 0), value)
    return total


# ------------------------------------------------------------------------------------------------
# placement, from the live Pods and Nodes


def _tolerates(toleration: dict, taint: dict) -> bool:
    if toleration.get("effect") and toleration["effect"] != taint["effect"]:
        return False
    if toleration.get("key") and toleration["key"] != taint["key"]:
        return False
    if toleration.get("operator", "Equal") == "Exists":
        return True
    return toleration.get("value", "") == taint.get("value", "")


def _selects(selector: dict, labels: dict) -> bool:
    assert set(selector) <= {"matchLabels"}, f"a selector this test does not read: {selector}"
    return all(labels.get(k) == v for k, v in selector.get("matchLabels", {}).items())


def _role(pod: dict) -> str:
    labels = pod["metadata"].get("labels") or {}
    return (labels.get("training.kubeflow.org/replica-type") or labels.get("training.kubeflow.org/job-role")
            or "").lower()


def placement_problems(pods: list[dict], nodes: dict[str, dict], roles: dict[str, tuple]) -> list[str]:
    """Where a pod of PODS is on a node its placement does not allow (see the module's docstring)."""
    problems = []
    for pod in pods:
        spec, name = pod["spec"], pod["metadata"]["name"]
        node = nodes[spec["nodeName"]]
        labels, allocatable = node["metadata"].get("labels") or {}, node["status"]["allocatable"]
        where = f"{name} on {spec['nodeName']}"
        want_labels, want_resources = roles[_role(pod)]
        for key, value in {**(spec.get("nodeSelector") or {}), **want_labels}.items():
            if labels.get(key) != value:
                problems.append(f"{where}: the node's {key} is {labels.get(key)!r}, not {value!r}")
        for taint in (node.get("spec") or {}).get("taints") or []:
            if taint["effect"] in ("NoSchedule", "NoExecute") and not any(
                    _tolerates(t, taint) for t in spec.get("tolerations") or []):
                problems.append(f"{where}: the taint {taint} is not tolerated")
        requested = pod_requests(pod)
        for resource in {*want_resources, *(r for r in requested if "/" in r)}:
            have = quantity(allocatable.get(resource, "0"))
            if have < max(requested.get(resource, 0), 1):
                problems.append(f"{where}: {resource} allocatable {allocatable.get(resource)}, "
                                f"requested {requested.get(resource)}")
    for pod in pods:
        node_labels = nodes[pod["spec"]["nodeName"]]["metadata"]["labels"]
        unread = set(pod["spec"].get("affinity") or {}) - {"podAntiAffinity"}
        assert not unread, f"an affinity this test does not read: {sorted(unread)}"
        affinity = (pod["spec"].get("affinity") or {}).get("podAntiAffinity") or {}
        for term in affinity.get("requiredDuringSchedulingIgnoredDuringExecution") or []:
            key = term["topologyKey"]
            for other in pods:
                other_labels = nodes[other["spec"]["nodeName"]]["metadata"]["labels"]
                if (other is not pod and _selects(term["labelSelector"], other["metadata"]["labels"])
                        and key in node_labels and other_labels.get(key) == node_labels[key]):
                    problems.append(f"{pod['metadata']['name']} and {other['metadata']['name']} share "
                                    f"{key}={node_labels.get(key)} against a required pod anti-affinity")
        for constraint in pod["spec"].get("topologySpreadConstraints") or []:
            if constraint.get("whenUnsatisfiable", "DoNotSchedule") != "DoNotSchedule":
                continue
            key, selector = constraint["topologyKey"], pod["spec"].get("nodeSelector") or {}
            counts = {n["metadata"]["labels"][key]: 0 for n in nodes.values()
                      if key in n["metadata"]["labels"]
                      and all(n["metadata"]["labels"].get(k) == v for k, v in selector.items())}
            for other in pods:
                if _selects(constraint["labelSelector"], other["metadata"]["labels"]):
                    domain = nodes[other["spec"]["nodeName"]]["metadata"]["labels"].get(key)
                    if domain not in counts:  # the scheduler filters out a node without the key
                        problems.append(f"{other['metadata']['name']}: on {other['spec']['nodeName']}, "
                                        f"not a node of the spread's domains ({key}={domain})")
                        continue
                    counts[domain] += 1
            if max(counts.values()) - min(counts.values()) > constraint["maxSkew"]:
                problems.append(f"{pod['metadata']['name']}: {key} skew {counts} over maxSkew {constraint['maxSkew']}")
    return sorted(set(problems))


def gang_problems(podgroup: dict, pods: list[dict]) -> list[str]:
    """The live PodGroup's minMember and minResources against what the gang's live pods are and request."""
    spec, name = podgroup["spec"], podgroup["metadata"]["name"]
    if spec.get("minMember") != len(pods):
        return [f"PodGroup/{name}: minMember {spec.get('minMember')}, the job has {len(pods)} pods"]
    needed: dict[str, Fraction] = {}
    for pod in pods:
        _add(needed, pod_requests(pod))
    written = {k: quantity(v) for k, v in (spec.get("minResources") or {}).items()}
    if written != {k: v for k, v in needed.items() if v}:
        return [f"PodGroup/{name}: minResources {spec.get('minResources')}, its pods request "
                f"{ {k: str(v) for k, v in needed.items()} }"]
    return []


def mpi_problems(job: dict, pods: list[dict]) -> list[str]:
    """The live MPIJob's slotsPerWorker and its live launcher's `mpirun -np` against the GPUs its
    live workers request: one slot per GPU, -np the slots of every worker."""
    workers = [p for p in pods if _role(p) == "worker"]
    (launcher,) = [p for p in pods if _role(p) == "launcher"]
    gpus = {pod_requests(p).get(GPU, 0) for p in workers}
    slots = job["spec"].get("slotsPerWorker")
    command = launcher["spec"]["containers"][0]["command"]
    np = int(command[command.index("-np") + 1]) if "-np" in command else None
    problems = []
    if gpus != {slots}:
        problems.append(f"MPIJob/{job['metadata']['name']}: slotsPerWorker {slots}, its workers request "
                        f"{sorted(str(g) for g in gpus)} {GPU}")
    if np != slots * len(workers):
        problems.append(f"{launcher['metadata']['name']}: mpirun -np {np}, {len(workers)} workers of {slots} slots")
    return problems


# ------------------------------------------------------------------------------------------------


def _pods(kube: Kube, namespace: str, name: str) -> list[dict]:
    return kube.get("pods", "-n", namespace, "-l", f"training.kubeflow.org/job-name={name}")["items"]


def _pod_count(objects: list[dict]) -> int:
    """The pods explain's OBJECTS make: its Pods, and those of its Jobs (mpi-operator's launcher)."""
    return sum(1 if o["kind"] == "Pod" else o["spec"].get("parallelism", 1) for o in objects
               if o["kind"] in ("Pod", "Job"))


def _running(kube: Kube, namespace: str, name: str, count: int) -> list[dict]:
    """The job's pods once COUNT of them are bound and Running (polled, WAIT_SECONDS at most)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        pods = _pods(kube, namespace, name)
        if len(pods) == count and all(p["status"].get("phase") == "Running" for p in pods):
            return pods
        if time.monotonic() >= deadline:
            summary = {p["metadata"]["name"]: (p["spec"].get("nodeName"), p["status"].get("phase")) for p in pods}
            pytest.fail(f"not every pod of {name} bound and Running after {WAIT_SECONDS} s "
                        f"({len(pods)} of {count}): {json.dumps(summary)}")
        time.sleep(1)


@pytest.fixture(scope="module")
def explain_namespace(kube: Kube) -> str:
    """Where explain's objects get the API server's defaulting (test_operators._server_defaulted)."""
    kube.kubectl("create", "namespace", EXPLAIN_NAMESPACE, check=False)
    return EXPLAIN_NAMESPACE


@pytest.mark.parametrize("case", list(CASES))
def test_production_job_runs_where_its_placement_says(kube: Kube, nodes_file: Path, explain_namespace: str,
                                                      tmp_path: Path, case: str) -> None:
    job = _build(kube, spec_of(case), tmp_path / f"{case}.yaml")
    namespace = kube.namespaces[gang_of(job)]
    job["metadata"]["namespace"] = namespace
    name = job["metadata"]["name"]
    manifest = tmp_path / "job.yaml"
    manifest.write_text(yaml.safe_dump(job))
    explained = kube.mpigen("explain", str(manifest), "--format", "yaml", "--cluster", str(nodes_file))
    assert explained.returncode == 0 and "gang-cannot-fit" not in explained.stderr, explained.stderr
    expected = [o for o in yaml.safe_load_all(explained.stdout) if isinstance(o, dict)]
    defaulted = _server_defaulted(kube, expected)
    RESULTS[case] = False

    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", str(manifest))
    try:
        pods = _running(kube, namespace, name, _pod_count(expected))
        nodes = {n["metadata"]["name"]: n for n in kube.get("nodes")["items"]}
        problems = placement_problems(pods, nodes, CASES[case][1])
        live = live_objects(kube, expected, namespace)
        missing = sorted(f"{k}/{n}" for (k, n), o in live.items() if o is None)
        problems += [f"missing: {', '.join(missing)}"] * bool(missing)
        problems += explain_differences(kube, job, namespace, defaulted, live)
        podgroups = [o for (kind, _), o in live.items() if kind == "PodGroup" and o]
        assert len(podgroups) == 1, f"{len(podgroups)} live PodGroups"
        problems += gang_problems(podgroups[0], pods)
        if job["kind"] == "MPIJob":
            problems += mpi_problems(kube.get("mpijob", name, "-n", namespace), pods)
        assert not problems, "\n".join(problems)
        RESULTS[case] = True
    finally:
        _delete_and_wait(kube, job, namespace, expected)


def test_a_patch_that_gives_the_workers_their_gpus_counts_in_the_gang(kube: Kube, tmp_path: Path) -> None:
    """The variant's GPUs come from its workers' patch alone: without the patch the job asks for
    none and -np is the number of workers; with it the written minResources and the launcher's
    -np count 8 per worker (the live PodGroup and launcher of the variant are checked against the
    live workers' requests above)."""
    case = "horovod-infiniband-gpu-patch"
    plain = _build(kube, spec_of(case, patched=False), tmp_path / "plain.yaml")
    patched = _build(kube, spec_of(case), tmp_path / "patched.yaml")
    workers = patched["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"]
    gpus = [job["spec"]["runPolicy"]["schedulingPolicy"]["minResources"].get(GPU) for job in (plain, patched)]
    assert gpus == [None, str(8 * workers)]
    np = [c["command"][c["command"].index("-np") + 1] for c in
          (job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0] for job in (plain, patched))]
    assert np == [str(workers), str(8 * workers)]


def test_figure() -> None:
    """Prints `A/N production jobs run where their placement says` (runs after the jobs above)."""
    assert len(RESULTS) == len(CASES), f"{len(RESULTS)} of {len(CASES)} production jobs ran"
    ran = sum(RESULTS.values())
    FIGURES.append(f"{ran}/{len(RESULTS)} production jobs run where their placement says")
    assert ran == len(RESULTS)
