"""The domain of each state attribute: which values are plausible, read from docs and data.

Enumerations come from the docs (a schema ``enum``; "one of a, b or c" or a list of
back-quoted values in a description) and, when data is given (``--data``, an example's sample
data, the environment's initial state), from the values observed there, with their
frequencies: a string attribute whose records share a handful of values (an order ``status``)
is categorical, and generated records draw from those values only. Numbers keep to the range
the data shows. A value outside the domain the docs or data define is a defect (an order status
"calm-50"); :func:`out_of_domain` finds such values in a state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import Attribute, EnvironmentSpec

_ONE_OF = re.compile(r"\bone of\b[:\s]*(?P<list>[^.;\n]+)", re.IGNORECASE)
#: Observed numbers needed before their range bounds generated ones (3 ratings of 4-5 stars
#: say little about the scale).
_RANGE_MIN = 8
_EITHER = re.compile(
    r"\beither\s+[`'\"]([^`'\"]{1,40})[`'\"]\s+or\s+[`'\"]([^`'\"]{1,40})[`'\"]", re.IGNORECASE
)
_QUOTED = re.compile(r"[`'\"]([A-Za-z0-9_\- ]{1,40})[`'\"]")


def enum_from_text(text: str) -> list[str]:
    """The values a description enumerates ("one of `a`, `b` or `c`", "either 'x' or 'y'"),
    else ``[]``."""
    either = _EITHER.search(text or "")
    if either:
        return [either.group(1), either.group(2)]
    match = _ONE_OF.search(text or "")
    if not match:
        return []
    part = match.group("list")
    quoted = _QUOTED.findall(part)
    if len(quoted) >= 2:
        return list(dict.fromkeys(quoted))
    items = [x.strip(" `'\"") for x in re.split(r",|\bor\b|\band\b|/", part)]
    items = [x for x in items if x and len(x.split()) <= 3]
    return list(dict.fromkeys(items)) if len(items) >= 2 else []


def categorical(values: list[Any]) -> bool:
    """Whether observed string values look like a category: at least 4 of them, at most 8
    distinct, and each distinct value shared by two records on average."""
    distinct = set(values)
    return len(values) >= 4 and len(distinct) <= 8 and len(distinct) * 2 <= len(values)


@dataclass
class Domains:
    """Per ``(collection, attribute)``: the values to draw from (repeats keep the observed
    distribution) and the numeric range ``(low, high, integer)`` the data shows."""

    values: dict[tuple[str, str], list[Any]] = field(default_factory=dict)
    ranges: dict[tuple[str, str], tuple[float, float, bool]] = field(default_factory=dict)

    def allowed(self, collection: str, attribute: str) -> set[Any] | None:
        """The set of allowed values, or None when the attribute has no closed domain."""
        found = self.values.get((collection, attribute))
        return set(found) if found else None


def _observed(records: list[Any], name: str) -> list[Any]:
    return [r.get(name) for r in records if isinstance(r, Mapping) and r.get(name) is not None]


def _attribute_domain(attr: Attribute, seen: list[Any]) -> list[Any]:
    if attr.enum:
        inside = [v for v in seen if v in attr.enum]
        return inside if len(inside) >= 4 else list(attr.enum)  # the data's mix, else uniform
    listed = enum_from_text(attr.description)
    if listed:
        return listed
    strings = [v for v in seen if isinstance(v, str)]
    if attr.type == "string" and not attr.references and strings and categorical(strings):
        return strings
    return []


def domains(spec: EnvironmentSpec, data: Mapping[str, Any] | None = None) -> Domains:
    """The domains of ``spec``'s attributes from its docs and from ``data`` (the sample data)."""
    out = Domains()
    data = data or {}
    for coll in spec.state_schema.collections:
        table = data.get(coll.name)
        records = list(table.values()) if isinstance(table, Mapping) else []
        for attr in coll.attributes:
            if attr.name == coll.primary_key:
                continue
            seen = _observed(records, attr.name)
            values = _attribute_domain(attr, seen)
            if values:
                out.values[(coll.name, attr.name)] = values
            numbers = [v for v in seen if isinstance(v, int | float) and not isinstance(v, bool)]
            if attr.type in ("integer", "number") and len(numbers) >= _RANGE_MIN:
                integer = all(isinstance(v, int) for v in numbers)
                out.ranges[(coll.name, attr.name)] = (min(numbers), max(numbers), integer)
    return out


def out_of_domain(state: Mapping[str, Any], found: Domains) -> list[str]:
    """``collection.attribute=value`` for each value of ``state`` outside its domain."""
    bad: list[str] = []
    for (coll, attr), values in found.values.items():
        allowed = set(values)
        table = state.get(coll)
        for record in table.values() if isinstance(table, Mapping) else []:
            value = record.get(attr) if isinstance(record, Mapping) else None
            if value is not None and value not in allowed:
                bad.append(f"{coll}.{attr}={value!r}")
    return bad


__all__ = ["Domains", "categorical", "domains", "enum_from_text", "out_of_domain"]
