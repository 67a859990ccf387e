"""``mpigen import manifest``, the pods: a role's pod template -> the spec's fields for that role.

Two steps, each the inverse of what :mod:`mpigen.render.pods` and the operator do:

1. :func:`target_template`: the template the spec must generate. What the operator overwrites
   when it creates the pods is taken out (each a warning, ``import-dropped``, when it said
   something else): the pod's restartPolicy, hostname and subdomain, an MPIJob's dnsPolicy on the
   host network, the gang's scheduler name and group annotation or label (mpigen writes them from
   ``scheduling``); what the operator fills in is filled in (an MPI worker without a command or
   args runs ``/usr/sbin/sshd -De``); the annotation ``sidecar.istio.io/inject: "false"``, which
   mpigen writes on every job on purpose, is added. What no spec field and no patch can carry is
   an error (``import-lost``): template metadata other than labels and annotations, the
   operator's own volumes, a scheduler the gang's operator keeps.
2. :func:`role_fields`: the spec fields that generate as much of it as they can, each exactly or
   not at all (what is left is the pod template patch's, :mod:`.manifest`): the training
   container's image, command, args, env (when every variable is a value or a Secret's key and
   they are sorted, as mpigen writes them), envFrom, ports, resources (requests equal to limits,
   canonical quantities), probes, security context and working directory; the pod's placement,
   security context, host network, service account, runtime class, DRA claims, volumes with their
   mounts (a claim or a host folder written short), sidecars and init containers.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ..credentials import looks_like_credential
from ..diagnostics import Severity
from ..expand.defaults import GPU_RESOURCE
from ..names import OWN_VOLUMES, VOLUME_MOUNT_FIELDS, volume_name
from ..operator.quantity import Quantity, QuantityError
from ..render.pods import ISTIO_INJECT
from ..spec.role_rules import CODE_SYNC

Finding = tuple[tuple, str, Severity, str]

SSHD_DEFAULT = ["/usr/sbin/sshd", "-De"]  # mpi-operator's worker command when the template has none
OPERATOR_VOLUMES = ("ssh-auth", "mpi-job-config")
GROUP_ANNOTATION = "scheduling.k8s.io/group-name"
GROUP_LABEL = "scheduling.x-k8s.io/pod-group"
TASK_SPEC_ANNOTATION = "volcano.sh/task-spec"
HOST_NETWORK_DNS = "ClusterFirstWithHostNet"
ENV_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")
_VOLUME_NAME = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
_LABEL_KEY = re.compile(r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                        r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$")

CONTAINER_FIELDS = ("image", "imagePullPolicy", "workingDir", "envFrom", "livenessProbe", "readinessProbe",
                    "startupProbe", "securityContext")
"""Fields of the training container the spec writes as they are."""
POD_FIELDS = {"nodeSelector": "nodeSelector", "priorityClassName": "priorityClassName",
              "runtimeClassName": "runtimeClassName", "serviceAccountName": "serviceAccountName",
              "tolerations": "tolerations", "affinity": "affinity",
              "topologySpreadConstraints": "topologySpreadConstraints", "securityContext": "podSecurityContext"}
"""Fields of the pod the spec writes as they are: the pod's name -> the spec's."""


def dropped(path: tuple, message: str) -> Finding:
    return (path, "import-dropped", Severity.WARNING, message)


def lost(path: tuple, message: str) -> Finding:
    return (path, "import-lost", Severity.ERROR, message)


def target_template(template: dict, where: tuple, *, kind: str, role: str, job_name: str, gang: str | None,
                    scheduler_name: str) -> tuple[dict, list[Finding]]:
    """The pod template mpigen must generate for a role of a manifest (see the module)."""
    out = copy.deepcopy(template)
    findings: list[Finding] = []
    metadata = out.setdefault("metadata", {})
    for key in [k for k in metadata if k not in ("labels", "annotations")]:
        findings.append(lost(where + ("metadata", key), f"a pod template's metadata.{key}: a spec's pods take "
                             "labels and annotations only (the operator names each pod itself)"))
        del metadata[key]
    pod = out.setdefault("spec", {})
    overwritten = {"restartPolicy": "the operator sets each pod's restart policy from the replica type's "
                                    "restartPolicy"}
    if kind == "MPIJob":
        overwritten.update(hostname="mpi-operator names each pod's host itself (<job>-<role>-<index>)",
                           subdomain="mpi-operator sets each pod's subdomain to the job's Service")
    for key, why in overwritten.items():
        if key in pod:
            findings.append(dropped(where + ("spec", key), f"{key} is not imported: {why}"))
            del pod[key]
    if kind == "MPIJob" and pod.get("hostNetwork") and pod.get("dnsPolicy") != HOST_NETWORK_DNS:
        if "dnsPolicy" in pod:
            findings.append(dropped(where + ("spec", "dnsPolicy"), f"dnsPolicy {pod['dnsPolicy']} is not "
                                    f"imported: mpi-operator gives pods on the host network {HOST_NETWORK_DNS}"))
        pod["dnsPolicy"] = HOST_NETWORK_DNS
    findings += _gang_marks(out, where, kind, role, job_name, gang, scheduler_name)
    for i, volume in enumerate(pod.get("volumes") or []):
        if isinstance(volume, dict) and volume.get("name") in OPERATOR_VOLUMES and kind == "MPIJob":
            findings.append(lost(where + ("spec", "volumes", i, "name"), f"volume {volume['name']!r} is the name "
                                 "mpi-operator gives its own (the SSH keys, the hostfile): the pods would have it "
                                 "twice"))
    containers = pod.get("containers") or []
    if kind == "MPIJob" and role == "worker" and containers and isinstance(containers[0], dict) \
            and not containers[0].get("command") and not containers[0].get("args"):
        containers[0]["command"] = list(SSHD_DEFAULT)
    if not metadata.get("labels"):
        metadata.pop("labels", None)  # an empty map is none, as the API server stores it
    annotations = metadata.setdefault("annotations", {})
    annotations.setdefault(ISTIO_INJECT, "false")
    return out, findings


def _gang_marks(template: dict, where: tuple, kind: str, role: str, job_name: str, gang: str | None,
                scheduler_name: str) -> list[Finding]:
    """Take out what the gang's operator writes on the pods itself (mpigen writes it from
    ``scheduling``): the scheduler's name, the group annotation or label, Volcano's task."""
    metadata, pod = template["metadata"], template["spec"]
    if gang == "kube-batch":  # as mpigen writes them with its PodGroup (manifest_gang.kube_batch_group)
        del pod["schedulerName"]
        del metadata["annotations"][GROUP_ANNOTATION]
        return []
    if gang not in ("volcano", "scheduler-plugins"):
        return []
    findings = []
    wanted = "volcano" if gang == "volcano" else scheduler_name
    if pod.get("schedulerName") not in (None, wanted):
        if kind == "MPIJob":
            findings.append(dropped(where + ("spec", "schedulerName"), f"schedulerName {pod['schedulerName']} is "
                                    f"not imported: under the gang mpi-operator gives every pod {wanted}"))
        else:
            findings.append(lost(where + ("spec", "schedulerName"), f"schedulerName {pod['schedulerName']}: "
                                 f"training-operator keeps a scheduler other than the gang's ({wanted}), and a "
                                 "spec's pods run on the gang's scheduler"))
    pod.pop("schedulerName", None)
    marks = {"annotations": {GROUP_ANNOTATION: job_name}} if gang == "volcano" else {"labels": {GROUP_LABEL: job_name}}
    if gang == "volcano" and kind != "MPIJob":
        marks["annotations"][TASK_SPEC_ANNOTATION] = role
    for kind_of, values in marks.items():
        found = metadata.get(kind_of) or {}
        for key, value in values.items():
            if key in found and found[key] != value:
                findings.append(dropped(where + ("metadata", kind_of, key), f"{key} {found[key]!r} is not "
                                        f"imported: the operator sets it to {value!r}"))
            found.pop(key, None)
    return findings


# ------------------------------------------------------------------------------- fields


def main_index(template: dict, kind: str) -> int:
    """The training container: an MPIJob's first, a PyTorchJob's ``pytorch``, a TFJob's ``tensorflow``."""
    wanted = {"PyTorchJob": "pytorch", "TFJob": "tensorflow"}.get(kind)
    containers = template["spec"].get("containers") or []
    return next((i for i, c in enumerate(containers) if isinstance(c, dict) and c.get("name") == wanted), 0)


def role_fields(template: dict, main: int, *, job_labels: dict, own_volumes: set[str] = frozenset(),
                gpu_resource: str = GPU_RESOURCE) -> dict[str, Any]:
    """The spec fields of a role that generate as much of ``template`` as can be said exactly
    (``command`` and ``args`` are the kind's, see :mod:`.manifest`; ``name`` is the container's).
    ``own_volumes``: the volumes mpigen's own features bring (:mod:`.manifest_features`), which
    init containers may mount."""
    pod = template["spec"]
    container = pod["containers"][main]
    fields: dict[str, Any] = {"name": container.get("name")}
    for key in CONTAINER_FIELDS:
        if key in container:
            fields[key] = copy.deepcopy(container[key])
    for key, field in POD_FIELDS.items():
        if key in pod:
            fields[field] = copy.deepcopy(pod[key])
    env = env_map(container.get("env"))
    if env:
        fields["env"] = env
    if pod.get("hostNetwork") is True:
        fields["hostNetwork"] = True
        if pod.get("dnsPolicy") not in (None, HOST_NETWORK_DNS):
            fields["dnsPolicy"] = pod["dnsPolicy"]
    elif "dnsPolicy" in pod:
        fields["dnsPolicy"] = pod["dnsPolicy"]
    secrets = pod.get("imagePullSecrets")
    if isinstance(secrets, list) and secrets and all(isinstance(s, dict) and set(s) == {"name"} for s in secrets):
        fields["imagePullSecrets"] = [s["name"] for s in secrets]
    resources, claims = container_resources(container.get("resources"), pod.get("resourceClaims"), gpu_resource)
    if resources is not None:
        fields["resources"] = resources
    if claims:
        fields["resourceClaims"] = copy.deepcopy(pod["resourceClaims"])
    fields.update(pod_metadata(template["metadata"], job_labels))
    volumes = spec_volumes(pod.get("volumes"), container.get("volumeMounts"))
    if volumes:
        fields["volumes"] = volumes
    defined = {volume_name(v) for v in volumes or []} | set(own_volumes)
    if volumes is not None or not pod.get("volumes"):
        fields.update(init_containers(pod.get("initContainers"), defined))
    return fields


def env_map(env: Any) -> dict[str, Any] | None:
    """``env`` as the spec's map when mpigen writes it back the same: each variable a text value or
    a Secret's key, no credential in plain text, sorted by name (mpigen sorts them)."""
    if not isinstance(env, list) or not env:
        return None
    out: dict[str, Any] = {}
    for item in env:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or item["name"] in out \
                or not ENV_NAME.match(item["name"]):
            return None
        name = item["name"]
        if set(item) == {"name", "value"} and isinstance(item["value"], str) \
                and not looks_like_credential(name, item["value"]):
            out[name] = item["value"]
        elif set(item) == {"name", "valueFrom"} and set(item["valueFrom"]) == {"secretKeyRef"} \
                and set(item["valueFrom"]["secretKeyRef"]) == {"name", "key"}:
            out[name] = {"secretKeyRef": dict(item["valueFrom"]["secretKeyRef"])}
        else:
            return None
    return out if list(out) == sorted(out) else None


def container_resources(resources: Any, pod_claims: Any, gpu_resource: str) -> tuple[dict | None, bool]:
    """(the spec's resources for a container's, or None when they cannot be said; whether its
    claims are the pod's every claim, as mpigen writes ``resourceClaims``)."""
    if not isinstance(resources, dict) or not resources:
        return ({} if resources in (None, {}) else None), False
    limits, requests = resources.get("limits") or {}, resources.get("requests") or {}
    claims = resources.get("claims")
    all_claims = isinstance(pod_claims, list) and bool(pod_claims) and claims == [
        {"name": c.get("name")} for c in pod_claims if isinstance(c, dict)]
    if set(resources) - {"limits", "requests", "claims"} or (claims and not all_claims):
        return None, False
    if limits != requests or not isinstance(limits, dict):
        return None, all_claims
    out: dict[str, Any] = {}
    for name, value in limits.items():
        if not isinstance(value, str) or not _canonical(value):
            return None, all_claims
        if name == gpu_resource and re.fullmatch(r"[1-9][0-9]*", value):
            out = {"gpu": int(value), **out}
        elif name in ("gpu",):
            return None, all_claims  # a resource named gpu would be taken for GPUs
        else:
            out[name] = value
    return out, all_claims


def _canonical(value: str) -> bool:
    try:
        return Quantity.parse(value).canonical() == value
    except (QuantityError, ValueError):
        return False


def pod_metadata(metadata: dict, job_labels: dict) -> dict[str, Any]:
    """The pods' ``labels`` (besides the job's, which go on them too) and ``annotations``
    (besides mpigen's Istio one)."""
    out: dict[str, Any] = {}
    labels = {k: v for k, v in (metadata.get("labels") or {}).items() if job_labels.get(k) != v}
    if labels and all(_LABEL_KEY.match(k) for k in labels):
        out["labels"] = dict(sorted(labels.items()))
    annotations = {k: v for k, v in (metadata.get("annotations") or {}).items()
                   if not (k == ISTIO_INJECT and v == "false")}
    if annotations and all(_LABEL_KEY.match(k) for k in annotations):
        out["annotations"] = dict(sorted(annotations.items()))
    return out


def spec_volumes(volumes: Any, mounts: Any) -> list[dict[str, Any]] | None:
    """The pod's volumes and the training container's mounts as ``spec.volumes``: each volume
    mounted once at most, in the volumes' order; None when they cannot be said so."""
    volumes = volumes or []
    mounts = mounts or []
    if not isinstance(volumes, list) or not isinstance(mounts, list):
        return None
    names = [v.get("name") if isinstance(v, dict) else None for v in volumes]
    if any(not isinstance(n, str) or not _VOLUME_NAME.match(n) or len(n) > 63 or n in OWN_VOLUMES for n in names) \
            or len(set(names)) != len(names):
        return None
    by_name: dict[str, dict] = {}
    for mount in mounts:
        if not isinstance(mount, dict) or mount.get("name") not in names or mount["name"] in by_name \
                or set(mount) - {"name", *VOLUME_MOUNT_FIELDS} or "mountPath" not in mount:
            return None
        if any(not mount[k] for k in mount if k != "name"):  # mpigen writes only what is set
            return None
        by_name[mount["name"]] = mount
    mounted = [n for n in names if n in by_name]
    if mounted != [m["name"] for m in mounts]:
        return None
    out = []
    for volume in volumes:
        mount = by_name.get(volume["name"])
        item = _volume_item(volume, mount)
        if item is None:
            return None
        out.append(item)
    return out


def _volume_item(volume: dict, mount: dict | None) -> dict[str, Any] | None:
    """One volume (and its mount) as an item of ``spec.volumes``: a claim or a host folder written
    short when that says the same, any other source as Kubernetes writes it."""
    sources = [k for k in volume if k != "name"]
    if len(sources) != 1:
        return None
    (source,) = sources
    value = volume[source]
    mount_fields = {k: v for k, v in (mount or {}).items() if k != "name"}
    item: dict[str, Any] = {}
    short_claim = source == "persistentVolumeClaim" and isinstance(value, dict) \
        and set(value) <= {"claimName", "readOnly"} and value.get("readOnly") is not False
    if short_claim and (mount is None or bool(value.get("readOnly")) == bool(mount_fields.get("readOnly"))):
        # short: readOnly marks the claim and the mount alike
        item["claimName"] = value["claimName"]
        if value.get("readOnly"):
            item["readOnly"] = True
        mount_fields.pop("readOnly", None)
    elif source == "hostPath" and isinstance(value, dict) and set(value) == {"path"} \
            and isinstance(value["path"], str) and value["path"].startswith("/"):
        item["hostPath"] = value["path"]
    else:
        item[source] = copy.deepcopy(value)
    if volume_name(item) != volume["name"]:
        item = {"name": volume["name"], **item}
    item.update(mount_fields)
    return item


def init_containers(items: Any, defined: set[str]) -> dict[str, Any]:
    """``sidecars`` (the leading init containers that keep running, ``restartPolicy: Always``, which
    mpigen writes) and ``initContainers`` (the rest), when every volume they mount is one of the
    role's volumes; ``{}`` otherwise (the patch has them)."""
    if not isinstance(items, list) or not items:
        return {}
    for item in items:
        if not isinstance(item, dict) or item.get("name") == CODE_SYNC:
            return {}
        for mount in item.get("volumeMounts") or []:
            if not isinstance(mount, dict) or mount.get("name") not in defined:
                return {}
    count = 0
    while count < len(items) and items[count].get("restartPolicy") == "Always":
        count += 1
    out: dict[str, Any] = {}
    if count:
        out["sidecars"] = [{k: copy.deepcopy(v) for k, v in c.items() if k != "restartPolicy"} for c in items[:count]]
    rest = [copy.deepcopy(c) for c in items[count:]]
    if any(c.get("restartPolicy") == "Always" for c in rest):
        return {}  # a sidecar after an init container: mpigen starts sidecars first
    if rest:
        out["initContainers"] = rest
    return out


def program(container: dict) -> tuple[list[str] | None, list[str] | None]:
    """A container's (command, args), None where it has none."""
    command, args = container.get("command"), container.get("args")
    return (list(command) if command else None), (list(args) if args else None)

