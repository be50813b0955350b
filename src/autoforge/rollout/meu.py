"""MEU (Mistake by the End User) decided by code where code can decide.

Pure rules over the transcript and the task, each firing with its evidence:

- ``goal_unsaid``: the user ended the chat (``user_stop`` / ``user_incomplete``) after the
  agent had finished what it was told, with a request or question of its checklist
  (:mod:`goals`) never said and never declined by the agent: it dropped part of its task;
- ``stopped_early``: the user ended the chat in answer to a question of the agent, with a goal
  still open (it walked out mid-conversation);
- ``contradicted_fact``: a user message gives a value one character off a scenario fact (a
  mistyped id, a changed digit), or names a fact by its label with another value
  ("my order id is ORD-2" when it is ORD-1);
- ``invented_identifier``: a user message holds an id-like token (three or more characters with
  a digit, or an e-mail address) found nowhere in the scenario, its facts, or the chat before;
- ``invented_name``: a user message holds a proper name ("Paris") whose words occur nowhere in
  the scenario, its facts, or the chat before; when exactly one name-valued fact of as many
  words goes unsaid in that message, the name contradicts it and ``contradicted_fact`` fires
  instead ("I live in Paris" when the scenario's city is Rome);
- ``stopped_undone``: the user ended the chat while a request it had said was neither done
  (the agent never called its tool), nor declined, nor spoken of by the agent since, or while
  an answer its questions required was never told: a customer asks about the rest before
  leaving;
- ``role_confusion``: a user message holds the agent's line (a customer label after its start,
  an agent label at a line start) or is phrased as the agent's ("How can I help you?"), or
  the user's notes say it kept speaking as the agent, refusing as an assistant does, or
  repeating the agent's message after being asked again (the guards of :mod:`user_guards`
  re-ask once; a user that persists gives up, and the episode is the user's fault);
- ``gave_up``: the notes say the user gave up for another reason (it repeated itself twice):
  the chat ended by the simulator's failure, not the customer's wish;
- ``read_instructions``: a user message copies a run of its brief that addresses it as "you"
  ("You want the agent to ..."), words no customer says; the request it was given to say is
  not its brief.

What needs language understanding (a contradiction in paraphrase, or the user contradicting
itself) is left to the LLM part of the judge
(:mod:`judge`), whose claims are checked against quotes. :func:`code_verdict` returns a
:class:`~autoforge.rollout.judge.JudgeVerdict` whose ``rules`` name what fired.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel

from autoforge.rollout.goals import (
    Goal,
    fact_leaves,
    has_value,
    normal,
    open_goals,
    refused_all,
    task_brief,
    task_goals,
    unanswered,
)
from autoforge.rollout.thinking import visible_text
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.rollout.user_guards import (
    SPOKE_AS_AGENT,
    asks_for_information,
    copied_brief,
    echoes_agent,
    fact_label,
    invented_names,
    mixes_roles,
    speaks_as_agent,
)
from autoforge.tasks import Task

CODE_RULES = (
    "goal_unsaid",
    "stopped_early",
    "contradicted_fact",
    "invented_identifier",
    "invented_name",
    "role_confusion",
    "stopped_undone",
    "gave_up",
    "read_instructions",
)
#: The fault kind (``FaultyUser``) each rule detects, for validation.
RULE_FAULTS: dict[str, str] = {
    "goal_unsaid": "drop_goal",
    "stopped_early": "stop_early",
    "contradicted_fact": "change_fact",
    "invented_identifier": "invent_fact",
    "invented_name": "invent_fact",
    "role_confusion": "role_confusion",
    "llm_contradiction": "change_fact",
    "stopped_undone": "stop_early",
    "gave_up": "stop_early",
    "read_instructions": "other",
}
_TOKEN = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|#?[A-Za-z]*[\w-]*\d[\w-]*")
MIN_TOKEN = 3


class RuleHit(BaseModel):
    """One rule that fired, with the user turn (1-based; 0: the episode) and its evidence."""

    rule: str
    turn: int = 0
    evidence: str


def _user_messages(traj: Trajectory) -> list[str]:
    return [str(m.get("content") or "") for m in traj.messages if m.get("role") == "user"]


def _agent_messages(traj: Trajectory) -> list[str]:
    return [
        visible_text(dict(m))
        for m in traj.messages
        if m.get("role") == "assistant" and m.get("content")
    ]


def stop_hits(
    goals: Sequence[Goal], traj: Trajectory, answers: Sequence[Sequence[str]] = ()
) -> list[RuleHit]:
    """``stopped_early`` for a user stop in answer to an agent's question for information (or
    before saying anything); else ``goal_unsaid`` for each request or question left unsaid (a
    fact the agent found another way is not the user's to say); else ``stopped_undone`` for a
    said request left unanswered or an answer in ``answers`` never told."""
    if traj.end_reason not in (EndReason.USER_STOP, EndReason.USER_INCOMPLETE):
        return []
    agent, user = _agent_messages(traj), _user_messages(traj)
    left = open_goals(goals, user, agent)
    asked = not user or (bool(agent) and asks_for_information(agent[-1]))
    if asked and user and traj.agent_repeated():
        return []  # the agent asked again what it had asked and been answered: its loop
    if asked:
        last = " ".join(agent[-1].split())[-80:] if agent else ""
        why = f"stopped after the question {last!r}" if user else "stopped before saying anything"
        return [RuleHit(rule="stopped_early", evidence=why)]
    unsaid = [
        RuleHit(rule="goal_unsaid", evidence=f"never said: {g.text}")
        for g in left
        if g.kind != "fact"
    ]
    if unsaid:
        return unsaid
    said = [g for g in goals if g not in left]
    return undone_hits(said, traj, agent) + untold_hits(said, agent, answers)


def untold_hits(
    said: Sequence[Goal], agent: Sequence[str], answers: Sequence[Sequence[str]]
) -> list[RuleHit]:
    """``stopped_undone`` when the user said what it came for and left without an answer the
    task requires (none of its renderings ``answers[i]`` in any agent message), the agent's
    last word declining nothing: a customer asks again before leaving."""
    if not said or (agent and refused_all(agent[-1])):
        return []
    told = "\n".join(agent)
    return [
        RuleHit(rule="stopped_undone", evidence=f"left without being told {ways[0]!r}")
        for ways in answers
        if ways and not any(has_value(told, w) for w in ways)
    ]


def undone_hits(said: Sequence[Goal], traj: Trajectory, agent: Sequence[str]) -> list[RuleHit]:
    """``stopped_undone`` for each request the user said and left unanswered (see
    :func:`~autoforge.rollout.goals.unanswered`: the agent reported on another request, and on
    this one neither did its tool, declined, nor said a word)."""
    called = {call.name for call in traj.tool_calls}
    return [
        RuleHit(rule="stopped_undone", evidence=f"stopped with {g.text!r} undone, unmentioned")
        for g in unanswered(said, agent, called)
    ]


def one_off(text: str, value: str) -> str | None:
    """A token of ``text`` as long as ``value`` that differs from it in exactly one letter or
    digit (case-insensitive; not part of a longer word; "Ann Lee" vs "ann.lee" is no change)."""
    n, low, want = len(value), text.lower(), value.lower()
    if n < MIN_TOKEN:
        return None
    for i in range(len(text) - n + 1):
        window = low[i : i + n]
        diff = [(a, b) for a, b in zip(window, want, strict=True) if a != b]
        if len(diff) != 1 or not (diff[0][0].isalnum() and diff[0][1].isalnum()):
            continue
        before = low[i - 1] if i > 0 else " "
        after = low[i + n] if i + n < len(low) else " "
        if not (before.isalnum() or after.isalnum()):
            return text[i : i + n]
    return None


def _labelled(text: str, name: str, value: str) -> str | None:
    """Another value given for fact ``name`` by its label ("my order id is X")."""
    label = re.escape(fact_label(name)).replace(r"\ ", r"[\s_-]+")
    match = re.search(rf"\b{label}\s*(?:is|:|=|was)?\s*([\w.@+-]+)", text, re.I)
    if match is None:
        return None
    said = match.group(1).strip(".")
    if not any(ch.isdigit() for ch in said) or normal(said) == normal(value):
        return None  # only values with digits: words after a label are too often not a value
    return said


def fact_hits(turn: int, text: str, facts: Mapping[str, str]) -> list[RuleHit]:
    """``contradicted_fact`` in one user message."""
    hits = []
    for name, raw in facts.items():
        for value in fact_leaves(str(raw)):
            if normal(value) in normal(text):
                continue
            wrong = one_off(text, value) or _labelled(text, name, value)
            if wrong is not None:
                hits.append(
                    RuleHit(
                        rule="contradicted_fact",
                        turn=turn,
                        evidence=f"{name}: said {wrong!r}, scenario {value!r}",
                    )
                )
    return hits


def id_tokens(text: str) -> Iterable[str]:
    """The id-like tokens of ``text``: three or more characters with a digit, or an e-mail."""
    for match in _TOKEN.finditer(text):
        token = match.group(0).strip(".-")
        if len(token) >= MIN_TOKEN:
            yield token


def invented_hits(turn: int, text: str, known: str, flagged: Sequence[RuleHit]) -> list[RuleHit]:
    """``invented_identifier`` in one user message, given everything the user could know."""
    hits = []
    seen = normal(known)
    for token in id_tokens(text):
        low = normal(token)
        if low in seen or any(low in h.evidence.lower() for h in flagged):
            continue
        hits.append(RuleHit(rule="invented_identifier", turn=turn, evidence=repr(token)))
    return hits


_NAME_VALUE = re.compile(r"^[A-Z][a-z]+(?:[ -][A-Z][a-z]+)*$")


def name_hits(
    turn: int, text: str, known: str, facts: Mapping[str, str], flagged: Sequence[RuleHit] = ()
) -> list[RuleHit]:
    """``invented_name`` (or ``contradicted_fact``: see the module docstring) in one user
    message, given everything the user could know; a name another hit already quotes (a
    mistyped name fact) is not flagged twice."""
    hits = []
    for name in invented_names(text, known):
        if any(name.lower() in h.evidence.lower() for h in flagged):
            continue
        size = len(name.split())
        rivals = [
            (key, value)
            for key, raw in facts.items()
            for value in fact_leaves(raw)
            if _NAME_VALUE.match(value)
            and len(value.split()) == size
            and not has_value(text, value)
        ]
        if len(rivals) == 1:
            key, value = rivals[0]
            why = f"{key}: said {name!r}, scenario {value!r}"
            hits.append(RuleHit(rule="contradicted_fact", turn=turn, evidence=why))
        else:
            why = f"{name!r} is in neither the scenario nor the chat"
            hits.append(RuleHit(rule="invented_name", turn=turn, evidence=why))
    return hits


def instruction_hits(turn: int, text: str, brief: frozenset[tuple[str, ...]]) -> list[RuleHit]:
    """``read_instructions`` in one user message: it copies a run of its brief."""
    said = copied_brief(text, brief)
    if said is None:
        return []
    return [RuleHit(rule="read_instructions", turn=turn, evidence=f"copied its brief: {said!r}")]


#: In the note :class:`~autoforge.rollout.user.LLMUser` writes when it spoke as the agent again.
GAVE_UP_AS_AGENT = f"{SPOKE_AS_AGENT} again"


def role_hits(turn: int, text: str) -> list[RuleHit]:
    """``role_confusion`` in one user message."""
    if not (mixes_roles(text) or speaks_as_agent(text)):
        return []
    said = " ".join(text.split())[:80]
    return [RuleHit(rule="role_confusion", turn=turn, evidence=f"wrote the agent's line: {said!r}")]


#: The end of the note :class:`~autoforge.rollout.user.LLMUser` writes when its model failed
#: the guards twice in a row and the customer ended the chat.
GAVE_UP = "again; the customer gave up"
_REPEATED = re.compile(r"repeated a message \((['\"])(.*)\1\); asked again")
_AGENT_LABEL = re.compile(r"^\W*(?:agent|assistant|support)\W*:\s*", re.I)


def _repeated_agent(notes: Sequence[str], agent: Sequence[str]) -> bool:
    """Whether the last message the user repeated (quoted by its notes) was the agent's."""
    quoted = [m.group(2) for note in notes if (m := _REPEATED.search(note))]
    if not quoted:
        return False
    return echoes_agent(_AGENT_LABEL.sub("", quoted[-1]), tuple(agent))


def note_hits(notes: Sequence[str], agent: Sequence[str] = ()) -> list[RuleHit]:
    """From the user's notes, each time it gave up after being asked again: ``role_confusion``
    when it kept speaking as the agent, refusing as an assistant does, or repeating the agent's
    message, else ``gave_up``."""
    hits = []
    for i, note in enumerate(notes):
        if GAVE_UP not in note:
            continue
        as_agent = (
            GAVE_UP_AS_AGENT in note
            or note.split(": ", 1)[-1].startswith("refusal again")  # answered as an assistant
            or _repeated_agent(notes[:i], agent)
        )
        hits.append(RuleHit(rule="role_confusion" if as_agent else "gave_up", evidence=note))
    return hits


def _seen(message: Mapping[str, object]) -> str:
    if message.get("role") == "assistant":
        return visible_text(dict(message))
    content = message.get("content")
    return content if isinstance(content, str) and message.get("role") == "tool" else ""


def code_hits(task: Task, traj: Trajectory, goals: Sequence[Goal] | None = None) -> list[RuleHit]:
    """Every code rule that fires on the episode, in transcript order (stop rules last)."""
    facts = {k: str(v) for k, v in task.known_facts().items()}
    known = [task.scenario.as_text(), *(v for raw in facts.values() for v in fact_leaves(raw))]
    hits: list[RuleHit] = []
    brief = task_brief(task)
    turn = 0
    for message in traj.messages:
        if message.get("role") == "user":
            turn += 1
            text = str(message.get("content") or "")
            found = fact_hits(turn, text, facts)
            hits += found + invented_hits(turn, text, "\n".join(known), found)
            hits += name_hits(turn, text, "\n".join(known), facts, found) + role_hits(turn, text)
            hits += instruction_hits(turn, text, brief)
        elif message.get("role") != "system":
            known.append(_seen(message))
    gave_up = note_hits(traj.user_notes, _agent_messages(traj))
    if gave_up:  # the chat ended by the simulator's failure: no stop rule on top
        return hits + gave_up
    answers = [[o.text, *o.alternatives] for o in task.required_outputs]
    return hits + stop_hits(task_goals(task) if goals is None else goals, traj, answers)
