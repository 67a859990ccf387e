"""``mpigen diagnose KIND/NAME``: why a submitted job is where it is, read from the live cluster.

* :mod:`.target`: ``mpijob/bert`` (and kubectl's other spellings) to the job's resource.
* :mod:`.expected`: what the operator creates for the job, from mpigen's ports of the
  controllers (what ``mpigen explain`` shows), and its gang.
* :mod:`.gather`: the job, what the operator created for it, its queue, Kueue's Workload and the
  events, read through :mod:`mpigen.kube`; what may not be read is kept, not fatal.
* :mod:`.judge`: pure: the objects read -> the job's phase, its causes (diagnostic codes of the
  catalogue) and the evidence, each line naming the object it comes from.
* :mod:`.report`: the answer as text or JSON.

Nothing here prints or exits: :mod:`mpigen.commands.diagnose` does.
"""
