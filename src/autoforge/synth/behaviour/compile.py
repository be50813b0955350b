"""Compile a tool's behaviour model into sandbox tool code.

The code uses only what the sandbox allows (no clock, no ``strptime``: dates are checked by
hand; "today" is read from the state's ``meta`` with the data's today as the fallback). Each
precondition becomes a guard that raises ``ToolError`` citing its sentence, each effect a write,
and the reply the documented shape.
"""

from __future__ import annotations

import json

from autoforge.env import Check, Effect, ToolBehaviour, Value, python_param_name
from autoforge.synth.behaviour.arguments import argument_lines
from autoforge.synth.behaviour.branches import conditions
from autoforge.synth.behaviour.coded import holds_lines
from autoforge.synth.behaviour.dates import helper_lines, uses_days
from autoforge.synth.behaviour.entries import uses_left
from autoforge.synth.behaviour.formulas import cond_code, uses_expr
from autoforge.synth.behaviour.formulas import helper_lines as expr_helper_lines
from autoforge.synth.behaviour.line_code import lines_lines
from autoforge.synth.behaviour.listing import UNSET, list_lines
from autoforge.synth.behaviour.listing import given as _given
from autoforge.synth.behaviour.moves import move_lines
from autoforge.synth.behaviour.normal import normal_lines
from autoforge.synth.behaviour.ownership import owned_lines
from autoforge.synth.behaviour.pairs import pair_lines
from autoforge.synth.behaviour.paths import record_code
from autoforge.synth.behaviour.tallies import tally_before_lines, tally_lines
from autoforge.synth.behaviour.values import value_code as _value


def _py_ref(ref: str | None) -> str | None:
    """A ``param:<name>`` reference with the parameter's Python name."""
    if ref is None or not ref.startswith("param:"):
        return ref
    return "param:" + python_param_name(ref.split(":", 1)[1])


def _py_value(v: Value | None) -> None:
    if (
        v is not None
        and v.source in ("param", "target_param", "copy", "param_map", "formula")
        and v.name
    ):
        neg = v.name.startswith("-")
        v.name = ("-" if neg else "") + python_param_name(v.name.lstrip("-"))


def python_names(tb: ToolBehaviour) -> ToolBehaviour:
    """A copy of ``tb`` whose parameter references use the names the tool's Python
    function has (``from_``, ``type_``): documented names that are keywords or names the
    sandbox forbids cannot be Python identifiers there."""
    out = tb.model_copy(deep=True)
    for p in out.params:
        p.name = python_param_name(p.name)
    out.id_param = python_param_name(out.id_param) if out.id_param else None
    for c in out.checks:
        c.param = python_param_name(c.param) if c.param else None
        c.via = _py_ref(c.via)
        c.when_given = python_param_name(c.when_given) if c.when_given else None
        if c.kind == "at_least_one":
            c.values = [python_param_name(str(v)) for v in c.values]
    for e in out.effects:
        e.record = _py_ref(e.record) or e.record
        _py_value(e.value)
        for v in e.fields.values():
            _py_value(v)
    return out


def _sig(tb: ToolBehaviour) -> str:
    req = [p.name for p in tb.params if p.required]
    opt = []
    for p in tb.params:
        if p.required:
            continue
        mutable = isinstance(p.default, list | dict)
        plain = repr(p.default if p.has_default else None)
        default = repr(UNSET) if p.nullable or tb.kind == "update" or mutable else plain
        opt.append(f"{p.name}={default}")
    return ", ".join(["state", *req, *opt])


def _prelude(tb: ToolBehaviour) -> list[str]:
    lines = [
        f"_today = str((state.get('meta') or {{}}).get('today') or {tb.today!r})",
        "_now = str((state.get('meta') or {}).get('now') or (_today + 'T00:00:00'))",
    ]
    for p in tb.params:  # a JSON number given whole is still the float the API keeps
        if p.number:
            lines.append(f"if isinstance({p.name}, int) and not isinstance({p.name}, bool):")
            lines.append(f"    {p.name} = float({p.name})")
    lines += normal_lines(tb.params, UNSET)
    if tb.kind == "update":
        return lines
    for p in tb.params:
        if not p.required and (p.nullable or isinstance(p.default, list | dict)):
            lines.append(f"if {p.name} == {UNSET!r}:")
            lines.append(f"    {p.name} = {p.default!r}")
    return lines


def _date_guard(name: str) -> list[str]:
    return [
        f"if {_given(name)}:",
        f"    _d = str({name})",
        "    _ok = len(_d) == 10 and _d[4] == '-' and _d[7] == '-'",
        "    _ok = _ok and (_d[:4] + _d[5:7] + _d[8:]).isdigit()",
        "    if _ok:",
        "        _y, _m, _dd = int(_d[:4]), int(_d[5:7]), int(_d[8:])",
        "        _leap = _y % 4 == 0 and (_y % 100 != 0 or _y % 400 == 0)",
        "        _days = [31, 29 if _leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]",
        "        _ok = 1 <= _m <= 12 and 1 <= _dd <= _days[_m - 1]",
        "    if not _ok:",
        f"        raise ToolError('{name} must be a valid date YYYY-MM-DD: ' + _d)",
    ]


def _check_lines(c: Check, tb: ToolBehaviour) -> list[str]:
    """The guard of one check; one about an optional parameter runs only when it is given."""
    lines = _guard_lines(c, tb)
    if c.when_given and lines:
        return [f"if {_given(c.when_given)}:", *("    " + ln for ln in lines)]
    return lines


def _guard_lines(c: Check, tb: ToolBehaviour) -> list[str]:
    why = f" (docs: {c.sentence[:120]})" if c.sentence else ""
    p = c.param or ""
    lines = _line_check_lines(c, p, why)
    if lines is not None:
        return lines
    if c.kind == "exists" and c.values == ["each"]:
        return [
            f"for _x in ({p} if isinstance({p}, list) else []):",
            f"    if str(_x) not in state.get({c.collection!r}, {{}}):",
            f"        raise ToolError('{c.collection} not found: ' + str(_x))",
        ]
    if c.kind == "exists":
        return [
            f"if {_given(p)} and str({p}) not in state.get({c.collection!r}, {{}}):",
            f"    raise ToolError('{c.collection} not found: ' + str({p}))",
        ]
    if c.kind == "format" and c.values and c.values[0] in ("date", "email"):
        return _format_lines(str(c.values[0]), p)
    if c.kind == "argument" and len(c.values) == 2:
        return argument_lines(c, p, why)
    if c.kind == "non_blank":
        return [
            f"if {_given(p)} and not str({p}).strip():",
            f"    raise ToolError({(f'{p} must not be blank' + why)!r})",
        ]
    if c.kind == "not_past":
        return [
            f"if {_given(p)} and str({p}) < _today:",
            f"    raise ToolError({(f'{p} may not be before today' + why)!r})",
        ]
    if c.kind == "at_least_one":
        test = " or ".join(_given(v) for v in c.values) or "False"
        return [
            f"if not ({test}):",
            f"    raise ToolError({'give at least one of ' + ', '.join(map(str, c.values)) + why!r})",  # noqa: E501
        ]
    if c.kind == "unique":
        return [
            f"_taken = [r.get({c.attribute!r}) for r in state.get({c.collection!r}, {{}}).values()]",  # noqa: E501
            f"if {_given(p)} and {p} in _taken:",
            f"    raise ToolError({(f'{p} is already used' + why)!r})",
        ]
    if c.kind in ("record_for", "no_record_for") and len(c.values) in (1, 2):
        return pair_lines(c, _given, why)
    if c.kind == "owned":
        return owned_lines(c, why)
    if c.kind in ("differs", "same_parent") and c.attribute:
        return move_lines(c, why)
    if c.kind in _RECORD_CHECKS:
        return _relation_lines(c, tb, p, why) or _record_check_lines(c, tb, why)
    if c.kind == "holds" and c.values:
        tree = c.values[0]
        return holds_lines(c, cond_code(tree), [cond_code(t) for t in tree[2]], why)
    return []


def _format_lines(fmt: str, p: str) -> list[str]:
    """The guard of a ``date`` or ``email`` format on parameter ``p``."""
    if fmt == "date":
        return _date_guard(p)
    return [
        "import re",
        f"if {_given(p)} and not re.fullmatch(r'[^@\\s]+@[^@\\s]+\\.[^@\\s]+', str({p})):",
        f"    raise ToolError('{p} must be an email address')",
    ]


def _line_check_lines(c: Check, p: str, why: str) -> list[str] | None:
    """Checks on the objects of a list parameter of lines: each names a record
    (``exists``/``each``), their summed counts stay within an attribute (``lines_within``)."""
    if c.kind == "exists" and len(c.values) == 2 and c.values[0] == "each":
        f = str(c.values[1])
        return [
            f"for _x in ({p} if isinstance({p}, list) else []):",
            f"    _k = _x.get({f!r}) if isinstance(_x, dict) else None",
            f"    if str(_k) not in state.get({c.collection!r}, {{}}):",
            f"        raise ToolError('{c.collection} not found: ' + str(_k))",
        ]
    if c.kind == "lines_within" and len(c.values) == 2:
        f, n = (str(x) for x in c.values)
        return [
            "_need = {}",
            f"for _x in ({p} if isinstance({p}, list) else []):",
            "    if isinstance(_x, dict):",
            f"        _need[str(_x.get({f!r}))] = _need.get(str(_x.get({f!r})), 0) + (_x.get({n!r}) or 0)",  # noqa: E501
            "for _k, _n in _need.items():",
            f"    _have = (state.get({c.collection!r}, {{}}).get(_k) or {{}}).get({c.attribute!r})",
            "    if isinstance(_have, int) and _n > _have:",
            f"        raise ToolError({'not enough ' + str(c.attribute) + ' for '!r} + _k + {why!r})",  # noqa: E501
        ]
    return None


def _relation_lines(c: Check, tb: ToolBehaviour, p: str, why: str) -> list[str] | None:
    """Checks that read a record the target or a parameter reaches against a number, a table
    keyed by the parameter, or the records that refer to the target."""
    if c.kind == "threshold" and len(c.values) == 2:
        op, n = c.values
        a = c.attribute or ""
        return [
            f"_v = ({_checked_record(c)} or {{}}).get({a!r})",
            f"if isinstance(_v, (int, float)) and not (_v {op} {n!r}):",
            f"    raise ToolError({f'{a} must be {op} {n}' + why!r})",
        ]
    if c.kind == "keyed_from":
        return [
            f"_other = {_checked_record(c)}",
            f"_allowed = {c.table!r}",
            f"if {_given(p)} and isinstance(_other, dict) and str({p}) in _allowed"
            f" and _other.get({c.attribute!r}) not in _allowed[str({p})]:",
            f"    raise ToolError(str({p}) + ' is not allowed while the {c.collection} record is '"
            f" + str(_other.get({c.attribute!r})))",
        ]
    if c.kind == "no_child" and c.high is not None and c.param:
        return _child_limit_lines(c, why)
    if c.kind == "no_child" and tb.id_param is not None:
        return [
            f"for _each in state.get({c.collection!r}, {{}}).values():",
            f"    if isinstance(_each, dict) and str(_each.get({c.via!r})) == str({tb.id_param})"
            f" and _each.get({c.attribute!r}) in {tuple(c.values)!r}:",
            f"        raise ToolError({f'a {c.collection} record of it is ' + '/'.join(map(str, c.values)) + why!r})",  # noqa: E501
        ]
    return None


def _child_limit_lines(c: Check, why: str) -> list[str]:
    """Refuse when the record parameter ``c.param`` names already has ``c.high`` records of
    ``c.collection`` (those whose ``c.via`` names it, in one of ``c.values`` when given)."""
    inside = f" and _each.get({c.attribute!r}) in {tuple(c.values)!r}" if c.attribute else ""
    return [
        "_n = 0",
        f"for _each in state.get({c.collection!r}, {{}}).values():",
        f"    if isinstance(_each, dict) and str(_each.get({c.via!r})) == str({c.param}){inside}:",
        "        _n += 1",
        f"if {_given(c.param or '')} and _n >= {int(c.high or 0)}:",
        f"    raise ToolError({f'already {int(c.high or 0)} {c.collection} of it' + why!r})",
    ]


def _record_check_lines(c: Check, tb: ToolBehaviour, why: str) -> list[str]:
    """The guards that read the target (``_rec``) or a record it or a parameter refers to;
    :func:`compile_tool` places them after the target is looked up."""
    p = c.param or ""
    if c.kind in ("status_in", "status_not_in"):
        return _status_lines(c, tb, why)
    if c.kind == "same_value" and len(c.values) == 2:
        other = Check(kind="exists", collection=str(c.values[0]), via=str(c.values[1]) or None)
        a = c.attribute or ""
        return [
            f"_one, _two = {_checked_record(c)}, {_checked_record(other)}",
            "if isinstance(_one, dict) and isinstance(_two, dict) "
            f"and None not in (_one.get({a!r}), _two.get({a!r})) "
            f"and _one.get({a!r}) != _two.get({a!r}):",
            f"    raise ToolError({f'the {c.collection} and the {c.values[0]} differ in {a}'!r}"
            f" + {why!r})",
        ]
    if c.kind in ("not_above", "not_below"):
        return _attribute_bound_lines(c, why)
    if c.kind == "max_items" and c.high is not None:
        a, n = c.attribute or "", int(c.high)
        return [
            f"if len(_rec.get({a!r}) or []) >= {n}:",
            f"    raise ToolError({f'{a} already holds {n} items' + why!r})",
        ]
    if c.kind == "min_items" and c.low is not None:
        a, n = c.attribute or "", int(c.low)
        return [
            f"if len(_rec.get({a!r}) or []) < {n}:",
            f"    raise ToolError({f'{a} must hold at least {n} items' + why!r})",
        ]
    if c.kind == "not_member":
        a = c.attribute or ""
        return [
            f"if {p} in (_rec.get({a!r}) or []):",
            f"    raise ToolError(str({p}) + {f' is already in {a}' + why!r})",
        ]
    if c.kind == "member_of":
        return _member_lines(c, why)
    if c.kind == "date_window" and c.values:
        op, rec = str(c.values[0]), _checked_record(c)
        day = f"str(_other.get({c.attribute!r}) or '')[:10]"
        message = f"{c.collection} {c.attribute} "
        n = c.values[1] if len(c.values) > 1 else 0  # days after today the bound lies
        bound = f"_plus_days(_today, {int(n)})" if n else "_today"
        told = f" is not {op} today" + (f" + {int(n)} days" if n else "")
        return [
            f"_other = {rec}",
            f"_day = {day} if isinstance(_other, dict) else ''",
            f"if _day and not (_day {op} {bound}):",
            f"    raise ToolError({message!r} + _day + {told + why!r})",
        ]
    if c.kind == "transition":
        return [
            f"_allowed = {c.table!r}",
            f"_cur = _rec.get({c.attribute!r})",
            f"if {p} not in _allowed.get(str(_cur), []):",
            f"    raise ToolError('transition not allowed: ' + str(_cur) + ' -> ' + str({p}))",
        ]
    return []


def _after_lines(c: Check) -> list[str]:
    """``new_not_below``: checked on the new record once its values are computed (the call is
    one transaction, so the refusal undoes the writes before it)."""
    why = f" (docs: {c.sentence[:120]})" if c.sentence else ""
    low, a = str(c.values[0]), c.attribute or ""
    return [
        f"_other = {_checked_record(c)}",
        f"_low = (_other or {{}}).get({low!r})",
        f"if isinstance(_low, (int, float)) and isinstance(_new.get({a!r}), (int, float)) "
        f"and _new.get({a!r}) < _low:",
        f"    raise ToolError({a!r} + ' is below the minimum ' + str(_low) + {why!r})",
    ]


def _cover_lines(c: Check) -> list[str]:
    """``covers``: checked once the writes are done (the call is one transaction, so the
    refusal undoes them): a number the call took more from than it held is refused."""
    why = f" (docs: {c.sentence[:120]})" if c.sentence else ""
    held = Effect(kind="set", record=c.via or "target", collection=c.collection)
    a = c.attribute or ""
    return [
        f"_t = {_record_expr(held)}",
        f"if isinstance(_t, dict) and isinstance(_t.get({a!r}), (int, float)) "
        f"and _t.get({a!r}) < -1e-9:",
        f"    raise ToolError({f'not enough {a} for this call' + why!r})",
    ]


def _member_lines(c: Check, why: str) -> list[str]:
    """``member_of``: each given value (a scalar parameter, or field ``values[0]`` of each
    object of a list parameter) must be an entry of the record's list."""
    p, a = c.param or "", c.attribute or ""
    field = str(c.values[0]) if c.values else None
    entry = f"_e.get({field!r}) if isinstance(_e, dict) else _e" if field else "_e"
    item = f"_x.get({field!r}) if isinstance(_x, dict) else _x" if field else "_x"
    message = f" is not among the {a} of that {c.collection} record" + why
    return [
        f"_other = {_checked_record(c)}",
        "_have = {str(" + entry + ") for _e in ((_other or {}).get(" + repr(a) + ") or [])}",
        f"for _x in ({p} if isinstance({p}, list) else ([{p}] if {_given(p)} else [])):",
        f"    _v = {item}",
        "    if isinstance(_other, dict) and str(_v) not in _have:",
        f"        raise ToolError(str(_v) + {message!r})",
    ]


def _checked_record(c: Check) -> str:
    """The expression of the record a check reads: the target, or one ``via`` names."""
    if c.via is None:
        return "_rec"
    if c.via.startswith("path:"):
        return _record_expr(Effect(kind="set", record=c.via, collection=c.collection))
    if c.via.startswith("param:"):
        name = c.via.split(":", 1)[1]
        return f"state.get({c.collection!r}, {{}}).get(str({name}))"
    return f"state.get({c.collection!r}, {{}}).get(str(_rec.get({c.via!r})))"


def _attribute_bound_lines(c: Check, why: str) -> list[str]:
    p, a = c.param or "", c.attribute or ""
    op, word = (">", "exceeds") if c.kind == "not_above" else ("<", "is below")
    number = "isinstance({0}, (int, float)) and not isinstance({0}, bool)"
    return [
        f"_other = {_checked_record(c)}",
        f"_bound = _other.get({a!r}) if isinstance(_other, dict) else None",
        f"if {number.format(p)} and {number.format('_bound')} and {p} {op} _bound:",
        f"    raise ToolError({f'{p} {word} the {c.collection} {a} ('!r} + str(_bound) + ')'"
        f" + {why!r})",
    ]


def _status_lines(c: Check, tb: ToolBehaviour, why: str) -> list[str]:
    rec = _checked_record(c)
    op = "not in" if c.kind == "status_in" else "in"
    return [
        f"_other = {rec}",
        f"if isinstance(_other, dict) and _other.get({c.attribute!r}) {op} {tuple(c.values)!r}:",
        f"    _got = str(_other.get({c.attribute!r}))",
        f"    raise ToolError({(c.collection or '') + ' is '!r} + _got + {why!r})",
    ]


def _logged_before(tb: ToolBehaviour) -> list[str]:
    """Before a log entry is made: the record the call acted on (``_made``, its key
    ``_made_id``) and, for a create, no earlier values (``_was``)."""
    if tb.kind == "create":
        return ["_made, _made_id, _was = _new, _new_id, {}"]
    return [f"_made, _made_id = _rec, str({tb.id_param})"]


def _ledger_lines(e: Effect, tb: ToolBehaviour) -> list[str]:
    """Move the holder's number by the change and log one entry (see ``Effect``)."""
    num = e.attribute or ""
    if e.record == "target":
        holder = f"str({tb.id_param})"
    elif e.record.startswith("param:"):
        holder = f"str({e.record.split(':', 1)[1]})"
    else:
        holder = f"str(_rec.get({e.record.split(':', 1)[1]!r}))"
    slots = {
        "delta": "_d",
        "float_delta": "float(_d)",
        "after": f"_t[{num!r}]",
        "holder_key": holder,
        "target_key": f"str({tb.id_param})",
    }

    def made(v: Value) -> str:
        if v.source == "new_id":
            return "_lid"
        if v.source == "formula" and isinstance(v.const, list) and v.const[0] in slots:
            return slots[str(v.const[0])]
        return _value(v)

    moved = f"_t[{num!r}] + _d"
    if e.digits is not None:
        moved = f"round({moved} + 0, {e.digits})"
    entry = "{" + ", ".join(f"{a!r}: {made(v)}" for a, v in e.fields.items()) + "}"
    return [
        f"_t = {_record_expr(e)}",
        f"_d = {_value(e.value) if e.value else None}",
        f"if isinstance(_t, dict) and isinstance(_t.get({num!r}), (int, float)) and isinstance(_d, (int, float)):",  # noqa: E501
        f"    _t[{num!r}] = {moved}",
        *("    " + ln for ln in _next_id(str(e.ledger), e.id_prefix, e.id_width, "_lnums", "_lid")),
        f"    state.setdefault({e.ledger!r}, {{}})[_lid] = {entry}",
    ]


def _next_id(coll: str, prefix: str, width: int, nums: str, new_id: str) -> list[str]:
    """Lines setting ``new_id`` to the id after the highest of ``coll`` with ``prefix``,
    zero-padded to ``width`` (the data's pattern)."""
    n = len(prefix)
    keys = f"state.get({coll!r}, {{}})"
    return [
        f"{nums} = [int(k[{n}:]) for k in {keys} if k.startswith({prefix!r}) and k[{n}:].isdigit()]",  # noqa: E501
        f"{new_id} = {prefix!r} + str(max({nums}, default=0) + 1).zfill({width:d})",
    ]


def _conditional_lines(e: Effect, tb: ToolBehaviour) -> list[str]:
    """An effect written only when an argument (``when`` ``["param:<name>", value]``) or, for a
    set, the target's attribute after the other writes has the given value."""
    inner = _effect_lines(e.model_copy(update={"when": []}), tb)
    if len(e.when) == 3:  # [attribute, ">=" or "<", number or "attr:<name>"], to the cent
        a, op, bound = e.when
        rec = "_rec" if e.record == "target" else _record_expr(e)
        than = f"(_c.get({bound[5:]!r}) or 0)" if str(bound).startswith("attr:") else repr(bound)
        test = f"isinstance(_c, dict) and isinstance(_c.get({a!r}), (int, float))"
        return [f"_c = {rec}", f"if {test} and _c.get({a!r}) {op} {than} - 0.005:",
                *("    " + ln for ln in inner)]  # fmt: skip
    if str(e.when[0]).startswith("param:"):
        arg = python_param_name(str(e.when[0]).split(":", 1)[1])
        return [f"if str({arg}) == {str(e.when[1])!r}:", *("    " + ln for ln in inner)]
    if e.kind == "set":
        return [f"if _rec.get({e.when[0]!r}) == {e.when[1]!r}:", *("    " + ln for ln in inner)]
    return inner


def _record_expr(e: Effect) -> str:
    if e.record.startswith("path:"):
        start, coll, hops = json.loads(e.record.split(":", 1)[1])
        return record_code(start, coll, hops)
    if e.record == "target":
        return "_rec"
    if e.record.startswith("param:"):
        return f"state.get({e.collection!r}, {{}}).get(str({e.record.split(':', 1)[1]}))"
    if e.record.startswith("via:"):
        return (
            f"state.get({e.collection!r}, {{}}).get(str(_rec.get({e.record.split(':', 1)[1]!r})))"
        )
    return "_new"


def _each_lines(e: Effect, tb: ToolBehaviour) -> list[str]:
    """An effect on every record of ``e.over[0]`` whose ``e.over[1]`` names the target and
    whose attributes are among ``e.where``'s values; inside the loop ``_rec`` is that record."""
    coll, ref = e.over
    conds = [f"isinstance(_each, dict) and str(_each.get({ref!r})) == str({tb.id_param})"]
    conds += [f"_each.get({a!r}) in {tuple(vs)!r}" for a, vs in e.where.items()]
    inner = _effect_lines(e.model_copy(update={"over": [], "where": {}}), tb)
    return [
        "_saved = _rec",
        f"for _each in list(state.get({coll!r}, {{}}).values()):",
        f"    if {' and '.join(conds)}:",
        "        _rec = _each",
        *("        " + ln for ln in inner),
        "_rec = _saved",
    ]


def _effect_lines(e: Effect, tb: ToolBehaviour) -> list[str]:
    if len(e.when) == 3 and e.when[0] == "expr":  # one case of an "If ... Otherwise ..."
        inner = _effect_lines(e.model_copy(update={"when": []}), tb)
        test = f"_k{conditions(tb).index(e.when[1])}"
        return [f"if {test if e.when[2] else 'not ' + test}:", *("    " + ln for ln in inner)]
    if len(e.over) == 2 and tb.id_param is not None:
        return _each_lines(e, tb)
    if e.kind == "lines":
        return lines_lines(e)
    if e.kind == "ledger":
        return _ledger_lines(e, tb)
    if e.kind == "set" and e.record == "new":
        return [f"_new[{a!r}] = {_value(v)}" for a, v in e.fields.items()]
    if e.kind == "create":
        lines = _logged_before(tb) if e.record == "logged" else []
        lines += [
            *_next_id(str(e.collection), e.id_prefix, e.id_width, "_nums", "_new_id"),
            "_new = {}",
        ]
        for attr, v in e.fields.items():
            lines.append(f"_new[{attr!r}] = {_value(v)}")
        lines.append(f"state.setdefault({e.collection!r}, {{}})[_new_id] = _new")
        if e.record == "logged" and tb.kind == "create":
            lines.append("_new, _new_id = _made, _made_id")  # the reply is the record made
        return lines
    if len(e.when) in (2, 3) and e.kind in ("set", "increment"):
        return _conditional_lines(e, tb)
    if e.kind == "set":
        return _set_lines(e, tb)
    if e.kind == "increment" and e.value is not None:
        moved = f"_t[{e.attribute!r}] + _by"
        if e.digits is not None:
            moved = f"round({moved} + 0, {e.digits})"
        return [  # a number the call could not compute moves nothing
            f"_t, _by = {_record_expr(e)}, {_value(e.value)}",
            f"if isinstance(_t, dict) and isinstance(_t.get({e.attribute!r}), (int, float))"
            " and isinstance(_by, (int, float)):",
            f"    _t[{e.attribute!r}] = {moved}",
        ]
    if e.kind == "append" and e.value is not None:
        return _append_lines(e, e.value)
    if e.kind == "remove" and e.value is not None and e.merge:
        a, f = e.attribute, e.merge[0]
        return [
            f"_rec[{a!r}] = [_x for _x in (_rec.get({a!r}) or []) if not (isinstance(_x, dict)"
            f" and str(_x.get({f!r})) == str({_value(e.value)}))]",
        ]
    if e.kind == "delete":
        return [f"state.get({e.collection!r}, {{}}).pop(str({tb.id_param}), None)"]
    return []


def _set_lines(e: Effect, tb: ToolBehaviour) -> list[str]:
    """Write ``e.fields`` on the target (``_rec``) or on a record it reaches; an optional
    argument left out changes nothing, an explicit null (``only_given``) clears."""
    if e.record not in ("target", "new"):
        lines = [f"_t = {_record_expr(e)}", "if isinstance(_t, dict):"]
        optional = {p.name for p in tb.params if not p.required}
        for a, v in e.fields.items():
            if v.source == "param" and v.name in optional:  # left out: nothing changes
                lines += [f"    if {_given(v.name or '')}:", f"        _t[{a!r}] = {_value(v)}"]
            else:
                lines.append(f"    _t[{a!r}] = {_value(v)}")
        return lines
    lines = []
    optional = {p.name for p in tb.params if not p.required and not p.has_default}
    nullable = {p.name for p in tb.params if p.nullable}
    for attr, v in e.fields.items():
        if e.only_given and v.source == "param" and v.name in nullable:
            lines.append(f"if {v.name} != {UNSET!r}:")  # an explicit null clears it
            lines.append(f"    _rec[{attr!r}] = {_value(v)}")
        elif v.source == "param" and (e.only_given or v.name in optional):
            # an optional argument left out changes nothing
            lines.append(f"if {_given(v.name or '')}:")
            lines.append(f"    _rec[{attr!r}] = {_value(v)}")
        else:
            lines.append(f"_rec[{attr!r}] = {_value(v)}")
    return lines


def _append_lines(e: Effect, value: Value) -> list[str]:
    """Append ``value`` to the target's list ``e.attribute``; with ``e.merge`` (key field,
    summed field) an entry with the same key gets the summed field added instead."""
    head = [
        f"if not isinstance(_rec.get({e.attribute!r}), list):",
        f"    _rec[{e.attribute!r}] = []",
    ]
    if len(e.merge) != 2:
        return [*head, f"_rec[{e.attribute!r}].append({_value(value)})"]
    key, summed = e.merge
    return [
        *head,
        f"_item = {_value(value)}",
        "_same = [x for x in _rec[" + repr(e.attribute) + "] if isinstance(x, dict) and "
        f"x.get({key!r}) == _item.get({key!r})]",
        "if _same:",
        f"    _same[0][{summed!r}] = (_same[0].get({summed!r}) or 0) + _item.get({summed!r})",
        "else:",
        f"    _rec[{e.attribute!r}].append(_item)",
    ]


#: checks that read only the arguments and the state, placed before the target is looked up
_ARGUMENT_CHECKS = (
    "exists", "format", "non_blank", "not_past", "at_least_one", "unique", "record_for",
    "lines_within", "argument", "no_record_for",
)  # fmt: skip
#: checks that read the target or a record it or a parameter refers to
_RECORD_CHECKS = (
    "status_in", "status_not_in", "transition", "not_above", "not_below", "date_window",
    "not_member", "max_items", "min_items", "member_of", "no_child", "keyed_from", "threshold",
    "owned", "differs", "same_parent", "same_value",
)  # fmt: skip


def compile_tool(tb: ToolBehaviour, doc: str) -> str:
    """The source of ``def <tool>(state, ...)`` carrying ``tb``."""
    tb = python_names(tb)
    body = _prelude(tb) + (helper_lines() if uses_days(tb) else [])
    body += expr_helper_lines() if uses_expr(tb) else []
    for c in tb.checks:
        if c.kind in _ARGUMENT_CHECKS:
            body += _check_lines(c, tb)
    if tb.kind == "list":
        body += list_lines(tb)
    else:
        if tb.id_param is not None and tb.collection is not None:
            body += [
                f"_rec = state.get({tb.collection!r}, {{}}).get(str({tb.id_param}))",
                "if _rec is None:",
                f"    raise ToolError('{tb.collection} not found: ' + str({tb.id_param}))",
            ]
            body += ["_was = dict(_rec)"] if uses_left(tb) else []
        for c in tb.checks:
            if c.kind in _RECORD_CHECKS:
                if c.via is None and tb.id_param is None:
                    continue
                body += _check_lines(c, tb)
        for c in tb.checks:
            if c.kind == "holds" and c.values:
                body += _check_lines(c, tb)
        body += tally_before_lines(tb.effects)
        body += [f"_k{i} = bool({cond_code(t)})" for i, t in enumerate(conditions(tb))]
        counted = 0
        for e in tb.effects:  # a tally moves its holders where it stands among the writes
            if e.kind == "tally":
                body += tally_lines(e, counted, tb.checks)
                counted += 1
            else:
                body += _effect_lines(e, tb)
        for c in tb.checks:
            if c.kind == "new_not_below" and c.values:
                body += _after_lines(c)
            if c.kind == "covers":
                body += _cover_lines(c)
        body += _reply_lines(tb)
    summary = (doc.strip().splitlines() or [tb.tool])[0].replace('"""', "'")
    head = [f"def {tb.tool}({_sig(tb)}):", f'    """{summary}"""']
    return "\n".join(head + ["    " + ln for ln in body]) + "\n"


def _reply_lines(tb: ToolBehaviour) -> list[str]:
    """The return line, the reply wrapped in its envelope where the docs give one."""
    line = _bare_reply(tb)[0]
    if tb.reply.wrap is None or not line.startswith("return "):
        return [line]
    return [f"return {{{tb.reply.wrap!r}: {line.removeprefix('return ')}}}"]


def _bare_reply(tb: ToolBehaviour) -> list[str]:
    if any(
        e.kind == "create"
        and (e.record == "new" or (e.record == "opened" and e.collection == tb.reply.collection))
        for e in tb.effects
    ):
        return ["return _new"]  # fmt: skip
    if tb.kind == "delete":
        return ["return {'deleted': True}"]
    if tb.id_param is not None and tb.collection is not None and tb.kind != "compute":
        return ["return _rec"]
    if tb.reply.kind == "list":
        return ["return []"]
    return [f"return {dict.fromkeys(tb.reply.keys)!r}"]
