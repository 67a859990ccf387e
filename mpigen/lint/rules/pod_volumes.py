"""A volume or volume mount of a pod template is refused by the API server.

The operator's pods are refused at creation (a Deployment when it is created) when a volume breaks
the Pod rules of Kubernetes v1.35.1 (``pkg/apis/core/validation/validation.go``):
``ValidateVolumes`` (a name that is a DNS-1123 label, unique), ``validateVolumeSource`` (one volume
type per volume; a volume without one is an emptyDir, as ``SetDefaults_Volume`` makes it) and the
common sources: ``validateHostPathVolumeSource`` (a path without ``..``, a known type),
``validateSecretVolumeSource``, ``validateConfigMapVolumeSource`` and ``validateKeyToPath`` (the
Secret's or ConfigMap's name, relative item paths, modes within 0-0777 octal: ``defaultMode: 644``
is decimal 644), ``validatePersistentClaimVolumeSource``, ``validateNFSVolumeSource``, an emptyDir's
``sizeLimit``, ``validateDownwardAPIVolumeSource``, ``validateProjectionSources``,
``validateCSIVolumeSource``, ``validateEphemeralVolumeSource`` (its claim template is required) and
``validateImageVolumeSource``; ``ValidateVolumeMounts`` (the mount names a volume of the pod, else
``Not found``; a mount path, unique per container; ``subPath``/``subPathExpr`` relative, without
``..``, not both; mount propagation and recursiveReadOnly) and ``ValidateVolumeDevices``. For an
MPIJob it also reports what the pods get only from mpi-operator v0.8.2 (``setupSSHOnPod``,
``newLauncherPodTemplate``): a volume of the operator's name (``ssh-auth``, and ``mpi-job-config``
for the launcher) or a mount of the first container at ``sshAuthMountPath`` (or ``/etc/mpi`` on the
launcher), which the operator's own volume and mount then duplicate. A mount of a volume that exists
but is itself refused is not reported again. Messages are the API server's.

Fix: declare every mounted volume under ``volumes`` with the same name, give each volume a single
source with its required fields, mount each path once per container, and keep item and sub-paths
relative.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import (duplicate, forbidden, invalid, is_dns1123_label, is_dns1123_subdomain, lists,
                              name_is_dns_subdomain, named, not_found, not_supported, required, too_long)
from ..pod_fields import (PULL_POLICIES, VOLUME_FIELD_PATHS, local_descending_path, local_non_reserved_path,
                          object_field_selector, path_no_backsteps, quantity, resource_field_selector)
from ..pod_template import POD_KINDS, PodTemplate, is_int, mapping, pod_templates, text

CODE = "pod-volumes"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

# validateVolumeSource's order: a second type is reported at its own key
SOURCES = ("emptyDir", "hostPath", "gitRepo", "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs", "iscsi",
           "glusterfs", "flocker", "persistentVolumeClaim", "rbd", "cinder", "cephfs", "quobyte", "downwardAPI", "fc",
           "flexVolume", "configMap", "azureFile", "vsphereVolume", "photonPersistentDisk", "portworxVolume",
           "azureDisk", "storageos", "projected", "scaleIO", "csi", "ephemeral", "image")
ORDER = {key: i for i, key in enumerate(SOURCES)}
HOST_PATH_TYPES = ("", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket")
FILE_MODE_ERROR = "must be a number between 0 and 0777 (octal), both inclusive"
PROPAGATIONS = ("Bidirectional", "HostToContainer", "None")
RECURSIVE_READ_ONLY = ("Disabled", "Enabled", "IfPossible")
BLOCK_SOURCES = ("persistentVolumeClaim", "ephemeral")  # isMatchedDevice: block devices come from claims


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        if "volumes" in template.spec:
            yield from _volumes(template)
        for path, container in template.all_containers:
            if "volumeDevices" not in container:
                if "volumeMounts" in container:
                    yield from _mounts(template, path, container, {})
                continue
            devices = _named(container.get("volumeDevices"), "devicePath")
            mounts = _named(container.get("volumeMounts"), "mountPath")
            yield from _mounts(template, path, container, devices)
            yield from _devices(template, path + ("volumeDevices",), container.get("volumeDevices"), mounts)
        if template.kind == "MPIJob" and (template.volumes or template.containers):
            yield from _operator_additions(ctx, template)


def _named(items: object, key: str) -> dict[object, object]:
    """``GetVolumeMountMap`` / ``GetVolumeDeviceMap``: name -> path."""
    return {item.get("name", ""): item.get(key, "") for item in lists(items)
            if isinstance(item, dict) and isinstance(item.get("name", ""), str)}


# ------------------------------------------------------------------ volumes


def _volumes(template: PodTemplate) -> Iterator[tuple[Path, str]]:
    """``ValidateVolumes``: a volume with a problem is not counted as a name already used."""
    names: set[str] = set()
    base = template.spec_path + ("volumes",)
    for i, volume in enumerate(lists(template.spec.get("volumes"))):
        if not isinstance(volume, dict):
            continue
        here = base + (i,)
        found = list(_source(template, volume, here))
        name = text(volume, "name")
        if name == "":
            found.append((here + ("name",), required()))
        elif name is not None:
            found += [(here + ("name",), invalid(name, m)) for m in is_dns1123_label(name)]
        if name is not None and name in names:
            found.append((here + ("name",), duplicate(name)))
        if not found and name is not None:
            names.add(name)
        yield from found


def _source(template: PodTemplate, volume: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateVolumeSource``: the first type given is checked, each further one is refused."""
    given = [key for key, value in volume.items() if key in ORDER and isinstance(value, dict)]
    if len(given) > 1:
        given.sort(key=ORDER.__getitem__)
    for key in given[1:]:
        yield path + (key,), forbidden("may not specify more than 1 volume type")
    if not given:
        return  # SetDefaults_Volume: an emptyDir
    key = given[0]
    source, at = volume[key], path + (key,)
    if key == "emptyDir":
        limit = quantity(source.get("sizeLimit"))
        if limit is not None and limit.negative:
            yield at + ("sizeLimit",), forbidden("SizeLimit field must be a valid resource quantity")
    elif key == "hostPath":
        yield from _host_path(source, at)
    elif key in ("secret", "configMap"):
        name_key = "secretName" if key == "secret" else "name"
        if text(source, name_key) == "":
            yield at + (name_key,), required()
        yield from _mode(source, at, "defaultMode")
        for j, item in enumerate(lists(source.get("items"))):
            if isinstance(item, dict):
                yield from _key_to_path(item, at + ("items", j))
    elif key == "persistentVolumeClaim":
        if text(source, "claimName") == "":
            yield at + ("claimName",), required()
    elif key == "nfs":
        server, nfs_path = text(source, "server"), text(source, "path")
        if server == "":
            yield at + ("server",), required()
        if nfs_path == "":
            yield at + ("path",), required()
        if nfs_path is not None and not nfs_path.startswith("/"):
            yield at + ("path",), invalid(nfs_path, "must be an absolute path")
    elif key == "downwardAPI":
        yield from _mode(source, at, "defaultMode")
        for j, item in enumerate(lists(source.get("items"))):
            if isinstance(item, dict):
                yield from _downward_file(item, at + ("items", j))
    elif key == "projected":
        yield from _mode(source, at, "defaultMode")
        yield from _projection(source, at)
    elif key == "csi":
        yield from _csi(source, at)
    elif key == "ephemeral":
        if not isinstance(source.get("volumeClaimTemplate"), dict):
            yield at + ("volumeClaimTemplate",), required()
    elif key == "image":
        if template.for_pod and text(source, "reference") == "":
            yield at + ("reference",), required()
        pull = text(source, "pullPolicy")
        if pull and pull not in PULL_POLICIES:  # "" is defaulted from the reference's tag
            yield at + ("pullPolicy",), not_supported(pull, PULL_POLICIES)


def _host_path(source: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateHostPathVolumeSource`` with ``validateHostPathType``."""
    host = text(source, "path")
    if host == "":
        yield path + ("path",), required()
        return
    if host is not None:
        for message in path_no_backsteps(host):
            yield path + ("path",), invalid(host, message)
    kind = text(source, "type")
    if kind is not None and kind not in HOST_PATH_TYPES:
        yield path + ("type",), not_supported(kind, HOST_PATH_TYPES)


def _mode(source: dict, path: Path, key: str) -> Iterator[tuple[Path, str]]:
    mode = source.get(key)
    if is_int(mode) and not 0 <= mode <= 0o777:
        yield path + (key,), invalid(mode, FILE_MODE_ERROR)


def _key_to_path(item: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateKeyToPath``."""
    if text(item, "key") == "":
        yield path + ("key",), required()
    yield from named(item.get("path", ""), path + ("path",), local_non_reserved_path)
    yield from _mode(item, path, "mode")


def _downward_file(item: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateDownwardAPIVolumeFile`` (Go reports at the volume's path, without the index)."""
    yield from named(item.get("path", ""), path + ("path",), local_non_reserved_path)
    field_ref, resource_ref = item.get("fieldRef"), item.get("resourceFieldRef")
    if isinstance(field_ref, dict):
        yield from object_field_selector(field_ref, VOLUME_FIELD_PATHS, path + ("fieldRef",))
        if isinstance(resource_ref, dict):
            yield path, invalid("resource", "fieldRef and resourceFieldRef can not be specified simultaneously")
    elif isinstance(resource_ref, dict):
        yield from resource_field_selector(resource_ref, path + ("resourceFieldRef",), volume=True)
    elif field_ref is None and resource_ref is None:
        yield path, required("one of fieldRef and resourceFieldRef is required")
    yield from _mode(item, path, "mode")


def _projection(source: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateProjectionSources`` for secret, configMap, downwardAPI and serviceAccountToken
    (clusterTrustBundle and podCertificate sources need gates that are off by default in 1.35:
    the API server drops them)."""
    seen: set[str] = set()

    def conflict(target: str | None, value: str | None, at: Path) -> Iterator[tuple[Path, str]]:
        if target:
            if target in seen:
                yield at, invalid(value if value is not None else target, "conflicting duplicate paths")
            seen.add(target)

    for i, item in enumerate(lists(source.get("sources"))):
        if not isinstance(item, dict):
            continue
        here = path + ("sources", i)
        given = 0
        for kind in ("secret", "configMap"):
            if isinstance(item.get(kind), dict):
                given += 1
                projected = item[kind]
                if text(projected, "name") == "":
                    yield here + (kind, "name"), required()
                for j, entry in enumerate(lists(projected.get("items"))):
                    if isinstance(entry, dict):
                        yield from _key_to_path(entry, here + (kind, "items", j))
                        yield from conflict(text(entry, "path"), text(projected, "name"),
                                            here + (kind, "items", j, "path"))
        if isinstance(item.get("downwardAPI"), dict):
            given += 1
            for j, entry in enumerate(lists(item["downwardAPI"].get("items"))):
                if isinstance(entry, dict):
                    yield from _downward_file(entry, here + ("downwardAPI", "items", j))
                    yield from conflict(text(entry, "path"), None, here + ("downwardAPI", "items", j, "path"))
        token = item.get("serviceAccountToken")
        if isinstance(token, dict):
            given += 1
            at = here + ("serviceAccountToken",)
            seconds = token.get("expirationSeconds", 3600)  # SetDefaults_ServiceAccountTokenProjection
            if is_int(seconds) and seconds < 600:
                yield at + ("expirationSeconds",), invalid(seconds, "may not specify a duration less than 10 minutes")
            if is_int(seconds) and seconds > 1 << 32:
                yield at + ("expirationSeconds",), invalid(seconds,
                                                           "may not specify a duration larger than 2^32 seconds")
            yield from named(token.get("path", ""), at + ("path",), local_non_reserved_path)
        if given > 1:
            yield here, forbidden("may not specify more than 1 volume type per source")


def _csi(source: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateCSIVolumeSource`` with ``ValidateCSIDriverName``."""
    driver = text(source, "driver")
    if driver and len(driver) > 63:
        yield path + ("driver",), too_long(63)
    yield from named(driver, path + ("driver",), lambda name: is_dns1123_subdomain(name.lower()))
    secret = source.get("nodePublishSecretRef")
    if isinstance(secret, dict):
        yield from named(secret.get("name", ""), path + ("nodePublishSecretRef", "name"), name_is_dns_subdomain)


# ------------------------------------------------------------------ mounts and devices


def _mounts(template: PodTemplate, path: Path, container: dict, devices: dict) -> Iterator[tuple[Path, str]]:
    """``ValidateVolumeMounts`` (with ``validateMountPropagation`` and
    ``validateMountRecursiveReadOnly``). An empty name is reported as required only."""
    seen: set[str] = set()
    for i, mount in enumerate(lists(container.get("volumeMounts"))):
        if not isinstance(mount, dict):
            continue
        name, target = mount.get("name", ""), mount.get("mountPath", "")
        if name == "":
            yield path + ("volumeMounts", i, "name"), required()
        elif isinstance(name, str) and name not in template.volumes:
            yield path + ("volumeMounts", i, "name"), not_found(name)
        if target == "":
            yield path + ("volumeMounts", i, "mountPath"), required()
        elif isinstance(target, str):
            if target in seen:
                yield path + ("volumeMounts", i, "mountPath"), invalid(target, "must be unique")
            seen.add(target)
        if devices:
            if isinstance(name, str) and name and name in devices:
                yield path + ("volumeMounts", i, "name"), invalid(name, "must not already exist in volumeDevices")
            if target and target in devices.values():
                yield path + ("volumeMounts", i, "mountPath"), invalid(
                    target, "must not already exist as a path in volumeDevices")
        if len(mount) > 2:  # more than name and mountPath
            yield from _mount_options(mount, container, path + ("volumeMounts", i))


def _mount_options(mount: dict, container: dict, here: Path) -> Iterator[tuple[Path, str]]:
    sub_path, expression = text(mount, "subPath"), text(mount, "subPathExpr")
    if sub_path:
        for message in local_descending_path(sub_path):
            yield here + ("subPath",), invalid(sub_path, message)
    if expression:
        if sub_path:
            yield here + ("subPathExpr",), invalid(expression, "subPathExpr and subPath are mutually exclusive")
        for message in local_descending_path(expression):
            yield here + ("subPathExpr",), invalid(expression, message)
    propagation = text(mount, "mountPropagation")
    if propagation is not None and "mountPropagation" in mount:
        if propagation not in PROPAGATIONS:
            yield here + ("mountPropagation",), not_supported(propagation, PROPAGATIONS)
        if propagation == "Bidirectional" and mapping(container.get("securityContext")).get("privileged") is not True:
            yield here + ("mountPropagation",), forbidden(
                "Bidirectional mount propagation is available only to privileged containers")
    if "recursiveReadOnly" in mount:
        yield from _recursive_read_only(mount, here, propagation if "mountPropagation" in mount else None)


def _recursive_read_only(mount: dict, path: Path, propagation: str | None) -> Iterator[tuple[Path, str]]:
    value = mount.get("recursiveReadOnly")
    if not isinstance(value, str):
        return
    at = path + ("recursiveReadOnly",)
    if value in ("Enabled", "IfPossible"):
        if mount.get("readOnly") is not True:
            yield at, forbidden("may only be specified when readOnly is true")
        if propagation is not None and propagation != "None":
            yield at, forbidden("may only be specified when mountPropagation is None or not specified")
    elif value != "Disabled":
        yield at, not_supported(value, RECURSIVE_READ_ONLY)


def _devices(template: PodTemplate, path: Path, devices: object, mounts: dict) -> Iterator[tuple[Path, str]]:
    """``ValidateVolumeDevices``: block devices come from PersistentVolumeClaim or ephemeral volumes."""
    names: set[str] = set()
    paths: set[str] = set()
    for i, device in enumerate(lists(devices)):
        if not isinstance(device, dict):
            continue
        here = path + (i,)
        name, target = text(device, "name"), text(device, "devicePath")
        if name is None or target is None:
            continue
        volume = template.volumes.get(name)
        if name == "":
            yield here + ("name",), required()
        if name in names:
            yield here + ("name",), invalid(name, "must be unique")
        if volume is not None and not any(isinstance(volume.get(k), dict) for k in BLOCK_SOURCES):
            yield here + ("name",), invalid(name, "can only use volume source type of PersistentVolumeClaim or "
                                                  "Ephemeral for block mode")
        if volume is None and name:
            yield here + ("name",), not_found(name)
        if target == "":
            yield here + ("devicePath",), required()
        if target in paths:
            yield here + ("devicePath",), invalid(target, "must be unique")
        if target and path_no_backsteps(target):
            yield here + ("devicePath",), invalid(target, "can not contain backsteps ('..')")
        else:
            paths.add(target)
        if name in mounts:
            yield here + ("name",), invalid(name, "must not already exist in volumeMounts")
        if target in mounts.values():
            yield here + ("devicePath",), invalid(target, "must not already exist as a path in volumeMounts")
        if name:
            names.add(name)


# ------------------------------------------------------------------ what mpi-operator adds


def _operator_additions(ctx: Context, template: PodTemplate) -> Iterator[tuple[Path, str]]:
    """The volumes and first-container mounts mpi-operator v0.8.2 appends to every launcher and
    worker pod: a user's volume or mount of the same name or path makes the operator's one a
    duplicate (``Duplicate value`` on the volume name, ``must be unique`` on the mount path)."""
    from ...operator.mpi_controller import CONFIG_MOUNT_PATH, CONFIG_VOLUME, ROOT_SSH_PATH, SSH_VOLUME

    ssh_path = ctx.get("spec", "sshAuthMountPath")
    added = {SSH_VOLUME: ssh_path if isinstance(ssh_path, str) and ssh_path else ROOT_SSH_PATH}
    if template.role == "Launcher":
        added[CONFIG_VOLUME] = CONFIG_MOUNT_PATH
    if not added.keys().isdisjoint(template.volumes):
        for i, volume in enumerate(lists(template.spec.get("volumes"))):
            if isinstance(volume, dict) and isinstance(volume.get("name"), str) and volume["name"] in added:
                yield template.spec_path + ("volumes", i, "name"), duplicate(volume["name"])
    if template.containers and "volumeMounts" in template.containers[0][1]:
        path, first = template.containers[0]
        for i, mount in enumerate(lists(first.get("volumeMounts"))):
            if isinstance(mount, dict) and mount.get("mountPath") in added.values():
                yield path + ("volumeMounts", i, "mountPath"), invalid(mount["mountPath"], "must be unique")
