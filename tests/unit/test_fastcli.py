"""mpigen.fastcli: ``mpigen build SPEC [--env NAME]`` and ``mpigen validate PATH...`` without click,
and click for everything else.

On a table of command lines, the fast path and the click CLI must give the same exit code, the
same standard output and the same standard error, byte for byte; every command line the fast
path does not take must reach click untouched.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mpigen import cli, fastcli

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("specs/*.yaml"), *ROOT.glob("tests/cases/specs/*/*.yaml")])
ENV_SPEC = "specs/scheduler-plugins-envs.yaml"
# Manifests and specs, good and bad, hand-written and generated (validate's fast path)
VALIDATE = sorted(str(p.relative_to(ROOT)) for p in [
    *ROOT.glob("specs/*.yaml"), *ROOT.glob("golden/*/*.yaml"), *ROOT.glob("tests/cases/validate/**/*.yaml"),
    *ROOT.glob("tests/cases/lint/*/*.yaml"), *ROOT.glob("tests/cases/specs/invalid/*.yaml")])

FAST = [
    *(["build", spec] for spec in SPECS),
    *(["build", spec, "--env", env] for spec in SPECS for env in ("prod", "dev", "nope")),
    ["build", ENV_SPEC, "--env=prod"],
    ["build", "--env", "prod", ENV_SPEC],
    ["build", "--env=dev", ENV_SPEC],
    ["build", ENV_SPEC, "--env", "no such"],
    ["build", ENV_SPEC, "--env", "\x1b[31mred"],  # echoed by click itself (ANSI codes stripped)
    *(["validate", path] for path in VALIDATE),
    ["validate", *VALIDATE],  # every file at once: one report, one summary
    ["validate", "specs", "golden", "specs"],
    ["validate", "tests/cases/validate", "tests/cases/lint"],
]
SLOW = [
    [], ["--help"], ["--version"], ["build"], ["build", "-h"], ["build", "--help"], ["build", ENV_SPEC, "--help"],
    ["build", "specs"], ["build", "does/not/exist.yaml"], ["build", ENV_SPEC, "--env"],
    ["build", ENV_SPEC, "--env", "--help"], ["build", ENV_SPEC, "--env="], ["build", ENV_SPEC, ENV_SPEC],
    ["build", "--", ENV_SPEC], ["build", ENV_SPEC, "--env", "dev", "-o", "x"], ["build", ENV_SPEC, "--bogus"],
    ["build", ENV_SPEC, "--env", "a", "--env", "b"], ["build", "-x"], ["build", ENV_SPEC, "--env", "-x"],
    ["build", ENV_SPEC, "--operator-version", "v0.8.0"], ["Build", ENV_SPEC], ["rules"],
    ["validate"], ["validate", "--strict", ENV_SPEC], ["validate", ENV_SPEC, "--format", "json"],
    ["validate", "no/such/file.yaml"], ["validate", ENV_SPEC, "--"], ["validate", "-x"], ["validate", "--help"],
]


def _run(main, argv: list[str], capsys) -> tuple[int, str, str]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        try:
            code = main(argv)
        except SystemExit as exc:  # click's own exits (--help, usage errors) in either path
            code = exc.code
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", FAST, ids=[" ".join(a) for a in FAST])
def test_fast_path_matches_click(argv: list[str], capsys) -> None:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        assert fastcli.parse(argv) is not None or fastcli.parse_validate(argv) is not None
    finally:
        os.chdir(cwd)
    assert _run(fastcli.main, argv, capsys) == _run(cli.main, argv, capsys)


@pytest.mark.parametrize("argv", SLOW, ids=[" ".join(a) or "(none)" for a in SLOW])
def test_other_command_lines_go_to_click(argv: list[str], capsys) -> None:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        assert fastcli.parse(argv) is None and fastcli.parse_validate(argv) is None
    finally:
        os.chdir(cwd)
    assert _run(fastcli.main, argv, capsys) == _run(cli.main, argv, capsys)


def test_completion_requests_go_to_click(monkeypatch) -> None:
    monkeypatch.setenv("_MPIGEN_COMPLETE", "bash_source")
    assert fastcli.parse(["build", str(ROOT / ENV_SPEC)]) is None


def test_unreadable_file_goes_to_click(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text("a: 1\n")
    monkeypatch.setattr(os, "access", lambda *args: False)  # tests may run as root, who reads everything
    assert fastcli.parse(["build", str(path)]) is None
    assert fastcli.parse_validate(["validate", str(path)]) is None
    assert fastcli.parse_validate(["validate", str(tmp_path)]) is None


def test_internal_error_exits_3_without_traceback(monkeypatch, capsys) -> None:
    import mpigen.pipeline

    def boom(*args, **kwargs):
        raise RuntimeError("synthetic bug")

    monkeypatch.setattr(mpigen.pipeline, "compile_specs", boom)
    argv = ["build", str(ROOT / ENV_SPEC)]
    assert _run(fastcli.main, argv, capsys) == _run(cli.main, argv, capsys)
    monkeypatch.setattr(mpigen.pipeline, "compile_specs", boom)
    assert fastcli.main(argv) == 3
    assert "internal error: RuntimeError: synthetic bug" in capsys.readouterr().err


def test_console_script_and_module_use_the_fast_entry() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    assert 'mpigen = "mpigen.fastcli:main"' in text
    assert "fastcli" in (ROOT / "mpigen" / "__main__.py").read_text()


@pytest.mark.parametrize("argv", [["build", "-"], ["build", "-", "--env", "prod"], ["build", "-", "--env", "x"],
                                  ["validate", "-"], ["validate", "-", "specs"]])
def test_stdin_through_a_real_process(argv: list[str]) -> None:
    spec = (ROOT / ENV_SPEC).read_bytes()
    fast = subprocess.run([sys.executable, "-m", "mpigen", *argv], input=spec, capture_output=True, cwd=ROOT)
    slow = subprocess.run([sys.executable, "-c", "import sys; from mpigen.cli import main; sys.exit(main())", *argv],
                          input=spec, capture_output=True, cwd=ROOT)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert b"Traceback" not in fast.stderr


# What the fast paths must not import: each is a visible part of a cold start (BENCHMARKS.md).
NOT_ON_THE_FAST_PATH = {
    "build": ("click", "dataclasses", "typing", "json", "pathlib", "fractions", "decimal", "jsonschema",
              "jsonschema_rs"),
    "validate": ("click", "multiprocessing", "concurrent.futures", "xml.sax", "jsonschema"),
}


@pytest.mark.parametrize("argv", [["build", ENV_SPEC, "--env", "prod"], ["build", "specs/pytorch-ddp.yaml"],
                                  ["validate", "golden/horovod-volcano/base.yaml", "specs"]],
                         ids=lambda argv: " ".join(argv))
def test_fast_paths_leave_heavy_modules_unimported(argv: list[str]) -> None:
    probe = ("import sys, os\n"
             "from mpigen.fastcli import main\n"
             "sys.stdout = open(os.devnull, 'w')\n"
             "code = main(sys.argv[1:])\n"
             "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
             "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    imported = set(done.stderr.split())
    assert "mpigen.pipeline" in imported  # the probe did run the command
    assert sorted(set(NOT_ON_THE_FAST_PATH[argv[0]]) & imported) == []
