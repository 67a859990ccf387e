"""Will a queue admit the gang? Ports of the schedulers' admission rules, beside
:mod:`mpigen.scheduler.fit`'s question whether the gang fits the nodes.

* :mod:`.objects`: what the rules read of a cluster (Pods, Volcano Queues, PodGroups and the
  scheduler's configuration), as :mod:`mpigen.load.cluster` reads them from a cluster file.
* :mod:`.resource`: Volcano's resource arithmetic.

Pure functions on plain data.
"""
