"""Numbers a change assigns in sequence: "assigns the next tracking number", "gives the
ticket the next `seat_number`".

The sentence names an attribute of the record the tool changes (its words, or the attribute
in backticks); the data's values of that attribute across the collection give the pattern
(a prefix and a zero-padded width, or plain integers). The effect sets the attribute to the
value after the highest one the collection holds when the call runs, as the sequence of keys
continues. Without data values that show one pattern the sentence is left to the report
(nothing is guessed).
"""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import Context
from autoforge.tooldocs import ToolSpec

_NEXT = re.compile(
    r"\b(?:assigns?|allocates?|gives?|issues?|sets?)\b[^.;]{0,40}?\bthe\s+next\s+"
    r"(?P<noun>`?\w+`?(?:\s+\w+){0,2})",
    re.I,
)
_PATTERN = re.compile(r"^(?P<prefix>\D*)(?P<num>\d+)$")


def _attribute(noun: str, attrs: list[str]) -> str | None:
    """The attribute the noun phrase names: in backticks, or its first words joined by
    underscores (the longest that is an attribute)."""
    quoted = re.match(r"`(\w+)`", noun)
    if quoted:
        return quoted.group(1) if quoted.group(1) in attrs else None
    words = noun.lower().split()
    for n in range(len(words), 0, -1):
        if "_".join(words[:n]) in attrs:
            return "_".join(words[:n])
    return None


def pattern(values: list[Any]) -> tuple[str, int, bool] | None:
    """``(prefix, width, numeric)`` every given value follows (``TRK70050001``: ``TRK``, 8;
    integers: ``""``, 0, True); None when the values show no one pattern."""
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "", 0, True
    found = [_PATTERN.match(v) if isinstance(v, str) else None for v in values]
    if not found or any(m is None for m in found):
        return None
    prefixes = {m.group("prefix") for m in found if m}
    widths = {len(m.group("num")) for m in found if m}
    if len(prefixes) != 1:
        return None
    return prefixes.pop(), (widths.pop() if len(widths) == 1 else 0), False


def next_numbers(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """A ``set`` of each attribute of the changed record that the description says is
    assigned "the next" one, to the value after the highest the collection holds."""
    coll = tb.collection or ""
    attrs = ctx.ev.attributes.get(coll, [])
    out: list[Effect] = []
    for sentence in doc_sentences(spec.description):
        for m in _NEXT.finditer(sentence):
            attr = _attribute(m.group("noun"), attrs)
            if attr is None or attr == tb.id_param:
                continue
            records = ctx.ev.state.get(coll, {}).values()
            values = [r.get(attr) for r in records if r.get(attr) is not None]
            shape = pattern(values)
            if shape is None:
                continue
            prefix, width, numeric = shape
            value = Value(source="formula", const=["next", coll, attr, prefix, width, numeric])
            out.append(Effect(kind="set", collection=coll, fields={attr: value}, sentence=sentence))
    return out


def next_code(coll: str, attr: str, prefix: str, width: int, numeric: bool) -> str:
    """The expression of the value after the highest ``attr`` of ``coll`` (``prefix`` and
    digits, zero-padded to ``width``; a plain integer when ``numeric``)."""
    n = len(prefix)
    seen = f"[str(_r.get({attr!r})) for _r in state.get({coll!r}, {{}}).values() if isinstance(_r, dict) and _r.get({attr!r}) is not None]"  # noqa: E501
    nums = f"[int(_s[{n}:]) for _s in {seen} if _s.startswith({prefix!r}) and _s[{n}:].isdigit()]"
    top = f"(max({nums}, default=0) + 1)"
    return top if numeric else f"({prefix!r} + str{top}.zfill({width:d}))"


__all__ = ["next_code", "next_numbers", "pattern"]
