"""The Python API's examples run as written: the README's "## Python API" section and every
example of docs/api.md (a ``python`` block followed by the ``text`` block of what it prints), each
in a fresh interpreter from the repository's root."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = re.compile(r"```python\n(?P<code>.*?)```\n(?:[^`]*?)```text\n(?P<output>.*?)```", re.S)


def section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same level."""
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def examples(text: str) -> list[tuple[str, str]]:
    return [(m["code"], m["output"]) for m in EXAMPLE.finditer(text)]


DOCS = examples((ROOT / "docs" / "api.md").read_text("utf-8"))


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_readme_has_one_python_api_example_with_its_output() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "\n## Python API\n" in readme, "the README has no '## Python API' section"
    found = examples(section(readme, "## Python API"))
    assert len(found) == 1, "the README's '## Python API' needs a python block followed by a text block"
    code, output = found[0]
    assert "mpigen.build(" in code and "minMember" in code and "mpigen.validate(" in code
    assert _run(code) == output


def test_docs_api_examples_are_found() -> None:
    assert len(DOCS) >= 6
    assert all(f"mpigen.{name}(" in "".join(code for code, _ in DOCS) for name in ("build", "validate", "explain"))


@pytest.mark.parametrize(("code", "output"), DOCS, ids=[f"example-{i}" for i in range(len(DOCS))])
def test_docs_api_example_prints_what_the_page_says(code: str, output: str) -> None:
    assert _run(code) == output


def test_docs_api_names_every_parameter_and_result_attribute() -> None:
    """docs/api.md mirrors mpigen/api.py's signatures: a parameter or result field added there is
    documented here."""
    import dataclasses
    import inspect

    from mpigen import api
    from mpigen.explanation.jobs import JobExplanation

    page = (ROOT / "docs" / "api.md").read_text("utf-8")
    for function in (api.build, api.validate, api.explain):
        heading = section(page, f"## `mpigen.{function.__name__}`")
        for name in inspect.signature(function).parameters:
            assert f"{name}" in heading.split("```")[1], (function.__name__, name)
            assert f"`{name}`" in heading, (function.__name__, name)
    for result in (api.BuildResult, api.ValidateResult, api.ExplainResult, JobExplanation):
        public = {f.name for f in dataclasses.fields(result) if not f.name.startswith("_")} | \
            {name for name, value in vars(result).items() if not name.startswith("_")
             and (callable(value) or isinstance(value, property))}
        public -= {"require_schema"}  # validate's argument, kept on its result for ok
        missing = sorted(name for name in public if f"`{name}" not in page)
        assert missing == [], (result.__name__, missing)
