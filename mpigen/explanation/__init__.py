"""What ``mpigen explain`` prints for people: the objects an operator (or Kubeflow Trainer) creates
for a job, as text (:mod:`.text`: MPIJob, PyTorchJob, TFJob; :mod:`.trainjob`: TrainJob)."""
