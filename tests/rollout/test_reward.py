"""Reward edge cases: required outputs, commas, case, do-nothing, tau2 bases, unscored parts."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.rollout.reward import action_matches, compute_reward, output_found, score_episode
from autoforge.rollout.trajectory import EndReason, ToolCallRecord, Trajectory
from autoforge.tasks.model import (
    EnvAssertion,
    EvaluationCriteria,
    GoldCall,
    RequiredOutput,
    Task,
    UserScenario,
)

GOLD = "a" * 64


def task(
    outputs: list[str] | None = None,
    actions: list[GoldCall] | None = None,
    output_alternatives: dict[str, list[str]] | None = None,
    **crit: Any,
) -> Task:
    alternatives = output_alternatives or {}
    return Task(
        id="t",
        env_id="e",
        scenario=UserScenario(text="s"),
        final_state_hash=GOLD,
        required_outputs=[
            RequiredOutput(text=o, alternatives=alternatives.get(o, [])) for o in outputs or []
        ],
        gold_calls=actions or [],
        criteria=EvaluationCriteria(**crit),
    )


def traj(
    *texts: str, state: str = GOLD, end: EndReason = EndReason.USER_STOP, **kw: Any
) -> Trajectory:
    messages = [{"role": "assistant", "content": t} for t in texts]
    return Trajectory(task_id="t", messages=messages, final_state_hash=state, end_reason=end, **kw)


@pytest.mark.parametrize(
    ("output", "text", "found"),
    [
        ("1628", "The total is $1,628.", True),  # commas stripped from the agent's text
        ("1,628", "The total is 1,628", False),  # ... but not from the output (tau rule)
        ("Cotton", "it is made of COTTON", True),
        ("41.64", "you get 41.6 back", False),
        ("", "anything", True),
    ],
)
def test_output_rule(output: str, text: str, found: bool) -> None:
    assert output_found(output, [text]) is found


def test_output_must_be_in_one_message_not_split_across() -> None:
    assert not output_found("16 28", ["16", "28"])


def test_default_rule_db_and_outputs() -> None:
    t = task(["1628", "refund"])
    assert compute_reward(t, traj("Refund of 1,628 issued")).reward == 1.0
    missing = compute_reward(t, traj("Refund issued"))
    assert missing.reward == 0.0 and "'1628'" in missing.reason
    wrong_state = compute_reward(t, traj("Refund of 1628", state="b" * 64))
    assert wrong_state.reward == 0.0 and wrong_state.components["DB"] == 0.0


def test_outputs_are_checked_in_agent_messages_only() -> None:
    t = task(["1628"])
    user_said = Trajectory(
        task_id="t",
        messages=[
            {"role": "user", "content": "is it 1628?"},
            {"role": "assistant", "content": "yes"},
        ],
        final_state_hash=GOLD,
        end_reason=EndReason.USER_STOP,
    )
    assert compute_reward(t, user_said).reward == 0.0


def test_agent_reasoning_does_not_count_as_saying() -> None:
    t = task(["1628"])
    thought = traj("<think>total is 1628</think>Done.")
    assert compute_reward(t, thought).reward == 0.0


def test_do_nothing_agent() -> None:
    t = task([])
    noop = traj("Sorry, I can't help.", state="0" * 64)
    assert compute_reward(t, noop).reward == 0.0


def test_no_gold_hash_is_unscored_not_zero() -> None:
    t = Task(id="t", env_id="e", scenario="s")
    info = compute_reward(t, traj("hi"))
    assert info.reward is None and "no gold state hash" in info.reason


def test_unnatural_end_scores_zero_and_infra_is_unscored() -> None:
    t = task()
    assert compute_reward(t, traj(end=EndReason.MAX_TURNS)).reward == 0.0
    assert compute_reward(t, traj(end=EndReason.TOOL_ERROR_BUDGET)).reward == 0.0
    infra = compute_reward(t, traj(end=EndReason.LLM_FAILURE, infra_error="down"))
    assert infra.reward is None and "infrastructure" in infra.reason


def test_user_state_hash_part_of_db() -> None:
    t = task(reward_basis=["DB"], gold_user_state_hash="u" * 64)
    assert compute_reward(t, traj(final_user_state_hash="u" * 64)).reward == 1.0
    assert compute_reward(t, traj(final_user_state_hash="v" * 64)).reward == 0.0


def call(name: str, **args: Any) -> ToolCallRecord:
    return ToolCallRecord(step=0, call_id="c", name=name, arguments=args)


def test_action_matching_rule() -> None:
    gold = GoldCall(name="refund", arguments={"order": "o1", "amount": 5})
    assert action_matches(gold, call("refund", order="o1", amount=5))
    assert not action_matches(gold, call("refund", order="o1", amount=6))
    assert not action_matches(gold, call("cancel", order="o1", amount=5))
    partial = GoldCall(
        name="refund", arguments={"order": "o1", "amount": 5}, compare_args=["order"]
    )
    assert action_matches(partial, call("refund", order="o1", amount=99))
    # tau2 compares the call's own keys when compare_args is unset
    assert action_matches(gold, call("refund", order="o1"))


def test_action_basis() -> None:
    t = task(reward_basis=["ACTION"], actions=[GoldCall(name="refund", arguments={"o": 1})])
    assert compute_reward(t, traj(tool_calls=[call("refund", o=1)])).reward == 1.0
    info = compute_reward(t, traj(tool_calls=[call("refund", o=2)]))
    assert info.reward == 0.0 and "refund" in info.reason


def test_env_assertions_unknown_then_zero_dominates() -> None:
    a = EnvAssertion(func_name="assert_ok", arguments={})
    t = task(reward_basis=["DB", "ENV_ASSERTION"], env_assertions=[a])
    unknown = compute_reward(t, traj())
    assert unknown.reward is None and "not evaluable" in unknown.reason
    assert compute_reward(t, traj(), assertions=lambda a, tr: True).reward == 1.0
    assert compute_reward(t, traj(), assertions=lambda a, tr: False).reward == 0.0
    # a decided 0 beats an unknown
    assert compute_reward(t, traj(state="b" * 64)).reward == 0.0
    negative = task(
        reward_basis=["ENV_ASSERTION"],
        env_assertions=[a.model_copy(update={"assert_value": False})],
    )
    assert compute_reward(negative, traj(), assertions=lambda a, tr: False).reward == 1.0


async def test_nl_assertions_through_the_judge_hook() -> None:
    t = task(
        reward_basis=["DB", "NL_ASSERTION"], nl_assertions=["agent apologised", "agent confirmed"]
    )
    assert compute_reward(t, traj()).reward is None
    asked: list[list[str]] = []

    async def judge(assertions: Any, tr: Trajectory) -> list[bool]:
        asked.append(list(assertions))
        return [True, False]

    info = await score_episode(t, traj(), nl_judge=judge)
    assert info.reward == 0.0 and "agent confirmed" in info.reason
    assert asked == [["agent apologised", "agent confirmed"]]

    async def yes(assertions: Any, tr: Trajectory) -> list[bool]:
        return [True] * len(assertions)

    assert (await score_episode(t, traj(), nl_judge=yes)).reward == 1.0
    # the judge is not asked when the state already failed
    asked.clear()
    assert (await score_episode(t, traj(state="b" * 64), nl_judge=judge)).reward == 0.0
    assert asked == []


def test_output_alternatives() -> None:
    t = task(["19.90"], output_alternatives={"19.90": ["19.9"]})
    assert compute_reward(t, traj("It costs 19.9 dollars")).reward == 1.0
    assert compute_reward(t, traj("It costs 20 dollars")).reward == 0.0
