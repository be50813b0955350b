"""Numbers the data shows as arithmetic of a record's other values: an attribute that equals,
on every record of its collection, the days between two of its dates, a signed sum of two or
three of its numbers, a product of two numbers (its own, or one of the record it refers to),
or a number of the record it refers to rounded up.

The data is the evidence; no sentence is needed. ``total = subtotal + fee - discount`` on 125
records of 125, or ``nights`` = the days from ``arrival`` to ``departure`` on all of them, is
how the API computes the value, whatever the prose calls it. A create whose other writes give
every input (an argument, a stated formula, a price list; a referenced record's number through
an attribute it writes) computes the value from them after those writes, where nothing else
gives it. Equivalent forms of one sum (``a = t - b`` beside ``t = a + b``) are all kept: the
create picks the form whose inputs it gives.

A fit must hold on every record holding the attribute and all its inputs (at least
:data:`MIN_RECORDS`, and every record that holds the attribute), the attribute must take at
least three values and be non-zero on at least three records, and every term must be non-zero
somewhere (no ``a = a + 0``). Only the simplest kind of fit is kept per attribute, and an
attribute that is a plain copy of another value gets none (copies are
:func:`~autoforge.synth.behaviour.data.copied_attributes`'). Nothing here names a domain.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

from autoforge.env import BehaviourModel, Effect, ToolBehaviour, Value
from autoforge.lexicon import iso_day
from autoforge.synth.behaviour.data import DataEvidence, is_number
from autoforge.synth.behaviour.formulas import tree_nodes

#: a fit must hold on at least this many records
MIN_RECORDS = 8
#: sums of three terms are tried only over this many number attributes at most
_MAX_TERMS = 24

#: an operand: ``("own", attribute)``, ``("ref", attribute, collection, referenced attribute)``
#: or, while fitting, ``("date", attribute)``
Operand = tuple[str, ...]


@dataclass(frozen=True)
class Derivation:
    """``attribute`` of a ``collection`` record = ``kind`` over ``operands`` (``days``: from the
    first date to the second; ``ceil``: the one operand rounded up; ``sum``: ``signs`` x each
    operand; ``product``: the two operands multiplied), rounded to ``digits``."""

    collection: str
    attribute: str
    kind: str
    operands: tuple[Operand, ...]
    signs: tuple[int, ...] = ()
    digits: int | None = None

    def inputs(self) -> set[str]:
        """The record's own attributes the value is computed from (a referenced number through
        the attribute that refers)."""
        return {o[1] for o in self.operands}

    def tree(self, side: str) -> list[Any]:
        """The ``expr`` tree of the value on the record ``side`` names (``new``/``target``)."""
        nodes = [_node(side, self.collection, o) for o in self.operands]
        if self.kind == "days":
            return ["days", nodes[0], nodes[1]]
        if self.kind == "ceil":
            return ["ceil", nodes[0]]
        if self.kind == "product":
            return ["op", "*", nodes[0], nodes[1]]
        out = nodes[0] if self.signs[0] > 0 else ["op", "-", ["num", 0], nodes[0]]
        for sign, node in zip(self.signs[1:], nodes[1:], strict=True):
            out = ["op", "+" if sign > 0 else "-", out, node]
        return out


def _node(side: str, coll: str, o: Operand) -> list[Any]:
    if o[0] == "own":
        return ["rec", side, coll, [], o[1]]
    return ["rec", side, coll, [[o[1], o[2]]], o[3]]


def _digits(values: list[Any]) -> int | None:
    if all(isinstance(v, int) for v in values):
        return 0
    for d in (2, 3, 4):
        if all(abs(v * 10**d - round(v * 10**d)) < 1e-6 for v in values):
            return d
    return None


def _rounded(v: float, digits: int | None) -> float:
    """``v`` rounded half up as compiled tools round (``_rd`` of :mod:`formulas`), so a fit
    holds exactly where the tool will compute it."""
    if digits is None:
        return v
    s = 10**digits
    r = math.floor(abs(v) * s + 0.5 + 1e-9) / s
    return r if v >= 0 else -r


class _Table:
    """The records of one collection and the values of each operand on them."""

    def __init__(self, ev: DataEvidence, coll: str) -> None:
        self.coll = coll
        self.rows = [r for r in ev.state.get(coll, {}).values() if isinstance(r, dict)]
        attrs = ev.attributes.get(coll, [])
        key = ev.key_attribute(coll)
        refs = {a: ev.references(coll, a) for a in attrs if a != key}
        self.refs = {a: c for a, c in refs.items() if c and c != coll}
        self.numbers = [a for a in attrs if a != key and a not in self.refs and self._numeric(a)]
        self.dates = [
            a for a in attrs if sum(iso_day(r.get(a)) is not None for r in self.rows) >= 2
        ]
        self.linked: list[Operand] = []
        for a, c in self.refs.items():
            targets = [t for t in ev.state.get(c, {}).values() if isinstance(t, dict)]
            for k in ev.attributes.get(c, []):
                if k != ev.key_attribute(c) and sum(is_number(t.get(k)) for t in targets) >= 2:
                    self.linked.append(("ref", a, c, k))
        self.state = ev.state

    def _numeric(self, a: str) -> bool:
        vals = [r.get(a) for r in self.rows if r.get(a) is not None]
        return len(vals) >= MIN_RECORDS and all(is_number(v) for v in vals)

    def value(self, row: Mapping[str, Any], o: Operand) -> Any:
        """The number ``o`` is on ``row`` (a date operand: its day number), None if none."""
        if o[0] == "date":
            day = iso_day(row.get(o[1]))
            return None if day is None else day.toordinal()
        if o[0] == "own":
            v = row.get(o[1])
        else:
            held = self.state.get(o[2], {}).get(str(row.get(o[1])))
            v = held.get(o[3]) if isinstance(held, dict) else None
        return v if is_number(v) else None


def _fits(
    table: _Table,
    target: str,
    operands: tuple[Operand, ...],
    fn: Callable[[list[Any]], float | None],
    digits: int | None,
) -> bool:
    held = [r for r in table.rows if r.get(target) is not None]
    if len(held) < MIN_RECORDS:
        return False
    for r in held:
        vals = [table.value(r, o) for o in operands]
        if any(v is None for v in vals):
            return False
        got = fn(vals)
        if got is None or abs(_rounded(got, digits) - float(r[target])) > 1e-6:
            return False
    return True


def _nonzero(table: _Table, o: Operand) -> bool:
    return any(table.value(r, o) not in (None, 0) for r in table.rows)


def _sums(
    table: _Table, target: str, terms: int
) -> Iterator[tuple[tuple[Operand, ...], tuple[int, ...]]]:
    own = [("own", a) for a in table.numbers if a != target]
    own = [o for o in own if _nonzero(table, o)][:_MAX_TERMS]
    for group in combinations(own, terms):
        for signs in _sign_patterns(terms):
            yield group, signs


def _signed(signs: tuple[int, ...]) -> Callable[[list[Any]], float]:
    return lambda v: sum(s * x for s, x in zip(signs, v, strict=True))


def _sign_patterns(terms: int) -> list[tuple[int, ...]]:
    if terms == 2:
        return [(1, 1), (1, -1), (-1, 1)]
    return [(1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)]


def _derive(table: _Table, target: str) -> list[Derivation]:
    """Every fit of the simplest kind that fits ``target``; none for a copy."""
    held = [r.get(target) for r in table.rows if r.get(target) is not None]
    if len(set(held)) < 3 or sum(v != 0 for v in held) < 3:
        return []
    digits = _digits(held)
    coll = table.coll
    singles: list[Operand] = [("own", a) for a in table.numbers if a != target] + table.linked
    if any(_fits(table, target, (o,), lambda v: v[0], digits) for o in singles):
        return []  # a copy
    found: list[Derivation] = []
    if digits == 0:
        for a, b in permutations(table.dates, 2):
            ops = (("date", a), ("date", b))
            if _fits(table, target, ops, lambda v: v[1] - v[0], 0):
                found.append(Derivation(coll, target, "days", (("own", a), ("own", b)), (), 0))
        for o in table.linked:
            if _fits(table, target, (o,), lambda v: math.ceil(v[0]), 0):
                found.append(Derivation(coll, target, "ceil", (o,), (), 0))
    if found:
        return found
    for terms in (2, 3):
        for group, signs in _sums(table, target, terms):
            if _fits(table, target, group, _signed(signs), digits):
                found.append(Derivation(coll, target, "sum", group, signs, digits))
        if terms == 2:
            factors = [o for o in singles if _nonzero(table, o)]
            for x, y in combinations(factors, 2):
                if x[0] == "ref" and y[0] == "ref":
                    continue
                if _fits(table, target, (x, y), lambda v: v[0] * v[1], digits):
                    found.append(Derivation(coll, target, "product", (x, y), (), digits))
        if found:
            return found
    return []


def learn_derivations(ev: DataEvidence) -> dict[str, list[Derivation]]:
    """``{collection: derivations}`` the data shows (see the module)."""
    out: dict[str, list[Derivation]] = {}
    for coll in ev.attributes:
        table = _Table(ev, coll)
        if len(table.rows) < MIN_RECORDS:
            continue
        found = [d for a in table.numbers for d in _derive(table, a)]
        if found:
            out[coll] = found
    return out


def _default(v: Value) -> bool:
    """A value the create writes only because nothing else gives one: a zero, null or empty."""
    return v.source == "const" and v.const in (0, None, [], "")


def _create_effect(tb: ToolBehaviour) -> Effect | None:
    made = [e for e in tb.effects if e.kind == "create" and e.collection == tb.collection
            and e.record != "logged" and not e.when]  # fmt: skip
    return made[0] if len(made) == 1 else None


def chosen_derivations(tb: ToolBehaviour, derivations: list[Derivation]) -> dict[str, Derivation]:
    """The derivation a create computes each attribute by from what its other writes give:
    each attribute it writes only as a default, by the first derivation whose inputs it gives
    (the values derived so far count as given)."""
    made = _create_effect(tb)
    if made is None:
        return {}
    later = [e for e in tb.effects if e.kind == "set" and e.record == "new"]
    fields = dict(made.fields)
    for e in later:
        fields.update(e.fields)
    given = {a for a, v in fields.items() if not _default(v)}
    out: dict[str, Derivation] = {}
    grew = True
    while grew:
        grew = False
        for d in derivations:
            if d.attribute in given or d.attribute not in fields or not d.inputs() <= given:
                continue
            out[d.attribute] = d
            given.add(d.attribute)
            grew = True
    return out


def _stated_inputs(tb: ToolBehaviour) -> set[str]:
    """The attributes of the new record that the create's stated formulas read."""
    values = [v for e in tb.effects if e.source != "data" for v in e.fields.values()
              if v.source == "formula" and isinstance(v.const, list)]  # fmt: skip
    trees = [v.const[1] for v in values if v.const[:1] == ["expr"]]
    return {str(n[4]) for t in trees for n in tree_nodes(t, "rec") if n[1] == "new" and not n[3]}


def _written_on_target(tb: ToolBehaviour) -> set[str]:
    """The attributes of the target record the tool's writes move or set."""
    out: set[str] = set()
    for e in tb.effects:
        if e.record != "target" or e.collection not in (None, tb.collection):
            continue
        if e.kind == "set":
            out |= set(e.fields)
        elif e.attribute:
            out.add(e.attribute)
    return out


def recomputed(tb: ToolBehaviour, chosen: dict[str, Derivation]) -> list[dict[str, Value]]:
    """The values a create of the collection computes (``chosen``: each by the derivation the
    create uses) that a change of the target must work out again because it moves one of
    their inputs, in the order one feeds the next (one ``{attribute: formula}`` per step). An
    attribute the tool writes itself is left as written."""
    if tb.kind not in ("action", "update") or tb.id_param is None:
        return []
    written = _written_on_target(tb)
    changed = set(written)
    steps: list[dict[str, Value]] = []
    grew = True
    while grew:
        grew = False
        for a, d in chosen.items():
            if a in changed or not d.inputs() & changed:
                continue
            tree = d.tree("target")
            steps.append({a: Value(source="formula", const=["expr", tree, d.digits])})
            changed.add(a)
            grew = True
    return steps


def add_derived(model: BehaviourModel, ev: DataEvidence) -> None:
    """Give each create the values the data shows as arithmetic of what it writes, computed
    after its other writes (one ``set`` on the new record, source ``data``); then each change
    that moves an input of a value a create computes works that value out again after its
    writes (``set`` steps on the target, source ``data``)."""
    learned = learn_derivations(ev)
    chosen: dict[str, dict[str, Derivation]] = {}
    for tb in model.tools:
        if tb.kind != "create" or tb.collection not in learned:
            continue
        picked = chosen_derivations(tb, learned[tb.collection or ""])
        fields = {a: Value(source="formula", const=["expr", d.tree("new"), d.digits])
                  for a, d in picked.items()}  # fmt: skip
        if fields:
            tb.effects.append(Effect(kind="set", record="new", collection=tb.collection,
                                     fields=fields, source="data"))  # fmt: skip
        stated = _stated_inputs(tb)  # a value the docs' own formulas take is an input
        for a, d in picked.items():
            if a not in stated:
                chosen.setdefault(tb.collection or "", {}).setdefault(a, d)
    for tb in model.tools:
        coll = tb.collection or ""
        for step in recomputed(tb, chosen.get(coll, {})):
            tb.effects.append(Effect(kind="set", record="target", collection=coll,
                                     fields=step, source="data"))  # fmt: skip
