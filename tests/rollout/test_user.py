"""Simulated users: prompt artifact, stop token, scripted turns, fault injection."""

from __future__ import annotations

from rollout_fakes import routed  # type: ignore[import-not-found]
from test_goals import bookstore_task  # type: ignore[import-not-found]

from autoforge.rollout.goals import conveyed, task_goals
from autoforge.rollout.user import (
    STOP_TOKEN,
    USER_PROMPT_VERSION,
    FaultyUser,
    LLMUser,
    ScriptedUser,
    UserConfig,
    load_user_prompt,
    perturb,
    render_transcript,
    render_user_prompt,
    render_user_turn,
    uses_transcript,
)
from autoforge.tasks.model import Task


def test_prompts_are_versioned_package_data() -> None:
    v1, v2 = load_user_prompt("user_v1"), load_user_prompt("user_v2")
    for placeholder in ("{scenario}", "{known_facts}", "{stop_token}"):
        assert placeholder in v1
    for placeholder in ("{scenario}", "{my_facts}", "{stop_token}"):
        assert placeholder in v2
    assert USER_PROMPT_VERSION == "user_v2" and v1 != v2
    assert "{checklist}" in load_user_prompt("user_v3")
    for template in (v1, v2):
        assert not template.lstrip().startswith("<!--")  # the design comment is not sent


def test_rendered_prompts_have_scenario_facts_and_stop() -> None:
    facts = {"order_id": "o1", "zip": "19122"}
    old = render_user_prompt("Cancel order o1.", facts, "user_v1")
    assert "Cancel order o1." in old and "- zip: 19122" in old
    new = render_user_prompt("Cancel order o1.", facts)
    assert "Cancel order o1." in new and "- My order id: o1" in new and "- My zip: 19122" in new
    for text in (old, new):
        assert STOP_TOKEN in text and "{" not in text
        assert "<!-- TURN -->" not in text and "{agent_message}" not in text


def test_turn_templates() -> None:
    turn = render_user_turn("  What is your order id?  ", "user_v1")
    assert "What is your order id?" in turn and "as the customer" in turn
    assert not uses_transcript("user_v1") and uses_transcript("user_v2")
    lines = [("Agent", "Hi!"), ("Customer", "Cancel\n o1"), ("Agent", "Id?")]
    chat = render_transcript(lines, "user_v2")
    assert "Agent: Hi!\nCustomer: Cancel o1\nAgent: Id?\nCustomer:" in chat
    v3 = render_transcript(lines, "user_v3", open_goals="Give your zip: 19122")
    assert "Agent: Id?\n\nStill to tell the agent: Give your zip: 19122\nCustomer:" in v3


async def test_llm_user_v1_flips_roles_and_detects_stop(task: Task) -> None:
    client = routed(agent=[], user=["I want to cancel.", "Great, thanks. ###STOP###"])
    user = LLMUser(client, task, UserConfig(prompt_version="user_v1"), seed=3)
    first = await user.reply("Hi! How can I help?")
    assert (first.text, first.stop) == ("I want to cancel.", False)
    second = await user.reply("Done.")
    assert second.stop and second.text == "Great, thanks."
    request = client.requests[1]
    assert request.role == "user" and request.body["seed"] == 3
    roles = [m["role"] for m in request.messages]
    assert roles == ["system", "user", "assistant", "user"]
    assert request.messages[1]["content"] == render_user_turn("Hi! How can I help?", "user_v1")
    assert request.messages[2]["content"] == "I want to cancel."
    assert user.usage.calls == 2 and user.notes == []


async def test_llm_user_v2_sends_the_transcript(task: Task) -> None:
    client = routed(agent=[], user=["Customer: I want to cancel o1.", "Great ### STOP ###"])
    user = LLMUser(client, task, seed=3)
    first = await user.reply("Hi! How can I help?")
    assert (first.text, first.stop) == ("I want to cancel o1.", False)
    second = await user.reply("Done.")
    assert second.stop and second.text == "Great"
    messages = client.requests[1].messages
    assert [m["role"] for m in messages] == ["system", "user"]
    assert (
        "Agent: Hi! How can I help?\nCustomer: I want to cancel o1.\nAgent: Done."
        in (messages[1]["content"])
    )
    assert user.notes == ["turn 0: removed a speaker prefix"]


async def test_llm_user_v1_empty_answer_stops(task: Task) -> None:
    client = routed(agent=[], user=["<think>nothing to say</think>"])
    config = UserConfig(prompt_version="user_v1")
    reply = await LLMUser(client, task, config).reply("anything else?")
    assert reply.stop and reply.text == ""


async def test_v2_first_turn_refusal_is_asked_again(task: Task) -> None:
    client = routed(agent=[], user=["I'm sorry, but I can't assist with that.", "Cancel o1 pls"])
    user = LLMUser(client, task)
    reply = await user.reply("Hi!")
    assert (reply.text, reply.stop) == ("Cancel o1 pls", False)
    retry = client.requests[1].messages
    assert retry[-2]["role"] == "assistant" and "role-play" in retry[-1]["content"]
    assert len(user.notes) == 1 and user.notes[0].startswith("turn 0: refusal")


async def test_v2_first_turn_falls_back_to_the_tasks_request() -> None:
    scenario = "Your goal: cancel ORD-5\nWhat you ask for: Hi! Please cancel order ORD-5."
    task = Task(id="x", env_id="e", scenario=scenario, user_facts={"id": "ORD-5"})
    client = routed(agent=[], user=["###STOP###", "Thank you for your assistance."])
    user = LLMUser(client, task)
    reply = await user.reply("Hi!")
    assert (reply.text, reply.stop) == ("Hi! Please cancel order ORD-5.", False)
    assert "stopped before stating the request" in user.notes[0]
    assert "does not state the request" in user.notes[1] and "task's request" in user.notes[1]


async def test_v2_first_message_keeps_going_after_a_stop(task: Task) -> None:
    client = routed(agent=[], user=["Cancel order o1 please. ###STOP###"])
    reply = await LLMUser(client, task).reply("Hi!")
    assert (reply.text, reply.stop) == ("Cancel order o1 please.", False)


async def test_v2_echo_is_asked_again_then_bare_stop_after_question(task: Task) -> None:
    client = routed(
        agent=[],
        user=["cancel o1", "What is your phone number?", "I don't know it.", "###STOP###"],
    )
    user = LLMUser(client, task)
    await user.reply("Hi!")
    answer = await user.reply("What is your phone number?")
    assert (answer.text, answer.stop) == ("I don't know it.", False)
    assert "repeated a message" in user.notes[0]
    done = await user.reply("Order o1 is cancelled. Anything else?")  # not a request for info
    assert done.stop and done.text == "" and len(user.notes) == 1


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


async def test_v2_refusal_twice_later_gives_up(task: Task) -> None:
    refusal = "I'm sorry, but I can't assist with that."
    client = routed(agent=[], user=["cancel order o1", refusal, "Agent: " + refusal])
    user = LLMUser(client, task)
    await user.reply("Hi!")
    reply = await user.reply(refusal)  # the agent refused; the user model copies it
    assert reply.stop and reply.text == "Okay, thank you anyway."
    assert "gave up" in user.notes[-1]


async def test_v2_echo_twice_gives_up_and_an_echo_that_stops_stops(task: Task) -> None:
    said = "I'm sorry, but I can't cancel this order. It has already been shipped."
    client = routed(agent=[], user=["cancel order o1", said, said, f"{said} ###STOP##"])
    user = LLMUser(client, task)
    await user.reply("Hi!")
    reply = await user.reply(said)  # copies the agent twice: gives up (no loop to max turns)
    assert reply.stop and reply.text == "Okay, thank you anyway."
    assert "repeated a message again; the customer gave up" in user.notes[-1]
    last = await user.reply(said)  # an echo with the stop token is a stop, not asked again
    assert last.stop and len(client.requests) == 4


async def test_v2_invented_value_is_asked_again_then_not_known(task: Task) -> None:
    client = routed(agent=[], user=["cancel order o1", "It was $15.", "About $16."])
    user = LLMUser(client, task)
    await user.reply("Hi!")
    reply = await user.reply("What did the order cost?")
    assert (reply.text, reply.stop) == ("Sorry, I don't know that.", False)
    assert "invented 15" in user.notes[0] and "said it does not know" in user.notes[-1]


async def test_v2_an_answer_without_the_detail_asked_for_is_asked_again() -> None:
    task = bookstore_task()  # holds the book id B-7
    client = routed(agent=[], user=[QUESTION, "Sure, please.", "It is B-7."])
    user = LLMUser(client, task)
    await user.reply("Hello! How can I help?")
    reply = await user.reply("Before I go ahead, could you tell me the book id?")
    assert (reply.text, reply.stop) == ("It is B-7.", False)
    assert "did not give the detail asked for" in user.notes[0]
    assert "The agent asked for your book id." in client.requests[-1].messages[-1]["content"]


async def test_v2_a_detail_not_known_or_not_asked_is_not_asked_again() -> None:
    task = bookstore_task()
    client = routed(agent=[], user=[QUESTION, "Sorry, I don't know it.", "Yes, please."])
    user = LLMUser(client, task)
    await user.reply("Hello! How can I help?")
    assert (await user.reply("Could you tell me the book id?")).text.startswith("Sorry")
    assert (await user.reply("Shall I add the review, rating 5?")).text == "Yes, please."
    assert len(client.requests) == 3 and not user.notes


# --------------------------------------------------------------------------- the checklist

QUESTION = "Can you tell me the shipping fee of order ORD-4722?"


async def test_checklist_in_the_prompt_and_open_goals_each_turn() -> None:
    task = bookstore_task()
    client = routed(agent=[], user=[QUESTION, "Thanks"])
    user = LLMUser(client, task, UserConfig(prompt_version="user_v3"))
    await user.reply("Hello! How can I help?")
    system = client.requests[0].messages[0]["content"]
    assert "- [ ] Please add review (book id: B-7; rating: 5)." in system
    assert "Still to tell the agent: Please add review" in client.requests[0].messages[1]["content"]
    await user.reply("The fee is 4.99.")
    second = client.requests[1].messages[1]["content"]
    still = second.split("Still to tell the agent:")[1]
    assert "Please add review" in still and "shipping fee" not in still  # said: off the list


async def test_a_stop_with_a_goal_unsaid_is_nudged_once() -> None:
    task = bookstore_task()
    said = "Also, please add a review for book B-7, rating 5."
    client = routed(agent=[], user=[QUESTION, "Thanks! ###STOP###", said])
    user = LLMUser(client, task)
    await user.reply("Hello! How can I help?")
    reply = await user.reply("The fee is 4.99.")
    assert (reply.text, reply.stop, reply.incomplete) == (said, False, False)
    nudge = client.requests[-1].messages[-1]["content"]
    assert "you still need to tell the agent this: Please add review" in nudge
    assert any("nudged" in note for note in user.notes)


async def test_a_nudged_reply_written_as_the_agent_is_asked_again() -> None:
    task = bookstore_task()
    said = "Also, please add a review for book B-7, rating 5."
    as_agent = "Agent: Sure. To confirm: add the review. Shall I go ahead?\nCustomer: Yes, please."
    client = routed(agent=[], user=[QUESTION, "Thanks! ###STOP###", as_agent, said])
    user = LLMUser(client, task)
    await user.reply("Hello! How can I help?")
    reply = await user.reply("The fee is 4.99.")
    assert (reply.text, reply.stop, reply.incomplete) == (said, False, False)
    reminder = client.requests[-1].messages[-1]["content"]
    assert "you are the customer" in reminder and "you still need to tell the agent" in reminder
    assert any("nudged reply spoke as the agent; asked again" in n for n in user.notes)


async def test_a_second_stop_with_a_goal_unsaid_is_incomplete() -> None:
    task = bookstore_task()
    client = routed(agent=[], user=[QUESTION, "Thanks! ###STOP###", "Bye ###STOP###"])
    user = LLMUser(client, task)
    await user.reply("Hello! How can I help?")
    reply = await user.reply("The fee is 4.99.")
    assert reply.stop and reply.incomplete
    assert client.requests[-1].messages[-1]["content"].startswith("(Do not end the chat yet")


async def test_a_stop_declined_by_the_agent_or_without_checklist_is_a_stop() -> None:
    task = bookstore_task()
    client = routed(agent=[], user=[QUESTION, "Ok, thanks. ###STOP###"])
    user = LLMUser(client, task)
    await user.reply("Hello! How can I help?")
    reply = await user.reply("The fee is 4.99. I cannot add reviews, sorry.")
    assert reply.stop and not reply.incomplete
    old = LLMUser(routed(agent=[], user=[QUESTION, "Thanks ###STOP###"]), task,
                  UserConfig(checklist=False))  # fmt: skip
    await old.reply("Hello!")
    assert (await old.reply("The fee is 4.99.")).stop and old.goals == []


async def test_faulty_user_drops_a_goal_from_every_message() -> None:
    task = bookstore_task()
    request = f"Please add review (book id: B-7; rating: 5). {QUESTION}"
    inner = ScriptedUser([request, "It is B-7 and rating 5, and please add the review.", "ok"])
    goals = task_goals(task)
    user = FaultyUser(inner, task.known_facts(), p=1.0, seed=0, goals=goals,
                      kinds=["drop_goal"])  # fmt: skip
    first = await user.reply("Hi")
    second = await user.reply("Details?")
    [fault] = user.faults
    assert fault.kind == "drop_goal" and fault.turn == 1
    dropped = next(g for g in goals if fault.detail.startswith(f"left out {g.key}"))
    assert dropped.kind != "fact"
    assert dropped.key not in conveyed(goals, [first.text, second.text])


async def test_a_first_message_listing_details_but_no_request_is_asked_again() -> None:
    task = bookstore_task()
    details = "Hi! My order id is ORD-4722, my book id is B-7 and my rating is 5."
    client = routed(agent=[], user=[details, QUESTION])
    user = LLMUser(client, task)
    reply = await user.reply("Hello! How can I help?")
    assert reply.text == QUESTION
    assert user.notes[0].startswith("turn 0: first message states no goal")


async def test_a_first_message_with_no_goal_twice_is_the_tasks_request() -> None:
    task = bookstore_task()
    details = "Hi! My order id is ORD-4722."
    user = LLMUser(routed(agent=[], user=[details, details]), task)
    reply = await user.reply("Hello! How can I help?")
    assert reply.text.startswith("Hi! I'm a customer. Please add review (book id: B-7")
    assert "used the task's request" in user.notes[-1]


async def test_a_reply_labelled_as_the_agent_is_asked_again(task: Task) -> None:
    agent_line = "Agent: Sure, I'll cancel order o1 for you. Can you give me your name?"
    client = routed(agent=[], user=[agent_line, "Please cancel my order o1."])
    user = LLMUser(client, task)
    reply = await user.reply("Hi!")
    assert reply.text == "Please cancel my order o1."
    assert "spoke as the agent" in user.notes[0]


async def test_v2_repeating_its_own_request_twice_is_a_re_ask_not_giving_up(task: Task) -> None:
    ask = "Please cancel order o1 for me."
    client = routed(agent=[], user=[ask, ask, ask])
    user = LLMUser(client, task)
    await user.reply("Hi!")
    reply = await user.reply("Hmm, let me think.")  # a useless answer: the customer asks again
    assert (reply.text, reply.stop) == (ask, False)
    assert "repeated its own request again; re-asked" in user.notes[-1]
