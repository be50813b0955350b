"""The simulated user's deterministic guards (pure functions)."""

from __future__ import annotations

import pytest

from autoforge.rollout.user_guards import (
    AGENT_LABEL_NOTE,
    TurnContext,
    asks_for_information,
    clean_reply,
    first_person_facts,
    invented_values,
    is_echo,
    is_refusal,
    mentions_request,
    opening_request,
    read_reply,
    request_terms,
    speaks_as_agent,
    split_stop,
)


@pytest.mark.parametrize(
    "text",
    [
        "Thanks! ###STOP###",
        "Thanks! ### STOP ###",
        "Thanks! ##stop##",
        "Thanks! [STOP]",
        "Thanks! <stop>",
        "Thanks! STOP###",
        "Thanks! ###STOP",
    ],
)
def test_stop_token_manglings(text: str) -> None:
    assert split_stop(text) == ("Thanks!", True)


@pytest.mark.parametrize("text", ["Please stop my subscription.", "Stop! Wait.", "#1 stop"])
def test_plain_stop_words_do_not_stop(text: str) -> None:
    assert split_stop(text) == (text, False)


def test_clean_reply_cuts_prefixes_and_run_on_lines() -> None:
    assert clean_reply("Customer: It's o1.") == ("It's o1.", ["removed a speaker prefix"])
    text, notes = clean_reply("It's o1.\nAgent: Thanks, done.\nCustomer: bye")
    assert text == "It's o1." and notes == ["cut a run-on agent line"]
    assert clean_reply("Agent: It's o1.") == ("It's o1.", [AGENT_LABEL_NOTE])
    assert clean_reply('"Cancel it, please."')[0] == "Cancel it, please."


def test_refusals() -> None:
    assert is_refusal("I'm sorry, but I can't assist with that.")
    assert is_refusal("As an AI, I do not have an order.")
    assert is_refusal("I cannot provide personal information.")
    assert not is_refusal("I can't find my order number, sorry.")
    assert not is_refusal("Please cancel order ORD-9.")


def test_asks_for_information() -> None:
    assert asks_for_information("Thanks. What is your email?")
    assert not asks_for_information("Done. Is there anything else I can help with?")
    assert not asks_for_information("Your order is cancelled.")


def test_first_person_facts_and_opening() -> None:
    assert first_person_facts({"customer_id": "C-1", "zip code": "02139"}) == (
        "- My customer id: C-1\n- My zip code: 02139"
    )
    assert "none" in first_person_facts({})
    scenario = "Your goal: x\nWhat you ask for: Hi! Please cancel ORD-5.\nYour persona: calm"
    assert opening_request(scenario) == "Hi! Please cancel ORD-5."
    assert opening_request("You want a refund.").startswith("Hi, I need some help")


def test_request_terms_ignore_persona_and_match_stems() -> None:
    scenario = "You ordered ORD-9 by mistake and want it cancelled.\nYour persona: very polite"
    terms = request_terms(scenario, {"email": "a.b@example.se"})
    assert mentions_request("I'd like to cancel an order.", terms)
    assert mentions_request("It's about ORD-9.", terms)
    assert not mentions_request("Thank you for your assistance.", terms)
    assert not mentions_request("I am very polite.", terms)
    assert mentions_request("anything", frozenset())


def test_echo() -> None:
    heard = ("Could you give me the email on your account?", "Hi! How can I help you today?")
    assert is_echo("Could you give me the email on your account?", heard, ())
    assert is_echo("How can I help you today?", heard, ())
    assert is_echo("I want to cancel my order.", (), ("I want to cancel my order.",))
    assert not is_echo("Yes, please.", heard, ("Yes, please.",))  # short replies may repeat
    assert not is_echo("My email is a@b.se", heard, ())


def test_read_reply_problems() -> None:
    terms = request_terms("cancel order o1", {})
    first = TurnContext(first=True, terms=terms)
    assert read_reply("###STOP###", first, guards=True).problem is not None
    kept = read_reply("Cancel order o1. ###STOP###", first, guards=True)
    assert (kept.stop, kept.problem) == (False, None) and kept.notes
    later = TurnContext(first=False, asked=True, heard=("Email?",), terms=terms)
    assert read_reply("###STOP###", later, guards=True).problem is not None
    assert read_reply("", later, guards=True).problem == "empty reply"
    done = TurnContext(first=False, asked=False, heard=("Done.",), terms=terms)
    assert read_reply("Thanks [STOP]", done, guards=True).stop
    raw = read_reply("Thanks [STOP]", done, guards=False)  # user_v1: only the exact token
    assert (raw.text, raw.stop) == ("Thanks [STOP]", False)


def test_invented_values_and_agent_speak() -> None:
    known = "cancel order ORD-9; email a.b@example.se\nAgent: Your total is $1,250."
    assert invented_values("It's ORD-9, total 1250, mail a.b@example.se.", known) == []
    assert invented_values("The lowest unit price is $15.", known) == ["15"]
    assert invented_values("My order is ORD-8, email z@x.io", known) == ["ord-8", "z@x.io"]
    assert speaks_as_agent("Thanks. Is there anything else I can help with?")
    assert speaks_as_agent("Please provide the new shipping address.")
    assert speaks_as_agent("To confirm: cancel order ORD-9. Shall I go ahead?")
    assert not speaks_as_agent("Can you help me cancel my order?")
    assert not speaks_as_agent("Yes, please go ahead.")
    assert speaks_as_agent("Sure, I'll place the order for you.")
    assert speaks_as_agent("Can you please provide me with your email address?")
    assert not speaks_as_agent("Sure, I'll wait.")
    assert speaks_as_agent("Sure, I'll do that. What is your email?")
    # a customer taking up "anything else?" (seen after a nudge): its request, not agent speech
    assert not speaks_as_agent("Sure, I'll add a review for the book B-7, with rating 3.")
    assert not speaks_as_agent("Can you provide me with the tracking number?")
    ctx = TurnContext(first=False, heard=("What is the unit price?",), known=known)
    assert read_reply("It is $15.", ctx, guards=True).problem == "invented 15"
    assert read_reply("It is ORD-9.", ctx, guards=True).problem is None


def test_a_message_labelled_as_the_agents_is_a_problem() -> None:
    reading = read_reply(
        "Agent: Sure, what is your order id?", TurnContext(first=False), guards=True
    )
    assert reading.problem == "spoke as the agent"
    plain = read_reply("Customer: It's o1.", TurnContext(first=False), guards=True)
    assert plain.problem is None and plain.text == "It's o1."


def test_the_customers_own_words_under_the_agents_label_are_the_customers() -> None:
    ctx = TurnContext(first=False, asked=True, known="cancel ORD-9; email a.b@example.se")
    for said in ("Agent: It's a.b@example.se.", "Agent: I ordered it by mistake."):
        reading = read_reply(said, ctx, guards=True)
        assert reading.problem is None and not reading.text.startswith("Agent"), said
    for said in ("Agent: Sure, what is your order id?", "Agent: Sure, I'll do that for you."):
        assert read_reply(said, ctx, guards=True).problem == "spoke as the agent", said


def test_details_asked_names_labels_strictly_on_request() -> None:
    from autoforge.rollout.user_guards import details_asked, gives_detail

    facts = ["order_id", "email", "book_title"]
    assert details_asked("Could you tell me the email?", facts) == ["email"]
    assert details_asked("What did the order cost?", facts) == ["order id"]  # loose: "order"
    assert details_asked("What did the order cost?", facts, strict=True) == []
    assert details_asked("Thanks. The book title, please?", facts, strict=True) == ["book title"]
    assert details_asked("The email is on file.", facts) == []  # not a question
    assert gives_detail("It's a.b@example.com.", ["a.b@example.com"])
    assert gives_detail("Sorry, I don't know it.", ["a.b@example.com"])
    assert not gives_detail("Sure, please.", ["a.b@example.com"])
