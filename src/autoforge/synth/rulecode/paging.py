"""The code that applies a list tool's filter expression, paging and sorting to its results.

Which parameters filter, page or sort, and how, is read from their names by
:mod:`autoforge.lexicon.paging`; :func:`paging_lines` writes the lines that apply them to a
list's ``results``.

A filter expression is read clause by clause, ``<field> <operator> <value>`` joined by
``AND``: the comparisons real documents show (``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``,
``:`` for "has", and the words ``eq``, ``ne``, ``lt``, ``le``, ``gt``, ``ge``), a dotted field
for a nested one, a quoted or bare value, ``*`` in a value for any text. What it cannot read
(``OR``, functions) it refuses with an error that says the form it reads, rather than
listing records the expression did not select.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from autoforge.lexicon import PagingRole


def paging_lines(roles: Mapping[str, PagingRole], exprs: Mapping[str, str]) -> list[str]:
    """Lines applying the paging parameters to ``results`` (a list of records), in order:
    keep the records a filter expression selects (:func:`filter_lines`), sort by the named
    field (``-field`` or a ``desc`` direction reverses), skip the offset or
    a numeric cursor, then take the page (``page`` counts from 1, of ``limit`` records).
    A value that is no whole number (a string-typed ``maxResults``) pages nothing."""
    by_role: dict[str, str] = {}
    for param, role in roles.items():
        by_role.setdefault(role, exprs[param])
    lines: list[str] = filter_lines(by_role["filter"]) if "filter" in by_role else []
    if "sort" in by_role:
        s = by_role["sort"]
        d = by_role.get("direction")
        desc = f"str({s}).startswith('-') or str({s}).lower().endswith(' desc')"
        if d is not None:
            desc += f" or str({d} or '').lower().startswith('desc')"
        lines += [
            f"    if {s} is not None:",
            f"        _sort_by = str({s}).strip().lstrip('+-').split(' ')[0]",
            "        if any(isinstance(r, dict) and _sort_by in r for r in results):",
            "            results = sorted(results, key=lambda r: str(r.get(_sort_by, '')) if "
            f"isinstance(r, dict) else '', reverse=bool({desc}))",
        ]
    for role in ("offset", "token"):
        if role in by_role:
            e = by_role[role]
            lines += [
                f"    if {e} is not None and str({e}).isdigit():",
                f"        results = results[int({e}):]",
            ]
    limit = by_role.get("limit")
    if "page" in by_role and limit is not None:
        p = by_role["page"]
        lines += [
            f"    if str({p}).isdigit() and str({limit}).isdigit() and int({p}) > 1:",
            f"        results = results[(int({p}) - 1) * int({limit}):]",
        ]
    if limit is not None:
        lines += [f"    if str({limit}).isdigit():", f"        results = results[: int({limit})]"]
    return lines


#: the clause a filter expression is read as: field, operator, value (in brackets or not)
_CLAUSE = r"\(?\s*([A-Za-z_][\w.]*)\s*(!=|>=|<=|==|=|<|>|:|\s(?:eq|ne|lt|le|gt|ge)\s)\s*(.*?)\s*\)?"


def filter_lines(expr: str) -> list[str]:
    """Lines keeping the ``results`` that the filter expression ``expr`` selects (see the
    module docstring); an expression it cannot read is refused with a ToolError."""
    return [
        f"    if {expr} is not None and str({expr}).strip():",
        "        import re",
        "",
        "        QUOTES = chr(34) + chr(39)",
        "        def _selects(record, path, op, want):",
        "            value = record",
        "            for part in path:",
        "                value = value.get(part) if isinstance(value, dict) else None",
        "            if op == ':':",
        "                return value is not None and (want == '*' or "
        "want.lower() in str(value).lower())",
        r"            number = re.fullmatch(r'-?\d+(\.\d+)?', want)",
        "            plain = isinstance(value, (int, float)) and not isinstance(value, bool)",
        "            if number and plain:",
        "                left, right = value, float(want)",
        "            else:",
        "                left = str(value).lower() if isinstance(value, bool) else str(value)",
        "                right = want",
        "                if '*' in want and op in ('=', '==', 'eq', '!=', 'ne'):",
        "                    text = re.escape(want).replace(re.escape('*'), '.*')",
        "                    hit = re.fullmatch(text, left)",
        "                    return (hit is not None) == (op in ('=', '==', 'eq'))",
        "            if op in ('=', '==', 'eq'):",
        "                return left == right",
        "            if op in ('!=', 'ne'):",
        "                return left != right",
        "            if isinstance(left, str) != isinstance(right, str):",
        "                return False",
        "            if op in ('<', 'lt'):",
        "                return left < right",
        "            if op in ('<=', 'le'):",
        "                return left <= right",
        "            if op in ('>', 'gt'):",
        "                return left > right",
        "            return left >= right",
        "",
        rf"        for _clause in re.split(r'\s+(?:AND|and)\s+', str({expr}).strip()):",
        f"            _m = re.fullmatch(r'{_CLAUSE}', _clause)",
        r"            if _m is None or re.search(r'\s(?:OR|or)\s', _clause):",
        "                raise ToolError(",
        "                    f'cannot read the filter {_clause!r}: write '",
        "                    '<field> <operator> <value>, clauses joined by AND'",
        "                )",
        "            _path, _op = _m.group(1).split('.'), _m.group(2).strip()",
        "            _want = _m.group(3).strip().strip(QUOTES)",
        "            results = [r for r in results if _selects(r, _path, _op, _want)]",
    ]


def paging_argument(role: PagingRole) -> Any:
    """A value for a paging parameter in a check's call: a page of ten, the first page, no
    cursor and no sort (None)."""
    return {"limit": 10, "offset": 0, "page": 1}.get(role)


__all__ = ["filter_lines", "paging_argument", "paging_lines"]
