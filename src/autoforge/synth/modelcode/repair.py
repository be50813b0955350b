"""What a repair prompt adds to a failed check so that a small model can act on it.

A crash message alone (``KeyError: 'stock'``) names neither the line that failed nor where the
value really is; a 0.5B model then tends to send the same code back. :func:`crash_hints` adds
both, from the candidate's own code and the test state it ran on: the lines that use the
missing key, the collections whose records have it (with one record), and the argument that
holds it. Nothing is executed here: the hints are read off the code text and the data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

_KEY_ERROR = re.compile(r"KeyError: '([^']{1,60})'")
_TYPE_ERROR = re.compile(r"(TypeError|AttributeError): (.{1,160})")


def _has_key(value: Any, key: str, depth: int = 3) -> bool:
    if depth < 0:
        return False
    if isinstance(value, Mapping):
        return key in value or any(_has_key(v, key, depth - 1) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, key, depth - 1) for v in value[:5])
    return False


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _lines_using(code: str, key: str) -> list[str]:
    pattern = re.compile(rf"\[\s*['\"]{re.escape(key)}['\"]\s*\]|\b{re.escape(key)}\b")
    return [ln.strip() for ln in code.splitlines() if pattern.search(ln)][:3]


def _where(key: str, state: Mapping[str, Any], args: Mapping[str, Any]) -> list[str]:
    """Where ``key`` is in the test data: a collection, record fields, argument entries."""
    out: list[str] = []
    if key in state:
        out.append(f"'{key}' is a collection: state['{key}'][<key>] is one record")
    for name, records in state.items():
        if not isinstance(records, Mapping) or not records:
            continue
        record = next(iter(records.values()))
        if _has_key(record, key):
            out.append(
                f"'{key}' is a field of the {name} records (state['{name}'][<key>]), e.g. "
                f"{_short(record)}"
            )
    for param, value in args.items():
        if _has_key(value, key):
            out.append(f"'{key}' is in the argument {param}, e.g. {param}={_short(value, 200)}")
    return out


def crash_hints(
    code: str, problems: Iterable[str], state: Mapping[str, Any], args: Mapping[str, Any]
) -> list[str]:
    """Hints for the crashes among ``problems``: failing lines and the real data shapes."""
    hints: list[str] = []
    text = "\n".join(problems)
    for key in dict.fromkeys(_KEY_ERROR.findall(text)):
        lines = _lines_using(code, key)
        where = _where(key, state, args)
        hint = f"KeyError '{key}'"
        if lines:
            hint += f" comes from: {' | '.join(lines)}"
        hint += ". " + (
            "; ".join(where)
            if where
            else f"No record and no argument has a key '{key}': do not read it"
        )
        hints.append(hint + ". Read each value from the record that has it.")
    if _TYPE_ERROR.search(text) and not hints:
        shown = ", ".join(f"{k}={_short(v, 150)}" for k, v in args.items())
        hints.append(f"The call that failed had these arguments: {shown}")
    return hints
