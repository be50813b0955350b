"""ERPO on clusters with verl (0.9.x): advantage estimator, trainer hook, agent loop, launch files.

Importing this package needs neither verl nor torch; the modules that subclass verl classes
(:mod:`.trainer`, :mod:`.agent_loop`) import verl themselves. See ``docs/verl.md`` for how the
pieces fit and why the environment id travels inside verl's ``uid``.

* :mod:`.estimator` -- ``erpo`` advantage estimator for verl's ``register_adv_est`` registry, and
  the ``uid`` encoding ``<env_id>~<task_id>~<nonce>`` (escaped) it reads environment ids from.
* :mod:`.trainer` -- ``autoforge_erpo`` trainer mode: verl's synchronous v1 trainer whose prompt
  uids carry the environment id (the one hook; verl forwards only ``uid`` to estimators).
* :mod:`.agent_loop` -- ``autoforge_agent``: one autoforge episode per rollout, token-in/token-out
  against verl's inference servers, response mask on the agent's tokens only.
* :mod:`.launch` -- ``autoforge train --backend verl --emit-config DIR``: a runnable config and
  launch script reproducing the paper's setup.
"""

from autoforge.rl.verl.estimator import (
    ESTIMATOR_NAME,
    UID_SEP,
    env_uid,
    erpo_outcome_advantage,
    split_uid,
)

__all__ = [
    "ESTIMATOR_NAME",
    "UID_SEP",
    "VerlLaunchSpec",
    "emit_config",
    "env_uid",
    "erpo_outcome_advantage",
    "split_uid",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.rl.verl.launch import VerlLaunchSpec as VerlLaunchSpec
    from autoforge.rl.verl.launch import emit_config as emit_config

_LAZY: dict[str, str] = {
    "VerlLaunchSpec": "autoforge.rl.verl.launch",
    "emit_config": "autoforge.rl.verl.launch",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
