"""End-to-end tests against the local cluster of `make cluster` (`make e2e` starts it).

Without a running cluster every test here fails (not skips): `make e2e` is the only way they run,
and `make test` leaves this folder out. Each test module adds its figure (`A/N ...`) to FIGURES;
they are printed together at the end of the run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from cluster import local

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MPIGEN = shutil.which("mpigen", path=str(BIN)) or "mpigen"
KUBECTL = shutil.which("kubectl", path=str(BIN)) or "kubectl"
FIGURES: list[str] = []  # printed in the terminal summary
RUNTIME_CACHE_SECONDS = 15
NOT_CACHED_YET = "Runtime must be created before the TrainJob is created"  # Trainer v2.3.0 pkg/runtime/core


@dataclass
class Kube:
    """kubectl and mpigen against the running local cluster."""

    kubeconfig: Path
    namespaces: dict[str, str] = field(default_factory=dict)  # gang mode -> namespace its operators watch

    def env(self) -> dict[str, str]:
        return dict(os.environ, KUBECONFIG=str(self.kubeconfig))

    def kubectl(self, *args: str, stdin: str | None = None, check: bool = True,
                timeout: float = 120) -> subprocess.CompletedProcess:
        done = subprocess.run([KUBECTL, *args], input=stdin, capture_output=True, text=True, env=self.env(),
                              timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"kubectl {' '.join(args)} failed:\n{done.stderr}{done.stdout}")
        return done

    def apply_when_cached(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        """``kubectl apply ARGS``, retried for RUNTIME_CACHE_SECONDS while Trainer's webhook refuses
        a TrainJob whose runtime was just created: it reads runtimes from its manager's cache, which
        sees a new one a moment later. The last answer is returned (not checked)."""
        deadline = time.monotonic() + RUNTIME_CACHE_SECONDS
        while True:
            done = self.kubectl("apply", *args, stdin=stdin, check=False)
            if done.returncode == 0 or NOT_CACHED_YET not in done.stderr or time.monotonic() > deadline:
                return done
            time.sleep(0.5)

    def get(self, *args: str) -> dict:
        return json.loads(self.kubectl("get", *args, "-o", "json").stdout)

    def mpigen(self, *args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
        return subprocess.run([MPIGEN, *args], input=stdin, capture_output=True, text=True, env=self.env(),
                              cwd=cwd, timeout=300)


@pytest.fixture(scope="session")
def kube() -> Kube:
    state = local.load_state()
    if not local.healthy(state):
        pytest.fail("no local cluster is running in this checkout: run `make e2e` (or `make cluster` first)")
    namespaces: dict[str, str] = {}
    for ns in state["namespaces"]:
        namespaces.setdefault(ns["gang"], ns["name"])
    return Kube(local.KUBECONFIG, namespaces)


@pytest.fixture(scope="session")
def spec_namespaces(kube: Kube) -> list[str]:
    """The namespaces the example specs and goldens name exist, so that the API server can take them."""
    names = set()
    for path in [*ROOT.glob("specs/*.yaml"), *ROOT.glob("golden/*/*.yaml"), *ROOT.glob("tests/cases/trainjobs/*.yaml")]:
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict):
                names.add((doc.get("metadata") or {}).get("namespace") or "default")
    names |= {"research", "nlp", "default"}  # tests/random_specs.py draws from these
    objects = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n}} for n in sorted(names)]
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-",
                 stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": objects}))
    return sorted(names)


@pytest.fixture(scope="session")
def nodes_file(kube: Kube, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cluster's Nodes and PriorityClasses as kubectl prints them, joined by a --- line: what
    `mpigen explain --cluster FILE` is given."""
    path = tmp_path_factory.mktemp("cluster") / "cluster.yaml"
    nodes = kube.kubectl("get", "nodes", "-o", "yaml").stdout
    classes = kube.kubectl("get", "priorityclasses", "-o", "yaml").stdout
    path.write_text(nodes + "---\n" + classes)
    return path


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001 - pytest's hook
    if FIGURES:
        terminalreporter.section("mpigen on a real cluster")
        for line in FIGURES:
            terminalreporter.write_line(line)
