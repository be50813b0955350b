"""Tables keyed by a parameter: which statuses a choice is allowed from and what it moves to.

A markdown table of the docs or the policy whose first column is headed by one of a tool's
parameters, with a column naming the statuses a row is allowed from ("allowed when status is",
"from") and one naming the status it leaves ("new status", "to", "becomes"), describes that
tool: the record whose status enum holds those values (the tool's target, or the record a
parameter names) must be in a row's allowed statuses, and takes its new status. A further
column may say what else happens: "`a` = today" stamps ``a``, "`a` + 1" counts it up.

Every rule is stated without naming a domain: the parameter, the statuses and the attributes
all come from the table and the data.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Check, Effect, ToolBehaviour, Value
from autoforge.tooldocs import markdown_tables

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_FROM = re.compile(r"\b(allowed|from|when|only)\b", re.I)
_TO = re.compile(r"\b(new|to|becomes|next|result(ing)?)\b", re.I)


def _columns(header: list[str]) -> tuple[int, int, int | None] | None:
    """Indexes of the from, to and (optional) also columns."""
    cells = [c.lower() for c in header]
    froms = [i for i, c in enumerate(cells) if i > 0 and _FROM.search(c) and "new" not in c]
    tos = [i for i, c in enumerate(cells) if i > 0 and i not in froms and _TO.search(c)]
    if not froms or not tos:
        return None
    rest = [i for i in range(1, len(cells)) if i not in (froms[0], tos[0])]
    return froms[0], tos[0], rest[0] if rest else None


def _record(tb: ToolBehaviour, ctx: Context, values: set[str]) -> tuple[str, str, str] | None:
    """``(record, collection, status attribute)`` whose statuses hold ``values``."""
    cands: list[tuple[str, str | None]] = []
    if tb.kind != "create":
        cands.append(("target", tb.collection))
    cands += [(f"param:{p.name}", p.references) for p in tb.params if p.references]
    for record, coll in cands:
        attr, enum = ctx.status_enum(coll)
        if coll and attr and values <= set(enum):
            return record, coll, attr
    return None


def keyed_tables(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context
) -> tuple[list[Check], list[Effect]]:
    """The checks and effects of the tables keyed by one of ``tb``'s parameters."""
    names = {p.name for p in tb.params}
    text = "\n".join(x for x in (spec.description, ctx.policy) if x)
    for header, *rows in markdown_tables(text):
        key = header[0].strip("` ").lower() if header else ""
        cols = _columns(header)
        if key not in names or cols is None:
            continue
        fi, ti, also = cols
        table = {
            r[0].strip("` "): (
                [
                    v
                    for v in re.findall(r"[A-Za-z_][\w-]*", r[fi])
                    if v.lower() not in ("or", "and")
                ],
                r[ti].strip("` "),
                r[also] if also is not None and also < len(r) else "",
            )
            for r in rows
            if len(r) > max(fi, ti)
        }
        statuses = {v for allowed, to, _ in table.values() for v in [*allowed, to]}
        found = _record(tb, ctx, statuses)
        if not table or found is None:
            continue
        record, coll, attr = found
        return _table_checks(key, table, record, coll, attr), _table_effects(
            key, table, record, coll, attr, ctx
        )
    return [], []


def _table_checks(
    key: str, table: dict[str, tuple[list[str], str, str]], record: str, coll: str, attr: str
) -> list[Check]:
    allowed = {k: v[0] for k, v in table.items()}
    return [
        Check(
            kind="keyed_from",
            param=key,
            collection=coll,
            attribute=attr,
            via=None if record == "target" else record,
            table=allowed,
            sentence=f"table of {key}: allowed statuses",
            source="policy",
        )
    ]


def _table_effects(
    key: str,
    table: dict[str, tuple[list[str], str, str]],
    record: str,
    coll: str,
    attr: str,
    ctx: Context,
) -> list[Effect]:
    out = [
        Effect(
            kind="set",
            record=record,
            collection=coll,
            fields={
                attr: Value(source="param_map", name=key, const={k: v[1] for k, v in table.items()})
            },
            sentence=f"table of {key}: new status",
            source="policy",
        )
    ]
    attrs = ctx.ev.attributes.get(coll, [])
    for choice, (_, _, also) in table.items():
        for a in attrs:
            if re.search(rf"`?{re.escape(a)}`?\s*=\s*today\b", also):
                out.append(_when(record, coll, key, choice, "set", a, Value(source="today")))
            m = re.search(rf"`?{re.escape(a)}`?\s*\+\s*(\d+)", also)
            if m:
                out.append(
                    _when(
                        record,
                        coll,
                        key,
                        choice,
                        "increment",
                        a,
                        Value(source="const", const=int(m.group(1))),
                    )
                )
    return out


def _when(record: str, coll: str, key: str, choice: Any, kind: str, a: str, v: Value) -> Effect:
    """An effect written only for one choice of the keyed parameter."""
    if kind == "set":
        return Effect(
            kind="set", record=record, collection=coll, fields={a: v},
            when=["param:" + key, choice], sentence=f"table of {key}: {choice}", source="policy",
        )  # fmt: skip
    return Effect(
        kind="increment", record=record, collection=coll, attribute=a, value=v,
        when=["param:" + key, choice], sentence=f"table of {key}: {choice}", source="policy",
    )  # fmt: skip
