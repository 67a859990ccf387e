"""The pod templates the pod rules check, read once per object and shared by the rules.

The API server runs ``ValidatePodSpec`` (k8s.io/kubernetes v1.35.1
``pkg/apis/core/validation/validation.go``) on the *internal* object, after the v1 defaults of
``pkg/apis/core/v1/defaults.go``. The pod rules read the template as written and apply those
defaults where they decide a check: a missing ``protocol`` is TCP, ``imagePullPolicy`` and
``terminationMessagePolicy`` are filled, a volume without a source is an ``emptyDir``, a probe's
thresholds and periods take their defaults, ``hostPort`` takes ``containerPort`` in a hostNetwork
Pod, ``dnsPolicy`` is ClusterFirst, ``terminationGracePeriodSeconds`` 30, a fieldRef's
``apiVersion`` v1, and resource quantities are rounded up to milli units
(``SetDefaults_ResourceList``).

Which templates, and how they are validated:

- MPIJob (kubeflow.org/v2beta1) ``spec.mpiReplicaSpecs.*.template``, PyTorchJob and TFJob
  (kubeflow.org/v1) ``spec.{pytorch,tf}ReplicaSpecs.*.template``: the API server checks them only
  against the CRD's schema; the operator builds Pods from them, and the Pod rules apply when it
  creates each one (``ValidatePodCreate``: ``ResourceIsPod``, and the pod-only checks of
  ``validatePodMetadataAndSpec``). The operators overwrite the Pods' ``restartPolicy`` (from the
  replica spec), and mpi-operator their ``hostname``, ``subdomain`` and, with hostNetwork,
  ``dnsPolicy`` (``newWorker``, ``newLauncherPodTemplate``): the template's values of those are
  not checked.
- apps/v1 Deployment ``spec.template``: checked when the Deployment is created, by
  ``ValidatePodTemplateSpecForReplicaSet`` (``pkg/apis/apps/validation``), i.e.
  ``ValidatePodTemplateSpec`` plus ``restartPolicy: Always`` and no ``activeDeadlineSeconds``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..operator.mpi_defaults import DEFAULT_LAUNCHER_RESTART_POLICY, DEFAULT_RESTART_POLICY
from ..operator.training_defaults import FRAMEWORKS
from .rules._common import CURRENT_API, is_int, mapping

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on validate's path
if TYPE_CHECKING:
    from .base import Context

Path = tuple[str | int, ...]

POD_KINDS = ("MPIJob", "PyTorchJob", "TFJob", "Deployment")
_API = {**CURRENT_API, "Deployment": "apps/v1"}
# The operators' default replica restart policies, by kind and role: the pods' restartPolicy.
_RESTART = {("MPIJob", "Launcher"): DEFAULT_LAUNCHER_RESTART_POLICY, "MPIJob": DEFAULT_RESTART_POLICY,
            **{kind: framework["restart_policy"] for kind, framework in FRAMEWORKS.items()}}

Containers = tuple[tuple[Path, dict], ...]


@dataclass(frozen=True, slots=True)
class PodTemplate:
    """One pod template of an object, its parts already picked out (mappings only)."""

    path: Path  # the template's path in the object (spec.mpiReplicaSpecs.Worker.template)
    kind: str  # the object's kind
    role: str  # the replica type; "" for a Deployment
    metadata: dict  # template.metadata ({} when absent)
    spec: dict  # template.spec
    for_pod: bool  # an operator creates Pods from it (ResourceIsPod); False: a Deployment's template
    restart_policy: str  # the restart policy its Pods get
    containers: Containers  # (path in the object, container) of spec.containers
    init_containers: Containers  # ... of spec.initContainers
    volumes: dict  # name -> volume, for every volume of spec.volumes with a string name (the first of each)

    @property
    def spec_path(self) -> Path:
        return self.path + ("spec",)

    @property
    def all_containers(self) -> Containers:
        """Regular then init containers (ephemeral ones are refused in a template: pod-containers)."""
        return self.containers + self.init_containers

    @property
    def host_network(self) -> bool:
        return self.spec.get("hostNetwork") is True

    @property
    def grace_period(self) -> int | None:
        """terminationGracePeriodSeconds, defaulted to 30 (None when unreadable)."""
        value = self.spec.get("terminationGracePeriodSeconds", 30)
        return value if is_int(value) else None


def _containers(spec: dict, base: Path, group: str) -> Containers:
    items = spec.get(group)
    if not isinstance(items, list):
        return ()
    return tuple((base + (group, i), c) for i, c in enumerate(items) if isinstance(c, dict))


def _template(kind: str, role: str, path: Path, template: dict, restart_policy: str) -> PodTemplate | None:
    spec = template.get("spec")
    if not isinstance(spec, dict):
        return None  # the schema (or the operator's validation) reports it
    base = path + ("spec",)
    volumes: dict[str, dict] = {}
    for volume in spec.get("volumes") if isinstance(spec.get("volumes"), list) else ():
        if isinstance(volume, dict) and isinstance(volume.get("name"), str):
            volumes.setdefault(volume["name"], volume)
    return PodTemplate(path, kind, role, mapping(template.get("metadata")), spec, kind != "Deployment",
                       restart_policy, _containers(spec, base, "containers"), _containers(spec, base, "initContainers"),
                       volumes)


def pod_templates(ctx: Context) -> tuple[PodTemplate, ...]:
    """Every pod template of the object (computed once per object, kept on the context)."""
    cached = ctx.__dict__.get("_pod_templates")
    if cached is not None:
        return cached
    kind = ctx.kind
    found: list[PodTemplate] = []
    if _API.get(kind) == ctx.api_version:
        if kind == "Deployment":
            template = ctx.get("spec", "template")
            if isinstance(template, dict):
                policy = mapping(template.get("spec")).get("restartPolicy") or "Always"
                found.append(_template(kind, "", ("spec", "template"), template, policy))
        else:
            _, specs = ctx.replica_specs
            for role, path, template in ctx.pod_templates():
                policy = specs[role].get("restartPolicy")
                if not isinstance(policy, str) or not policy:
                    policy = _RESTART.get((kind, role)) or _RESTART[kind]
                found.append(_template(kind, role, path, template, "Never" if policy == "ExitCode" else policy))
    result = tuple(t for t in found if t is not None)
    ctx.__dict__["_pod_templates"] = result
    return result


def text(container: dict, key: str) -> str | None:
    """A string field: its value, "" when absent (Go's zero value), None when of another type."""
    value = container.get(key, "")
    return value if isinstance(value, str) else None
