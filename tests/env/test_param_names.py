"""Documented parameter names Python or the sandbox refuse, or that hide a name tool code calls,
are renamed in the generated signature and mapped back from the documented name on every call."""

from __future__ import annotations

import keyword
from typing import Any

import pytest

from autoforge.env import Environment, EnvironmentSpec, python_param_name
from autoforge.env.calls.signatures import legacy_param_name
from autoforge.env.isolation.sandbox import ALLOWED_MODULES, BANNED_NAMES, SAFE_BUILTIN_NAMES
from autoforge.synth.rulecode.headers import signature
from autoforge.tooldocs import ToolSpec

REFUSED = sorted({*keyword.kwlist, *BANNED_NAMES, "state"})
HIDING = sorted({*SAFE_BUILTIN_NAMES, *ALLOWED_MODULES} - set(keyword.kwlist))


def _spec(name: str) -> ToolSpec:
    params = {"type": "object", "properties": {name: {}, "note": {}}, "required": [name]}
    return ToolSpec(name="echo", parameters=params)


def _env(tool: ToolSpec) -> Environment:
    line, names = signature(tool)
    held = names[next(iter(tool.param_names))]
    # the body calls builtins the parameter could have hidden
    source = f"{line}\n    return {{'got': {held}, 'n': len([{held}]), 's': str(sorted([1]))}}\n"
    return Environment.from_parts(EnvironmentSpec(name="t", tools=[tool]), source, None)


@pytest.mark.parametrize("name", [*REFUSED, *HIDING, "__secret", "x-rate-limit"])
def test_renamed_name_is_a_plain_python_name(name: str) -> None:
    py = python_param_name(name)
    assert py.isidentifier() and not keyword.iskeyword(py)
    assert py not in BANNED_NAMES and py not in SAFE_BUILTIN_NAMES and py not in ALLOWED_MODULES
    assert not py.startswith("__") and py != "state"


@pytest.mark.parametrize("name", [*REFUSED, *HIDING])
def test_tool_with_that_parameter_loads_and_is_called_by_its_documented_name(name: str) -> None:
    env = _env(_spec(name))
    obs = env.episode().call("echo", {name: 7, "note": "n"})
    assert obs.ok, obs.content
    assert obs.result == {"got": 7, "n": 1, "s": "[1]"}
    bad = env.episode().call("echo", {python_param_name(name): 7})
    assert not bad.ok and "unexpected argument" in bad.content


def test_ordinary_names_keep_their_name() -> None:
    for name in ("pet_id", "petId", "name", "status", "match", "case"):
        assert python_param_name(name) == name


@pytest.mark.parametrize("name", ["filter", "max", "format"])
def test_stored_environment_with_the_earlier_name_still_loads(name: str) -> None:
    assert legacy_param_name(name) == name
    tool = _spec(name)
    source = f"def echo(state, {name}, note=None):\n    return {name}\n"
    env = Environment.from_parts(EnvironmentSpec(name="t", tools=[tool]), source, None)
    assert env.episode().call("echo", {name: 3}).result == 3


def test_a_parameter_called_state_is_not_the_state() -> None:
    env = _env(_spec("state"))
    result: Any = env.episode().call("echo", {"state": "Ohio"}).result
    assert result["got"] == "Ohio"
