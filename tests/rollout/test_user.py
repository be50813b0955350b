"""Simulated users: prompt artifact, stop token, scripted turns, fault injection."""

from __future__ import annotations

from rollout_fakes import routed  # type: ignore[import-not-found]

from autoforge.rollout.task import TaskSpec
from autoforge.rollout.user import (
    STOP_TOKEN,
    USER_PROMPT_VERSION,
    FaultyUser,
    LLMUser,
    ScriptedUser,
    load_user_prompt,
    perturb,
    render_user_prompt,
    render_user_turn,
)


def test_prompt_is_versioned_package_data() -> None:
    template = load_user_prompt(USER_PROMPT_VERSION)
    for placeholder in ("{scenario}", "{known_facts}", "{stop_token}"):
        assert placeholder in template
    assert not template.lstrip().startswith("<!--")  # the design comment is not sent


def test_rendered_prompt_has_scenario_facts_and_stop() -> None:
    text = render_user_prompt("Cancel order o1.", {"order_id": "o1", "zip": "19122"})
    assert "Cancel order o1." in text and "- zip: 19122" in text
    assert STOP_TOKEN in text and "{" not in text
    assert "<!-- TURN -->" not in text and "{agent_message}" not in text


def test_turn_template_wraps_the_agent_message() -> None:
    turn = render_user_turn("  What is your order id?  ")
    assert "What is your order id?" in turn and "as the customer" in turn


async def test_llm_user_flips_roles_and_detects_stop(task: TaskSpec) -> None:
    client = routed(agent=[], user=["I want to cancel.", "Great, thanks. ###STOP###"])
    user = LLMUser(client, task, seed=3)
    first = await user.reply("Hi! How can I help?")
    assert (first.text, first.stop) == ("I want to cancel.", False)
    second = await user.reply("Done.")
    assert second.stop and second.text == "Great, thanks."
    request = client.requests[1]
    assert request.role == "user" and request.body["seed"] == 3
    roles = [m["role"] for m in request.messages]
    assert roles == ["system", "user", "assistant", "user"]
    assert request.messages[1]["content"] == render_user_turn("Hi! How can I help?")
    assert "Hi! How can I help?" in request.messages[1]["content"]
    assert request.messages[2]["content"] == "I want to cancel."
    assert user.usage.calls == 2


async def test_llm_user_empty_answer_stops(task: TaskSpec) -> None:
    client = routed(agent=[], user=["<think>nothing to say</think>"])
    reply = await LLMUser(client, task).reply("anything else?")
    assert reply.stop and reply.text == ""


async def test_scripted_user() -> None:
    user = ScriptedUser(["one", "two ###STOP###", "never"])
    assert (await user.reply("a")).text == "one"
    last = await user.reply("b")
    assert last.stop and last.text == "two"


def test_perturb_changes_value() -> None:
    assert perturb("19122") == "19123"
    assert perturb("o9") == "o0"
    assert perturb("Ada") == "Zda"
    assert perturb("Zed") == "Qed"


async def test_faulty_user_change_fact_recorded() -> None:
    inner = ScriptedUser(["My zip is 19122.", "bye ###STOP###"])
    user = FaultyUser(inner, {"zip": "19122"}, p=1.0, seed=1, kinds=["change_fact"])
    reply = await user.reply("zip?")
    assert reply.text == "My zip is 19123."
    assert [(f.kind, f.turn) for f in user.faults] == [("change_fact", 1)]
    assert "19122" in user.faults[0].detail
    assert (await user.reply("ok")).stop  # max one fault, stop passes through


async def test_faulty_user_change_fact_waits_for_a_fact() -> None:
    inner = ScriptedUser(["Hello.", "It is 19122."])
    user = FaultyUser(inner, {"zip": "19122"}, p=1.0, seed=1, kinds=["change_fact"])
    assert (await user.reply("hi")).text == "Hello."
    assert user.faults == []
    assert (await user.reply("zip?")).text == "It is 19123."
    assert user.faults[0].turn == 2


async def test_faulty_user_invent_and_stop_early() -> None:
    user = FaultyUser(ScriptedUser(["Cancel it."]), {}, p=1.0, seed=2, kinds=["invent_fact"])
    reply = await user.reply("?")
    assert reply.text.startswith("Cancel it. By the way, my ")
    assert user.faults[0].kind == "invent_fact"
    early = FaultyUser(ScriptedUser(["a", "b"]), {}, p=1.0, seed=2, kinds=["stop_early"])
    assert (await early.reply("?")).stop
    assert early.faults[0].kind == "stop_early"


async def test_faulty_user_p_zero_is_transparent_and_seeded() -> None:
    clean = FaultyUser(ScriptedUser(["x 19122"] * 5), {"z": "19122"}, p=0.0, seed=5)
    for _ in range(5):
        assert (await clean.reply("?")).text == "x 19122"
    assert clean.faults == []

    async def run(seed: int) -> list[str]:
        user = FaultyUser(
            ScriptedUser(["x 19122"] * 20), {"z": "19122"}, p=0.3, seed=seed, max_faults=20
        )
        return [(await user.reply("?")).text for _ in range(20)]

    assert await run(11) == await run(11)
