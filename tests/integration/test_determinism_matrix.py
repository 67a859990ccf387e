"""Byte-identical output of every command across hash seeds, locales and Python 3.11 to 3.13.

``tests/integration/test_determinism.py`` covers ``mpigen build`` to stdout. This matrix covers
the rest: ``validate`` in every format over folders (so discovery order counts too), ``explain``
(text and YAML, a spec and a manifest), ``podgroup``, ``check`` of in-step and drifted trees,
``rules``, ``argocd`` and the trees ``build -o`` writes (every file, ``.mpigen-owned`` included).

Each configuration runs all the commands in one fresh interpreter (a driver calls
``mpigen.main.main`` once per command with file descriptors 1 and 2 redirected, so stdout and
stderr keep the encoding the locale gives them at start-up) and must produce the same bytes, exit
codes and trees as the reference (PYTHONHASHSEED=0, LC_ALL=C.UTF-8, the running Python 3.11):

- PYTHONHASHSEED 1, 4242 and random; LC_ALL C, C.UTF-8 and POSIX; and C with UTF-8 mode and
  locale coercion switched off (an ASCII stdout).
- Python 3.12 and 3.13, when an interpreter is found (``python3.12`` on PATH or under
  ``~/.pyenv/versions``): a virtualenv per version, with the running environment's exact
  versions of mpigen's runtime dependencies, is kept in ``~/.cache/mpigen-test-pythons`` (made
  once, from PyPI; marked ``network``), and mpigen itself is imported from this checkout. Without
  such an interpreter the test is skipped with the reason: Debian bookworm ships only 3.11, PyPI
  has no CPython builds, and ``uv python install`` downloads from GitHub. With one, mpigen's
  dependencies must install on it: when they do not (or no virtualenv can be made), the test
  fails, as mpigen itself would fail there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mpigen.main import main
from tests.golden.cases import ROOT

DRIVER = r"""
import json, os, sys, tempfile
from mpigen.main import main

commands, placeholder, out_root = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
results = []
for args in commands:
    args = [a.replace(placeholder, out_root) for a in args]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush(); sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1); os.dup2(err.fileno(), 2)
        try:
            rc = main(args)
        finally:
            sys.stdout.flush(); sys.stderr.flush()
            os.dup2(saved[0], 1); os.dup2(saved[1], 2)
            os.close(saved[0]); os.close(saved[1])
        out.seek(0); err.seek(0)
        results.append({"args": args, "rc": rc, "out": out.read().hex(), "err": err.read().hex()})
json.dump(results, sys.__stdout__)
"""
OUT = "@OUT@"  # replaced by each run's own output folder (and replaced back in what it prints)

VALIDATE_PATHS = ["tests/cases/lint", "tests/cases/schemas", "tests/cases/validate", "tests/cases/specs/valid",
                  "specs", "golden"]
COMMANDS = [
    ["validate", "--format", "json", *VALIDATE_PATHS],
    ["validate", "--format", "text", "-v", *VALIDATE_PATHS],
    ["validate", "--format", "junit", *VALIDATE_PATHS],
    ["validate", "--format", "github", "--strict", *VALIDATE_PATHS],
    ["validate", "--format", "json", "--cluster", "specs/cluster/priorityclasses.yaml", "--gang", "volcano",
     "tests/cases/lint/min-resources-mismatch", "tests/cases/specs/invalid"],
    ["explain", "specs/scheduler-plugins-envs.yaml", "--env", "prod", "--format", "yaml"],
    ["explain", "specs/priority-order.yaml", "--cluster", "specs/cluster/priorityclasses.yaml"],
    ["explain", "specs/intel-mpi.yaml", "--cluster-domain", "cluster.local"],
    ["explain", "golden/horovod-volcano/base.yaml", "--format", "yaml"],
    ["podgroup", "golden/horovod-volcano/base.yaml", "--gang", "volcano"],
    ["podgroup", "golden/scheduler-plugins-envs/prod.yaml", "--gang", "scheduler-plugins",
     "--cluster", "specs/cluster/priorityclasses.yaml"],
    ["rules", "--format", "markdown"],
    ["argocd"],
    ["build", "specs/scheduler-plugins-envs.yaml", "-o", f"{OUT}/trees"],
    ["build", "specs/horovod-volcano.yaml", "-o", f"{OUT}/trees", "--operator-version", "v0.4.0"],
    ["check", "--no-cache", "specs/scheduler-plugins-envs.yaml", "specs/priority-order.yaml",
     "specs/horovod-volcano.yaml", "--cluster", "specs/cluster/priorityclasses.yaml", "-o", f"{OUT}/drifted"],
]


def _drifted_trees(folder: Path) -> None:
    """Trees for ``mpigen check``: one in step, others with a changed field, a reformatted file,
    a missing file and a file of the user's."""
    for spec in ("scheduler-plugins-envs", "priority-order", "horovod-volcano"):
        args = ["build", f"specs/{spec}.yaml", "-o", str(folder)]
        if spec == "priority-order":
            args += ["--cluster", "specs/cluster/priorityclasses.yaml"]
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            assert main(args) == 0
        finally:
            os.chdir(cwd)
    patch = folder / "resnet-ddp" / "overlays" / "prod" / "mpijob-patch.yaml"
    patch.write_text(patch.read_text().replace("17", "18").replace("512Gi", "511Gi"))
    base = folder / "resnet-ddp" / "base" / "mpijob.yaml"
    base.write_text(base.read_text().replace("horovod/horovod:0.28.1", "'horovod/horovod:0.28.1'"))
    (folder / "resnet-ddp" / "overlays" / "dev" / "kustomization.yaml").unlink()
    job = folder / "tensorflow-benchmarks" / "base" / "mpijob.yaml"
    job.write_text(job.read_text().replace("replicas: 2", "replicas: 3").replace("cpu: '4'", "cpu: '5'"))
    (folder / "tensorflow-benchmarks" / "README.md").write_text("mine\n")


def _tree_map(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(python: str, env: dict[str, str], tmp: Path, name: str) -> dict[str, object]:
    """Every command in one interpreter: results (paths of its own folder masked) and trees."""
    out_root = tmp / name
    out_root.mkdir()
    env = dict(env, XDG_CACHE_HOME=str(out_root / "xdg-cache"))  # check's cache: never shared
    shutil.copytree(tmp / "drifted-template", out_root / "drifted", copy_function=shutil.copy2)
    result = subprocess.run([python, "-c", DRIVER, json.dumps(COMMANDS), OUT, str(out_root)],
                            cwd=ROOT, env=env, capture_output=True, check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    runs = json.loads(result.stdout)
    masked = []
    for run, args in zip(runs, COMMANDS):
        masked.append({"args": args, "rc": run["rc"],
                       "out": bytes.fromhex(run["out"]).replace(str(out_root).encode(), OUT.encode()),
                       "err": bytes.fromhex(run["err"]).replace(str(out_root).encode(), OUT.encode())})
    return {"runs": masked, "trees": _tree_map(out_root / "trees"), "drifted": _tree_map(out_root / "drifted")}


def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LC_", "PYTHON")) and k not in ("LANG", "LANGUAGE", "MPIGEN_DEBUG")}
    return env


def _compare(reference: dict[str, object], other: dict[str, object], label: str) -> None:
    for want, got in zip(reference["runs"], other["runs"]):  # type: ignore[arg-type]
        where = f"{label}: mpigen {' '.join(want['args'])}"
        assert got["rc"] == want["rc"], f"{where}: exit {got['rc']} != {want['rc']}"
        assert got["out"] == want["out"], f"{where}: stdout differs"
        assert got["err"] == want["err"], f"{where}: stderr differs"
    assert other["trees"] == reference["trees"], f"{label}: the trees build -o wrote differ"
    assert other["drifted"] == reference["drifted"], f"{label}: check changed the trees it read"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("determinism")
    _drifted_trees(tmp / "drifted-template")
    return tmp


@pytest.fixture(scope="module")
def reference(workspace: Path) -> dict[str, object]:
    env = dict(_base_env(), PYTHONHASHSEED="0", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    result = _run(sys.executable, env, workspace, "reference")
    codes = [run["rc"] for run in result["runs"]]  # type: ignore[index]
    # The matrix is only meaningful if the commands did their work: validate finds errors (1), the
    # rest succeed, check finds drift (1).
    assert codes == [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [
        (run["args"], run["rc"], run["err"][:300]) for run in result["runs"]]  # type: ignore[index]
    assert b"drifted" in result["runs"][-1]["out"]  # type: ignore[index]
    return result


CONFIGS = {
    "seed-1-C": {"PYTHONHASHSEED": "1", "LC_ALL": "C", "LANG": "C"},
    "seed-4242-POSIX": {"PYTHONHASHSEED": "4242", "LC_ALL": "POSIX", "LANG": "POSIX"},
    "seed-random-C.UTF-8": {"PYTHONHASHSEED": "random", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
    "ascii-stdout": {"PYTHONHASHSEED": "77", "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0",
                     "PYTHONCOERCECLOCALE": "0"},
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_byte_identical_across_seeds_and_locales(config: str, workspace: Path, reference: dict[str, object]) -> None:
    env = dict(_base_env(), **CONFIGS[config])
    _compare(reference, _run(sys.executable, env, workspace, config), config)


# ------------------------------------------------------------------------ other Pythons

CACHE = Path(os.environ.get("MPIGEN_TEST_PYTHONS") or Path.home() / ".cache" / "mpigen-test-pythons")


def _find_python(version: str) -> str | None:
    found = shutil.which(f"python{version}")
    if found:
        probe = subprocess.run([found, "--version"], capture_output=True, text=True, check=False)
        if probe.returncode == 0:  # a pyenv shim answers even when the version is not selected
            return found
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    for folder in sorted(pyenv.glob(f"{version}.*"), reverse=True):
        candidate = folder / "bin" / f"python{version}"
        if candidate.is_file():
            return str(candidate)
    return None


def _runtime_pins() -> list[str]:
    """mpigen's runtime dependencies, recursively, at the versions installed here."""
    from importlib import metadata

    from packaging.requirements import Requirement

    pins: dict[str, str] = {}
    todo = [Requirement(r) for r in metadata.requires("mpigen") or []]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = req.name.lower().replace("_", "-")
        if name in pins:
            continue
        dist = metadata.distribution(req.name)
        pins[name] = dist.version
        todo += [Requirement(r) for r in dist.requires or []]
    return sorted(f"{name}=={version}" for name, version in pins.items())


def _venv(python: str, version: str) -> Path:
    """A virtualenv of ``python`` with the pinned dependencies (made once, then reused)."""
    pins = _runtime_pins()
    key = hashlib.sha256(("\n".join(pins) + python).encode()).hexdigest()[:12]
    folder = CACHE / f"py{version}-{key}"
    stamp = folder / ".complete"
    if stamp.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    made = subprocess.run([python, "-m", "venv", str(folder)], capture_output=True, text=True, check=False)
    if made.returncode != 0:
        pytest.fail(f"python{version} ({python}) cannot make a virtualenv: {made.stderr.strip()[-300:]}")
    pip = subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet",
                          "--disable-pip-version-check", "--prefer-binary", *pins],
                         capture_output=True, text=True, check=False, timeout=900)
    if pip.returncode != 0:  # a supported Python mpigen does not install on: a failure, not a skip
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"mpigen's dependencies ({', '.join(pins)}) do not install on python{version} from PyPI: "
                    f"{pip.stderr.strip()[-500:]}")
    stamp.write_text("\n".join(pins) + "\n")
    return folder


def _source_tree(tmp: Path) -> Path:
    """This checkout's mpigen importable without installing it: ``mpigen/`` with the shipped
    ``schemas/`` as ``mpigen._schemas``, as the wheel lays them out (symlinks, nothing copied)."""
    root = tmp / "source"
    package = root / "mpigen"
    package.mkdir(parents=True)
    for entry in (ROOT / "mpigen").iterdir():
        if entry.name not in ("__pycache__", "_schemas"):
            (package / entry.name).symlink_to(entry)
    (package / "_schemas").symlink_to(ROOT / "schemas")
    return root


@pytest.mark.network
@pytest.mark.parametrize("version", ["3.12", "3.13"])
def test_byte_identical_across_python_versions(version: str, workspace: Path, reference: dict[str, object]) -> None:
    python = _find_python(version)
    if python is None:
        pytest.skip(f"no Python {version} here (python{version} on PATH, ~/.pyenv/versions/{version}.*): "
                    "Debian bookworm's packages have only 3.11, PyPI has no CPython builds and "
                    "`uv python install` downloads from GitHub, which is not reachable")
    venv = _venv(python, version)
    env = dict(_base_env(), PYTHONHASHSEED="0", LC_ALL="C.UTF-8", LANG="C.UTF-8",
               PYTHONPATH=str(_source_tree(workspace / f"src-{version}")), PYTHONDONTWRITEBYTECODE="1",
               PYTHONSAFEPATH="1")  # not the checkout's own mpigen/ from the working directory
    interpreter = str(venv / "bin" / "python")
    probe = subprocess.run([interpreter, "-c", "import mpigen, sys; print(mpigen.__file__, sys.version)"],
                           cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert probe.returncode == 0 and str(workspace) in probe.stdout, probe.stdout + probe.stderr
    _compare(reference, _run(interpreter, env, workspace, f"python{version}"), f"Python {version}")


def test_dependencies_that_do_not_install_fail_the_matrix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A supported Python that mpigen's dependencies do not install on is a failure, not a skip."""
    monkeypatch.setattr(sys.modules[__name__], "CACHE", tmp_path)

    def fake_run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        failed = "pip" in args
        return subprocess.CompletedProcess(args, 1 if failed else 0, "", "ERROR: No matching distribution" if failed
                                           else "")

    monkeypatch.setattr(subprocess, "run", fake_run)
    with pytest.raises(BaseException) as caught:  # a skip too, which must not be what happens
        _venv(sys.executable, "3.12")
    assert caught.type is pytest.fail.Exception, caught.type
    assert "do not install on python3.12 from PyPI: ERROR: No matching" in str(caught.value)
    assert not list(tmp_path.iterdir())  # nothing half-made is kept for the next run
