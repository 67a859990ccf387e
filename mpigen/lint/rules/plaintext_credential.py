"""A credential is written in plain text in a container's environment.

An env var whose name says it holds a secret (``PASSWORD``, ``PASSWD``, ``SECRET``, ``TOKEN``,
``API_KEY``, ``ACCESS_KEY``, ``PRIVATE_KEY``, ``CREDENTIAL(S)`` as a ``_``-separated part of the
name, e.g. ``GIT_SYNC_PASSWORD``, ``HF_TOKEN``, ``WANDB_API_KEY``) with a literal ``value`` is
stored in the job object, in every pod spec made from it and in the manifests' repository:
anyone who can read any of them has the credential. Names that point at a credential rather than
hold it (``*_FILE``, ``*_PATH``, ``*_DIR``, ``*_NAME``, ``*_ID``, ``*_URL``...), values that are a
file's absolute path (``GOOGLE_APPLICATION_CREDENTIALS: /etc/secrets/user-gcp-sa.json`` names a
mounted key file) and empty values are not reported, nor are values made only of ``$(VAR)``
references. Every container and init container of every pod template is checked.

Fix: put the value in a Secret and read it with ``valueFrom.secretKeyRef`` (or mount the Secret
and point a ``*_FILE`` variable at it).
"""

from __future__ import annotations

from typing import Iterator

from ...credentials import looks_like_credential
from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ALL_KINDS, current_api, pod_spec

CODE = "plaintext-credential"
SEVERITY = Severity.ERROR
KINDS = ALL_KINDS

def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx):
        return
    for role, path, template in ctx.pod_templates():
        for field in ("initContainers", "containers"):
            containers = pod_spec(template).get(field)
            for i, container in enumerate(containers if isinstance(containers, list) else []):
                env = container.get("env") if isinstance(container, dict) else None
                for j, var in enumerate(env if isinstance(env, list) else []):
                    name, value = (var.get("name"), var.get("value")) if isinstance(var, dict) else (None, None)
                    if isinstance(name, str) and looks_like_credential(name, value):
                        who = container.get("name") or f"{field}[{i}]"
                        yield (path + ("spec", field, i, "env", j, "value"),
                               f"env {name} of the {role}'s container {who!r} holds a literal value: the credential is "
                               "readable by anyone who can read the job or its pods; move it to a Secret and use "
                               "valueFrom.secretKeyRef")
