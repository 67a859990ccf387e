"""mpigen.main: the one command-line layer (click), its exit codes, and a start-up that imports
only what the command it runs needs.

The command lines the hand-made parser of ``build SPEC [--env NAME]`` and ``validate PATH...``
once took, and those it left to click, are pinned here: what each prints and its exit code.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from mpigen.main import main
from tests.golden.cases import Case, discover

ROOT = Path(__file__).resolve().parents[2]
ENV_SPEC = "specs/scheduler-plugins-envs.yaml"
VALIDATE = sorted(str(p.relative_to(ROOT)) for p in [
    *ROOT.glob("specs/*.yaml"), *ROOT.glob("golden/*/*.yaml"), *ROOT.glob("tests/cases/validate/**/*.yaml"),
    *ROOT.glob("tests/cases/lint/*/*.yaml"), *ROOT.glob("tests/cases/specs/invalid/*.yaml")])
SUMMARY = re.compile(r"^\d+ files? checked: (\d+) error\(s\), \d+ warning\(s\)")


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        code = main(argv)
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    return code, out, err


GOLDEN_CASES = discover()
BUILDS = [(case, env) for case in GOLDEN_CASES for env in [None, *case.envs]]
INVALID_SPECS = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("tests/cases/specs/invalid/*.yaml"))
DIAGNOSTIC = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error (?P<code>[a-z0-9-]+) ")


def test_the_builds_are_found() -> None:
    assert len(GOLDEN_CASES) >= 14 and len(BUILDS) >= 20 and len(INVALID_SPECS) >= 38


@pytest.mark.parametrize("case, env", BUILDS, ids=[f"{c.name} {e or 'base'}" for c, e in BUILDS])
def test_build_prints_the_reviewed_golden_output(case: Case, env: str | None, capsys) -> None:
    """What main prints for ``mpigen build SPEC [--env ENV]`` is the golden file, reviewed when it
    was written (``make golden``); it was compared with the pipeline main itself runs."""
    code, out, err = _run(["build", case.spec, *case.options(), *(["--env", env] if env else [])], capsys)
    assert (code, out) == (0, (case.folder / f"{env or 'base'}.yaml").read_text()), err
    assert "Traceback" not in err


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=[c.name for c in GOLDEN_CASES])
def test_build_of_an_environment_the_spec_lacks_exits_2(case: Case, capsys) -> None:
    name = yaml.safe_load((ROOT / case.spec).read_text())["metadata"]["name"]
    code, out, err = _run(["build", case.spec, *case.options(), "--env", "nope"], capsys)
    assert (code, out) == (2, "")
    assert err.endswith(f"mpigen: --env nope: no such environment in {name} "
                        f"(environments: {', '.join(case.envs) or 'none'})\n"), err


@pytest.mark.parametrize("spec", INVALID_SPECS)
def test_build_of_an_invalid_spec_exits_1_with_its_errors_where_the_spec_says(spec: str, capsys) -> None:
    """The errors are the ``# expect: LINE:COL CODE`` lines written in each case by hand."""
    text = (ROOT / spec).read_text()
    want = {(int(m[1]), int(m[2]), m[3]) for m in re.finditer(r"^# expect: (\d+):(\d+) (\S+)$", text, re.M)}
    options = re.search(r"^# options: (.*)$", text, re.M)
    code, out, err = _run(["build", spec, *(options[1].split() if options else [])], capsys)
    assert (code, out) == (1, ""), err
    found = {(int(m["line"]), int(m["col"]), m["code"]) for m in map(DIAGNOSTIC.match, err.splitlines()) if m}
    assert want and found == want, err


@pytest.mark.parametrize("argv", [["build", ENV_SPEC, "--env=prod"], ["build", "--env", "prod", ENV_SPEC],
                                  ["build", "--env=prod", ENV_SPEC]], ids=" ".join)
def test_build_options_in_any_order(argv: list[str], capsys) -> None:
    code, out, err = _run(argv, capsys)
    assert (code, out) == (0, (ROOT / "golden" / "scheduler-plugins-envs" / "prod.yaml").read_text()), err


# (command line, exit code, a line of stdout or stderr)
COMMAND_LINES = [
    ([], 2, "Usage: mpigen [OPTIONS] COMMAND [ARGS]..."),
    (["--help"], 0, "Usage: mpigen [OPTIONS] COMMAND [ARGS]..."),
    (["-h"], 0, "  validate  Lint training manifests and mpigen specs: files, folders..."),
    (["--version"], 0, "mpigen, version 0.1.0"),
    (["Build", ENV_SPEC], 2, "Error: No such command 'Build'. Did you mean 'build'?"),
    (["valdate", ENV_SPEC], 2, "Error: No such command 'valdate'. Did you mean 'validate'?"),
    (["build"], 2, "Error: Missing argument 'SPEC'."),
    (["build", "-h"], 0, "  Compile SPEC (a file, or - for stdin) into manifests on stdout, or a"),
    (["build", ENV_SPEC, "--help"], 0, "Usage: mpigen build [OPTIONS] SPEC"),
    (["build", "specs"], 2, "Error: Invalid value for 'SPEC': File 'specs' is a directory."),
    (["build", "does/not/exist.yaml"], 2, "mpigen: does/not/exist.yaml: cannot read: No such file or directory"),
    (["build", ENV_SPEC, "--env"], 2, "Error: Option '--env' requires an argument."),
    (["build", ENV_SPEC, "--env", "--help"], 2, "mpigen: --env --help: no such environment in resnet-ddp "
                                                "(environments: dev, prod)"),
    (["build", ENV_SPEC, "--env="], 2, "mpigen: --env : no such environment in resnet-ddp (environments: dev, prod)"),
    (["build", ENV_SPEC, "--env", "\x1b[31mred"], 2, "mpigen: --env red: no such environment in resnet-ddp "
                                                     "(environments: dev, prod)"),  # click.echo strips ANSI codes
    (["build", ENV_SPEC, ENV_SPEC], 2, "Error: Got unexpected extra argument (specs/scheduler-plugins-envs.yaml)"),
    (["build", ENV_SPEC, "--env", "dev", "-o", "x"], 2,
     "mpigen: --env and -o do not go together: -o writes the base and every environment"),
    (["build", ENV_SPEC, "--bogus"], 2, "Error: No such option '--bogus'."),
    (["build", ENV_SPEC, "--env", "a", "--env", "b"], 2, "mpigen: --env b: no such environment in resnet-ddp "
                                                         "(environments: dev, prod)"),
    (["build", "-x"], 2, "Error: No such option '-x'."),
    (["build", ENV_SPEC, "--operator-version", "v0.3.0"], 2,
     "mpigen: --operator-version: mpi-operator v0.3.0 is not supported: mpigen ports the rules of v0.4.0 and later"),
    (["build", ENV_SPEC, "--operator-version", "banana"], 2,
     "mpigen: --operator-version: 'banana' is not an operator version such as v0.8.2"),
    (["validate"], 2, "Error: Missing argument 'PATHS...'."),
    (["validate", "no/such/file.yaml"], 2, "mpigen: no/such/file.yaml: no such file or folder"),
    (["validate", "-x"], 2, "Error: No such option '-x'."),
    (["validate", "--format", "xml", ENV_SPEC], 2, "Error: Invalid value for '--format': 'xml' is not one of "
                                                   "'text', 'json', 'junit', 'github', 'sarif'."),
    (["podgroup", ENV_SPEC, "--env", "staging"], 2, "mpigen: --env staging: no such environment in resnet-ddp "
                                                    "(environments: dev, prod)"),
    (["podgroup", ENV_SPEC, "--gang", "none"], 2, "Error: Invalid value for '--gang': 'none' is not one of "
                                                  "'volcano', 'scheduler-plugins'."),
    (["rules"], 0, "legacy-api-version (error; MPIJob, PyTorchJob, TFJob): The job uses an API version the current "
                   "operators no longer serve."),
    (["rules", "host-network-dns"], 0, "host-network-dns (warning; MPIJob, PyTorchJob, TFJob): A hostNetwork pod"),
    (["rules", "role-null"], 0, "role-null (error): A role's image set to null: null takes a job-wide setting away"),
    (["rules", "role-nul"], 2, "mpigen: no code 'role-nul' (did you mean 'role-null'?)"),
]


@pytest.mark.parametrize("fmt", ["json", "junit", "github", "sarif"])
def test_validate_reports_an_io_error_in_its_format(fmt: str, capsys) -> None:
    code, out, err = _run(["validate", "--format", fmt, ENV_SPEC, "no/such/file.yaml"], capsys)
    assert code == 2
    assert err.splitlines() == ["mpigen: no/such/file.yaml: no such file or folder"]
    if fmt == "json":
        report = json.loads(out)
        assert (report["files"], report["errors"]) == (["no/such/file.yaml"], 1)
        assert report["diagnostics"] == [{"file": "no/such/file.yaml", "line": None, "column": None, "path": "",
                                          "code": "io-error", "severity": "error",
                                          "message": "no such file or folder"}]
    elif fmt == "junit":
        assert '<failure type="io-error" message="no such file or folder">' in out
    elif fmt == "sarif":
        [result] = json.loads(out)["runs"][0]["results"]
        assert (result["ruleId"], result["message"]["text"]) == ("io-error", "no such file or folder")
    else:
        assert out == "::error file=no/such/file.yaml,title=io-error::no such file or folder\n"


def test_validate_reports_a_usage_error_in_json_and_nothing_on_stdout_in_text(capsys) -> None:
    code, out, _ = _run(["validate", "--format", "json", "--operator-version", "v9", ENV_SPEC], capsys)
    assert code == 2
    [diagnostic] = json.loads(out)["diagnostics"]
    assert (diagnostic["file"], diagnostic["code"]) == ("", "usage-error")
    assert diagnostic["message"].startswith("--operator-version: 'v9' is not an operator version")
    code, out, err = _run(["validate", "no/such/file.yaml"], capsys)
    assert (code, out) == (2, "")  # text: the message on stderr only


def test_the_synopsis_lists_every_gang_each_command_takes() -> None:
    """The synopsis of docs/commands.md names, for every command with --gang, exactly the choices it takes."""
    import click

    from mpigen.main import COMMANDS, cli

    synopsis = {}
    for line in (ROOT / "docs" / "commands.md").read_text().splitlines():
        found = re.match(r"mpigen ((?:import )?\w+) .*--gang ([a-z|-]+)", line)
        if found:
            synopsis[found[1]] = found[2].split("|")
    context = click.Context(cli)
    taking = {}
    for name in COMMANDS:
        command = cli.get_command(context, name)
        commands = {f"{name} {sub}": command.get_command(context, sub) for sub in command.list_commands(context)} \
            if isinstance(command, click.Group) else {name: command}
        for shown, each in commands.items():
            for param in getattr(each, "params", []):
                if param.name == "gang":
                    taking[shown] = list(param.type.choices)
    assert taking.keys() == {"diagnose", "explain", "import manifest", "migrate", "podgroup", "validate"}
    assert synopsis == taking


def test_rules_in_text_have_no_markup(capsys) -> None:
    """The docstrings are reStructuredText (``literal``, *emphasis*); a terminal gets the words."""
    code, out, _ = _run(["rules"], capsys)
    assert code == 0
    assert "``" not in out and "*name*" not in out
    assert "serves MPIJob only as kubeflow.org/v2beta1 (its CRD in manifests/base/kubeflow.org_mpijobs.yaml)" in out
    assert "or a port name: a quoted \"8080\" is a name" in out
    assert "*_TOKEN" in out or "*_ID" in out  # a glob in a literal is not emphasis
    code, markdown, _ = _run(["rules", "--format", "markdown"], capsys)
    assert "``kubeflow.org/v2beta1``" in markdown  # Markdown renders it as code


@pytest.mark.parametrize("argv, code, line", COMMAND_LINES, ids=[" ".join(a) or "(none)" for a, _, _ in COMMAND_LINES])
def test_command_lines(argv: list[str], code: int, line: str, capsys) -> None:
    got, out, err = _run(argv, capsys)
    assert got == code, err
    assert any(printed.startswith(line) for printed in (out + err).splitlines()), out + err
    assert "Traceback" not in err


@pytest.mark.parametrize("paths", [*([path] for path in VALIDATE), VALIDATE, ["specs", "golden", "specs"]],
                         ids=lambda paths: " ".join(paths) if len(paths) < 4 else "every file")
def test_validate_ends_with_its_summary_and_exits_1_on_errors(paths: list[str], capsys) -> None:
    code, out, err = _run(["validate", *paths], capsys)
    summary = SUMMARY.match(err.splitlines()[-1])
    assert summary, err
    assert code == (1 if int(summary[1]) else 0)
    assert int(summary[1]) == sum(1 for line in out.splitlines() if ": error " in line)


def test_console_script_and_module_run_main() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"mpigen": "mpigen.main:main"}
    assert "from .main import main" in (ROOT / "mpigen" / "__main__.py").read_text()


@pytest.mark.parametrize("argv", [["build", "-"], ["build", "-", "--env", "prod"], ["validate", "-"],
                                  ["validate", "-", "golden"]], ids=" ".join)
def test_stdin_through_a_real_process(argv: list[str]) -> None:
    spec = (ROOT / ENV_SPEC).read_bytes()
    piped = subprocess.run([sys.executable, "-m", "mpigen", *argv], input=spec, capture_output=True, cwd=ROOT)
    named = subprocess.run([sys.executable, "-m", "mpigen", *[ENV_SPEC if a == "-" else a for a in argv]],
                           capture_output=True, cwd=ROOT)
    assert piped.returncode == named.returncode
    assert piped.stdout.replace(b"<stdin>", ENV_SPEC.encode()) == named.stdout
    assert piped.stderr.replace(b"<stdin>", ENV_SPEC.encode()) == named.stderr
    assert b"Traceback" not in piped.stderr


# What a command's start-up must not import: each is a visible part of a cold start (BENCHMARKS.md).
# Every command loads click, and only its own module of mpigen.commands; these are what the
# commands below never need (`--help` imports every command, to list them).
# The Kubernetes client (mpigen.kube) is loaded only with --kube-context or --kubeconfig.
LIVE = ("mpigen.kube", "kubernetes", "urllib3")
NOT_IMPORTED = {
    "--help": ("jsonschema", "jsonschema_rs", "deepdiff", "multiprocessing", "concurrent.futures", *LIVE),
    "build": ("mpigen.validation", "json", "pathlib", "fractions", "decimal", "jsonschema", "jsonschema_rs", "deepdiff",
              "multiprocessing", "concurrent.futures", *LIVE),
    "validate": ("multiprocessing", "concurrent.futures", "xml.sax", "jsonschema", "deepdiff", *LIVE),
}


def _imported(argv: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> set[str]:
    """The modules a fresh interpreter holds after running ``mpigen ARGV`` (which must exit 0)."""
    probe = ("import sys, os\n"
             "from mpigen.main import main\n"
             "sys.stdout = open(os.devnull, 'w')\n"
             "code = main(sys.argv[1:])\n"
             "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
             "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split())


def _banned(imported: set[str], banned: tuple[str, ...]) -> list[str]:
    return sorted(name for name in imported for prefix in banned if name == prefix or name.startswith(prefix + "."))


@pytest.mark.parametrize("argv", [["--help"], ["build", ENV_SPEC, "--env", "prod"], ["build", "specs/pytorch-ddp.yaml"],
                                  ["validate", "golden/horovod-volcano/base.yaml", "specs"]], ids=" ".join)
def test_start_up_leaves_heavy_modules_unimported(argv: list[str]) -> None:
    imported = _imported(argv)
    commands = sorted(name for name in imported if name.startswith("mpigen.commands."))
    if argv[0] == "--help":
        assert commands == sorted(f"mpigen.commands.{module}" for module in
                                  ("argocd", "build", "check", "diagnose", "explain", "init", "migrate", "podgroup", "rules",
                                   "validate"))
    else:
        assert commands == [f"mpigen.commands.{argv[0]}"]
    assert _banned(imported, NOT_IMPORTED[argv[0]]) == []


# A check with nothing changed answers from its cache: it compiles nothing, validates nothing and
# writes nothing (the writer's tempfile and shutil come with a write).
WARM_CHECK_NOT_IMPORTED = ("mpigen.pipeline", "mpigen.validation", "mpigen.lint", "jsonschema_rs", "tempfile", "shutil",
                           "deepdiff", "multiprocessing", "concurrent.futures", *LIVE)


def test_a_check_with_nothing_changed_imports_no_compiler_and_no_writer(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "specs").mkdir(parents=True)
    (repo / "specs" / "job.yaml").write_bytes((ROOT / ENV_SPEC).read_bytes())
    (repo / ".mpigen.yaml").write_text("specs: [specs/*.yaml]\noutput: deploy\n")
    env = {**os.environ, "MPIGEN_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-m", "mpigen", "check", "--fix"], cwd=repo, env=env, check=True,
                   capture_output=True)
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)  # a check with no cache, whatever --fix left
    cold = _imported(["check"], repo, env)  # compiles, and fills the cache: what the banned names catch
    assert {"mpigen.pipeline", "mpigen.validation", "tempfile"} <= cold
    # The cache written well after the trees (as a check a few seconds later writes it), so that
    # their stat alone vouches for them: else each file is hashed and the cache written again.
    (cache,) = (tmp_path / "cache").glob("check-*.json")
    later = cache.stat().st_mtime_ns + 10_000_000_000
    os.utime(cache, ns=(later, later))
    assert _banned(_imported(["check"], repo, env), WARM_CHECK_NOT_IMPORTED) == []


def test_build_shows_notes_with_verbose_only(capsys) -> None:
    """A TrainJob build's notes (the default runtimes assumed, the runtime copy written) are -v's."""
    spec = "specs/trainjob-deepspeed-infiniband.yaml"
    code, out, err = _run(["build", spec], capsys)
    assert code == 0 and out and err == ""
    code, _, err = _run(["build", "-v", spec], capsys)
    assert code == 0 and " info default-runtime " in err and " info runtime-copy " in err
