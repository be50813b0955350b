"""Shared test fixtures: where the benchmark data lives, and markers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def bench_root() -> Path:
    """The extracted benchmark data (``../shared/benchmarks`` beside the checkout)."""
    env = os.environ.get("AUTOFORGE_BENCH_ROOT")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "benchmarks"


@pytest.fixture(scope="session")
def benchmarks_dir() -> Path:
    """Path of the benchmark data; the tests that need it fail loudly when it is missing."""
    root = bench_root()
    assert root.is_dir(), f"benchmark data not found at {root} (set AUTOFORGE_BENCH_ROOT)"
    return root
