"""The episode loop with scripted LLM fakes: every end reason, thinking, trajectory contents."""

from __future__ import annotations

import json
from typing import Any

from rollout_fakes import TOOLS, FakeEpisode, call, routed  # type: ignore[import-not-found]

from autoforge.llm import TransportError
from autoforge.profiles import named_profile_values
from autoforge.rollout.agent import Agent, AgentConfig
from autoforge.rollout.episode import EpisodeLimits, run_episode
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.rollout.user import LLMUser, ScriptedUser
from autoforge.tasks.model import Task


def make_agent(client: Any, **cfg: Any) -> Agent:
    cfg.setdefault("tool_mode", "native")
    return Agent(client, policy="Be helpful.", tools=TOOLS, config=AgentConfig(**cfg), seed=7)


async def play(
    task: Task,
    client: Any,
    user: Any,
    env: FakeEpisode | None = None,
    limits: EpisodeLimits | None = None,
    **cfg: Any,
) -> Trajectory:
    return await run_episode(
        task, make_agent(client, **cfg), user, env or FakeEpisode(), limits=limits, trial=3, seed=7
    )


async def test_user_stop_success_with_full_record(task: Task) -> None:
    client = routed(
        agent=[call("cancel_order", order_id="o1"), "Done: order o1 (total 1,250) is cancelled."],
        user=["Please cancel my order o1.", "Thanks! ###STOP###"],
    )
    user = LLMUser(client, task, seed=7)
    traj = await play(task, client, user)
    assert traj.end_reason == EndReason.USER_STOP
    assert traj.reward == 1.0, traj.reward_reason
    assert (traj.task_id, traj.trial, traj.seed) == ("t1", 3, 7)
    assert [c.name for c in traj.tool_calls] == ["cancel_order"]
    assert traj.tool_calls[0].arguments == {"order_id": "o1"}
    assert json.loads(traj.tool_calls[0].observation)["status"] == "cancelled"
    roles = [m["role"] for m in traj.messages]
    assert roles == ["system", "assistant", "user", "assistant", "tool", "assistant"]
    assert traj.messages[4]["tool_call_id"] == traj.messages[3]["tool_calls"][0]["id"]
    assert traj.tokens["agent"].calls == 2 and traj.tokens["user"].calls == 2
    assert traj.tokens["agent"].prompt_tokens > 0
    assert traj.n_user_turns == 1 and traj.n_steps == 4
    assert traj.user_prompt_version == "user_v2" and traj.user_notes == []
    assert not traj.is_infra_error and traj.success


async def test_do_nothing_agent_scores_zero(task: Task) -> None:
    client = routed(agent=["I cannot help with that."], user=["Cancel o1", "ok ###STOP###"])
    traj = await play(task, client, LLMUser(client, task))
    assert traj.end_reason == EndReason.USER_STOP
    assert traj.reward == 0.0
    assert "DB" in traj.reward_reason and "missing required outputs" in traj.reward_reason


async def test_agent_stop_token(task: Task) -> None:
    client = routed(agent=["Goodbye ###STOP###"], user=["hi, cancel order o1"])
    traj = await play(task, client, LLMUser(client, task))
    assert traj.end_reason == EndReason.AGENT_STOP
    assert traj.messages[-1]["content"] == "Goodbye"
    assert traj.reward == 0.0


async def test_transfer_ends_episode(task: Task) -> None:
    client = routed(
        agent=[call("transfer_to_human_agents")], user=["Cancel my order o1, or get me a human"]
    )
    tau = named_profile_values("tau", "TRANSFER_TOOLS")
    traj = await play(task, client, LLMUser(client, task), transfer_tools=tau)
    assert traj.end_reason == EndReason.TRANSFER
    assert traj.tool_calls[-1].name == "transfer_to_human_agents"


async def test_transfer_tool_not_named_does_not_end_episode(task: Task) -> None:
    """Generic settings name no hand-off tool: the same call is an ordinary tool call."""
    client = routed(
        agent=[call("transfer_to_human_agents"), "A colleague will follow up."],
        user=["Cancel my order o1, or get me a human", "ok ###STOP###"],
    )
    traj = await play(task, client, LLMUser(client, task))
    assert traj.end_reason == EndReason.USER_STOP
    assert [c.name for c in traj.tool_calls] == ["transfer_to_human_agents"]


async def test_max_turns(task: Task) -> None:
    client = routed(agent=[call("get_order", order_id="o2")] * 10, user=["look at my order o1"])
    traj = await play(task, client, LLMUser(client, task), limits=EpisodeLimits(max_steps=4))
    assert traj.end_reason == EndReason.MAX_TURNS
    assert traj.n_steps == 4 and len(traj.tool_calls) == 3
    assert traj.reward == 0.0 and "did not finish" in traj.reward_reason


async def test_tool_error_budget(task: Task) -> None:
    client = routed(
        agent=[call("refund_everything")] * 5, user=["refund my order o1, or cancel it"]
    )
    limits = EpisodeLimits(tool_error_budget=2)
    traj = await play(task, client, LLMUser(client, task), limits=limits)
    assert traj.end_reason == EndReason.TOOL_ERROR_BUDGET
    assert traj.n_tool_errors == 3
    assert all(c.error_kind == "unknown_tool" for c in traj.tool_calls)


async def test_invalid_json_arguments_are_agent_errors(task: Task) -> None:
    bad = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "x", "type": "function", "function": {"name": "get_order", "arguments": "{oops"}}
        ],
    }
    client = routed(agent=[bad, "sorry"], user=["hi, cancel order o1", "bye ###STOP###"])
    env = FakeEpisode()
    traj = await play(task, client, LLMUser(client, task), env=env)
    assert traj.tool_calls[0].error_kind == "invalid_arguments"
    assert env.calls == []  # never reached the environment
    assert traj.n_tool_errors == 1


async def test_llm_failure_is_infra_error_not_zero(task: Task) -> None:
    errors = [TransportError("down", retryable=True)] * 5
    client = routed(agent=errors, user=["hi, cancel order o1"])
    traj = await play(task, client, LLMUser(client, task))
    assert traj.end_reason == EndReason.LLM_FAILURE
    assert traj.is_infra_error and traj.reward is None
    assert "LLMFailure" in (traj.infra_error or "")
    assert not traj.success


async def test_environment_crash_is_internal_error(task: Task) -> None:
    client = routed(agent=[call("get_order", order_id="o1")], user=["hi, cancel order o1"])
    traj = await play(task, client, LLMUser(client, task), env=FakeEpisode(crash=True))
    assert traj.end_reason == EndReason.INTERNAL_ERROR
    assert traj.is_infra_error and "environment bug" in (traj.infra_error or "")


async def test_scripted_user_runs_out(task: Task) -> None:
    client = routed(agent=["What is your order id?", "ok"], user=[])
    user = ScriptedUser(["cancel please", "o1"])
    traj = await play(task, client, user)
    assert traj.end_reason == EndReason.USER_STOP
    assert user.heard[0] == "Hi! How can I help you today?"
    assert traj.n_user_turns == 2


def _thinking_agent_msg(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text, "reasoning_content": "secret plan"}


async def _thinking_run(task: Task, keep: bool) -> Any:
    client = routed(
        agent=[_thinking_agent_msg("Which order?"), _thinking_agent_msg("Noted.")],
        user=["<think>I am user, hidden</think>cancel my order o1", "o1", "bye ###STOP###"],
    )
    await play(task, client, LLMUser(client, task), keep_thinking=keep)
    return client


async def test_keep_thinking_keeps_reasoning_in_agent_context(task: Task) -> None:
    client = await _thinking_run(task, keep=True)
    second = [r for r in client.requests if r.role == "agent"][1]
    assistant = [m for m in second.messages if m["role"] == "assistant"]
    assert assistant[-1]["reasoning_content"] == "secret plan"


async def test_drop_thinking_and_privacy(task: Task) -> None:
    client = await _thinking_run(task, keep=False)
    agent_reqs = [r for r in client.requests if r.role == "agent"]
    assert all("reasoning_content" not in m for m in agent_reqs[1].messages)
    # the user never sees the agent's reasoning, the agent never sees the user's
    for r in client.requests:
        text = json.dumps(r.messages)
        if r.role == "user":
            assert "secret plan" not in text
        else:
            assert "hidden" not in text


async def test_transcript_keeps_reasoning_even_when_context_drops_it(task: Task) -> None:
    client = routed(agent=[_thinking_agent_msg("Bye ###STOP###")], user=["hi, cancel order o1"])
    traj = await play(task, client, LLMUser(client, task), keep_thinking=False)
    assert traj.messages[-1]["reasoning_content"] == "secret plan"
    assert "secret" not in " ".join(traj.agent_texts())


async def test_protocol_tool_mode(task: Task) -> None:
    """The embedded model's action protocol: JSON actions become the same tool calls."""
    client = routed(
        agent=[
            {"action": "cancel_order", "arguments": {"order_id": "o1"}},
            {"action": "reply", "content": "Cancelled; the total was 1250."},
        ],
        user=["cancel o1", "thanks ###STOP###"],
    )
    traj = await play(task, client, LLMUser(client, task), tool_mode="protocol")
    assert [c.name for c in traj.tool_calls] == ["cancel_order"]
    assert traj.reward == 1.0, traj.reward_reason
    agent_req = next(r for r in client.requests if r.role == "agent")
    assert agent_req.response_format is not None and agent_req.tools is None


async def test_broken_state_hash_is_internal_error(task: Task) -> None:
    class Broken(FakeEpisode):
        def state_hash(self) -> str:
            raise ValueError("unhashable state")

    client = routed(agent=["hello"], user=["hi, cancel order o1", "bye ###STOP###"])
    traj = await play(task, client, LLMUser(client, task), env=Broken())
    assert traj.end_reason == EndReason.INTERNAL_ERROR and traj.reward is None
    assert "unhashable" in (traj.infra_error or "")


async def test_a_user_that_stops_twice_with_a_goal_unsaid_ends_incomplete() -> None:
    from test_goals import bookstore_task  # type: ignore[import-not-found]

    task = bookstore_task()
    question = "Can you tell me the shipping fee of order ORD-4722?"
    client = routed(
        agent=["The fee is 4.99."],
        user=[question, "Thanks! ###STOP###", "Bye. ###STOP###"],
    )
    traj = await play(task, client, LLMUser(client, task, seed=7), limits=EpisodeLimits())
    assert traj.end_reason == EndReason.USER_INCOMPLETE and traj.end_reason.is_natural
    assert any("nudged" in note for note in traj.user_notes)
