"""``mpigen explain``: what the operator will create for a job, before anything is applied.

Built from mpigen's own port of the controllers (:mod:`mpigen.operator.mpi_controller`,
:mod:`mpigen.operator.training_controller`), never from a cluster: the PodGroup, the hostfile,
the Service, the SSH Secret, the launcher Job and the worker Pods with their scheduling fields,
and the environment the operator injects. SOURCE is an mpigen spec (compiled first) or MPIJob,
PyTorchJob or TFJob manifests (as the API server stores them), the items of a ``kind: List``
included: the jobs are found, and judged, as ``mpigen validate`` and ``mpigen podgroup`` find and
judge them (:func:`mpigen.validate.find_jobs`), so a job validate reports an error on is not
explained (exit 1). The gang scheduler is the one the job's pod templates show, unless ``--gang``
says otherwise.

A Kubeflow Trainer v2.3.0 TrainJob (``trainer.kubeflow.org/v1alpha1``) is explained by
:mod:`mpigen.trainer`'s port of Trainer's runtime framework, on the TrainingRuntime or
ClusterTrainingRuntime its ``runtimeRef`` names: the ``--cluster`` file's (``kubectl get
clustertrainingruntimes,trainingruntimes -A -o yaml``), else Trainer's default runtimes (an info
note says so): the JobSet, the PodGroup the runtime's ``podGroupPolicy`` asks for, the MPI
hostfile and SSH Secret, the runtime snapshot, how numProcPerNode was resolved and the
environment the plugins inject.

The text is for people and has the same size for any number of workers: one worker Pod stands
for all (they differ only by index) and a long hostfile shows its first and last lines with
the count of those left out. The YAML is for tools and lists every object completely; the
objects are generated one at a time and the hostfile line by line
(:func:`mpigen.emit.yaml_emit.iter_dump_all`), so memory does not grow with the worker count.

With a ``--cluster`` file that holds Nodes, the gang (the PodGroup's minMember pods) is checked
against them (:mod:`mpigen.scheduler.fit`): the text shows the verdict under the PodGroup, and a gang
that cannot fit is an error (``gang-cannot-fit``) at the job, one that may not fit a warning
(``gang-may-not-fit``). The output is printed either way, since the operator creates those objects
all the same; an error makes the exit code 1.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, Diagnostic, Severity, format_path, has_errors
from ..emit.yaml_emit import Lines, dump, iter_dump_all
from ..lint.base import Context, LintOptions
from ..lint.rules._trainer import limit_only
from ..names import TRAINING_KINDS
from ..operator import mpi_controller as ctl
from ..operator import training_controller as tc
from ..operator.mpi_defaults import set_defaults
from ..operator.podgroup import OperatorPanicError
from ..scheduler.fit import Verdict, gang_fit
from ..scheduler.gang import gang_of
from ..trainer import mpi as trainer_mpi
from ..trainer.documents import Explained
from ..trainer.info import ANCESTOR_LABEL, Endpoints
from ..validate import Job
from ..versions import OperatorVersion
from . import (CLUSTER_NODES, CONFIG_DEFAULT, RUNTIMES, cluster_option, config_option, env_option, format_option,
               gang_location, gang_option, operator_version_option, read_configured_jobs, scheduler_name_option,
               trainjob_fit)

_DOMAIN = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?$")
_CHUNK = 1 << 16  # characters of YAML written at a time
TEXT_HEAD = 4  # lines shown first when a long listing is summarized


@click.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling (default: gang in the configuration, else what the manifest's pod "
             "templates say).")
@scheduler_name_option(default=None, help="scheduler-plugins scheduler name [default: schedulerName in the "
                       "configuration, else scheduler-plugins-scheduler].")
@cluster_option(f"{CLUSTER_NODES}; {RUNTIMES}.")
@operator_version_option("mpi-operator release whose rules apply [default: operatorVersion in the configuration, "
                         "else v0.8.0].", default=None)
@click.option("--cluster-domain", default="", metavar="D",
              help="The operator's --cluster-domain (MPIJob hostfile) or CUSTOM_CLUSTER_DOMAIN (TFJob TF_CONFIG).")
@env_option("For a spec: the environment to explain (default: the base).")
@config_option(f"{CONFIG_DEFAULT}: its gang, schedulerName, operatorVersion, cluster and disable, as validate "
               "reads them.", exists=True)
@format_option("text", "yaml",
               help="text for people (the same size for any number of workers); yaml: every object, for tools.")
def explain(source: str, gang: str | None, scheduler_name: str | None, cluster_file: str | None,
            operator_version: str | None, cluster_domain: str, env: str | None, fmt: str,
            config_file: str | None) -> int:
    """Show what the operator will create for SOURCE: an mpigen spec, or MPIJob, PyTorchJob, TFJob or
    TrainJob manifests (or -)."""
    if cluster_domain and not _DOMAIN.match(cluster_domain):
        raise io.UsageError(f"--cluster-domain {cluster_domain!r}: not a DNS domain")
    read, gang, scheduler_name, version = read_configured_jobs(source, gang, scheduler_name, cluster_file,
                                                               operator_version, env, config_file)
    cluster, classes, name, jobs, explained, diagnostics = (read.cluster, read.classes, read.name, read.jobs,
                                                            read.trainjobs, read.diagnostics)
    io.report(diagnostics)
    if has_errors(diagnostics):
        return EXIT_INVALID

    def operator_objects(item: Job, limit: int | None) -> Any:
        """(gang, the objects the controller creates, one at a time; at most ``limit`` worker Pods)."""
        job_gang = gang if gang is not None else Context(item.obj, LintOptions()).gang
        job_gang = None if job_gang == "none" else job_gang
        if item.obj.get("kind") in TRAINING_KINDS:  # training-operator v1.9.0
            return job_gang, tc.created_objects(item.obj, job_gang, scheduler_name=scheduler_name,
                                                priority_classes=classes, cluster_domain=cluster_domain,
                                                max_pods=limit)
        # The ConfigMap's hostfile is a lazy Hostfile; NotCreated or OperatorPanicError comes before
        # the first object (so max_workers=0 tells, before any output, whether anything is created).
        return job_gang, ctl.created_objects(item.obj, job_gang, scheduler_name=scheduler_name,
                                             priority_classes=classes, version=version,
                                             cluster_domain=cluster_domain, max_workers=limit, lazy=True)

    texts, problems, fits = [], [], []
    for item in jobs:  # every job's problems before any output; text shows one Pod per replica type
        training = item.obj.get("kind") in TRAINING_KINDS
        try:
            job_gang, created = operator_objects(item, 1 if training or fmt == "text" else 0)
            created = list(created)
        except (ctl.NotCreated, OperatorPanicError) as exc:
            crash = isinstance(exc, OperatorPanicError)
            line, col, path = item.locate(_cause(item.obj, exc))
            problems.append(Diagnostic(name, line, col, format_path(path), "operator-crash" if crash else "not-created",
                                       Severity.ERROR, f"{exc}: nothing is created"))
            continue
        verdict = None
        if cluster is not None and cluster.nodes and job_gang:
            sample = created if training or fmt == "text" else list(operator_objects(item, 1)[1])
            gang_pods = gang_of(item.obj, sample)
            if gang_pods is not None:
                verdict = gang_fit(gang_pods.roles, gang_pods.min_member, cluster.nodes, cluster.bound_pods)
                line, col, path = gang_location(item.locate)
                found = verdict.diagnostic(name, line, col, format_path(path))
                fits += [found] if found is not None else []
        if fmt == "text" and training:
            texts.append(render_training_text(tc.prepared(item.obj), created, job_gang, verdict))
        elif fmt == "text":
            texts.append(render_text(set_defaults(item.obj, version), created, job_gang, version, verdict))
    verdicts = []
    for trainjob in explained:  # the gang of a TrainJob: the replicated jobs of its JobSet
        verdict, found = trainjob_fit(trainjob, cluster)
        verdicts.append(verdict)
        fits += [found] if found is not None else []
    io.report(problems + fits)
    if problems:
        return EXIT_INVALID
    done = EXIT_INVALID if has_errors(fits) else EXIT_OK  # the objects are created all the same
    if fmt == "text":
        texts += [render_trainjob_text(item, verdict) for item, verdict in zip(explained, verdicts)]
        click.echo("\n".join(texts), nl=False)
        return done
    batch: list[str] = []
    size = 0
    streams = [for_yaml(operator_objects(item, None)[1]) for item in jobs] + \
        [trainjob_objects(item) for item in explained]
    for stream in streams:  # YAML: streamed, every object complete
        for chunk in iter_dump_all(stream, shared=True):
            batch.append(chunk)
            size += len(chunk)
            if size >= _CHUNK:
                click.echo("".join(batch), nl=False)
                batch.clear()
                size = 0
    click.echo("".join(batch), nl=False)
    return done


def _cause(job: dict[str, Any], exc: Exception) -> tuple:
    """The manifest field that makes the controller create nothing (or crash)."""
    message = str(exc)
    if "managedBy" in message:
        return ("spec", "runPolicy", "managedBy")
    if "rdzvConf" in message:
        return ("spec", "elasticPolicy", "rdzvConf")
    replicas = job["spec"].get("mpiReplicaSpecs") or {}
    if "PriorityClass" in message:  # v0.4 scheduler-plugins: the first pod priorityClassName looked up
        for role in ("Launcher", "Worker", *sorted(r for r in replicas if r not in ("Launcher", "Worker"))):
            template = (replicas.get(role) or {}).get("template") or {}
            if (template.get("spec") or {}).get("priorityClassName"):
                return ("spec", "mpiReplicaSpecs", role, "template", "spec", "priorityClassName")
    for role in replicas:
        if f"mpiReplicaSpecs.{role}.replicas" in message:
            return ("spec", "mpiReplicaSpecs", role, "replicas")
        if f"mpiReplicaSpecs.{role}" in message:
            return ("spec", "mpiReplicaSpecs", role)
    return ("spec",)


def for_yaml(objects: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """``objects`` ready for :func:`mpigen.emit.yaml_emit.iter_dump_all`: a lazy hostfile becomes
    :class:`~mpigen.emit.yaml_emit.Lines` (the same text, never held whole)."""
    for obj in objects:
        data = obj.get("data") if obj.get("kind") == "ConfigMap" else None
        if data and isinstance(data.get("hostfile"), ctl.Hostfile):
            obj = dict(obj, data=dict(data, hostfile=Lines(data["hostfile"])))
        if obj.get("kind") == "Pod" and obj["metadata"].get("labels", {}).get(tc.OPERATOR_NAME_LABEL) == \
                tc.CONTROLLER_NAMES["TFJob"] and any(isinstance(e.get("value"), tc.TFConfig)
                                            for c in obj["spec"]["containers"] for e in c.get("env") or []):
            containers = [dict(c, env=[dict(e, value=str(e["value"])) if isinstance(e.get("value"), tc.TFConfig)
                                       else e for e in c["env"]]) if c.get("env") else c
                          for c in obj["spec"]["containers"]]
            obj = dict(obj, spec=dict(obj["spec"], containers=containers))
        yield obj


def summarized(count: int, line: Any, indent: str = "  ") -> list[str]:
    """``count`` lines (``line(i)`` is the i-th) as text, in a size independent of ``count``: all
    of them when few, else the first ``TEXT_HEAD``, how many are left out, and the last."""
    if count <= TEXT_HEAD + 2:
        return [f"{indent}{line(i)}" for i in range(count)]
    return ([f"{indent}{line(i)}" for i in range(TEXT_HEAD)]
            + [f"{indent}... {count - TEXT_HEAD - 1} more lines, same pattern ...", f"{indent}{line(count - 1)}"])


def _env_text(container: dict[str, Any], injected_from: int) -> str:
    env = container.get("env") or []
    return " ".join(f"{e['name']}={e.get('value', '')}" for e in env[injected_from:])


def render_text(job: dict[str, Any], objects: list[dict[str, Any]], gang: str | None, version: OperatorVersion,
                verdict: Verdict | None = None) -> str:
    name = job["metadata"]["name"]
    namespace = job["metadata"].get("namespace") or "default"
    spec = job["spec"]
    workers = ((spec.get("mpiReplicaSpecs") or {}).get("Worker") or {}).get("replicas") or 0
    lines = [f"MPIJob {namespace}/{name} (mpi-operator {version}, gang scheduler: {gang or 'none'})", ""]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], []).append(obj)
    for group in by_kind.get("PodGroup", []):
        lines += _podgroup_lines(group, verdict)
    for config in by_kind.get("ConfigMap", []):
        hosts = config["data"]["hostfile"]
        if not isinstance(hosts, ctl.Hostfile):
            text = hosts.splitlines()
            count, line = len(text), text.__getitem__
        else:
            count, line = len(hosts), hosts.line
        lines.append(f"Hostfile ({ctl.CONFIG_MOUNT_PATH}/hostfile in ConfigMap {config['metadata']['name']}, "
                     f"{spec.get('mpiImplementation', 'OpenMPI')}): {count} line(s)")
        lines += summarized(count, line)
        lines.append("")
    for service in by_kind.get("Service", []):
        selector = ",".join(f"{k}={v}" for k, v in service["spec"]["selector"].items())
        ready = service["spec"].get("publishNotReadyAddresses")
        lines.append(f"Service {service['metadata']['name']} (headless; selects {selector}"
                     + ("" if ready is None else f"; publishNotReadyAddresses: {str(ready).lower()}") + ")")
    for secret in by_kind.get("Secret", []):
        lines.append(f"Secret {secret['metadata']['name']} ({secret['type']}; mounted at {spec['sshAuthMountPath']})")
    lines.append("")
    for launcher in by_kind.get("Job", []):
        template = launcher["spec"]["template"]
        lines.append(f"Launcher Job {launcher['metadata']['name']}"
                     + (" (suspended)" if launcher["spec"].get("suspend") else ""))
        lines += _pod_lines(template["metadata"], template["spec"], job, "Launcher")
    if not by_kind.get("Job"):
        lines.append("Launcher Job: not created yet (launcherCreationPolicy WaitForWorkersReady: it is created "
                     "once every worker is ready)")
    pods = by_kind.get("Pod", [])
    if pods:
        first = pods[0]
        lines.append(f"Worker Pods {name}-worker-0 .. {name}-worker-{workers - 1} ({workers})")
        lines += _pod_lines(first["metadata"], first["spec"], job, "Worker")
    elif workers:
        lines.append("Worker Pods: none created (the job is suspended)")
    return "\n".join(lines).rstrip() + "\n"


def _podgroup_lines(group: dict[str, Any], verdict: Verdict | None = None) -> list[str]:
    pg_spec = group["spec"]
    lines = [f"PodGroup {group['apiVersion']} {group['metadata']['name']}"]
    fields = [f"{k}: {v}" for k, v in pg_spec.items() if k != "minResources"]
    lines.append("  " + ("   ".join(fields) if fields else "(no fields set)"))
    if "minResources" in pg_spec:
        resources = " ".join(f"{k}={v}" for k, v in pg_spec["minResources"].items()) or "{}"
        lines.append(f"  minResources: {resources}")
    if verdict is not None:  # the cluster file's Nodes
        lines.append(f"  On {verdict.where} ({verdict.basis}): the gang {verdict.outcome}")
        lines += [f"    {reason}" for reason in verdict.reasons]
    return lines + [""]


def _pod_lines(meta: dict[str, Any], pod: dict[str, Any], job: dict[str, Any], role: str) -> list[str]:
    original = job["spec"]["mpiReplicaSpecs"][role].get("template") or {}
    own_env = len(((original.get("spec") or {}).get("containers") or [{}])[0].get("env") or [])
    out = [f"  schedulerName: {pod.get('schedulerName', 'default-scheduler (unset)')}   "
           f"priorityClassName: {pod.get('priorityClassName', '(none)')}   restartPolicy: {pod.get('restartPolicy')}"]
    group = (meta.get("annotations") or {}).get("scheduling.k8s.io/group-name")
    label = (meta.get("labels") or {}).get("scheduling.x-k8s.io/pod-group")
    if group:
        out.append(f"  PodGroup by annotation scheduling.k8s.io/group-name: {group}")
    if label:
        out.append(f"  PodGroup by label scheduling.x-k8s.io/pod-group: {label}")
    out.append(f"  hostname: {pod.get('hostname')}.{pod.get('subdomain')}")
    out.append(f"  env injected: {_env_text(pod['containers'][0], own_env)}")
    out.append("")
    return out


def _tf_config_text(config: tc.TFConfig) -> str:
    """TF_CONFIG in a size independent of the replica counts: each type's count, first and last host."""
    def hosts(rt: str, n: int) -> str:
        if n == 0:
            return f"{rt}: []"
        ends = config.cluster.host(rt, 0) + (f" .. {config.cluster.host(rt, n - 1)}" if n > 1 else "")
        return f"{rt}: {n} ({ends})"

    task = f"task: {{type: {config.rt}, index: {config.index}}}"
    if config.sparse:
        own = config.cluster.host(config.rt, config.index) if config.rt in ("ps", "worker") else ""
        return f"TF_CONFIG (sparse) = cluster: {{{own or 'no hosts'}}}; {task}"
    cluster = ", ".join(hosts(rt, n) for rt, n in sorted(config.cluster.counts.items()))
    return f"TF_CONFIG = cluster: {{{cluster}}}; {task}; environment: cloud"


def render_training_text(job: dict[str, Any], objects: list[dict[str, Any]], gang: str | None,
                         verdict: Verdict | None = None) -> str:
    """The text for a PyTorchJob or TFJob (``job`` as :func:`~mpigen.operator.training_controller.prepared`
    returns it; ``objects`` with one Pod and Service per replica type)."""
    name, namespace, kind = job["metadata"]["name"], job["metadata"]["namespace"], job["kind"]
    specs = job["spec"][td_key(job)]
    lines = [f"{kind} {namespace}/{name} ({tc.OPERATOR}, gang scheduler: {gang or 'none'})", ""]
    if job["spec"]["runPolicy"].get("suspend"):
        return "\n".join(lines + ["Suspended (runPolicy.suspend): the operator creates nothing until it is resumed"]) + "\n"
    for obj in objects:
        if obj["kind"] == "HorizontalPodAutoscaler":
            lines += [f"HorizontalPodAutoscaler {obj['metadata']['name']}: {obj['spec'].get('minReplicas')}.."
                      f"{obj['spec']['maxReplicas']} replicas on {len(obj['spec']['metrics'])} metric(s)", ""]
        elif obj["kind"] == "PodGroup":
            lines += _podgroup_lines(obj, verdict)
            if gang == "volcano":
                lines[-1:] = ["  Pods and Services are created once Volcano has admitted the PodGroup "
                              "(its phase is no longer Pending)", ""]
    for rtype in tc.replica_types(job):
        rt, count = rtype.lower(), specs[rtype].get("replicas", 1)
        mine = [o for o in objects if o["metadata"].get("labels", {}).get(tc.REPLICA_TYPE_LABEL) == rt]
        pod = next((o for o in mine if o["kind"] == "Pod"), None)
        service = next((o for o in mine if o["kind"] == "Service"), None)
        if pod is None or service is None:
            lines += [f"{rtype}: no Pods (replicas: {count})", ""]
            continue
        last = tc.gen_name(name, rt, count - 1)
        lines.append(f"{rtype}: {count} Pod(s) {pod['metadata']['name']}" + (f" .. {last}" if count > 1 else "")
                     + ", each with a headless Service of its name")
        lines += _training_pod_lines(job, rtype, pod, service, count)
    return "\n".join(lines).rstrip() + "\n"


def td_key(job: dict[str, Any]) -> str:
    return tc.td.FRAMEWORKS[job["kind"]]["key"]


def _training_pod_lines(job: dict[str, Any], rtype: str, pod: dict[str, Any], service: dict[str, Any],
                        count: int) -> list[str]:
    spec, meta = pod["spec"], pod["metadata"]
    out = [f"  schedulerName: {spec.get('schedulerName', 'default-scheduler (unset)')}   "
           f"priorityClassName: {spec.get('priorityClassName', '(none)')}   restartPolicy: {spec.get('restartPolicy')}"]
    role = meta["labels"].get(tc.JOB_ROLE_LABEL)
    if role:
        out.append(f"  {tc.JOB_ROLE_LABEL}: {role}" + (" (index 0 only)" if count > 1 else ""))
    group = (meta.get("annotations") or {}).get("scheduling.k8s.io/group-name")
    label = meta["labels"].get("scheduling.x-k8s.io/pod-group")
    if group:
        task = meta["annotations"].get("volcano.sh/task-spec")
        scheduler = "kube-batch " if spec.get("schedulerName") == "kube-batch" else ""
        out.append(f"  {scheduler}PodGroup by annotation scheduling.k8s.io/group-name: {group}"
                   + (f" (volcano.sh/task-spec: {task})" if task else ""))
    if label:
        out.append(f"  PodGroup by label scheduling.x-k8s.io/pod-group: {label}")
    ports = " ".join(f"{p.get('name', '')}={p['port']}" for p in service["spec"].get("ports", [])) or "none"
    out.append(f"  Service ports: {ports}; selects {tc.REPLICA_TYPE_LABEL}={rtype.lower()}, "
               f"{tc.REPLICA_INDEX_LABEL}=<index>")
    for init in spec.get("initContainers") or []:
        if init.get("name") == "init-pytorch":
            out.append(f"  init container init-pytorch ({init['image']}): waits until "
                       f"{tc.gen_name(job['metadata']['name'], 'Master', 0)} resolves "
                       f"({tc.INIT_CONTAINER_MAX_TRIES} tries, 2 s apart)")
    template = (job["spec"][td_key(job)][rtype].get("template") or {}).get("spec") or {}
    own = {c.get("name"): len(c.get("env") or []) for c in template.get("containers") or []}
    for container in spec["containers"]:
        injected = (container.get("env") or [])[own.get(container.get("name"), 0):]
        if not injected:
            continue
        text = " ".join(_tf_config_text(e["value"]) if isinstance(e.get("value"), tc.TFConfig)
                        else f"{e['name']}={e.get('value', '')}" for e in injected)
        out.append(f"  env injected ({container.get('name')}): {text}")
    if job["kind"] == "PyTorchJob" and "Master" in job["spec"]["pytorchReplicaSpecs"] and count > 1:
        out.append("  RANK and PET_NODE_RANK: the pod's index" + (" + 1" if rtype == "Worker" else ""))
    elif job["kind"] == "TFJob" and count > 1 and any(
            isinstance(e.get("value"), tc.TFConfig) for c in spec["containers"] for e in c.get("env") or []):
        out.append("  TF_CONFIG task.index: the pod's index")
    return out + [""]


# ------------------------------------------------------------------ TrainJob (Kubeflow Trainer v2.3.0)


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def trainjob_objects(item: Explained) -> Iterator[dict[str, Any]]:
    """What Trainer applies for a new TrainJob, in its order: the runtime snapshot (its YAML with
    the keys sorted, as Go writes it), then the PodGroup, the SSH Secret, the hostfile ConfigMap
    (as :class:`~mpigen.emit.yaml_emit.Lines`) and the JobSet."""
    snapshot = item.built.snapshot
    runtime = snapshot["data"]["runtime"]
    yield dict(snapshot, data={"runtime": dump(_sorted_keys(runtime))})
    for obj in item.built.objects:
        data = obj.get("data") if obj["kind"] == "ConfigMap" else None
        if data and isinstance(data.get("hostfile"), trainer_mpi.Hostfile):
            obj = dict(obj, data=dict(data, hostfile=Lines(data["hostfile"])))
        yield obj


def _value_text(env: dict[str, Any]) -> str:
    source = env.get("valueFrom")
    if not isinstance(source, dict):
        return str(env.get("value", ""))
    field_path = (source.get("fieldRef") or {}).get("fieldPath", "")
    if "job-completion-index" in field_path:
        return "<job completion index>"
    if field_path:
        return f"<{field_path}>"
    key = next(iter(source), "valueFrom")
    return f"<{key}>"


def _endpoint_text(endpoints: Endpoints | None) -> str:
    if endpoints is None or not len(endpoints):
        return "no pods"
    count = len(endpoints)
    last = endpoints.line(count - 1)
    return endpoints.line(0) + (f" .. {last}" if count > 1 else "")


def render_trainjob_text(item: Explained, verdict: Verdict | None = None) -> str:
    """The text for a TrainJob: one block per object, one per replicated job, the same size for
    any number of nodes; the gang's verdict on the cluster file's Nodes under the PodGroup."""
    built = item.built
    job, runtime, info = built.trainjob, built.runtime, built.info
    name, namespace = job["metadata"]["name"], job["metadata"]["namespace"]
    policy = next((p for p in ("torch", "mpi", "jax", "xgboost") if info.policy(p) is not None), "no mlPolicy")
    gang = next(iter(info.pod_group_policy or {}), None) if info.pod_group_policy else None
    lines = [f"TrainJob {namespace}/{name} (Trainer v2.3.0; {runtime['kind']} {runtime['metadata']['name']}: "
             f"{policy}; podGroupPolicy: {gang or 'none'})", ""]
    if job["spec"].get("suspend"):
        lines += ["Suspended (spec.suspend): the JobSet is created suspended; Kueue or a user resumes it", ""]
    for group in [o for o in built.objects if o["kind"] == "PodGroup"]:
        lines += _podgroup_lines(group, verdict)[:-1]
        uncounted = _limit_only_gpus(info)
        if uncounted:
            lines.append(f"  not counted: {', '.join(uncounted)} (set as a limit only; minResources sums requests)")
        lines.append("")
    for config in [o for o in built.objects if o["kind"] == "ConfigMap"]:
        hosts = config["data"]["hostfile"]
        lines.append(f"Hostfile ({trainer_mpi.HOSTFILE_DIR}/{trainer_mpi.HOSTFILE_NAME} in ConfigMap "
                     f"{config['metadata']['name']}, {info.policy('mpi').get('mpiImplementation')}): "
                     f"{len(hosts)} line(s)")
        lines += summarized(len(hosts), hosts.line)
        lines.append("")
    for secret in [o for o in built.objects if o["kind"] == "Secret"]:
        lines.append(f"Secret {secret['metadata']['name']} ({secret['type']}, immutable; mounted at "
                     f"{info.policy('mpi').get('sshAuthMountPath')} in the node and launcher containers)")
    lines.append(f"ConfigMap {built.snapshot['metadata']['name']} (the runtime snapshot: later reconciles of this "
                 "job use the runtime as it is now)")
    lines.append("")
    jobset = next(o for o in built.objects if o["kind"] == "JobSet")
    spec = jobset["spec"]
    subdomain = (spec.get("network") or {}).get("subdomain") or name
    lines.append(f"JobSet {jobset['metadata']['name']} ({jobset['apiVersion']}; suspend: "
                 f"{str(spec.get('suspend', False)).lower()}; pods' subdomain: {subdomain})")
    if info.num_proc_per_node is not None:
        lines.append(f"  numProcPerNode: {info.num_proc_per_node} ({info.num_proc_reason})")
    template_env = _runtime_env(runtime)
    for rjob, ps in zip(spec.get("replicatedJobs") or [], info.pod_sets):
        labels = (rjob["template"].get("metadata") or {}).get("labels") or {}
        role = labels.get(ANCESTOR_LABEL)
        lines.append(f"  Replicated job {rjob['name']}" + (f" ({role})" if role else "")
                     + f": {len(ps.endpoints or [])} pod(s) {_endpoint_text(ps.endpoints)}")
        pod_template = rjob["template"]["spec"]["template"]
        pod, meta = pod_template.get("spec") or {}, pod_template.get("metadata") or {}
        lines.append(f"    schedulerName: {pod.get('schedulerName', 'default-scheduler (unset)')}   "
                     f"priorityClassName: {pod.get('priorityClassName', '(none)')}")
        group = (meta.get("annotations") or {}).get("scheduling.k8s.io/group-name")
        label = (meta.get("labels") or {}).get("scheduling.x-k8s.io/pod-group")
        if group:
            lines.append(f"    PodGroup by annotation scheduling.k8s.io/group-name: {group}")
        if label:
            lines.append(f"    PodGroup by label scheduling.x-k8s.io/pod-group: {label}")
        for container in pod.get("containers") or []:
            resources = container.get("resources") or {}
            parts = [f"{part} " + " ".join(f"{k}={v}" for k, v in resources[part].items())
                     for part in ("requests", "limits") if resources.get(part)]
            lines.append(f"    container {container['name']} ({container.get('image', 'no image')})"
                         + (": " + "; ".join(parts) if parts else ""))
            own = template_env.get((rjob["name"], container["name"]), [])
            added = [e for e in container.get("env") or [] if e not in own]
            if added:
                lines.append("      env set: " + " ".join(f"{e['name']}={_value_text(e)}" for e in added))
            mounts = [m for m in container.get("volumeMounts") or [] if m.get("name", "").startswith("mpi-")]
            if mounts:
                lines.append("      mounts: " + ", ".join(f"{m['name']} at {m['mountPath']}" for m in mounts))
            if container.get("command"):
                lines.append("      command: " + " ".join(container["command"] + container.get("args", [])))
    return "\n".join(lines).rstrip() + "\n"


def _runtime_env(runtime: dict[str, Any]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(replicated job, container) -> the env the runtime's template gives that container."""
    out = {}
    for rjob in ((runtime["spec"].get("template") or {}).get("spec") or {}).get("replicatedJobs") or []:
        pod = ((((rjob.get("template") or {}).get("spec") or {}).get("template") or {}).get("spec") or {})
        for container in pod.get("containers") or []:
            out[(rjob.get("name"), container.get("name"))] = list(container.get("env") or [])
    return out


def _limit_only_gpus(info: Any) -> list[str]:
    """GPU resources a container of the JobSet sets as a limit and does not request."""
    out = []
    for rjob in info.jobset_spec.get("replicatedJobs") or []:
        for container in rjob["template"]["spec"]["template"]["spec"].get("containers") or []:
            out += [name for name in limit_only(container.get("resources")) if "gpu" in name.lower() and name not in out]
    return out
