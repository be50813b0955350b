"""The Python expression a compiled tool computes for each kind of :class:`Value`: an
argument, a constant, today or now, the next id, a copy from a referenced record, and every
``formula`` kind (sums, shares, the target's or the new record's own numbers, maps, dates
after a number of days, stated expressions, the key and cleared values a log entry reads, an
argument that falls back to a named record's attribute).
One place, so every effect writes values the same way.
"""

from __future__ import annotations

from autoforge.env import Value, python_param_name
from autoforge.synth.behaviour.dates import days_after_expr
from autoforge.synth.behaviour.formulas import expr_code
from autoforge.synth.behaviour.listing import given as _given
from autoforge.synth.behaviour.paths import record_code
from autoforge.synth.behaviour.prices import map_expr
from autoforge.synth.behaviour.sequenced import next_code


def value_code(v: Value) -> str:
    """The expression of ``v`` inside a compiled tool."""
    if v.source == "param":
        name = v.name or ""
        return f"-({name[1:]})" if name.startswith("-") else name
    if v.source == "copy" and isinstance(v.const, list) and len(v.const) == 2:
        coll, attr = v.const
        return f"(state.get({coll!r}, {{}}).get(str({v.name})) or {{}}).get({attr!r})"
    if v.source == "copy" and isinstance(v.const, list) and len(v.const) == 3:
        coll, attr, hops = v.const  # a record further references away
        return f"({record_code(f'param:{v.name}', coll, hops)} or {{}}).get({attr!r})"
    if v.source == "field":
        return f"_x.get({v.name!r})"
    if v.source == "formula" and isinstance(v.const, list):
        return _formula(v)
    if v.source == "object" and isinstance(v.const, list):
        return "{" + ", ".join(f"{k!r}: {python_param_name(k)}" for k in v.const) + "}"
    if v.source == "param_map" and isinstance(v.const, dict):
        return f"{v.const!r}.get(str({v.name}))"
    if v.source == "today":
        return "_today"
    if v.source == "now":
        return "_now"
    if v.source == "new_id":  # the key stays text; an attribute the data holds as a number
        return "int(_new_id)" if v.const == "int" else "_new_id"  # takes the number
    return repr(v.const)


def _copy_unless(v: Value) -> str:
    """An attribute of the record argument ``v.name`` names, or a stated number instead when
    another named record holds a given value."""
    coll, attr, unless = v.const[1:]
    got = f"(state.get({coll!r}, {{}}).get(str({v.name})) or {{}}).get({attr!r})"
    if len(unless) == 5:
        param, ucoll, uattr, uval, n = unless
        rec = f"(state.get({ucoll!r}, {{}}).get(str({python_param_name(param)})) or {{}})"
        return f"({n!r} if {rec}.get({uattr!r}) == {uval!r} else {got})"
    return got


def _given_else(name: str, ref: str, coll: str, attr: str) -> str:
    """Argument ``name`` when given, else attribute ``attr`` of the ``coll`` record argument
    ``ref`` names."""
    arg, via = python_param_name(name), python_param_name(ref)
    held = f"(state.get({coll!r}, {{}}).get(str({via})) or {{}}).get({attr!r})"
    return f"({arg} if {_given(arg)} else {held})"


def _formula(v: Value) -> str:
    """The expression of a ``formula`` value on the new record ``_new`` (to cents, halves up)."""
    kind, args = v.const[0], v.const[1:]
    if kind == "made_key":
        return "_made_id"
    if kind == "through":  # an attribute of the record the acted-on record refers to
        via, coll, attr = args
        return f"(state.get({coll!r}, {{}}).get(str(_made.get({via!r}))) or {{}}).get({attr!r})"
    if kind == "was":  # the value before the call (none for a create)
        return f"_was.get({args[0]!r})"
    if kind == "left":  # the value after the call, or the one it cleared
        a = args[0]
        return f"(_made.get({a!r}) if _made.get({a!r}) is not None else _was.get({a!r}))"
    if kind == "sum":
        attr, count, f = args
        terms = f"(_x.get({count!r}) or 0) * (_x.get({f!r}) or 0)"
        return f"round(sum({terms} for _x in (_new.get({attr!r}) or [])) + 1e-9, 2)"
    if kind == "count_sum":  # the lines' counts added up, a whole number
        attr, count = args
        return f"sum(int(_x.get({count!r}) or 0) for _x in (_new.get({attr!r}) or []))"
    if kind == "percent":
        base, coll, pct = args
        of = f"((state.get({coll!r}, {{}}).get(str({v.name})) or {{}}).get({pct!r}) or 0)"
        share = f"round((_new.get({base!r}) or 0) * {of} / 100 + 1e-9, 2)"
        return f"({share} if {_given(v.name or '')} else 0.0)"
    if kind == "target":
        attr, sign = args
        return f"({sign}) * (_rec.get({attr!r}) or 0)"
    if kind == "new":
        attr, sign = args
        return f"({sign}) * (_new.get({attr!r}) or 0)"
    if kind == "copy_unless":
        return _copy_unless(v)
    if kind == "join":
        coll, (one, sep, two) = args
        rec = f"(state.get({coll!r}, {{}}).get(str({v.name})) or {{}})"
        return f"str({rec}.get({one!r})) + {sep!r} + str({rec}.get({two!r}))"
    if kind == "given_else":  # the argument, else an attribute of the record another names
        return _given_else(*(str(x) for x in args))
    if kind == "first_then":
        first, items = (python_param_name(str(x)) for x in args)
        rest = f"[x for x in ({items} if isinstance({items}, list) else []) if x != {first}]"
        return f"[{first}] + {rest}"
    if kind == "map":
        return map_expr(str(args[0]), args[1])
    if kind == "next":
        coll, attr, prefix, width, numeric = args
        return next_code(str(coll), str(attr), str(prefix), int(width), bool(numeric))
    if kind == "days_after":
        return days_after_expr(str(args[0]), args[1])
    if kind == "expr":
        return expr_code(args[0], args[1])
    if kind == "signed":
        terms = args[0]
        known = " and ".join(f"_new.get({t!r}) is not None" for _, t in terms)
        total = " + ".join(f"({s}) * _new.get({t!r})" for s, t in terms)
        return f"(round({total} + 1e-9, 2) if {known} else None)"
    return "None"
