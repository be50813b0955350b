"""MEU code rules: each fires on its fault, with the rule named in the verdict."""

from __future__ import annotations

from test_goals import bookstore_task  # type: ignore[import-not-found]

from autoforge.rollout.judge import code_verdict
from autoforge.rollout.meu import code_hits, one_off
from autoforge.rollout.trajectory import EndReason, Trajectory

QUESTION = "Can you tell me the shipping fee of order ORD-4722?"
REVIEW = "Please add a review for book B-7, rating 5."


def episode(user: list[str], last_agent: str, end: EndReason = EndReason.USER_STOP) -> Trajectory:
    messages: list[dict[str, object]] = [{"role": "system", "content": "policy"}]
    for text in user:
        messages += [{"role": "user", "content": text}, {"role": "assistant", "content": "Ok."}]
    messages[-1] = {"role": "assistant", "content": last_agent}
    return Trajectory(task_id="t", messages=messages, end_reason=end)


def rules(user: list[str], last_agent: str = "Done.", **kw: object) -> list[str]:
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
    assert rules([QUESTION, REVIEW], "Is there anything else I can help with?") == []


def test_contradicted_fact_value_and_label() -> None:
    assert rules([QUESTION.replace("4722", "4723"), REVIEW]) == ["contradicted_fact"]
    hits = code_hits(bookstore_task(), episode([QUESTION, REVIEW, "My book id is B-12."], "Ok"))
    assert [h.rule for h in hits] == ["contradicted_fact"] and "B-12" in hits[0].evidence


def test_invented_identifier_but_not_one_seen_in_the_chat() -> None:
    assert rules([QUESTION, REVIEW + " My member number is M-55123."]) == ["invented_identifier"]
    traj = episode([QUESTION, REVIEW + " Use order ORD-9."], "Ok")
    traj.messages.insert(2, {"role": "tool", "content": "orders: ORD-9"})
    assert code_hits(bookstore_task(), traj) == []


def test_one_off_needs_a_changed_letter_or_digit() -> None:
    assert one_off("order ORD-4723 please", "ORD-4722") == "ORD-4723"
    assert one_off("ann.lee@example.com", "Ann Lee") is None  # punctuation is no change
    assert one_off("ORD-47223", "ORD-4722") is None  # part of a longer token
