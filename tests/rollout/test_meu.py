"""MEU code rules: each fires on its fault, with the rule named in the verdict."""

from __future__ import annotations

from rollout_fakes import TWO_WRITES_ASK, two_writes_task  # type: ignore[import-not-found]
from test_goals import bookstore_task  # type: ignore[import-not-found]

from autoforge.rollout.judge import code_verdict
from autoforge.rollout.meu import code_hits, one_off
from autoforge.rollout.trajectory import EndReason, ToolCallRecord, Trajectory

QUESTION = "Can you tell me the shipping fee of order ORD-4722?"
REVIEW = "Please add a review for book B-7, rating 5."


def episode(user: list[str], last_agent: str, end: EndReason = EndReason.USER_STOP) -> Trajectory:
    messages: list[dict[str, object]] = [{"role": "system", "content": "policy"}]
    for text in user:
        messages += [{"role": "user", "content": text}, {"role": "assistant", "content": "Ok."}]
    messages[-1] = {"role": "assistant", "content": last_agent}
    return Trajectory(task_id="t", messages=messages, end_reason=end)


def rules(user: list[str], last_agent: str = "Done. The fee is 4.99.", **kw: object) -> list[str]:
    verdict = code_verdict(bookstore_task(), episode(user, last_agent, **kw), apply=False)  # type: ignore[arg-type]
    return verdict.rules


def test_a_faithful_user_is_not_blamed() -> None:
    assert rules([QUESTION, REVIEW]) == []


def test_the_issue_episode_dropping_the_write_is_blamed() -> None:
    task, traj = bookstore_task(), episode([QUESTION], "The fee is 4.99.")
    verdict = code_verdict(task, traj)
    assert verdict.rules == ["goal_unsaid"] and traj.user_error is True
    assert "never said: Please add review" in verdict.reason


def test_goal_unsaid_needs_a_user_end() -> None:
    assert rules([QUESTION], end=EndReason.AGENT_STOP) == []
    assert rules([QUESTION], end=EndReason.USER_INCOMPLETE) == ["goal_unsaid"]


def test_a_declined_goal_is_not_the_users_fault() -> None:
    assert rules([QUESTION], "Sorry, I cannot add reviews. The fee is 4.99.") == []


def test_stop_in_answer_to_a_question_is_stopped_early() -> None:
    assert rules([QUESTION, REVIEW], "What is your customer id?") == ["stopped_early"]
    assert rules([QUESTION, REVIEW], "The fee is 4.99. Anything else I can help with?") == []


def test_leaving_an_agent_that_repeats_its_question_is_not_the_users_fault() -> None:
    """The agent asking again, word for word, what it asked before: a user that stops then
    leaves the agent's loop, not the conversation."""
    messages: list[dict[str, object]] = [{"role": "system", "content": "policy"}]
    for text in [QUESTION, REVIEW]:
        messages += [{"role": "user", "content": text},
                     {"role": "assistant", "content": "Hi! How can I help you today?"}]  # fmt: skip
    traj = Trajectory(task_id="t", messages=messages, end_reason=EndReason.USER_STOP)
    assert code_verdict(bookstore_task(), traj, apply=False).rules == []  # type: ignore[arg-type]
    assert rules([QUESTION, REVIEW], "Hi! How can I help you today?") == ["stopped_early"]


def test_leaving_without_the_answer_asked_for_is_stopped_undone() -> None:
    assert rules([QUESTION, REVIEW], "Done.") == ["stopped_undone"]
    assert rules([QUESTION, REVIEW], "Sorry, I cannot look up fees.") == []


def test_contradicted_fact_value_and_label() -> None:
    assert rules([QUESTION.replace("4722", "4723"), REVIEW]) == ["contradicted_fact"]
    hits = code_hits(
        bookstore_task(), episode([QUESTION, REVIEW, "My book id is B-12."], "The fee is 4.99.")
    )
    assert [h.rule for h in hits] == ["contradicted_fact"] and "B-12" in hits[0].evidence


def test_invented_identifier_but_not_one_seen_in_the_chat() -> None:
    assert rules([QUESTION, REVIEW + " My member number is M-55123."]) == ["invented_identifier"]
    traj = episode([QUESTION, REVIEW + " Use order ORD-9."], "The fee is 4.99.")
    traj.messages.insert(2, {"role": "tool", "content": "orders: ORD-9"})
    assert code_hits(bookstore_task(), traj) == []


def test_one_off_needs_a_changed_letter_or_digit() -> None:
    assert one_off("order ORD-4723 please", "ORD-4722") == "ORD-4723"
    assert one_off("ann.lee@example.com", "Ann Lee") is None  # punctuation is no change
    assert one_off("ORD-47223", "ORD-4722") is None  # part of a longer token


# --------------------------------------------------------------------------- from real episodes
# (the hand-labelled set of benchmarks/transcripts: errors the rules above let through)

TWO_WRITES = two_writes_task()
ASKED = TWO_WRITES_ASK


def played(
    user: list[str],
    agent: list[str],
    calls: tuple[str, ...] = (),
    user_notes: list[str] | None = None,
) -> Trajectory:
    messages: list[dict[str, object]] = []
    for said, answer in zip(user, agent, strict=True):
        messages += [{"role": "user", "content": said}, {"role": "assistant", "content": answer}]
    records = [ToolCallRecord(step=i, call_id=str(i), name=n) for i, n in enumerate(calls)]
    return Trajectory(
        task_id="t2",
        messages=messages,
        tool_calls=records,
        end_reason=EndReason.USER_STOP,
        user_notes=user_notes or [],
    )


def test_leaving_with_a_said_request_undone_and_unmentioned_is_stopped_undone() -> None:
    traj = played([ASKED], ["Planter 4 has been watered."], ("water_planter",))
    assert [h.rule for h in code_hits(TWO_WRITES, traj)] == ["stopped_undone"]


def test_no_stopped_undone_when_the_rest_was_done_declined_or_claimed() -> None:
    done = played([ASKED], ["Planter 4 watered."], ("water_planter", "prune_hedges"))
    declined = played(
        [ASKED], ["Planter 4 watered. I can't prune hedges, sorry."], ("water_planter",)
    )
    claimed = played([ASKED], ["Done."])  # an agent that claims it all is believed
    for traj in (done, declined, claimed):
        assert code_hits(TWO_WRITES, traj) == []


def test_a_user_that_gave_up_is_blamed_once_by_what_it_repeated() -> None:
    agent = "Sorry, I can't find planter 9. Could you check the number?"
    repeat_agent = [
        f"turn 1: repeated a message ('Agent: {agent[:40]}'); asked again",
        "turn 1: repeated a message again; the customer gave up",
    ]
    repeat_self = [
        "turn 2: repeated a message ('Hi! Please water planter 4.'); asked again",
        "turn 2: repeated a message again; the customer gave up",
    ]
    traj = played([ASKED], [agent], user_notes=repeat_agent)
    assert [h.rule for h in code_hits(TWO_WRITES, traj)] == ["role_confusion"]
    traj = played([ASKED], [agent], user_notes=repeat_self)
    assert [h.rule for h in code_hits(TWO_WRITES, traj)] == ["gave_up"]  # no stop rule on top


def test_reading_the_brief_aloud_is_flagged_but_saying_the_request_is_not() -> None:
    aloud = played(["You want the agent to water planter 4; then prune the hedges."], ["Ok."])
    assert "read_instructions" in [h.rule for h in code_hits(TWO_WRITES, aloud)]
    own = played(
        [ASKED],
        ["Planter 4 watered and the hedges of planter 4 pruned."],
        ("water_planter", "prune_hedges"),
    )
    assert code_hits(TWO_WRITES, own) == []


def test_a_refusal_twice_and_the_agents_phrasing_are_role_confusion() -> None:
    refused = ["turn 1: refusal ('I cannot assist with that.'); asked again",
               "turn 1: refusal again; the customer gave up"]  # fmt: skip
    traj = played([ASKED], ["How can I help?"], user_notes=refused)
    assert [h.rule for h in code_hits(TWO_WRITES, traj)] == ["role_confusion"]
    phrased = played([ASKED, "What is the planter you are interested in?"], ["Ok.", "Ok."])
    assert "role_confusion" in [h.rule for h in code_hits(TWO_WRITES, phrased)]
