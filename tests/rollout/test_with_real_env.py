"""The rollout over the real environment runtime (bundled bookstore example) end to end."""

from __future__ import annotations

import json

import pytest
from rollout_fakes import routed  # type: ignore[import-not-found]

from autoforge.env import Environment
from autoforge.rollout.agent import AgentConfig
from autoforge.rollout.episode import EpisodeConfig
from autoforge.rollout.runner import (
    RolloutDeps,
    Runner,
    bind_environment,
    episode_fn,
)
from autoforge.rollout.user import ScriptedUser
from autoforge.tasks.model import Task


@pytest.fixture(scope="module")
def bookstore():  # type: ignore[no-untyped-def]
    from autoforge.examples import example_path

    return Environment.load(example_path("bookstore"))


def cancel_call() -> dict[str, object]:
    args = {"order_id": "ORD-9", "reason": "ordered_by_mistake"}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "cancel_order", "arguments": json.dumps(args)},
            }
        ],
    }


async def test_episode_over_the_bookstore_runtime(bookstore, tmp_path) -> None:  # type: ignore[no-untyped-def]
    gold = bookstore.episode()
    assert gold.call("cancel_order", {"order_id": "ORD-9", "reason": "ordered_by_mistake"}).ok
    task = Task(
        id="cancel-ord-9",
        env_id="bookstore",
        scenario="Cancel order ORD-9, you ordered it by mistake.",
        user_facts={"order_id": "ORD-9"},
        final_state_hash=gold.state_hash(),
    )
    assert task.final_state_hash != bookstore.episode().state_hash()
    client = routed(agent=[cancel_call(), "Your order ORD-9 is cancelled."], user=[])
    deps = RolloutDeps(
        client=client,
        env_factory=lambda t: bind_environment(bookstore, t),
        user_factory=lambda t, s: ScriptedUser(["Please cancel ORD-9.", "Thanks ###STOP###"]),
    )
    fn = episode_fn(EpisodeConfig(agent=AgentConfig(tool_mode="native")), deps)
    runner = Runner(fn, checkpoint=tmp_path / "t.jsonl", progress=False)
    [traj] = await runner.run([task], trials=1)
    assert traj.reward == 1.0, traj.reward_reason
    assert traj.tool_calls[0].ok and traj.final_state_hash == task.final_state_hash
    agent_request = next(r for r in client.requests if r.role == "agent")
    assert {t["function"]["name"] for t in agent_request.tools or []} >= {"cancel_order"}
    assert agent_request.messages[0]["content"] == bookstore.spec.policy
