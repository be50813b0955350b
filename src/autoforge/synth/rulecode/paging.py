"""Paging and sorting parameters of list tools: they page or order the results, never filter.

Real API documents give lists ``limit``/``maxResults``/``$top``, ``offset``/``skip``, ``page``
with ``pageSize``, opaque ``nextToken``/``marker`` cursors and ``sortBy``/``orderBy``. Each is
recognised by its name (snake case, a leading ``$`` dropped) and, for names that are also
common attributes (``count``, ``size``, ``start``), by an integer type. :func:`paging_lines`
writes the code that applies them to a list's ``results``; the state design keeps them out of
records, and a list whose other parameters are all filters stays a plain template list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from autoforge.tooldocs import to_snake

Role = Literal["limit", "offset", "page", "token", "sort", "direction"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NAMES: dict[Role, frozenset[str]] = {
    "limit": _words(
        "limit max_results max_items max_records max_keys max_entries max_count page_size "
        "per_page results_per_page items_per_page num_results top max_result_count "
        "page_limit batch_size"
    ),
    "offset": _words("offset skip start_index first_result from_index skip_count"),
    "page": _words("page page_number page_index page_no page_num"),
    "token": _words(
        "next_token page_token next_page_token marker next_marker cursor continuation_token "
        "starting_token continuation next_cursor page_cursor"
    ),
    "sort": _words("sort sort_by order_by orderby sortby sort_field sort_key sorting"),
    "direction": _words("sort_order sort_direction sort_dir direction order"),
}
#: names that are paging only when integer-typed (else they may be attributes or filters)
_INTEGER_ONLY: dict[Role, frozenset[str]] = {
    "limit": _words("count size rows num number max"),
    "offset": _words("start first"),
}


def _normal(name: str) -> str:
    return to_snake(name.lstrip("$").replace("-", "_")).strip("_")


def paging_role(name: str, prop: Mapping[str, Any] | None = None) -> Role | None:
    """What a list parameter does to its results (None: it is no paging or sorting one)."""
    low = _normal(name)
    if low.startswith(("exclusive_start_", "starting_after", "ending_before")):
        return "token"  # the key the page starts after
    for role, names in _NAMES.items():
        if low in names:
            return role
    kind = (prop or {}).get("type")
    if kind == "integer":
        for role, names in _INTEGER_ONLY.items():
            if low in names:
                return role
    return None


def paging_params(props: Mapping[str, Any], names: list[str]) -> dict[str, Role]:
    """The paging and sorting parameters among ``names``, with their roles."""
    out: dict[str, Role] = {}
    for name in names:
        prop = props.get(name)
        role = paging_role(name, prop if isinstance(prop, Mapping) else None)
        if role is not None:
            out[name] = role
    return out


def paging_lines(roles: Mapping[str, Role], exprs: Mapping[str, str]) -> list[str]:
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


def paging_argument(role: Role) -> Any:
    """A value for a paging parameter in a check's call: a page of ten, the first page, no
    cursor and no sort (None)."""
    return {"limit": 10, "offset": 0, "page": 1}.get(role)


__all__ = ["Role", "paging_argument", "paging_lines", "paging_params", "paging_role"]
