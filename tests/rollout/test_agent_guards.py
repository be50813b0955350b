"""Agent reply guards: refusals, claimed-but-not-done actions and calls that copy the tool
documentation's example value are re-asked once, noted."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from rollout_fakes import INITIAL, TOOLS, FakeEpisode, routed  # type: ignore[import-not-found]

from autoforge.rollout.agent import Agent, AgentConfig
from autoforge.rollout.agent_guards import check_calls, check_reply, claimed_actions, tool_docs
from autoforge.rollout.episode import run_episode
from autoforge.rollout.trajectory import EndReason
from autoforge.rollout.user import LLMUser
from autoforge.tasks.model import Task

NAMES = ["get_order", "cancel_order", "update_shipping_address", "add_review"]


def test_refusal_is_caught() -> None:
    hit = check_reply("I'm sorry, but I can't assist with that.", NAMES, [])
    assert hit is not None and hit.kind == "refusal" and "Do not refuse" in hit.nudge
    assert check_reply("I cannot help with this request.", NAMES, ["get_order"]) is not None


def test_refusing_a_tool_action_before_any_lookup_is_a_refusal() -> None:
    text = "I'm sorry, but I can't cancel this order. It has already been shipped."
    assert check_reply(text, NAMES, [])  # nothing was checked yet
    assert check_reply(text, NAMES, ["get_order"]) is None  # it looked the order up first


def test_claim_without_the_call_is_caught_and_cleared_by_the_call() -> None:
    text = "The order has been cancelled and the payment has been refunded."
    hit = check_reply(text, NAMES, [])
    assert hit is not None and hit.kind == "claim" and "'cancelled'" in hit.nudge
    assert check_reply(text, NAMES, ["cancel_order"]) is None  # refund: no tool, not a claim
    assert check_reply("Your review has been added.", NAMES, ["get_order"]) is not None
    assert check_reply("I'll cancel order ORD-1 and refund it.", NAMES, [])  # a promise


def test_template_replies_and_bare_done_are_caught() -> None:
    """The 1.5B copied the protocol example's reply ("Done: ...") in 3/12 episodes."""
    hit = check_reply("Done: ...", NAMES, ["get_order"], turn_calls=1)
    assert hit is not None and hit.kind == "placeholder"
    assert check_reply("<what the result says, in full sentences>", NAMES, [], 1) is not None
    assert check_reply("Email me at <a@b.c> or see <https://x.y>", NAMES, [], 1) is None
    hit = check_reply("Done.", NAMES, [], turn_calls=0)
    assert hit is not None and hit.kind == "claim"
    assert check_reply("Done.", NAMES, ["cancel_order"], turn_calls=1) is None


def test_ordinary_replies_and_nouns_in_tool_names_do_not_fire() -> None:
    assert check_reply("Could you give me the email on your account?", NAMES, []) is None
    assert check_reply("Let me know if there is anything else.", NAMES, []) is None
    # "shipped" is not the verb of update_shipping_address (the first word is)
    assert claimed_actions("It has already been shipped.", NAMES) == []
    assert claimed_actions("I have updated the address.", NAMES) == ["updated"]


async def _play(task: Task, agent: list[Any], user: list[Any], **cfg: Any) -> Any:
    client = routed(agent=agent, user=user)
    config = AgentConfig(tool_mode=cfg.pop("tool_mode", "protocol"), **cfg)
    tools = cfg.pop("tools", TOOLS)
    episode = cfg.pop("episode", FakeEpisode())
    bot = Agent(client, policy="Be helpful.", tools=tools, config=config, seed=7)
    traj = await run_episode(task, bot, LLMUser(client, task), episode)
    return traj, client


async def test_claim_guard_reasks_and_the_retry_calls_the_tool(task: Task) -> None:
    traj, client = await _play(
        task,
        agent=[
            {"action": "reply", "content": "Order o1 has been cancelled."},
            {"action": "cancel_order", "arguments": {"order_id": "o1"}},
            {"action": "reply", "content": "Done: o1 is cancelled; the total was 1250."},
        ],
        user=["cancel o1", "thanks ###STOP###"],
    )
    assert [c.name for c in traj.tool_calls] == ["cancel_order"]
    assert traj.reward == 1.0, traj.reward_reason
    assert len(traj.agent_notes) == 1 and "claim guard" in traj.agent_notes[0]
    retry = [r for r in client.requests if r.role == "agent"][1]
    assert "no tool call in this conversation did that" in retry.messages[-1]["content"]
    # the rejected reply and the nudge stay out of the agent's context
    assert not any("has been cancelled" in (m.get("content") or "") for m in traj.messages)


async def test_refusal_guard_fires_once_per_user_turn(task: Task) -> None:
    sorry = {"action": "reply", "content": "I'm sorry, but I can't assist with that."}
    traj, client = await _play(task, agent=[sorry, sorry], user=["cancel o1", "ok ###STOP###"])
    assert traj.end_reason == EndReason.USER_STOP
    assert len([r for r in client.requests if r.role == "agent"]) == 2  # one re-ask, no more
    assert traj.agent_notes == [
        "step 1: refusal guard: refusal (\"I'm sorry, but I can't assist with that.\"); asked again"
    ]


async def test_native_mode_is_untouched(task: Task) -> None:
    sorry = "I'm sorry, but I can't assist with that."
    traj, client = await _play(
        task, agent=[sorry], user=["cancel o1", "ok ###STOP###"], tool_mode="native"
    )
    assert traj.agent_notes == []
    assert len([r for r in client.requests if r.role == "agent"]) == 1


BOOKSTORE_TOOLS = json.loads(
    (Path(__file__).parents[2] / "src/autoforge/examples/bookstore/tools.openai.json").read_text()
)
MAREN = "maren.okafor@example.com"  # the "e.g." value of find_customer_by_email's email


def test_the_bookstore_example_email_is_caught_unless_the_conversation_has_it() -> None:
    calls = [("find_customer_by_email", {"email": MAREN})]
    hit = check_calls(calls, BOOKSTORE_TOOLS, "Hi, my customer id is C-6411.")
    assert hit is not None and hit.kind == "example"
    assert hit.nudge.startswith(f"(Note: {MAREN} is the documentation's example")
    said = "My email is Maren.Okafor@example.com, please look me up."  # any case
    assert check_calls(calls, BOOKSTORE_TOOLS, said) is None
    other = [("find_customer_by_email", {"email": "samuel.oduya@example.com"})]
    assert check_calls(other, BOOKSTORE_TOOLS, "") is None  # not in the docs


def test_enum_values_short_values_and_words_inside_tokens_do_not_fire() -> None:
    tool = {
        "name": "list_orders",
        "description": "List orders, e.g. status shipped for customer C-1 in region eu.",
        "parameters": {
            "type": "object",
            "properties": {
                "status": {"type": "string", "enum": ["shipped", "open"]},
                "customer_id": {"type": "string", "examples": ["C-1"]},
                "region": {"type": "string", "default": "eu"},
                "note": {"type": "string", "example": "gift wrap"},
            },
        },
    }
    assert "gift wrap" in tool_docs(tool)[0] and "shipped" in tool_docs(tool)[1]
    assert check_calls([("list_orders", {"status": "shipped"})], [tool], "") is None  # enum
    assert check_calls([("list_orders", {"region": "eu"})], [tool], "") is None  # < 3 chars
    assert check_calls([("list_orders", {"customer_id": "C-12"})], [tool], "") is None
    hit = check_calls([("list_orders", {"customer_id": "C-1"})], [tool], "")
    assert hit is not None and "'C-1'" in hit.note
    nested = {"items": [{"note": "Gift wrap "}]}  # nested leaves, any case, padded
    assert check_calls([("list_orders", nested)], [tool], "") is not None
    assert check_calls([("unknown_tool", {"customer_id": "C-1"})], [tool], "") is None


def _tools_with_example(order_id: str) -> list[dict[str, Any]]:
    """The fake tools, their ``order_id`` documented with the example ``order_id``."""
    tools = copy.deepcopy(TOOLS)
    for tool in tools:
        prop = tool["function"]["parameters"]["properties"]["order_id"]
        prop["description"] = f"The order id, e.g. {order_id}."
    return tools


def _episode_with_open_order(order_id: str) -> FakeEpisode:
    """The initial state plus one more open order (the one a copied example would cancel)."""
    state = copy.deepcopy(INITIAL)
    state["orders"][order_id] = {"status": "open"}
    return FakeEpisode(state)


async def test_example_value_call_is_not_run_and_the_agent_asks_instead(task: Task) -> None:
    """Without the guard, cancel_order("ord-9") runs and cancels the wrong order."""
    episode = _episode_with_open_order("ord-9")
    traj, client = await _play(
        task,
        agent=[
            {"action": "cancel_order", "arguments": {"order_id": "ord-9"}},
            {"action": "reply", "content": "Which order would you like to cancel?"},
            {"action": "cancel_order", "arguments": {"order_id": "o1"}},
            {"action": "reply", "content": "Order o1 is cancelled; its total was 1250."},
        ],
        user=["Please cancel my order.", "It is o1.", "thanks ###STOP###"],
        tools=_tools_with_example("ord-9"),
        episode=episode,
    )
    assert episode.calls == [("cancel_order", {"order_id": "o1"})]  # ord-9 never ran
    assert episode.state["orders"]["ord-9"]["status"] == "open"
    assert traj.agent_notes == [
        "step 1: example guard: cancel_order called with the documentation's example "
        "'ord-9'; not run, asked again"
    ]
    retry = [r for r in client.requests if r.role == "agent"][1]
    assert "ord-9 is the documentation's example" in retry.messages[-1]["content"]
    replies = [m for m in traj.messages if m["role"] == "assistant"]
    assert replies[1]["content"] == "Which order would you like to cancel?"  # it asked instead
    # the rejected call and its note stay out of the agent's context
    assert not any("documentation's example" in str(m.get("content")) for m in traj.messages)


async def test_example_value_the_user_said_is_run(task: Task) -> None:
    episode = FakeEpisode()
    traj, client = await _play(
        task,
        agent=[
            {"action": "cancel_order", "arguments": {"order_id": "o1"}},
            {"action": "reply", "content": "Order o1 is cancelled; its total was 1250."},
        ],
        user=["Please cancel order o1.", "thanks ###STOP###"],
        tools=_tools_with_example("o1"),
        episode=episode,
    )
    assert episode.calls == [("cancel_order", {"order_id": "o1"})]
    assert traj.reward == 1.0, traj.reward_reason
    assert traj.agent_notes == []
    assert len([r for r in client.requests if r.role == "agent"]) == 2  # no re-ask


async def test_example_value_in_the_call_a_refusal_reask_returns_is_caught(task: Task) -> None:
    """Measured (eval3): the refusal nudge's retry was the example-email call, run unchecked."""
    episode = _episode_with_open_order("ord-9")
    traj, client = await _play(
        task,
        agent=[
            {"action": "reply", "content": "I'm sorry, but I can't assist with that."},
            {"action": "cancel_order", "arguments": {"order_id": "ord-9"}},
            {"action": "reply", "content": "Which order would you like to cancel?"},
            {"action": "cancel_order", "arguments": {"order_id": "o1"}},
            {"action": "reply", "content": "Order o1 is cancelled; its total was 1250."},
        ],
        user=["Please cancel my order.", "It is o1.", "thanks ###STOP###"],
        tools=_tools_with_example("ord-9"),
        episode=episode,
    )
    assert episode.calls == [("cancel_order", {"order_id": "o1"})]
    assert [n.split(":")[1].strip() for n in traj.agent_notes] == [
        "refusal guard",
        "example guard",
    ]
    third = [r for r in client.requests if r.role == "agent"][2]
    assert "Do not refuse" in "".join(str(m["content"]) for m in third.messages)
    assert "ord-9 is the documentation's example" in third.messages[-1]["content"]
