"""The compiled code of line items: a create storing the line objects its argument lists
(numbered, priced, merged, taken off the referenced records' stock), an action adding one
line to its target, and the counts a target's lines give back. Read by
:mod:`autoforge.synth.behaviour.lines`; compiled here so :mod:`compile` stays the tool's
outline.
"""

from __future__ import annotations

from autoforge.env import Effect, Value, python_param_name
from autoforge.synth.behaviour.values import value_code as _value


def lines_lines(e: Effect) -> list[str]:
    """Store the line objects of parameter ``e.value`` on ``_new`` and take their counts off
    the referenced records; on the target (``when`` ``[attribute, "back"]``), give the counts
    of its stored lines back."""
    param = e.value.name if e.value else ""
    ref, count = e.value.const if e.value and isinstance(e.value.const, list) else ("", "")
    if e.record == "target" and e.value is not None and e.value.source == "object":
        return one_line_lines(e, str(ref), str(count))
    if e.record == "target" and len(e.when) == 2 and e.when[1] == "back":
        stock = str(e.when[0])
        return [
            f"for _x in (_rec.get({e.attribute!r}) or []):",
            f"    _t = state.get({e.collection!r}, {{}}).get(str(_x.get({ref!r})))",
            f"    if isinstance(_t, dict) and isinstance(_t.get({stock!r}), int):",
            f"        _t[{stock!r}] = _t[{stock!r}] + (_x.get({count!r}) or 0)",
        ]

    def made_value(v: Value) -> str:
        if v.source == "copy" and isinstance(v.const, list):
            coll, attr = v.const
            return f"(state.get({coll!r}, {{}}).get(str(_x.get({ref!r}))) or {{}}).get({attr!r})"
        return _value(v)

    later = {f: v for f, v in e.fields.items() if v.source == "formula"
             and isinstance(v.const, list) and v.const[:1] in (["line_no"], ["times"])}  # fmt: skip
    made = (
        "{"
        + ", ".join(f"{f!r}: {made_value(v)}" for f, v in e.fields.items() if f not in later)
        + "}"
    )
    lines = ["_lines = []", f"for _x in ({param} if isinstance({param}, list) else []):"]
    if e.merge:
        lines += [
            f"    _same = [y for y in _lines if y.get({ref!r}) == _x.get({ref!r})]",
            "    if _same:",
            f"        _same[0][{count!r}] = (_same[0].get({count!r}) or 0) + _x.get({count!r})",
            "        continue",
        ]
    lines += [f"    _lines.append({made})"]
    if later:  # a line's number and the products of its fields, once the lines are merged
        lines.append("for _i, _y in enumerate(_lines):")
        for f, v in later.items():
            if v.const[0] == "line_no":
                lines.append(f"    _y[{f!r}] = _i + 1")
            else:
                a, b = v.const[1:]
                lines.append(
                    f"    _y[{f!r}] = round((_y.get({a!r}) or 0) * (_y.get({b!r}) or 0) + 1e-9, 2)"
                )
    lines.append(f"_new[{e.attribute!r}] = _lines")
    if e.when and ref and count:
        stock = str(e.when[0])
        lines += [
            "for _x in _lines:",
            f"    _t = state.get({e.collection!r}, {{}}).get(str(_x.get({ref!r})))",
            f"    if isinstance(_t, dict) and isinstance(_t.get({stock!r}), int):",
            f"        _t[{stock!r}] = _t[{stock!r}] - (_x.get({count!r}) or 0)",
        ]
    return lines


def one_line_lines(e: Effect, ref: str, count: str) -> list[str]:
    """Add the line the reference and count arguments make to the target's list ``e.attribute``
    (merged into a line for the same record when ``e.merge``); then ``_new`` is the target, so
    the formulas over its lines that follow read it."""
    attr = e.attribute or ""

    def made(f: str, v: Value) -> str:
        if v.source == "field":
            return python_param_name(ref if f == ref else count)
        if v.source == "copy" and isinstance(v.const, list):
            coll, a = v.const
            return (
                f"(state.get({coll!r}, {{}}).get(str({python_param_name(ref)})) or {{}}).get({a!r})"
            )
        if v.source == "formula" and v.const == ["line_no"]:
            return f"len(_rec[{attr!r}]) + 1"
        if v.source == "formula" and isinstance(v.const, list) and v.const[0] == "times":
            a, b = v.const[1:]
            return f"round((_line.get({a!r}) or 0) * (_line.get({b!r}) or 0) + 1e-9, 2)"
        return _value(v)

    products = {
        f: v for f, v in e.fields.items() if v.source == "formula" and v.const[0] == "times"
    }
    lines = [f"if not isinstance(_rec.get({attr!r}), list):", f"    _rec[{attr!r}] = []"]
    key = python_param_name(ref)
    lines += [
        f"_same = [y for y in _rec[{attr!r}] if isinstance(y, dict) and y.get({ref!r}) == {key}]"
    ]
    lines += ["if _same and " + ("True" if e.merge else "False") + ":", "    _line = _same[0]"]
    lines += [f"    _line[{count!r}] = (_line.get({count!r}) or 0) + {python_param_name(count)}"]
    lines += [f"    _line[{f!r}] = {made(f, v)}" for f, v in products.items()]
    lines += ["else:", "    _line = {}"]
    lines += [f"    _line[{f!r}] = {made(f, v)}" for f, v in e.fields.items()]
    lines += [f"    _rec[{attr!r}].append(_line)", "_new = _rec"]
    return lines
