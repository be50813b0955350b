"""Rollout test setup: the fakes module on ``sys.path`` and a small task fixture."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rollout_fakes import make_task  # type: ignore[import-not-found]

from autoforge.tasks.model import Task


@pytest.fixture
def task() -> Task:
    """Cancel order o1 (gold: o1 cancelled; required output: its total 1250)."""
    return make_task()  # type: ignore[no-any-return]
