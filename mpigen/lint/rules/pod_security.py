"""A security context of a pod template is refused by the API server.

The operator's pods are refused at creation (a Deployment when it is created) when the pod's or a
container's ``securityContext`` breaks the Pod rules of Kubernetes v1.35.1
(``pkg/apis/core/validation/validation.go``): ``validatePodSpecSecurityContext`` (user and group IDs
within 0-2147483647, ``shareProcessNamespace`` not with ``hostPID``, sysctl names unique and not
namespaced ones with ``hostNetwork``/``hostIPC``, ``fsGroupChangePolicy``, ``seccompProfile``,
``appArmorProfile``, ``supplementalGroupsPolicy``, and ``seLinuxChangePolicy``: only Recursive while
SELinuxMount is off, as in 1.35), ``ValidateSecurityContext`` for each container (IDs,
``procMount``, no ``allowPrivilegeEscalation: false`` with ``privileged: true`` or with the
capability CAP_SYS_ADMIN, ``seccompProfile``, ``appArmorProfile``) and ``validateHostUsers``
(``hostUsers: false`` does not go with hostNetwork, hostPID or hostIPC). Messages are the API
server's.

Fix: use IDs in range, drop ``allowPrivilegeEscalation: false`` from a privileged container, set
``localhostProfile`` only with ``type: Localhost``, and keep the values the message lists.
"""

from __future__ import annotations

import re
from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import (GO_SPACE, duplicate, forbidden, invalid, is_valid_id, lists, not_supported, required,
                              too_long)
from ..pod_fields import local_descending_path
from ..pod_template import POD_KINDS, is_int, mapping, pod_templates, text

CODE = "pod-security"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

SECCOMP_TYPES = ("Localhost", "RuntimeDefault", "Unconfined")
POD_FIELDS = frozenset(("fsGroup", "runAsUser", "runAsGroup", "runAsNonRoot", "supplementalGroups"))
SYSCTL_FMT = "([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?"  # SysctlContainSlashFmt
_SYSCTL = re.compile(SYSCTL_FMT)
# k8s.io/component-helpers node/util/sysctl (utilsysctl.GetNamespace): the IPC namespace's sysctls
_IPC_SYSCTLS = ("kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced",
                "kernel.shm", "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.msg")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        spec, base = template.spec, template.spec_path
        # the internal securityContext, defaulted to {}, also holds hostNetwork, hostPID, hostIPC,
        # hostUsers and shareProcessNamespace, which v1 keeps in the pod spec
        if "securityContext" in spec or "shareProcessNamespace" in spec:
            yield from _pod_context(spec, mapping(spec.get("securityContext")), base + ("securityContext",))
        host_users = spec.get("hostUsers") is not False
        if not host_users:  # validateHostUsers (UserNamespacesHostNetworkSupport is alpha and off)
            for key, at in (("hostNetwork", "hostNetwork"), ("hostPID", "HostPID"), ("hostIPC", "HostIPC")):
                if spec.get(key) is True:
                    yield base + (key,), forbidden("when `hostUsers` is false")
        for path, container in template.all_containers:
            context = container.get("securityContext")
            if context and isinstance(context, dict):
                yield from _container_context(context, path + ("securityContext",), host_users)


def _ids(context: dict, path: Path, keys: tuple[str, ...]) -> Iterator[tuple[Path, str]]:
    for key in keys:
        value = context.get(key)
        if is_int(value):
            for message in is_valid_id(value):
                yield path + (key,), invalid(value, message)


def _pod_context(spec: dict, context: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validatePodSpecSecurityContext``."""
    yield from _ids(context, path, ("fsGroup", "runAsUser", "runAsGroup"))
    for i, gid in enumerate(lists(context.get("supplementalGroups"))):
        if is_int(gid):
            for message in is_valid_id(gid):
                yield path + ("supplementalGroups", i), invalid(gid, message)
    if spec.get("shareProcessNamespace") is True and spec.get("hostPID") is True:  # in the internal securityContext
        yield path[:-1] + ("shareProcessNamespace",), invalid(True, "ShareProcessNamespace and HostPID cannot both be "
                                                                    "enabled")
    if not POD_FIELDS.issuperset(context):  # more than IDs
        yield from _pod_context_options(spec, context, path)


def _pod_context_options(spec: dict, context: dict, path: Path) -> Iterator[tuple[Path, str]]:
    seen: set[str] = set()
    for i, sysctl in enumerate(lists(context.get("sysctls"))):
        name = text(mapping(sysctl), "name")
        if name is None:
            continue
        at = path + ("sysctls", i, "name")
        if name == "":
            yield at, required()
        elif len(name) > 253 or not _SYSCTL.fullmatch(name):
            yield at, invalid(name, f"must have at most 253 characters and match regex ^{SYSCTL_FMT}$")
        elif name in seen:
            yield at, duplicate(name)
        seen.add(name)
        namespace = _sysctl_namespace(name)
        if spec.get("hostNetwork") is True and namespace == "net":
            yield at, invalid(name, "may not be specified when 'hostNetwork' is true")
        elif spec.get("hostIPC") is True and namespace == "ipc":
            yield at, invalid(name, "may not be specified when 'hostIPC' is true")
    policy = context.get("fsGroupChangePolicy")
    if isinstance(policy, str) and policy not in ("Always", "OnRootMismatch"):
        yield path + ("fsGroupChangePolicy",), not_supported(policy, ("Always", "OnRootMismatch"))
    yield from _seccomp(context.get("seccompProfile"), path + ("seccompProfile",))
    yield from _apparmor(context.get("appArmorProfile"), path + ("appArmorProfile",))
    policy = context.get("supplementalGroupsPolicy")
    if isinstance(policy, str) and policy not in ("Merge", "Strict"):
        yield path + ("supplementalGroupsPolicy",), not_supported(policy, ("Merge", "Strict"))
    policy = context.get("seLinuxChangePolicy")
    if isinstance(policy, str) and policy != "Recursive":  # AllowOnlyRecursiveSELinuxChangePolicy
        yield path + ("seLinuxChangePolicy",), not_supported(policy, ("Recursive",))


def _sysctl_namespace(name: str) -> str | None:
    """``utilsysctl.GetNamespace``: net.* is the network namespace; some kernel.* and fs.mqueue.* IPC."""
    separator = next((c for c in name if c in "./"), ".")
    if separator == "/":  # NormalizeName: net/ipv4/conf/eno2.100/rp_filter -> net.ipv4.conf.eno2/100.rp_filter
        name = name.translate(str.maketrans("./", "/."))
    name = name.partition("*")[0]
    if name.startswith("net."):
        return "net"
    if name in _IPC_SYSCTLS or name.startswith("fs.mqueue."):
        return "ipc"
    return None


def _container_context(context: dict, path: Path, host_users: bool) -> Iterator[tuple[Path, str]]:
    """``ValidateSecurityContext`` (privileged containers are allowed: the API server's
    ``--allow-privileged`` decides, which mpigen does not know)."""
    yield from _ids(context, path, ("runAsUser", "runAsGroup"))
    proc_mount = context.get("procMount")
    if isinstance(proc_mount, str):
        if proc_mount not in ("Default", "Unmasked"):
            yield path + ("procMount",), not_supported(proc_mount, ("Default", "Unmasked"))
        if host_users and proc_mount == "Unmasked":
            yield path + ("procMount",), invalid(proc_mount, "`hostUsers` must be false to use `Unmasked`")
    yield from _seccomp(context.get("seccompProfile"), path + ("seccompProfile",))
    if context.get("allowPrivilegeEscalation") is False:
        if context.get("privileged") is True:
            yield path, invalid(context, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true")
        if "CAP_SYS_ADMIN" in lists(mapping(context.get("capabilities")).get("add")):
            yield path, invalid(context, "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` "
                                         "CAP_SYS_ADMIN")
    yield from _apparmor(context.get("appArmorProfile"), path + ("appArmorProfile",))


def _seccomp(profile: object, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateSeccompProfileField``."""
    if not isinstance(profile, dict):
        return
    kind, local = text(profile, "type"), profile.get("localhostProfile")
    if kind == "":
        yield path + ("type",), required("type is required when seccompProfile is set")
    elif kind is not None and kind not in SECCOMP_TYPES:
        yield path + ("type",), not_supported(kind, SECCOMP_TYPES)
    if kind == "Localhost":
        if local is None:
            yield path + ("localhostProfile",), required("must be set when seccomp type is Localhost")
        elif isinstance(local, str):
            for message in local_descending_path(local):
                yield path + ("localhostProfile",), invalid(local, message)
    elif local is not None:
        yield path + ("localhostProfile",), invalid(profile, "can only be set when seccomp type is Localhost")


def _apparmor(profile: object, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidateAppArmorProfileField``."""
    if not isinstance(profile, dict):
        return
    kind, local = text(profile, "type"), profile.get("localhostProfile")
    at = path + ("localhostProfile",)
    if kind == "Localhost":
        if local is None or (isinstance(local, str) and local == local.strip(GO_SPACE) == ""):
            yield at, required("must be set when AppArmor type is Localhost")
        elif isinstance(local, str):
            if local.strip(GO_SPACE) != local:
                yield at, invalid(local, "must not be padded with whitespace")
            if len(local) > 4095:
                yield at, too_long(4095)
    elif kind in ("RuntimeDefault", "Unconfined"):
        if local is not None:
            yield at, invalid(local, "can only be set when AppArmor type is Localhost")
    elif kind == "":
        yield path + ("type",), required("type is required when appArmorProfile is set")
    elif kind is not None:
        yield path + ("type",), not_supported(kind, SECCOMP_TYPES)
