"""Shared fixtures: the anynt program and the repository's root.

The tests run the real `anynt serve-env`: ANYNT_BIN (set by `make test`) or
`anynt` on PATH. Without either they fail, with the message of
anynt.find_binary, rather than skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import anynt

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def binary() -> str:
    return anynt.find_binary()


@pytest.fixture(scope="session")
def repo() -> Path:
    if not (REPO / "corpus").is_dir():
        pytest.fail(f"the repository's corpus/ is not at {REPO}: run the tests from the repository")
    return REPO
