"""Effects of state transitions learned from data and doc text, rendered as skeleton code.

The class skeleton (:mod:`autoforge.synth.rulecode.templates`) sets the status a transition implies
and
stores its parameters. Real tools do more, and much of it can be read off the inputs without a
model:

* **mirrored list entries, learned from data.** When every record in status ``S`` carries, in a
  list of objects, a copy of each entry with one field switched (each ``payment`` entry of a
  cancelled order has a ``refund`` twin), a transition into ``S`` appends those copies;
* **paired id lists, from the docs.** ``item_ids`` + ``new_item_ids``: each old id must be an
  entry of the record (counted, so duplicates need as many entries), each new id an existing
  catalogue entry (found by key anywhere in the state);
* **credit, from docs and data.** A refund the docs say is *added to* a field the data has in a
  map the record's owner holds (``... added to the user's gift card balance``) is credited there.

* **cover, from docs and data.** When a sentence says a referenced entry "must have enough
  ``F`` to cover the ... difference" and the entries of that map have a field ``F``, an entry
  whose numeric ``F`` is below the computed difference is refused.

Rules that encode one benchmark's storage conventions rather than anything the docs or data
state (an ``available`` flag, ``<verb>_X_difference``, negated refund entries) run only under
the ``tau`` profile
(:mod:`autoforge.synth.rulecode.conventions`).

A lookup by an id that keys a nested map (``item_id`` inside products' ``variants``) also gets
a template here (:func:`nested_lookup`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from autoforge.env import CollectionSchema, StateSchema
from autoforge.lexicon import status_attribute
from autoforge.synth.modelcode.prompts import relevant_policy
from autoforge.synth.rulecode.conventions import GENERIC, Conventions
from autoforge.synth.rulecode.headers import head
from autoforge.tooldocs import ToolSpec, plural, singular, tokens

_MIN_RECORDS = 3


@dataclass(frozen=True)
class MirrorEffect:
    """Records entering ``status`` get, in list ``field``, a copy of each entry whose ``kind``
    is ``src`` with ``kind`` set to ``dst`` (learned from data)."""

    collection: str
    status_attr: str
    status: str
    field: str
    kind: str
    src: str
    dst: str


def _status_attr(coll: CollectionSchema) -> str | None:
    attr = status_attribute(coll, enum=True)
    return attr.name if attr is not None else None


def _mirrors(entries: list[Any], kind: str, src: str, dst: str) -> bool:
    """Whether ``entries`` are base entries followed by a ``dst`` copy of each ``src`` one."""
    if not entries or not all(isinstance(e, dict) for e in entries):
        return False
    base = [e for e in entries if e.get(kind) != dst]
    copies = [e for e in entries if e.get(kind) == dst]
    want = [{**e, kind: dst} for e in base if e.get(kind) == src]
    return bool(copies) and copies == want and entries[len(base) :] == copies


def _kind_values(records: Sequence[Mapping[str, Any]], name: str) -> dict[str, set[str]]:
    """Per string field of the entries of list ``name``: the distinct values (few only)."""
    values: dict[str, set[str]] = {}
    for rec in records:
        for entry in rec.get(name) or []:
            if isinstance(entry, dict):
                for key, value in entry.items():
                    if isinstance(value, str):
                        values.setdefault(key, set()).add(value)
    return {k: v for k, v in values.items() if 1 < len(v) <= 6}


def learn_mirror_effects(
    state: Mapping[str, Mapping[str, Any]], schema: StateSchema
) -> list[MirrorEffect]:
    """Every mirrored-entry pattern that holds for all records of a status (at least 3), and
    for no record of another status."""
    out: list[MirrorEffect] = []
    for coll in schema.collections:
        status = _status_attr(coll)
        records = [r for r in (state.get(coll.name) or {}).values() if isinstance(r, dict)]
        if status is None or not records:
            continue
        by_status: dict[str, list[dict[str, Any]]] = {}
        for rec in records:
            by_status.setdefault(str(rec.get(status)), []).append(rec)
        lists = [a.name for a in coll.attributes if a.description.startswith("list of objects")]
        for name in lists:
            for kind, vals in _kind_values(records, name).items():
                for value, group in sorted(by_status.items()):
                    if len(group) < _MIN_RECORDS:
                        continue
                    for src, dst in ((a, b) for a in sorted(vals) for b in sorted(vals) if a != b):
                        if _holds(records, group, name, kind, src, dst):
                            out.append(MirrorEffect(coll.name, status, value, name, kind, src, dst))
    return out


def _holds(
    records: list[dict[str, Any]],
    group: list[dict[str, Any]],
    name: str,
    kind: str,
    src: str,
    dst: str,
) -> bool:
    if not all(_mirrors(r.get(name) or [], kind, src, dst) for r in group):
        return False
    members = {id(r) for r in group}
    return not any(
        isinstance(e, dict) and e.get(kind) == dst
        for r in records
        if id(r) not in members
        for e in r.get(name) or []
    )


# -- doc-derived pieces --------------------------------------------------------------------------


def doc_text(spec: ToolSpec) -> str:
    """The tool's description plus its parameter descriptions, one string."""
    props = spec.parameters.get("properties", {})
    parts = [spec.description] + [str((p or {}).get("description", "")) for p in props.values()]
    return " ".join(" ".join(parts).split())


def _param_doc(spec: ToolSpec, param: str) -> str:
    prop = spec.parameters.get("properties", {}).get(param) or {}
    return " ".join(str(prop.get("description", "")).split()).lower()


def is_multiset(spec: ToolSpec, param: str) -> bool:
    """A list parameter the docs say may hold duplicates: a multiset, stored sorted.

    Also when the docs pair it by position with another list (``new_item_ids``): both lists
    are multisets then, and storing both in canonical form keeps them comparable."""
    prop = spec.parameters.get("properties", {}).get(param) or {}
    return prop.get("type") == "array" and "duplicate" in _param_doc(spec, param)


def id_pairs(spec: ToolSpec) -> tuple[str, str] | None:
    """``(item_ids, new_item_ids)``: an old and a new id list parameter, paired."""
    props = spec.parameters.get("properties", {})
    for param in spec.param_names:
        toks = tokens(param)
        new = f"new_{param}"
        if (
            toks[-1:] == ["ids"]
            and new in props
            and (props.get(param) or {}).get("type") == "array"
        ):
            return param, new
    return None


def difference_word(spec: ToolSpec) -> str | None:
    """``price`` when the docs speak of a ``price difference``."""
    m = re.search(r"\b([a-z]+) difference\b", doc_text(spec).lower())
    return m.group(1) if m else None


def _list_with(coll: CollectionSchema, *keys: str) -> str | None:
    """The list-of-objects attribute whose entries have all ``keys``."""
    for attr in coll.attributes:
        desc = attr.description
        if desc.startswith("list of objects with keys:"):
            have = {k.strip() for k in desc.split(":", 1)[1].split(",")}
            if set(keys) <= have:
                return attr.name
    return None


_CREDIT = re.compile(r"\b(?:added|credited|returned) (?:back )?to\b([^.]*)", re.IGNORECASE)


def credit_field(schema: StateSchema, text: str) -> str | None:
    """The field a refund is credited to, when the docs say so and the data has it.

    A sentence saying the amount is *added to* / *credited to* something, naming a field of the
    objects in some map attribute (``... added to the user's gift card balance`` and payment
    methods with a ``balance``): that field. Docs and data decide the name, not this code.
    """
    keys = {
        k.strip()
        for c in schema.collections
        for a in c.attributes
        if a.description.startswith("map from id") and ":" in a.description
        for k in a.description.split(":", 1)[1].split(",")
    }
    for m in _CREDIT.finditer(text):
        words = re.findall(r"[a-z_]+", m.group(1).lower())
        found = next((w for w in words if w in keys and not w.endswith("id")), None)
        if found is not None:
            return found
    return None


# -- code ---------------------------------------------------------------------------------------

_FIND = """    def _find_entry(key):
        for table in state.values():
            for rec in (table or {}).values() if isinstance(table, dict) else []:
                if not isinstance(rec, dict):
                    continue
                for value in rec.values():
                    if isinstance(value, dict) and isinstance(value.get(key), dict):
                        return value[key]
        return None
"""


@dataclass
class EffectCode:
    """Lines of a skeleton: checks and computations first, writes after the status is set."""

    checks: list[str]
    writes: list[str]
    stored: set[str]
    clause: str = ""  # the doc text the effect implements (no TODO for it)


def pair_effect(
    spec: ToolSpec,
    coll: CollectionSchema,
    exprs: Mapping[str, str],
    verb: str,
    *,
    replace: bool = False,
    conv: Conventions = GENERIC,
    flags: Sequence[str] = (),
) -> EffectCode | None:
    """Old/new id lists: validate both; an update (``replace``) copies each new entry's shared
    fields (id, price, options) over the old one; a new entry whose field in ``flags``
    (:func:`new_entry_flags`) is ``False`` is refused. With the ``tau`` profile a transition
    also stores the summed difference the docs name (``<verb>_price_difference``) and an entry
    marked ``available: false`` is refused."""
    flags = entry_flags(flags, conv)
    pair = id_pairs(spec)
    if pair is None:
        return None
    old, new = pair
    entry_key = "_".join([*tokens(old)[:-1], "id"])
    word = difference_word(spec)
    items = _list_with(coll, entry_key, word) if word else _list_with(coll, entry_key)
    if items is None:
        return None
    checks = [
        *_FIND.splitlines(),
        *_pair_length_check(old, new, exprs),
        *_pair_swap_checks(coll, exprs[old], exprs[new], items, entry_key, flags),
    ]
    if word:
        checks.append(
            f"        difference += float(entry.get({word!r}) or 0) - float(old.get({word!r}) or 0)"
        )
    if replace:
        return EffectCode(checks=checks, writes=list(_REPLACE_WRITES), stored={old, new})
    writes = (
        [f"    record[{f'{verb}_{word}_difference'!r}] = round(difference, 2)"]
        if word and conv.difference_field
        else []
    )
    return EffectCode(checks=checks, writes=writes, stored=set())


#: an update's writes: each new entry's shared fields copied over the old entry
_REPLACE_WRITES = (
    "    for old, entry in swaps:",
    "        for key in list(old):",
    "            if key in entry:",
    "                value = entry[key]",
    "                old[key] = dict(value) if isinstance(value, dict) else value",
)


def _pair_length_check(old: str, new: str, exprs: Mapping[str, str]) -> list[str]:
    """Refuse old/new id lists of different lengths."""
    return [
        f"    if len({exprs[old]}) != len({exprs[new]}):",
        f'        raise ToolError("{old} and {new} must have the same length")',
    ]


def _pair_swap_checks(
    coll: CollectionSchema, o: str, n: str, items: str, entry_key: str, flags: Sequence[str]
) -> list[str]:
    """The loop over old/new id pairs (``o``, ``n``: their expressions): each old id must be in
    the record's ``items`` (once per pair), each new id must name an entry whose ``flags`` are
    not ``False``; the pairs are collected in ``swaps``."""
    noun = singular(coll.name).replace("_", " ")
    return [
        f"    remaining = list(record.get({items!r}) or [])",
        "    difference = 0.0",
        "    swaps = []",
        f"    for old_id, new_id in zip({o}, {n}):",
        "        old = next((e for e in remaining if isinstance(e, dict)",
        f"                    and e.get({entry_key!r}) == old_id), None)",
        "        if old is None:",
        f'            raise ToolError(f"{{old_id}} is not in {noun} "',
        f'                            f"{{record.get({coll.primary_key!r})}}")',
        "        remaining.remove(old)",
        "        entry = _find_entry(new_id)",
        "        if entry is None:",
        '            raise ToolError(f"not found: {new_id}")',
        *(
            line
            for flag in flags
            for line in (
                f"        if entry.get({flag!r}) is False:",
                f'            raise ToolError(f"not {flag}: {{new_id}}")',
            )
        ),
        "        swaps.append((old, entry))",
    ]


_COVER = re.compile(r"enough (\w+) to cover the (?:\w+ )?difference", re.IGNORECASE)


def entry_flags(flags: Sequence[str], conv: Conventions = GENERIC) -> list[str]:
    """The fields a new entry of an old/new id pair must not have false: ``flags`` (what the
    docs require, :func:`new_entry_flags`), plus ``available`` with the ``tau`` profile."""
    return sorted({*flags, *(["available"] if conv.balance_words else [])})


def tool_entry_flags(
    spec: ToolSpec, policy: str | None, schema: StateSchema | None, conv: Conventions = GENERIC
) -> list[str]:
    """:func:`entry_flags` of ``spec`` as its draft reads them: from its description and the
    policy sections about it (the test and probe calls pick new entries that pass them)."""
    text = spec.description + "\n" + relevant_policy(policy, spec)
    return entry_flags(new_entry_flags(text, schema), conv)


def new_entry_flags(text: str, schema: StateSchema | None) -> list[str]:
    """Fields of map entries that a sentence requires of a new entry: the entry key ``F``
    written right before "new" ("each item can be modified to an available new item")."""
    if schema is None:
        return []
    keys = {
        k
        for c in schema.collections
        for a in c.attributes
        if a.description.startswith("map from id")
        for k in _map_entry_keys(a.description)
    }
    low = " ".join(text.lower().split())
    return sorted(k for k in keys if re.search(rf"\b{re.escape(k.lower())} new \w+", low))


def cover_field(text: str, entry_keys: Sequence[str]) -> str | None:
    """The field a sentence says must *cover the difference* ("... must have enough balance to
    cover the price difference"), when the referenced entries have a field of that name."""
    match = _COVER.search(" ".join(text.split()))
    return match.group(1) if match and match.group(1) in entry_keys else None


def _map_entry_keys(description: str) -> list[str]:
    """The keys a ``map from id to object with keys: a, b`` attribute's entries have."""
    _, _, keys = description.partition("with keys:")
    return [k.strip() for k in keys.split(",") if k.strip()]


def owned_ref_checks(
    spec: ToolSpec,
    coll: CollectionSchema,
    schema: StateSchema | None,
    exprs: Mapping[str, str],
    key_param: str | None,
    policy: str = "",
    difference: bool = False,
) -> list[str]:
    """Checks that an ``X_id`` parameter names an entry of the owner's ``Xs`` map.

    ``payment_method_id`` on an order must be one of the order's user's ``payment_methods``
    (the owner is the record a non-list reference attribute points at). When the docs say the
    entry must have *enough balance to cover the difference*, a numeric ``balance`` below the
    computed difference is refused too, the field named by the sentence and present in the
    entries (:func:`cover_field`).
    """
    owners = [a for a in coll.attributes if a.references and a.type != "array"]
    owner = schema.collection(str(owners[0].references)) if schema and owners else None
    if owner is None:
        return []
    text = doc_text(spec) + " " + policy
    lines: list[str] = []
    for param in spec.param_names:
        base = param.removesuffix("_id")
        if param == key_param or base == param:
            continue
        attr = next(
            (a for a in owner.attributes
             if a.description.startswith("map from id") and a.name in (f"{base}s", plural(base))),
            None,
        )  # fmt: skip
        if attr is None:
            continue
        cover = cover_field(text, _map_entry_keys(attr.description)) if difference else None
        p, link = exprs[param], owners[0].name
        lines += [
            f"    if {p} is not None:",
            f"        owner = state.get({owner.name!r}, {{}}).get(str(record.get({link!r})))",
            f"        held = ((owner or {{}}).get({attr.name!r}) or {{}}).get(str({p}))",
            "        if not isinstance(held, dict):",
            f'            raise ToolError(f"{base.replace("_", " ")} not found: {{{p}}}")',
        ]
        if cover:
            lines += [
                f"        covering = held.get({cover!r})",
                "        if isinstance(covering, (int, float)) and covering < difference:",
                f'            raise ToolError("insufficient {cover} to cover the difference")',
            ]
    return lines


_BACK = re.compile(
    r"\b(\w+) (?:go|goes|are put|is put|are returned|is returned|are added|is added) back "
    r"(?:in|into|to|on) (?:the )?(\w+)",
    re.IGNORECASE,
)
_COUNT_WORDS = {"quantity", "qty", "count", "units"}


def restore_effect(
    coll: CollectionSchema, schema: StateSchema | None, text: str
) -> EffectCode | None:
    """Entries of the record's list go back into a numeric field of the records they name.

    "The books go back into stock": ``books`` is a collection with a numeric ``stock``, and the
    record has a list whose entries hold a book key (``book_id``) and at most one count field
    (``quantity``); each entry's count (1 without one) is added back to its book's ``stock``.
    """
    if schema is None:
        return None
    for m in _BACK.finditer(text):
        noun, word = m.group(1).lower(), m.group(2).lower()
        other = next(
            (c for c in schema.collections if noun in (c.name, plural(singular(c.name)))), None
        )
        attr = other.attribute(word) if other is not None else None
        if other is None or attr is None or attr.type not in ("integer", "number"):
            continue
        for lst in coll.attributes:
            keys = _entry_keys(coll, lst.name) if lst.type == "array" else []
            ids = (other.primary_key, f"{singular(other.name)}_id")
            ref = next((k for k in keys if k in ids), None)
            counts = [k for k in keys if set(tokens(k)) & _COUNT_WORDS]
            if ref is None or len(counts) > 1:
                continue
            amount = f"(_e.get({counts[0]!r}) or 0)" if counts else "1"
            writes = [
                f"    for _e in record.get({lst.name!r}) or []:",
                "        if not isinstance(_e, dict):",
                "            continue",
                f"        _x = state.get({other.name!r}, {{}}).get(str(_e.get({ref!r})))",
                f"        if isinstance(_x, dict) and isinstance(_x.get({attr.name!r}), "
                "(int, float)):",
                f"            _x[{attr.name!r}] = _x[{attr.name!r}] + {amount}",
            ]
            return EffectCode(checks=[], writes=writes, stored=set(), clause=m.group(0))
    return None


def mirror_effect(
    spec: ToolSpec,
    coll: CollectionSchema,
    schema: StateSchema | None,
    status: str | None,
    mirrors: Sequence[MirrorEffect],
) -> EffectCode | None:
    """Append the learned mirrored entries; credit the amount to the field the docs name
    (:func:`credit_field`) in the record owner's map."""
    m = next((x for x in mirrors if x.collection == coll.name and x.status == status), None)
    if m is None:
        return None
    writes = [
        f"    entries = [e for e in (record.get({m.field!r}) or []) if isinstance(e, dict)]",
        f"    added = [{{**e, {m.kind!r}: {m.dst!r}}} for e in entries",
        f"             if e.get({m.kind!r}) == {m.src!r}]",
        f"    record[{m.field!r}] = entries + added",
    ]
    text = doc_text(spec).lower()
    owners = [a for a in coll.attributes if a.references and a.type != "array"]
    field = credit_field(schema, text) if schema else None
    if field and owners and schema:
        ref = next((k for k in _entry_keys(coll, m.field) if k.endswith("_id")), None)
        amount = next(
            (k for k in _entry_keys(coll, m.field) if k in ("amount", "total", "value")), None
        )
        if ref and amount:
            writes += _credit_lines(owners[0].name, str(owners[0].references), ref, amount, field)
    return EffectCode(checks=[], writes=writes, stored=set())


_REFUND = re.compile(r"\brefund\w*\b[^.]*\boriginal payment", re.IGNORECASE)


def refund_effect(spec: ToolSpec, coll: CollectionSchema, policy: str = "") -> EffectCode | None:
    """A refund to the original payment methods, as negated copies of the payment entries.

    For a transition whose docs (description or its policy sections) say the refund goes to
    the original payment method(s), over a record with a list of payment entries that carry an
    id and a numeric ``amount`` and no kind field telling payments from refunds (a ledger where
    a refund is a negative amount). Data that shows refunds (:class:`MirrorEffect`) wins.
    """
    if not _REFUND.search(doc_text(spec) + " " + " ".join(policy.split())):
        return None
    for attr in coll.attributes:
        if not attr.description.startswith("list of objects with keys:"):
            continue
        keys = _entry_keys(coll, attr.name)
        kinds = [k for k in keys if k in ("type", "kind") or k.endswith("_type")]
        if "amount" in keys and any(k.endswith("_id") for k in keys) and not kinds:
            return EffectCode(checks=[], writes=_negated_lines(attr.name), stored=set())
    return None


def _negated_lines(name: str) -> list[str]:
    return [
        f"    entries = [e for e in (record.get({name!r}) or []) if isinstance(e, dict)]",
        "    refunds = [{**e, 'amount': -e['amount']} for e in entries",
        "               if isinstance(e.get('amount'), (int, float)) and e['amount'] > 0]",
        f"    record[{name!r}] = entries + refunds",
    ]


def _entry_keys(coll: CollectionSchema, name: str) -> list[str]:
    attr = coll.attribute(name)
    if attr is None or ":" not in attr.description:
        return []
    return [k.strip() for k in attr.description.split(":", 1)[1].split(",")]


def _credit_lines(owner_attr: str, owner_coll: str, ref: str, amount: str, field: str) -> list[str]:
    return [
        f"    owner = state.get({owner_coll!r}, {{}}).get(str(record.get({owner_attr!r})))",
        "    for e in added:",
        "        for value in (owner or {}).values():",
        f"            held = value.get(e.get({ref!r})) if isinstance(value, dict) else None",
        f"            if isinstance(held, dict) and isinstance(held.get({field!r}), (int, float)):",
        f"                credit = float(e.get({amount!r}) or 0)",
        f"                held[{field!r}] = round(held[{field!r}] + credit, 2)",
    ]


def nested_lookup(spec: ToolSpec, schema: StateSchema) -> str | None:
    """A lookup by an id that keys a nested map of some collection (``item_id`` in variants)."""
    if len(spec.param_names) != 1:
        return None
    param = spec.param_names[0]
    if not param.endswith("_id"):
        return None
    for coll in schema.collections:
        for attr in coll.attributes:
            keys = attr.description.split(":", 1)[1] if ":" in attr.description else ""
            if attr.description.startswith("map from id") and param in [
                k.strip() for k in keys.split(",")
            ]:
                return "\n".join(_nested_lookup_lines(spec, coll.name, attr.name, param))
    return None


def _nested_lookup_lines(spec: ToolSpec, coll: str, attr: str, param: str) -> list[str]:
    top, exprs = head(spec)
    p = exprs[param]
    return [
        *top,
        f"    for record in state.get({coll!r}, {{}}).values():",
        f"        found = (record.get({attr!r}) or {{}}).get(str({p}))",
        "        if isinstance(found, dict):",
        "            return found",
        f'    raise ToolError(f"{param.removesuffix("_id").replace("_", " ")} not found: {{{p}}}")',
    ]
