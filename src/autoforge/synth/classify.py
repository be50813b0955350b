"""Deterministic tool classification: which kind of tool, over which collection, how plain.

The class picks the skeleton the LLM gets, the example implementations shown to it, the property
checks that apply (read tools must leave the state unchanged), and for plain CRUD over an obvious
collection a code template that needs no model at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel

from autoforge.env import CollectionSchema, StateSchema
from autoforge.synth.infer import schema_field_paths
from autoforge.synth.naming import id_base, singular, tokens
from autoforge.tooldocs import ToolSpec

ToolClass = Literal[
    "lookup", "list", "create", "update", "delete", "transition", "compute", "generic"
]
READ_CLASSES: frozenset[str] = frozenset({"lookup", "list", "compute", "generic"})

_VERBS: dict[str, ToolClass] = {}
for _cls, _words in (
    ("lookup", "get fetch read show view retrieve find lookup describe check verify inspect"),
    ("list", "list search query browse filter enumerate all"),
    ("create", "create add new book register insert place make post submit open reserve"),
    ("update", "update modify edit change set rename patch replace assign move upgrade"),
    ("delete", "delete remove destroy drop erase purge unregister"),
    (
        "transition",
        "cancel return exchange approve reject complete close archive activate deactivate "
        "confirm checkout borrow lend renew refund pay send suspend resume ship deliver mark "
        "start stop finish enable disable lock unlock restore accept decline process apply "
        "redeem issue revoke toggle",
    ),
    ("compute", "calculate compute count sum total estimate convert average evaluate"),
    ("generic", "think transfer noop echo wait log"),
):
    for _w in _words.split():
        _VERBS[_w] = _cls  # type: ignore[assignment]

_FILLER = {
    "by",
    "all",
    "details",
    "detail",
    "info",
    "information",
    "the",
    "a",
    "an",
    "for",
    "of",
    "to",
    "from",
    "with",
    "in",
    "on",
    "my",
    "new",
    "current",
}


class Classification(BaseModel):
    """What the classifier decided for one tool, and why (shown in the synthesis report)."""

    tool: str
    cls: ToolClass
    collection: str | None = None
    key_param: str | None = None
    plain: bool = False
    guard: tuple[str, str] | None = None
    refs: dict[str, str] = {}
    reason: str = ""


def _collection_for_token(tok: str, schema: StateSchema) -> CollectionSchema | None:
    for coll in schema.collections:
        names = {coll.name.lower(), singular(coll.name)}
        if tok in names or singular(tok) in names:
            return coll
    return None


def target_collection(spec: ToolSpec, schema: StateSchema) -> CollectionSchema | None:
    """The collection a tool acts on: first noun of its name, else the collection of an id param.

    Words of the name that are enum values in the schema (``pending`` in
    ``cancel_pending_order`` when some status takes that value) qualify the noun: skipped.
    """
    values = {v.lower() for c in schema.collections for a in c.attributes for v in a.enum or []}
    for tok in tokens(spec.name)[1:] or tokens(spec.name):
        if tok in _FILLER or tok in _VERBS or tok in values:
            continue
        coll = _collection_for_token(tok, schema)
        if coll is not None:
            return coll
    for param in spec.param_names:
        coll = collection_of_key(param, schema)
        if coll is not None:
            return coll
    return None


def collection_of_key(param: str, schema: StateSchema) -> CollectionSchema | None:
    """The collection whose primary key a parameter names (``order_id`` -> ``orders``)."""
    base = id_base(param)
    for coll in schema.collections:
        if base in (coll.primary_key.lower(), f"{singular(coll.name)}_id"):
            return coll
    return None


def key_param(spec: ToolSpec, coll: CollectionSchema | None) -> str | None:
    """The parameter holding the primary key of ``coll``, if the tool has one."""
    if coll is None:
        return None
    wanted = {coll.primary_key.lower(), f"{singular(coll.name)}_id"}
    for param in spec.param_names:
        if param.lower() in wanted or id_base(param) in wanted:  # id_base: camelCase too
            return param
    if "id" in spec.param_names:
        return "id"
    return None


def _verb_class(spec: ToolSpec) -> tuple[ToolClass | None, str]:
    toks = tokens(spec.name)
    if not toks:
        return None, ""
    if toks[0] in _VERBS:
        return _VERBS[toks[0]], toks[0]
    for tok in toks[1:]:
        if tok in _VERBS and _VERBS[tok] not in ("lookup", "list"):
            return _VERBS[tok], tok
    return None, ""


def _adjust(cls: ToolClass | None, spec: ToolSpec, has_key: bool) -> tuple[ToolClass, str]:
    """Reconcile the verb's class with the read/write hint and the parameters."""
    toks = tokens(spec.name)
    plural_noun = any(t.endswith("s") and singular(t) != t for t in toks[1:] if t not in _FILLER)
    if cls is None:
        if spec.access == "read":
            return ("lookup" if has_key else "list"), "no known verb; read hint"
        return ("update" if has_key and spec.access == "write" else "transition"), "no known verb"
    if cls in ("lookup", "list") and spec.access == "write":
        return "update", "read verb but write hint"
    if cls in ("create", "update", "delete", "transition") and spec.access == "read":
        return ("lookup" if has_key else "list"), "write verb but read hint"
    if cls == "lookup" and not has_key and plural_noun and "id" not in toks:
        return "list", "lookup verb on a plural noun without a key"
    if cls == "generic" and spec.access == "write":
        return "transition", "generic verb with write hint"
    return cls, "verb"


FieldPaths = Mapping[str, Mapping[str, list[str]]]


def classify_tool(
    spec: ToolSpec, schema: StateSchema, fields: FieldPaths | None = None
) -> Classification:
    """Classify ``spec`` against ``schema``.

    ``fields`` maps each collection to where its (possibly nested) fields sit in a record, as
    :func:`autoforge.synth.infer.field_paths` finds them in data; without it the schema's
    attributes (and the keys their descriptions name) are used.
    """
    verb_cls, verb = _verb_class(spec)
    coll = target_collection(spec, schema)
    key = key_param(spec, coll)
    cls, why = _adjust(verb_cls, spec, key is not None)
    paths: Mapping[str, list[str]] = {}
    if coll is not None:
        paths = (fields or {}).get(coll.name) or schema_field_paths(coll)
    plain = _is_plain(cls, spec, coll, key, set(paths))
    reason = f"{why} {verb!r}" if verb else why
    return Classification(
        tool=spec.name,
        cls=cls,
        collection=coll.name if coll else None,
        key_param=key,
        plain=plain,
        guard=status_guard(spec, coll) if cls not in READ_CLASSES else None,
        refs=_refs(spec, schema, coll, key),
        reason=reason.strip(),
    )


def _refs(
    spec: ToolSpec, schema: StateSchema, coll: CollectionSchema | None, key: str | None
) -> dict[str, str]:
    """Scalar parameters holding another record's key: ``add_review(customer_id)`` -> customers."""
    out: dict[str, str] = {}
    props = spec.parameters.get("properties", {})
    for param in spec.param_names:
        if param == key or (props.get(param) or {}).get("type") not in (None, "string", "integer"):
            continue
        ref = collection_of_key(param, schema)
        if ref is not None and (coll is None or ref.name != coll.name):
            out[param] = ref.name
    return out


def status_guard(spec: ToolSpec, coll: CollectionSchema | None) -> tuple[str, str] | None:
    """A status precondition the docs state: ``modify_pending_order`` needs ``pending``.

    From the name, else from the description (``a pending order``); only when the collection
    has a status-like enum attribute with that value.
    """
    if coll is None:
        return None
    toks = set(tokens(spec.name))
    text = " ".join(spec.description.lower().split())
    noun = singular(coll.name).replace("_", " ")
    for attr in coll.attributes:
        if attr.enum and ("status" in attr.name or attr.name == "state"):
            for value in attr.enum:
                if value.lower() in toks:
                    return attr.name, value
            for value in attr.enum:  # "Cancel a pending order", "Mark an open task as done"
                if f"{value.lower()} {noun}" in text:
                    return attr.name, value
    return None


_LIST_EXTRAS = {"limit", "offset", "page", "page_size", "query", "q", "sort", "order_by"}


def _is_plain(
    cls: ToolClass,
    spec: ToolSpec,
    coll: CollectionSchema | None,
    key: str | None,
    known: set[str],
) -> bool:
    """Whether a code template implements the tool exactly (plain CRUD over one collection)."""
    params = spec.param_names
    if cls == "generic":
        return True
    if cls == "compute":
        return params == ["expression"]
    if coll is None:
        return False
    attrs = {a.name for a in coll.attributes} | known
    others = [p for p in params if p != key]
    if cls == "lookup":
        return (key is not None and not others) or (
            key is None and bool(params) and all(p in attrs for p in params)
        )
    if cls == "list":
        return all(p in attrs or p in _LIST_EXTRAS for p in params)
    if cls == "create":
        # every stored attribute must come from a parameter, or the tool computes something
        stored = {a.name for a in coll.attributes if a.name != coll.primary_key}
        return bool(others) and all(p in attrs for p in others) and stored <= set(params)
    if cls == "update":
        return key is not None and bool(others) and all(p in attrs for p in others)
    if cls == "delete":
        return key is not None and not [p for p in others if p in spec.required]
    return False
