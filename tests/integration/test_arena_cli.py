"""`mpigen import arena` as a user runs it, and the guides' commands built into the manifests the
guides describe: each tests/cases/arena/<case>/facts.yaml lists JSON paths of the built documents
(`mpigen build` of the imported spec, the real command) and the values the guide shows.

A case whose build fails fails here: nothing is skipped.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases" / "arena"
WITH_FACTS = sorted(p.parent for p in CASES.glob("*/facts.yaml"))
_MISSING = object()


def _mpigen(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mpigen", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def _resolve(document: Any, path: str) -> Any:
    """``a.b[0]["c.d"].e`` in a document; _MISSING when absent."""
    for key, index, quoted in re.findall(r'\.?([^.\[\]"]+)|\[(\d+)\]|\["([^"]+)"\]', path):
        step: Any = int(index) if index else (quoted or key)
        try:
            document = document[step]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return document


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool) and isinstance(actual, str):
        return actual == str(expected)  # a quantity written as a string: "1" for 1 GPU
    return actual == expected


def test_the_guide_cases_are_found() -> None:
    """The cases are read from a folder: one that moves or empties is caught here, not skipped."""
    assert len(WITH_FACTS) >= 20, WITH_FACTS


@pytest.mark.parametrize("case", WITH_FACTS, ids=[c.name for c in WITH_FACTS])
def test_guide_command_builds_into_what_the_guide_describes(case: Path) -> None:
    imported = _mpigen("import", "arena", "-", stdin=(case / "command.txt").read_text())
    assert imported.returncode == 0, imported.stderr
    assert yaml.safe_load(imported.stdout) == yaml.safe_load((case / "expected.yaml").read_text())
    built = _mpigen("build", "-", stdin=imported.stdout)
    assert built.returncode == 0, f"mpigen build of the imported spec failed:\n{built.stderr}"
    documents = [d for d in yaml.safe_load_all(built.stdout) if isinstance(d, dict)]
    failures = []
    for fact in yaml.safe_load((case / "facts.yaml").read_text()):
        candidates = [d for d in documents if d.get("kind") == fact["kind"]]
        actual = _resolve(candidates[0], fact["path"]) if candidates else _MISSING
        expected = _MISSING if fact["value"] is None else fact["value"]
        if not (actual is expected or _same(actual, expected)):
            failures.append(f"{fact['kind']} {fact['path']}: {actual if actual is not _MISSING else '(absent)'}"
                            f" != {fact['value'] if expected is not _MISSING else '(absent)'}")
    assert not failures, "\n".join(failures)


def test_cli_forms_and_exit_codes() -> None:
    argv = ["submit", "mpi", "--name=j", "--image=i", "mpirun python t.py"]
    after_dashes = _mpigen("import", "arena", "--", "arena", *argv)
    assert after_dashes.returncode == 0, after_dashes.stderr
    assert after_dashes.stdout == _mpigen("import", "arena", "--", *argv).stdout
    one_argument = _mpigen("import", "arena", "arena submit mpi --name=j --image=i 'mpirun python t.py'")
    assert one_argument.stdout == after_dashes.stdout
    assert yaml.safe_load(after_dashes.stdout)["spec"]["command"] == ["sh", "-c", "mpirun python t.py"]

    bad = _mpigen("import", "arena", "--", "submit", "tf", "--cpu=1", "--rdma", "x")
    assert bad.returncode == 1 and bad.stdout == "" and "Traceback" not in bad.stderr
    assert {"arena-flag", "arena-unsupported", "arena-required"} <= set(re.findall(r"error (arena-[a-z]+)", bad.stderr))
    for usage in ([], ["--", "arena", "list"], ["--", "submit", "nonsense"]):
        result = _mpigen("import", "arena", *usage)
        assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr, usage


def test_flags_table_option_prints_the_docs_table() -> None:
    from mpigen.importers.arena_flags import flags_markdown

    assert _mpigen("import", "arena", "--flags-table").stdout == flags_markdown()


@pytest.mark.parametrize("flags, code", [
    (["--label", "a b=c"], "schema"),  # not a Kubernetes label key
    (["--working-dir", "rel", "--sync-mode", "git", "--sync-source", "https://g.example.com/x.git"], "schema"),
    (["--sync-mode", "git", "--sync-source", "https://me:tok@g.example.com/x.git"], "plaintext-credential"),
    (["--data-dir", "/a:/b", "--data-dir", "/c:/b"], "volume-mount-path"),
])
def test_an_imported_spec_that_would_not_build_exits_1_with_its_errors(flags: list[str], code: str) -> None:
    """What the importer cannot foresee is found by building the spec; it is printed, the errors point into it."""
    done = _mpigen("import", "arena", "--", "arena", "submit", "mpi", "--name", "a", "--image", "i", *flags, "mpirun x")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("apiVersion: mpigen.dev/v1alpha1")
    assert re.search(rf"^<arena>: error {code} .* \(line \d+ of the printed spec\) \([a-z]", done.stderr, re.M), \
        done.stderr
    assert "<stdout>" not in done.stderr


def test_a_command_line_from_stdin_is_named_stdin() -> None:
    line = 'arena submit mpi --name a --image i --data-dir /a:/b --data-dir /c:/b "mpirun x"\n'
    done = _mpigen("import", "arena", "-", stdin=line)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("<stdin>: ") for line in lines), done.stderr
    assert "<stdin>: error volume-mount-path mount path '/b' is also used by volumes[0] (line 20 of the printed " \
           "spec) (spec.volumes[1].mountPath)" in lines


def test_logdir_beside_a_data_mount_is_not_inside_it() -> None:
    done = _mpigen("import", "arena", "--", "arena", "submit", "pytorch", "--name", "a", "--image", "i", "--workers",
                   "2", "--data", "pvc:/data", "--tensorboard", "--logdir", "/database/logs", "python train.py")
    assert done.returncode == 0, done.stderr
    spec = yaml.safe_load(done.stdout)["spec"]
    assert {"hostPath": "/arena_logs/a", "mountPath": "/database/logs", "name": "training-logs-volume"} in spec["volumes"]
