"""The shape of a collection's keys (prefix, digits, what the stem is made of), read from the
data or the docs at hand, and keys drawn in that shape.

A key is read as ``stem + number + suffix`` (``#W`` ``2611340``, ``ORD-`` ``1234``). The data's
keys fix the shape where they agree on it: a stem every key shares (``#W``) or one each record
spells from its own fields (``noah_brown_`` from the record's first and last name), and the
width of the number where the numbers are codes rather than a counter. Numbers that count up
(``ORD-1``, ``ORD-2``, ``C-1001``...) say nothing about width, so generated ones keep the
default draw; keys whose stems differ and come from no field (coupon codes ``WELCOME10``,
``SPRING20``) are names, not numbered ids, and keep it too. Without data, the docs' examples
of the key (a parameter's ``examples``/``example``/``pattern``, "such as 'ORD-1234'") say it.
Why: keys drawn as the first example's stem plus 3-4 digits gave ``#W728`` where every id of
the data was ``#W`` and seven digits, and every user ``noah_brown_...`` whatever their name.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from autoforge.env import CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon.dataflow import entity_of
from autoforge.tooldocs import ToolSpec

_KEY = re.compile(r"^(?P<stem>\D*?)(?P<number>\d+)(?P<suffix>\D*)$")
_SEPARATORS = "_-.:/ "
#: Share of the data's keys that must agree on a feature of the shape for it to hold.
_AGREE = 0.9
#: The default draw (no shape, a counter, or codes): numbers of 3-4 digits.
_DEFAULT = range(100, 10000)
_SAID = re.compile(
    r"(?:e\.g\.?|for example|such as|example:?|like)\s*[:,]?\s*[`'\"]([^`'\"\s]{2,40})[`'\"]",
    re.IGNORECASE,
)
_PATTERN = re.compile(
    r"^\^?(?P<stem>(?:[A-Za-z#_:/.]|\\?-)*)(?:\\d|\[0-9\])\{(?P<low>\d+)(?:,(?P<high>\d+))?\}"
    r"(?P<suffix>(?:[A-Za-z#_:/.]|\\?-)*)\$?$"
)


@dataclass(frozen=True)
class IdShape:
    """How a collection's keys look: ``stem + number + suffix``. ``fields``: the paths of the
    record's values the stem spells, lower-cased, joined by ``sep`` and ended by ``tail``
    (``noah_brown_``, ``noah.brown``; else the stem is ``stem``); ``width``: the number's
    digits (None: the default draw); ``padded``: numbers keep leading zeros."""

    stem: str
    width: int | None = None
    suffix: str = ""
    padded: bool = False
    fields: tuple[tuple[str, ...], ...] = ()
    sep: str = ""
    tail: str = ""

    def numbers(self, n: int, rng: random.Random) -> list[str]:
        """``n`` distinct numbers of the shape's width (the default draw without one)."""
        if self.width is None:
            return [str(x) for x in rng.sample(_DEFAULT, n)]
        low = 0 if self.padded else 10 ** (self.width - 1)
        span = range(low, 10**self.width)
        if len(span) < n:  # too few numbers of that width: wider ones stay distinct
            return [str(x) for x in rng.sample(range(low, low + n * 10), n)]
        return [str(x).zfill(self.width) for x in rng.sample(span, n)]

    def key(self, number: str, record: Mapping[str, Any] | None = None) -> str:
        """The key for ``number`` (of :meth:`numbers`), its stem spelled from ``record``'s
        fields where the shape says so."""
        stem = self.stem
        if self.fields and record is not None:
            parts = [_leaf(record, path) for path in self.fields]
            if all(isinstance(p, str) and p for p in parts):
                words = [re.sub(r"\s+", self.sep or "_", str(p).lower()) for p in parts]
                stem = self.sep.join(words) + self.tail
        return f"{stem}{number}{self.suffix}"


def from_keys(records: Mapping[str, Any]) -> IdShape | None:
    """The shape the data's keys (``records``: key -> record) agree on, else None."""
    matched = [(k, r, m) for k, r in records.items() if (m := _KEY.match(str(k)))]
    parts = [m for _, _, m in matched]
    if not records or len(parts) < _AGREE * len(records):
        return None
    stems = Counter(m["stem"] for m in parts)
    suffixes = Counter(m["suffix"] for m in parts)
    suffix, count = suffixes.most_common(1)[0]
    if count < _AGREE * len(parts):
        return None
    stem, shared = stems.most_common(1)[0]
    spelled = IdShape(stem)
    if shared < _AGREE * len(parts):
        found = _spelled(matched)
        if found is None:
            return None  # names or codes, not numbered ids
        spelled = found
    width = _width([m["number"] for m in parts])
    padded = any(m["number"].startswith("0") and len(m["number"]) > 1 for m in parts)
    return IdShape(stem, width, suffix, padded and width is not None, spelled.fields,
                   spelled.sep, spelled.tail)  # fmt: skip


def _width(numbers: list[str]) -> int | None:
    """The width every number shares, when the numbers are codes (spread far beyond their
    count) rather than a counter (dense: ``1, 2, 3``; ``1001, 1002``); else None."""
    widths = Counter(len(x) for x in numbers)
    width, count = widths.most_common(1)[0]
    if count < _AGREE * len(numbers):
        return None
    values = sorted({int(x) for x in numbers})
    if len(values) < 2 or values[-1] - values[0] + 1 <= 2 * len(values):
        return None
    return width


def _spelled(matched: list[tuple[Any, Any, re.Match[str]]]) -> IdShape | None:
    """The shape whose stem each record spells from its own fields (``noah_brown_`` from
    ``name.first_name`` and ``name.last_name``, joined by ``_`` and ended by ``_``; the
    ``noah.brown`` of ``noah.brown7922@example.com``), read off the first record (``matched``:
    key, record, the key's parts); None when no fields spell at least :data:`_AGREE` of the
    stems."""
    _, first, parts = matched[0]
    stem = parts["stem"]
    tail = stem[-1:] if stem[-1:] in _SEPARATORS else ""
    body = stem[: len(stem) - len(tail)]
    sep = next((c for c in body if c in _SEPARATORS), "")
    if not isinstance(first, Mapping) or not body:
        return None
    leaves = dict(_leaves(first))
    paths: list[tuple[str, ...]] = []
    for word in body.split(sep) if sep else [body]:
        path = next((p for p, v in leaves.items() if _spell(v, sep or "_") == word), None)
        if path is None:
            return None
        paths.append(path)
    shape = IdShape("", None, "", False, tuple(paths), sep, tail)
    spelled = sum(
        1 for key, record, m in matched
        if isinstance(record, Mapping) and shape.key(m["number"], record) + m["suffix"] == str(key)
    )  # fmt: skip
    return shape if spelled >= _AGREE * len(matched) else None


def _spell(value: Any, sep: str) -> str | None:
    return re.sub(r"\s+", sep, value.lower()) if isinstance(value, str) and value else None


def _leaves(record: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterable[tuple[Any, Any]]:
    """``(path, value)`` for each string of ``record``, nested objects included."""
    for name, value in record.items():
        if isinstance(value, Mapping):
            yield from _leaves(value, (*path, str(name)))
        elif isinstance(value, str):
            yield (*path, str(name)), value


def _leaf(record: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = record
    for name in path:
        value = value.get(name) if isinstance(value, Mapping) else None
    return value


def from_examples(examples: Iterable[Any]) -> IdShape | None:
    """The shape the docs' examples of a key show (``ORD-1234``), or a ``pattern``
    (``^ORD-\\d{6}$``); None when they show none."""
    for example in examples:
        text = str(example)
        pattern = _PATTERN.match(text)
        if pattern is not None:
            width = int(pattern["high"] or pattern["low"])
            stem = pattern["stem"].replace("\\", "")
            return IdShape(stem, width, pattern["suffix"].replace("\\", ""))
        match = _KEY.match(text)
        if match is not None and len(match["number"]) >= 2:
            number = match["number"]
            return IdShape(match["stem"], len(number), match["suffix"], number.startswith("0"))
    return None


@dataclass(frozen=True)
class KeyRules:
    """What the docs require of a key's text: ``patterns`` it must match and its length
    bounds (``minLength``/``maxLength`` of the parameters that hold it)."""

    patterns: tuple[str, ...] = ()
    shortest: int | None = None
    longest: int | None = None

    def admit(self, key: str) -> bool:
        if self.shortest is not None and len(key) < self.shortest:
            return False
        if self.longest is not None and len(key) > self.longest:
            return False
        for pattern in self.patterns:
            try:
                if not re.search(pattern, key):
                    return False
            except re.error:
                continue
        return True


def fitting(shape: IdShape, rules: KeyRules) -> IdShape:
    """``shape``, or the nearest variant of it whose keys the docs' ``rules`` for the key
    admit (``^[a-z][a-z0-9-]+$`` takes ``pro-1234``, not ``PRO-1234``; a length of 12 takes
    twelve digits): its stem in lower or upper case, with ``-`` or ``_`` or no separator, or
    no stem, each with the number as wide as the length bounds ask. A key the docs refuse is
    refused by every tool that validates its arguments, so no task could name the record."""
    if shape.fields or not (rules.patterns or rules.shortest or rules.longest):
        return shape

    def fits(candidate: IdShape) -> bool:
        return rules.admit(candidate.key("1" * (candidate.width or 4)))

    bare = shape.stem.rstrip(_SEPARATORS)
    stems = [shape.stem, shape.stem.lower(), shape.stem.upper()]
    stems += [f"{case}{sep}" for case in (bare.lower(), bare.upper(), bare) for sep in "-_"]
    stems += [bare.lower(), bare, ""]
    for stem in stems:
        widths = [shape.width]
        for bound in (rules.shortest, rules.longest):
            if bound is not None and bound - len(stem) - len(shape.suffix) >= 1:
                widths.append(bound - len(stem) - len(shape.suffix))
        for width in widths:
            candidate = replace(shape, stem=stem, width=width)
            if fits(candidate):
                return candidate
    return shape


def said_examples(text: str) -> list[str]:
    """The examples a description gives of a value ("such as 'ORD-1234'", "e.g. `#A12`")."""
    return _SAID.findall(text or "")


def plain(name: str) -> IdShape:
    """The shape of keys nothing documents: the collection's first three letters, a dash and
    four digits (``ORD-1234``)."""
    return IdShape(name[:3].upper() + "-", 4)


def _key_params(
    tools: Sequence[ToolSpec], schema: StateSchema, coll: CollectionSchema
) -> Iterator[Mapping[str, Any]]:
    """The schema of each tool parameter that holds ``coll``'s key."""
    for tool in tools:
        props = (tool.parameters or {}).get("properties")
        for name, param in props.items() if isinstance(props, Mapping) else []:
            if isinstance(param, Mapping) and entity_of(name, None, schema) == coll.name:
                yield param


def key_rules(spec: EnvironmentSpec, coll: CollectionSchema) -> KeyRules:
    """The ``pattern`` and length bounds of each tool parameter that holds ``coll``'s key
    (digits only where one takes it as an integer)."""
    found: list[str] = []
    lows: list[int] = []
    highs: list[int] = []
    for param in _key_params(spec.tools, spec.state_schema, coll):
        pattern = param.get("pattern")
        if isinstance(pattern, str) and pattern:
            found.append(pattern)
        if param.get("type") == "integer":  # a tool names the record by a number
            found.append(r"^\d+$")
        low, high = param.get("minLength"), param.get("maxLength")
        lows += [low] if isinstance(low, int) and not isinstance(low, bool) else []
        highs += [high] if isinstance(high, int) and not isinstance(high, bool) else []
    return KeyRules(tuple(found), max(lows, default=None), min(highs, default=None))


def documented(spec: EnvironmentSpec, coll: CollectionSchema) -> list[Any]:
    """The docs' examples of ``coll``'s key (:func:`documented_in` over the spec's tools)."""
    return documented_in(spec.tools, spec.state_schema, coll)


def documented_in(
    tools: Sequence[ToolSpec], schema: StateSchema, coll: CollectionSchema
) -> list[Any]:
    """The docs' examples of ``coll``'s key, in order of mention: the ``examples``,
    ``example`` and ``pattern`` of each tool parameter that holds it, the examples its
    description gives, those of the key attribute's own description, and then the ``example``
    and ``pattern`` of the key property of the record objects the tools take or answer (an
    object carrying the key and mostly the collection's attributes: ``id: {pattern:
    '^T\\d{4}$'}`` in a task schema)."""
    found: list[Any] = []
    for param in _key_params(tools, schema, coll):
        found += [*(param.get("examples") or []), param.get("example"), param.get("pattern")]
        found += said_examples(str(param.get("description") or ""))
    key = coll.attribute(coll.primary_key)
    found += said_examples(key.description if key is not None else "")
    for tool in tools:
        for props in _objects((tool.parameters, tool.returns)):
            prop = props.get(coll.primary_key)
            if isinstance(prop, Mapping) and _carries(props, coll):
                found += [prop.get("example"), prop.get("pattern")]
    return [x for x in found if isinstance(x, str | int) and not isinstance(x, bool)]


def _objects(node: Any, depth: int = 0) -> Iterator[Mapping[str, Any]]:
    """The ``properties`` maps of every object schema inside ``node``."""
    if depth > 12:
        return
    if isinstance(node, Mapping):
        props = node.get("properties")
        if isinstance(props, Mapping):
            yield props
        for value in node.values():
            yield from _objects(value, depth + 1)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _objects(value, depth + 1)


def _carries(props: Mapping[str, Any], coll: CollectionSchema) -> bool:
    """Whether an object with ``props`` is a record of ``coll``: at least half its properties
    are the collection's attributes."""
    attrs = {a.name for a in coll.attributes}
    return len(attrs & set(props)) * 2 >= len(props)


__all__ = [
    "IdShape",
    "KeyRules",
    "documented",
    "documented_in",
    "fitting",
    "from_examples",
    "from_keys",
    "key_rules",
    "plain",
    "said_examples",
]
