"""What mpigen reads from a live cluster: one list per resource, and one object got by name, as data.

The ClusterRole of docs/cluster.md grants exactly these verbs on these resources (``tests/unit/test_kube.py``
checks that it names every one); nothing else is asked of the server but discovery (``/api``,
``/apis``: every authenticated user may read it through the default ``system:discovery``
ClusterRole).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Resource:
    """A resource listed in every namespace (or, cluster-scoped, once); or, with a ``name``, the one
    object of that name in ``namespace``, got only when the cluster serves the group ``with``."""

    group: str  # "" for the core group
    resource: str  # the plural name, as RBAC and the URL name it
    kind: str
    field_selector: str = ""  # the objects the server gives, as kubectl's --field-selector picks them
    namespace: str = ""
    name: str = ""
    with_group: str = ""

    @property
    def qualified(self) -> str:
        """``nodes``, ``queues.scheduling.volcano.sh``: the name kubectl and RBAC messages use."""
        return f"{self.resource}.{self.group}" if self.group else self.resource

    @property
    def verb(self) -> str:
        return "get" if self.name else "list"


NOT_FINISHED = "status.phase!=Succeeded,status.phase!=Failed"
"""The Pods the cluster reader keeps: those bound to a node take room on it (as the scheduler's
cache counts them, and as ``kubectl describe node`` selects a node's Pods), and those not yet bound
count in their Volcano queue (:mod:`mpigen.scheduler.admission`)."""

RESOURCES = (
    Resource("", "nodes", "Node"),
    Resource("", "pods", "Pod", NOT_FINISHED),
    Resource("", "namespaces", "Namespace"),
    Resource("scheduling.k8s.io", "priorityclasses", "PriorityClass"),
    Resource("trainer.kubeflow.org", "trainingruntimes", "TrainingRuntime"),
    Resource("trainer.kubeflow.org", "clustertrainingruntimes", "ClusterTrainingRuntime"),
    Resource("scheduling.volcano.sh", "queues", "Queue"),
    Resource("scheduling.volcano.sh", "podgroups", "PodGroup"),
    Resource("", "configmaps", "ConfigMap", namespace="volcano-system", name="volcano-scheduler-configmap",
             with_group="scheduling.volcano.sh"),  # the scheduler's configuration, where Volcano's Helm chart puts it
    Resource("kueue.x-k8s.io", "clusterqueues", "ClusterQueue"),
    Resource("kueue.x-k8s.io", "cohorts", "Cohort"),
    Resource("kueue.x-k8s.io", "localqueues", "LocalQueue"),
    Resource("kueue.x-k8s.io", "resourceflavors", "ResourceFlavor"),
    Resource("kueue.x-k8s.io", "workloadpriorityclasses", "WorkloadPriorityClass"),
    Resource("kueue.x-k8s.io", "workloads", "Workload"),
    Resource("scheduling.x-k8s.io", "elasticquotas", "ElasticQuota"),
)
"""In the order they are listed. Each one's objects go to :func:`mpigen.load.cluster.read_cluster`
as the documents of a cluster file would, so a kind the file reader reads is read live alike."""

SERVED_BY = {
    "trainer.kubeflow.org": "Kubeflow Trainer",
    "scheduling.volcano.sh": "Volcano",
    "kueue.x-k8s.io": "Kueue",
    "scheduling.x-k8s.io": "scheduler-plugins",
}
"""Who installs a group the cluster may not serve, for the note that says it is absent."""
