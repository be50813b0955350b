"""Entities and attributes read from the schemas the docs carry, without any model.

When a document types what its tools return (OpenAPI/Swagger response schemas, MCP
``outputSchema``, a ``returns`` JSON Schema in a function list), the state's collections are
already written down: an *entity* is an object schema with an identifier property that some tool
returns. This module derives them deterministically so the model is asked only what the schemas
leave open:

- list responses are unwrapped to their element (``[Order]``, ``{orders: [...], next_page_token}``,
  ``ListOrdersResponse``), so wrappers and pagination never become collections;
- projections of one entity (``CustomerMatch``, ``BookSummary``) merge with it because they share
  its identifier property;
- nested objects without an identifier stay ``object`` attributes of their owner; nested objects
  with one are entities of their own, referenced by id;
- id-named fields (``customer_id``, ``order_ids``) reference the collection keyed by that name.

Every collection and attribute keeps where it came from (a pointer into the tool's schema), so the
report can show what was read and what was guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import Attribute, AttributeType, CollectionSchema, StateSchema
from autoforge.tooldocs import ToolSpec, identifier, is_id_like, plural, singular, snake, tokens

_PAGINATION = {
    "next",
    "next_page",
    "next_page_token",
    "page_token",
    "cursor",
    "next_cursor",
    "has_more",
    "total",
    "total_count",
    "count",
    "page",
    "page_size",
    "per_page",
    "limit",
    "offset",
    "kind",
    "etag",
    "links",
    "warnings",
    "unreachable",
    "next_token",
    "marker",
    "next_marker",
    "max_results",
    "is_truncated",
    "request_id",
    "pagination",
}
_KEY_WORDS = ("id", "key", "arn", "name", "code", "number", "uuid", "slug")
_WRAPPER_TITLE = re.compile(r"^(list|search|batch|query|get)?(.*?)(response|result|results|page)$")
_VERBS = {
    "list",
    "get",
    "search",
    "find",
    "create",
    "update",
    "delete",
    "patch",
    "insert",
    "fetch",
    "retrieve",
    "add",
    "remove",
    "set",
    "query",
    "batch",
    "describe",
    "show",
    "lookup",
}
_IDENTIFIER_WORDS = (
    "unique identifier",
    "identifier of",
    "resource name",
    "the id of",
    "unique id",
)


@dataclass
class DocEntity:
    """One entity found in the docs' schemas, merged over every tool that returns it."""

    name: str
    primary_key: str
    description: str = ""
    properties: dict[str, dict[str, Any]] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    origins: dict[str, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def absorb(self, props: Mapping[str, Any], required: Iterable[str], where: str) -> None:
        """Add the properties of another sighting (first definition wins per property)."""
        for name, prop in props.items():
            if name not in self.properties and isinstance(prop, dict):
                self.properties[name] = prop
                self.origins[name] = f"{where}/properties/{name}"
        self.required.update(r for r in required if isinstance(r, str))
        if where not in self.sources:
            self.sources.append(where)


@dataclass
class Derivation:
    """The state schema read from the docs, with the origin of each collection and attribute."""

    schema: StateSchema
    provenance: dict[str, dict[str, str]]
    unwrapped: list[str] = field(default_factory=list)

    @property
    def n_fields(self) -> int:
        """Attributes read from the docs, primary keys included."""
        return sum(len(attrs) for attrs in self.provenance.values())


def _props(node: Mapping[str, Any]) -> dict[str, Any]:
    props = node.get("properties")
    return props if isinstance(props, dict) else {}


def _is_object(node: Any) -> bool:
    return isinstance(node, dict) and bool(_props(node))


def _array_items(node: Any) -> Any:
    if isinstance(node, dict) and (node.get("type") == "array" or "items" in node):
        return node.get("items")
    return None


def _is_wrapper(node: Mapping[str, Any]) -> str | None:
    """The property holding the element list when ``node`` only wraps a list, else None."""
    props = _props(node)
    lists = [name for name, p in props.items() if _is_object(_array_items(p))]
    if len(lists) != 1:
        return None
    rest = [n for n in props if n != lists[0]]
    title = snake(str(node.get("title", ""))).replace("_", "")
    if all(map(_is_paging, rest)) or (title and _WRAPPER_TITLE.match(title)):
        return lists[0]
    return None


#: last words of a property or title that name a wrapper of an entity, not the entity
#: (``StreamDescription`` holds a stream, ``JobDetails`` a job)
_WRAP_WORDS = frozenset(
    {"description", "descriptions", "info", "information", "detail", "details", "summary",
     "data", "result", "output", "response", "metadata"}
)  # fmt: skip


def _owners(*names: str) -> set[str]:
    """The entity nouns ``names`` (a hint, a title) stand for, with and without a trailing
    wrapper word."""
    out: set[str] = set()
    for name in names:
        toks = tokens(snake(name))
        if toks:
            out.add(singular("_".join(toks)))
        while toks and toks[-1] in _WRAP_WORDS:
            toks = toks[:-1]
        if toks:
            out.add(singular("_".join(toks)))
    return out


def _id_property(
    node: Mapping[str, Any], hint: str | None, top: bool, params: Mapping[str, int] | None = None
) -> str | None:
    """The identifier property of an object schema, or None when it has none.

    A lone ``<x>_id`` counts only for what a tool returns itself (``top``): nested inside another
    record, ``{book_id, quantity}`` is a line item pointing at a book, not a book. Among the
    ``<entity>_<key word>`` properties, the one most tools take as a parameter (``params``:
    name -> how many tools take it) wins: ``ClusterName`` over ``ClusterArn`` when the tools
    name clusters by name.
    """
    props = _props(node)
    names = list(props)
    params = params or {}
    if "id" in props:
        return "id"
    owners = _owners(*(n for n in (hint, str(node.get("title") or "")) if n))
    keyed = [
        (_KEY_WORDS.index(toks[-1]), name)
        for name in names
        if len(toks := tokens(name)) >= 2
        and toks[-1] in _KEY_WORDS
        and "_".join(toks[:-1]) in owners
    ]
    if keyed:  # the key most tools take, then <entity>_id before <entity>_name, _arn...
        return min(keyed, key=lambda k: (-params.get(k[1], 0), k[0]))[1]
    for name in names:
        desc = str((props[name] or {}).get("description", "")).lower()
        says_id = any(w in desc for w in _IDENTIFIER_WORDS)
        listed = _array_items(props[name]) is not None  # the ids of others, not its own
        named = name == "name" and "resource name" in desc
        if (says_id and is_id_like(name) and not listed) or named:
            return name
    own = [n for n in names if tokens(n)[-1:] == ["id"]]
    if top and len(own) == 1:
        return own[0]
    return "name" if top and not own and "name" in props else None


#: Name words of the fields of a failure report (``{WidgetId, ErrorCode, ErrorMessage}``).
_FAILURE_WORDS = {"error", "errors", "failure", "code", "message", "reason", "status"}


def _failure_report(node: Mapping[str, Any], key: str) -> bool:
    """Whether an object schema is a report on a record a call could not process: besides the
    record's key, only error fields (``ErrorCode``, ``ErrorMessage``), one of them named as an
    error or failure. It shares the key with the record but is no projection of it."""
    rest = [tokens(n) for n in _props(node) if n != key]
    return (
        bool(rest)
        and all(set(t) <= _FAILURE_WORDS for t in rest)
        and any({"error", "errors", "failure"} & set(t) for t in rest)
    )


def _entity_name(node: Mapping[str, Any], key: str, hint: str | None) -> str:
    """Collection name: from a ``<x>_id`` key, else the schema title, else the context."""
    toks = tokens(key)
    if len(toks) >= 2 and toks[-1] in _KEY_WORDS:
        return plural("_".join(toks[:-1]))
    title = str(node.get("title") or "")
    words = [t for t in tokens(title) if t not in _VERBS and t not in ("response", "result")]
    while len(words) > 1 and words[-1] in _SCHEMA_ROLES:  # JobDefinition: jobs
        words.pop()
    if words:
        return plural("_".join(words))
    return plural(singular(hint)) if hint else "records"


#: last words of a schema's title that say what kind of schema it is, not what it describes
_SCHEMA_ROLES = {"definition", "details", "detail", "info", "information", "dto", "model", "output"}

_CONTAINERS = {"data", "items", "results", "result", "entries", "records", "value", "values"}


def _named(prop: str, hint: str | None) -> str:
    """The noun for what ``prop`` holds: ``data``/``items``/``value`` name no entity, so the
    enclosing one (the tool's noun at the top) does."""
    return hint if hint and snake(prop) in _CONTAINERS else prop


@dataclass
class _At:
    """Where the walk is: inside a tool's own result (``top``), a list's element, a read."""

    top: bool = True
    element: bool = False
    read: bool = False


class _Collector:
    """Walks return schemas and gathers entities, merging sightings by identifier property.

    It also takes the census of the fields the docs define on records (``fields``): every
    property it walks, except the envelope around records (a wrapper's list property and its
    pagination, a result property that only holds an entity), which describes the response,
    not anything stored.
    """

    def __init__(self, params: Mapping[str, int] | None = None) -> None:
        self.params = params or {}  # tool parameter name -> tools taking it: the keys used
        self.by_key: dict[str, DocEntity] = {}
        self.unwrapped: list[str] = []
        self.fields: set[str] = set()

    def walk(
        self, node: Any, where: str, hint: str | None, depth: int = 0, at: _At | None = None
    ) -> str | None:
        """Record the entities in ``node``; returns the entity name ``node`` is, if any."""
        at = at or _At()
        if depth > 6 or not isinstance(node, dict):
            return None
        items = _array_items(node)
        if items is not None:
            inner_at = _At(at.top, element=at.top, read=at.read)
            return self.walk(items, f"{where}/items", hint, depth + 1, inner_at)
        for combo in ("allOf", "oneOf", "anyOf"):
            if isinstance(node.get(combo), list) and not _props(node):
                merged = _merge_combo(node[combo])
                sub = f"{where}/{combo}"
                return self.walk(merged, sub, hint, depth + 1, at) if merged else None
        if not _is_object(node):
            return None
        inner = _is_wrapper(node)
        if inner is not None:
            self.unwrapped.append(f"{where} -> {inner}")
            sub = f"{where}/properties/{inner}"
            return self.walk(_props(node)[inner], sub, _named(inner, hint), depth + 1, at)
        key = _id_property(node, hint, at.top, self.params)
        if key is not None and _failure_report(node, key):
            return None  # why a named record was not processed: about the call, not stored
        holders = self._walk_props(node, where, hint, depth, at, key)
        if key is not None:
            return self._add(node, key, where, hint)
        key = _keyless_record(node, hint, at, holders)
        if key is None:
            return None
        own = {n: p for n, p in _props(node).items() if n not in holders and not _is_paging(n)}
        self._add({**node, "properties": own}, key, where, hint, keyless=True)
        return None  # nothing refers to a keyless record by its key

    def _walk_props(
        self,
        node: Mapping[str, Any],
        where: str,
        hint: str | None,
        depth: int,
        at: _At,
        key: str | None,
    ) -> set[str]:
        """Walk the properties; returns those holding an entity. A result that is no record
        but holds entities is an envelope: those properties and its paging are not fields."""
        props = _props(node)
        nested = _At(top=False, read=at.read)
        paging = {n for n in props if _is_paging(n)} if key is None and at.top else set()
        holders = set()
        for name, prop in props.items():
            if name not in paging and self.walk(
                prop, f"{where}/properties/{name}", _named(name, hint), depth + 1, nested
            ):
                holders.add(name)
        if holders and key is None and at.top:
            self.fields.update(n for n in props if n not in holders | paging)
            return holders
        for name in paging:
            self.walk(props[name], f"{where}/properties/{name}", name, depth + 1, nested)
        self.fields.update(props)
        return holders

    def _add(
        self, node: Mapping[str, Any], key: str, where: str, hint: str | None, keyless: bool = False
    ) -> str:
        name = _entity_name(node, key, hint)
        ident = key if key != "id" else f"{singular(name)}_id"
        ident += " (keyless)" if keyless else ""  # never merged into an entity with a real key
        entity = self.by_key.get(ident)
        if entity is None:
            desc = str(node.get("description") or "")
            if key not in _props(node):
                desc = (desc + " " if desc else "") + _KEYLESS_NOTE
            entity = DocEntity(name=identifier(name), primary_key=key, description=desc)
            if key not in _props(node):
                entity.origins[key] = f"rules:key for records {where} lists without an identifier"
            self.by_key[ident] = entity
        entity.absorb(_props(node), node.get("required") or [], where)
        return entity.name


_KEYLESS_NOTE = "(The docs give these records no identifier; the key is the state's own.)"


def _keyless_record(
    node: Mapping[str, Any], hint: str | None, at: _At, holders: set[str]
) -> str | None:
    """A key for records the docs return without an identifier property, else None.

    The elements of a list a tool returns are records of a collection even without an id
    (``Notifications: [{Threshold, ComparisonOperator}]``), and the one object a read returns
    is a singleton (``GetAccountInfo -> {balance, free_screenshots_left}``); both are state
    the tools read. Envelopes (only entity-holding properties) and what writes return (an
    operation's result, not a stored record) are not.
    """
    if not at.top or not hint or not (at.element or at.read):
        return None
    props = _props(node)
    fields = [n for n in props if n not in holders and not _is_paging(n)]
    scalar = [n for n in fields if _attr_type(props[n]) not in ("object", "array")]
    if not fields or (holders and not scalar):  # {data: [Gif], meta: {...}}: an envelope
        return None
    if all(_is_key_list(n, props[n]) for n in fields):  # {StreamNames: [...]}: keys listed
        return None
    return f"{singular(snake(hint))}_id"


_PAGING_PREFIXES = ("has_more", "is_truncated", "exclusive_start", "last_evaluated")
_CURSOR_WORDS = {"token", "marker", "cursor", "page", "link", "iterator", "url"}


def _is_paging(name: str) -> bool:
    """Whether a response property pages the response (``NextToken``, ``HasMoreStreams``,
    ``NextShardIterator``) rather than describing a record (``next_billing_date`` does)."""
    low = snake(name)
    toks = low.split("_")
    cursor = toks[0] == "next" and toks[-1] in _CURSOR_WORDS
    return low in _PAGINATION or low.startswith(_PAGING_PREFIXES) or cursor


def _is_key_list(name: str, prop: Any) -> bool:
    """An array of scalars named for keys (``StreamNames``, ``order_ids``): a listing of
    other records' keys, not a field of a record of its own."""
    items = _array_items(prop)
    toks = tokens(name)
    last = toks[-1] if toks else ""
    keys = last in _KEY_WORDS or singular(last) in _KEY_WORDS or last[:-1] in _KEY_WORDS
    return isinstance(items, dict) and not _is_object(items) and keys


def _merge_combo(parts: list[Any], depth: int = 0) -> dict[str, Any] | None:
    """``allOf``/``oneOf`` of object schemas as one object (properties united, nested
    combinations included: ``allOf: [{allOf: [Reference, Item]}, File]``)."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for part in parts:
        if isinstance(part, dict):
            for combo in ("allOf", "oneOf", "anyOf"):
                if isinstance(part.get(combo), list) and depth < 6:
                    props.update(_props(_merge_combo(part[combo], depth + 1) or {}))
            props.update(_props(part))
            required.extend(r for r in part.get("required") or [] if isinstance(r, str))
    return {"type": "object", "properties": props, "required": required} if props else None


def _attr_type(prop: Mapping[str, Any]) -> AttributeType:
    if prop.get("enum"):
        return "enum"
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "string" and prop.get("format") in ("date", "date-time"):
        return "date" if prop.get("format") == "date" else "datetime"
    if kind in ("integer", "number", "boolean", "object", "array"):
        return kind  # type: ignore[return-value]
    if _props(prop):
        return "object"
    return "string"


def _reference(name: str, keys: Mapping[str, str], own: str) -> str | None:
    """The collection an id-named attribute points to (``order_ids`` -> ``orders``)."""
    low = snake(name)
    base = low[:-1] if low.endswith("_ids") else low
    target = keys.get(base)
    return target if target and target != own else None


def _attribute(name: str, prop: Mapping[str, Any], coll: str, keys: Mapping[str, str]) -> Attribute:
    typ = _attr_type(prop)
    ref = _reference(name, keys, coll) if typ in ("string", "integer", "array") else None
    if ref is not None and typ != "array":
        typ = "id"
    enum = [str(e) for e in prop.get("enum") or []] if typ == "enum" else None
    kind = prop.get("type")
    nullable = prop.get("nullable") is True or (isinstance(kind, list) and "null" in kind)
    desc = _nested_keys(prop, typ) or str(prop.get("description") or "")
    return Attribute(
        name=name,
        type=typ,
        description=desc[:200],
        enum=enum or None,
        references=ref,
        nullable=nullable,
    )


def _nested_keys(prop: Mapping[str, Any], typ: str) -> str:
    """``object with keys: a, b`` for documented objects, the form the state tools read."""
    if typ == "object" and _props(prop):
        return f"object with keys: {', '.join(list(_props(prop))[:15])}"
    items = _array_items(prop)
    if typ == "array" and _is_object(items):
        return f"list of objects with keys: {', '.join(list(_props(items))[:15])}"
    return ""


def _key_type(attr: Attribute) -> AttributeType:
    """The type of a key attribute: ``integer`` where the docs type the key so (the state
    then keys by integers, :attr:`CollectionSchema.integer_keyed`), else ``id``."""
    return "integer" if attr.type == "integer" else "id"


def derive_state(tools: Sequence[ToolSpec]) -> Derivation:
    """Collections and attributes read from the return schemas of ``tools``.

    Empty when the docs carry no usable schemas (plain function lists): the caller then designs
    from parameters, descriptions and data instead.
    """
    collector = _collect(tools)
    entities = list(collector.by_key.values())
    _dedupe_names(entities)
    keys = {_key_alias(e): e.name for e in entities}
    schema = StateSchema()
    provenance: dict[str, dict[str, str]] = {}
    for entity in entities:
        attrs = [
            _attribute(name, prop, entity.name, keys) for name, prop in entity.properties.items()
        ]
        attrs = [
            a.model_copy(update={"type": _key_type(a), "references": None})
            if a.name == entity.primary_key
            else a
            for a in attrs
        ]
        if entity.primary_key not in entity.properties:
            attrs.insert(0, Attribute(name=entity.primary_key, type="id"))
        schema.collections.append(
            CollectionSchema(
                name=entity.name,
                primary_key=entity.primary_key,
                description=entity.description[:300],
                attributes=attrs,
            )
        )
        provenance[entity.name] = {
            name: where if where.startswith("rules:") else f"docs:{where}"
            for name, where in entity.origins.items()
        }
    return Derivation(schema=schema, provenance=provenance, unwrapped=collector.unwrapped)


_NOISE = {"all", "my", "details", "detail", "info", "information", "one", "many"}
_READ_VERBS = {"get", "list", "describe", "search", "find", "fetch", "retrieve", "show", "lookup"}


def _collect(tools: Sequence[ToolSpec]) -> _Collector:
    collector = _Collector(Counter(p for spec in tools for p in spec.param_names))
    for spec in tools:
        if spec.returns:
            at = _At(read=_is_read(spec))
            collector.walk(spec.returns, f"{spec.name}/returns", _hint(spec), at=at)
    return collector


def _is_read(spec: ToolSpec) -> bool:
    """A read by its access hint (HTTP GET) or its leading verb (RPC APIs POST their reads)."""
    return spec.access == "read" or (tokens(spec.name)[:1] or [""])[0] in _READ_VERBS


def _hint(spec: ToolSpec) -> str | None:
    """The noun a tool's name is about: ``find_customer_by_email`` -> ``customer``."""
    words: list[str] = []
    for tok in tokens(spec.name):
        if tok in ("by", "for", "with", "from"):
            break
        if tok not in _VERBS and tok not in _NOISE:
            words.append(tok)
    return words[-1] if words else None


def _key_alias(entity: DocEntity) -> str:
    """How other records name this entity's key: ``customer_id`` even when the key is ``id``."""
    key = snake(entity.primary_key)
    return key if key != "id" else f"{singular(entity.name)}_id"


def _dedupe_names(entities: list[DocEntity]) -> None:
    seen: dict[str, int] = {}
    for entity in entities:
        count = seen.get(entity.name, 0)
        seen[entity.name] = count + 1
        if count:
            entity.name = f"{entity.name}_{count + 1}"


def doc_field_names(tools: Sequence[ToolSpec]) -> set[str]:
    """The fields the docs define on returned records, at any depth (for coverage figures).

    Every property of a returned object counts except the response envelope: a list
    wrapper's element property and its pagination (``orders``, ``next_page_token``), and a
    result property that only holds an entity (``{"Budget": {...}}``). Those describe the
    response, not a record, so no state holds them.
    """
    return _collect(tools).fields


def fields_under(tools: Sequence[ToolSpec], pointer: str) -> set[str]:
    """The property names nested (at any depth) under the schema a provenance pointer names.

    ``pointer`` is an origin from :func:`derive_state` (``docs:<tool>/returns/...``): an object
    attribute read from the docs holds its whole documented shape, deeper keys included.
    """
    tool, _, path = pointer.removeprefix("docs:").partition("/")
    node: Any = next((t.returns for t in tools if t.name == tool), None)
    for part in path.split("/")[1:]:  # the first part is "returns"
        if isinstance(node, dict) and part in ("allOf", "oneOf", "anyOf"):
            node = _merge_combo(node.get(part) or [])
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            return set()
    names: set[str] = set()

    def visit(sub: Any, depth: int) -> None:
        if depth > 6 or not isinstance(sub, dict):
            return
        for name, prop in _props(sub).items():
            names.add(name)
            visit(prop, depth + 1)
        items = _array_items(sub)
        visit(items, depth + 1)
        for combo in ("allOf", "oneOf", "anyOf"):
            if isinstance(sub.get(combo), list):
                visit(_merge_combo(sub[combo]), depth + 1)

    visit(node, 0)
    return names
