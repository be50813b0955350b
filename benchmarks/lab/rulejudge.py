"""A rule-based ``meu_v1`` claim extractor: a no-LLM baseline for judge validation.

The library's rule-based user-error judge is :mod:`autoforge.rollout.meu` (``--judge rule``);
this baseline fills the older claim format with the same checks (``one_off``, ``id_tokens``
from there), so the two never drift apart.

It produces the same :class:`~autoforge.rollout.judge.JudgeExtraction` the LLM judge returns,
so the verdict is decided by the same code (:func:`~autoforge.rollout.judge.verdict_from`).
The rules, and what they can and cannot see:

- *contradicts*: a user message holds a string of the same length as a scenario fact value
  that differs from it in exactly one character (a mistyped id, a changed digit);
- *not_in_scenario*: a user message holds an identifier-like token (three or more characters
  with a digit, or an e-mail address) found nowhere in the scenario, its facts, or the agent's
  messages and tool results *before* that message (the user cannot know it from the chat);
- *premature stop*: the user ended the chat before saying anything, or right after the agent
  asked a question.

Paraphrased or purely verbal mistakes ("I live in Paris" when the scenario says Rome) are out
of its reach; the LLM judge exists for those. ``benchmarks/judge_validation.py`` measures both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from autoforge.rollout import (
    EndReason,
    JudgeExtraction,
    JudgeVerdict,
    StopClaim,
    Trajectory,
    UserClaim,
    apply_verdict,
    verdict_from,
    visible_text,
)
from autoforge.rollout.meu import id_tokens, one_off
from autoforge.tasks import Task


def _leaves(key: str, value: object) -> Iterable[tuple[str, str]]:
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from _leaves(f"{key}.{k}", v)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(f"{key}[{i}]", v)
    elif value is not None:
        yield key, value if isinstance(value, str) else json.dumps(value)


def fact_values(facts: Mapping[str, object]) -> dict[str, str]:
    """Every fact as ``key -> text``; structured values (JSON text or objects) as their leaves."""
    out: dict[str, str] = {}
    for key, value in facts.items():
        parsed = value
        if isinstance(value, str) and value[:1] in "{[":
            try:
                parsed = json.loads(value)
            except json.JSONDecodeError:
                parsed = value
        out.update(_leaves(str(key), parsed))
    return out


def _seen(message: Mapping[str, object]) -> str:
    """The text of a non-user message the user may quote from."""
    content = message.get("content")
    if message.get("role") == "assistant":
        return visible_text(dict(message))
    return content if isinstance(content, str) and message.get("role") == "tool" else ""


def _claims_in(turn: int, text: str, facts: dict[str, str], corpus: str) -> list[UserClaim]:
    claims: list[UserClaim] = []
    for key, value in facts.items():
        wrong = one_off(text, value)
        if wrong is not None and value.lower() not in text.lower():
            claims.append(UserClaim(turn=turn, quote=wrong, fact=key, relation="contradicts"))
    flagged = {c.quote.lower() for c in claims}
    for token in id_tokens(text):
        low = token.lower()
        if low in corpus or any(low in f or f in low for f in flagged):
            continue
        claims.append(UserClaim(turn=turn, quote=token, relation="not_in_scenario"))
    return claims


def _stop(traj: Trajectory) -> StopClaim:
    if traj.end_reason != EndReason.USER_STOP:
        return StopClaim(stopped=False)
    if traj.n_user_turns == 0:
        return StopClaim(stopped=True, reason="premature")
    said = [m for m in traj.messages if m.get("role") == "assistant" and m.get("content")]
    last = visible_text(said[-1]) if said else ""
    asked = last.rstrip().endswith("?")
    return StopClaim(stopped=True, reason="premature" if asked else "goal_met")


def rule_extraction(task: Task, traj: Trajectory) -> JudgeExtraction:
    """The claims the rules find in the user's messages, and how the user stopped."""
    facts = fact_values(task.known_facts())
    corpus = [task.scenario.as_text().lower(), *(v.lower() for v in facts.values())]
    claims: list[UserClaim] = []
    turn = 0
    for message in traj.messages:
        if message.get("role") == "user":
            turn += 1
            text = str(message.get("content") or "")
            claims.extend(_claims_in(turn, text, facts, "\n".join(corpus)))
        elif message.get("role") != "system":
            corpus.append(_seen(message).lower())
    return JudgeExtraction(claims=claims, stop=_stop(traj))


def rule_judge(task: Task, traj: Trajectory, *, apply: bool = True) -> JudgeVerdict:
    """The rule-based verdict (stored on ``traj`` unless ``apply=False``)."""
    verdict = verdict_from(rule_extraction(task, traj), traj)
    if apply:
        apply_verdict(traj, verdict)
    return verdict


async def rule_judge_hook(task: Task, traj: Trajectory) -> JudgeVerdict:
    """:func:`rule_judge` as a ``RolloutDeps.meu_judge`` hook."""
    return rule_judge(task, traj)
