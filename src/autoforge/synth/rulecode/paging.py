"""The code that applies a list tool's paging and sorting parameters to its results.

Which parameters page or sort, and how, is read from their names by
:mod:`autoforge.lexicon.paging`; :func:`paging_lines` writes the lines that apply them to a
list's ``results``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from autoforge.lexicon import PagingRole


def paging_lines(roles: Mapping[str, PagingRole], exprs: Mapping[str, str]) -> list[str]:
    """Lines applying the paging parameters to ``results`` (a list of records), in order:
    sort by the named field (``-field`` or a ``desc`` direction reverses), skip the offset or
    a numeric cursor, then take the page (``page`` counts from 1, of ``limit`` records).
    A value that is no whole number (a string-typed ``maxResults``) pages nothing."""
    by_role: dict[str, str] = {}
    for param, role in roles.items():
        by_role.setdefault(role, exprs[param])
    lines: list[str] = []
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


def paging_argument(role: PagingRole) -> Any:
    """A value for a paging parameter in a check's call: a page of ten, the first page, no
    cursor and no sort (None)."""
    return {"limit": 10, "offset": 0, "page": 1}.get(role)


__all__ = ["paging_argument", "paging_lines"]
