"""The operators for real: every golden job is applied to the local cluster, and every object the
running mpi-operator v0.8.2 or training-operator v1.9.4 creates for it (PodGroup, Services,
ConfigMap, Secret, launcher Job, Pods) equals what `mpigen explain --format yaml` says, field by
field; and the PodGroup equals the job's written schedulingPolicy.

A job is applied in the namespace whose operator instances run its gang mode (the golden's own
namespace is replaced), and explained in that namespace, with the cluster's PriorityClasses. To
compare like with like, explain's objects get the API server's defaulting too: they are created
with `--dry-run=server` in a namespace no operator watches. Then only what the server sets on a
live object is left aside: uid, resourceVersion, timestamps, managedFields, status, a Pod's
nodeName (the scheduler's) and the zone and region labels the API server copies from its node
when it is bound, generated names (the service-account token volume, a Job's
controller-uid selector), and Secret values (random SSH keys: their keys are compared).
"""

from __future__ import annotations

import copy
import json
import re
import time
from pathlib import Path
from typing import Callable

import pytest
import yaml
from deepdiff import DeepDiff

from tests.e2e.conftest import FIGURES, ROOT, Kube

JOB_KINDS = {"MPIJob", "PyTorchJob", "TFJob"}
EXPLAIN_NAMESPACE = "mpigen-explain"  # no operator watches it
WAIT_SECONDS = 120
HELD_SECONDS = 20  # a Volcano PodGroup still Pending after this long is taken as held (not admitted)
RESULTS: dict[str, tuple[int, int]] = {}  # job -> (equal objects, objects)


def golden_jobs() -> list[tuple[str, dict]]:
    jobs = []
    for path in sorted(ROOT.glob("golden/*/*.yaml")):
        if path.name == "case.yaml":
            continue
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") in JOB_KINDS:
                jobs.append((f"{path.parent.name}/{path.stem}/{doc['kind']}", doc))
    return jobs


JOBS = golden_jobs()


def gang_of(job: dict) -> str:
    """The gang mode the job's pod templates are written for (as explain infers it)."""
    spec = job["spec"]
    replicas = spec.get("mpiReplicaSpecs") or spec.get("pytorchReplicaSpecs") or spec.get("tfReplicaSpecs") or {}
    names = {((r.get("template") or {}).get("spec") or {}).get("schedulerName") for r in replicas.values()}
    if "volcano" in names:
        return "volcano"
    if "scheduler-plugins-scheduler" in names:
        return "scheduler-plugins"
    return "none"


def _ident(obj: dict) -> tuple[str, str]:
    return obj["kind"], obj["metadata"]["name"]


# The PodTopologyLabels admission plugin (Kubernetes 1.35, feature PodTopologyLabelsAdmission, beta
# and on by default) copies these labels of the node onto a Pod when it is bound to it
# (plugin/pkg/admission/podtopologylabels).
BINDING_LABELS = ("topology.kubernetes.io/zone", "topology.kubernetes.io/region")
_GENERATED_VOLUME = re.compile(r"^kube-api-access-[a-z0-9]+$")


def normalized(obj: dict) -> dict:
    """OBJ without what the API server or the scheduler sets on a live object by itself."""
    obj = copy.deepcopy(obj)
    obj.pop("status", None)
    meta = obj.get("metadata", {})
    for key in ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation", "ownerReferences",
                "namespace", "selfLink"):
        meta.pop(key, None)
    if obj["kind"] == "Secret":
        obj["data"] = sorted(obj.get("data") or {})
    pod_spec = obj.get("spec", {})
    if obj["kind"] == "Job":
        pod_spec.pop("selector", None)
        obj["spec"]["template"].get("metadata", {}).pop("ownerReferences", None)  # the job's, checked apart
        for labels in (obj["spec"]["template"].get("metadata", {}).get("labels", {}), meta.get("labels", {})):
            labels.pop("controller-uid", None)
            labels.pop("batch.kubernetes.io/controller-uid", None)
        pod_spec = obj["spec"]["template"]["spec"]
    if obj["kind"] == "Pod":  # copied from the node at binding, as the node's
        for label in BINDING_LABELS:
            meta.get("labels", {}).pop(label, None)
    if obj["kind"] in ("Pod", "Job"):
        pod_spec.pop("nodeName", None)
        for volume in pod_spec.get("volumes", []):
            if _GENERATED_VOLUME.match(volume["name"]):
                volume["name"] = "kube-api-access"
        for container in pod_spec.get("containers", []) + pod_spec.get("initContainers", []):
            for mount in container.get("volumeMounts", []):
                if _GENERATED_VOLUME.match(mount["name"]):
                    mount["name"] = "kube-api-access"
    return obj


def _server_defaulted(kube: Kube, objects: list[dict]) -> dict[tuple[str, str], dict]:
    moved = []
    for obj in objects:
        obj = copy.deepcopy(obj)
        obj["metadata"]["namespace"] = EXPLAIN_NAMESPACE
        if obj["kind"] == "Secret":  # explain redacts the generated keys
            obj["data"] = {k: "cmVkYWN0ZWQ=" for k in obj.get("data") or {}}  # "redacted"
        moved.append(obj)
    done = kube.kubectl("create", "--dry-run=server", "-o", "json", "-f", "-",
                        stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": moved}))
    return {_ident(o): o for o in json_stream(done.stdout)}


def json_stream(text: str) -> list[dict]:
    """kubectl's -o json of several objects: one JSON document after another (or a List)."""
    decoder, objects, at = json.JSONDecoder(), [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        obj, at = decoder.raw_decode(text, at)
        objects += obj.get("items", []) if obj.get("kind") == "List" else [obj]
    return objects


def _live(kube: Kube, resource: str, namespace: str, name: str) -> dict | None:
    """The live object, RESOURCE qualified by its group (three CRDs are named PodGroup)."""
    done = kube.kubectl("get", resource, name, "-n", namespace, "-o", "json", check=False)
    return json.loads(done.stdout) if done.returncode == 0 else None


def kind_resource(kind: str) -> str:
    return {"PodGroup": "podgroups"}.get(kind, kind.lower())


def live_objects(kube: Kube, expected: list[dict], namespace: str,
                 enough: Callable[[dict], bool] = lambda live: False) -> dict[tuple[str, str], dict | None]:
    """The live copy of each of ``expected`` (None for those not there), polled once a second until
    every one exists, ``enough(live)`` says to stop, or WAIT_SECONDS have passed."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        live = {_ident(o): _live(kube, _api_resource(o), namespace, o["metadata"]["name"]) for o in expected}
        if all(live.values()) or enough(live) or time.monotonic() >= deadline:
            return live
        time.sleep(1)


def _api_resource(obj: dict) -> str:
    group = obj["apiVersion"].split("/")[0] if "/" in obj["apiVersion"] else ""
    return f"{kind_resource(obj['kind'])}.{group}" if group else kind_resource(obj["kind"])


@pytest.fixture(scope="module")
def cluster_file(kube: Kube, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cluster") / "priorityclasses.yaml"
    path.write_text(kube.kubectl("get", "priorityclasses", "-o", "yaml").stdout)
    kube.kubectl("create", "namespace", EXPLAIN_NAMESPACE, check=False)
    return path


def _delete_and_wait(kube: Kube, job: dict, namespace: str, expected: list[dict]) -> None:
    kube.kubectl("delete", job["kind"].lower(), job["metadata"]["name"], "-n", namespace, "--wait=true",
                 "--timeout=60s", check=False, timeout=90)
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if all(_live(kube, _api_resource(o), namespace, o["metadata"]["name"]) is None
               for o in expected if o["kind"] != "Secret"):
            return
        time.sleep(1)
    pytest.fail(f"objects of {job['metadata']['name']} still there {WAIT_SECONDS} s after the job was deleted")


@pytest.mark.parametrize("name,job", JOBS, ids=[n for n, _ in JOBS])
def test_operator_objects_equal_explain(kube: Kube, cluster_file: Path, name: str, job: dict, tmp_path: Path) -> None:
    namespace = kube.namespaces[gang_of(job)]
    job = copy.deepcopy(job)
    job["metadata"]["namespace"] = namespace
    manifest = tmp_path / "job.yaml"
    manifest.write_text(yaml.safe_dump(job))
    explained = kube.mpigen("explain", str(manifest), "--format", "yaml", "--cluster", str(cluster_file))
    assert explained.returncode in (0, 1), explained.stderr
    expected = [o for o in yaml.safe_load_all(explained.stdout) if isinstance(o, dict)]
    assert expected, f"explain printed no object:\n{explained.stderr}"
    defaulted = _server_defaulted(kube, expected)

    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", str(manifest))
    try:
        started = time.monotonic()
        live = live_objects(kube, expected, namespace,
                            lambda live: time.monotonic() > started + HELD_SECONDS and _held_by_volcano(job, live))
        if _held_by_volcano(job, live):  # training-operator creates nothing more until Volcano admits it
            expected = [o for o in expected if o["kind"] == "PodGroup"]
            live = {k: v for k, v in live.items() if k[0] == "PodGroup"}
            defaulted = {k: v for k, v in defaulted.items() if k[0] == "PodGroup"}
        missing = sorted(f"{k}/{n}" for (k, n), o in live.items() if o is None)
        differences = explain_differences(kube, job, namespace, defaulted, live)
        equal = len(expected) - len(missing) - len({d.split(":")[0] for d in differences})
        RESULTS[name] = (equal, len(expected))
        assert not missing and not differences, "\n".join(
            [f"missing: {', '.join(missing)}"] * bool(missing) + differences)
    finally:
        _delete_and_wait(kube, job, namespace, expected)


def explain_differences(kube: Kube, job: dict, namespace: str, defaulted: dict[tuple[str, str], dict],
                        live: dict[tuple[str, str], dict | None]) -> list[str]:
    """How each live object the operator created for JOB differs from explain's (server-defaulted,
    ``defaulted``), one line per object (``Kind/name: ...``): fields, an owner other than the job,
    and each live PodGroup against the job's written schedulingPolicy. Objects not live are left
    to the caller."""
    differences = []
    for ident, want in defaulted.items():
        got = live.get(ident)
        if got is None:
            continue
        if ident[0] == "ConfigMap" and "discover_hosts.sh" in got.get("data", {}):
            differences += _discover_hosts(kube, job, namespace, want, got)
        diff = DeepDiff(normalized(want), normalized(got), ignore_order=False, verbose_level=2)
        if diff:
            differences.append(f"{ident[0]}/{ident[1]}: {diff.pretty()}")
        owners = got["metadata"].get("ownerReferences") or []
        if ident[0] != "Pod" or owners:  # every object the operator creates is the job's
            if not any(o["kind"] == job["kind"] and o["name"] == job["metadata"]["name"] for o in owners):
                differences.append(f"{ident[0]}/{ident[1]}: not owned by the job ({owners})")
    podgroups = [o for o in live.values() if o and o["kind"] == "PodGroup"]
    policy = job["spec"]["runPolicy"].get("schedulingPolicy") if "runPolicy" in job["spec"] else None
    for podgroup in podgroups:
        differences += _podgroup_vs_policy(podgroup, policy or {})
    return differences


def _held_by_volcano(job: dict, live: dict[tuple[str, str], dict | None]) -> bool:
    """training-operator v1.9.4 creates a job's Pods and Services only once Volcano has admitted
    its PodGroup (common/job.go, ReconcileJobs; control/podgroup_control.go,
    VolcanoControl.DelayPodCreationDueToPodGroup: no phase or Pending delays them). A gang larger
    than the cluster (or in a closed queue) is never admitted, so its PodGroup is all there is."""
    if job["kind"] == "MPIJob":
        return False
    podgroups = [o for (kind, _), o in live.items() if kind == "PodGroup" and o]
    return any(pg["apiVersion"].startswith("scheduling.volcano.sh/")
               and pg.get("status", {}).get("phase", "") in ("", "Pending") for pg in podgroups)


def _discover_hosts(kube: Kube, job: dict, namespace: str, want: dict, got: dict) -> list[str]:
    """discover_hosts.sh lists the pods that run, and the operator rewrites it as they start
    (mpi-operator's updateDiscoverHostsInConfigMap): explain shows it as created, before any pod
    runs; the live one must list Running pods of the job only (a subset, as the operator may not
    have seen the last one start yet), each once. It is then set to explain's for the diff."""
    name = job["metadata"]["name"]
    pods = kube.get("pods", "-n", namespace, "-l", f"training.kubeflow.org/job-name={name}")["items"]
    running = {f"echo {p['metadata']['name']}.{name}.{namespace}.svc" for p in pods
               if p["status"].get("phase") == "Running"}
    lines = got["data"]["discover_hosts.sh"].splitlines()
    got["data"]["discover_hosts.sh"] = want["data"]["discover_hosts.sh"]
    if lines[:1] == ["#!/bin/sh"] and set(lines[1:]) <= running and len(set(lines[1:])) == len(lines) - 1:
        return []
    return [f"ConfigMap/{got['metadata']['name']}: discover_hosts.sh lists {lines[1:]}, Running: {sorted(running)}"]


def _podgroup_vs_policy(podgroup: dict, policy: dict) -> list[str]:
    spec = podgroup["spec"]
    pairs = {"minMember": policy.get("minAvailable")}
    if podgroup["apiVersion"].startswith("scheduling.volcano.sh/"):  # Volcano's PodGroup has no timeout
        pairs.update(queue=policy.get("queue"), priorityClassName=policy.get("priorityClass"))
    else:  # scheduler-plugins' has no queue and no priority
        pairs.update(scheduleTimeoutSeconds=policy.get("scheduleTimeoutSeconds"))
    problems = []
    for field, written in pairs.items():
        if written is not None and spec.get(field) != written:
            problems.append(f"PodGroup/{podgroup['metadata']['name']}: {field} {spec.get(field)!r}, "
                            f"schedulingPolicy says {written!r}")
    if policy.get("minResources") is not None and spec.get("minResources") != policy["minResources"]:
        problems.append(f"PodGroup/{podgroup['metadata']['name']}: minResources {spec.get('minResources')}, "
                        f"schedulingPolicy says {policy['minResources']}")
    return problems


def test_figure() -> None:
    """Prints `A/N operator objects equal explain` over every job above (runs after them)."""
    assert RESULTS, "no golden job ran"
    equal = sum(e for e, _ in RESULTS.values())
    total = sum(n for _, n in RESULTS.values())
    FIGURES.append(f"{equal}/{total} operator objects equal explain")
    assert equal == total
