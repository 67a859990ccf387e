"""The hooks of ``.pre-commit-hooks.yaml`` under the real pre-commit, stopping real ``git commit``s.

What is tested, and why this way: pre-commit installs a hook repository from a *commit* (it
fetches ``rev`` from ``repo``), so pointing it at this checkout's HEAD would test the last commit,
not the files under test (new or edited files are not committed yet), and ``pre-commit try-repo``
would leave out untracked files and never run ``git commit``. So the module fixture copies the
state under test -- every file of the working tree that git tracks or would track (``git ls-files
--cached --others --exclude-standard``; this checkout is only read) -- into a fresh repository and
commits it there. The projects below name that repository and commit in ``.pre-commit-config.yaml``
exactly as a user names mpigen's, run ``pre-commit install``, and commit with ``git``: what runs
is the real ``.pre-commit-hooks.yaml`` and mpigen installed by pre-commit from that commit
(``pip install .``, so packaging is tested too).

COST: pre-commit builds the hooks' Python environment from PyPI (network to PyPI; about half a
minute, more on a cold pip cache). Both hooks share one repository and rev, hence one environment,
installed once for the whole module (``pre-commit install-hooks`` in the module fixture, under a
temporary PRE_COMMIT_HOME). Git runs with a private global configuration (user, no signing, no
system configuration) so the machine's settings cannot change the outcome.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pre_commit  # noqa: F401 - in the test extra (pip install -e '.[test]'): missing, this module fails
import pytest

from tests.golden.cases import ROOT

if shutil.which("git") is None:  # pragma: no cover
    pytest.skip("git is not installed", allow_module_level=True)

SPEC = """\
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: demo
spec:
  framework: mpi
  image: example/train:1
  command: [python, train.py]
  workers: {workers}
  resources: {{gpu: 1}}
  environments:
    prod: {{workers: 16}}
"""


@dataclass
class Hooks:
    repo: Path  # the state under test, committed
    rev: str
    env: dict[str, str]

    def config(self, *hook_ids: str) -> str:
        hooks = "".join(f"      - id: {hook_id}\n" for hook_id in hook_ids)
        return f"repos:\n  - repo: {self.repo}\n    rev: {self.rev}\n    hooks:\n{hooks}"


def sh(args: list[str], cwd: Path, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=900)
    if check and done.returncode != 0:
        pytest.fail(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}")
    return done


def git_env(home: Path) -> dict[str, str]:
    """The environment of every command: a private git configuration and PRE_COMMIT_HOME.

    No PYTHONPATH: the hooks must import the mpigen pre-commit installed, not this checkout.
    """
    gitconfig = home / "gitconfig"
    gitconfig.write_text("[user]\n\tname = mpigen tests\n\temail = tests@mpigen.invalid\n"
                         "[commit]\n\tgpgsign = false\n[tag]\n\tgpgsign = false\n"
                         "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GIT_", "PRE_COMMIT")) and k not in ("SKIP", "MPIGEN_DEBUG", "PYTHONPATH")}
    env.update(GIT_CONFIG_GLOBAL=str(gitconfig), GIT_CONFIG_NOSYSTEM="1", PRE_COMMIT_HOME=str(home / "cache"),
               PRE_COMMIT_COLOR="never")
    return env


def snapshot_of_working_tree(dest: Path, env: dict[str, str]) -> str:
    """Commit the files under test into a new repository at ``dest``; returns the commit."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            env=env, capture_output=True)
    if listed.returncode != 0:
        pytest.skip(f"{ROOT} is not a git checkout: {listed.stderr.decode(errors='replace').strip()}")
    for rel in sorted(set(listed.stdout.decode().split("\0")) - {""}):
        src, dst = ROOT / rel, dest / rel
        if not os.path.lexists(src):
            continue  # deleted in the working tree: not part of the state under test
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        elif src.is_file():
            shutil.copy2(src, dst)
    assert (dest / ".pre-commit-hooks.yaml").is_file()
    sh(["git", "init", "-q"], dest, env)
    sh(["git", "add", "-A"], dest, env)
    sh(["git", "commit", "-q", "-m", "the state under test"], dest, env)
    return sh(["git", "rev-parse", "HEAD"], dest, env).stdout.strip()


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Hooks:
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = git_env(home)
    source = tmp_path_factory.mktemp("mpigen-under-test")
    rev = snapshot_of_working_tree(source, env)
    found = Hooks(source, rev, env)
    # Install the one environment both hooks use, once for the module.
    warmup = tmp_path_factory.mktemp("warmup")
    sh(["git", "init", "-q"], warmup, env)
    (warmup / ".pre-commit-config.yaml").write_text(found.config("mpigen-validate", "mpigen-check"))
    sh([sys.executable, "-m", "pre_commit", "install-hooks"], warmup, env)
    return found


def new_project(path: Path, hooks: Hooks, *hook_ids: str) -> Path:
    """A repository with a spec, its tree written by mpigen, a configuration and the hooks installed."""
    path.mkdir()
    sh(["git", "init", "-q"], path, hooks.env)
    (path / "specs").mkdir()
    (path / "specs/demo.yaml").write_text(SPEC.format(workers=2))
    (path / ".mpigen.yaml").write_text('specs: ["specs/*.yaml"]\noutput: deploy\n')
    (path / ".pre-commit-config.yaml").write_text(hooks.config(*hook_ids))
    mpigen(["build", "specs/demo.yaml", "-o", "deploy"], path, hooks.env)
    sh([sys.executable, "-m", "pre_commit", "install"], path, hooks.env)
    return path


def mpigen(args: list[str], cwd: Path, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess:
    return sh([sys.executable, "-m", "mpigen", *args], cwd, env, check)


def commit(project: Path, env: dict[str, str], message: str) -> subprocess.CompletedProcess:
    sh(["git", "add", "-A"], project, env)
    return sh(["git", "commit", "-m", message], project, env, check=False)


def commits(project: Path, env: dict[str, str]) -> int:
    done = sh(["git", "rev-list", "--count", "--all"], project, env, check=False)
    return int(done.stdout.strip()) if done.returncode == 0 else 0


def test_hooks_file_declares_both_hooks() -> None:
    import yaml

    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"mpigen-validate", "mpigen-check"}
    assert hooks["mpigen-validate"]["entry"] == "mpigen validate"
    assert "--strict" not in hooks["mpigen-validate"].get("args", [])
    assert hooks["mpigen-check"]["entry"] == "mpigen check"
    assert hooks["mpigen-check"]["pass_filenames"] is False
    assert hooks["mpigen-check"]["always_run"] is True  # a commit that only deletes a spec stages no file
    assert hooks["mpigen-validate"]["types"] == ["yaml"]
    for hook in hooks.values():
        assert hook["language"] == "python"


def test_check_hook_stops_a_commit_whose_tree_drifted(hooks: Hooks, tmp_path: Path) -> None:
    env = hooks.env
    project = new_project(tmp_path / "project", hooks, "mpigen-check")
    readme = project / "deploy/demo/README.md"
    readme.write_text("# kept by hand next to the generated tree\n")

    done = commit(project, env, "specs and their trees")
    assert done.returncode == 0, done.stdout
    assert "mpigen check" in done.stdout and "Passed" in done.stdout
    assert commits(project, env) == 1

    # The spec changes, the tree is not regenerated: the commit is stopped and says why.
    (project / "specs/demo.yaml").write_text(SPEC.format(workers=3))
    done = commit(project, env, "more workers, tree forgotten")
    assert done.returncode != 0, done.stdout
    assert "Failed" in done.stdout
    assert "deploy/demo/base/mpijob.yaml: differs from the spec" in done.stdout
    assert "spec.mpiReplicaSpecs.Worker.replicas: 2 -> 3" in done.stdout
    assert "1 of 1 tree drifted" in done.stdout
    assert commits(project, env) == 1

    # mpigen check --fix rewrites the tree; the same commit then passes.
    fixed = mpigen(["check", "--fix"], project, env)
    assert "rewrote deploy/demo" in fixed.stdout
    assert readme.read_text() == "# kept by hand next to the generated tree\n"
    done = commit(project, env, "more workers")
    assert done.returncode == 0, done.stdout
    assert "Passed" in done.stdout
    assert commits(project, env) == 2
    assert "replicas: 3" in (project / "deploy/demo/base/mpijob.yaml").read_text()
    assert sh(["git", "status", "--porcelain"], project, env).stdout == ""


def test_validate_hook_stops_an_invalid_spec(hooks: Hooks, tmp_path: Path) -> None:
    env = hooks.env
    project = new_project(tmp_path / "project", hooks, "mpigen-validate")

    done = commit(project, env, "a valid spec and its tree")
    assert done.returncode == 0, done.stdout
    assert "mpigen validate" in done.stdout and "Passed" in done.stdout
    assert commits(project, env) == 1

    (project / "specs/demo.yaml").write_text(SPEC.format(workers=-1))
    done = commit(project, env, "an invalid spec")
    assert done.returncode != 0, done.stdout
    assert "Failed" in done.stdout
    assert "specs/demo.yaml:9:12: error" in done.stdout
    assert "(spec.workers)" in done.stdout
    assert commits(project, env) == 1


def test_check_hook_stops_a_commit_that_only_deletes_a_spec(hooks: Hooks, tmp_path: Path) -> None:
    """pre-commit passes hooks the files a commit adds or changes, never the ones it deletes: a
    commit of nothing but ``git rm specs/demo.yaml`` has no file for a hook of ``types: [yaml]``,
    which pre-commit then skips. mpigen-check runs anyway and finds the tree the spec left."""
    env = hooks.env
    project = new_project(tmp_path / "project", hooks, "mpigen-check")
    readme = project / "deploy/demo/README.md"
    readme.write_text("# kept by hand next to the generated tree\n")
    assert commit(project, env, "a spec and its tree").returncode == 0
    assert commits(project, env) == 1

    sh(["git", "rm", "-q", "specs/demo.yaml"], project, env)
    staged = sh(["git", "diff", "--cached", "--name-status"], project, env).stdout
    assert staged == "D\tspecs/demo.yaml\n"  # the commit only deletes
    done = sh(["git", "commit", "-m", "the job is gone"], project, env, check=False)
    assert done.returncode != 0, done.stdout
    assert "mpigen check" in done.stdout and "Failed" in done.stdout
    assert "deploy/demo: written by mpigen for job 'demo', which no spec defines any more" in done.stdout
    assert commits(project, env) == 1

    fixed = mpigen(["check", "--fix"], project, env)
    assert "removed deploy/demo" in fixed.stdout
    assert readme.read_text() == "# kept by hand next to the generated tree\n"
    assert sorted(p.relative_to(project).as_posix() for p in (project / "deploy").rglob("*")) == [
        "deploy/demo", "deploy/demo/README.md"]
    done = commit(project, env, "the job is gone, and its tree")
    assert done.returncode == 0, done.stdout
    assert "mpigen check" in done.stdout and "Passed" in done.stdout
    assert commits(project, env) == 2
    assert sh(["git", "status", "--porcelain"], project, env).stdout == ""


def init_project(tmp_path: Path, *init_args: str) -> tuple[Path, dict[str, str]]:
    """A git repository set up by ``mpigen init`` (its hooks are repo: local, language: system:
    the mpigen of this interpreter, put first on PATH), and the environment of its commands."""
    home = tmp_path / "home"
    home.mkdir()
    env = git_env(home)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    project = tmp_path / "project"
    project.mkdir()
    sh(["git", "init", "-q"], project, env)
    done = mpigen(["init", *init_args], project, env)
    assert "wrote .pre-commit-config.yaml" in done.stdout
    return project, env


def commit_passing_both_hooks(project: Path, env: dict[str, str], message: str) -> None:
    done = commit(project, env, message)
    assert done.returncode == 0, done.stdout
    assert re.search(r"^mpigen validate\.+Passed$", done.stdout, re.M), done.stdout
    assert re.search(r"^mpigen check\.+Passed$", done.stdout, re.M), done.stdout


def test_a_repository_set_up_by_init_runs_both_hooks(tmp_path: Path) -> None:
    """mpigen init's .pre-commit-config.yaml (repo: local, the mpigen on PATH) under the real
    pre-commit: the first commit passes both hooks; a spec changed without its tree, and a spec
    deleted without its tree, are stopped until mpigen check --fix."""
    project, env = init_project(tmp_path, "--name", "demo")
    mpigen(["check", "--fix"], project, env)
    sh([sys.executable, "-m", "pre_commit", "install"], project, env)

    commit_passing_both_hooks(project, env, "a repository set up by mpigen init")
    assert commits(project, env) == 1

    spec = project / "specs/demo.yaml"
    spec.write_text(spec.read_text().replace("  workers: 2 ", "  workers: 3 "))
    done = commit(project, env, "more workers, tree forgotten")
    assert done.returncode != 0, done.stdout
    assert "spec.mpiReplicaSpecs.Worker.replicas: 2 -> 3" in done.stdout
    mpigen(["check", "--fix"], project, env)
    assert commit(project, env, "more workers").returncode == 0
    assert commits(project, env) == 2

    sh(["git", "rm", "-q", "specs/demo.yaml"], project, env)
    done = sh(["git", "commit", "-m", "the job is gone"], project, env, check=False)
    assert done.returncode != 0, done.stdout
    assert "deploy/demo: written by mpigen for job 'demo', which no spec defines any more" in done.stdout
    mpigen(["check", "--fix"], project, env)
    done = commit(project, env, "the job is gone, and its tree")
    assert done.returncode == 0, done.stdout
    assert commits(project, env) == 3
    assert sh(["git", "status", "--porcelain"], project, env).stdout == ""


def test_init_commits_the_tree_of_a_trainjob_spec_with_a_gang_through_both_hooks(tmp_path: Path) -> None:
    """A TrainJob spec with a gang builds a TrainingRuntime beside its TrainJob, in a file of its
    own: mpigen-validate (which pre-commit gives the staged files a few at a time, in no set
    order) knows that runtime, and passes the tree mpigen check --fix wrote (it refused it with
    trainjob-runtime-missing)."""
    project, env = init_project(tmp_path)
    shutil.copy(ROOT / "specs/trainjob-deepspeed-volcano.yaml", project / "specs/gpt.yaml")
    fixed = mpigen(["check", "--fix"], project, env)
    assert "rewrote deploy/gpt-deepspeed (5 files)" in fixed.stdout
    assert (project / "deploy/gpt-deepspeed/base/trainingruntime.yaml").is_file()
    sh([sys.executable, "-m", "pre_commit", "install"], project, env)

    commit_passing_both_hooks(project, env, "a TrainJob with a Volcano gang")
    assert commits(project, env) == 1
    assert sh(["git", "status", "--porcelain"], project, env).stdout == ""

    # Only the TrainJob's file staged: its runtime, committed beside it, is still known.
    spec = project / "specs/gpt.yaml"
    spec.write_text(spec.read_text().replace("activeDeadlineSeconds: 86400", "activeDeadlineSeconds: 43200"))
    mpigen(["check", "--fix"], project, env)
    staged = sh(["git", "status", "--porcelain"], project, env).stdout
    assert sorted(staged.split()) == sorted(["M", "M", "deploy/gpt-deepspeed/base/trainjob.yaml", "specs/gpt.yaml"])
    done = commit(project, env, "half the deadline")
    assert done.returncode == 0, done.stdout
    assert re.search(r"^mpigen validate\.+Passed$", done.stdout, re.M), done.stdout
    assert commits(project, env) == 2
