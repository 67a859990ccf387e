"""``mpigen validate``: lint any training manifest, spec or Kubernetes object, offline, with line numbers.

The stage's public names, which the commands and :mod:`mpigen.migrate` import from here: the
layers over files (:mod:`.engine`, in parallel by :mod:`.parallel`) and what the API server and
the operators accept (:mod:`.admission`), and the jobs of a file with that verdict on them
(:func:`find_jobs`, for ``explain`` and ``podgroup``). The validate command also uses :mod:`.discover`,
:mod:`.report` and :mod:`.kubeconform`.
"""

from .admission import prune_nulls, schema_for
from .engine import (SKIPPED, Coverage, Job, NoSuchEnvironment, ValidateOptions, find_jobs, run_runtimes,
                     validate_bytes, validate_items, with_run_runtimes)
from .parallel import validate_files

__all__ = ["SKIPPED", "Coverage", "Job", "NoSuchEnvironment", "ValidateOptions", "find_jobs", "prune_nulls",
           "run_runtimes", "schema_for", "validate_bytes", "validate_files", "validate_items", "with_run_runtimes"]
