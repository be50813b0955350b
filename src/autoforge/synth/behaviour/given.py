"""Rules about one optional parameter: "`express` is only accepted while the order is
`received`" bounds the calls that give ``express``, not every call of the tool. A check read
from a sentence whose subject is an optional parameter of the tool (the sentence opens with its
name, in code or in words, and a verb) applies only when that parameter is given.

Without this, an update of several optional fields refused a change of another field in a
status where only the one parameter is restricted. Nothing here names a domain.
"""

from __future__ import annotations

import re

from autoforge.env import BehaviourModel, Check, ToolBehaviour

#: checks of a parameter's own value, which apply to that parameter anyway
_OWN_VALUE = ("at_least_one", "format", "non_blank", "not_past", "argument", "bounds", "unique")
_VERB = r"(?:is|are|may|can|cannot|can't|must|will|has|have|needs?|only|requires?)\b"


def _subject(sentence: str, names: list[str]) -> str | None:
    """The optional parameter ``sentence`` opens with as its subject, or None."""
    head = sentence.lstrip(" -*>\t")
    for name in names:
        words = r"[\s_]+".join(re.escape(w) for w in name.split("_"))
        said = rf"^(?:the\s+|an?\s+)?(?:`{re.escape(name)}`|{words})(?:\s+(?:field|flag|value))?"
        if re.match(rf"{said}\s+(?:\w+\s+)?{_VERB}", head, re.I):
            return name
    return None


def _marked(c: Check, names: list[str]) -> Check:
    if c.kind in _OWN_VALUE or not c.sentence or c.when_given:
        return c
    name = _subject(c.sentence, names)
    if name is None or name == c.param:
        return c
    return c.model_copy(update={"when_given": name})


def mark_given(tb: ToolBehaviour) -> None:
    """Mark each check of ``tb`` whose sentence is about one of its optional parameters."""
    names = [p.name for p in tb.params if not p.required and p.name != tb.id_param]
    if names:
        tb.checks = [_marked(c, names) for c in tb.checks]


def mark_model(model: BehaviourModel) -> None:
    """:func:`mark_given` for every tool of ``model``."""
    for tb in model.tools:
        mark_given(tb)


__all__ = ["mark_given", "mark_model"]
