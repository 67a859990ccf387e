"""``mpigen validate``: lint any training manifest, spec or Kubernetes object, offline, with line numbers.

The stage's public names, which the commands and :mod:`mpigen.migrate` import from here: the
layers over files (:mod:`.engine`, in parallel by :mod:`.parallel`, one large file in pieces
by :mod:`.stream`) and what the API server and the operators accept (:mod:`.admission`), and
the jobs of a file with that verdict on them (:mod:`.jobs`, for ``explain`` and ``podgroup``).
The validate command also uses :mod:`.discover`, :mod:`.report` and :mod:`.kubeconform`; ``mpigen
check`` spreads its specs over the cores with the validation's workers (:func:`.parallel.spread`).
"""

from .admission import prune_nulls, schema_for
from .engine import SKIPPED, Coverage, ValidateOptions, run_runtimes, validate_bytes, validate_items, with_run_runtimes
from .jobs import Job, NoSuchEnvironment, find_jobs
from .parallel import cores, processes_by_estimate, spread, validate_files
from .stream import STREAM_FROM, validate_large_file

__all__ = ["SKIPPED", "STREAM_FROM", "Coverage", "Job", "NoSuchEnvironment", "ValidateOptions", "find_jobs",
           "cores", "processes_by_estimate", "prune_nulls", "run_runtimes", "schema_for", "spread", "validate_bytes",
           "validate_files", "validate_items", "validate_large_file", "with_run_runtimes"]
