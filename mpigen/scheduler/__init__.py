"""Where the scheduler could put a job's pods: a port of the filters kube-scheduler (and Volcano,
which reuses them) applies to one pod on one node, and the gang's all-or-nothing question over
a cluster's Nodes.

* :mod:`.nodes`: Nodes and Pods as the scheduler reads them (the requests of a pod, its
  node selection, tolerations and host ports) and the per-node filters.
* :mod:`.fit`: does a gang of pods fit the nodes? A proof when it cannot, a placement when it can,
  computed per role, never per replica.
* :mod:`.gang`: the gang of a job, from the objects the operator creates (its PodGroup's
  minMember and the pods that carry the group).

Pure functions on plain data; the cluster file is read by :mod:`mpigen.load.cluster`.
"""
