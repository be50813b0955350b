"""A record's list must hold some items before a tool acts on it: "the plan must be a draft
with at least one item", "a basket without any lines cannot be checked out".

The list is an attribute of the target record whose values in the data (or whose documented
schema) are lists; its items are named after it (``items``: "item"; ``line_items``: "line
item"; ``member_ids``: "member"). A rule sentence of the tool (its description, or the
policy's sentences about it) giving "at least N <items>", or saying a record "without
(any) <items>" is refused, becomes a ``min_items`` check. "At least one of <x> or <y>" is
about the arguments, not a list, and is left alone. Every rule is stated without naming a
domain.
"""

from __future__ import annotations

import re

from autoforge.env import Check, ToolBehaviour
from autoforge.lexicon import count_of, number_words
from autoforge.synth.behaviour.data import Context, noun_forms

_LEAST = rf"\bat\s+least\s+(\d+|{number_words()})"
_REFUSED = re.compile(
    r"\b(?:cannot|can't|can not|may not|is refused|are refused|is rejected)\b", re.I
)


def _lists(tb: ToolBehaviour, ctx: Context) -> list[str]:
    """The list attributes of the tool's target collection: in the data, or documented as
    arrays."""
    coll = tb.collection or ""
    found = set(ctx.ev.list_attributes(coll))
    for name, prop in ctx.schemas.get(coll, {}).items():
        if isinstance(prop, dict) and prop.get("type") == "array":
            found.add(name)
    return sorted(found)


def _items(attribute: str) -> str:
    """A regex alternation of the nouns naming one item of list ``attribute``."""
    item = re.sub(r"_(ids?|keys?|codes?)$", "", attribute)
    forms = {*noun_forms(item + "s"), *noun_forms(item)}
    return "|".join(re.escape(f.replace("_", " ")) for f in sorted(forms, key=len, reverse=True))


def min_items_checks(tb: ToolBehaviour, ruled: list[str], ctx: Context) -> list[Check]:
    """The ``min_items`` checks the tool's rule sentences ``ruled`` state (see the module)."""
    if tb.kind in ("create", "list", "get", "compute") or not tb.collection:
        return []
    out: list[Check] = []
    for attr in _lists(tb, ctx):
        items = _items(attr)
        for s in ruled:
            least = re.search(rf"{_LEAST}\s+({items})\b(?!\s+of\b)", s, re.I)
            none = re.search(rf"\bwithout\s+(?:any\s+)?({items})\b", s, re.I)
            if least:
                n = count_of(least.group(1))
            elif none and _REFUSED.search(s):
                n = 1
            else:
                continue
            out.append(Check(kind="min_items", collection=tb.collection, attribute=attr,
                             low=float(n), sentence=s))  # fmt: skip
            break
    return out
