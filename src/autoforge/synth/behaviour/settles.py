"""A status entered when a counted amount reaches its goal: "a payment that clears the invoice
marks it `paid`", "the shift is `full` once every spot is taken".

A change that adds a parameter to a number attribute ``x`` of its record and also sets the
record's status to ``s`` (read from a sentence whose condition the rules could not read) does
not set ``s`` on every call. The data says when it does: every record in status ``s`` has
``x`` equal to another number attribute ``y`` of its own, and every record in a status the
tool accepts has ``x`` below ``y``. The status write then happens only when ``x`` plus the
argument reaches ``y`` (to the cent). Nothing here names a field or a domain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context

#: records on each side before the data counts as evidence
_LEAST = 3
_CENT = 0.005


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _goal(rows: list[Mapping[str, Any]], done: list[Mapping[str, Any]], x: str,
          numbers: list[str]) -> str | None:  # fmt: skip
    """The attribute ``y`` that ``x`` equals on every ``done`` record and stays below on
    every open one (``rows``); None when no single one does."""
    found = []
    for y in numbers:
        if y == x:
            continue
        same = [(_num(r.get(x)), _num(r.get(y))) for r in done]
        below = [(_num(r.get(x)), _num(r.get(y))) for r in rows]
        if any(a is None or b is None for a, b in same + below):
            continue
        if all(abs(a - b) < _CENT for a, b in same if a is not None and b is not None) and all(
            a < b - _CENT for a, b in below if a is not None and b is not None
        ):
            found.append(y)
    return found[0] if len(found) == 1 else None


def settled_status(tb: ToolBehaviour, ctx: Context, effects: list[Effect]) -> None:
    """Make the status write of ``effects`` conditional as the module says (in place)."""
    coll = tb.collection
    status, _ = ctx.status_enum(coll)
    if coll is None or status is None or tb.id_param is None:
        return
    moves = [e for e in effects if e.kind == "increment" and e.record == "target"
             and e.value is not None and e.value.source == "param" and e.value.name
             and not e.value.name.startswith("-")]  # fmt: skip
    sets = [e for e in effects if e.kind == "set" and e.record == "target" and not e.when
            and status in e.fields and e.fields[status].source == "const"]  # fmt: skip
    if len(moves) != 1 or len(sets) != 1:
        return
    move, setting = moves[0], sets[0]
    entered = setting.fields[status].const
    allowed = {v for c in tb.checks if c.kind == "status_in" and c.via is None for v in c.values}
    records = [r for r in (ctx.ev.state.get(coll) or {}).values() if isinstance(r, Mapping)]
    done = [r for r in records if r.get(status) == entered]
    rows = [r for r in records if r.get(status) != entered
            and (not allowed or r.get(status) in allowed)]  # fmt: skip
    x = move.attribute or ""
    if len(done) < _LEAST or len(rows) < _LEAST:
        return
    y = _goal(rows, done, x, ctx.ev.number_attributes(coll))
    if y is None:
        return

    def rec(a: str) -> list[Any]:
        return ["rec", "target", coll, [], a]

    reached = ["op", "+", rec(x), ["arg", move.value.name]]  # type: ignore[union-attr]
    goal = ["op", "-", rec(y), ["num", _CENT]]
    setting.when = ["expr", ["cmp", [">="], [reached, goal]], True]


__all__ = ["settled_status"]
