"""The user's checklist: goals derived from the task, marked said by literal matching."""

from __future__ import annotations

from autoforge.rollout.goals import (
    checklist_text,
    conveyed,
    open_goals,
    refused,
    request_sentences,
    task_goals,
)
from autoforge.tasks.model import GoldCall, Task

SCENARIO = (
    "Your goal: You want the agent to (1) add review (book id: B-7; rating: 5); (2) find out "
    "the shipping fee of order ORD-4722.\n"
    "What you ask for: Hi! I'm a customer. Please add review (book id: B-7; rating: 5). Can "
    "you tell me the shipping fee of order ORD-4722?"
)


def bookstore_task(writes: bool | None = True) -> Task:
    actions = [
        GoldCall(
            name="get_order",
            arguments={"order_id": "ORD-4722"},
            writes=None if writes is None else False,
        ),
        GoldCall(
            name="add_review",
            arguments={"customer_id": "C-1", "book_id": "B-7", "rating": 5},
            writes=writes,
        ),
    ]
    return Task(
        id="t",
        env_id="bookstore",
        scenario=SCENARIO,
        user_facts={"order_id": "ORD-4722", "book_id": "B-7", "rating": "5", "x": "zz"},
        required_outputs=["4.99"],
        gold_calls=actions,
    )


def test_goals_are_writes_questions_and_needed_facts() -> None:
    goals = task_goals(bookstore_task())
    assert [g.key for g in goals] == [
        "request:0:add_review",
        "question:0",
        "fact:order_id",
        "fact:book_id",
        "fact:rating",
    ]  # the fact "x" is neither a gold argument nor in the request: not needed
    assert goals[0].text == "Please add review (book id: B-7; rating: 5)."
    assert goals[1].text == "Can you tell me the shipping fee of order ORD-4722?"
    assert request_sentences(SCENARIO)[0].startswith("Please add review")  # "Hi!" dropped


def test_asking_only_the_question_leaves_the_write_unsaid() -> None:
    goals = task_goals(bookstore_task())
    said = conveyed(goals, ["Can you tell me the shipping fee of order ORD-4722?"])
    assert said == {"question:0", "fact:order_id"}
    both = conveyed(
        goals,
        [
            "What's the shipping fee on ORD-4722?",
            "Also I'd like to leave a review for book B-7, rating 5.",  # a synonym of "add"
        ],
    )
    assert both == {g.key for g in goals}


def test_values_match_whole_tokens_only() -> None:
    goals = task_goals(bookstore_task())
    assert "fact:book_id" not in conveyed(goals, ["my book is B-77"])
    assert "fact:rating" not in conveyed(goals, ["order ORD-4722 please"])  # "5" not a token


def test_without_write_flags_the_request_sentences_are_the_goals() -> None:
    goals = task_goals(bookstore_task(writes=None))
    assert [g.key for g in goals][:2] == ["request:0", "question:0"]
    assert "request:0" in conveyed(goals, ["Please add a review for book B-7"])


def test_a_refusal_naming_a_goal_closes_it() -> None:
    goals = task_goals(bookstore_task())
    agent = ["Sorry, I cannot add a review for that book."]
    assert "request:0:add_review" in refused(goals, agent)
    assert refused(goals, ["Your review is added."]) == set()
    left = open_goals(goals, ["fee of ORD-4722?"], agent)
    assert "request:0:add_review" not in [g.key for g in left]


def test_checklist_marks_said_goals() -> None:
    goals = task_goals(bookstore_task())[:2]
    text = checklist_text(goals, {"question:0"})
    assert text.splitlines() == [
        "- [ ] Please add review (book id: B-7; rating: 5).",
        "- [x] Can you tell me the shipping fee of order ORD-4722?",
    ]


def test_only_values_telling_two_calls_of_a_tool_apart_are_required() -> None:
    actions = [
        GoldCall(name="place_order", arguments={"customer": "C-1", "book": "B-11"}, writes=True),
        GoldCall(name="place_order", arguments={"customer": "C-1", "book": "B-22"}, writes=True),
        GoldCall(name="add_review", arguments={"customer": "C-1", "book": "B-11"}, writes=True),
    ]
    task = Task(
        id="t",
        env_id="bookstore",
        scenario="Order two books and review one.",
        user_facts={"customer_id": "C-1", "first": "B-11", "second": "B-22"},
        gold_calls=actions,
    )
    requests = [g for g in task_goals(task) if g.kind == "request"]
    assert [(g.key, g.values) for g in requests] == [
        ("request:0:place_order", ("b-11",)),
        ("request:1:place_order", ("b-22",)),
        ("request:2:add_review", ()),  # one review: the customer id is a fact goal of its own
    ]
    said = conveyed(requests, ["Please order B-11, and leave a review."])
    assert said == {"request:0:place_order", "request:2:add_review"}


def _facts_task(question: str) -> Task:
    """A bookstore task whose request is a question and whose facts hold words that are also
    request words ("book id", "ordered_by_mistake")."""
    actions = [
        GoldCall(name="place_order", arguments={"customer_id": "C-9", "book": "B-5"}, writes=True),
        GoldCall(name="add_review", arguments={"customer_id": "C-9", "book": "B-5"}, writes=True),
    ]
    return Task(
        id="t",
        env_id="bookstore",
        scenario=f"What you ask for: Hi! {question} Please add a review for book B-5.",
        user_facts={"customer_id": "C-9", "book_id": "B-5", "reason": "ordered_by_mistake"},
        gold_calls=actions,
    )


def test_a_question_asking_for_a_write_is_that_request_not_a_question() -> None:
    goals = task_goals(_facts_task("Can you help me place an order for book B-5?"))
    assert [g.key for g in goals if g.kind != "fact"] == [
        "request:0:place_order",
        "request:1:add_review",
    ]
    assert goals[0].text == "Can you help me place an order for book B-5?"


def test_a_list_of_details_says_no_request() -> None:
    goals = task_goals(_facts_task("Can you help me place an order for book B-5?"))
    details = "Hi! My customer id is C-9; my book id is B-5; my reason: ordered_by_mistake."
    assert conveyed(goals, [details]) & {"request:0:place_order", "request:1:add_review"} == set()
    assert "request:0:place_order" in conveyed(goals, ["I'd like to place an order for B-5."])


def test_a_request_verb_must_stand_near_its_noun() -> None:
    goals = task_goals(_facts_task("Please place an order for book B-5."))
    review = (
        "Could you add a review for the book whose title is Winter among the items of my order?"
    )
    assert conveyed(goals, [review]) == {"request:1:add_review"}
    assert "request:0:place_order" in conveyed(goals, ["Please cancel, no, place the order."])
