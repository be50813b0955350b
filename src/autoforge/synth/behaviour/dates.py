"""Dates a write computes from another date and a number of days.

The docs state them as "`due_date` = today + 30 days", "`ends_on` = `starts_on` + `nights`"
or "`due_date` is 14 days after today": the base is today, a parameter or an attribute of the
new record, written as code; the number of days is a whole number or a parameter. The value
is a ``formula`` ``["days_after", base, days]`` (base ``"today"``, ``"param:<name>"`` or
``"new:<attribute>"``; days an int or ``"param:<name>"``), computed by :func:`helper_lines`'s
pure-arithmetic calendar (the sandbox offers no date library to tools). Every rule is stated
without naming a domain.
"""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import ToolBehaviour, Value, python_param_name

_TERM = r"(?:today|`\w+`|\d+)"


def _base(token: str, params: set[str]) -> str:
    name = token.strip("`")
    if name == "today":
        return "today"
    return f"param:{name}" if name in params else f"new:{name}"


def _days(token: str, params: set[str]) -> int | str | None:
    name = token.strip("`")
    if name.isdigit():
        return int(name)
    return f"param:{name}" if name in params else None


def offset_fields(text: str, attrs: list[str], params: list[str]) -> dict[str, Value]:
    """``{attribute: days_after formula}`` for each attribute a sentence of ``text`` gives as
    a date plus (or minus) a number of days."""
    flat = " ".join(text.split())
    names = set(params)
    out: dict[str, Value] = {}
    for a in attrs:
        head = rf"(?<![\w-])`{re.escape(a)}`\s*(?:=|is|:|to)\s*"
        plus = re.search(
            rf"{head}(?P<base>{_TERM})\s*(?P<sign>[+-]|plus|minus)\s*(?P<n>`\w+`|\d+)(?:\s+days?)?",
            flat,
        )
        after = re.search(rf"{head}(?P<n>\d+|`\w+`)\s+days?\s+after\s+(?P<base>{_TERM})", flat)
        m = plus or after
        if m is None:
            continue
        days = _days(m.group("n"), names)
        if days is None or m.group("base").isdigit():
            continue
        if plus and m.group("sign") in ("-", "minus"):
            if not isinstance(days, int):
                continue
            days = -days
        out[a] = Value(source="formula", const=["days_after", _base(m.group("base"), names), days])
    return out


def uses_days(tb: ToolBehaviour) -> bool:
    """Whether a write of ``tb`` computes a date (and so needs :func:`helper_lines`)."""
    values = [v for e in tb.effects for v in [*e.fields.values(), e.value] if v is not None]
    if any(c.kind == "argument" and c.values and isinstance(c.values[-1], list) for c in tb.checks):
        return True  # a date argument compared with today plus days
    if any(c.kind == "date_window" and len(c.values) > 1 and c.values[1] for c in tb.checks):
        return True  # a record's date compared with today plus days
    return any(v.source == "formula" and v.const and v.const[0] == "days_after" for v in values)


def helper_lines() -> list[str]:
    """``_plus_days(day, n)``: the ISO date ``n`` days after ``day`` (None when ``day`` is no
    date), by the civil-from-days arithmetic of the proleptic Gregorian calendar;
    ``_weekday(day)``: 0 for Sunday to 6 for Saturday (None when ``day`` is no date)."""
    return [
        "def _weekday(_s):",
        "    _s = str(_s)",
        "    if len(_s) < 10 or not (_s[:4] + _s[5:7] + _s[8:10]).isdigit():",
        "        return None",
        "    _y, _m, _d = int(_s[:4]), int(_s[5:7]), int(_s[8:10])",
        "    _y -= _m < 3",
        "    _t = (0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4)[(_m - 1) % 12]",
        "    return (_y + _y // 4 - _y // 100 + _y // 400 + _t + _d) % 7",
        "def _plus_days(_s, _n):",
        "    if isinstance(_n, bool) or not isinstance(_n, int):",
        "        return None",
        "    _s = str(_s)",
        "    if len(_s) < 10 or not (_s[:4] + _s[5:7] + _s[8:10]).isdigit():",
        "        return None",
        "    _y, _m, _d = int(_s[:4]), int(_s[5:7]), int(_s[8:10])",
        "    _y -= _m <= 2",
        "    _era = _y // 400",
        "    _yoe = _y - _era * 400",
        "    _doy = (153 * (_m + (-3 if _m > 2 else 9)) + 2) // 5 + _d - 1",
        "    _z = _era * 146097 + _yoe * 365 + _yoe // 4 - _yoe // 100 + _doy + int(_n)",
        "    _era = _z // 146097",
        "    _doe = _z - _era * 146097",
        "    _yoe = (_doe - _doe // 1460 + _doe // 36524 - _doe // 146096) // 365",
        "    _doy = _doe - (365 * _yoe + _yoe // 4 - _yoe // 100)",
        "    _mp = (5 * _doy + 2) // 153",
        "    _d = _doy - (153 * _mp + 2) // 5 + 1",
        "    _m = _mp + (3 if _mp < 10 else -9)",
        "    return '%04d-%02d-%02d' % (_yoe + _era * 400 + (_m <= 2), _m, _d)",
    ]


def days_after_expr(base: str, days: int | str | list[Any]) -> str:
    """The Python expression of a ``days_after`` formula inside a compiled tool."""
    if base == "today":
        day = "_today"
    elif base.startswith("param:"):
        day = python_param_name(base.split(":", 1)[1])
    else:
        day = f"_new.get({base.split(':', 1)[1]!r})"
    return f"_plus_days({day}, {_days_expr(days)})"


def _days_expr(days: int | str | list[Any]) -> str:
    """A number of days: a whole number, a parameter (``param:<name>``), a number attribute of
    the new record (``["new", attribute]``) or the entry of a table keyed by an attribute of the
    new record or of the record it refers to (``["keyed", key, [reference, collection] or None,
    table]``); None (no date) for a key the table lacks."""
    if isinstance(days, str):
        return python_param_name(days.split(":", 1)[1])
    if not isinstance(days, list):
        return repr(days)
    if days[0] == "new":
        return f"_new.get({days[1]!r})"
    _, key, via, table = days
    if via is None:
        return f"{table!r}.get(str(_new.get({key!r})))"
    ref, coll = via
    held = f"(state.get({coll!r}, {{}}).get(str(_new.get({ref!r}))) or {{}})"
    return f"{table!r}.get(str({held}.get({key!r})))"
