"""Shared test setup: mpigen's caches go to a temporary folder, never the user's ~/.cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    import os

    os.environ["MPIGEN_CACHE_DIR"] = str(tmp_path_factory.mktemp("mpigen-cache"))
