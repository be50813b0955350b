"""The "model chooses, code speaks" user (prompt ``user_choice_v1``), for very small models.

Decomposed so that the model decides as little as possible: code answers what it can read off
the agent's last message (:func:`rule_choice`: a question naming one of the customer's details
gets that detail, a request to confirm gets "yes", any other question "I don't know", a closing
("anything else?", "have a nice day") ends the chat: :func:`rule_done`); only when none of these
applies does the model answer one schema-constrained question, whether the request is done
(:class:`DoneChoice`). :func:`compose` turns the choice into the message. Facts are
revealed only when asked for, exactly as held, and never invented. Pure apart from the model
call in :class:`autoforge.rollout.user.LLMUser`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from autoforge.rollout.user_guards import asking_sentences, details_asked, fact_label

CONFIRMATION = "confirmation"
OTHER = "other information"
NOTHING = "nothing"
_GIVE_UP_AFTER = 3  # the same nudge this many times in a row: the customer gives up


class DoneChoice(BaseModel):
    """The model's only decision: is the customer's request done (or shown impossible)?"""

    request_done: bool


_CONFIRM_RE = re.compile(
    r"\b(?:confirm|shall i|should i|go ahead|proceed|is (?:that|this) (?:correct|right)"
    r"|do you want me to|would you like me to|can i go|may i)\b",
    re.I,
)
_CLOSING_RE = re.compile(
    r"\b(?:anything else|something else|any other (?:questions|requests)|have a (?:nice|good|"
    r"great) day|goodbye|bye)\b",
    re.I,
)


def rule_done(agent_text: str) -> bool:
    """Whether the agent closes the chat ("anything else?", "have a nice day"): the customer
    then considers the request handled (the reward, not the user, checks that it was)."""
    return bool(_CLOSING_RE.search(agent_text))


def rule_choice(agent_text: str, facts: Mapping[str, str]) -> list[str]:
    """What code can answer without the model: the labels of the details a question names
    (every significant word of the label in one asking sentence), else ``["confirmation"]``
    for a request to confirm, else ``[]`` (the model decides)."""
    asking = asking_sentences(agent_text)
    if not asking:
        return []
    named = details_asked(agent_text, facts)
    if named:
        return named
    if any(_CONFIRM_RE.search(s) for s in asking):
        return [CONFIRMATION]
    return []


def _value_text(value: str) -> str:
    """A fact value as said aloud: JSON objects as ``key: value`` pairs."""
    try:
        parsed = json.loads(value)
    except (TypeError, ValueError):
        return value
    if isinstance(parsed, dict):
        return ", ".join(f"{fact_label(str(k))}: {v}" for k, v in parsed.items())
    return value


def compose(
    asks_for: str | Sequence[str],
    done: bool,
    facts: Mapping[str, str],
    earlier: Sequence[str],
    asked: bool = False,
) -> tuple[str, bool]:
    """The customer's message for a choice (one value, or several detail labels), and whether
    it ends the chat. ``asked``: the agent asked a question (then the customer never stops)."""
    by_label = {fact_label(name): value for name, value in facts.items()}
    wanted = [asks_for] if isinstance(asks_for, str) else list(asks_for)
    details = [label for label in wanted if label in by_label]
    if details:
        text = " ".join(f"My {label} is {_value_text(by_label[label])}." for label in details)
        return text, False
    asks_for = wanted[0] if wanted else NOTHING
    if asks_for == CONFIRMATION:
        return "Yes, please go ahead.", False
    if asks_for == OTHER or (asked and asks_for == NOTHING):
        return "Sorry, I don't know that.", False
    if done:
        return "Thank you, that's all.", True
    nudge = "Could you please go ahead with my request?"
    recent = list(earlier[-(_GIVE_UP_AFTER - 1) :])
    if len(recent) == _GIVE_UP_AFTER - 1 and all(text == nudge for text in recent):
        return "It seems this cannot be done. Thank you anyway.", True
    return nudge, False
