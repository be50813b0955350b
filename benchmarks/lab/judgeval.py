"""Validating the MEU judge against known faults: precision and recall per fault kind.

Episodes are played with a :class:`~autoforge.rollout.user.FaultyUser`, which records every
fault it injects (changed fact, invented fact, early stop): that is the ground truth. A judge's
verdict names its reasons in fixed words (:func:`~autoforge.rollout.judge.verdict_from`), which
map back to fault kinds. Per kind K: precision = flagged-K episodes that really had a K fault,
recall = K-fault episodes flagged K; ``any`` compares "some fault" with ``user_error``.

Caveat built into the numbers: an LLM user can make mistakes of its own that were not
injected; a judge that catches one counts as a false positive here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel

from autoforge.rollout import FAULT_KINDS, JudgeVerdict, Trajectory

#: Words of ``verdict_from``'s reasons -> the fault kind they detect.
REASON_KINDS: dict[str, str] = {
    "contradicted scenario fact": "change_fact",
    "stated a fact not in the scenario": "invent_fact",
    "stopped before the goal": "stop_early",
}
KINDS: tuple[str, ...] = (*FAULT_KINDS, "any")


class JudgedEpisode(BaseModel):
    """One episode's ground truth and one judge's flags (``None``: the judge failed)."""

    task_id: str
    source: str
    judge: str
    faults: list[str]
    flags: list[str] | None
    reason: str = ""
    ignored_claims: int = 0


class FlagScore(BaseModel):
    """Confusion counts and rates of one fault kind."""

    kind: str
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def row(self) -> dict[str, object]:
        """Counts plus rates, for JSON."""
        return {**self.model_dump(), "precision": self.precision, "recall": self.recall}


def fault_kinds(traj: Trajectory) -> list[str]:
    """The kinds of fault injected in an episode (ground truth)."""
    return sorted({f.kind for f in traj.faults})


def verdict_kinds(verdict: JudgeVerdict | None) -> list[str] | None:
    """The fault kinds a verdict flags (``None`` for a failed judge)."""
    if verdict is None:
        return None
    if not verdict.user_error:
        return []
    return sorted({kind for words, kind in REASON_KINDS.items() if words in verdict.reason})


def score(records: Iterable[JudgedEpisode], kinds: tuple[str, ...] = KINDS) -> dict[str, FlagScore]:
    """Per kind (and ``any``) confusion counts over the episodes the judge answered."""
    scores = {k: FlagScore(kind=k) for k in kinds}
    for rec in records:
        if rec.flags is None:
            continue
        for kind in kinds:
            truth = bool(rec.faults) if kind == "any" else kind in rec.faults
            flag = bool(rec.flags) if kind == "any" else kind in rec.flags
            s = scores[kind]
            s.tp += truth and flag
            s.fp += flag and not truth
            s.fn += truth and not flag
            s.tn += not truth and not flag
    return scores


def judge_failures(records: Sequence[JudgedEpisode]) -> int:
    """Episodes the judge could not answer (LLM failure)."""
    return sum(r.flags is None for r in records)
