"""Forged environments handed to other ecosystems: OpenEnv, verifiers, installable packages.

Every adapter serves the same thing, a forged run directory (``env/`` + ``tasks.jsonl``), through
the one serving core (:class:`autoforge.serve.service.EnvService`): episodes start from a task's
S0, tool calls run in the sandboxed runtime, and the reward is the rollout's own
(:func:`autoforge.rollout.reward.compute_reward`: final state hash == S* hash and every required
output said). The adapters only translate protocols.

- :mod:`autoforge.adapters.forged`: a run directory (or installed package) as a served env;
- :mod:`autoforge.adapters.openenv`: an OpenEnv ``MCPEnvironment`` (``openenv-core``), its
  server app and client, and a TRL ``environment_factory`` class;
- :mod:`autoforge.adapters.verifiers`: a verifiers ``MultiTurnEnv`` (tools, simulated user as
  the responder, exact-state rubric);
- :mod:`autoforge.adapters.package`: ``autoforge export verifiers``: an installable package
  (optionally a wheel) holding the environment and its tasks, with entry points.

The third-party libraries are imported only by the module that needs them.
"""

__all__ = [
    "create_openenv_app",
    "export_package",
    "load_forged",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.adapters.forged import load_forged as load_forged
    from autoforge.adapters.openenv import create_openenv_app as create_openenv_app
    from autoforge.adapters.package import export_package as export_package

_LAZY: dict[str, str] = {
    "create_openenv_app": "autoforge.adapters.openenv",
    "export_package": "autoforge.adapters.package",
    "load_forged": "autoforge.adapters.forged",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
