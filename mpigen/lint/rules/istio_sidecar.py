"""A pod template does not opt out of Istio sidecar injection.

In a namespace with Istio injection, every pod gets an Envoy sidecar unless the pod itself says
``sidecar.istio.io/inject: "false"``. The sidecar intercepts the launcher's SSH connections to the
workers and the framework's rendezvous traffic (mpirun, torch.distributed, TF_CONFIG) before it is
ready, and it keeps running after the training container exits, so the launcher Job or the
replica never completes. Istio reads the annotation (or label) on the pod, which the operators
copy from the replica's ``template.metadata``; on the job's own metadata it has no effect
(mpi-operator v0.8.2 ``newWorker``/``newLauncherPodTemplate`` in
``pkg/controller/mpi_job_controller.go`` and training-operator v1.9.4 ``createNewPod`` in
``pkg/controller.v1/common/pod.go`` build pods from the template only). One finding per job,
naming every template concerned. Whether it is a warning depends on the job's namespace
(``metadata.namespace``, else ``default``), as given in the cluster file (``kubectl get namespace
NAME -o yaml``): a warning where Istio injects (``istio-injection: enabled``, or a revision label
``istio.io/rev`` without ``istio-injection``), nothing where it does not; a note when the
namespace is not known. A template that asks for a sidecar (``"true"``) is a warning wherever
injection is not disabled.

Fix: add ``sidecar.istio.io/inject: "false"`` to ``template.metadata.annotations`` of every
replica type (mpigen's own MPIJobs always carry it).
"""

from __future__ import annotations

from typing import Iterator, Mapping

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ALL_KINDS, current_api, mapping

CODE = "istio-sidecar"
SEVERITY = Severity.WARNING
KINDS = ALL_KINDS

INJECT = "sidecar.istio.io/inject"
INJECTION_LABEL = "istio-injection"
REVISION_LABEL = "istio.io/rev"
HARM = "a sidecar breaks the job's connections and keeps its pods running"


def opted_out(metadata: object) -> bool:
    meta = mapping(metadata)
    return mapping(meta.get("annotations")).get(INJECT) == "false" or mapping(meta.get("labels")).get(INJECT) == "false"


def asked_for(metadata: object) -> str | None:
    """The value of a template's inject annotation or label other than "false", if any."""
    meta = mapping(metadata)
    for where in ("annotations", "labels"):
        value = mapping(meta.get(where)).get(INJECT)
        if value is not None and value != "false":
            return str(value)
    return None


def namespace_injects(labels: Mapping[str, str]) -> bool:
    """Whether Istio's injection webhook selects pods of a namespace with these labels: the
    ``istio-injection: enabled`` label, or a revision label where ``istio-injection`` is absent
    (the default webhooks' namespaceSelectors)."""
    if INJECTION_LABEL in labels:
        return labels[INJECTION_LABEL] == "enabled"
    return bool(labels.get(REVISION_LABEL))


def severity(namespace_labels: Mapping[str, str] | None, asks: bool) -> Severity | None:
    """The finding's severity, from what is known of the job's namespace (its labels, or None
    when not known), and whether a template asks for a sidecar: a warning where Istio injects,
    nothing where it does not, a note when not known (a template that asks for a sidecar gets
    one wherever injection is not disabled, a warning)."""
    if namespace_labels is None:
        return Severity.WARNING if asks else Severity.INFO
    if namespace_injects(namespace_labels):
        return Severity.WARNING
    if asks and namespace_labels.get(INJECTION_LABEL) != "disabled":
        return Severity.WARNING
    return None


def check(ctx: Context) -> Iterator[tuple[Path, str, Severity]]:
    if not current_api(ctx):
        return
    concerned: list[Path] = []  # every template that does not opt out, in order
    missing: list[str] = []
    asking: dict[str, str] = {}  # role -> the value it sets
    for role, path, template in ctx.pod_templates():
        meta = template.get("metadata")
        if opted_out(meta):
            continue
        concerned.append(path)
        value = asked_for(meta)
        if value is not None:
            asking[role] = value
        else:
            missing.append(role)
    if not concerned:
        return
    namespace = ctx.get("metadata", "namespace")
    namespace = namespace if isinstance(namespace, str) and namespace else "default"
    known = ctx.options.namespaces
    labels = known.get(namespace) if known is not None else None
    level = severity(labels, bool(asking))
    if level is None:
        return
    parts = []
    if asking:
        values = " or ".join(sorted({repr(value) for value in asking.values()}))
        parts.append(f"{_templates(list(asking))} set{_verb(asking)} {INJECT}: {values}")
    if missing:
        on_job = opted_out(ctx.get("metadata"))
        parts.append(f"{_templates(missing)} {'does' if len(missing) == 1 else 'do'} not set {INJECT}: \"false\""
                     + (f" (the annotation on the {ctx.kind}'s own metadata has no effect: Istio reads the pod's)"
                        if on_job else ""))
    if labels is not None and namespace_injects(labels):
        where = f"namespace {namespace!r} has Istio injection ({_injection(labels)}), and {HARM}"
    elif level is Severity.WARNING:
        where = f"with Istio injection {HARM}"
    else:
        where = (f"if namespace {namespace!r} has Istio injection, {HARM} (a cluster file with the namespace, "
                 f"kubectl get namespace {namespace} -o yaml, tells)")
    yield (concerned[0] + ("metadata", "annotations", INJECT),
           f"{'; '.join(parts)}: {where}; set it to \"false\" in the metadata.annotations of "
           f"{'the template' if len(concerned) == 1 else 'each template'}", level)


def _templates(roles: list[str]) -> str:
    names = roles[0] if len(roles) == 1 else ", ".join(roles[:-1]) + " and " + roles[-1]
    return f"the {names} pod template{'' if len(roles) == 1 else 's'}"


def _verb(items: dict) -> str:
    return "s" if len(items) == 1 else ""


def _injection(labels: Mapping[str, str]) -> str:
    if INJECTION_LABEL in labels:
        return f"{INJECTION_LABEL}: {labels[INJECTION_LABEL]}"
    return f"{REVISION_LABEL}: {labels[REVISION_LABEL]}"
