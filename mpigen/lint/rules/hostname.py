"""A pod's hostname, built from the job name, is not a valid DNS-1035 label.

Every replica's pod is named, and reached, by a name derived from the job's: mpi-operator v0.8.2
gives workers the hostname ``<name>-worker-<i>`` and the launcher ``<name>-launcher``
(``workerName`` and ``newLauncherPodTemplate`` in ``pkg/controller/mpi_job_controller.go``) and
rejects a job whose last worker name ``<name>-worker-<replicas-1>`` is not a DNS-1035 label
(``validateMPIJobName`` in ``pkg/apis/kubeflow/validation/validation.go``); training-operator
v1.9.4 names each pod and its Service ``<name>-<replica type, lowercased>-<i>``
(``GenGeneralName`` in ``pkg/controller.v1/common/util.go``, used by ``common/pod.go`` and
``common/service.go``), and a Service name must be a DNS-1035 label. A DNS-1035 label has at most
63 characters, lower-case letters, digits and ``-``, starts with a letter and ends with a letter
or digit; a long job name with many replicas, or a name starting with a digit, breaks it. A name
that is not even a DNS-1123 subdomain (upper-case letters, ``_``) is refused by the API server
before any operator sees the job: ``object-meta`` reports it.

Fix: shorten the job name (or rename it to start with a letter and use only lower-case letters,
digits and ``-``) so that its longest pod name stays within 63 characters.
"""

from __future__ import annotations

import re
from typing import Iterator

from ...diagnostics import Severity
from ...names import job_name_problem
from ..base import Context, Path
from ...operator.k8s_validation import name_is_dns_subdomain
from ._common import ALL_KINDS, current_api, replicas

CODE = "hostname"
SEVERITY = Severity.ERROR
KINDS = ALL_KINDS

DNS1035 = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")


def hostnames(ctx: Context) -> Iterator[str]:
    """The longest pod name of every replica type."""
    _, specs = ctx.replica_specs
    if ctx.kind == "MPIJob":
        count = replicas(specs.get("Worker"), 1) or 1  # validateMPIJobName: unset or <= 0 counts 1
        yield f"{ctx.name}-worker-{max(count, 1) - 1}"
        if "Launcher" in specs:
            yield f"{ctx.name}-launcher"
        return
    for role, spec in specs.items():
        count = replicas(spec, 1)  # training-operator defaults replicas to 1
        if count is not None and count > 0:
            yield f"{ctx.name}-{role.lower()}-{count - 1}"


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not ctx.name or not current_api(ctx) or name_is_dns_subdomain(ctx.name):
        return  # no name, or one the API server refuses already (object-meta)
    names = list(hostnames(ctx))
    too_long = [f"{h!r} ({len(h)} characters)" for h in names if len(h) > 63]
    if not DNS1035.fullmatch(names[0] if names else "a"):
        reason = job_name_problem(ctx.name) or "is not lower-case letters, digits and '-'"
        yield (("metadata", "name"),
               f"the job name {ctx.name!r} {reason}: it gives pods hostnames such as {names[0]!r}, which must be "
               "DNS-1035 labels (lower-case letters, digits and '-', starting with a letter): the pods and their "
               "Services cannot be created; rename the job")
    elif too_long:
        yield (("metadata", "name"),
               f"the job name {ctx.name!r} gives pods hostnames longer than 63 characters: {', '.join(too_long)}; "
               f"the pods and their Services cannot be created; shorten the name to at most "
               f"{len(ctx.name) - (max(map(len, names)) - 63)} characters")
