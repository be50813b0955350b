"""Players that need no model, for sanity runs and tests: the oracle agent and the scripted user,
plus a client that routes each role to its own player.

- :class:`OracleClient` answers the ``agent`` role for one task: it asks for the user's
  details once, then makes the task's gold calls one per step (``task.gold_calls``: the gold
  calls of a synthesized task, the gold actions of a benchmark task), then says the required
  outputs. ``autoforge eval --agent oracle`` with it should reach pass^k = 1 on every task whose
  gold is reproducible; anything less points at the environment or the tasks, not at an agent.
- :func:`scripted_user` states the request, then the known facts, then thanks and stops.
- :class:`RoutedClient` sends ``chat``/``structured`` calls to a per-role client.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from autoforge.llm import ChatResponse
from autoforge.rollout import STOP_TOKEN, ScriptedUser
from autoforge.tasks import Task

ASK_DETAILS = "Sure, I can help with that. Could you give me the details I need (ids, names)?"
DONE_FOLLOW_UP = "Is there anything else I can help you with?"


def _call_message(step: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"oracle_{step}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


def closing_text(outputs: list[str]) -> str:
    """The oracle's last message: every required output, verbatim."""
    if not outputs:
        return "All done: your request has been completed."
    return "All done. Here is what you asked for: " + "; ".join(outputs) + "."


class OracleClient:
    """The gold agent of one task, speaking the LLM client's ``chat`` interface (no model)."""

    def __init__(self, task: Task, *, ask_first: bool = True) -> None:
        gold = task.gold_calls
        self.calls = [(a.name, dict(a.arguments)) for a in gold if a.requestor != "user"]
        self.outputs = [o.text for o in task.required_outputs]
        self.phase = 0 if ask_first else 1
        self.next_call = 0
        self.closed = False

    def _next(self) -> dict[str, Any]:
        if self.phase == 0:
            self.phase = 1
            return {"role": "assistant", "content": ASK_DETAILS}
        if self.next_call < len(self.calls):
            name, arguments = self.calls[self.next_call]
            self.next_call += 1
            return _call_message(self.next_call, name, arguments)
        text = DONE_FOLLOW_UP if self.closed else closing_text(self.outputs)
        self.closed = True
        return {"role": "assistant", "content": text}

    async def chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> ChatResponse:
        """The next oracle message, whatever the context says."""
        return ChatResponse(message=self._next(), role="agent", purpose=str(kwargs["purpose"]))


def scripted_user(task: Task, seed: int = 0) -> ScriptedUser:
    """A user that asks, gives every known fact when asked, then thanks and stops."""
    facts = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in task.known_facts().items())
    request = _request_text(task.scenario.as_text())
    turns = [request, f"Sure. {facts}." if facts else "I have no other details."]
    turns.append(f"Thank you, that is all. {STOP_TOKEN}")
    return ScriptedUser(turns)


def _request_text(scenario: str) -> str:
    """The user's opening line: the ``What you ask for:`` line of a synthesized scenario,
    else the scenario's first paragraph."""
    for line in scenario.splitlines():
        if line.startswith("What you ask for:"):
            return line.removeprefix("What you ask for:").strip()
    return scenario.strip().split("\n\n")[0]


class RoutedClient:
    """A chat client that sends each role's calls to its own client (``default`` otherwise)."""

    def __init__(self, routes: Mapping[str, Any], default: Any) -> None:
        self.routes = dict(routes)
        self.default = default

    def _for(self, role: str) -> Any:
        return self.routes.get(role, self.default)

    async def chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
        return await self._for(str(kwargs.get("role", "agent"))).chat(messages, **kwargs)

    async def structured(self, messages: list[dict[str, Any]], output: Any, **kwargs: Any) -> Any:
        return await self._for(str(kwargs.get("role", "judge"))).structured(
            messages, output, **kwargs
        )
