"""The same spec gives byte-identical output on every run, whatever the hash seed or locale."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.golden.cases import ROOT, discover

CASES = discover()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_byte_identical_across_processes(case) -> None:
    outputs = set()
    for seed, locale in (("0", "C"), ("1", "C.UTF-8"), ("4242", "POSIX")):
        env = dict(os.environ, PYTHONHASHSEED=seed, LC_ALL=locale, LANG=locale)
        args = [sys.executable, "-m", "mpigen", "build", case.spec, *case.options()]
        if case.envs:
            args += ["--env", case.envs[-1]]
        result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, check=False)
        assert result.returncode == 0, result.stderr.decode()
        outputs.add(result.stdout)
    assert len(outputs) == 1
