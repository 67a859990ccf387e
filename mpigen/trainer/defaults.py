"""What the API server fills into a TrainJob and a (Cluster)TrainingRuntime before storing them.

Trainer v2.3.0 has no defaulting webhook for these fields: they are the ``default:`` values of its
CRDs (``manifests/base/crds/trainer.kubeflow.org_{trainjobs,trainingruntimes,
clustertrainingruntimes}.yaml``, generated from the ``+kubebuilder:default`` markers of
``pkg/apis/trainer/v1alpha1/{trainjob,trainingruntime}_types.go``, of JobSet v0.12.0's
``api/jobset/v1alpha2/jobset_types.go`` and of Kubernetes' ``core/v1`` types), which the API
server's structural defaulting (k8s.io/apiextensions-apiserver ``pkg/apiserver/schema/
defaulting/algorithm.go``, ``Default``) applies: top down, a property that is absent (or ``null``)
gets a copy of its default, then its own properties are defaulted in turn.

The runtime framework depends on several of them: it dereferences
``podGroupPolicy.coscheduling.scheduleTimeoutSeconds`` and ``mlPolicy.mpi.{numProcPerNode,
mpiImplementation,sshAuthMountPath}`` without a nil check (a runtime stored without them could
not exist), and the TrainJob's ``runtimeRef.{apiGroup,kind}`` select the runtime. A document
printed by ``kubectl get -o yaml`` already carries all of them (defaulting again changes
nothing); a hand-written runtime gets them here as the API server would give them.

The table lists every default of the three CRDs; the pod-spec ones apply to every pod template
(the runtime's replicated jobs and the TrainJob's runtime patches). The differential tests
compare the result with the API server's own code on the CRD files (``"defaulted"`` of
``tests/oracle/trainer-v2.3``).
"""

from __future__ import annotations

import copy
from typing import Any

ITEMS = "[]"  # a path step over every item of a list

# Relative to a pod spec (core/v1 PodSpec as the CRDs embed it).
_CONTAINER = (
    (("envFrom", ITEMS, "configMapRef", "name"), ""),
    (("envFrom", ITEMS, "secretRef", "name"), ""),
    (("env", ITEMS, "valueFrom", "configMapKeyRef", "name"), ""),
    (("env", ITEMS, "valueFrom", "fileKeyRef", "optional"), False),
    (("env", ITEMS, "valueFrom", "secretKeyRef", "name"), ""),
    (("livenessProbe", "grpc", "service"), ""),
    (("ports", ITEMS, "protocol"), "TCP"),
    (("readinessProbe", "grpc", "service"), ""),
    (("startupProbe", "grpc", "service"), ""),
)
_VOLUME = (
    (("azureDisk", "fsType"), "ext4"),
    (("azureDisk", "readOnly"), False),
    (("cephfs", "secretRef", "name"), ""),
    (("cinder", "secretRef", "name"), ""),
    (("configMap", "name"), ""),
    (("csi", "nodePublishSecretRef", "name"), ""),
    (("flexVolume", "secretRef", "name"), ""),
    (("iscsi", "iscsiInterface"), "default"),
    (("iscsi", "secretRef", "name"), ""),
    (("projected", "sources", ITEMS, "configMap", "name"), ""),
    (("projected", "sources", ITEMS, "secret", "name"), ""),
    (("rbd", "keyring"), "/etc/ceph/keyring"),
    (("rbd", "pool"), "rbd"),
    (("rbd", "secretRef", "name"), ""),
    (("rbd", "user"), "admin"),
    (("scaleIO", "fsType"), "xfs"),
    (("scaleIO", "secretRef", "name"), ""),
    (("scaleIO", "storageMode"), "ThinProvisioned"),
    (("storageos", "secretRef", "name"), ""),
)
POD_SPEC_DEFAULTS = tuple(
    [((kind, ITEMS) + path, value) for kind in ("containers", "ephemeralContainers", "initContainers")
     for path, value in _CONTAINER]
    + [(("imagePullSecrets", ITEMS, "name"), "")]
    + [(("volumes", ITEMS) + path, value) for path, value in _VOLUME])

# The runtime patches' pod spec is Trainer's PodSpecPatch: only these of its fields have defaults.
_PATCH_POD_SPEC_DEFAULTS = tuple(
    [((kind, ITEMS, "env", ITEMS, "valueFrom") + ref, value) for kind in ("containers", "initContainers")
     for ref, value in ((("configMapKeyRef", "name"), ""), (("fileKeyRef", "optional"), False),
                        (("secretKeyRef", "name"), ""))]
    + [(("imagePullSecrets", ITEMS, "name"), "")]
    + [(("volumes", ITEMS) + path, value) for path, value in _VOLUME])

_ENV = ((("valueFrom", "configMapKeyRef", "name"), ""), (("valueFrom", "fileKeyRef", "optional"), False),
        (("valueFrom", "secretKeyRef", "name"), ""))
_POD_TEMPLATE = ("template", "spec", "replicatedJobs", ITEMS, "template", "spec", "template", "spec")
_PATCH_POD_TEMPLATE = ("runtimePatches", ITEMS, "trainingRuntimeSpec", "template", "spec", "replicatedJobs", ITEMS,
                       "template", "spec", "template", "spec")

TRAINJOB_DEFAULTS = (
    (("spec", "managedBy"), "trainer.kubeflow.org/trainjob-controller"),
    (("spec", "runtimeRef", "apiGroup"), "trainer.kubeflow.org"),
    (("spec", "runtimeRef", "kind"), "ClusterTrainingRuntime"),
    (("spec", "suspend"), False),
    *[(("spec", "initializer", which, "env", ITEMS) + path, value)
      for which in ("dataset", "model") for path, value in _ENV],
    *[(("spec", "initializer", which, "secretRef", "name"), "") for which in ("dataset", "model")],
    *[(("spec", "trainer", "env", ITEMS) + path, value) for path, value in _ENV],
    *[(("spec",) + _PATCH_POD_TEMPLATE + path, value) for path, value in _PATCH_POD_SPEC_DEFAULTS],
)

RUNTIME_DEFAULTS = (
    (("spec", "mlPolicy", "flux", "numProcPerNode"), 1),
    (("spec", "mlPolicy", "mpi", "mpiImplementation"), "OpenMPI"),
    (("spec", "mlPolicy", "mpi", "numProcPerNode"), 1),
    (("spec", "mlPolicy", "mpi", "runLauncherAsNode"), False),
    (("spec", "mlPolicy", "mpi", "sshAuthMountPath"), "/root/.ssh"),
    (("spec", "podGroupPolicy", "coscheduling", "scheduleTimeoutSeconds"), 60),
    (("spec", "podGroupPolicy", "volcano", "networkTopology", "highestTierAllowed"), 1),
    (("spec", "podGroupPolicy", "volcano", "networkTopology", "mode"), "hard"),
    (("spec", "template", "spec", "failurePolicy", "restartStrategy"), "Recreate"),
    (("spec", "template", "spec", "replicatedJobs", ITEMS, "groupName"), "default"),
    (("spec", "template", "spec", "replicatedJobs", ITEMS, "replicas"), 1),
    (("spec", "template", "spec", "volumeClaimPolicies", ITEMS, "retentionPolicy", "whenDeleted"), "Delete"),
    *[(("spec",) + _POD_TEMPLATE + path, value) for path, value in POD_SPEC_DEFAULTS],
)


def _apply(node: Any, path: tuple, value: Any) -> None:
    """Default the property at ``path`` under ``node`` wherever its parents exist."""
    if not path:
        return
    step, rest = path[0], path[1:]
    if step == ITEMS:
        if isinstance(node, list):
            for item in node:
                _apply(item, rest, value)
        return
    if not isinstance(node, dict):
        return
    if not rest:
        if node.get(step) is None:  # absent, or a null where the schema is not nullable
            node[step] = copy.deepcopy(value)
        return
    _apply(node.get(step), rest, value)


def _defaulted(obj: dict[str, Any], table: tuple) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    # Shorter paths first: a parent the table defaults exists before its children are visited
    # (the API server's top-down walk). No default of these CRDs creates a parent of another.
    for path, value in sorted(table, key=lambda entry: len(entry[0])):
        _apply(out, path, value)
    return out


def trainjob_defaults(trainjob: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``trainjob`` with its CRD's defaults (``runtimeRef`` defaults to the
    ClusterTrainingRuntime kind of trainer.kubeflow.org; ``suspend`` to false)."""
    return _defaulted(trainjob, TRAINJOB_DEFAULTS)


def runtime_defaults(runtime: dict[str, Any]) -> dict[str, Any]:
    """A copy of a TrainingRuntime or ClusterTrainingRuntime with its CRD's defaults."""
    return _defaulted(runtime, RUNTIME_DEFAULTS)
