"""Argo CD's Lua and jq, for mpigen's Argo CD health checks and ignoreDifferences
(:mod:`mpigen.gitops.argocd`).

``argocd-lua/`` is a Go module (``main.go``, ``go.mod``, ``go.sum``) that runs a health script on
an object, and ignoreDifferences jq path expressions on an object, as Argo CD v3.5.1 does, with
the Lua engine (gopher-lua), JSON and YAML modules and jq engine (gojq) Argo CD's go.mod pins,
fetched through the Go module proxy into ``.cache/gomod``. :func:`build` compiles it once into
``tests/argocd/bin/argocd-lua`` (gitignored; rebuilt when the module's files are newer), as
``tests/oracle/harness.py`` builds the oracles.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MODULE = HERE / "argocd-lua"
BINARY = HERE / "bin" / "argocd-lua"
GOMODCACHE = ROOT / ".cache" / "gomod"
CUSTOMIZATIONS = ROOT / "mpigen" / "gitops" / "resource_customizations"
NO_GO = "the go command is needed to build tests/argocd/argocd-lua (Argo CD's Lua engine); install Go"


class BuildError(RuntimeError):
    pass


def build() -> Path:
    """``go build`` the harness into ``tests/argocd/bin/`` unless the binary is newer than its sources."""
    go = shutil.which("go")
    if go is None:
        raise BuildError(NO_GO)
    sources = [MODULE / "go.mod", MODULE / "go.sum", *MODULE.glob("*.go")]
    if BINARY.exists() and BINARY.stat().st_mtime >= max(p.stat().st_mtime for p in sources):
        return BINARY
    BINARY.parent.mkdir(exist_ok=True)
    env = dict(os.environ, GOFLAGS="-mod=mod", GOMODCACHE=str(GOMODCACHE))
    done = subprocess.run([go, "build", "-trimpath", "-o", str(BINARY), "."], cwd=MODULE, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BuildError(f"go build in {MODULE} failed:\n{done.stderr}")
    return BINARY


def run(binary: Path, mode: str, requests: list[dict]) -> list[dict]:
    """One harness process for a batch: ``mode`` is ``health`` or ``normalize`` (see main.go)."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([str(binary), mode], input=lines, capture_output=True, text=True, check=False, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"argocd-lua {mode} exited {done.returncode}: {done.stderr}")
    responses = [json.loads(line) for line in done.stdout.splitlines()]
    if [r.get("id") for r in responses] != [r["id"] for r in requests]:
        raise RuntimeError(f"argocd-lua {mode} answered {len(responses)} of {len(requests)} requests:\n{done.stderr}")
    return responses


@dataclass(frozen=True)
class Case:
    """One test of a kind's health_test.yaml: the fixture and the health Argo CD must show."""

    kind: str  # group/Kind
    input_path: str
    status: str
    message: str

    @property
    def folder(self) -> Path:
        return CUSTOMIZATIONS / self.kind

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.input_path}"


def kinds() -> list[str]:
    """Every ``group/Kind`` folder with a health.lua, as Argo CD's TestLuaHealthScript walks them."""
    return sorted(str(p.parent.relative_to(CUSTOMIZATIONS)) for p in CUSTOMIZATIONS.glob("*/*/health.lua"))


def cases() -> list[Case]:
    out = []
    for kind in kinds():
        tests = yaml.safe_load((CUSTOMIZATIONS / kind / "health_test.yaml").read_text())["tests"]
        out += [Case(kind, t["inputPath"], t["healthStatus"]["status"], t["healthStatus"].get("message", ""))
                for t in tests]
    return out
