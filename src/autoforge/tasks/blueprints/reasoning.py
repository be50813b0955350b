"""Reasoning nodes: small, typed, executable operators between tool calls.

A reasoning node turns the output of one call into an argument of another ("the order with the
highest total", "the pending order", "how many books") or into a value the agent must tell the
user. Each operator is a pure function of its resolved inputs, so a task's gold answer is
computed, never guessed, and each one can say whether its result is *degenerate* (a tie for the
maximum, a filter that keeps everything), which would make the task ambiguous or trivial.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from autoforge.errors import AutoforgeError
from autoforge.lexicon import words

ReasoningOp = Literal[
    "argmax", "argmin", "filter", "count", "sum", "average", "compare", "branch", "lookup"
]
CmpOp = Literal["eq", "ne", "lt", "le", "gt", "ge", "contains"]
PathSeg = str | int

#: The inputs each operator needs, by name (bindings of a :class:`ReasoningNode`).
OP_INPUTS: dict[str, tuple[str, ...]] = {
    "argmax": ("items",),
    "argmin": ("items",),
    "filter": ("items", "value"),
    "count": ("items",),
    "sum": ("items",),
    "average": ("items",),
    "compare": ("left", "right"),
    "branch": ("condition", "then", "else"),
    "lookup": ("value",),
}

CMP_WORDS: dict[str, str] = {
    "eq": "is",
    "ne": "is not",
    "lt": "is below",
    "le": "is at most",
    "gt": "is above",
    "ge": "is at least",
    "contains": "contains",
}


class ReasoningError(AutoforgeError, ValueError):
    """A reasoning operator could not run on its inputs (wrong type, missing field, empty list)."""


class ReasoningSpec(BaseModel):
    """The static part of a reasoning node: operator, field, comparison and selection mode.

    ``field`` is a path inside each list element (argmax, filter, sum, ...) or inside the value
    (lookup). ``take`` says whether a filter returns all matches or the single match (``only``:
    "the order that is pending"), which then must be exactly one; ``named`` is a single match
    the user names by description ("the water bottle in my order"), which may be the list's
    only element (a description, not a condition that narrows a choice).
    """

    op: ReasoningOp
    field: list[PathSeg] = Field(default_factory=list)
    cmp: CmpOp | None = None
    take: Literal["all", "only", "named"] = "all"


def get_path(value: Any, path: Sequence[PathSeg]) -> Any:
    """The value at ``path`` inside ``value`` (dict keys and list indexes, negative allowed)."""
    current = value
    for seg in path:
        if isinstance(seg, int):
            if not isinstance(current, list) or not -len(current) <= seg < len(current):
                raise ReasoningError(f"index {seg} out of range in {_short(current)}")
            current = current[seg]
        else:
            if not isinstance(current, dict) or seg not in current:
                raise ReasoningError(f"no field {seg!r} in {_short(current)}")
            current = current[seg]
    return current


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def as_items(value: Any) -> list[Any]:
    """The elements of a list, or of an id-keyed map of records (``{"paypal_1": {...}}``, in
    its order): the operators choose among either; anything else raises."""
    if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
        return list(value.values())
    if not isinstance(value, list):
        raise ReasoningError(f"expected a list, got {_short(value)}")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ReasoningError(f"expected a number, got {_short(value)}")
    return float(value)


def compare(left: Any, cmp: str, right: Any) -> bool:
    """``left cmp right`` with numbers compared as numbers and strings case-insensitively."""
    if cmp == "contains":
        if isinstance(left, list):
            return right in left
        return str(right).lower() in str(left).lower()
    if isinstance(left, str) and isinstance(right, str):
        left, right = left.lower(), right.lower()
    elif cmp not in ("eq", "ne"):
        left, right = _number(left), _number(right)
    if cmp == "eq":
        return bool(left == right)
    if cmp == "ne":
        return bool(left != right)
    try:
        result = {"lt": left < right, "le": left <= right, "gt": left > right, "ge": left >= right}
    except TypeError as exc:
        raise ReasoningError(f"cannot compare {_short(left)} with {_short(right)}") from exc
    return bool(result[cmp])


def _extreme(spec: ReasoningSpec, items: list[Any]) -> Any:
    if not items:
        raise ReasoningError(f"{spec.op} of an empty list")
    keys = [_number(get_path(item, spec.field)) for item in items]
    best = max(keys) if spec.op == "argmax" else min(keys)
    return items[keys.index(best)]


def _filter(spec: ReasoningSpec, items: list[Any], value: Any) -> Any:
    cmp = spec.cmp or "eq"
    kept = [item for item in items if compare(get_path(item, spec.field), cmp, value)]
    if spec.take in ("only", "named"):
        if len(kept) != 1:
            raise ReasoningError(f"filter expected exactly one match, found {len(kept)}")
        return kept[0]
    return kept


def _total(spec: ReasoningSpec, items: list[Any]) -> float:
    values = [_number(get_path(item, spec.field)) for item in items]
    if spec.op == "average":
        if not values:
            raise ReasoningError("average of an empty list")
        return round(sum(values) / len(values), 2)
    return round(sum(values), 2)


def evaluate(spec: ReasoningSpec, inputs: dict[str, Any]) -> Any:
    """Run the operator on resolved inputs; raises :class:`ReasoningError` when it cannot."""
    missing = [name for name in OP_INPUTS[spec.op] if name not in inputs]
    if missing:
        raise ReasoningError(f"{spec.op} is missing input(s) {', '.join(missing)}")
    op = spec.op
    if op in ("argmax", "argmin"):
        return _extreme(spec, as_items(inputs["items"]))
    if op == "filter":
        return _filter(spec, as_items(inputs["items"]), inputs["value"])
    if op == "count":
        return len(as_items(inputs["items"]))
    if op in ("sum", "average"):
        return _total(spec, as_items(inputs["items"]))
    if op == "compare":
        return compare(inputs["left"], spec.cmp or "eq", inputs["right"])
    if op == "branch":
        if not isinstance(inputs["condition"], bool):
            raise ReasoningError(f"branch condition must be a boolean, got {inputs['condition']!r}")
        return inputs["then"] if inputs["condition"] else inputs["else"]
    return get_path(inputs["value"], spec.field)


def degeneracy(spec: ReasoningSpec, inputs: dict[str, Any], result: Any) -> str | None:
    """Why this evaluation makes a trivial or ambiguous task, or None when it is informative.

    argmax/argmin need a unique best over at least two elements; a filter must keep some but
    not all elements; a lookup by index and an aggregate need at least two elements; a branch
    must choose between two different values.
    """
    op = spec.op
    items = inputs.get("items")
    if op in ("argmax", "argmin"):
        keys = [_number(get_path(item, spec.field)) for item in as_items(items)]
        best = max(keys) if op == "argmax" else min(keys)
        if len(keys) < 2:
            return f"{op} over fewer than two elements"
        if keys.count(best) > 1:
            return f"{op} is not unique"
    elif op == "filter":
        kept = 1 if spec.take in ("only", "named") else len(result)
        named = spec.take == "named" and len(as_items(items)) == 1
        if not named and (len(as_items(items)) < 2 or kept in (0, len(as_items(items)))):
            return "filter keeps nothing or everything"
    elif op in ("count", "sum", "average") and len(as_items(items)) < 2:
        return f"{op} over fewer than two elements"
    elif op == "branch" and inputs["then"] == inputs["else"]:
        return "branch chooses between equal values"
    elif (
        op == "lookup"
        and spec.field
        and isinstance(spec.field[0], int)
        and len(as_items(inputs["value"])) < 2
    ):
        return "positional lookup in a list of fewer than two elements"
    return None


def field_words(field: Sequence[PathSeg]) -> str:
    """A field path as words: ``["unit_price"]`` -> ``unit price``, ``["MaxTemperature"]``
    -> ``max temperature``."""
    said = [words(str(seg)) for seg in field if not isinstance(seg, int)]
    return " ".join(said) or "value"


def describe(spec: ReasoningSpec, noun: str = "item") -> str:
    """A short English phrase for what the operator selects or computes (question writing)."""
    field = field_words(spec.field)
    if spec.op == "argmax":
        return f"the {noun} with the highest {field}"
    if spec.op == "argmin":
        return f"the {noun} with the lowest {field}"
    if spec.op == "filter":
        cmp = CMP_WORDS[spec.cmp or "eq"]
        lead = f"the {noun}" if spec.take in ("only", "named") else f"the {noun}s"
        return f"{lead} whose {field} {cmp} {{value}}"
    if spec.op == "count":
        return f"how many {noun}s there are"
    if spec.op in ("sum", "average"):
        kind = "total" if spec.op == "sum" else "average"
        return f"the {kind} {field} of the {noun}s"
    if spec.op == "compare":
        return f"whether {{left}} {CMP_WORDS[spec.cmp or 'eq']} {{right}}"
    if spec.op == "branch":
        return "{then} if the condition holds, otherwise {else}"
    if spec.field and spec.field[0] == -1:
        return f"the last {noun}"
    if spec.field and spec.field[0] == 0:
        return f"the first {noun}"
    return f"the {field} of the {noun}"
