"""The harness binary, built once per session; without the go command every test that needs it
fails (a test of Argo CD's behaviour that cannot run Argo CD's Lua engine has not passed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.argocd import harness


@pytest.fixture(scope="session")
def argocd_lua() -> Path:
    try:
        return harness.build()
    except harness.BuildError as exc:
        pytest.fail(str(exc))
