"""Ownership: a write on a record that names, besides the record, the one who must hold it
("the member named in the call must be the one holding the slot", "only the member who
booked it may cancel"). The argument is the record's own reference attribute; the call is
refused when the record refers to someone else, and the argument is never written over it.

Read from the tool's own sentences and the policy's on it; nothing here names a domain.
"""

from __future__ import annotations

import re

from autoforge.env import Check, Effect, ToolBehaviour
from autoforge.synth.behaviour.data import Context, noun_forms
from autoforge.synth.behaviour.headings import carried_part

_OWNS = re.compile(
    r"\b(?:the\s+one\s+(?:holding|who|that)|(?:who|that)\s+(?:holds?|owns?|placed|made|booked|"
    r"opened|filed|created|bought|submitted)|holding\s+(?:it|the)|holds?\s+(?:it|the)|"
    r"belongs?\s+to\s+(?:the|that|this|its)|owns?\s+(?:it|the)|owner\s+of)\b(?!\s+(?:another|"
    r"any\s+other|a\s+different))",
    re.I,
)


def owned_checks(tb: ToolBehaviour, sentences: list[str], ctx: Context) -> list[Check]:
    """An ``owned`` check for each argument that names who must hold the target."""
    if (
        tb.id_param is None
        or tb.collection is None
        or tb.kind not in ("action", "update", "delete")
    ):
        return []
    out: list[Check] = []
    for p in tb.params:
        holder = ctx.ev.references(tb.collection, p.name) if p.name != tb.id_param else None
        if holder is None or holder == tb.collection:
            continue
        nouns = "|".join(re.escape(n) for n in [*noun_forms(holder), p.name])
        said = [s for s in sentences
                if _OWNS.search(s) and re.search(rf"\b(?:{nouns})\b", s, re.I)]  # fmt: skip
        if said:
            out.append(Check(kind="owned", param=p.name, collection=tb.collection,
                             attribute=p.name, sentence=carried_part(said[0], _OWNS)))  # fmt: skip
    return out


def parent_checks(tb: ToolBehaviour, path: str, ctx: Context) -> list[Check]:
    """An ``owned`` check for each earlier parameter of a nested path
    (``/yards/{yardId}/sheds/{shedId}``) the target record refers to by that name: the record
    is found under its parent, so a parent it does not refer to finds nothing (``values``
    ``["path"]`` says so)."""
    if tb.id_param is None or tb.collection is None or tb.kind == "create":
        return []
    params = re.findall(r"\{([^}/]+)\}", path)
    if not params or params[-1] != tb.id_param:
        return []
    out = []
    for p in params[:-1]:
        parent = ctx.ev.references(tb.collection, p)
        if (
            parent is not None
            and parent != tb.collection
            and p in ctx.ev.attributes.get(tb.collection, [])
        ):
            out.append(Check(kind="owned", param=p, collection=tb.collection, attribute=p,
                             values=["path"], sentence=f"the path {path}"))  # fmt: skip
    return out


def without_owner_writes(effects: list[Effect], checks: list[Check]) -> list[Effect]:
    """``effects`` without writing an ownership argument over the target's attribute."""
    owned = {(c.attribute, c.param) for c in checks if c.kind == "owned"}
    out = []
    for e in effects:
        if e.kind == "set" and e.record == "target":
            kept = {a: v for a, v in e.fields.items()
                    if not (v.source == "param" and (a, v.name) in owned)}  # fmt: skip
            if not kept:
                continue
            e = e.model_copy(update={"fields": kept})
        out.append(e)
    return out


def owned_lines(c: Check, why: str) -> list[str]:
    """The guard: the target refers to the named holder (one named by the path: a record
    under another parent is not found there)."""
    p, a = c.param or "", c.attribute or ""
    said = f"{c.collection} belongs to another {p}"
    if c.values == ["path"]:
        said = f"{c.collection} not found under this {p}"
    return [f"if str(_rec.get({a!r})) != str({p}):", f"    raise ToolError({said + why!r})"]
