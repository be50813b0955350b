"""ERPO on one machine with TRL (the ``[train]`` extra): see ``docs/verl.md``.

The trainer-neutral parts it shares with verl live in ``autoforge.rl``:
:mod:`~autoforge.rl.tokens` (token traces, chat-template rendering), :mod:`~autoforge.rl.policy`
(batched sampling, the token-recording agent client), :mod:`~autoforge.rl.episode` (autoforge
episodes as training rollouts).

* :mod:`.batch` -- one step's dynamic sampling and ERPO advantages (no trainer);
* :mod:`.trainer` -- ``ERPOTrainer``, the ``GRPOTrainer`` subclass (imports trl);
* :mod:`.run` -- ``train_trl``: from files to a trained policy;
* :mod:`.model` -- the embedded GGUF tokenizer, the tiny test model, policy loading.

Importing this package imports neither torch nor trl.
"""

__all__ = [
    "TRLRunConfig",
    "load_environments",
    "load_task_pool",
    "train_trl",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.rl.trl.run import TRLRunConfig as TRLRunConfig
    from autoforge.rl.trl.run import load_environments as load_environments
    from autoforge.rl.trl.run import load_task_pool as load_task_pool
    from autoforge.rl.trl.run import train_trl as train_trl

_LAZY: dict[str, str] = {
    "TRLRunConfig": "autoforge.rl.trl.run",
    "load_environments": "autoforge.rl.trl.run",
    "load_task_pool": "autoforge.rl.trl.run",
    "train_trl": "autoforge.rl.trl.run",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
