"""Fixtures for the task-synthesis tests: the bundled bookstore environment (real runtime)."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.examples import example_path


@pytest.fixture(scope="session")
def bookstore_env() -> Environment:
    """The bundled bookstore environment."""
    return Environment.load(example_path("bookstore"))


@pytest.fixture(scope="session")
def bookstore_spec(bookstore_env: Any) -> EnvironmentSpec:
    """The bookstore's environment spec."""
    return bookstore_env.spec


@pytest.fixture(scope="session")
def generated(bookstore_env: Any) -> Any:
    """A small batch of medium tasks on the bookstore (generated once per session)."""
    from autoforge.tasks.pipeline import generate_tasks

    return generate_tasks(bookstore_env, 8, "medium", seed=0)
