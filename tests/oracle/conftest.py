"""The oracle tests' shared requirement: the go command, which builds the oracles."""

from __future__ import annotations

import shutil

import pytest

NO_GO = ("the go command is needed to build the oracles (tests/oracle); install Go, or deselect the oracle tests "
         "with -m 'not oracle'")


@pytest.fixture(scope="session")
def go() -> str:
    """The go command. Without it every test that runs an oracle fails alike (a test that needs
    the real operators and cannot reach them has not passed)."""
    path = shutil.which("go")
    if path is None:
        pytest.fail(NO_GO)
    return path
