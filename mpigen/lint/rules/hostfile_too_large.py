"""The hostfile ConfigMap the operator writes for so many workers is over the API server's 1 MiB limit.

mpi-operator v0.8.2 writes the hostfile into the ConfigMap ``<job>-config`` before it creates
any pod (``getOrCreateConfigMap`` and ``newConfigMap`` in ``pkg/controller/mpi_job_controller.go``):
one line per worker, ``<job>-worker-<i>.<job>.<namespace>.svc slots=<n>`` for OpenMPI,
``<host>:<n>`` for Intel MPI and MPICH, the launcher's first when it runs as a worker; beside it
``discover_hosts.sh``, ``#!/bin/sh`` and an ``echo <host>`` line for the launcher as a worker and,
rewritten at every sync (``updateDiscoverHostsInConfigMap``), for every running worker. The API
server refuses a ConfigMap whose values add up to more than 1 MiB, 1,048,576 bytes
(``ValidateConfigMap``, ``core.MaxSecretSize``, k8s.io/kubernetes v1.35.1): about 16,000 workers
with a job name of a dozen characters. When the ConfigMap cannot be created, the operator returns
the error at every sync before it creates a pod: the job never starts. When it can be created but
not rewritten once the workers run, every sync fails there, before the job's status is updated:
the job runs without the operator following it (its completion, cleanup and TTL). The size is
computed as the operator writes the text (the namespace ``default`` when the manifest names none,
the operator's ``--cluster-domain`` unset), from the digit counts of the indices, in constant time.

Fix: fewer, larger workers (more ``slotsPerWorker`` per pod), or a shorter job name and namespace;
the message says how many workers fit.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...diagnostics import Severity
from ...operator.mpi_controller import CONFIG_MAP_MAX_BYTES, config_map_bytes
from ..base import Context, Path
from ._common import current_api, is_int, mpi_role

CODE = "hostfile-too-large"
SEVERITY = Severity.ERROR
KINDS = ("MPIJob",)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    worker = mpi_role(ctx, "Worker")
    name, namespace = ctx.get("metadata", "name"), ctx.get("metadata", "namespace", default="default")
    spec = ctx.get("spec", default={})
    if not current_api(ctx) or worker is None or not isinstance(name, str) or not isinstance(namespace, str):
        return
    workers = worker[1].get("replicas", 0)
    slots, as_worker = spec.get("slotsPerWorker", 1), spec.get("runLauncherAsWorker", False)
    implementation = spec.get("mpiImplementation", "OpenMPI")
    if not is_int(workers) or not is_int(slots) or not isinstance(as_worker, bool) or \
            not isinstance(implementation, str):
        return
    legacy = ctx.options.operator_version.legacy

    def job(count: int) -> dict[str, Any]:  # what config_map_bytes reads, defaulted as the operator does
        return {"metadata": {"name": name, "namespace": namespace or "default"},
                "spec": {"slotsPerWorker": slots, "mpiImplementation": implementation,
                         "runLauncherAsWorker": as_worker, "mpiReplicaSpecs": {"Worker": {"replicas": count}}}}

    created, running = config_map_bytes(job(workers), legacy=legacy)
    if running <= CONFIG_MAP_MAX_BYTES:
        return
    fit = _most_workers(job, legacy)
    what = (f"the ConfigMap {name}-config, which mpi-operator writes for {workers} workers (the hostfile, one line "
            "each, and discover_hosts.sh)")
    if created > CONFIG_MAP_MAX_BYTES:
        yield (worker[0] + ("replicas",),
               f"{what}, holds {created} bytes, over the API server's limit of {CONFIG_MAP_MAX_BYTES} (1 MiB): the "
               f"operator cannot create it and the job never starts; at most {fit} workers fit")
    else:
        yield (worker[0] + ("replicas",),
               f"{what}, grows to {running} bytes once every worker runs (discover_hosts.sh lists them), over the "
               f"API server's limit of {CONFIG_MAP_MAX_BYTES} (1 MiB): the operator then fails at every sync and "
               f"no longer follows the job (status, cleanup); at most {fit} workers fit")


def _most_workers(job: Any, legacy: bool) -> int:
    """The most workers whose ConfigMap stays within the limit once they all run (a binary search
    on :func:`config_map_bytes`, which grows with the count)."""
    low, high = 0, CONFIG_MAP_MAX_BYTES  # every worker adds bytes: high never fits
    while high - low > 1:
        middle = (low + high) // 2
        if config_map_bytes(job(middle), legacy=legacy)[1] <= CONFIG_MAP_MAX_BYTES:
            low = middle
        else:
            high = middle
    return low
