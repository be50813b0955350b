"""Fixtures for the task-synthesis tests: the bundled bookstore environment.

Uses the real runtime ``autoforge.env.Environment`` when it exists; until then a minimal local
stand-in with the same contract (only here, in the tests).
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from autoforge.env.spec import EnvironmentSpec
from autoforge.examples import example_path


@dataclass
class _Obs:
    ok: bool
    content: str
    result: Any = None
    error_kind: str | None = None


class _StandInEpisode:
    def __init__(self, env: _StandInEnv, state: dict[str, Any]) -> None:
        self._env = env
        self._initial = copy.deepcopy(state)
        self.state = copy.deepcopy(state)

    def call(self, name: str, arguments: dict[str, Any]) -> _Obs:
        fn = self._env.functions.get(name)
        if fn is None:
            return _Obs(False, f"unknown tool {name}", error_kind="unknown_tool")
        try:
            result = fn(self.state, **copy.deepcopy(arguments))
        except self._env.tool_error as exc:
            return _Obs(False, str(exc), error_kind="tool_error")
        except TypeError as exc:
            return _Obs(False, str(exc), error_kind="invalid_arguments")
        return _Obs(True, json.dumps(result), result=result)

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.state)

    def state_hash(self) -> str:
        text = json.dumps(self.state, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def reset(self) -> None:
        self.state = copy.deepcopy(self._initial)


class _StandInEnv:
    def __init__(self, root: Path) -> None:
        self.spec = EnvironmentSpec.model_validate_json((root / "environment.json").read_text())
        self.initial_state = json.loads((root / "initial_state.json").read_text())
        self.tool_error = type("ToolError", (Exception,), {})
        namespace: dict[str, Any] = {"ToolError": self.tool_error, "__name__": "tools"}
        exec(compile((root / "tools.py").read_text(), str(root / "tools.py"), "exec"), namespace)
        self.functions = {t.name: namespace[t.name] for t in self.spec.tools}

    def episode(self, state: dict[str, Any] | None = None) -> _StandInEpisode:
        return _StandInEpisode(self, self.initial_state if state is None else state)


def load_env(root: Path) -> Any:
    """The environment at ``root`` through the real runtime, or the stand-in until it exists."""
    try:
        from autoforge.env import Environment  # type: ignore[attr-defined]

        return Environment.load(root)
    except Exception:  # the runtime is not there (or not working) yet
        return _StandInEnv(root)


@pytest.fixture(scope="session")
def bookstore_env() -> Any:
    """The bundled bookstore environment."""
    return load_env(example_path("bookstore"))


@pytest.fixture(scope="session")
def bookstore_spec(bookstore_env: Any) -> EnvironmentSpec:
    """The bookstore's environment spec."""
    return bookstore_env.spec


@pytest.fixture(scope="session")
def generated(bookstore_env: Any) -> Any:
    """A small batch of medium tasks on the bookstore (generated once per session)."""
    from autoforge.tasks.pipeline import generate_tasks

    return generate_tasks(bookstore_env, 8, "medium", seed=0)
