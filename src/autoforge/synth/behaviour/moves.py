"""Moves of a record from one referred record to another ("moves a lesson to a different
slot in the same room"): the tool writes an argument naming a record over the target's
reference to a record of the same kind. A sentence saying "a different / another <noun>"
refuses the record the target already names; "of / on the same <noun>" (a kind of record the
moved-to one itself refers to) refuses one that refers elsewhere than the current one does.

Read from the tool's own sentences and the policy's on it; nothing here names a domain.
"""

from __future__ import annotations

import re

from autoforge.env import Check, ToolBehaviour
from autoforge.synth.behaviour.data import Context, noun_forms
from autoforge.synth.behaviour.headings import carried_part


def _moved(tb: ToolBehaviour) -> list[tuple[str, str]]:
    """``(attribute, parameter)`` for each reference of the target a parameter is written
    over."""
    return [(a, v.name) for e in tb.effects if e.kind == "set" and e.record == "target"
            for a, v in e.fields.items()
            if v.source == "param" and v.name and v.name != a]  # fmt: skip


def move_checks(tb: ToolBehaviour, sentences: list[str], ctx: Context) -> list[Check]:
    """``differs`` and ``same_parent`` checks for the moves a sentence bounds."""
    if tb.kind not in ("action", "update") or not tb.collection or tb.id_param is None:
        return []
    out: list[Check] = []
    for attr, param in _moved(tb):
        kind = ctx.ev.references(tb.collection, attr)
        if kind is None:
            continue
        nouns = "|".join(re.escape(n) for n in noun_forms(kind))
        other = rf"\b(?:a\s+different|another|some\s+other|a\s+new)\s+(?:{nouns})\b"
        said = next((s for s in sentences if re.search(other, s, re.I)), None)
        if said is not None:
            out.append(Check(kind="differs", param=param, collection=tb.collection,
                             attribute=attr, sentence=carried_part(said, other)))  # fmt: skip
        for up in ctx.ev.attributes.get(kind, []):
            parent = ctx.ev.references(kind, up)
            if parent is None or parent == kind:
                continue
            ups = "|".join(re.escape(n) for n in noun_forms(parent))
            same = rf"\b(?:of|on|in|within|for|to)\s+the\s+same\s+\**(?:{ups})\b"
            said = next((s for s in sentences if re.search(same, s, re.I)), None)
            if said is not None:
                out.append(Check(kind="same_parent", param=param, collection=kind,
                                 attribute=attr, values=[up],
                                 sentence=carried_part(said, same)))  # fmt: skip
    return out


def move_lines(c: Check, why: str) -> list[str]:
    """The guards: the argument differs from the target's current reference; the record it
    names refers to the same record (attribute ``values[0]``) as the current one does."""
    p, a = c.param or "", c.attribute or ""
    if c.kind == "differs":
        return [
            f"if str({p}) == str(_rec.get({a!r})):",
            f"    raise ToolError({f'{a} is already that {p}' + why!r})",
        ]
    up = str(c.values[0])

    def rec(key: str) -> str:
        return f"(state.get({c.collection!r}, {{}}).get(str({key})) or {{}})"

    new, old = rec(p), rec(f"_rec.get({a!r})")
    return [
        f"if {new}.get({up!r}) != {old}.get({up!r}):",
        f"    raise ToolError({f'{p} must have the same {up}' + why!r})",
    ]
