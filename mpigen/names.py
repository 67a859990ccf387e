"""Names several stages must agree on: the API versions and kinds mpigen reads and writes, and the
naming rules of what a spec asks for (volume names, the folders code sync creates, the volume
that holds TensorBoard's logs). Part of the shared kernel: it imports nothing of mpigen.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

SPEC_API_VERSION = "mpigen.dev/v1alpha1"
SPEC_KIND = "TrainingJob"
MPIJOB_API = "kubeflow.org/v2beta1"  # mpi-operator v0.8.2
TRAINING_API = "kubeflow.org/v1"  # training-operator v1.9.4
TRAINING_KINDS = ("PyTorchJob", "TFJob")
CURRENT_API = {"MPIJob": MPIJOB_API, "PyTorchJob": TRAINING_API, "TFJob": TRAINING_API}
"""The apiVersion the current operators serve, by kind."""
LEGACY_API = {
    "MPIJob": ("kubeflow.org/v1alpha1", "kubeflow.org/v1alpha2", "kubeflow.org/v1"),
    "PyTorchJob": ("kubeflow.org/v1alpha1", "kubeflow.org/v1alpha2", "kubeflow.org/v1beta1", "kubeflow.org/v1beta2"),
    "TFJob": ("kubeflow.org/v1alpha1", "kubeflow.org/v1alpha2", "kubeflow.org/v1beta1", "kubeflow.org/v1beta2"),
}
"""The apiVersions the operators no longer serve, by kind (``mpigen migrate`` rewrites them)."""
TRAINER_API = "trainer.kubeflow.org/v1alpha1"  # Kubeflow Trainer v2.3.0
TRAINER_VERSION = "v2.3.0"
"""The Kubeflow Trainer release whose CRDs, webhooks and default runtimes mpigen ports."""
TRAINJOB_KIND = "TrainJob"
TRAINING_RUNTIME_KIND = "TrainingRuntime"
CLUSTER_TRAINING_RUNTIME_KIND = "ClusterTrainingRuntime"
RUNTIME_KINDS = (TRAINING_RUNTIME_KIND, CLUSTER_TRAINING_RUNTIME_KIND)
JOBSET_API = "jobset.x-k8s.io/v1alpha2"  # JobSet v0.12.0, the release Trainer v2.3.0 pins


DNS1035_MAX = 63
"""Characters of a DNS-1035 label, the form of every pod hostname and Service name of a job."""


def job_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a job whose pods are ``<name>-<role>-<i>``, said of its characters
    ("contains 'B', '_'", "starts with '1'", "ends with '-'", "is empty"); None when it can.

    Those hostnames are DNS-1035 labels (lower-case letters, digits and ``-``, a letter first),
    and the API server takes a job name only if it ends with a letter or digit.
    """
    if not name:
        return "is empty"
    problems = []
    bad = [c for c in dict.fromkeys(name) if not ("a" <= c <= "z" or "0" <= c <= "9" or c == "-")]
    if bad:
        problems.append(f"contains {_listed(bad)}")
    if not ("a" <= name[0] <= "z") and name[0] not in bad:
        problems.append(f"starts with {name[0]!r}, not a letter")
    if name.endswith("-"):
        problems.append("ends with '-'")
    return ", ".join(problems) if problems else None


def _listed(chars: list[str]) -> str:
    shown = [repr(c) for c in chars]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


TRAINING_CONTAINER = {"pytorch": "pytorch", "tensorflow": "tensorflow"}
"""The container of a PyTorchJob's (TFJob's) pods that the training-operator finds by its name."""
OWN_VOLUMES = ("code", "git-secret", "dshm")
"""The volumes mpigen writes itself (code sync, its git Secret, /dev/shm): a spec's volume may not
take their names; a container may mount them."""
VOLUME_MOUNT_FIELDS = ("mountPath", "readOnly", "subPath", "subPathExpr", "mountPropagation", "recursiveReadOnly")
"""The fields of a ``spec.volumes`` item that say how the training containers mount it (the others
are its name and its source)."""


def volume_name(volume: dict[str, Any]) -> str:
    """A volume's name in the pod: its ``name``, else its claim name (or host folder) made a DNS label."""
    if volume.get("name"):
        return volume["name"]
    source = volume.get("claimName") or volume.get("hostPath") or ""
    if isinstance(source, dict):  # hostPath written as Kubernetes writes it
        source = source.get("path") or ""
    name = re.sub(r"[^a-z0-9-]+", "-", str(source).lower()).strip("-")[:63].strip("-")
    prefix = "pvc-" if "claimName" in volume else "host-"
    if not name or not name[0].isalpha() or "hostPath" in volume:
        name = (prefix + name)[:63].strip("-")
    return name


def log_volume(spec: dict[str, Any]) -> dict[str, Any] | None:
    """The volume that holds the log directory (the deepest mountPath): one of ``spec.volumes``,
    else of a role's own ``volumes`` (the training pods of that role write the logs there)."""
    log_dir = posixpath.normpath(spec["tensorboard"]["logDir"])
    roles = spec.get("roles") if isinstance(spec.get("roles"), dict) else {}
    for volumes in [spec.get("volumes")] + [own.get("volumes") for own in roles.values() if isinstance(own, dict)]:
        found = _deepest(log_dir, [v for v in volumes or [] if isinstance(v, dict)])
        if found is not None:
            return found
    return None


def _deepest(log_dir: str, volumes: list[dict[str, Any]]) -> dict[str, Any] | None:
    best = None
    for volume in volumes:
        if not isinstance(volume.get("mountPath"), str) or not volume["mountPath"]:
            continue  # mounted by name in the containers that list it, not at a path of the training pods
        mount = posixpath.normpath(volume["mountPath"])
        if (log_dir == mount or log_dir.startswith(mount.rstrip("/") + "/")) and \
                (best is None or len(mount) > len(posixpath.normpath(best["mountPath"]))):
            best = volume
    return best


def is_ssh_url(repository: str) -> bool:
    return repository.lower().startswith("ssh://") or bool(re.match(r"^[\w.-]+@[\w.-]+:", repository))


def rsync_folder(source: str) -> str | None:
    """The folder ``rsync -avP SOURCE DEST/`` creates in DEST: the source's last path part, or None
    when the source ends with ``/`` (its contents are copied) or is a daemon module's root."""
    if source.endswith("/"):
        return None
    if source.lower().startswith("rsync://"):
        path = source[len("rsync://"):].partition("/")[2]  # host/module[/path] -> module[/path]
        module_only = "/" not in path
    elif "::" in source:
        path = source.split("::", 1)[1]  # host::module[/path]
        module_only = "/" not in path
    else:
        path = source.split(":", 1)[1] if re.match(r"^[^/]+:", source) else source  # host:path or a path
        module_only = False
    if module_only:
        return None
    return posixpath.basename(path) or None


def repository_folder(repository: str) -> str:
    """The folder git-sync links the checkout to: the repository's last path part without .git."""
    leaf = posixpath.basename(repository.rstrip("/").split(":")[-1]) or "repo"
    return leaf[:-4] if leaf.endswith(".git") and len(leaf) > 4 else leaf
