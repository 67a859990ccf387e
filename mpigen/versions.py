"""mpi-operator releases and what each one knows: the one operator-version type.

mpigen follows the rules of a pinned operator release (``--operator-version``, default v0.8.2).
Fields by release come from the operator's own history (see shared reference and each tag's
``pkg/apis/kubeflow/v2beta1/types.go``); behaviour by release from each tag's
``pkg/controller`` (``git diff v0.8.0 v0.8.2 -- pkg/controller/mpi_job_controller.go``: the
launcher Job's ``podReplacementPolicy``). v0.8.1 was never published: its changes shipped as v0.8.2,
so ``v0.8.1`` follows v0.8.2's rules. A version is parsed once, where it enters (an option,
the configuration), and passed on as an :class:`OperatorVersion`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+|x))?$")


@dataclass(frozen=True, slots=True, order=True)
class OperatorVersion:
    """An mpi-operator release; ordered as releases are, written ``v0.8.2``."""

    major: int
    minor: int
    patch: int = 0

    @classmethod
    def parse(cls, text: str) -> OperatorVersion:
        """``v0.8.2``, ``0.8`` (v0.8.0) or ``v0.4.x`` (a minor release's rules: v0.4.0); ValueError with a
        readable message for anything else and for releases older than mpigen ports."""
        match = _VERSION.match(text.strip())
        if not match:
            raise ValueError(f"{text!r} is not an operator version such as v0.8.2")
        patch = match[3] if match[3] not in (None, "x") else "0"
        version = cls(int(match[1]), int(match[2]), int(patch))
        if version < OLDEST:
            raise ValueError(f"mpi-operator {text} is not supported: mpigen ports the rules of v0.4.0 and later")
        return version

    def __str__(self) -> str:
        return f"v{self.major}.{self.minor}.{self.patch}"

    def has(self, feature: str) -> bool:
        """Whether this release knows ``feature`` (a key of :data:`FEATURES`)."""
        return self >= FEATURES[feature]

    @property
    def legacy(self) -> bool:
        """A release before v0.5.0, which follows the v0.4.x rules (no computed Volcano
        minResources, a workers' Service of its own, no launcherCreationPolicy...)."""
        return self < V0_5_0


OLDEST = OperatorVersion(0, 4, 0)  # the oldest release whose gang-scheduling rules mpigen ports (podgroup.go)
V0_5_0 = OperatorVersion(0, 5, 0)
DEFAULT_OPERATOR_VERSION = OperatorVersion(0, 8, 2)

FEATURES: dict[str, OperatorVersion] = {
    "sshAuthMountPath": OperatorVersion(0, 3, 0),
    "mpiImplementation: Intel": OperatorVersion(0, 3, 0),
    "gang scheduling with scheduler-plugins": OLDEST,
    "runPolicy.suspend": OLDEST,
    "launcherCreationPolicy": V0_5_0,
    "mpiImplementation: MPICH": V0_5_0,
    "runLauncherAsWorker": V0_5_0,
    "computed Volcano minResources": V0_5_0,
    # newLauncherJob sets podReplacementPolicy Failed (kubernetes/kubernetes#115844: a terminating
    # launcher pod is not replaced until it has failed); mpi-operator #810, released in v0.8.2.
    "launcher podReplacementPolicy: Failed": OperatorVersion(0, 8, 1),
}
