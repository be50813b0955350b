"""An item the caller must have got through an earlier record: "the customer must have
received the book in a delivered order", "only if they attended the class in a completed
booking".

Read for a write that takes a reference to the owner (the customer) and to the item (the
book) from a sentence of its own or of the policy on it that says the item was had "in a
<status> <parent>": the parent collection (named by the noun) refers to the owner under the
owner argument's name, its status enum holds the status word, and one of its list
attributes holds objects carrying the item argument's name. The call is refused unless some
parent record of that owner, in that status, lists the item (check kind ``record_for`` with
``table["lines"]`` naming the list). The data must agree: every stored record of the tool's
own collection that holds both arguments has such a parent. Nothing here names a domain.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from autoforge.env import Check, ToolBehaviour
from autoforge.synth.behaviour.data import Context
from autoforge.synth.behaviour.relations import noun_collection, param_for

#: "... <verb>ed it / the <item> in a <status> <parent>"
_HAD = re.compile(
    r"\b(?:\w+ed|\w+en|bought|got|had)\s+(?:it|them|the\s+(?P<item>[a-z]+))\s+"
    r"(?:in|on|through|with|via)\s+(?:a|an|one)\s+`?(?P<status>[a-z_]+)`?\s+(?P<parent>[a-z]+)",
    re.I,
)


def received_checks(tb: ToolBehaviour, sentences: list[str], ctx: Context) -> list[Check]:
    """One ``record_for`` check per sentence that makes the call's item one the owner had
    through a parent record in a stated status, where the data agrees."""
    if tb.kind in ("list", "get", "compute"):
        return []
    out: list[Check] = []
    for s in sentences:
        for m in _HAD.finditer(s):
            check = _check(tb, m, s, ctx)
            if check is not None and check not in out:
                out.append(check)
    return out


def _check(tb: ToolBehaviour, m: re.Match[str], sentence: str, ctx: Context) -> Check | None:
    parent = noun_collection(m.group("parent"), ctx.ev)
    if parent is None or parent == tb.collection:
        return None
    status_attr, statuses = ctx.status_enum(parent)
    status = m.group("status").lower()
    if status_attr is None or status not in statuses:
        return None
    attrs = set(ctx.ev.attributes.get(parent, []))
    owners = [p.name for p in tb.params if p.references and p.name in attrs]
    items = [p.name for p in tb.params if p.references and p.name not in attrs]
    if m.group("item"):
        items = [n for n in items if n == param_for(m.group("item"), tb)]
    if len(owners) != 1 or len(items) != 1:
        return None
    lists = _lists_with(ctx, parent, items[0])
    if len(lists) != 1:
        return None
    check = Check(kind="record_for", collection=parent, values=[owners[0], items[0]],
                  attribute=status_attr, table={"counted": [status], "lines": lists},
                  sentence=sentence)  # fmt: skip
    return check if _data_agrees(tb, check, ctx) else None


def _lists_with(ctx: Context, coll: str, field: str) -> list[str]:
    """The list attributes of ``coll`` whose stored entries are objects carrying ``field``."""
    out = []
    for attr in ctx.ev.list_attributes(coll):
        entries = [x for r in ctx.ev.state.get(coll, {}).values() for x in (r.get(attr) or [])]
        if entries and all(isinstance(x, dict) and field in x for x in entries):
            out.append(attr)
    return out


def _data_agrees(tb: ToolBehaviour, c: Check, ctx: Context) -> bool:
    """Every stored record of the tool's collection holding both arguments has a parent
    record the check accepts; at least one such record exists."""
    owner, item = (str(v) for v in c.values)
    parents = [r for r in ctx.ev.state.get(c.collection or "", {}).values() if isinstance(r, dict)]
    seen = 0
    for rec in ctx.ev.state.get(tb.collection or "", {}).values():
        if not isinstance(rec, Mapping) or rec.get(owner) is None or rec.get(item) is None:
            continue
        seen += 1
        if not any(_holds(p, c, rec.get(owner), rec.get(item)) for p in parents):
            return False
    return seen > 0


def _holds(parent: Mapping[str, Any], c: Check, owner: Any, item: Any) -> bool:
    owner_arg, item_arg = (str(v) for v in c.values)
    if str(parent.get(owner_arg)) != str(owner):
        return False
    if str(parent.get(c.attribute or "")) not in c.table["counted"]:
        return False
    lines = parent.get(c.table["lines"][0]) or []
    return any(isinstance(x, dict) and str(x.get(item_arg)) == str(item) for x in lines)
