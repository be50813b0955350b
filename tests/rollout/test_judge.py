"""MEU judge: the pure verdict logic, and the structured-output path with a scripted client."""

from __future__ import annotations

from rollout_fakes import routed  # type: ignore[import-not-found]

from autoforge.rollout.judge import (
    JudgeExtraction,
    StopClaim,
    UserClaim,
    judge_messages,
    judge_user,
    meu_judge,
    nl_assertion_judge,
    verdict_from,
)
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.tasks.model import Task

USER_TURNS = ["Hi, I want to cancel order o1.", "My name is Ada Lovelace, zip 19123.", "ok bye"]


def convo(end: EndReason = EndReason.USER_STOP) -> Trajectory:
    messages = [{"role": "system", "content": "policy"}]
    for text in USER_TURNS:
        messages += [{"role": "user", "content": text}, {"role": "assistant", "content": "Sure."}]
    messages[-1]["content"] = "Done: order o1 (total 1250) is cancelled."  # the answer owed
    return Trajectory(task_id="t1", messages=messages, end_reason=end)


def claim(turn: int, quote: str, relation: str, **kw: object) -> UserClaim:
    return UserClaim(turn=turn, quote=quote, relation=relation, **kw)  # type: ignore[arg-type]


def test_consistent_claims_no_error() -> None:
    ex = JudgeExtraction(
        claims=[claim(1, "cancel order o1", "consistent", fact="order_id")],
        stop=StopClaim(stopped=True, reason="goal_met"),
    )
    v = verdict_from(ex, convo())
    assert not v.user_error and v.evidence == []


def test_contradiction_is_user_error_with_evidence() -> None:
    ex = JudgeExtraction(claims=[claim(2, "zip 19123", "contradicts", fact="zip")])
    v = verdict_from(ex, convo())
    assert v.user_error and "zip" in v.reason
    assert v.evidence == ["turn 2: 'zip 19123'"]


def test_invented_fact_only_when_factual() -> None:
    chit = JudgeExtraction(claims=[claim(3, "ok bye", "not_in_scenario", factual=False)])
    assert not verdict_from(chit, convo()).user_error
    fact = JudgeExtraction(claims=[claim(2, "My name is Ada Lovelace", "not_in_scenario")])
    assert verdict_from(fact, convo()).user_error


def test_unverifiable_quotes_are_ignored() -> None:
    ex = JudgeExtraction(claims=[claim(2, "my zip is 99999", "contradicts", fact="zip")])
    v = verdict_from(ex, convo())
    assert not v.user_error and v.ignored_claims == 1


def test_quote_matching_is_whitespace_and_case_insensitive_and_turn_checked() -> None:
    ok = JudgeExtraction(claims=[claim(2, "ZIP   19123", "contradicts")])
    assert verdict_from(ok, convo()).user_error
    wrong_turn = JudgeExtraction(claims=[claim(1, "zip 19123", "contradicts")])
    assert not verdict_from(wrong_turn, convo()).user_error
    out_of_range = JudgeExtraction(claims=[claim(9, "zip 19123", "contradicts")])
    assert verdict_from(out_of_range, convo()).user_error


def test_premature_stop_needs_a_real_user_stop() -> None:
    ex = JudgeExtraction(stop=StopClaim(stopped=True, reason="premature", quote="ok bye"))
    assert verdict_from(ex, convo()).user_error
    assert not verdict_from(ex, convo(EndReason.MAX_TURNS)).user_error
    met = JudgeExtraction(stop=StopClaim(stopped=True, reason="goal_impossible"))
    assert not verdict_from(met, convo()).user_error


def test_judge_prompt_numbers_customer_turns(task: Task) -> None:
    body = judge_messages(task, convo())[1]["content"]
    assert "CUSTOMER [2]: My name is Ada Lovelace, zip 19123." in body
    assert "- order_id: o1" in body and "ended by: the customer" in body


async def test_judge_user_via_structured_output(task: Task) -> None:
    answer = {
        "contradictions": [
            {"turn": 2, "quote": "my name is ada lovelace", "against": "order_id"},
            {"turn": 1, "quote": "cancel order o1", "against": "order_id"},  # states the value
            {"turn": 2, "quote": "my zip is 99999", "against": "order_id"},  # not a quote
        ]
    }
    client = routed(agent=[], user=[], judge=[answer])
    traj = convo()
    verdict = await judge_user(client, task, traj)
    assert verdict.user_error and traj.user_error is True
    assert "turn 2: order_id: 'my name is ada lovelace'" in traj.user_error_evidence
    assert verdict.ignored_claims == 2
    # the code rules run beside the LLM: "19123" is in neither the scenario nor the chat
    assert verdict.rules == ["invented_identifier", "llm_contradiction"]
    assert client.requests[0].role == "judge" and client.requests[0].response_format
    llm_only = await judge_user(routed(agent=[], user=[], judge=[answer]), task, convo(),
                                apply=False, code=False)  # fmt: skip
    assert llm_only.rules == ["llm_contradiction"]


async def test_meu_hook_keeps_the_code_verdict_when_the_llm_fails(task: Task) -> None:
    client = routed(agent=[], user=[], judge=["not json"] * 5)
    traj = convo()
    verdict = await meu_judge(client)(task, traj)
    assert verdict is not None and verdict.rules == ["invented_identifier"]
    assert traj.user_error is True and "LLM part failed" in traj.user_error_reason


async def test_nl_assertion_hook() -> None:
    client = routed(agent=[], user=[], judge=[{"verdicts": [{"index": 1, "met": True}]}])
    verdicts = await nl_assertion_judge(client)(["a", "b"], convo())
    assert verdicts == [False, True]  # a missing verdict counts as unmet
