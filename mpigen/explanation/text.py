"""``mpigen explain``'s text for people: what mpi-operator creates for an MPIJob, and what the
training-operator creates for a PyTorchJob or TFJob, in a size independent of the worker count
(one worker Pod stands for all; a long hostfile shows its first and last lines).

Pure: objects (as :mod:`mpigen.operator`'s ports of the controllers create them) in, text out.
"""

from __future__ import annotations

from typing import Any

from ..operator import mpi_controller as ctl
from ..operator import training_controller as tc
from ..scheduler.admission.verdict import Admission
from ..scheduler.fit import Verdict
from ..versions import OperatorVersion

TEXT_HEAD = 4  # lines shown first when a long listing is summarized


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
                verdict: Verdict | None = None, admission: Admission | None = None) -> str:
    name = job["metadata"]["name"]
    namespace = job["metadata"].get("namespace") or "default"
    spec = job["spec"]
    workers = ((spec.get("mpiReplicaSpecs") or {}).get("Worker") or {}).get("replicas") or 0
    lines = [f"MPIJob {namespace}/{name} (mpi-operator {version}, gang scheduler: {gang or 'none'})", ""]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], []).append(obj)
    for group in by_kind.get("PodGroup", []):
        lines += podgroup_lines(group, verdict, admission)
    lines += workload_lines(objects, admission)
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
        notes = ["suspended"] if launcher["spec"].get("suspend") else []
        if launcher["spec"].get("podReplacementPolicy"):  # mpi-operator v0.8.1 and later
            notes.append(f"podReplacementPolicy {launcher['spec']['podReplacementPolicy']}: a launcher pod is "
                         "replaced only once it has failed, never while it terminates")
        lines.append(f"Launcher Job {launcher['metadata']['name']}" + (f" ({'; '.join(notes)})" if notes else ""))
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


def podgroup_lines(group: dict[str, Any], verdict: Verdict | None = None,
                   admission: Admission | None = None) -> list[str]:
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
    if admission is not None:  # the cluster's queues
        lines += admission_lines(admission)
    return lines + [""]


def admission_lines(admission: Admission, indent: str = "  ") -> list[str]:
    """The admission verdict: ``Queue research (...): admits the gang`` and its reasons."""
    kind = admission.kind[:1].upper() + admission.kind[1:]
    return [f"{indent}{kind} {admission.queue} ({admission.basis}): {admission.outcome} {admission.subject}",
            *(f"{indent}  {reason}" for reason in admission.reasons)]


def workload_lines(objects: list[dict[str, Any]], admission: Admission | None) -> list[str]:
    """For a job no PodGroup gangs (Kueue admits it whole), the admission verdict on its own."""
    if admission is None or any(o.get("kind") == "PodGroup" for o in objects):
        return []
    return [f"{admission.scheduler}:", *admission_lines(admission), ""]


def _pod_lines(meta: dict[str, Any], pod: dict[str, Any], job: dict[str, Any], role: str) -> list[str]:
    original = job["spec"]["mpiReplicaSpecs"][role].get("template") or {}
    own_env = len(((original.get("spec") or {}).get("containers") or [{}])[0].get("env") or [])
    out = [f"  schedulerName: {pod.get('schedulerName', 'default-scheduler (unset)')}   "
           f"priorityClassName: {pod.get('priorityClassName', '(none)')}   restartPolicy: {pod.get('restartPolicy')}"]
    out += pod_group_lines(meta, "  ")
    out.append(f"  hostname: {pod.get('hostname')}.{pod.get('subdomain')}")
    out.append(f"  env injected: {_env_text(pod['containers'][0], own_env)}")
    out.append("")
    return out


def pod_group_lines(meta: dict[str, Any], indent: str) -> list[str]:
    """How a pod names its PodGroup: Volcano's annotation, scheduler-plugins' label."""
    group = (meta.get("annotations") or {}).get("scheduling.k8s.io/group-name")
    label = (meta.get("labels") or {}).get("scheduling.x-k8s.io/pod-group")
    return ([f"{indent}PodGroup by annotation scheduling.k8s.io/group-name: {group}"] * bool(group)
            + [f"{indent}PodGroup by label scheduling.x-k8s.io/pod-group: {label}"] * bool(label))


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
                         verdict: Verdict | None = None, admission: Admission | None = None) -> str:
    """The text for a PyTorchJob or TFJob (``job`` as :func:`~mpigen.operator.training_controller.prepared`
    returns it; ``objects`` with one Pod and Service per replica type)."""
    name, namespace, kind = job["metadata"]["name"], job["metadata"]["namespace"], job["kind"]
    specs = job["spec"][td_key(job)]
    lines = [f"{kind} {namespace}/{name} ({tc.OPERATOR}, gang scheduler: {gang or 'none'})", ""]
    lines += workload_lines(objects, admission)
    if job["spec"]["runPolicy"].get("suspend"):
        return "\n".join(lines + ["Suspended (runPolicy.suspend): the operator creates nothing until it is resumed"]) + "\n"
    for obj in objects:
        if obj["kind"] == "HorizontalPodAutoscaler":
            lines += [f"HorizontalPodAutoscaler {obj['metadata']['name']}: {obj['spec'].get('minReplicas')}.."
                      f"{obj['spec']['maxReplicas']} replicas on {len(obj['spec']['metrics'])} metric(s)", ""]
        elif obj["kind"] == "PodGroup":
            lines += podgroup_lines(obj, verdict, admission)
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
