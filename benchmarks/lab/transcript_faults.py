"""User faults written into a finished transcript: ground truth for validating the MEU judge.

:class:`~autoforge.rollout.user.FaultyUser` injects faults while an episode is played, which
needs the episode to be played again. An episode someone else played (a model-played eval
episode) can be given a fault afterwards instead: :func:`inject` returns a copy of the
trajectory with one fault written into the user's messages and recorded in ``faults``, the
same :class:`~autoforge.rollout.trajectory.FaultRecord` a ``FaultyUser`` writes. The agent's
later messages are left as they were, so an injected transcript can read oddly (the agent
answers what the user no longer says); the judge is only asked about the user.

Kinds:

- ``change_fact``: a fact value the user said, one letter or digit off (:func:`perturb`);
- ``contradict_words``: a fact whose value is words (a name, title, city, reason), said with
  another value of the same fact taken from ``alternatives`` (other tasks' values): what the
  code rules do not compare and the LLM part of the judge is asked about;
- ``invent_fact``: an id-like detail the task does not hold, added to a message;
- ``drop_goal``: every sentence that says one request or question of the checklist removed;
- ``stop_early``: the chat cut after an agent question, ended by the user.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from autoforge.rollout.goals import Goal, fact_leaves, goal_said, has_value, task_goals
from autoforge.rollout.thinking import visible_text
from autoforge.rollout.trajectory import EndReason, FaultRecord, Trajectory
from autoforge.rollout.user import perturb, without_goal
from autoforge.rollout.user_guards import asks_for_information, fact_label
from autoforge.tasks import Task

TranscriptFault = Literal[
    "change_fact", "contradict_words", "invent_fact", "drop_goal", "stop_early"
]
TRANSCRIPT_FAULTS: tuple[TranscriptFault, ...] = (
    "change_fact",
    "contradict_words",
    "invent_fact",
    "drop_goal",
    "stop_early",
)
_INVENTED = ("membership number", "loyalty card", "phone number", "ticket number")


def _user_indexes(traj: Trajectory) -> list[int]:
    return [i for i, m in enumerate(traj.messages) if m.get("role") == "user"]


def _text(message: Mapping[str, Any]) -> str:
    return str(message.get("content") or "")


def _faulted(traj: Trajectory, kind: str, turn: int, detail: str) -> Trajectory:
    out = traj.model_copy(deep=True)
    out.faults = [*out.faults, FaultRecord(kind=kind, turn=turn, detail=detail)]
    return out


def _said_values(task: Task, traj: Trajectory, *, words: bool) -> list[tuple[int, str, str]]:
    """``(message index, fact name, value)`` for each fact value a user message says; only
    values with a digit (``words=False``) or only values without one (``words=True``)."""
    out = []
    for i in _user_indexes(traj):
        text = _text(traj.messages[i])
        for name, raw in task.known_facts().items():
            for value in fact_leaves(str(raw)):
                if len(value) >= 3 and _wordy(value) == words and has_value(text, value):
                    out.append((i, name, value))
    return out


def _wordy(value: str) -> bool:
    """A value in words: no digit, no e-mail (the code rules compare the others)."""
    return not any(ch.isdigit() or ch == "@" for ch in value)


def _turn(traj: Trajectory, index: int) -> int:
    return _user_indexes(traj).index(index) + 1


def _replace(traj: Trajectory, index: int, value: str, other: str) -> Trajectory:
    out = traj.model_copy(deep=True)
    message = dict(out.messages[index])
    spelled = r"[ _]".join(re.escape(part) for part in re.split(r"[ _]", value))
    pattern = re.compile(r"(?<![A-Za-z0-9])" + spelled + r"(?![A-Za-z0-9])", re.I)
    message["content"] = pattern.sub(other.replace("_", " "), _text(message))
    out.messages[index] = message
    return out


def change_fact(task: Task, traj: Trajectory, rng: random.Random) -> Trajectory | None:
    """A fact value with a digit the user said, one character off."""
    said = _said_values(task, traj, words=False)
    if not said:
        return None
    index, name, value = rng.choice(said)
    wrong = perturb(value)
    detail = f"{name}: {value!r} -> {wrong!r}"
    return _faulted(_replace(traj, index, value, wrong), "change_fact", _turn(traj, index), detail)


def contradict_words(
    task: Task, traj: Trajectory, rng: random.Random, alternatives: Mapping[str, Sequence[str]]
) -> Trajectory | None:
    """A word-valued fact said with another value of the same fact: replaced where the user
    said it, else stated in the user's last message ("My genre is romance, by the way.")."""
    facts = task.known_facts()
    said = _said_values(task, traj, words=True)
    options = [
        (i, n, v, o) for i, n, v in said for o in alternatives.get(n, ()) if o.lower() != v.lower()
    ]
    if options:
        index, name, value, other = rng.choice(options)
        detail = f"{name}: {value!r} said as {other!r}"
        out = _replace(traj, index, value, other)
        return _faulted(out, "contradict_words", _turn(traj, index), detail)
    users = _user_indexes(traj)
    unsaid = [
        (n, o)
        for n, raw in facts.items()
        if _wordy(str(raw))
        for o in alternatives.get(n, ())
        if o.lower() != str(raw).lower()
    ]
    if not users or not unsaid:
        return None
    name, other = rng.choice(unsaid)
    out = traj.model_copy(deep=True)
    message = dict(out.messages[users[-1]])
    message["content"] = f"{_text(message)} My {fact_label(name)} is {other}, by the way.".strip()
    out.messages[users[-1]] = message
    detail = f"{name}: {facts[name]!r} said as {other!r}"
    return _faulted(out, "contradict_words", len(users), detail)


def invent_fact(task: Task, traj: Trajectory, rng: random.Random) -> Trajectory | None:
    """An id-like detail the task does not hold, added to a user message."""
    users = _user_indexes(traj)
    if not users:
        return None
    index = rng.choice(users)
    invented = f"{rng.choice('KMPTX')}-{rng.randint(10000, 99999)}"
    name = rng.choice(_INVENTED)
    out = traj.model_copy(deep=True)
    message = dict(out.messages[index])
    message["content"] = f"{_text(message)} By the way, my {name} is {invented}.".strip()
    out.messages[index] = message
    return _faulted(out, "invent_fact", _turn(traj, index), f"invented {name} {invented!r}")


def drop_goal(
    task: Task, traj: Trajectory, rng: random.Random, goals: Sequence[Goal] | None = None
) -> Trajectory | None:
    """One request or question the user said, left out of every user message; only for an
    episode the user ended (a dropped goal is the user's fault only when it walked away)."""
    if traj.end_reason not in (EndReason.USER_STOP, EndReason.USER_INCOMPLETE):
        return None
    users = _user_indexes(traj)
    said = [
        g
        for g in (task_goals(task) if goals is None else goals)
        if g.kind != "fact" and goal_said(g, "\n".join(_text(traj.messages[i]) for i in users))
    ]
    rng.shuffle(said)
    for goal in said:
        out = traj.model_copy(deep=True)
        for i in users:
            message = dict(out.messages[i])
            message["content"] = without_goal(_text(message), goal) or "Hi, I need some help."
            out.messages[i] = message
        if not goal_said(goal, "\n".join(_text(out.messages[i]) for i in users)):
            return _faulted(out, "drop_goal", 1, f"left out {goal.key}: {goal.text}")
    return None


def stop_early(task: Task, traj: Trajectory, rng: random.Random) -> Trajectory | None:
    """The chat cut right after an agent question that the user answered, ended by the user."""
    del task
    cuts = [
        i
        for i, m in enumerate(traj.messages[:-1])
        if m.get("role") == "assistant"
        and asks_for_information(visible_text(dict(m)))
        and traj.messages[i + 1].get("role") == "user"
    ]
    if not cuts:
        return None
    cut = rng.choice(cuts)
    out = traj.model_copy(deep=True)
    out.messages = out.messages[: cut + 1]
    out.end_reason = EndReason.USER_STOP
    turn = sum(1 for m in out.messages if m.get("role") == "user") + 1
    return _faulted(out, "stop_early", turn, "stopped in answer to the agent's question")


def inject(
    kind: TranscriptFault,
    task: Task,
    traj: Trajectory,
    rng: random.Random,
    alternatives: Mapping[str, Sequence[str]] | None = None,
) -> Trajectory | None:
    """A copy of ``traj`` with one fault of ``kind`` written in, or ``None`` when the episode
    offers no place for it (no fact value said, no word-valued fact, no agent question)."""
    if kind == "change_fact":
        return change_fact(task, traj, rng)
    if kind == "contradict_words":
        return contradict_words(task, traj, rng, alternatives or {})
    if kind == "invent_fact":
        return invent_fact(task, traj, rng)
    if kind == "drop_goal":
        return drop_goal(task, traj, rng)
    return stop_early(task, traj, rng)


def fact_alternatives(tasks: Sequence[Task]) -> dict[str, list[str]]:
    """Per fact name, the word values (no digits) the tasks give it: the other values a
    ``contradict_words`` fault may say."""
    out: dict[str, set[str]] = {}
    for task in tasks:
        for name, raw in task.known_facts().items():
            for value in fact_leaves(str(raw)):
                if len(value.strip()) >= 3 and _wordy(value):
                    out.setdefault(name, set()).add(value)
    return {name: sorted(values) for name, values in out.items()}
