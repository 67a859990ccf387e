"""``mpigen explain``'s text for a Kubeflow Trainer v2.3.0 TrainJob: one block per object Trainer
creates, one per replicated job of its JobSet, the same size for any number of nodes.

Pure: a TrainJob explained by :mod:`mpigen.trainer` in, text out.
"""

from __future__ import annotations

from typing import Any

from ..lint.base import GANG_VOLCANO
from ..lint.rules._trainer import limit_only
from ..scheduler.admission.verdict import Admission
from ..scheduler.fit import Verdict
from ..trainer import mpi as trainer_mpi
from ..trainer.documents import Explained
from ..trainer.info import ANCESTOR_LABEL, Endpoints, pod_spec_of
from ..trainer.podgroup import VOLCANO_API_VERSION
from .text import pod_group_lines, podgroup_lines, summarized, workload_lines


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


def render_trainjob_text(item: Explained, verdict: Verdict | None = None, admission: Admission | None = None) -> str:
    """The text for a TrainJob: one block per object, one per replicated job, the same size for
    any number of nodes; the gang's verdicts on the cluster file's Nodes and queues under the PodGroup."""
    built = item.built
    job, runtime, info = built.trainjob, built.runtime, built.info
    name, namespace = job["metadata"]["name"], job["metadata"]["namespace"]
    policy = next((p for p in ("torch", "mpi", "jax", "xgboost") if info.policy(p) is not None), "no mlPolicy")
    gang = next(iter(info.pod_group_policy or {}), None) if info.pod_group_policy else None
    lines = [f"TrainJob {namespace}/{name} (Trainer v2.3.0; {runtime['kind']} {runtime['metadata']['name']}: "
             f"{policy}; podGroupPolicy: {gang or 'none'})", ""]
    if job["spec"].get("suspend"):
        lines += ["Suspended (spec.suspend): the JobSet is created suspended; Kueue or a user resumes it", ""]
    lines += workload_lines(built.objects, admission)
    for group in [o for o in built.objects if o["kind"] == "PodGroup"]:
        lines += podgroup_lines(group, verdict, admission)[:-1]
        uncounted = _limit_only_gpus(info)
        if uncounted:
            lines.append(f"  not counted: {', '.join(uncounted)} (set as a limit only; minResources sums requests)")
        if group["apiVersion"] == VOLCANO_API_VERSION:
            lines += _off_volcano(info)
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
        lines += pod_group_lines(meta, "    ")
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


def _off_volcano(info: Any) -> list[str]:
    """The replicated jobs of a Volcano gang whose pods do not name the scheduler volcano (Trainer
    annotates them with the PodGroup and sets no scheduler: see ``trainer-volcano-scheduler-name``)."""
    off = [(rjob["name"], pod_spec_of(rjob).get("schedulerName")) for rjob in info.jobset_spec.get("replicatedJobs") or []
           if pod_spec_of(rjob).get("schedulerName") != GANG_VOLCANO]
    if not off:
        return []
    named = ", ".join(f"{name} (schedulerName {scheduler or 'unset'})" for name, scheduler in off)
    return [f"  not gang-scheduled: the pods of {named} go to another scheduler than volcano, which binds them one "
            "by one; Trainer sets no schedulerName: write schedulerName: volcano in the runtime's pod templates"]


def _limit_only_gpus(info: Any) -> list[str]:
    """GPU resources a container of the JobSet sets as a limit and does not request."""
    out = []
    for rjob in info.jobset_spec.get("replicatedJobs") or []:
        for container in rjob["template"]["spec"]["template"]["spec"].get("containers") or []:
            out += [name for name in limit_only(container.get("resources")) if "gpu" in name.lower() and name not in out]
    return out
