"""Players that need no model, for sanity runs, training smoke runs and tests: the oracle agents
and the scripted user, plus a client that routes each role to its own player. They are the
``oracle`` agent and the ``scripted`` user of the role registry (:mod:`.roles`).

- :class:`OracleClient` answers the ``agent`` role for one task: it asks for the user's
  details once, then makes the task's gold calls one per step (``task.gold_calls``: the gold
  calls of a synthesized task, the gold actions of a benchmark task), then says the required
  outputs. ``autoforge eval --agent oracle`` with it should reach pass^k = 1 on every task whose
  gold is reproducible; anything less points at the environment or the tasks, not at an agent.
- :class:`AskedOracle` is the gold agent that acts only on what the user said, as a support
  agent would: it asks for each fact a gold call needs that the user has not given (one short
  question naming the fact, never its value), performs a write once its request was said, then
  says the required outputs. It measures the simulated user (did it convey its goals?), not
  the agent.
- :func:`scripted_user` states the request, then the known facts, then thanks and stops.
- :class:`RoutedClient` sends ``chat``/``structured`` calls to a per-role client.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from autoforge.llm import ChatResponse
from autoforge.rollout.goals import Goal, conveyed, fact_leaves, has_value, normal, task_goals
from autoforge.rollout.user import ScriptedUser
from autoforge.rollout.user_guards import STOP_TOKEN, fact_label
from autoforge.tasks import Task

ASK_DETAILS = "Sure, I can help with that. Could you give me the details I need (ids, names)?"
DONE_FOLLOW_UP = "Is there anything else I can help you with?"
OPEN_QUESTION = "Sure, I can help. What would you like me to do?"
#: How often :class:`AskedOracle` asks for one fact before it goes ahead without it.
FACT_ASKS = 2


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


def scripted_users(client: Any, config: Any) -> Any:
    """``user scripted`` of the role registry: :func:`scripted_user` (no model)."""
    return scripted_user


def oracle_agent(client: Any, config: Any) -> Any:
    """``agent oracle`` of the role registry: one :class:`OracleClient` per task (no model)."""
    return OracleClient


def _request_text(scenario: str) -> str:
    """The user's opening line: the ``What you ask for:`` line of a synthesized scenario,
    else the scenario's first paragraph."""
    for line in scenario.splitlines():
        if line.startswith("What you ask for:"):
            return line.removeprefix("What you ask for:").strip()
    return scenario.strip().split("\n\n")[0]


def fact_question(goal: Goal, again: bool = False) -> str:
    """The agent's question for a fact goal: its label ("email", "book title"; a numbered
    duplicate such as ``email_2`` reads as ``email``) in the question sentence itself, never
    its value."""
    name = goal.key.removeprefix("fact:")
    label = fact_label(re.sub(r"[_\s-]*\d+$", "", name) or name)
    text = (
        f"Sorry, I still need it before I can go ahead: what is the {label}?"
        if again
        else f"Before I go ahead, could you tell me the {label}?"
    )
    if any(has_value(text, v) for v in goal.values):  # a label that holds the value itself
        return "Before I go ahead, I need one more detail from you. Could you give it to me?"
    return text


def first_uses(facts: Sequence[Goal], calls: Sequence[Any]) -> dict[str, int]:
    """Per fact goal key, the call before which the agent needs it: the first call whose
    arguments hold one of its values when that call is a write (what to write, asked when the
    write is due), else the first call: a fact a read needs (who the customer is) or no call
    holds (it picks the target, "the book whose title is ...") is asked before acting."""
    leaves = [{normal(v) for v in fact_leaves(json.dumps(a.arguments))} for a in calls]
    out: dict[str, int] = {}
    for goal in facts:
        wanted = {normal(v) for v in goal.values}
        at = next((i for i, held in enumerate(leaves) if wanted & held), 0)
        out[goal.key] = at if calls and calls[at].writes else 0
    return out


class AskedOracle:
    """The gold agent of one task that acts only on what the user said (no model).

    Before acting, and before each write, it asks for the facts needed by then
    (:func:`first_uses`) which the user holds but has not said, one question per turn, each
    at most :data:`FACT_ASKS` times; it performs a write once its request goal was said and a
    read once any goal was; after the calls it says the required outputs, then asks whether
    there is anything else.
    """

    def __init__(self, task: Task) -> None:
        self.goals = task_goals(task)
        self.facts = [g for g in self.goals if g.kind == "fact"]
        self.calls = [a for a in task.gold_calls if a.requestor != "user"]
        self.needed_at = first_uses(self.facts, self.calls)
        self.outputs = [o.text for o in task.required_outputs]
        self.asks: dict[str, int] = {}
        self.next_call = self.writes_seen = 0
        self.answered = False

    def _asked(self, said: set[str]) -> bool:
        """Whether the next gold call was asked for."""
        action = self.calls[self.next_call]
        if not action.writes:
            return bool(said)
        names = [g.key for g in self.goals if g.key.endswith(f":{action.name}")]
        mine = f"request:{self.writes_seen}:{action.name}"
        return mine in said if mine in names else any(n in said for n in names)

    def missing_fact(self, said: set[str]) -> Goal | None:
        """The next fact to ask for before the next call (or before the closing): needed by
        then, not said, asked fewer than :data:`FACT_ASKS` times."""
        for goal in self.facts:
            due = self.needed_at[goal.key] <= self.next_call
            if due and goal.key not in said and self.asks.get(goal.key, 0) < FACT_ASKS:
                return goal
        return None

    def _next(self, said: set[str]) -> dict[str, Any]:
        ready = self.next_call < len(self.calls) and self._asked(said)
        ending = self.next_call >= len(self.calls) and not self.answered
        fact = self.missing_fact(said) if said and (ready or ending) else None
        if fact is not None:
            asked = self.asks.get(fact.key, 0)
            self.asks[fact.key] = asked + 1
            return {"role": "assistant", "content": fact_question(fact, again=asked > 0)}
        if ready:
            action = self.calls[self.next_call]
            self.next_call += 1
            self.writes_seen += int(bool(action.writes))
            return _call_message(self.next_call, action.name, dict(action.arguments))
        if ending:
            self.answered = True
            return {"role": "assistant", "content": closing_text(self.outputs)}
        return {"role": "assistant", "content": DONE_FOLLOW_UP if said else OPEN_QUESTION}

    async def chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> ChatResponse:
        """The next message for the chat so far (what the user said decides it)."""
        user = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
        message = self._next(conveyed(self.goals, user))
        return ChatResponse(message=message, role="agent", purpose=str(kwargs["purpose"]))


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
