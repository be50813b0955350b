"""Fakes for rollout tests: a tiny environment episode and a role-routed scripted LLM client.

Imported by the tests of this folder (``conftest.py`` puts the folder on ``sys.path``).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from autoforge.llm import LLMClient
from autoforge.llm.transport import RecordedRequest
from autoforge.tasks.model import GoldCall, Task, UserScenario

INITIAL = {"orders": {"o1": {"status": "open", "total": 1250}, "o2": {"status": "open"}}}


def state_hash(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


@dataclass
class Obs:
    ok: bool
    content: str
    error_kind: str | None = None
    result: Any = None


class FakeEpisode:
    """Orders with get/cancel tools and a transfer tool; unknown tools are agent mistakes."""

    def __init__(self, state: dict[str, Any] | None = None, crash: bool = False) -> None:
        self.state = copy.deepcopy(state or INITIAL)
        self.crash = crash
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def call(self, name: str, arguments: dict[str, Any]) -> Obs:
        self.calls.append((name, arguments))
        if self.crash:
            raise RuntimeError("environment bug")
        if name == "transfer_to_human_agents":
            return Obs(True, "Transfer successful")
        order = self.state["orders"].get(arguments.get("order_id", ""))
        if name not in ("get_order", "cancel_order"):
            return Obs(False, f"Error: unknown tool {name}", "unknown_tool")
        if order is None:
            return Obs(False, "Error: order not found", "tool_error")
        if name == "cancel_order":
            order["status"] = "cancelled"
        return Obs(True, json.dumps(order), None, order)

    def state_hash(self) -> str:
        return state_hash(self.state)


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": n,
            "description": n,
            "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}},
        },
    }
    for n in ("get_order", "cancel_order", "transfer_to_human_agents")
]


def cancelled_hash() -> str:
    state = copy.deepcopy(INITIAL)
    state["orders"]["o1"]["status"] = "cancelled"
    return state_hash(state)


def make_task() -> Task:
    return Task(
        id="t1",
        env_id="shop",
        domain="shop",
        difficulty="easy",
        scenario="You want to cancel order o1.",
        user_facts={"order_id": "o1", "name": "Ada Lovelace"},
        final_state_hash=cancelled_hash(),
        required_outputs=["1250"],
    )


def call(name: str, **args: Any) -> dict[str, Any]:
    """A scripted assistant message with one native tool call."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"c_{name}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
        ],
    }


def routed(agent: Sequence[Any], user: Sequence[Any], judge: Sequence[Any] = ()) -> LLMClient:
    """A scripted client answering each role from its own queue, whatever the interleaving."""
    queues = {"agent": deque(agent), "user": deque(user), "judge": deque(judge)}
    total = sum(len(q) for q in queues.values())

    def answer(request: RecordedRequest) -> Any:
        queue = queues[request.role]
        if not queue:
            raise AssertionError(f"no scripted answer left for role {request.role}")
        item = queue.popleft()
        return item(request) if callable(item) and not isinstance(item, BaseException) else item

    items: list[Callable[[RecordedRequest], Any]] = [answer] * (total + 5)
    return LLMClient.scripted(items)


#: The opening request of :func:`two_writes_task`, as its scenario gives it.
TWO_WRITES_ASK = "Hi! Please water planter 4. Could you also prune the hedges of planter 4?"


def two_writes_task() -> Task:
    """A task of two writes on one record, with a brief that addresses the user as "you" (the
    shape the hand-labelled real episodes showed the user and the judge going wrong on)."""
    return Task(
        id="t2",
        env_id="greenhouse",
        scenario=UserScenario(
            intent="You want the agent to water planter 4; then prune the hedges of planter 4.",
            question=TWO_WRITES_ASK,
            known_info="planter 4",
        ),
        user_facts={"planter_id": "4"},
        gold_calls=[
            GoldCall(name="water_planter", arguments={"planter_id": "4"}, writes=True),
            GoldCall(name="prune_hedges", arguments={"planter_id": "4"}, writes=True),
        ],
    )
