"""A status that depends on how the call left a record, with the condition in words: "The
invoice becomes `paid` (with `paid_on` = today) when nothing is left to pay, otherwise
`partially_paid`."

The sentence names two status values of a record the tool reaches (its target, or one a
parameter or the target refers to) as "becomes `X` ... when/if/once ..., otherwise `Y`". The
words of the condition are not read; the data is: records in ``X`` and records in ``Y`` must
be told apart by one number attribute the call itself moves (zero on every ``X`` record and
above zero on every ``Y`` record, or the other way round, or at least / below another number
attribute of the same record on all of them). After the call's other writes, the record takes
``X`` where the condition holds and ``Y`` where it does not, with the dates records carry on
entering each status. A sentence whose statuses the data does not separate that way adds
nothing. Every rule is stated without naming a domain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import entry_stamps, is_number
from autoforge.synth.behaviour.paths import effect_record
from autoforge.synth.behaviour.targets import conditional_outcome
from autoforge.synth.behaviour.text import related_records

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

#: at least this many records in each of the two statuses
_MIN_EACH = 2

#: a condition: ``[attribute, op, number or "attr:<name>"]`` for when it holds and when not
Split = tuple[list[Any], list[Any]]


def _moved(tb: ToolBehaviour, effects: list[Effect], coll: str, via: str | None) -> set[str]:
    """The number attributes of that record the call's writes move."""
    record = effect_record(via)
    out: set[str] = set()
    for e in effects:
        if (e.collection or tb.collection) != coll or e.record != record or e.when:
            continue
        if e.kind == "increment" and e.attribute:
            out.add(e.attribute)
        elif e.kind == "set":
            out |= set(e.fields)
    return out


def _split(recs_x: list[dict[str, Any]], recs_y: list[dict[str, Any]], moved: set[str],
           numbers: list[str]) -> Split | None:  # fmt: skip
    """The first condition (see the module) that tells every ``X`` record from every ``Y``
    record, on an attribute in ``moved``."""
    both = recs_x + recs_y
    for a in sorted(moved):
        if not all(is_number(r.get(a)) for r in both):
            continue
        if all(r[a] <= 0 for r in recs_x) and all(r[a] > 0 for r in recs_y):
            return [a, "<", 0.01], [a, ">=", 0.01]
        if all(r[a] > 0 for r in recs_x) and all(r[a] <= 0 for r in recs_y):
            return [a, ">=", 0.01], [a, "<", 0.01]
        for b in numbers:
            if b == a or not all(is_number(r.get(b)) for r in both):
                continue
            if all(r[a] >= r[b] for r in recs_x) and all(r[a] < r[b] for r in recs_y):
                return [a, ">=", f"attr:{b}"], [a, "<", f"attr:{b}"]
            if all(r[a] < r[b] for r in recs_x) and all(r[a] >= r[b] for r in recs_y):
                return [a, "<", f"attr:{b}"], [a, ">=", f"attr:{b}"]
    return None


def outcome_effects(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, effects: list[Effect]
) -> list[Effect]:
    """The two conditional ``set`` effects of each "becomes `X` when ..., otherwise `Y`" the
    data separates (see the module); none for a record whose status the call already sets."""
    out: list[Effect] = []
    for coll, via in related_records(tb, ctx):
        attr, values = ctx.status_enum(coll)
        if not attr or any(
            (e.collection or tb.collection) == coll and attr in e.fields for e in effects
        ):
            continue
        recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
        numbers = [
            a for a in ctx.ev.attributes.get(coll, []) if any(is_number(r.get(a)) for r in recs)
        ]
        for s in doc_sentences(spec.description):
            said = conditional_outcome(s, [str(v) for v in values])
            if said is None:
                continue
            groups = [[r for r in recs if r.get(attr) == v] for v in said]
            if min(len(g) for g in groups) < _MIN_EACH:
                continue
            split = _split(groups[0], groups[1], _moved(tb, effects, coll, via), numbers)
            if split is None:
                continue
            record = effect_record(via)
            for status, when in zip(said, split, strict=True):
                fields = {attr: Value(source="const", const=status)}
                for a, stamp in entry_stamps(ctx.ev, coll, attr, status).items():
                    fields[a] = Value(source=stamp)  # type: ignore[arg-type]
                out.append(Effect(kind="set", record=record, collection=coll, fields=fields,
                                  when=when, sentence=s, source="data"))  # fmt: skip
            _leave_to_outcome(effects, out, record, coll)
            break
    return out


def _leave_to_outcome(effects: list[Effect], made: list[Effect], record: str, coll: str) -> None:
    """Take out of the other writes on that record what the outcome decides ("`paid_on` =
    today" of the same sentence, read as said for every call)."""
    decided = {a for e in made for a in e.fields}
    for e in effects:
        if e.kind == "set" and e.record == record and e.collection == coll and not e.when:
            e.fields = {a: v for a, v in e.fields.items() if a not in decided}
