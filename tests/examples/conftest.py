"""Fixtures for the bundled examples: the bookstore's files, loaded without the env runtime.

The tool module is executed the way the runtime does it in spirit: plain ``exec`` with a
``ToolError`` class put in its globals (the tools never import it).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.examples import example_path


class ExampleToolError(Exception):
    """Stands in for the runtime's ToolError when the tools run in these tests."""


@dataclass
class Bookstore:
    """The bookstore example, loaded: spec, tool functions, initial state, sequences."""

    root: Path
    spec: EnvironmentSpec
    namespace: dict[str, Any]
    initial_state: dict[str, Any]
    sequences: list[list[dict[str, Any]]]

    def tool(self, name: str) -> Callable[..., Any]:
        """The tool function called ``name``."""
        func: Callable[..., Any] = self.namespace[name]
        return func

    def fresh_state(self) -> dict[str, Any]:
        """An independent copy of the initial state."""
        return copy.deepcopy(self.initial_state)


def load_tools(path: Path) -> dict[str, Any]:
    """Execute a tools.py with ``ToolError`` injected; returns the module globals."""
    namespace: dict[str, Any] = {"ToolError": ExampleToolError, "__name__": "bookstore_tools"}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


@pytest.fixture(scope="session")
def bookstore() -> Bookstore:
    """The bookstore example as shipped in the package."""
    root = example_path("bookstore")
    return Bookstore(
        root=root,
        spec=EnvironmentSpec.model_validate_json((root / "environment.json").read_text()),
        namespace=load_tools(root / "tools.py"),
        initial_state=json.loads((root / "initial_state.json").read_text()),
        sequences=json.loads((root / "sequences.json").read_text()),
    )
