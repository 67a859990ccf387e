"""mpigen: compile training specs into exact, explicit Kubeflow manifests."""

__version__ = "0.1.0"
