"""The MEU judge: did the simulated *user* cause the failure (a Mistake by the End User)?

Code decides what code can (:mod:`meu`: a goal never said, a stop mid-question, a fact value
contradicted, an invented identifier); :func:`judge_user` adds what needs language
understanding: the LLM (prompt ``meu_v2``) lists only contradictions in paraphrase (of a
scenario fact, or of the user's own earlier words), each with exact quotes, and code keeps a
claim only when its quotes occur in the user's messages and a fact claim's quote does not state
the fact's own value. The verdict's ``rules`` name every rule that fired (``llm_contradiction``
for a verified LLM claim).

The older extraction (``meu_v1``, below; ``benchmarks/lab/rulejudge.py`` fills it by rules as a
baseline): the LLM only extracts structured claims (via ``client.structured``, role ``judge``):
each factual statement the user made, quoted, with the scenario fact it relates to and whether
it is consistent with it, contradicts it, or is not in the scenario; and whether and why the
user stopped. The verdict is computed in code by :func:`verdict_from`, which is pure: a quote
that does not occur in the user's messages is ignored (the judge cannot invent evidence); a
contradiction or an invented fact is a user error; a stop the judge calls premature counts only
if the episode really ended by the user's stop.

Also here: :func:`nl_assertion_judge`, the async NL_ASSERTION hook of the reward (tau2), and
the builders of the registry's ``judge`` kinds (``llm``, ``rule``, ``faults``, ``none``;
:mod:`.roles`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from autoforge.errors import UserError
from autoforge.rollout.goals import fact_leaves
from autoforge.rollout.meu import RuleHit, code_hits
from autoforge.rollout.roles import JudgeHooks
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.tasks import Task

JUDGE_PROMPT_VERSION = "meu_v2"

Relation = Literal["consistent", "contradicts", "not_in_scenario"]
StopReason = Literal["goal_met", "goal_impossible", "premature", "not_stopped"]


class UserClaim(BaseModel):
    """One factual statement of the user, as the judge read it."""

    turn: int = Field(description="1-based number of the user message")
    quote: str = Field(description="the user's exact words")
    fact: str | None = Field(default=None, description="key of the scenario fact it concerns")
    relation: Relation
    factual: bool = Field(
        default=True, description="a statement of fact (not a greeting, thanks or question)"
    )


class StopClaim(BaseModel):
    """Whether and why the user ended the conversation."""

    stopped: bool
    reason: StopReason = "not_stopped"
    quote: str = ""


class JudgeExtraction(BaseModel):
    """What the LLM returns."""

    claims: list[UserClaim] = Field(default_factory=list)
    stop: StopClaim = Field(default_factory=lambda: StopClaim(stopped=False))


class JudgeVerdict(BaseModel):
    """The code-computed verdict."""

    schema_version: int = 1
    user_error: bool
    reason: str
    evidence: list[str] = Field(default_factory=list)
    ignored_claims: int = 0
    rules: list[str] = Field(default_factory=list, description="the rules that fired")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def user_turns(traj: Trajectory) -> list[str]:
    """The user's messages, in order."""
    return [str(m.get("content") or "") for m in traj.messages if m.get("role") == "user"]


def quote_found(claim: UserClaim, turns: Sequence[str]) -> bool:
    """Whether the claim's quote occurs in its user message (or, if the turn is off, in any)."""
    quote = _norm(claim.quote)
    if not quote:
        return False
    if 1 <= claim.turn <= len(turns):
        return quote in _norm(turns[claim.turn - 1])
    return any(quote in _norm(t) for t in turns)


def verdict_from(extraction: JudgeExtraction, traj: Trajectory) -> JudgeVerdict:
    """The verdict from the judge's claims, checked against the transcript."""
    turns = user_turns(traj)
    evidence: list[str] = []
    reasons: list[str] = []
    ignored = 0
    for claim in extraction.claims:
        if not quote_found(claim, turns):
            ignored += 1
            continue
        where = f"turn {claim.turn}: {claim.quote!r}"
        if claim.relation == "contradicts":
            reasons.append(f"user contradicted scenario fact {claim.fact or '?'}")
            evidence.append(where)
        elif claim.relation == "not_in_scenario" and claim.factual:
            reasons.append("user stated a fact not in the scenario")
            evidence.append(where)
    stop = extraction.stop
    if stop.stopped and stop.reason == "premature" and traj.end_reason == EndReason.USER_STOP:
        reasons.append("user stopped before the goal was met or ruled out")
        evidence.append(f"stop: {stop.quote!r}" if stop.quote else "stop: user ended the chat")
    if reasons:
        return JudgeVerdict(
            user_error=True,
            reason="; ".join(dict.fromkeys(reasons)),
            evidence=evidence,
            ignored_claims=ignored,
        )
    return JudgeVerdict(user_error=False, reason="no user error found", ignored_claims=ignored)


def apply_verdict(traj: Trajectory, verdict: JudgeVerdict) -> None:
    """Store the verdict on the trajectory."""
    traj.user_error = verdict.user_error
    traj.user_error_reason = verdict.reason
    traj.user_error_evidence = list(verdict.evidence)


_SYSTEM = """You audit a simulated customer in a customer-service chat. You do not judge the agent.
List every factual statement the CUSTOMER made (their identity, account, orders, situation,
what they want). For each: the customer message number (1-based, counting customer messages
only), the exact quote, the key of the scenario fact it concerns (or null), and whether it is
"consistent" with the scenario, "contradicts" it, or is "not_in_scenario" (information the
scenario does not give). Mark greetings, thanks and questions as factual=false.
Then say whether the customer ended the chat and why: "goal_met", "goal_impossible" (the agent
made clear it cannot be done), "premature" (ended while the goal was still open), or
"not_stopped". Answer with JSON only."""


def judge_messages(task: Task, traj: Trajectory) -> list[dict[str, Any]]:
    """The judge's prompt: the scenario, the facts, and the numbered transcript."""
    facts = "\n".join(f"- {k}: {v}" for k, v in task.known_facts().items()) or "- (none)"
    lines, n = [], 0
    for m in traj.messages:
        if m.get("role") == "user":
            n += 1
            lines.append(f"CUSTOMER [{n}]: {m.get('content') or ''}")
        elif m.get("role") == "assistant" and m.get("content"):
            lines.append(f"AGENT: {m['content']}")
    ended = "the customer" if traj.end_reason == EndReason.USER_STOP else traj.end_reason.value
    body = (
        f"# Scenario\n{task.scenario.as_text()}\n\n# Scenario facts\n{facts}\n\n"
        f"# Transcript (ended by: {ended})\n" + "\n".join(lines)
    )
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": body}]


class Contradiction(BaseModel):
    """One contradiction in paraphrase the LLM found, with exact quotes."""

    turn: int = Field(description="1-based number of the customer message")
    quote: str = Field(description="the customer's exact words")
    against: str = Field(description='the scenario fact key it contradicts, or "earlier"')
    earlier_quote: str = Field(default="", description='for "earlier": the earlier exact words')


class ParaphraseExtraction(BaseModel):
    """What the LLM returns under ``meu_v2``."""

    contradictions: list[Contradiction] = Field(default_factory=list)


_SYSTEM_V2 = """You audit a simulated customer in a customer-service chat. You do not judge the
agent. Find only places where the CUSTOMER, in its own words, contradicts a scenario fact
(e.g. says it lives in Paris when the scenario says Rome) or contradicts something it said in an
earlier message. For each: the customer message number (1-based, counting customer messages
only), the exact quote, and "against": the key of the scenario fact, or "earlier" with the exact
quote of the earlier message. Say nothing about messages that agree with the scenario. Answer
with JSON only: {"contradictions": [...]} (an empty list when there is none)."""


def paraphrase_messages(task: Task, traj: Trajectory) -> list[dict[str, Any]]:
    """The ``meu_v2`` prompt: scenario, facts and the numbered transcript."""
    return [{"role": "system", "content": _SYSTEM_V2}, judge_messages(task, traj)[1]]


def llm_hits(
    extraction: ParaphraseExtraction, task: Task, traj: Trajectory
) -> tuple[list[RuleHit], int]:
    """The LLM's contradictions that survive the quote checks, and how many were dropped."""
    turns = user_turns(traj)
    facts = {k: str(v) for k, v in task.known_facts().items()}
    hits, dropped = [], 0
    for c in extraction.contradictions:
        claim = UserClaim(turn=c.turn, quote=c.quote, relation="contradicts")
        ok = quote_found(claim, turns)
        if c.against == "earlier":
            before = turns[: max(0, c.turn - 1)]
            ok = ok and bool(c.earlier_quote) and _norm(c.earlier_quote) != _norm(c.quote)
            ok = ok and any(_norm(c.earlier_quote) in _norm(t) for t in before)
        else:
            value = facts.get(c.against)
            ok = (
                ok
                and value is not None
                and not any(_norm(v) in _norm(c.quote) for v in fact_leaves(value))
            )
        if ok:
            hits.append(
                RuleHit(rule="llm_contradiction", turn=c.turn, evidence=f"{c.against}: {c.quote!r}")
            )
        else:
            dropped += 1
    return hits, dropped


def verdict_of(hits: list[RuleHit], ignored: int = 0) -> JudgeVerdict:
    """The verdict of the rules that fired (none: no user error)."""
    if not hits:
        return JudgeVerdict(user_error=False, reason="no user error found", ignored_claims=ignored)
    return JudgeVerdict(
        user_error=True,
        reason="; ".join(dict.fromkeys(f"{h.rule}: {h.evidence}" for h in hits)),
        evidence=[f"turn {h.turn}: {h.evidence}" if h.turn else h.evidence for h in hits],
        ignored_claims=ignored,
        rules=sorted({h.rule for h in hits}),
    )


def code_verdict(task: Task, traj: Trajectory, *, apply: bool = True) -> JudgeVerdict:
    """The verdict of the code rules alone (no model)."""
    verdict = verdict_of(code_hits(task, traj))
    if apply:
        apply_verdict(traj, verdict)
    return verdict


async def code_judge_hook(task: Task, traj: Trajectory) -> JudgeVerdict:
    """:func:`code_verdict` as a ``RolloutDeps.meu_judge`` hook."""
    return code_verdict(task, traj)


async def judge_user(
    client: Any, task: Task, traj: Trajectory, *, apply: bool = True, code: bool = True
) -> JudgeVerdict:
    """Code rules plus the LLM's verified paraphrase contradictions (``code=False``: the LLM
    part alone, for validation); the verdict is stored on ``traj`` unless ``apply=False``."""
    extraction = await client.structured(
        paraphrase_messages(task, traj),
        ParaphraseExtraction,
        role="judge",
        purpose="rollout.meu_judge",
    )
    found, dropped = llm_hits(extraction, task, traj)
    verdict = verdict_of([*(code_hits(task, traj) if code else []), *found], dropped)
    if apply:
        apply_verdict(traj, verdict)
    return verdict


def meu_judge(client: Any) -> Any:
    """A ``RolloutDeps.meu_judge`` hook; when the LLM fails the code rules' verdict stands
    (its reason says the LLM part is missing)."""

    async def hook(task: Task, traj: Trajectory) -> JudgeVerdict | None:
        try:
            return await judge_user(client, task, traj)
        except Exception as exc:  # LLMFailure and transport errors: not the episode's fault
            verdict = code_verdict(task, traj)
            traj.user_error_reason = (
                f"{verdict.reason} (LLM part failed: {type(exc).__name__}: {exc})"
            )
            return verdict

    return hook


class NLVerdict(BaseModel):
    """One NL assertion judged."""

    index: int
    met: bool
    justification: str = ""


class NLVerdicts(BaseModel):
    """The judge's answer for the NL assertions of one episode."""

    verdicts: list[NLVerdict]


def nl_assertion_judge(client: Any) -> Any:
    """The reward's ``NLJudge`` hook over the ``judge`` role (missing verdicts count as unmet)."""

    async def judge(assertions: Sequence[str], traj: Trajectory) -> list[bool]:
        listing = "\n".join(f"{i}. {a}" for i, a in enumerate(assertions))
        transcript = "\n".join(
            f"{m['role'].upper()}: {m.get('content')}"
            for m in traj.messages
            if m.get("role") in ("user", "assistant") and m.get("content")
        )
        messages = [
            {
                "role": "system",
                "content": "Decide for each numbered assertion whether the conversation "
                "satisfies it. Answer with JSON only.",
            },
            {"role": "user", "content": f"# Assertions\n{listing}\n\n# Conversation\n{transcript}"},
        ]
        out = await client.structured(messages, NLVerdicts, role="judge", purpose="rollout.nl")
        met = {v.index: v.met for v in out.verdicts}
        return [bool(met.get(i, False)) for i in range(len(assertions))]

    return judge


async def fault_oracle(task: Task, traj: Trajectory) -> None:
    """MEU ground truth for tests: the user erred iff a ``FaultyUser`` injected a fault."""
    traj.user_error = bool(traj.faults)
    traj.user_error_reason = "; ".join(f.detail for f in traj.faults) or "no fault injected"


def llm_judges(client: Any, config: Any) -> JudgeHooks:
    """``judge llm``: code rules plus the model's verified claims; NL assertions by the model."""
    if client is None:
        raise UserError("judge 'llm' needs an LLM client (an endpoint or the embedded model)")
    return JudgeHooks(meu=meu_judge(client), nl=nl_assertion_judge(client))


def rule_judges(client: Any, config: Any) -> JudgeHooks:
    """``judge rule``: the MEU code rules alone (no model; NL assertions stay unjudged)."""
    return JudgeHooks(meu=code_judge_hook)


def fault_judges(client: Any, config: Any) -> JudgeHooks:
    """``judge faults``: :func:`fault_oracle`, the ground truth of fault-injected runs."""
    return JudgeHooks(meu=fault_oracle)


def no_judges(client: Any, config: Any) -> JudgeHooks:
    """``judge none``: no MEU verdict, no NL-assertion judge."""
    return JudgeHooks()
