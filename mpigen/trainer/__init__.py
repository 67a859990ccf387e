"""Kubeflow Trainer v2.3.0 (``trainer.kubeflow.org/v1alpha1`` TrainJob): what its runtime
framework creates for a TrainJob, ported from its code.

:func:`framework.build` takes a TrainJob, the TrainingRuntime or ClusterTrainingRuntime its
``runtimeRef`` names (the cluster file's, else Trainer's default runtimes:
:mod:`mpigen.load.trainer_runtimes`) and the cluster's PriorityClasses, and returns the
JobSet, the PodGroup (coscheduling or Volcano, as the runtime's ``podGroupPolicy`` says), the MPI hostfile ConfigMap and SSH Secret and the runtime snapshot, as
the controller applies them. The modules follow Trainer's: :mod:`.defaults` (the CRDs' defaults),
:mod:`.info` (``newRuntimeInfo``), :mod:`.patch` (strategic merge patch), one module per plugin
(:mod:`.jobset`, :mod:`.podgroup`, :mod:`.mpi`, :mod:`.torch`, :mod:`.ml`), :mod:`.validation`
(the webhooks, which ``mpigen validate`` runs too) and :mod:`.framework` (their order).
"""
