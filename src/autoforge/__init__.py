"""autoforge: tool documentation in, verifiable RL environments, tasks and trained agents out.

The pipeline, one package per stage:

``tooldocs`` (ingest) -> ``synth`` (environment synthesis) -> ``env`` (runtime, sandbox, checker)
-> ``tasks`` (task synthesis) -> ``rollout`` (episodes, reward, judge) -> ``rl`` (ERPO) ->
``bench`` (evaluation). ``llm`` is the one seam every LLM call goes through; ``cli`` wires it up.

The names below are the public API; they are imported on first use, so ``import autoforge``
stays cheap::

    from autoforge import load_docs, synthesize, Environment, generate_tasks, run_episode
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

#: public name -> module that defines it (the stage that owns the concept)
_EXPORTS: dict[str, str] = {
    # errors
    "AutoforgeError": "autoforge.errors",
    "UserError": "autoforge.errors",
    # ingest
    "load_docs": "autoforge.tooldocs",
    "ToolDocs": "autoforge.tooldocs",
    "ToolSpec": "autoforge.tooldocs",
    # environments
    "Environment": "autoforge.env",
    "EnvironmentSpec": "autoforge.env",
    "ToolError": "autoforge.env",
    "check_environment": "autoforge.synth",
    "state_hash": "autoforge.env",
    # synthesis
    "synthesize": "autoforge.synth",
    "SynthOptions": "autoforge.synth",
    "run_fidelity": "autoforge.synth",
    # tasks
    "generate_tasks": "autoforge.tasks",
    "Task": "autoforge.tasks",
    "TaskSet": "autoforge.tasks",
    # rollouts
    "run_episode": "autoforge.rollout",
    "Runner": "autoforge.rollout",
    # evaluation
    "run_evaluation": "autoforge.bench",
    # training
    "compute_advantages": "autoforge.rl",
    "ERPOConfig": "autoforge.rl",
    # the LLM seam
    "LLMClient": "autoforge.llm",
    "get_client": "autoforge.llm",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'autoforge' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
