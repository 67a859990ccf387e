"""mpi-operator releases and what each one knows.

mpigen follows the rules of a pinned operator release (``--operator-version``, default v0.8.0).
Fields by release come from the operator's own history (see shared reference and each tag's
``pkg/apis/kubeflow/v2beta1/types.go``).
"""

from __future__ import annotations

import re

DEFAULT_OPERATOR_VERSION = "v0.8.0"
OLDEST = (0, 4, 0)  # the oldest release whose gang-scheduling rules mpigen ports (podgroup.go)
NEWEST_KNOWN = (0, 8, 0)

_VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?$")

FEATURES: dict[str, tuple[int, int, int]] = {
    "sshAuthMountPath": (0, 3, 0),
    "mpiImplementation: Intel": (0, 3, 0),
    "gang scheduling with scheduler-plugins": (0, 4, 0),
    "runPolicy.suspend": (0, 4, 0),
    "launcherCreationPolicy": (0, 5, 0),
    "mpiImplementation: MPICH": (0, 5, 0),
    "runLauncherAsWorker": (0, 5, 0),
    "computed Volcano minResources": (0, 5, 0),
}


def parse_version(text: str) -> tuple[int, int, int]:
    """``v0.8.0`` / ``0.8`` -> (0, 8, 0); ValueError with a readable message otherwise."""
    match = _VERSION.match(text.strip())
    if not match:
        raise ValueError(f"{text!r} is not an operator version such as v0.8.0")
    version = (int(match[1]), int(match[2]), int(match[3] or 0))
    if version < OLDEST:
        raise ValueError(f"mpi-operator {text} is not supported: mpigen ports the rules of v0.4.0 and later")
    return version


def has(version: tuple[int, int, int], feature: str) -> bool:
    return version >= FEATURES[feature]


def format_version(version: tuple[int, int, int]) -> str:
    return "v{}.{}.{}".format(*version)
