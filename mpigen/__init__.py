"""mpigen: compile training specs into exact, explicit Kubeflow manifests.

The Python API (:mod:`mpigen.api`, docs/api.md): :func:`build` (a spec to objects),
:func:`validate` (files or objects to diagnostics) and :func:`explain` (what the operator will
create), each returning its result with every problem as a :class:`Diagnostic`; a usage error
raises :class:`UsageError`. They are imported when first used, so that ``import mpigen`` (and the
command line's start-up) stays cheap.
"""

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers read the name)
if TYPE_CHECKING:
    from typing import Any

    from .api import BuildResult, ExplainResult, ValidateResult, build, explain, validate
    from .diagnostics import Diagnostic, Severity, UsageError

__all__ = ["BuildResult", "Diagnostic", "ExplainResult", "Severity", "UsageError", "ValidateResult", "__version__",
           "build", "explain", "validate"]

_API = {"build", "validate", "explain", "BuildResult", "ValidateResult", "ExplainResult"}
_DIAGNOSTICS = {"Diagnostic", "Severity", "UsageError"}


def __getattr__(name: str) -> "Any":
    """The API's names, imported on first use (PEP 562)."""
    if name in _API:
        from . import api

        value = getattr(api, name)
    elif name in _DIAGNOSTICS:
        from . import diagnostics

        value = getattr(diagnostics, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
