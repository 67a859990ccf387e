"""Stage 2b, check: rules of the features beyond MPI - frameworks, Kueue and kube-batch, ACK GPU
topology, TensorBoard, code sync and volumes.

Same contract as :mod:`mpigen.spec.spec_rules`: each rule reads one environment's effective
spec and yields ``(path, code, severity, message)``.
"""

from __future__ import annotations

import posixpath
import re
from typing import Iterator

from ..diagnostics import Severity
from ..names import OWN_VOLUMES, VOLUME_MOUNT_FIELDS, is_ssh_url, log_volume, volume_name
from ..versions import OperatorVersion

Finding = tuple[tuple, str, Severity, str]

TENSORBOARD_SUFFIX = "-tensorboard"  # the Deployment and Service are <job>-tensorboard (render/addons.py)
# content.IsLabelValue (k8s.io/apimachinery v0.35.1): at most 63 characters, alphanumeric at both ends
_LABEL_VALUE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")


def label_value_problem(value: str) -> str | None:
    """What makes ``value`` no label value (``content.IsLabelValue``), or None."""
    if len(value.encode("utf-8")) > 63:
        return f"must have at most 63 characters (this one has {len(value)})"
    if not _LABEL_VALUE.fullmatch(value):
        return "must consist of letters, digits, '-', '_' and '.', and start and end with a letter or digit"
    return None


FRAMEWORK_FIELDS = {"mpi": ("mpi",), "pytorch": ("pytorch",), "tensorflow": ("tensorflow",)}
SHARED_FIELDS = {"slotsPerWorker": ("mpi", "pytorch")}
"""Fields of more than one framework: the processes per pod are MPI's slots and torchrun's nprocPerNode."""
# user:password@ in any URL; for http(s) any user part at all (a token is often given as the user)
_URL_CREDENTIALS = re.compile(r"^(?:[a-z][a-z0-9+.-]*://[^/@]*:[^/@]*@|https?://[^/@]+@)", re.IGNORECASE)


def _frameworks(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    framework = spec.get("framework", "mpi")
    if framework not in FRAMEWORK_FIELDS:
        return  # the schema reports the unknown framework; which fields belong is unknown
    owners = {name: (other,) for other, fields in FRAMEWORK_FIELDS.items() for name in fields} | SHARED_FIELDS
    for name, frameworks in owners.items():
        if framework not in frameworks and name in spec:
            yield (("spec", name), "framework-field", Severity.ERROR,
                   f"{name} belongs to framework: {' or '.join(frameworks)}; this spec is framework: {framework}")
    if framework == "mpi" and "restartPolicy" in spec:
        yield (("spec", "restartPolicy"), "framework-field", Severity.ERROR,
               "restartPolicy applies to pytorch and tensorflow; an MPIJob's launcher restarts OnFailure "
               "and its workers Never (use runPolicy.backoffLimit for retries)")
    if framework != "mpi" or spec.get("runtime") is not None:
        fixed = ("a TrainJob's training container is its runtime's node" if spec.get("runtime") is not None else
                 f"training-operator finds the training container by its name, {framework}")
        places = [("spec",), *(("spec", "roles", role) for role in spec.get("roles") or {})]
        for base in places:
            settings = spec if base == ("spec",) else spec["roles"][base[-1]]
            if isinstance(settings, dict) and "containerName" in settings:
                yield (base + ("containerName",), "framework-field", Severity.ERROR,
                       f"containerName names an MPIJob's training containers; {fixed}")


def _kueue_and_kube_batch(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    scheduling = spec.get("scheduling") or {}
    gang = scheduling.get("gang")
    base = ("spec", "scheduling")
    if gang == "kueue":
        if not scheduling.get("queue"):
            yield (base, "kueue-queue", Severity.ERROR,
                   "Kueue admits a job through a LocalQueue: set scheduling.queue (the label "
                   "kueue.x-k8s.io/queue-name); without it Kueue ignores the job")
        problem = _label_problem(scheduling, "queue", "kueue.x-k8s.io/queue-name")
        if problem:
            yield (base + ("queue",), "kueue-queue", Severity.ERROR, problem)
        problem = _label_problem(scheduling, "priorityClass", "kueue.x-k8s.io/priority-class")
        if problem:
            yield (base + ("priorityClass",), "kueue-priority-class", Severity.ERROR, problem)
        for key in ("minAvailable", "minResources", "scheduleTimeoutSeconds"):
            if key in scheduling:
                yield (base + (key,), "gang-ignored", Severity.WARNING,
                       f"Kueue ignores {key}: it admits the whole job by quota and creates no PodGroup")
        if "suspend" in (spec.get("runPolicy") or {}):
            yield (("spec", "runPolicy", "suspend"), "kueue-suspend", Severity.WARNING,
                   "Kueue owns runPolicy.suspend: its webhook suspends the job at creation and resumes it on "
                   "admission; mpigen leaves the field out so that a GitOps sync does not fight Kueue")
    if gang == "kube-batch":
        for key in ("minResources", "scheduleTimeoutSeconds"):
            if key in scheduling:
                yield (base + (key,), "gang-ignored", Severity.WARNING,
                       f"kube-batch's PodGroup (scheduling.incubator.k8s.io/v1alpha1) has no {key}")


def _label_problem(scheduling: dict, key: str, label: str) -> str | None:
    """The message when ``scheduling[key]``, written as the job's label ``label``, is no label value."""
    value = scheduling.get(key)
    problem = label_value_problem(value) if isinstance(value, str) else None
    if problem is None:
        return None
    return f"{key} {value!r} becomes the label {label} of the job, and the API server refuses the job: a label value {problem}"


def _gpu_topology(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    if not (spec.get("scheduling") or {}).get("gpuTopology"):
        return
    from ..expand.defaults import gpus

    roles = [spec.get("resources")] + [r.get("resources") for fw in ("pytorch", "tensorflow")
                                       for r in (spec.get(fw) or {}).values() if isinstance(r, dict)]
    roles.append(((spec.get("mpi") or {}).get("launcher") or {}).get("resources"))
    roles += [r.get("resources") for r in (spec.get("roles") or {}).values() if isinstance(r, dict)]
    if not any(gpus(r) for r in roles if isinstance(r, dict)):
        yield (("spec", "scheduling", "gpuTopology"), "gpu-topology", Severity.ERROR,
               "gpuTopology places GPU pods by the GPUs' links: give the pods GPUs (resources.gpu)")
        return
    if spec.get("framework", "mpi") == "mpi" and not ssh_port_chosen(spec):
        yield (("spec", "scheduling", "gpuTopology"), "host-network-ssh", Severity.WARNING,
               "gpuTopology runs the pods on the host network: the MPI workers' sshd then needs the node's port "
               "22, which the node's own sshd usually holds; " + SSH_PORT_HINT)


SSH_PORT_HINT = ("run the workers' sshd on another port (roles.worker.command: [/usr/sbin/sshd, -De, -p, \"2222\"]) "
                 "and tell mpirun (mpi.extraArgs: [-mca, plm_rsh_args, \"-p 2222 -o ConnectionAttempts=10\"]; on "
                 "the command line it replaces the operator's OMPI_MCA_plm_rsh_args, whose ConnectionAttempts=10 "
                 "lets the launcher wait for the workers)")
_SSH_PORT = re.compile(r"(^|\s)-p\s*[0-9]+|Port=[0-9]+")


def ssh_port_chosen(spec: dict) -> bool:
    """Whether mpirun is told to reach the workers' sshd on a port of its own (``mpi.extraArgs``:
    ``-mca plm_rsh_args "-p 2222"``, Intel MPI's and MPICH's bootstrap arguments alike)."""
    args = (spec.get("mpi") or {}).get("extraArgs")
    return isinstance(args, list) and any(isinstance(a, str) and _SSH_PORT.search(a) for a in args)


def _volume_sources(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    code_path = (spec.get("code") or {}).get("mountPath", "/code") if spec.get("code") else None
    from .role_rules import role_places

    for base, settings in role_places(spec):
        volumes = settings.get("volumes")
        for i, volume in enumerate(volumes if isinstance(volumes, list) else []):
            if isinstance(volume, dict):
                yield from _volume(base + ("volumes", i), volume, code_path)


def _volume(path: tuple, volume: dict, code_path: str | None) -> Iterator[Finding]:
    given = [k for k in volume if k not in ("name", *VOLUME_MOUNT_FIELDS)]  # the schema knows each source
    if len(given) != 1:
        yield (path, "volume-source", Severity.ERROR,
               "a volume has one source: a PersistentVolumeClaim (claimName), a node's folder (hostPath) or one "
               f"Kubernetes volume source (configMap, secret, emptyDir, csi, nfs, ...); "
               + (f"this one has {len(given)}: {', '.join(given)}" if given else "this one has none"))
        return
    if "hostPath" in volume:
        yield (path + ("hostPath",), "host-path", Severity.WARNING,
               "a hostPath volume is the folder of whichever node a pod lands on: each pod sees a "
               "different copy, and the pods can read the node's files; prefer a PersistentVolumeClaim")
    if given[0] not in ("claimName", "hostPath") and not volume.get("name"):
        yield (path, "volume-name", Severity.ERROR,
               f"this volume ({given[0]}) needs a name: the pods' containers mount it by name")
    elif volume_name(volume) in OWN_VOLUMES:
        yield (path, "volume-name", Severity.ERROR,
               f"volume name {volume_name(volume)!r} is mpigen's own (code sync, shared memory): choose another")
    if code_path is not None and volume.get("mountPath") == code_path:
        yield (path + ("mountPath",), "volume-mount-path", Severity.ERROR,
               f"mount path {code_path!r} is where spec.code puts the code")


def _tensorboard(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    board = spec.get("tensorboard")
    if isinstance(board, dict) and "logDir" not in board:
        yield (("spec", "tensorboard"), "missing-field", Severity.ERROR, "tensorboard needs logDir")
    name = (doc.get("metadata") or {}).get("name")
    if isinstance(board, dict) and isinstance(name, str) and len(name) + len(TENSORBOARD_SUFFIX) > 63:
        yield (("metadata", "name"), "tensorboard-name", Severity.ERROR,
               f"TensorBoard's Service is named {name + TENSORBOARD_SUFFIX!r}, {len(name) + len(TENSORBOARD_SUFFIX)} "
               "characters: the API server refuses a Service name of more than 63 (a DNS-1035 label); shorten the "
               f"job name to at most {63 - len(TENSORBOARD_SUFFIX)} characters")
    if not isinstance(board, dict) or not isinstance(board.get("logDir"), str):
        return
    volume = log_volume({"tensorboard": board, "volumes": spec.get("volumes"), "roles": spec.get("roles")})
    path = ("spec", "tensorboard", "logDir")
    if volume is None:
        yield (path, "tensorboard-log-dir", Severity.ERROR,
               f"logDir {board['logDir']!r} is on no volume of spec.volumes (or a role's): TensorBoard runs in its "
               "own pod and can read only a shared volume; write the logs under the mountPath of a "
               "PersistentVolumeClaim")
        return
    yield from _log_volume_dropped(spec, volume)
    if "hostPath" in volume:
        yield (path, "tensorboard-host-path", Severity.WARNING,
               f"logDir {board['logDir']!r} is on a hostPath volume: TensorBoard sees only the folder of the node "
               "it runs on, not what the training pods on other nodes write; use a PersistentVolumeClaim")


def _log_volume_dropped(spec: dict, volume: dict) -> Iterator[Finding]:
    """A role whose own ``volumes`` replace the job's and leave out the one TensorBoard reads: its
    pods no longer write the logs where TensorBoard looks (an MPI launcher that only runs mpirun
    writes none)."""
    from ..expand.roles import ROLES, roles_of

    framework = spec.get("framework", "mpi")
    roles = spec.get("roles")
    if spec.get("runtime") is not None or framework not in ROLES or not isinstance(roles, dict):
        return
    name = volume_name(volume)
    for role in roles_of(spec):
        own = roles.get(role)
        if not isinstance(own, dict) or "volumes" not in own:
            continue
        if framework == "mpi" and role == "launcher" and not (spec.get("mpi") or {}).get("runLauncherAsWorker"):
            continue
        if not any(isinstance(v, dict) and volume_name(v) == name for v in own["volumes"] or []):
            yield (("spec", "roles", role, "volumes"), "tensorboard-log-volume", Severity.WARNING,
                   f"roles.{role}.volumes replaces spec.volumes and leaves out {name!r}, which holds "
                   f"tensorboard.logDir: the {role} pods do not write their logs where TensorBoard reads them; add "
                   f"{name!r} to roles.{role}.volumes")


def _code(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    code = spec.get("code")
    if not isinstance(code, dict):
        return
    sources = [k for k in ("git", "rsync") if k in code]
    if len(sources) != 1:
        yield (("spec", "code"), "code-source", Severity.ERROR,
               "code sync takes one source: code.git or code.rsync")
    mount = code.get("mountPath")
    if isinstance(mount, str) and posixpath.normpath(mount) == "/":
        yield (("spec", "code", "mountPath"), "volume-mount-path", Severity.ERROR,
               "the code cannot be mounted over the container's root folder")
    for source, key in (("git", "repository"), ("rsync", "source")):
        if isinstance(code.get(source), dict) and key not in code[source]:
            yield (("spec", "code", source), "missing-field", Severity.ERROR, f"code.{source} needs {key}")
    git = code.get("git")
    if not isinstance(git, dict):
        return
    name = (doc.get("metadata") or {}).get("name", "job")
    how = (f"create a Secret (kubectl create secret generic {name}-git --from-literal=username=USER "
           f"--from-literal=password=TOKEN) and write code.git.secret: {name}-git")
    for key in ("password", "username"):
        if key in git:
            yield (("spec", "code", "git", key), "plaintext-credential", Severity.ERROR,
                   f"code.git.{key} would put a credential in plain text into the manifests and git: {how}")
    if isinstance(git.get("repository"), str) and _URL_CREDENTIALS.match(git["repository"]):
        yield (("spec", "code", "git", "repository"), "plaintext-credential", Severity.ERROR,
               f"the repository URL carries credentials (a user and password, or a token): {how}, and give the "
               "URL without them")
    if isinstance(git.get("repository"), str) and "secret" in git:
        if not is_ssh_url(git["repository"]) and not git["repository"].lower().startswith("https://"):
            yield (("spec", "code", "git", "repository"), "git-credentials-over-http", Severity.ERROR,
                   "credentials go only over https:// or ssh; this URL would send the Secret's password in clear")


FEATURE_RULES = (_frameworks, _kueue_and_kube_batch, _gpu_topology, _volume_sources, _tensorboard, _code)
