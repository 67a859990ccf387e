"""What ``mpigen diagnose`` is asked about: ``KIND/NAME``, with KIND spelled as kubectl takes it
(``mpijob``, ``mpijobs``, ``MPIJob``, ``mpijobs.kubeflow.org``, ``mpijob.v2beta1.kubeflow.org``...)."""

from __future__ import annotations

from dataclasses import dataclass

from ..kube.resources import Resource


@dataclass(frozen=True)
class JobKind:
    """A kind of training job mpigen diagnoses, and the API version its rules are ported for."""

    kind: str
    api_version: str  # kubeflow.org/v2beta1
    plural: str

    @property
    def group(self) -> str:
        return self.api_version.split("/")[0]

    @property
    def version(self) -> str:
        return self.api_version.split("/")[1]

    @property
    def resource(self) -> Resource:
        return Resource(self.group, self.plural, self.kind)


JOB_KINDS = (
    JobKind("MPIJob", "kubeflow.org/v2beta1", "mpijobs"),
    JobKind("PyTorchJob", "kubeflow.org/v1", "pytorchjobs"),
    JobKind("TFJob", "kubeflow.org/v1", "tfjobs"),
    JobKind("TrainJob", "trainer.kubeflow.org/v1alpha1", "trainjobs"),
)


def parse_target(text: str) -> tuple[JobKind, str]:
    """``KIND/NAME`` -> (the kind, the name); ValueError with what is wrong."""
    kind_text, slash, name = text.partition("/")
    if not slash or not kind_text or not name or "/" in name:
        raise ValueError(f"{text!r}: expected KIND/NAME, e.g. mpijob/bert")
    word, _, qualifier = kind_text.lower().partition(".")
    for kind in JOB_KINDS:
        if word not in (kind.kind.lower(), kind.plural):
            continue
        if qualifier and qualifier not in (kind.group, f"{kind.version}.{kind.group}"):
            raise ValueError(f"{kind_text!r}: {kind.plural} are served by the API group {kind.group} "
                             f"({kind.plural}.{kind.group})")
        return kind, name
    kinds = ", ".join(k.kind.lower() for k in JOB_KINDS)
    raise ValueError(f"{kind_text!r} is not a kind mpigen diagnoses ({kinds})")
