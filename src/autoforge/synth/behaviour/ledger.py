"""Ledgers: a collection whose records log each change of a number held on another record.

The data shows a ledger: a collection ``L`` with an attribute ``<b>_after`` where ``b`` is a
number attribute of a collection ``A`` that ``L`` refers to (a transaction's ``balance_after``
and its account's ``balance``), and a number attribute ``m`` with which the entries of one
holder chain (each entry's ``<b>_after`` is the previous one's plus its ``m``): the signed
amount. Or ``b`` is, on every holder, the sum of ``m`` over all the entries referring to it (a
balance that is the total of its postings; see :mod:`tallies`), with no after-attribute. A
tool whose description says it "records a `<value>` <ledger noun>" or "posts it as a <ledger
noun> of type `<value>`" (the value one of the ledger's kind values) moves ``b`` and writes
one entry: the next id, the holder's key, that value, the signed amount, the new ``b`` (where
entries hold it), today's date, and the tool's target where the ledger refers to its
collection. The amount is the change the tool already makes to ``b`` (a counter
the docs state), else "debits/credits `<attribute>`" of the target.

Every rule is stated without naming a domain.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import kind_attributes, noun_forms, status_defaults
from autoforge.synth.behaviour.tallies import learn_tallies

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec


@dataclass(frozen=True)
class Ledger:
    """Where a ledger's entries point and which of their attributes mean what."""

    collection: str
    holder_ref: str  # the entry's attribute naming the holder record
    holder: str  # the holder's collection
    number: str  # the holder's attribute the ledger follows
    after: str  # the entry's attribute holding the number after the change
    amount: str  # the entry's signed change


def _nums(recs: list[dict[str, Any]], attr: str) -> bool:
    return bool(recs) and all(
        isinstance(r.get(attr), int | float) and not isinstance(r.get(attr), bool) for r in recs
    )


def _chains(entries: list[dict[str, Any]], ref: str, after: str, amount: str, key: str) -> bool:
    """Whether, per holder in key order, each entry's ``after`` is the previous one's plus its
    ``amount`` (at least nine in ten consecutive pairs, and at least three pairs)."""
    by: dict[Any, list[dict[str, Any]]] = {}
    for e in sorted(entries, key=lambda e: str(e.get(key))):
        by.setdefault(e.get(ref), []).append(e)
    pairs = [(a, b) for es in by.values() for a, b in itertools.pairwise(es)]
    good = sum(abs(a[after] + b[amount] - b[after]) < 0.011 for a, b in pairs)
    return len(pairs) >= 3 and good >= 0.9 * len(pairs)


def ledgers(ctx: Context) -> list[Ledger]:
    """Every ledger the data shows (see the module docstring)."""
    out = []
    for coll, attrs in ctx.ev.attributes.items():
        entries = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
        key = ctx.ev.key_attribute(coll)
        for after in attrs:
            if not after.endswith("_after") or not _nums(entries, after) or key is None:
                continue
            number = after[: -len("_after")]
            for ref in attrs:
                holder = ctx.ev.references(coll, ref)
                if holder is None or holder == coll:
                    continue
                if number not in ctx.ev.attributes.get(holder, []):
                    continue
                for amount in attrs:
                    if amount in (after, ref) or not _nums(entries, amount):
                        continue
                    if _chains(entries, ref, after, amount, key):
                        out.append(Ledger(coll, ref, holder, number, after, amount))
                        break
    known = {(x.holder, x.number) for x in out}
    for t in learn_tallies(ctx.ev):  # a balance that is the sum of its postings' amounts
        if (
            t.measure == "sum"
            and t.status is None
            and t.field
            and (t.holder, t.attribute) not in known
        ):
            out.append(Ledger(t.source, t.ref, t.holder, t.attribute, "", t.field))
    return out


def _entry_value(spec: ToolSpec, ledger: Ledger, ctx: Context) -> tuple[str, str, str] | None:
    """``(type attribute, value, sentence)``: "records a `<value>` <noun>"."""
    nouns = "|".join(re.escape(n) for n in noun_forms(ledger.collection))
    verbs = r"\b(?:records?|writes?|logs?|adds?|as)\s+an?\s+"
    for attr, values in kind_attributes(ctx, ledger.collection):
        for s in doc_sentences(spec.description):
            for v in values:
                if re.search(rf"{verbs}`?{re.escape(v)}`?\s+(?:{nouns})\b", s, re.I):
                    return attr, v, s
                kind = rf"(?:of\s+(?:type|kind)\s+|with\s+`?{re.escape(attr)}`?\s+)"
                if re.search(rf"{verbs}(?:{nouns})\s+{kind}`{re.escape(v)}`", s, re.I):
                    return attr, v, s  # "posted as a charge of type `payment`"
    return None


def _holder_record(tb: ToolBehaviour, ledger: Ledger, ctx: Context) -> str | None:
    """How the tool reaches the holder: its target, a parameter, or the target's reference."""
    if tb.collection == ledger.holder:
        return "target"
    for p in tb.params:
        if p.references == ledger.holder and p.name != tb.id_param:
            return f"param:{p.name}"
    for a in ctx.ev.attributes.get(tb.collection or "", []):
        if ctx.ev.references(tb.collection or "", a) == ledger.holder:
            return f"via:{a}"
    return None


def _debit(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> tuple[Value, str] | None:
    """ "Debits `a`" / "credits `a`" with ``a`` an attribute of the target: minus or plus it."""
    attrs = ctx.ev.attributes.get(tb.collection or "", [])
    for s in doc_sentences(spec.description):
        for a in attrs:
            m = re.search(rf"\b(debits?|charges?|credits?|refunds?)\s+`{re.escape(a)}`", s, re.I)
            if m:
                sign = -1 if m.group(1).lower().startswith(("debit", "charge")) else 1
                return Value(source="formula", const=["target", a, sign]), s
    return None


def ledger_effects(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, effects: list[Effect]
) -> list[Effect]:
    """``effects`` with each counter on a ledger's number (or a stated debit) made a ledger
    write (see the module docstring)."""
    if tb.kind not in ("action", "update", "create") or tb.collection is None:
        return effects
    out = list(effects)
    for ledger in ledgers(ctx):
        said = _entry_value(spec, ledger, ctx)
        holder = _holder_record(tb, ledger, ctx)
        if said is None or holder is None:
            continue
        moved = next(
            (
                e
                for e in out
                if e.kind == "increment"
                and e.collection == ledger.holder
                and e.attribute == ledger.number
                and not e.over
            ),
            None,
        )
        if moved is not None and moved.value is not None:
            delta, sentence, holder = moved.value, moved.sentence, moved.record
            out.remove(moved)
        else:
            debit = _debit(spec, tb, ctx)
            if debit is None:
                continue
            delta, sentence = debit
        out.append(_entry_effect(tb, ledger, ctx, said, holder, delta, sentence))
    return out


def _entry_effect(
    tb: ToolBehaviour,
    ledger: Ledger,
    ctx: Context,
    said: tuple[str, str, str],
    holder: str,
    delta: Value,
    sentence: str,
) -> Effect:
    type_attr, value, stated = said
    pat = ctx.ev.id_pattern(ledger.collection)
    key = pat.attribute if pat else ctx.ev.key_attribute(ledger.collection)
    stamps = status_defaults(ctx.ev, ledger.collection, None, None)
    fields: dict[str, Value] = {}
    for a in ctx.ev.attributes.get(ledger.collection, []):
        if a == key:
            fields[a] = Value(source="new_id")
        elif a == ledger.holder_ref:
            fields[a] = Value(source="formula", const=["holder_key"])
        elif a == type_attr:
            fields[a] = Value(source="const", const=value)
        elif a == ledger.amount:
            floats = a in ctx.ev.float_attributes(ledger.collection)
            fields[a] = Value(source="formula", const=["float_delta" if floats else "delta"])
        elif a == ledger.after:
            fields[a] = Value(source="formula", const=["after"])
        elif stamps.get(a) in ("today", "now"):
            fields[a] = Value(source=stamps[a])
        elif ctx.ev.references(ledger.collection, a) == tb.collection and tb.id_param:
            fields[a] = Value(source="formula", const=["target_key"])
        else:
            fields[a] = Value(source="const", const=None)
    return Effect(
        kind="ledger",
        record=holder,
        collection=ledger.holder,
        attribute=ledger.number,
        value=delta,
        fields=fields,
        id_prefix=pat.prefix if pat else "",
        id_width=pat.width if pat else 0,
        id_attribute=key,
        ledger=ledger.collection,
        digits=amount_digits(ctx, ledger.holder, ledger.number),
        sentence=sentence or stated,
    )


def amount_digits(ctx: Context, coll: str, attr: str) -> int | None:
    """2 when every value of ``attr`` in the data is a whole number of hundredths (amounts
    kept to cents), else None."""
    values = [r.get(attr) for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
    nums = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if nums and all(abs(v * 100 - round(v * 100)) < 1e-6 for v in nums):
        return 2
    return None
