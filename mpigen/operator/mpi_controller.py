"""What mpi-operator v0.8.2's controller creates for an MPIJob: a port of its object builders.

From ``pkg/controller/mpi_job_controller.go`` (v0.8.2; v0.8.0 differs only in ``newLauncherJob``,
which sets no ``podReplacementPolicy``, and the v0.4.x line as ``version.legacy`` says):
``syncHandler`` (what is created, in which order, and when), ``newJobService``, ``newConfigMap``
with ``updateDiscoverHostsInConfigMap`` (no worker is running yet at the first sync),
``newSSHAuthSecret`` (key material redacted: it is random),
``newLauncherJob``/``newLauncherPodTemplate``, ``newWorker``, ``setupSSHOnPod`` and the env vars
the operator injects. The PodGroup and the pod decoration come from :mod:`.podgroup`.

Pure functions on plain dicts; ownerReferences are left out. The input is the MPIJob as the API
server stores it; it is defaulted here as the controller defaults it.
"""

from __future__ import annotations

import copy
from typing import Any, Iterator

from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion
from . import podgroup as pg
from .mpi_defaults import set_defaults
from .mpi_validation import validate_mpijob

CONFIG_MOUNT_PATH = "/etc/mpi"
CONFIG_VOLUME = "mpi-job-config"
SSH_VOLUME = "ssh-auth"
ROOT_SSH_PATH = "/root/.ssh"
REDACTED = "<redacted>"
OPERATOR_NAME_LABEL = "training.kubeflow.org/operator-name"
JOB_NAME_LABEL = "training.kubeflow.org/job-name"
JOB_ROLE_LABEL = "training.kubeflow.org/job-role"
REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index"
_CONNECT = "-o ConnectionAttempts=10"
_HOSTFILE = f"{CONFIG_MOUNT_PATH}/hostfile"

IMPLEMENTATION_ENV: dict[str, list[tuple[str, str]]] = {
    "OpenMPI": [("OMPI_MCA_orte_keep_fqdn_hostnames", "true"), ("OMPI_MCA_orte_default_hostfile", _HOSTFILE),
                ("OMPI_MCA_plm_rsh_args", _CONNECT)],
    "Intel": [("I_MPI_HYDRA_HOST_FILE", _HOSTFILE), ("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", _CONNECT)],
    "MPICH": [("HYDRA_HOST_FILE", _HOSTFILE), ("HYDRA_LAUNCH_EXTRA_ARGS", _CONNECT)],
}
SLOTS_ENV = {"OpenMPI": "OMPI_MCA_orte_set_default_slots", "Intel": "I_MPI_PERHOST"}


class NotCreated(Exception):
    """The controller creates nothing for this job (it fails validation, or another controller manages it)."""


def _meta(job: dict[str, Any], name: str, labels: dict[str, str] | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if job["metadata"].get("namespace"):
        meta["namespace"] = job["metadata"]["namespace"]
    meta["labels"] = labels if labels is not None else {"app": job["metadata"]["name"]}
    return meta


def _workers(job: dict[str, Any]) -> int:
    worker = job["spec"]["mpiReplicaSpecs"].get("Worker") or {}
    return worker.get("replicas") or 0


def _as_worker(job: dict[str, Any]) -> bool:
    return bool(job["spec"].get("runLauncherAsWorker"))


def service_name(job: dict[str, Any], legacy: bool = False) -> str:
    """The headless Service the pods' hostnames live under: ``<job>`` (v0.5.0 on), ``<job>-worker`` (v0.4.x)."""
    return job["metadata"]["name"] + ("-worker" if legacy else "")


def host(job: dict[str, Any], pod: str, cluster_domain: str = "", legacy: bool = False) -> str:
    fqdn = f"{pod}.{service_name(job, legacy)}.{job['metadata'].get('namespace', '')}.svc"
    return f"{fqdn}.{cluster_domain}" if cluster_domain and not legacy else fqdn


class Hostfile:
    """``newConfigMap``'s hostfile, computed line by line from the index: ``<host> slots=<n>``
    (OpenMPI) or ``<host>:<n>`` (Intel, MPICH), the launcher first when it runs as a worker.

    Never held whole: ``len()`` is the line count, ``line(i)`` one line (without its newline),
    iterating yields every line, ``str()`` is the text itself.
    """

    def __init__(self, job: dict[str, Any], cluster_domain: str = "", legacy: bool = False) -> None:
        spec = job["spec"]
        self._legacy = legacy
        self._name = job["metadata"]["name"]
        self._job = job
        self._domain = cluster_domain
        self._launcher = _as_worker(job)
        self._workers = _workers(job)
        slots = spec.get("slotsPerWorker", 1)
        self._suffix = f" slots={slots}" if spec.get("mpiImplementation") == "OpenMPI" else f":{slots}"

    def __len__(self) -> int:
        return self._workers + self._launcher

    def line(self, i: int) -> str:
        if not 0 <= i < len(self):
            raise IndexError(i)
        if self._launcher:
            pod = f"{self._name}-launcher" if i == 0 else f"{self._name}-worker-{i - 1}"
        else:
            pod = f"{self._name}-worker-{i}"
        return host(self._job, pod, self._domain, self._legacy) + self._suffix

    def __iter__(self) -> Iterator[str]:
        return (self.line(i) for i in range(len(self)))

    def __str__(self) -> str:
        return "".join(line + "\n" for line in self)


def hostfile(job: dict[str, Any], cluster_domain: str = "", legacy: bool = False) -> str:
    """``newConfigMap``'s hostfile text (see :class:`Hostfile`)."""
    return str(Hostfile(job, cluster_domain, legacy))


CONFIG_MAP_MAX_BYTES = 1024 * 1024
"""``core.MaxSecretSize``: ``ValidateConfigMap`` (k8s.io/kubernetes v1.35.1
``pkg/apis/core/validation/validation.go``) refuses a ConfigMap whose values (``data`` and
``binaryData``, keys not counted) add up to more bytes than this."""


def index_digits(count: int) -> int:
    """The decimal digits of 0, 1, ..., count-1 written one after another, in closed form: each
    index has 1 digit, and one more for every power of ten (10, 100, ...) it reaches."""
    total, power = count, 10
    while power < count:
        total += count - power
        power *= 10
    return total


def config_map_bytes(job: dict[str, Any], cluster_domain: str = "", legacy: bool = False) -> tuple[int, int]:
    """The bytes of data of the ``<job>-config`` ConfigMap the controller writes for a defaulted
    MPIJob, as ``ValidateConfigMap`` counts them: (when it is created: the hostfile and
    ``discover_hosts.sh`` with no worker running yet; once every worker runs, which
    ``updateDiscoverHostsInConfigMap`` writes into ``discover_hosts.sh`` one ``echo <host>`` line
    each). Computed from the lengths of the names and the digit counts of the indices, so its cost
    does not depend on the number of workers (:func:`hostfile`'s text is what it measures)."""
    name, workers = job["metadata"]["name"], _workers(job)
    namespace = job["metadata"].get("namespace") or "default"
    domain = len(cluster_domain) + 1 if cluster_domain and not legacy else 0
    service = len(service_name(job, legacy))

    def host(pod: int) -> int:  # <pod>.<service>.<namespace>.svc[.<domain>]
        return pod + 1 + service + 1 + len(namespace) + len(".svc") + domain

    slots = job["spec"].get("slotsPerWorker", 1)
    suffix = len(f" slots={slots}" if job["spec"].get("mpiImplementation") == "OpenMPI" else f":{slots}")
    worker_hosts = workers * host(len(f"{name}-worker-")) + index_digits(workers)
    hostfile_bytes = worker_hosts + workers * (suffix + 1)
    discover = len("#!/bin/sh\n")
    if _as_worker(job):
        launcher = host(len(f"{name}-launcher"))
        hostfile_bytes += launcher + suffix + 1
        discover += len("echo \n") + launcher
    created = hostfile_bytes + discover
    return created, created + worker_hosts + workers * len("echo \n")


def _default_labels(name: str, role: str) -> dict[str, str]:
    return {OPERATOR_NAME_LABEL: "mpi-operator", JOB_NAME_LABEL: name, JOB_ROLE_LABEL: role}


def _env(name: str, value: str | None = None) -> dict[str, str]:
    return {"name": name} if value is None else {"name": name, "value": value}


def _setup_ssh(pod: dict[str, Any], job: dict[str, Any]) -> None:
    path = job["spec"]["sshAuthMountPath"]
    secret: dict[str, Any] = {"secretName": f"{job['metadata']['name']}-ssh",
                              "items": [{"key": "ssh-privatekey", "path": "id_rsa"},
                                        {"key": "ssh-publickey", "path": "id_rsa.pub"},
                                        {"key": "ssh-publickey", "path": "authorized_keys"}]}
    if path == ROOT_SSH_PATH:
        secret["defaultMode"] = 0o600
    pod.setdefault("volumes", []).append({"name": SSH_VOLUME, "secret": secret})
    pod["containers"][0].setdefault("volumeMounts", []).append({"name": SSH_VOLUME, "mountPath": path})


def _restart_policy(pod: dict[str, Any], replica: dict[str, Any]) -> None:
    policy = replica.get("restartPolicy")
    pod["restartPolicy"] = "Never" if policy == "ExitCode" else policy


def launcher_template(job: dict[str, Any], gang: str | None, scheduler_name: str,
                      legacy: bool = False) -> dict[str, Any]:
    """``newLauncherPodTemplate``."""
    name = job["metadata"]["name"]
    spec = job["spec"]
    template = copy.deepcopy(spec["mpiReplicaSpecs"]["Launcher"].get("template") or {})
    template.setdefault("metadata", {})
    template["metadata"]["labels"] = {**(template["metadata"].get("labels") or {}), **_default_labels(name, "launcher")}
    if gang:
        template = pg.decorate_pod_template(template, name, gang, scheduler_name=scheduler_name)
    if _as_worker(job):
        template["metadata"]["labels"][REPLICA_INDEX_LABEL] = "0"
    pod = template.setdefault("spec", {})
    pod["hostname"] = f"{name}-launcher"
    pod["subdomain"] = service_name(job, legacy)
    if pod.get("hostNetwork"):
        pod["dnsPolicy"] = "ClusterFirstWithHostNet"
    container = pod["containers"][0]
    implementation = spec["mpiImplementation"]
    env = [_env("K_MPI_JOB_ROLE", "launcher")] + [_env(k, v) for k, v in IMPLEMENTATION_ENV[implementation]]
    if implementation in SLOTS_ENV:
        env.append(_env(SLOTS_ENV[implementation], str(spec["slotsPerWorker"])))
    if not _as_worker(job):
        env += [_env("NVIDIA_VISIBLE_DEVICES"), _env("NVIDIA_DRIVER_CAPABILITIES")]
    container["env"] = list(container.get("env") or []) + env
    _setup_ssh(pod, job)
    _restart_policy(pod, spec["mpiReplicaSpecs"]["Launcher"])
    pod["volumes"].append({"name": CONFIG_VOLUME, "configMap": {
        "name": f"{name}-config", "items": [{"key": "hostfile", "path": "hostfile", "mode": 0o444},
                                            {"key": "discover_hosts.sh", "path": "discover_hosts.sh", "mode": 0o555}]}})
    container["volumeMounts"].append({"name": CONFIG_VOLUME, "mountPath": CONFIG_MOUNT_PATH})
    _go_resources(pod)
    return template


def worker_pod(job: dict[str, Any], index: int, gang: str | None, scheduler_name: str,
               legacy: bool = False) -> dict[str, Any]:
    """``newWorker``: the index-th worker Pod."""
    name = job["metadata"]["name"]
    pod_name = f"{name}-worker-{index}"
    replica = job["spec"]["mpiReplicaSpecs"]["Worker"]
    template = copy.deepcopy(replica.get("template") or {})
    template.setdefault("metadata", {})
    labels = {**(template["metadata"].get("labels") or {}), **_default_labels(name, "worker")}
    labels[REPLICA_INDEX_LABEL] = str(index + 1 if _as_worker(job) else index)
    template["metadata"]["labels"] = labels
    pod = template.setdefault("spec", {})
    pod["hostname"] = pod_name
    pod["subdomain"] = service_name(job, legacy)
    if pod.get("hostNetwork"):
        pod["dnsPolicy"] = "ClusterFirstWithHostNet"
    if not legacy:  # v0.5.0 on: the job's Service is a search domain of its workers
        search = f"{name}.{job['metadata'].get('namespace', '')}.svc.cluster.local"
        dns = pod.setdefault("dnsConfig", {})
        dns["searches"] = list(dns.get("searches") or []) + [search]
    _restart_policy(pod, replica)
    container = pod["containers"][0]
    if not container.get("command") and not container.get("args"):
        container["command"] = ["/usr/sbin/sshd", "-De"]
    container["env"] = list(container.get("env") or []) + [_env("K_MPI_JOB_ROLE", "worker")]
    _setup_ssh(pod, job)
    _go_resources(pod)
    if gang:
        template = pg.decorate_pod_template(template, name, gang, scheduler_name=scheduler_name)
    meta = _meta(job, pod_name, template["metadata"]["labels"])
    if template["metadata"].get("annotations"):
        meta["annotations"] = template["metadata"]["annotations"]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": template["spec"]}


def worker_pods(job: dict[str, Any], count: int, gang: str | None, scheduler_name: str,
                legacy: bool = False) -> Iterator[dict[str, Any]]:
    """``worker_pod`` for the indices ``0 .. count-1``, built once: the Pods differ only in their
    name, hostname and replica-index label, and share every other part (do not modify them)."""
    if count <= 0:
        return
    first = worker_pod(job, 0, gang, scheduler_name, legacy)
    yield first
    meta, pod_spec = first["metadata"], first["spec"]
    name = job["metadata"]["name"]
    shift = 1 if _as_worker(job) else 0
    for index in range(1, count):
        pod_name = f"{name}-worker-{index}"
        labels = dict(meta["labels"])
        labels[REPLICA_INDEX_LABEL] = str(index + shift)
        yield {"apiVersion": "v1", "kind": "Pod", "metadata": {**meta, "name": pod_name, "labels": labels},
               "spec": {**pod_spec, "hostname": pod_name}}


def go_quantity_text(raw: Any) -> Any:
    """A resource value as the operator writes it back: Go's ``Quantity.String()`` -- the text it
    was parsed from when the parser found it canonical, else the canonical form (``0.1Ki`` ->
    ``102400m``, ``2.5`` -> ``2500m``). A value that is no quantity is left as it is."""
    from .quantity import QuantityError

    try:
        return str(pg._parse(raw))
    except (QuantityError, ValueError, TypeError):
        return raw


def _go_resources(pod_spec: dict[str, Any]) -> None:
    """Every container's requests and limits as Go serializes the typed Pod (in place, on a copy)."""
    for key in ("initContainers", "containers"):
        for container in pod_spec.get(key) or []:
            resources = container.get("resources")
            if not isinstance(resources, dict):
                continue
            for kind in ("requests", "limits"):
                if isinstance(resources.get(kind), dict):
                    resources[kind] = {n: go_quantity_text(v) for n, v in resources[kind].items()}


def _times(raw: Any, count: int) -> Any:
    """A resource value after Go's ``Mul(count)`` on a copy that shares its inf.Dec (see below)."""
    from .quantity import go_stores_as_decimal

    text = pg._json_float_text(raw) if isinstance(raw, float) else raw
    if not isinstance(text, str) or not go_stores_as_decimal(text):
        return raw  # an int64-backed Quantity: the copy is multiplied, the template is not
    # The Quantity itself, not its text: Go never parses the product again (which would clamp a
    # BinarySI value above 2^63-1: 4607Pi x 2 stays 9214Pi). _go_resources writes it out.
    return pg._parse(text).mul(count)


def as_mutated_by_min_resources(job: dict[str, Any], gang: str | None, priority_classes: dict[str, int] | None,
                                version: OperatorVersion) -> dict[str, Any]:
    """The job as mpi-operator v0.5.0+ holds it once ``calPGMinResource`` has run (a copy).

    ``addResources`` copies each container's Quantity by value and calls ``Mul(replicas)`` on the
    copy. A Quantity parsed into an inf.Dec (``go_stores_as_decimal``: a fraction of a binary
    suffix such as 1.5Gi, more than 18 digits, finer than 1n) shares it with the copy, so the
    job's own template is multiplied in place, by the count the sum used for its replica type
    (its replicas, or minMember - 1 when the gang cuts it): the worker Pods and the launcher Job
    created next in the same sync carry the multiplied value (1.5Gi with 2 workers: 3Gi each).
    The requests are multiplied, and the limits of names without a request. The PodGroup itself
    is right. The ``decimal-quantity-multiplied`` lint warns about such manifests.
    """
    if not gang or version.legacy:
        return job
    if ((job["spec"].get("runPolicy") or {}).get("schedulingPolicy") or {}).get("minResources") is not None:
        return job
    min_member = pg.calculate_min_available(job)
    if min_member == 0:
        return job
    counts = pg.min_resources_counts(min_member, job, priority_classes or {})
    if not counts:
        return job
    specs = dict(job["spec"]["mpiReplicaSpecs"])
    for rtype, count in counts.items():
        template = specs[rtype].get("template") or {}
        containers = []
        for container in (template.get("spec") or {}).get("containers") or []:
            resources = container.get("resources") or {}
            requests, limits = resources.get("requests") or {}, resources.get("limits") or {}
            if not requests and not limits:
                containers.append(container)
                continue
            changed = dict(resources)
            if requests:
                changed["requests"] = {n: _times(v, count) for n, v in requests.items()}
            if limits:
                changed["limits"] = {n: v if n in requests else _times(v, count) for n, v in limits.items()}
            containers.append(dict(container, resources=changed))
        pod_spec = dict(template.get("spec") or {}, containers=containers)
        specs[rtype] = dict(specs[rtype], template=dict(template, spec=pod_spec))
    return dict(job, spec=dict(job["spec"], mpiReplicaSpecs=specs))


def created_objects(job: dict[str, Any], gang: str | None = None, *, scheduler_name: str = pg.DEFAULT_SCHEDULER_PLUGINS_NAME,
                    priority_classes: dict[str, int] | None = None,
                    version: OperatorVersion = DEFAULT_OPERATOR_VERSION,
                    cluster_domain: str = "", max_workers: int | None = None,
                    lazy: bool = False) -> Iterator[dict[str, Any]]:
    """The objects ``syncHandler``'s first pass creates, in its order.

    Service, ConfigMap, SSH Secret; unless suspended the PodGroup (with a gang scheduler) and the
    worker Pods; the launcher Job at startup (with WaitForWorkersReady, only once every worker
    is ready, which at the first pass means only when there are no workers). A job without a
    namespace is taken to be in ``default``. ``max_workers`` bounds how many worker Pods are
    produced (they differ only by index). ``lazy``: the ConfigMap's hostfile is a
    :class:`Hostfile` rather than its text, and the worker Pods share their common parts (see
    :func:`worker_pods`), so that a job of any size is produced in bounded memory.
    """
    job = set_defaults(job)
    if not job["metadata"].get("namespace"):  # kubectl apply puts it in the current namespace
        job["metadata"] = dict(job["metadata"], namespace="default")
    if (job["spec"].get("runPolicy") or {}).get("managedBy") not in (None, "kubeflow.org/mpi-operator"):
        raise NotCreated("another controller manages this MPIJob (runPolicy.managedBy)")
    problems = validate_mpijob(job)
    if problems:
        raise NotCreated("the operator rejects this MPIJob: " + "; ".join(m for _, m in problems))
    name = job["metadata"]["name"]
    spec = job["spec"]
    suspended = bool(spec["runPolicy"].get("suspend"))
    legacy = version.legacy  # a workers' Service <job>-worker, no cluster domain, no dnsConfig
    if legacy:  # newWorkersService: the workers only
        yield {"apiVersion": "v1", "kind": "Service", "metadata": _meta(job, service_name(job, legacy)),
               "spec": {"clusterIP": "None", "selector": _default_labels(name, "worker")}}
    else:
        yield {"apiVersion": "v1", "kind": "Service", "metadata": _meta(job, name),
               "spec": {"clusterIP": "None", "selector": {OPERATOR_NAME_LABEL: "mpi-operator", JOB_NAME_LABEL: name},
                        "publishNotReadyAddresses": _as_worker(job)}}
    discover = "#!/bin/sh\n" + (f"echo {host(job, f'{name}-launcher', cluster_domain)}\n" if _as_worker(job) else "")
    yield {"apiVersion": "v1", "kind": "ConfigMap", "metadata": _meta(job, f"{name}-config"),
           "data": {"discover_hosts.sh": discover,
                    "hostfile": Hostfile(job, cluster_domain, legacy) if lazy else hostfile(job, cluster_domain, legacy)}}
    yield {"apiVersion": "v1", "kind": "Secret", "metadata": _meta(job, f"{name}-ssh"), "type": "kubernetes.io/ssh-auth",
           "data": {"ssh-privatekey": REDACTED, "ssh-publickey": REDACTED}}
    workers = 0
    if not suspended:
        if gang:
            group = pg.new_pod_group(job, gang, priority_classes or {}, scheduler_name=scheduler_name, version=version)
            if group is not None:
                yield group
                job = as_mutated_by_min_resources(job, gang, priority_classes, version)
        workers = _workers(job)
        count = workers if max_workers is None else min(workers, max_workers)
        if lazy:
            yield from worker_pods(job, count, gang, scheduler_name, legacy)
        else:
            for index in range(count):
                yield worker_pod(job, index, gang, scheduler_name, legacy)
    if spec.get("launcherCreationPolicy", "AtStartup") == "AtStartup" or workers == 0:
        run_policy = spec["runPolicy"]
        job_spec: dict[str, Any] = {k: run_policy[k] for k in ("ttlSecondsAfterFinished", "activeDeadlineSeconds",
                                                                 "backoffLimit") if k in run_policy}
        if suspended:
            job_spec["suspend"] = True
        if version.has("launcher podReplacementPolicy: Failed"):
            job_spec["podReplacementPolicy"] = "Failed"
        job_spec["template"] = launcher_template(job, gang, scheduler_name, legacy)
        yield {"apiVersion": "batch/v1", "kind": "Job", "metadata": _meta(job, f"{name}-launcher"), "spec": job_spec}
