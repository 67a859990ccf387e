"""A non-root launcher or worker gets its SSH keys under /root.

mpi-operator mounts the job's SSH key Secret at ``sshAuthMountPath`` (default ``/root/.ssh``) in
containers[0] of the launcher and of every worker, with file mode 0600 (owner root) when the path
is ``/root/.ssh`` (``setupSSHOnPod`` in mpi-operator v0.8.2 ``pkg/controller/mpi_job_controller.go``;
the default in ``pkg/apis/kubeflow/v2beta1/default.go``). A process running as another user cannot
read keys there, and ssh and sshd look in that user's own home anyway, so mpirun cannot log in to
the workers. The user is containers[0]'s ``securityContext.runAsUser``, else the pod's; a
``runAsNonRoot: true`` without a user means the image's non-root user. The operator's non-root
examples (``examples/v2beta1/pi``) use ``sshAuthMountPath: /home/mpiuser/.ssh``.

Fix: set ``sshAuthMountPath`` to the ``.ssh`` folder in the user's home (e.g.
``/home/mpiuser/.ssh``), or run the launcher and workers as root.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ROOT_SSH_PATH, current_api, first_container, is_int, mapping, mpi_role, pod_spec

CODE = "ssh-path-non-root"
SEVERITY = Severity.ERROR
KINDS = ("MPIJob",)


def non_root(template: dict) -> tuple[Path, str] | None:
    """(path within the template, who) when containers[0] runs as a non-root user."""
    contexts = [(("spec", "containers", 0, "securityContext"),
                 mapping(mapping(first_container(template)).get("securityContext"))),
                (("spec", "securityContext"), mapping(pod_spec(template).get("securityContext")))]
    for path, context in contexts:  # the container's setting wins over the pod's
        if is_int(context.get("runAsUser")):
            user = context["runAsUser"]
            if not 0 <= user <= 2147483647:
                return None  # no such user: pod-security reports the pods refused
            return (path + ("runAsUser",), f"user {user}") if user != 0 else None
    for path, context in contexts:
        if isinstance(context.get("runAsNonRoot"), bool):
            return (path + ("runAsNonRoot",), "the image's non-root user") if context["runAsNonRoot"] else None
    return None


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    mount = ctx.get("spec", "sshAuthMountPath") or ROOT_SSH_PATH
    if not current_api(ctx) or not isinstance(mount, str) or not (mount == "/root" or mount.startswith("/root/")):
        return
    for role in ("Launcher", "Worker"):
        found = mpi_role(ctx, role)
        user = non_root(mapping(found[1].get("template"))) if found else None
        if user:
            yield (found[0] + ("template",) + user[0],
                   f"the {role} runs as {user[1]} but the SSH keys are mounted at {mount} (sshAuthMountPath), "
                   "readable by root only: mpirun cannot log in to the workers; set sshAuthMountPath to the "
                   "user's ~/.ssh (e.g. /home/mpiuser/.ssh) or run as root")
