"""Without the go command the oracle tests behave alike: each one that runs an oracle fails with
the same message (test_differential.py skipped while test_golden_explain.py failed, and the Trainer tests of
test_golden_explain.py skipped)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_oracle_test_fails_alike_without_go(tmp_path: Path) -> None:
    path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                           if d and not os.access(os.path.join(d, "go"), os.X_OK))
    tests = ["tests/oracle/test_differential.py::test_random_cases_agree_with_the_real_operators",
             "tests/oracle/test_differential.py::test_random_training_jobs_agree_with_the_real_operator",
             "tests/oracle/test_golden_explain.py::test_explain_equals_the_mpi_operator[horovod-volcano/base]",
             "tests/oracle/test_golden_explain.py::test_explain_equals_the_training_operator[pytorch-ddp/base]",
             "tests/oracle/test_golden_explain.py::test_explain_of_examples_equals_the_trainer_framework[torchtune]",
             "tests/oracle/test_golden_explain.py::test_explain_equals_the_trainer_framework["
             "trainjob-kueue/base]"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs", *tests],
                          cwd=ROOT, env=dict(os.environ, PATH=path, MPIGEN_ORACLE_CASES="1"),
                          capture_output=True, text=True, check=False, timeout=600)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "skipped" not in out, out
    assert out.count("the go command is needed to build the oracles") >= len(tests), out
    assert f"{len(tests)} failed" in out or f"{len(tests)} errors" in out or f"{len(tests)} error" in out, out
