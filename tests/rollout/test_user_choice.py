"""The "model chooses, code speaks" user (prompt user_choice_v1)."""

from __future__ import annotations

from rollout_fakes import routed  # type: ignore[import-not-found]

from autoforge.rollout.user import LLMUser, UserConfig, uses_choices
from autoforge.rollout.user_choice import compose, rule_choice, rule_done
from autoforge.tasks.model import Task

FACTS = {"order_id": "ORD-9", "email": "a.b@example.se", "book_id": "B-1", "rating": "3"}
CHOICE = UserConfig(prompt_version="user_choice_v1")


def test_rule_choice_reads_questions_that_name_details() -> None:
    assert rule_choice("Could you give me the email address on your account?", FACTS) == ["email"]
    assert rule_choice("Which book would you like to review, and what rating?", FACTS) == [
        "book id",
        "rating",
    ]
    assert rule_choice("Please provide your order ID.", FACTS) == ["order id"]
    assert rule_choice("To confirm: cancel ORD-9. Shall I go ahead?", FACTS) == ["confirmation"]
    assert rule_choice("What is your phone number?", FACTS) == []
    assert rule_choice("I found your order ORD-9.", FACTS) == []  # not a question


def test_rule_done_and_compose() -> None:
    assert rule_done("Order ORD-9 is cancelled. Is there anything else?")
    assert rule_done("You're welcome. Have a nice day!")
    assert not rule_done("Let me check that order for you.")
    assert compose(["email", "rating"], False, FACTS, []) == (
        "My email is a.b@example.se. My rating is 3.",
        False,
    )
    assert compose("confirmation", False, FACTS, []) == ("Yes, please go ahead.", False)
    assert compose("other information", True, FACTS, []) == ("Sorry, I don't know that.", False)
    assert compose("nothing", True, FACTS, [])[1] is True
    nudge, stop = compose("nothing", False, FACTS, [])
    assert not stop and compose("nothing", False, FACTS, [nudge, nudge])[1] is True
    address = {"address": '{"city": "Oslo", "street": "Storgata 1"}'}
    assert compose(["address"], False, address, [])[0] == (
        "My address is city: Oslo, street: Storgata 1."
    )


async def test_choice_user_plays_a_whole_chat() -> None:
    scenario = "Your goal: cancel ORD-9\nWhat you ask for: Hi! Please cancel order ORD-9."
    task = Task(id="c", env_id="e", scenario=scenario, user_facts=FACTS)
    client = routed(agent=[], user=[{"request_done": False}])
    user = LLMUser(client, task, CHOICE)
    assert uses_choices("user_choice_v1") and not uses_choices("user_v2")
    first = await user.reply("Hi! How can I help you today?")
    assert (first.text, first.stop) == ("Hi! Please cancel order ORD-9.", False)
    email = await user.reply("Sure. What is the email on your account?")
    assert email.text == "My email is a.b@example.se."
    phone = await user.reply("And your phone number?")
    assert phone.text == "Sorry, I don't know that."
    wait = await user.reply("Let me look into that.")  # the one model call
    assert (wait.text, wait.stop) == ("Could you please go ahead with my request?", False)
    done = await user.reply("ORD-9 is cancelled. Anything else?")
    assert done.stop
    assert len(client.requests) == 1 and client.requests[0].role == "user"
    assert "Let me look into that." in client.requests[0].messages[-1]["content"]
    assert any("closed the chat" in note for note in user.notes)
