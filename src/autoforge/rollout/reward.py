"""The reward of an episode: exact, explained, and honest about what it could not check.

Default rule (autoforge tasks, tau-bench): 1 iff the final state hash equals the task's S* hash
and every required output appears in one of the agent's messages (case-insensitive, commas
stripped from the agent's text), else 0. Imported tau2 tasks name their ``reward_basis``; each
basis is one component:

- ``DB``: final state hash (and user-side state hash when the task has one) equals the gold's;
- ``COMMUNICATE``: the required outputs rule above;
- ``ACTION``: every gold action matches some tool call (name, and the compared arguments);
- ``ENV_ASSERTION``: every assertion holds, via an :data:`AssertionEvaluator` hook;
- ``NL_ASSERTION``: natural-language assertions, via an async :data:`NLJudge` hook (an LLM).

A component that cannot be evaluated is ``None``. Any 0 makes the reward 0; otherwise any
``None`` leaves the reward ``None`` (unscored), never a guessed 0 or 1. Episodes that did not
end naturally (max turns, tool-error budget) score 0; infrastructure errors score ``None``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from autoforge.rollout.trajectory import RewardInfo, ToolCallRecord, Trajectory
from autoforge.tasks import EnvAssertion, EvaluationCriteria, GoldCall, RequiredOutput, Task

#: ``(assertion, trajectory) -> value of the assertion function``, or None when it cannot tell.
AssertionEvaluator = Callable[[EnvAssertion, Trajectory], bool | None]
#: ``(nl_assertions, trajectory) -> one verdict per assertion`` (an LLM judge).
NLJudge = Callable[[Sequence[str], Trajectory], Awaitable[list[bool]]]


def output_found(output: str, texts: Iterable[str]) -> bool:
    """The tau-bench rule: ``output`` occurs in one text, case-insensitive, text commas removed."""
    needle = output.lower()
    return any(needle in text.lower().replace(",", "") for text in texts)


def action_matches(gold: GoldCall, call: ToolCallRecord) -> bool:
    """tau2's rule: same name; the compared arguments equal (all the call's, when unspecified)."""
    if gold.name != call.name:
        return False
    keys = list(call.arguments) if gold.compare_args is None else gold.compare_args
    if not keys:
        return True
    got = {k: v for k, v in call.arguments.items() if k in keys}
    want = {k: v for k, v in gold.arguments.items() if k in keys}
    return got == want


def check_db(task: Task, traj: Trajectory, crit: EvaluationCriteria) -> tuple[float | None, str]:
    """The DB component: final hashes against the gold hashes."""
    if task.final_state_hash is None:
        return None, "task has no gold state hash"
    if traj.final_state_hash != task.final_state_hash:
        return 0.0, (
            f"final state {_short(traj.final_state_hash)} != gold {_short(task.final_state_hash)}"
        )
    gold_user = crit.gold_user_state_hash
    if gold_user is not None and traj.final_user_state_hash != gold_user:
        return 0.0, (
            f"final user state {_short(traj.final_user_state_hash)} != gold {_short(gold_user)}"
        )
    return 1.0, "final state matches the gold"


def check_outputs(outputs: Sequence[RequiredOutput], traj: Trajectory) -> tuple[float, str]:
    """The COMMUNICATE component; an output is said when it or one of its alternatives is."""
    texts = traj.agent_texts()
    missing = [
        o for o in outputs if not any(output_found(v, texts) for v in [o.text, *o.alternatives])
    ]
    if missing:
        return 0.0, "missing required outputs: " + ", ".join(repr(m.text) for m in missing)
    return 1.0, f"all {len(outputs)} required outputs said"


def check_actions(actions: Sequence[GoldCall], traj: Trajectory) -> tuple[float, str]:
    """The ACTION component."""
    missing = [a for a in actions if not any(action_matches(a, c) for c in traj.tool_calls)]
    if missing:
        names = ", ".join(f"{a.name}({a.action_id or ''})" for a in missing)
        return 0.0, f"gold actions not performed: {names}"
    return 1.0, f"all {len(actions)} gold actions performed"


def check_assertions(
    assertions: Sequence[EnvAssertion], traj: Trajectory, evaluator: AssertionEvaluator | None
) -> tuple[float | None, str]:
    """The ENV_ASSERTION component."""
    if not assertions:
        return 1.0, "no environment assertions"
    failed: list[str] = []
    unknown: list[str] = []
    for assertion in assertions:
        value = evaluator(assertion, traj) if evaluator is not None else None
        if value is None:
            unknown.append(assertion.func_name)
        elif value != assertion.assert_value:
            failed.append(assertion.func_name)
    if failed:
        return 0.0, "assertions failed: " + ", ".join(failed)
    if unknown:
        return None, "assertions not evaluable here: " + ", ".join(unknown)
    return 1.0, f"all {len(assertions)} assertions hold"


def _short(value: str | None) -> str:
    return "none" if value is None else value[:12]


def _deterministic(
    task: Task,
    traj: Trajectory,
    crit: EvaluationCriteria,
    evaluator: AssertionEvaluator | None,
) -> dict[str, tuple[float | None, str]]:
    parts: dict[str, tuple[float | None, str]] = {}
    for basis in crit.reward_basis:
        if basis == "DB":
            parts[basis] = check_db(task, traj, crit)
        elif basis == "COMMUNICATE":
            parts[basis] = check_outputs(task.required_outputs, traj)
        elif basis == "ACTION":
            parts[basis] = check_actions(task.gold_calls, traj)
        elif basis == "ENV_ASSERTION":
            parts[basis] = check_assertions(crit.env_assertions, traj, evaluator)
    return parts


def combine(parts: dict[str, tuple[float | None, str]]) -> RewardInfo:
    """Any 0 -> 0; else any unknown -> None; else 1. The reason names the deciding parts."""
    components = {k: v for k, (v, _) in parts.items()}
    details: dict[str, Any] = {k: why for k, (_, why) in parts.items()}
    zeros = [f"{k}: {why}" for k, (v, why) in parts.items() if v == 0.0]
    if zeros:
        return RewardInfo(
            reward=0.0, reason="; ".join(zeros), components=components, details=details
        )
    unknown = [f"{k}: {why}" for k, (v, why) in parts.items() if v is None]
    if unknown:
        reason = "unscored; " + "; ".join(unknown)
        return RewardInfo(reward=None, reason=reason, components=components, details=details)
    reason = "all checks pass: " + ", ".join(parts) if parts else "no checks (reward basis empty)"
    return RewardInfo(reward=1.0, reason=reason, components=components, details=details)


def _early(traj: Trajectory) -> RewardInfo | None:
    if traj.is_infra_error:
        why = traj.infra_error or traj.end_reason.value
        return RewardInfo(reward=None, reason=f"infrastructure error, not scored: {why}")
    if not traj.end_reason.is_natural:
        return RewardInfo(reward=0.0, reason=f"episode did not finish ({traj.end_reason.value})")
    return None


def compute_reward(
    task: Task, traj: Trajectory, *, assertions: AssertionEvaluator | None = None
) -> RewardInfo:
    """The reward from every deterministic basis; an NL_ASSERTION basis stays unscored here."""
    early = _early(traj)
    if early is not None:
        return early
    crit = task.criteria
    parts = _deterministic(task, traj, crit, assertions)
    if "NL_ASSERTION" in crit.reward_basis:
        parts["NL_ASSERTION"] = (
            (None, "needs the judge (use score_episode with nl_judge)")
            if crit.nl_assertions
            else (1.0, "no NL assertions")
        )
    return combine(parts)


async def score_episode(
    task: Task,
    traj: Trajectory,
    *,
    assertions: AssertionEvaluator | None = None,
    nl_judge: NLJudge | None = None,
) -> RewardInfo:
    """:func:`compute_reward`, plus NL assertions through ``nl_judge`` when the basis has them.

    The judge is only asked when the deterministic parts did not already decide a 0.
    """
    early = _early(traj)
    if early is not None:
        return early
    crit = task.criteria
    parts = _deterministic(task, traj, crit, assertions)
    if "NL_ASSERTION" in crit.reward_basis:
        parts["NL_ASSERTION"] = await _nl_part(crit, traj, nl_judge, parts)
    return combine(parts)


async def _nl_part(
    crit: EvaluationCriteria,
    traj: Trajectory,
    nl_judge: NLJudge | None,
    parts: dict[str, tuple[float | None, str]],
) -> tuple[float | None, str]:
    if not crit.nl_assertions:
        return 1.0, "no NL assertions"
    if any(v == 0.0 for v, _ in parts.values()):
        return None, "not judged (already 0)"
    if nl_judge is None:
        return None, "needs the judge (no nl_judge given)"
    verdicts = await nl_judge(crit.nl_assertions, traj)
    failed = [a for a, ok in zip(crit.nl_assertions, verdicts, strict=True) if not ok]
    if failed:
        return 0.0, "NL assertions not met: " + "; ".join(failed)
    return 1.0, f"all {len(verdicts)} NL assertions met"
