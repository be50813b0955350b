"""A forged run directory (or an installed environment package) as the adapters serve it.

One place that turns "what the user named" into a loaded :class:`EnvService` with tasks, so the
OpenEnv and verifiers adapters and the package exporter agree on what an environment is. The
resolution itself is :meth:`autoforge.env.EnvDir.resolve` (run dir, env dir, bundled example,
installed package); this module only adds what the adapters require on top: tasks to reward
against.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoforge.errors import UserError
from autoforge.serve import EnvService, Limits

#: Name of the tool an agent calls to end an episode with its final message (OpenEnv, TRL).
FINISH_TOOL = "finish_episode"
FINISH_DESCRIPTION = (
    "End the episode. Pass your final message to the user: state every piece of information "
    "they asked for. Call this once, after all other tool calls."
)


def load_forged(
    path: str | Path,
    tasks: str | Path | None = None,
    *,
    limits: Limits | None = None,
    call_timeout_s: float | None = None,
) -> EnvService:
    """The environment and tasks of a forged run (``UserError`` when it has no tasks).

    ``path``: a run directory, an environment directory (then ``tasks`` names the tasks file),
    a bundled example, or the name of an installed environment package.
    """
    from autoforge.serve import load_service

    service = load_service(path, tasks, limits=limits, call_timeout_s=call_timeout_s)
    if len(service.tasks) == 0:
        raise UserError(
            f"{path} has no tasks to reward against: give a run directory with tasks.jsonl "
            "(autoforge forge ... --out RUN_DIR) or pass the tasks file"
        )
    return service


def finish_tool_name(service: EnvService) -> str:
    """:data:`FINISH_TOOL`, refused when the environment already has a tool of that name."""
    if FINISH_TOOL in service.tool_names:
        raise UserError(
            f"environment {service.env_id!r} has its own tool named {FINISH_TOOL!r}, which the "
            "OpenEnv/TRL adapters reserve for ending an episode; rename that tool"
        )
    return FINISH_TOOL


def agent_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The assistant messages of an OpenAI-format conversation that carry text for the user."""
    return [
        {"role": "assistant", "content": m["content"]}
        for m in messages
        if m.get("role") == "assistant" and isinstance(m.get("content"), str) and m["content"]
    ]
