"""``mpigen explain``: what the operator will create for a job, before anything is applied.

Built from mpigen's own port of the controller (:mod:`mpigen.operator.mpi_controller`), never
from a cluster: the PodGroup, the hostfile, the Service, the SSH Secret, the launcher Job and the
worker Pods with their scheduling fields, and the environment the operator injects.
"""

from __future__ import annotations

from typing import Any

from .operator import mpi_controller as ctl

TEXT_HOSTS = 12  # hostfile lines shown in text before "... N more"


def explain_job(job: dict[str, Any], gang: str | None, scheduler_name: str, priority_classes: dict[str, int] | None,
                version: str, cluster_domain: str = "", max_workers: int | None = None) -> list[dict[str, Any]]:
    """Every object the controller creates for ``job`` (see ``created_objects``)."""
    return list(ctl.created_objects(job, gang, scheduler_name=scheduler_name, priority_classes=priority_classes,
                                    version=version, cluster_domain=cluster_domain, max_workers=max_workers))


def _env_text(container: dict[str, Any], injected_from: int) -> str:
    env = container.get("env") or []
    return " ".join(f"{e['name']}={e.get('value', '')}" for e in env[injected_from:])


def render_text(job: dict[str, Any], objects: list[dict[str, Any]], gang: str | None, version: str) -> str:
    name = job["metadata"]["name"]
    namespace = job["metadata"].get("namespace") or "default"
    spec = job["spec"]
    workers = ((spec.get("mpiReplicaSpecs") or {}).get("Worker") or {}).get("replicas") or 0
    lines = [f"MPIJob {namespace}/{name} (mpi-operator {version}, gang scheduler: {gang or 'none'})", ""]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], []).append(obj)
    for group in by_kind.get("PodGroup", []):
        pg_spec = group["spec"]
        lines.append(f"PodGroup {group['apiVersion']} {group['metadata']['name']}")
        fields = [f"{k}: {v}" for k, v in pg_spec.items() if k != "minResources"]
        lines.append("  " + ("   ".join(fields) if fields else "(no fields set)"))
        if "minResources" in pg_spec:
            resources = " ".join(f"{k}={v}" for k, v in pg_spec["minResources"].items()) or "{}"
            lines.append(f"  minResources: {resources}")
        lines.append("")
    for config in by_kind.get("ConfigMap", []):
        hosts = config["data"]["hostfile"].splitlines()
        lines.append(f"Hostfile ({ctl.CONFIG_MOUNT_PATH}/hostfile in ConfigMap {config['metadata']['name']}, "
                     f"{spec.get('mpiImplementation', 'OpenMPI')}): {len(hosts)} line(s)")
        lines += [f"  {h}" for h in hosts[:TEXT_HOSTS]]
        if len(hosts) > TEXT_HOSTS:
            lines.append(f"  ... {len(hosts) - TEXT_HOSTS} more")
        lines.append("")
    for service in by_kind.get("Service", []):
        selector = ",".join(f"{k}={v}" for k, v in service["spec"]["selector"].items())
        lines.append(f"Service {service['metadata']['name']} (headless; selects {selector}; "
                     f"publishNotReadyAddresses: {str(service['spec']['publishNotReadyAddresses']).lower()})")
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
