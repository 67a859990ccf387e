"""The kubeconfig, read as kubectl reads it, into the client library's configuration.

Which files: ``--kubeconfig PATH`` (that one file, which must exist), else ``$KUBECONFIG`` (a
list of paths joined by ``:``; the files that do not exist are skipped), else
``~/.kube/config``. The files are merged as kubectl merges them: the first file to define a
cluster, user or context by a name wins, and so does the first to set ``current-context``.
``--kube-context`` picks another context than the current one.

The official Kubernetes client (:mod:`kubernetes.config`) does the rest as client-go does: the
cluster's server, CA and TLS settings, and the user's credentials (client certificates, tokens and
token files, exec credential plugins, basic auth), each relative path taken from the folder of the
file that names it. It is imported here, and only when a live cluster is read. It is not a
dependency of every install: the ``kube`` extra brings it (``pip install 'mpigen[kube]'``), and
without it a live option is a usage error that says so.
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

import yaml

DEFAULT = os.path.join("~", ".kube", "config")
MISSING_CLIENT = ("reading a live cluster (--kube-context, --kubeconfig, mpigen diagnose) needs the Kubernetes "
                  "client, which mpigen's kube extra installs: pip install 'mpigen[kube]' (or, in a checkout, "
                  "pip install '.[kube]')")


class KubeError(Exception):
    """The live cluster cannot be read at all (exit 2): no kubeconfig, a context it lacks, credentials
    that cannot be had, a server that cannot be reached or refuses the credentials."""


def kubeconfig_paths(option: str | None, environ: Mapping[str, str]) -> list[str]:
    """The kubeconfig files to merge, in kubectl's order of precedence (only those that exist)."""
    if option is not None:
        path = os.path.expanduser(option)
        if not os.path.isfile(path):
            raise KubeError(f"--kubeconfig {option}: no such file")
        return [path]
    listed = environ.get("KUBECONFIG")
    if listed:
        candidates = [os.path.expanduser(p) for p in listed.split(os.pathsep) if p]
    else:
        candidates = [os.path.join(environ.get("HOME") or os.path.expanduser("~"), ".kube", "config")]
    found = [p for p in dict.fromkeys(candidates) if os.path.isfile(p)]
    if not found:
        where = f"$KUBECONFIG ({listed})" if listed else DEFAULT
        raise KubeError(f"no kubeconfig: {where} names no file that exists; give one with --kubeconfig PATH")
    return found


def _load(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as exc:
        raise KubeError(f"kubeconfig {path}: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KubeError(f"kubeconfig {path}: not a kubeconfig (a mapping of clusters, users and contexts)")
    return data


def chosen_context(paths: list[str], option: str | None) -> str:
    """``--kube-context``, else the first ``current-context`` the files set (kubectl's merge); the
    context must be defined in one of them."""
    configs = [_load(path) for path in paths]
    names = [c["name"] for config in configs for c in (config.get("contexts") or [])
             if isinstance(c, dict) and isinstance(c.get("name"), str)]
    context = option
    if context is None:
        context = next((c["current-context"] for c in configs if c.get("current-context")), None)
        if context is None:
            raise KubeError(f"{', '.join(paths)} sets no current-context: name one with --kube-context "
                            f"(contexts: {', '.join(dict.fromkeys(names)) or 'none'})")
    if context not in names:
        raise KubeError(f"context {context!r} is not in {', '.join(paths)} "
                        f"(contexts: {', '.join(dict.fromkeys(names)) or 'none'})")
    return context


@contextmanager
def _library_logs() -> Iterator[list[str]]:
    """What the client library logs while it loads the credentials: it logs a failing exec plugin
    (and goes on without credentials) instead of raising. Kept from the terminal, and returned."""
    messages: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())

    handler = Keep(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield messages
    finally:
        root.removeHandler(handler)


@dataclass
class Connection:
    """The client library's configuration for one context, and what messages say of it."""

    configuration: Any  # kubernetes.client.Configuration
    context: str
    server: str
    paths: list[str]
    namespace: str = ""  # the context's namespace, as kubectl takes it when given no -n


def connect(kubeconfig: str | None, context: str | None, environ: Mapping[str, str]) -> Connection:
    """The configuration of the context (``--kube-context``, else the current one) of the
    kubeconfig files (``--kubeconfig``, else ``$KUBECONFIG``, else ``~/.kube/config``), with its
    credentials loaded (an exec plugin is run here)."""
    try:
        from kubernetes.client import Configuration
        from kubernetes.config import ConfigException, load_kube_config
    except ImportError:
        raise KubeError(MISSING_CLIENT) from None
    paths = kubeconfig_paths(kubeconfig, environ)
    name = chosen_context(paths, context)

    configuration = Configuration()
    configuration.host = ""  # the library keeps its default (http://localhost) when the cluster names no server
    with _library_logs() as logged:
        try:
            load_kube_config(config_file=os.pathsep.join(paths), context=name,
                             client_configuration=configuration, persist_config=False)
        except (ConfigException, OSError, ValueError, KeyError, TypeError) as exc:
            raise KubeError(f"context {name!r} of {', '.join(paths)}: {exc}") from None
    if logged:
        raise KubeError(f"context {name!r} of {', '.join(paths)}: the credentials could not be had: "
                        + "; ".join(logged))
    if not configuration.host:
        raise KubeError(f"context {name!r} of {', '.join(paths)}: its cluster names no server")
    return Connection(configuration, name, configuration.host, paths, context_namespace(paths, name))


def context_namespace(paths: list[str], name: str) -> str:
    """The ``namespace`` of the context ``name``: the first file that defines the context wins."""
    for path in paths:
        for entry in _load(path).get("contexts") or []:
            if isinstance(entry, dict) and entry.get("name") == name:
                context = entry.get("context") if isinstance(entry.get("context"), dict) else {}
                namespace = context.get("namespace")
                return namespace if isinstance(namespace, str) else ""
    return ""
