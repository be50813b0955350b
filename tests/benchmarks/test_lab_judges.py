"""The lab's judge baselines: the rule-based ``meu_v1`` claim extractor and the scoring of
judges against injected faults (``benchmarks/lab``)."""

from __future__ import annotations

import json
from typing import Any

from lab.judgeval import JudgedEpisode, score, verdict_kinds
from lab.rulejudge import fact_values, rule_judge

from autoforge.rollout.judge import JudgeVerdict
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.tasks.model import Task

# --------------------------------------------------------------------------- rule judge

TASK = Task(
    id="t",
    env_id="shop",
    scenario="Cancel your order.",
    user_facts={"order_id": "ORD-1234", "email": "ada@example.com"},
)


def traj(*turns: str | tuple[str, str], end: EndReason = EndReason.USER_STOP) -> Trajectory:
    """User turns; a ``(role, text)`` pair inserts an agent or tool message."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "policy"}]
    n = 0
    for turn in turns:
        if isinstance(turn, tuple):
            messages.append({"role": turn[0], "content": turn[1]})
        else:
            messages.append({"role": "user", "content": turn})
            n += 1
    return Trajectory(task_id="t", messages=messages, end_reason=end, n_user_turns=n)


def test_rule_judge_clean_conversation_is_not_flagged() -> None:
    t = traj(
        "Please cancel ORD-1234, my email is ada@example.com.",
        ("assistant", "Done. Your refund of 1250 is on its way."),
        "Great, so 1250 back. Thanks!",
    )
    assert rule_judge(TASK, t).user_error is False


def test_rule_judge_flags_changed_and_invented_facts() -> None:
    changed = rule_judge(TASK, traj("Please cancel ORD-1235."))
    assert changed.user_error and "contradicted scenario fact order_id" in changed.reason
    assert changed.evidence == ["turn 1: 'ORD-1235'"]
    invented = rule_judge(TASK, traj("Cancel ORD-1234. My membership number is M-55512."))
    assert invented.user_error and "not in the scenario" in invented.reason
    # an id the agent said earlier is not invented, one it says only later is
    echoed = traj(("assistant", "Your other order is ORD-777."), "Then cancel ORD-777 too.")
    assert rule_judge(TASK, echoed).user_error is False
    later = traj("Cancel ORD-777.", ("assistant", "ORD-777 does not exist."))
    assert rule_judge(TASK, later).user_error is True


def test_rule_judge_stops() -> None:
    assert rule_judge(TASK, traj()).user_error  # stopped before saying anything
    asked = traj("Cancel ORD-1234.", ("assistant", "What is your email?"))
    assert "stopped before the goal" in rule_judge(TASK, asked).reason
    answered = traj("Cancel ORD-1234.", ("assistant", "It is cancelled."))
    assert rule_judge(TASK, answered).user_error is False
    cut = traj("Cancel ORD-1234.", ("assistant", "What is your email?"), end=EndReason.MAX_TURNS)
    assert rule_judge(TASK, cut).user_error is False  # the user did not stop


def test_fact_values_flatten_structured_facts() -> None:
    facts = fact_values({"address": json.dumps({"city": "Rome", "zip": 123}), "n": 2})
    assert facts == {"address.city": "Rome", "address.zip": "123", "n": "2"}


# --------------------------------------------------------------------------- judge validation


def test_verdict_kinds_and_scores() -> None:
    v = JudgeVerdict(
        user_error=True,
        reason="user contradicted scenario fact a; user stated a fact not in the scenario",
    )
    assert verdict_kinds(v) == ["change_fact", "invent_fact"]
    assert verdict_kinds(JudgeVerdict(user_error=False, reason="no user error found")) == []
    assert verdict_kinds(None) is None
    records = [
        JudgedEpisode(
            task_id="a", source="s", judge="j", faults=["change_fact"], flags=["change_fact"]
        ),
        JudgedEpisode(task_id="b", source="s", judge="j", faults=["stop_early"], flags=[]),
        JudgedEpisode(task_id="c", source="s", judge="j", faults=[], flags=["invent_fact"]),
        JudgedEpisode(task_id="d", source="s", judge="j", faults=[], flags=[]),
        JudgedEpisode(task_id="e", source="s", judge="j", faults=["stop_early"], flags=None),
    ]
    s = score(records)
    assert (s["change_fact"].precision, s["change_fact"].recall) == (1.0, 1.0)
    assert s["stop_early"].recall == 0.0 and s["stop_early"].precision is None
    assert s["invent_fact"].precision == 0.0
    assert (s["any"].tp, s["any"].fp, s["any"].fn, s["any"].tn) == (1, 1, 1, 1)
