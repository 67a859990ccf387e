"""An object's metadata is refused by the API server: its name, namespace, labels, annotations.

Every object the API server stores goes through ``ValidateObjectMetaAccessor`` (k8s.io/apimachinery
v0.35.1 ``pkg/api/validation/objectmeta.go``), custom resources (MPIJob, PyTorchJob, TFJob,
PodGroup, Queue, Kubeflow Trainer's TrainJob, TrainingRuntime and ClusterTrainingRuntime) as well as built-in kinds, before anything else happens: the name is a DNS-1123
subdomain (at most 253 characters of lower-case letters, digits, ``-`` and ``.``), a Service's a
DNS-1035 label (at most 63 characters, starting with a letter: ``ValidateServiceName`` in
k8s.io/kubernetes v1.35.1 ``pkg/apis/core/validation/validation.go``), and ``generateName`` the same
as a prefix; the namespace is a DNS-1123 label; label keys are qualified names and values at most
63 characters of letters, digits, ``-``, ``_`` and ``.`` (``ValidateLabels``); annotation keys are
qualified names and all annotations together at most 256 KiB (``ValidateAnnotations``); owner
references name an apiVersion, kind, name and uid, and at most one is the controller
(``ValidateOwnerReferences``); finalizers are qualified names (``ValidateFinalizers``), and on a
built-in kind (Deployment, Service, ConfigMap, Secret, PriorityClass, and Kubernetes' own
``scheduling.k8s.io`` Workload and PodGroup) have a ``/`` unless they are
``kubernetes``, ``orphan`` or ``foregroundDeletion`` (``validateKubeFinalizerName``). kubectl
itself refuses a ``creationTimestamp``, ``deletionTimestamp`` or managed-fields time that is not
an RFC 3339 time (``metav1.Time``). A label that Kueue reads (``kueue.x-k8s.io/queue-name``) is a
label like any other. A job's name is also checked by ``hostname``, which asks more of it; a name
the API server refuses is reported here only. Messages are the API server's.

Fix: use lower-case names (a Service's starting with a letter, at most 63 characters), label
values of at most 63 letters, digits, ``-``, ``_`` and ``.`` (quote them), and qualified keys
(``example.com/name``); leave server-set fields (``creationTimestamp``, ``managedFields``) out of a
manifest.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ...diagnostics import Severity
from ...names import CLUSTER_TRAINING_RUNTIME_KIND, RUNTIME_KINDS, TRAINJOB_KIND
from ..base import Context, Path
from ...operator.k8s_validation import (byte_length, invalid, is_dns1123_label, is_qualified_name, lists, name_is_dns_subdomain,
                              too_long, validate_labels)
from ._common import OBJECT_KINDS, mapping

CODE = "object-meta"
SEVERITY = Severity.ERROR
KINDS = OBJECT_KINDS + (TRAINJOB_KIND, *RUNTIME_KINDS)

CLUSTER_SCOPED = ("PriorityClass", "Queue", CLUSTER_TRAINING_RUNTIME_KIND)
BUILT_IN = ("Deployment", "Service", "ConfigMap", "Secret", "PriorityClass")  # validated by pkg/apis/*/validation
BUILT_IN_GROUPS = ("scheduling.k8s.io",)  # Kubernetes' own Workload and PodGroup (Volcano's PodGroup is a CRD)
STANDARD_FINALIZERS = ("kubernetes", "orphan", "foregroundDeletion")  # core/helper standardFinalizers
ANNOTATIONS_MAX_BYTES = 256 * 1024  # apimachinery TotalAnnotationSizeLimitB
BANNED_OWNERS = (("", "v1", "Event"),)
ORPHAN, FOREGROUND = "orphan", "foregroundDeletion"  # metav1.FinalizerOrphanDependents, FinalizerDeleteDependents
_RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})")
_DNS1035_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
_DNS1035 = re.compile(_DNS1035_FMT)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    meta = ctx.obj.get("metadata")
    if not isinstance(meta, dict):
        return  # the schema, or missing-field, reports it
    base: Path = ("metadata",)
    name_check = is_dns1035_label if ctx.kind == "Service" else name_is_dns_subdomain
    for key, prefix in (("generateName", True), ("name", False)):
        value = meta.get(key)
        if isinstance(value, str) and value:
            for message in name_check(value, prefix):
                yield base + (key,), invalid(value, message)
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and namespace and ctx.kind not in CLUSTER_SCOPED:
        for message in is_dns1123_label(namespace):
            yield base + ("namespace",), invalid(namespace, message)
    yield from validate_labels(meta.get("labels"), base + ("labels",))
    yield from annotations(meta.get("annotations"), base + ("annotations",))
    yield from owner_references(meta.get("ownerReferences"), base + ("ownerReferences",))
    yield from finalizers(meta.get("finalizers"), base + ("finalizers",), built_in=ctx.kind in BUILT_IN or ctx.api_version.rpartition("/")[0] in BUILT_IN_GROUPS)
    for key in ("creationTimestamp", "deletionTimestamp"):
        yield from _time(meta.get(key), base + (key,))
    for i, entry in enumerate(lists(meta.get("managedFields"))):
        yield from _time(mapping(entry).get("time"), base + ("managedFields", i, "time"))


def is_dns1035_label(name: str, prefix: bool = False) -> tuple[str, ...]:
    """``apimachineryvalidation.NameIsDNS1035Label`` (``validation.IsDNS1035Label``)."""
    if prefix and len(name) > 1 and name.endswith("-"):
        name = name[:-2] + "a"  # maskTrailingDash
    if byte_length(name) <= 63 and _DNS1035.fullmatch(name):
        return ()
    errs = ["must be no more than 63 characters"] if byte_length(name) > 63 else []
    if not _DNS1035.fullmatch(name):
        errs.append("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
                    f"'abc-123', regex used for validation is '{_DNS1035_FMT}')")
    return tuple(errs)


def annotations(value: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidateAnnotations``: keys (lower-cased) are qualified names; at most 256 KiB in all."""
    if not isinstance(value, dict):
        return
    size = 0
    for key, text in value.items():
        if not isinstance(key, str):
            continue
        for message in is_qualified_name(key.lower()):
            yield path + (key,), invalid(key, message)
        size += len(key) + (len(text) if isinstance(text, str) else 0)
    if size * 4 > ANNOTATIONS_MAX_BYTES:  # a character is at most 4 bytes: count bytes only then
        size = sum(byte_length(k) + (byte_length(v) if isinstance(v, str) else 0)
                   for k, v in value.items() if isinstance(k, str))
        if size > ANNOTATIONS_MAX_BYTES:
            yield path, too_long(ANNOTATIONS_MAX_BYTES)


def owner_references(value: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidateOwnerReferences`` (Go reports each at the list's path; these point at the entry)."""
    controller = ""
    for i, ref in enumerate(lists(value)):
        if not isinstance(ref, dict):
            continue
        at = path + (i,)
        api_version, kind = ref.get("apiVersion", ""), ref.get("kind", "")
        group, version = _group_version(api_version) if isinstance(api_version, str) else ("", "")
        if not version:
            yield at + ("apiVersion",), invalid(api_version, "version must not be empty")
        for key in ("kind", "name", "uid"):
            if ref.get(key, "") == "":
                yield at + (key,), invalid("", "must not be empty")
        if (group, version, kind) in BANNED_OWNERS:
            yield at, invalid(ref, f"/{version}, Kind={kind} is disallowed from being an owner")
        if ref.get("controller") is True:
            current = f"{kind}/{ref.get('name', '')}"
            if controller:
                yield at + ("controller",), invalid(value, "Only one reference can have Controller set to true. "
                                                    f'Found "true" in references for {controller} and {current}')
            else:
                controller = current


def _group_version(api_version: str) -> tuple[str, str]:
    """``schema.ParseGroupVersion`` as ``FromAPIVersionAndKind`` uses it: ("", "") when unparsable."""
    if not api_version:
        return "", ""
    if api_version.count("/") > 1:
        return "", ""
    if "/" not in api_version:
        return "", api_version
    group, version = api_version.split("/")
    return group, version


def finalizers(value: Any, path: Path, built_in: bool = False) -> Iterator[tuple[Path, str]]:
    """``ValidateFinalizers``: each a qualified name; not both orphan and foregroundDeletion. A
    built-in kind's (``ValidateObjectMeta`` of ``pkg/apis/core/validation``,
    ``validateKubeFinalizerName``) also has a ``/`` unless it is a standard one."""
    names = lists(value)
    for i, name in enumerate(names):
        if isinstance(name, str):
            for message in is_qualified_name(name):
                yield path + (i,), invalid(name, message)
            if built_in and "/" not in name and name not in STANDARD_FINALIZERS:
                yield path + (i,), invalid(name, "name is neither a standard finalizer name nor is it fully qualified")
    if ORPHAN in names and FOREGROUND in names:
        yield path, invalid(names, f"finalizer {ORPHAN} and {FOREGROUND} cannot be both set")


def _time(value: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """``metav1.Time`` reads RFC 3339 (``time.Parse(time.RFC3339, ...)``), which kubectl does first."""
    if not isinstance(value, str):
        return
    match = _RFC3339.fullmatch(value)
    if match:
        import datetime

        year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
        try:
            datetime.datetime(year, month, day, hour, minute, second)
            return
        except ValueError:
            pass
    yield path, invalid(value, 'not an RFC 3339 time ("2006-01-02T15:04:05Z07:00"): kubectl cannot decode it')
