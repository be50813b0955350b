"""The simulated user's checklist: what it must get across, derived from the task by code.

A user that says only part of what it came for turns a task into a different, easier one, and
the agent is then scored (and trained) on a task nobody asked. So code, not the user model,
decides what must be said and whether it was said:

- a *request* goal per state-changing gold call (its tool name, e.g. ``add_review``), or, when
  the task does not say which calls write, per imperative sentence of the user's request;
- a *question* goal per question sentence of the request (``Can you tell me ...?``): the
  required outputs the agent must answer; a question that asks for one of the writes ("Can
  you help me place an order ...?") is that write's request, not a question of its own;
- a *fact* goal per user fact the agent will need: one whose value is a gold call argument or
  is written in the request.

:func:`task_goals` is the one place that reads the task for this (scenario text, user facts,
gold calls); everything else works on :class:`Goal`. :func:`conveyed` marks a goal said when
the user's messages hold its values (a fact, exactly) and its words (a request: the tool's
noun and its verb or a synonym; a question: most of its content words): literal matching, not
the model's word. :func:`refused` marks goals the agent declined ("I can't ...") naming them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from autoforge.rollout.user_guards import (
    STOPWORDS,
    WORD_RE,
    brief_runs,
    fact_label,
    task_request,
)
from autoforge.tasks import Task

GoalKind = Literal["request", "question", "fact"]

#: Verbs a customer uses for the same write, by the verb a tool name starts with.
VERB_CLASSES: tuple[frozenset[str], ...] = (
    frozenset(
        {
            "add",
            "create",
            "place",
            "make",
            "post",
            "leave",
            "write",
            "submit",
            "put",
            "open",
            "book",
            "buy",
            "purchase",
            "order",
            "new",
            "register",
            "give",
        }
    ),
    frozenset(
        {
            "update",
            "change",
            "modify",
            "edit",
            "set",
            "correct",
            "switch",
            "move",
            "rename",
            "adjust",
        }
    ),
    frozenset({"cancel", "delete", "remove", "drop", "withdraw", "close", "stop", "void"}),
    frozenset({"return", "refund", "send"}),
    frozenset({"exchange", "swap", "replace"}),
    frozenset({"pay", "charge", "settle"}),
    frozenset({"apply", "redeem", "use"}),
)
_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
_SKIP_SENTENCE = re.compile(r"^(?:hi|hello|hey|dear|i'?m |i am |my |for reference)\b", re.I)
# the guards' filler words, less the ones a goal may hinge on ("the customer's assistance"), plus
# request filler ("could", "some", "account") that names no goal
_STOPWORDS = (STOPWORDS - {"assistance", "customer", "goal"}) | {"account", "could", "some"}
_REFUSAL = re.compile(
    r"\b(?:can ?not|can'?t|unable to|not able to|not possible|isn'?t possible|no way to"
    r"|don'?t have (?:a|the|any) (?:tool|way|option)|not allowed|won'?t be able)\b",
    re.I,
)


class Goal(BaseModel):
    """One thing the user must get across.

    ``values``: exact values that must all be said (normalized, whole tokens); ``verbs``: one of
    them must be said (empty: none needed); ``words``: content stems, at least ``need`` of
    which must be said.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    kind: GoalKind
    text: str
    values: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    need: int = 0


# --------------------------------------------------------------------------- text matching


def normal(text: str) -> str:
    """Lowercase, ``_`` as a space, ``$`` and thousands separators dropped."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text.lower()).replace("$", "")
    return text.replace("_", " ")


def stems(text: str) -> set[str]:
    """Content words of four letters or more cut to five, plus every token with a digit."""
    words = WORD_RE.findall(normal(text))
    numbered = {w for w in words if any(ch.isdigit() for ch in w)}
    return numbered | {w[:5] for w in words if len(w) >= 4 and w not in _STOPWORDS | numbered}


def has_value(text: str, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` as a whole token (normalized)."""
    want = normal(value).strip()
    if not want:
        return True
    pattern = r"(?<![a-z0-9])" + re.escape(want) + r"(?![a-z0-9])"
    return re.search(pattern, normal(text)) is not None


#: How many words apart a request's verb and its noun may be ("cancel the most recent order").
VERB_REACH = 5


def _verb_near_noun(text: str, verbs: Sequence[str], nouns: Sequence[str]) -> bool:
    """Whether a verb of ``verbs`` stands within :data:`VERB_REACH` words of a noun stem of
    ``nouns`` ("add a review", "the order, cancel it"; not "add a review of a book in my
    order", which asks for no order)."""
    words = WORD_RE.findall(normal(text))
    at_verb = [i for i, w in enumerate(words) if w in verbs]
    at_noun = [i for i, w in enumerate(words) if w[:5] in nouns or w in nouns]
    return any(0 < abs(i - j) <= VERB_REACH for i in at_verb for j in at_noun)


def _said_verbatim(sentence: str, text: str) -> bool:
    """Whether ``text`` holds the words of ``sentence`` in a row (case and punctuation aside)."""
    want = " ".join(WORD_RE.findall(normal(sentence)))
    return bool(want) and f" {want} " in f" {' '.join(WORD_RE.findall(normal(text)))} "


def goal_said(goal: Goal, text: str) -> bool:
    """Whether ``text`` (the user's messages so far) conveys ``goal``: its values, its words,
    and (a request) one of its verbs near one of its nouns; or, for a request or question,
    the task's own sentence for it word for word (whatever its words: "check an in")."""
    if not all(has_value(text, v) for v in goal.values):
        return False
    if goal.kind != "fact" and _said_verbatim(goal.text, text):
        return True
    if goal.verbs and not _verb_near_noun(text, goal.verbs, goal.words or goal.verbs):
        return False
    return len(stems(text) & set(goal.words)) >= goal.need


def conveyed(goals: Sequence[Goal], user_texts: Iterable[str]) -> set[str]:
    """Keys of the goals the user's messages convey (together, not one message each)."""
    text = "\n".join(user_texts)
    return {g.key for g in goals if goal_said(g, text)}


def refused(goals: Sequence[Goal], agent_texts: Iterable[str]) -> set[str]:
    """Keys of the goals an agent message declines: a refusal that names the goal's words or
    values (the user may then stop without saying the rest of it)."""
    out: set[str] = set()
    for text in agent_texts:
        if not _REFUSAL.search(text):
            continue
        found = stems(text)
        for goal in goals:
            if found & set(goal.words) or any(has_value(text, v) for v in goal.values):
                out.add(goal.key)
    return out


def open_goals(
    goals: Sequence[Goal], user_texts: Sequence[str], agent_texts: Sequence[str]
) -> list[Goal]:
    """The goals neither said by the user nor declined by the agent, in order."""
    done = conveyed(goals, user_texts) | refused(goals, agent_texts)
    return [g for g in goals if g.key not in done]


def refused_all(agent_text: str) -> bool:
    """Whether an agent message declines (names what or not: "I can't help with that")."""
    return bool(_REFUSAL.search(agent_text))


def task_brief(task: Task) -> frozenset[tuple[str, ...]]:
    """The runs of the task's brief no customer says (:func:`user_guards.brief_runs`), less
    its request, which the user is given to say."""
    text = task.scenario.as_text()
    return brief_runs(text, task.scenario.question or task_request(text) or "")


def request_tool(goal: Goal) -> str | None:
    """The tool a request goal asks for (``request:<i>:<tool>``); ``None`` for any other goal
    and for a request read from the scenario's sentences."""
    parts = goal.key.split(":", 2)
    return parts[2] if goal.kind == "request" and len(parts) == 3 else None


def unanswered(
    said: Sequence[Goal], agent_texts: Sequence[str], called: Collection[str] = ()
) -> list[Goal]:
    """The requests among ``said`` that the agent neither did (a tool of ``called``), declined,
    nor spoke of, while it did answer another of them: the agent reported on part of the task
    and kept quiet on the rest. A request is spoken of by a noun no other request has ("member"
    in "add project member" beside "archive project"); an agent that answers nothing in
    particular ("Done.") leaves nothing unanswered, since it may be claiming it all, and one
    whose last message declines ("I can't help with that") has answered the rest."""
    requests = [g for g in said if request_tool(g)]
    if agent_texts and refused_all(agent_texts[-1]):
        return []  # the agent's last word declines what is left, named or not
    declined = refused(requests, agent_texts)
    spoken = set().union(*(stems(text) for text in agent_texts))

    def answered(goal: Goal) -> bool:
        others = set().union(*(set(g.words) for g in requests if g is not goal))
        own = set(goal.words) - others or set(goal.words)
        return request_tool(goal) in called or goal.key in declined or bool(own & spoken)

    done = [g for g in requests if answered(g)]
    return [g for g in requests if g not in done] if done else []


def checklist_text(goals: Sequence[Goal], said: set[str]) -> str:
    """The checklist as lines, ``- [x] ...`` for said goals and ``- [ ] ...`` for the rest."""
    lines = [f"- [{'x' if g.key in said else ' '}] {g.text}" for g in goals]
    return "\n".join(lines) or "- (nothing to ask for)"


# --------------------------------------------------------------------------- derivation


def _leaves(value: Any) -> Iterable[str]:
    if isinstance(value, Mapping):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, bool):
        yield "yes" if value else "no"
    elif value is not None and value != "":
        yield str(value)


def fact_leaves(value: str) -> list[str]:
    """The values a fact holds: itself, or the leaves of a JSON object/list fact."""
    if value[:1] in "{[":
        try:
            return list(_leaves(json.loads(value)))
        except json.JSONDecodeError:
            pass
    return [value]


def request_sentences(scenario: str) -> list[str]:
    """The sentences of the user's request (its ``What you ask for:`` line, else the scenario's
    first paragraph), without greetings, self-introductions and reference notes."""
    request = task_request(scenario) or scenario.strip().split("\n\n")[0]
    parts = [s.strip() for s in _SENTENCE.split(" ".join(request.split()))]
    return [s for s in parts if s and not _SKIP_SENTENCE.match(s)]


def _stem_goal(
    key: str, kind: GoalKind, sentence: str, share: float, things: frozenset[str] = frozenset()
) -> Goal:
    """A goal said by ``share`` of the sentence's content stems; stems in ``things`` (the
    task's nouns and the user's values: "order", "ORD-4722") are left out when others remain,
    since saying them asks nothing ("my order is ORD-4722" asks no shipping fee)."""
    words = tuple(sorted(stems(sentence) - things)) or tuple(sorted(stems(sentence)))
    return Goal(
        key=key,
        kind=kind,
        text=sentence,
        words=words,
        need=max(1, math.ceil(share * len(words))) if words else 0,
    )


def _verb_class(verb: str, nouns: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The verbs a customer uses for ``verb``, less the task's nouns (in a bookstore "book"
    and "order" name things: "my book id" or "my order" says no purchase)."""
    for group in VERB_CLASSES:
        if verb in group:
            return tuple(sorted(v for v in group if v == verb or v not in nouns))
    return (verb,)


def _name_parts(name: str) -> list[str]:
    return [p for p in name.lower().replace("-", "_").split("_") if p]


def task_nouns(task: Task) -> frozenset[str]:
    """Words that name things in ``task``: its fact labels and the nouns of its tool names."""
    words = {w for name in task.known_facts() for w in _name_parts(name)}
    words |= {w for a in task.gold_calls for w in _name_parts(a.name)[1:]}
    return frozenset(words)


def _request_goal(
    index: int,
    name: str,
    sentences: list[str],
    distinct: list[str],
    things: frozenset[str] = frozenset(),
) -> Goal:
    """The request goal of one write call: its verb (or a synonym, less the task's nouns
    ``things``) and its other name words, plus the user-known values that tell it apart from
    another call of the same tool."""
    parts = _name_parts(name)
    verbs = _verb_class(parts[0], things) if len(parts) > 1 else ()
    nouns = tuple(sorted(stems(" ".join(parts[1:] if verbs else parts))))
    label = " ".join(parts)
    goal = Goal(
        key=f"request:{index}:{name}",
        kind="request",
        text=f"Ask the agent to {label}.",
        values=tuple(distinct),
        verbs=verbs,
        words=nouns,
        need=math.ceil(len(nouns) / 2),
    )
    # the request's own sentence: one that says it (a synonym verb, or a question such as "Can
    # you help me place an order?"), else one that holds the tool's name words
    said = [s for s in sentences if goal_said(goal, s)]
    named = [s for s in sentences if stems(label) <= stems(s)]
    named.sort(key=lambda s: s.endswith("?"))  # a statement before a question that names it
    text = next(iter(said or named), goal.text)
    return goal.model_copy(update={"text": text})


def _write_goals(task: Task, sentences: list[str], facts: list[str]) -> list[Goal] | None:
    """Request goals from the gold calls that write; ``None`` when the task does not say."""
    actions = [a for a in task.gold_calls if a.requestor != "user"]
    if not actions or all(a.writes is None for a in actions):
        return None
    writes = [a for a in actions if a.writes]
    known = {normal(v) for v in facts if len(v) >= 3}
    held = [{normal(v) for v in _leaves(a.arguments)} & known for a in writes]
    goals: list[Goal] = []
    for i, action in enumerate(writes):
        twins = [held[j] for j, w in enumerate(writes) if w.name == action.name and j != i]
        common = held[i].intersection(*twins)
        distinct = sorted(held[i] - common) if twins else []
        goal = _request_goal(i, action.name, sentences, distinct, task_nouns(task))
        same = [
            g
            for g in goals
            if (g.verbs, g.words, g.values) == (goal.verbs, goal.words, goal.values)
        ]
        if not same:  # the same write twice with nothing to tell them apart: one goal
            goals.append(goal)
    return goals


def _fact_goals(task: Task, request: str) -> list[Goal]:
    """A goal per fact the agent needs: its value is a gold call argument or in the request."""
    args = {normal(v) for a in task.gold_calls for v in _leaves(a.arguments)}
    goals = []
    for name, value in task.known_facts().items():
        leaves = [v for v in fact_leaves(str(value)) if v.strip()]
        if leaves and any(normal(v) in args or has_value(request, v) for v in leaves):
            shown = ", ".join(leaves)
            goals.append(
                Goal(
                    key=f"fact:{name}",
                    kind="fact",
                    values=tuple(leaves),
                    text=f"My {fact_label(name)}: {shown}",
                )
            )
    return goals


def task_goals(task: Task) -> list[Goal]:
    """The user's checklist for ``task``: requests, then questions, then facts.

    The one place that reads the task for goals: a richer task (explicit user goals) only
    needs this function to change.
    """
    sentences = request_sentences(task.scenario.as_text())
    facts = [v for value in task.known_facts().values() for v in fact_leaves(str(value))]
    writes = _write_goals(task, sentences, facts)
    requests = writes
    if requests is None:
        asks = [s for s in sentences if not s.endswith("?")]
        requests = [_stem_goal(f"request:{i}", "request", s, 0.5) for i, s in enumerate(asks)]
    # a question that asks for a write ("Can you help me cancel my order?") is that request
    asked = [
        s for s in sentences if s.endswith("?") and not any(goal_said(r, s) for r in writes or ())
    ]
    things = frozenset(
        {w[:5] for w in task_nouns(task) if len(w) >= 4} | {normal(v) for v in facts if v.strip()}
    )
    questions = [
        _stem_goal(f"question:{i}", "question", s, 0.6, things) for i, s in enumerate(asked)
    ]
    return [*requests, *questions, *_fact_goals(task, " ".join(sentences))]
