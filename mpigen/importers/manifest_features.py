"""``mpigen import manifest``, mpigen's own features: ``shmSize`` and ``code`` read back from the pods.

mpigen writes them the same way on every pod of a job (:mod:`mpigen.render.pods`): ``shmSize`` as
the last volume, ``dshm`` (a memory-backed emptyDir of that size), mounted last at ``/dev/shm``;
``code`` as the volume ``code`` (and ``git-secret``) before it, mounted before it, the init
container ``code-sync`` after the sidecars (git-sync or rsync, with its arguments), the working
directory the synced folder, and with a git Secret the pod's ``fsGroup: 65533``. Where every role's
pods have exactly what mpigen would write for one value, the spec says it with that field, and
the rest of each pod is read without those parts; otherwise nothing is recognized (those volumes
then go into the pod template patch, since their names are mpigen's own).
"""

from __future__ import annotations

import copy
from typing import Any

from ..names import repository_folder, rsync_folder
from ..patch.diff import equal
from ..render.pods import CODE_VOLUME, GIT_SECRET_VOLUME, GIT_SYNC_GROUP, GIT_SYNC_IMAGE, SHM_VOLUME, code_sync
from .manifest_pods import _canonical

SHM_PATH = "/dev/shm"


def features(templates: dict[str, dict[str, Any]], mains: dict[str, int]
             ) -> tuple[dict[str, Any], dict[str, dict[str, Any]], set[str]]:
    """(the spec's ``shmSize`` and ``code`` every role has; each role's template without them; the
    names of the volumes they bring)."""
    found: dict[str, Any] = {}
    reduced = {role: copy.deepcopy(t) for role, t in templates.items()}
    shm = {role: _shm(t, mains[role]) for role, t in reduced.items()}
    values = list(shm.values())
    if values and values[0] is not None and all(v == values[0] for v in values):
        found["shmSize"] = values[0]
        for role, template in reduced.items():
            template["spec"]["volumes"].pop()
            mounts = template["spec"]["containers"][mains[role]]["volumeMounts"]
            mounts.pop()
            _drop_empty(template["spec"]["containers"][mains[role]], "volumeMounts")
            _drop_empty(template["spec"], "volumes")
    codes = {role: _code(t, mains[role]) for role, t in reduced.items()}
    first = next(iter(codes.values()), None)
    if first is not None and all(c is not None and equal(c[0], first[0]) for c in codes.values()):
        found["code"] = first[0]
        for role, (_, strip) in codes.items():
            strip(reduced[role])
    names = ({SHM_VOLUME} if "shmSize" in found else set()) | (
        {CODE_VOLUME, GIT_SECRET_VOLUME} if "code" in found else set())
    return found, reduced, names


def _drop_empty(holder: dict[str, Any], key: str) -> None:
    if key in holder and not holder[key]:
        del holder[key]


def _shm(template: dict[str, Any], main: int) -> str | None:
    """The size of mpigen's ``/dev/shm`` volume, when the pod ends with it."""
    volumes = template["spec"].get("volumes") or []
    mounts = template["spec"]["containers"][main].get("volumeMounts") or []
    if not volumes or not mounts or mounts[-1] != {"name": SHM_VOLUME, "mountPath": SHM_PATH}:
        return None
    last = volumes[-1]
    size = (last.get("emptyDir") or {}).get("sizeLimit") if isinstance(last, dict) else None
    if last == {"name": SHM_VOLUME, "emptyDir": {"medium": "Memory", "sizeLimit": size}} and isinstance(size, str) \
            and _canonical(size):
        return size
    return None


def _code(template: dict[str, Any], main: int) -> tuple[dict[str, Any], Any] | None:
    """(the spec's ``code`` mpigen would write this pod's code sync for, a function that takes
    that code sync out of the template), or None."""
    pod = template["spec"]
    inits = pod.get("initContainers") or []
    sidecars = 0
    while sidecars < len(inits) and isinstance(inits[sidecars], dict) and inits[sidecars].get("restartPolicy") == "Always":
        sidecars += 1
    sync = inits[sidecars] if sidecars < len(inits) else None
    container = pod["containers"][main]
    mounts = container.get("volumeMounts") or []
    if not isinstance(sync, dict) or sync.get("name") != "code-sync" or not mounts \
            or not isinstance(mounts[-1], dict) or mounts[-1].get("name") != CODE_VOLUME:
        return None
    mount_path = mounts[-1].get("mountPath")
    code = _git(sync, mount_path) if sync.get("image") == GIT_SYNC_IMAGE and "args" in sync else _rsync(sync, mount_path)
    if code is not None and "git" in code and any(isinstance(m, dict) and m.get("name") == GIT_SECRET_VOLUME
                                                  for m in sync.get("volumeMounts") or []):
        volume = next((v for v in pod.get("volumes") or [] if isinstance(v, dict) and v.get("name") == GIT_SECRET_VOLUME),
                      {})
        code["git"]["secret"] = (volume.get("secret") or {}).get("secretName")
    if code is None or mounts[-1] != {"name": CODE_VOLUME, "mountPath": mount_path} \
            or code_sync({"code": code}) != [sync]:
        return None
    secret = (code.get("git") or {}).get("secret")
    volumes = [{"name": CODE_VOLUME, "emptyDir": {}}]
    if secret:
        volumes.append({"name": GIT_SECRET_VOLUME, "secret": {"secretName": secret, "defaultMode": 0o400}})
    if (pod.get("volumes") or [])[-len(volumes):] != volumes:
        return None
    git = code.get("git")
    folder = mount_path.rstrip("/")
    sub = repository_folder(git["repository"]) if git else rsync_folder(code["rsync"]["source"])
    working_dir = f"{folder}/{sub}" if sub else (folder or "/")

    def strip(t: dict[str, Any]) -> None:
        spec = t["spec"]
        del spec["initContainers"][sidecars]
        _drop_empty(spec, "initContainers")
        del spec["volumes"][-len(volumes):]
        _drop_empty(spec, "volumes")
        own = spec["containers"][main]
        own["volumeMounts"].pop()
        _drop_empty(own, "volumeMounts")
        if own.get("workingDir") == working_dir:  # mpigen's default with code sync
            del own["workingDir"]
        context = spec.get("securityContext") or {}
        if secret and context.get("fsGroup") == GIT_SYNC_GROUP:
            del context["fsGroup"]
            if context.get("fsGroupChangePolicy") == "OnRootMismatch":
                del context["fsGroupChangePolicy"]
            _drop_empty(spec, "securityContext")

    return _spec_code(code), strip


def _git(sync: dict[str, Any], mount_path: Any) -> dict[str, Any] | None:
    """The code a git-sync container of mpigen's clones (its arguments read back)."""
    args = sync.get("args") or []
    values = dict(a[2:].split("=", 1) for a in args if isinstance(a, str) and a.startswith("--") and "=" in a)
    try:
        depth = int(values.get("depth", ""))
    except ValueError:
        return None
    if "repo" not in values or "ref" not in values or values.get("root") != mount_path:
        return None
    git: dict[str, Any] = {"repository": values["repo"], "revision": values["ref"], "depth": depth}
    return {"git": git, "mountPath": mount_path}


def _rsync(sync: dict[str, Any], mount_path: Any) -> dict[str, Any] | None:
    command = sync.get("command") or []
    if len(command) != 4 or command[:2] != ["rsync", "-avP"] or not isinstance(mount_path, str):
        return None
    return {"rsync": {"source": command[2], "image": sync.get("image")}, "mountPath": mount_path}


def _spec_code(code: dict[str, Any]) -> dict[str, Any]:
    """``code`` as a spec writes it: what mpigen defaults left out."""
    from ..expand.defaults import CODE_MOUNT_PATH, RSYNC_IMAGE

    out: dict[str, Any] = {}
    if code.get("git"):
        git = dict(code["git"])
        if git.get("revision") == "HEAD":
            del git["revision"]
        if git.get("depth") == 1:
            del git["depth"]
        if git.get("secret") is None:
            git.pop("secret", None)
        out["git"] = git
    else:
        rsync = dict(code["rsync"])
        if rsync.get("image") == RSYNC_IMAGE:
            del rsync["image"]
        out["rsync"] = rsync
    if code["mountPath"] != CODE_MOUNT_PATH:
        out["mountPath"] = code["mountPath"]
    return out
