"""Lint rules for training manifests (MPIJob, PyTorchJob, TFJob); see :mod:`mpigen.lint.base`."""
