"""Will a queue admit the gang? Ports of the schedulers' admission rules, beside
:mod:`mpigen.scheduler.fit`'s question whether the gang fits the nodes.

* :mod:`.objects`: what the rules read of a cluster (Pods, Volcano Queues, PodGroups and the
  scheduler's configuration), as :mod:`mpigen.load.cluster` reads them from a cluster file.
* :mod:`.resource`: Volcano's resource arithmetic.
* :mod:`.volcano_session`, :mod:`.volcano_plugins`, :mod:`.volcano`: Volcano's enqueue decision.
* :mod:`.verdict`: the verdict and its diagnostic (``queue-cannot-admit``, ``queue-may-not-admit``,
  ``queue-admits``).

Pure functions on plain data.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .verdict import Admission
from .volcano import enqueue_verdict
from .volcano_session import VolcanoCluster

VOLCANO_PODGROUP = "scheduling.volcano.sh/v1beta1"


def podgroup_admission(podgroup: Mapping[str, Any], roles: Sequence[Any] | None,
                       cluster: VolcanoCluster) -> Admission | None:
    """Whether the scheduler of ``podgroup`` (as the operator creates it) lets it in: Volcano's
    enqueue for a Volcano PodGroup; None for other PodGroups (scheduler-plugins' have no queue) or
    when the cluster file says nothing of the queues."""
    if podgroup.get("apiVersion") == VOLCANO_PODGROUP:
        return enqueue_verdict(podgroup, roles, cluster)
    return None
