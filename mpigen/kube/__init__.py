"""The live cluster as input (``--kube-context NAME``, ``--kubeconfig PATH``): the same Cluster
value a cluster file gives (:mod:`mpigen.load.cluster`), read from the API server.

Nothing else in mpigen talks to a server. Only ``get`` and ``list`` are sent (discovery, one
paginated list per resource of :data:`~mpigen.kube.resources.RESOURCES`, and the one object it
names, the Volcano scheduler's ConfigMap; for ``mpigen diagnose``, the gets and lists of
:mod:`mpigen.kube.live`), each with a timeout.
The official Kubernetes client reads the kubeconfig and speaks HTTP; it is imported only when a
live option is given (it takes most of a second), never by another command.
"""

from __future__ import annotations

from .kubeconfig import KubeError
from .reader import read_live

__all__ = ["KubeError", "read_live"]
