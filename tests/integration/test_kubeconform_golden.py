"""Every golden manifest passes kubeconform -strict with mpigen's schemas; a broken one fails."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.golden.cases import GOLDEN, ROOT

LOCATION = "schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"
OUTPUTS = sorted(p for p in GOLDEN.glob("*/*.yaml") if p.name != "case.yaml")


def _kubeconform() -> str:
    path = shutil.which("kubeconform") or str(ROOT / "bin" / "kubeconform")
    assert Path(path).is_file(), "kubeconform is missing: `make tools` installs it into ./bin"
    return path


def _run(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([_kubeconform(), "-strict", "-summary", "-schema-location", LOCATION, str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


def _counts(stdout: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"(Valid|Invalid|Errors|Skipped): (\d+)", stdout)}


@pytest.mark.parametrize("path", OUTPUTS, ids=[p.relative_to(GOLDEN).as_posix() for p in OUTPUTS])
def test_golden_output_passes_kubeconform(path: Path) -> None:
    result = _run(path)
    counts = _counts(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert counts.get("Valid", 0) >= 1, f"kubeconform found no resources: {result.stdout}"
    assert counts.get("Skipped", 0) == 0 and counts.get("Errors", 0) == 0, result.stdout


def test_broken_output_fails_kubeconform(tmp_path: Path) -> None:
    text = (GOLDEN / "horovod-volcano" / "base.yaml").read_text()
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("slotsPerWorker: 1", "slotsPerWorker: one"))
    result = _run(broken)
    assert result.returncode == 1 and _counts(result.stdout).get("Invalid") == 1, result.stdout
