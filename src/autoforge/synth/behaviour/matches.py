"""Two records a call reaches that must agree on an attribute both hold: "The slot must be in
the customer's zone", "the venue must be in the same city as the home club", "the crew must
serve the household's zone".

Read from the tool's own sentences and the policy's on it: the sentence names one reached
record by its noun, then the other's attribute as "the <noun>'s <attribute>" or "the same
<attribute> as the <noun>". Both collections hold the attribute (by its name or its words).
The data must agree where it can tell: every stored record of the tool's collection that
names both records (through the call's key parameters as stored) names two that agree. The
check is ``same_value``: ``collection``/``via`` the first record, ``values`` ``[collection,
via]`` of the second (``via`` as :func:`related_records` gives it). Nothing here names a
domain.
"""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import Check, ToolBehaviour
from autoforge.synth.behaviour.data import Context, noun_forms
from autoforge.synth.behaviour.text import related_records, write_targets

Reached = tuple[str, str | None]


def match_checks(tb: ToolBehaviour, sentences: list[str], ctx: Context) -> list[Check]:
    """The ``same_value`` checks the sentences state (see the module)."""
    if tb.kind not in ("create", "action", "update"):
        return []
    reached = write_targets(tb, ctx) if tb.kind == "create" else related_records(tb, ctx)
    out: list[Check] = []
    for a in reached:
        for b in reached:
            if a == b or a[0] == b[0]:
                continue
            for attr in _shared(ctx, a[0], b[0]):
                said = next((s for s in sentences if _states(s, a[0], b[0], attr)), None)
                if said is None or any(c.attribute == attr for c in out):
                    continue
                if not _data_agrees(tb, ctx, a, b, attr):
                    continue
                out.append(Check(kind="same_value", collection=a[0], via=a[1], attribute=attr,
                                 values=[b[0], b[1] or ""], sentence=said))  # fmt: skip
    return out


def _shared(ctx: Context, ca: str, cb: str) -> list[str]:
    """Scalar attributes both collections hold, keys and references left out."""
    mine, theirs = ctx.ev.attributes.get(ca, []), set(ctx.ev.attributes.get(cb, []))
    out = []
    for attr in mine:
        keyish = attr == "id" or attr.endswith("_id")  # "paid" is no key
        if attr not in theirs or ctx.ev.references(ca, attr) or keyish:
            continue
        values = [r.get(attr) for r in ctx.ev.state.get(ca, {}).values() if isinstance(r, dict)]
        if values and all(isinstance(v, str) for v in values if v is not None):
            out.append(attr)
    return out


def _words(attr: str) -> str:
    return r"`?" + r"[\s_]+".join(re.escape(w) for w in attr.split("_")) + r"`?"


def _nouns(coll: str) -> str:
    return "|".join(re.escape(n) for n in noun_forms(coll))


def _states(s: str, ca: str, cb: str, attr: str) -> bool:
    """Whether ``s`` says the ``ca`` record lies in the ``cb`` record's ``attr``."""
    a, b, w = _nouns(ca), _nouns(cb), _words(attr)
    owner = rf"\b(?:{a})\b[^.;]*?\b(?:be|is|lie|lies)\s+in\s+the\s+(?:{b})'s\s+(?:\w+\s+)?{w}\b"
    same = (
        rf"\b(?:{a})\b[^.;]*?\b(?:in|of|from|share)\s+the\s+same\s+{w}\s+as\s+"
        rf"(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+)?(?:{b})\b"
    )
    serve = rf"\b(?:{a})\b[^.;]*?\bmust\s+(?:serve|cover)\s+the\s+(?:{b})'s\s+{w}\b"
    return any(re.search(p, s, re.I) for p in (owner, same, serve))


def _stored(tb: ToolBehaviour, ctx: Context, r: Reached) -> str | None:
    """The attribute of the tool's own records that names ``r``'s record: the reference
    itself, or the parameter as stored (its name, or the one attribute ending in it)."""
    via = r[1]
    if via is None:
        return None
    if not via.startswith("param:"):
        return via
    p = via.split(":", 1)[1]
    attrs = ctx.ev.attributes.get(tb.collection or "", [])
    if p in attrs:
        return p
    ends = [x for x in attrs if x.endswith("_" + p)]
    return ends[0] if len(ends) == 1 else None


def _data_agrees(tb: ToolBehaviour, ctx: Context, a: Reached, b: Reached, attr: str) -> bool:
    """No stored record of the tool's collection names two records that differ on ``attr``."""
    ka, kb = _stored(tb, ctx, a), _stored(tb, ctx, b)
    if ka is None or kb is None:
        return True  # the data cannot tell; the sentence stands
    for rec in ctx.ev.state.get(tb.collection or "", {}).values():
        if not isinstance(rec, dict):
            continue
        x = _far(ctx, a[0], rec.get(ka))
        y = _far(ctx, b[0], rec.get(kb))
        if x is not None and y is not None and x.get(attr) != y.get(attr):
            return False
    return True


def _far(ctx: Context, coll: str, key: Any) -> dict[str, Any] | None:
    rec = ctx.ev.state.get(coll, {}).get(str(key)) if key is not None else None
    return rec if isinstance(rec, dict) else None
