"""Paging and sorting parameters of list tools: they page or order the results, never filter.

Real API documents give lists ``limit``/``maxResults``/``$top``, ``offset``/``skip``, ``page``
with ``pageSize``, opaque ``nextToken``/``marker`` cursors and ``sortBy``/``orderBy``. Each is
recognised by its name (snake case, a leading ``$`` dropped) and, for names that are also
common attributes (``count``, ``size``, ``start``), by an integer type. An idempotency token
(``ClientRequestToken``) is no value of a record either: it has the ``request`` role. A free
filter expression (``filter: 'state = "ACTIVE"'``, ``$filter``) selects by what it says, not
by one field: it has the ``filter`` role. Synthesis
writes the code that applies them (:mod:`autoforge.synth.rulecode.paging`) and keeps them out
of records; task generation never makes one a fact the user holds (a cursor or page size picks
no record).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from autoforge.tooldocs import to_snake

PagingRole = Literal["limit", "offset", "page", "token", "sort", "direction", "request", "filter"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NAMES: dict[PagingRole, frozenset[str]] = {
    "limit": _words(
        "limit max_results max_items max_records max_keys max_entries max_count page_size "
        "per_page results_per_page items_per_page num_results top max_result_count "
        "page_limit batch_size"
    ),
    "offset": _words("offset skip start_index first_result from_index skip_count"),
    "page": _words("page page_number page_index page_no page_num"),
    "token": _words(
        "next_token page_token next_page_token marker next_marker cursor continuation_token "
        "starting_token continuation next_cursor page_cursor skip_token"
    ),
    "sort": _words("sort sort_by order_by orderby sortby sort_field sort_key sorting"),
    "direction": _words("sort_order sort_direction sort_dir direction order"),
}
#: names that are paging only when integer-typed (else they may be attributes or filters)
_INTEGER_ONLY: dict[PagingRole, frozenset[str]] = {
    "limit": _words("count size rows num number max"),
    "offset": _words("start first"),
}


def _normal(name: str) -> str:
    return to_snake(name.lstrip("$").replace("-", "_")).strip("_")


#: A parameter that makes a retried write safe to repeat: it controls the request and is no
#: value of the record (``ClientRequestToken``, ``idempotency_key``).
_REQUEST = re.compile(r"^(?:client_(?:request_)?token|idempotency_(?:key|token)|request_token)$")


#: the same names run together, as some documents write them (``maxresults``, ``pagesize``)
_FLAT: dict[str, PagingRole] = {
    n.replace("_", ""): role for role, names in _NAMES.items() for n in names if "_" in n
}
#: a description saying the parameter caps the results or carries the paging cursor
_LIMIT_TEXT = re.compile(
    r"\bmaximum number of (?:\w+ ){0,2}(?:items|results|records|entries|rows|objects)\b"
)
_TOKEN_TEXT = re.compile(r"\bcontinuation token\b|\btoken for (?:pagination|paging)\b")


#: names of a free filter expression (a string, not an enum of choices)
_FILTER = frozenset({"filter", "filter_expression", "filter_string"})


def paging_role(name: str, prop: Mapping[str, Any] | None = None) -> PagingRole | None:
    """What a parameter does to a call's results or to the call itself (None: it is none of
    those, it filters by one field or holds a value): page, sort, a filter expression, or
    ``request`` (an idempotency token
    by its name or its description: "... ensure the request is idempotent"). A name the
    lists do not hold is still a limit or a cursor when its description says so ("the
    maximum number of items to return", "continuation token for pagination")."""
    low = _normal(name)
    desc = str((prop or {}).get("description", "")).lower()
    if _REQUEST.match(low) or ("idempoten" in desc and low.endswith("token")):
        return "request"
    if low.startswith(("exclusive_start_", "starting_after", "ending_before")):
        return "token"  # the key the page starts after
    kind = (prop or {}).get("type")
    if low in _FILTER and kind in (None, "string") and not (prop or {}).get("enum"):
        return "filter"
    for role, names in _NAMES.items():
        if low in names:
            return role
    if low in _FLAT:
        return _FLAT[low]
    if kind == "integer" and _LIMIT_TEXT.search(desc):
        return "limit"
    if kind in (None, "string") and _TOKEN_TEXT.search(desc):
        return "token"
    if kind == "integer":
        for role, names in _INTEGER_ONLY.items():
            if low in names:
                return role
    return None


def paging_params(props: Mapping[str, Any], names: list[str]) -> dict[str, PagingRole]:
    """The paging and sorting parameters among ``names``, with their roles."""
    out: dict[str, PagingRole] = {}
    for name in names:
        prop = props.get(name)
        role = paging_role(name, prop if isinstance(prop, Mapping) else None)
        if role is not None:
            out[name] = role
    return out


def request_params(props: Mapping[str, Any], names: list[str]) -> set[str]:
    """The parameters among ``names`` that control the request itself (an idempotency token):
    never a value of a record."""
    return {p for p, role in paging_params(props, names).items() if role == "request"}


__all__ = ["PagingRole", "paging_params", "paging_role", "request_params"]
