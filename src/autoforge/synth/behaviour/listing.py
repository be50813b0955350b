"""List tools: the filters a description states (a text search, min/max bounds), and code
shared by compiled tools: whether an optional argument was given, and the body of a list
tool."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import ParamInfo, ToolBehaviour
from autoforge.tooldocs import ToolSpec

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context

#: the default of an optional argument left out (an explicit null is not the same)
UNSET = "<unset>"


def given(name: str) -> str:
    """The expression: argument ``name`` was given (not left out, not null)."""
    return f"({name} is not None and {name} != {UNSET!r})"


def list_lines(tb: ToolBehaviour) -> list[str]:
    """The body of a list tool: the records of its collection its given filters keep (equal,
    contained, at least / at most, or a case-blind substring of one of the attributes),
    sorted by key."""
    lines = ["_out = []", f"for _r in state.get({tb.collection!r}, {{}}).values():"]
    for p in tb.params:
        if p.attribute is None or p.match is None:
            continue
        g = given(p.name)
        if p.match == "eq":
            cond = f"_r.get({p.attribute!r}) != {p.name}"
        elif p.match in ("contains", "member"):
            cond = f"{p.name} not in (_r.get({p.attribute!r}) or [])"
        elif p.match in ("ge", "le"):
            v, op = f"_r.get({p.attribute!r})", ">=" if p.match == "ge" else "<="
            cond = f"not (isinstance({v}, (int, float)) and {v} {op} {p.name})"
        else:
            attrs = p.attribute.split(",")
            hay = "str(_r.get(_a) or '').lower()"
            cond = f"not any(str({p.name}).lower() in {hay} for _a in {attrs!r})"
        lines += [f"    if {g} and {cond}:", "        continue"]
    lines.append("    _out.append(_r)")
    if tb.reply.sort_by:
        lines.append(f"_out.sort(key=lambda _x: str(_x.get({tb.reply.sort_by!r})))")
    wrap = tb.reply.wrap
    lines.append(f"return {{{wrap!r}: _out}}" if wrap else "return _out")
    return lines


def list_filters(spec: ToolSpec, params: list[ParamInfo], coll: str | None, ctx: Context) -> None:
    """Text search and min/max parameters of a list tool, read from its description."""
    from autoforge.synth.behaviour.guards import mention  # guards reaches the compiler

    attrs = ctx.ev.attributes.get(coll or "", [])
    for sentence in re.split(r"(?<=[.;])\s+", " ".join(spec.description.split())):
        if "substring" not in sentence.lower():
            continue
        for p in params:
            if p.attribute is None and re.search(rf"`?\b{re.escape(p.name)}\b`?", sentence):
                named = [a for a in attrs if re.search(rf"\b{re.escape(a)}\b", sentence)]
                p.attribute, p.match = ",".join(named or attrs), "substring"
                p.sentence = sentence
    for p in params:
        m = re.match(r"^(min|max)_(.+)$", p.name)
        if p.attribute is None and m and m.group(2) in attrs:
            p.attribute, p.match = m.group(2), "ge" if m.group(1) == "min" else "le"
            p.sentence = mention(spec.description, p.name, ("",))
