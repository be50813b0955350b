"""One error tree: every exception autoforge defines derives from ``AutoforgeError``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import autoforge
from autoforge.errors import USER_FIXABLE, AutoforgeError, UserError

# Packages whose import pulls in a training stack; their errors are checked where installed.
_HEAVY = ("autoforge.rl.trl", "autoforge.rl.verl", "autoforge.examples", "autoforge.adapters")

#: Exceptions that are deliberately outside the tree, each with its reason.
_OUTSIDE = {
    # the environment's own business error: raised by tool code, shown to the agent
    "autoforge.env.errors.ToolError",
    # a scripted test client called too often: a bug in the test, an AssertionError on purpose
    "autoforge.llm.types.ScriptExhausted",
}


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(autoforge.__path__, "autoforge."):
        if not info.name.startswith(_HEAVY):
            names.append(info.name)
    return names


def _defined_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra that is not installed
            continue
        for _, obj in inspect.getmembers(module, inspect.isclass):
            # BaseException-only signals (a call's deadline) must escape ``except Exception``
            # in tool code, warnings are not errors, and private classes are control flow
            public = not obj.__name__.startswith("_") and obj.__module__ == name
            if public and issubclass(obj, Exception) and not issubclass(obj, Warning):
                found[f"{name}.{obj.__qualname__}"] = obj
    return found


def test_every_autoforge_exception_is_in_the_tree() -> None:
    found = _defined_exceptions()
    assert len(found) >= 10  # the walk did find the package's errors
    stray = sorted(
        name
        for name, cls in found.items()
        if name not in _OUTSIDE and not issubclass(cls, AutoforgeError)
    )
    assert stray == [], f"exceptions outside autoforge.errors.AutoforgeError: {stray}"


@pytest.mark.parametrize(
    "path",
    [
        "autoforge.tooldocs.spec.DocParseError",
        "autoforge.env.errors.EnvLoadError",
        "autoforge.env.errors.SandboxViolation",
        "autoforge.llm.types.LLMFailure",
        "autoforge.synth.state.infer.DataShapeError",
    ],
)
def test_user_fixable_errors_are_user_errors(path: str) -> None:
    module, _, name = path.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, UserError)
    assert issubclass(cls, USER_FIXABLE)


def test_the_cli_reports_the_tree_not_its_own_list() -> None:
    from autoforge.cli import main

    assert main.USER_ERRORS is USER_FIXABLE
