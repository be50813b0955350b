"""Reading tool schemas as data flow: which fields a tool returns, which it needs, and which
entity (collection primary key) each one holds.

Shared by the dependency graph (edge proposal), the blueprint builder (argument bindings) and
instantiation (where a fact's value comes from). Paths are strings with ``[]`` for "each
element of an array": ``items[].book_id``, ``order_ids[]``, ``[].price``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from autoforge.env import CollectionSchema, StateSchema
from autoforge.lexicon.toolscope import target_collection, tool_access, tool_scope
from autoforge.tooldocs import ToolSpec, singular, snake_words, to_snake

#: Primary-key names too generic to identify a collection without a record around them.
GENERIC_KEYS = frozenset({"id", "code", "key", "name", "number", "uuid"})
#: Last name tokens that mark an identifier-like field (safe to match by name alone).
IDENT_TOKENS = frozenset(
    {"id", "ids", "code", "codes", "key", "email", "sku", "number", "username", "handle", "uuid"}
)


@dataclass(frozen=True)
class Leaf:
    """One field of a returns or parameters schema.

    ``name`` is the field's own name (for an array of scalars, the array's name, e.g.
    ``order_ids``); ``entity`` the collection whose primary key the field holds;
    ``record_of`` the collection whose record encloses it.
    """

    path: str
    name: str
    type: str | None
    entity: str | None
    record_of: str | None
    schema: dict[str, Any]

    @property
    def through_list(self) -> bool:
        """Whether the path goes through an array (one element must be chosen)."""
        return "[]" in self.path

    @property
    def segments(self) -> list[str]:
        """The path split into field names and ``[]`` markers."""
        return split_path(self.path)


def split_path(path: str) -> list[str]:
    """Split a schema path: ``items[].book_id`` -> ``["items", "[]", "book_id"]`` (memoised:
    the same few paths are split thousands of times per run)."""
    found = _SPLIT.get(path)
    if found is None:
        if len(_SPLIT) > 8192:
            _SPLIT.clear()
        found = _SPLIT[path] = tuple(_split_path(path))
    return list(found)


_SPLIT: dict[str, tuple[str, ...]] = {}


def _split_path(path: str) -> list[str]:
    out: list[str] = []
    for part in path.split("."):
        if not part:
            continue
        name = part.replace("[]", "")
        if name:
            out.append(name)
        out.extend(["[]"] * part.count("[]"))
    return out


def is_identifier_name(name: str) -> bool:
    """Whether a field name looks like an identifier (``order_id``, ``email``, ``sku``)."""
    token = name.lower().replace("-", "_").split("_")[-1]
    return token in IDENT_TOKENS or name.lower().endswith("id")


#: Fields whose value is what a person calls the record itself (a book's title, a product's
#: name), not a property it has.
NAME_FIELDS = ("title", "name", "label", "full_name")


def names_record(name: str) -> bool:
    """Whether a field's value names its record (``title``, ``name``, ``full_name``,
    ``hotelName``): a condition on it picks a record by its own identifying value ("the book
    whose title is X"), which is naming the record, not choosing it."""
    spaced = to_snake(name)
    return spaced in NAME_FIELDS or spaced.rsplit("_", 1)[-1] in ("name", "title", "label")


_ENTITY_CACHE: dict[int, tuple[StateSchema, dict[tuple[str, str | None], str | None]]] = {}


def entity_of(name: str, record_of: str | None, schema: StateSchema) -> str | None:
    """The collection whose primary key a field called ``name`` holds, or None (memoised)."""
    entry = _ENTITY_CACHE.get(id(schema))
    if entry is None or entry[0] is not schema:
        if len(_ENTITY_CACHE) > 256:
            _ENTITY_CACHE.clear()
        entry = _ENTITY_CACHE[id(schema)] = (schema, {})
    key = (name, record_of)
    if key not in entry[1]:
        entry[1][key] = _entity_of(name, record_of, schema)
    return entry[1][key]


def _entity_of(name: str, record_of: str | None, schema: StateSchema) -> str | None:
    if record_of is not None:
        coll = schema.collection(record_of)
        if coll is not None:
            if name == coll.primary_key:
                return coll.name
            attr = coll.attribute(name)
            if attr is not None and attr.references:
                return attr.references
    base = name[:-1] if name.endswith(("_ids", "Ids")) else name  # order_ids, NamedQueryIds
    for coll in schema.collections:
        if coll.primary_key == base and base not in GENERIC_KEYS:
            return coll.name
        if base == f"{singular(coll.name)}_{coll.primary_key}":
            return coll.name
    for coll in schema.collections:
        attr = coll.attribute(base)
        if attr is not None and attr.references:
            return attr.references
    return None


def record_collection(props: dict[str, Any], schema: StateSchema) -> str | None:
    """The collection whose records an object with these properties is, or None.

    An object is a record of C when it has C's primary key; among several candidates the one
    sharing the most attribute names wins.
    """
    best: tuple[int, str] | None = None
    for coll in schema.collections:
        if coll.primary_key not in props:
            continue
        overlap = sum(1 for a in coll.attributes if a.name in props)
        if coll.primary_key in GENERIC_KEYS and overlap < 2:
            continue
        if best is None or overlap > best[0]:
            best = (overlap, coll.name)
    return best[1] if best else None


def schema_leaves(root: dict[str, Any] | None, state: StateSchema) -> list[Leaf]:
    """All scalar fields (and arrays of scalars) of a JSON Schema, with their entities."""
    leaves: list[Leaf] = []
    if root:
        _walk(root, "", "", None, state, leaves)
    return leaves


def _walk(
    node: dict[str, Any],
    path: str,
    name: str,
    record_of: str | None,
    state: StateSchema,
    out: list[Leaf],
) -> None:
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "object" or "properties" in node:
        props = node.get("properties", {})
        inner = record_collection(props, state) or record_of
        for key, sub in props.items():
            if isinstance(sub, dict):
                _walk(sub, f"{path}.{key}" if path else key, key, inner, state, out)
        return
    if kind == "array":
        items = node.get("items") if isinstance(node.get("items"), dict) else {}
        _walk(items or {}, path + "[]", name, record_of, state, out)
        return
    if not name:
        return
    entity = entity_of(name, record_of, state)
    out.append(Leaf(path, name, kind, entity, record_of, node))


_LEAF_CACHE: dict[tuple[int, int, str], tuple[ToolSpec, StateSchema, tuple[Leaf, ...]]] = {}


def _leaves_cached(tool: ToolSpec, state: StateSchema, which: str) -> tuple[Leaf, ...]:
    """Leaves per (tool, state schema) object; specs are treated as immutable once loaded."""
    key = (id(tool), id(state), which)
    entry = _LEAF_CACHE.get(key)
    if entry is not None and entry[0] is tool and entry[1] is state:
        return entry[2]
    root = tool.returns if which == "returns" else tool.parameters
    if which == "returns" and root is None:
        root = assumed_returns(tool, state)
    leaves = tuple(schema_leaves(root, state))
    if which == "parameters":
        leaves = _own_key(tool, state, leaves)
    if len(_LEAF_CACHE) > 4096:
        _LEAF_CACHE.clear()
    _LEAF_CACHE[key] = (tool, state, leaves)
    return leaves


def _own_key(tool: ToolSpec, state: StateSchema, leaves: tuple[Leaf, ...]) -> tuple[Leaf, ...]:
    """``leaves`` with the tool's own key parameter holding its collection's key: a generic
    name (``getPet(id)``) names no collection by itself, but the tool's scope says whose key it
    is (:func:`~autoforge.lexicon.toolscope.tool_scope`). A create's key is a new one: not
    taken."""
    if not any(leaf.entity is None and leaf.path in tool.required for leaf in leaves):
        return leaves
    scope = tool_scope(tool, state)
    if scope.key_param is None or scope.collection is None or scope.cls == "create":
        return leaves
    return tuple(
        replace(leaf, entity=scope.collection)
        if leaf.path == scope.key_param and leaf.entity is None
        else leaf
        for leaf in leaves
    )


def output_leaves(tool: ToolSpec, state: StateSchema) -> list[Leaf]:
    """The fields a tool returns (its ``returns`` schema, or an assumed record, see below)."""
    return list(_leaves_cached(tool, state, "returns"))


def param_leaves(tool: ToolSpec, state: StateSchema) -> list[Leaf]:
    """The fields of a tool's parameters, nested ones included (``items[].book_id``)."""
    return list(_leaves_cached(tool, state, "parameters"))


def assumed_returns(tool: ToolSpec, state: StateSchema) -> dict[str, Any] | None:
    """For an undocumented result, what the designed state says a read tool returns.

    A tool keyed by C's primary key returns a record of C (``get_order(order_id)``), unless C
    is a bare key collection (no attribute but its key) and the tool's name names another
    collection that holds that key (``get_hotel_order_detail(order_id)`` reads ``hotels``).
    A read tool whose name names a collection C and whose parameters are all attributes of C
    searches C: a list of C's records for a listing verb, a plural noun or no parameters
    (``search_hotel_order(user_id, date)``), else one record (``get_holiday(date)``). A read
    keyed by C's key whose name also names another collection D whose records reference C
    searches D (``get_member_loans(member_id)``, ``get_instore_reservations(user_id)``: the
    user's loans or reservations, not the user). A name that holds C's key
    (``find_user_id_by_email``) returns the key, so nothing is assumed.
    """
    keyed = next((c for p in tool.required
                  if (c := state.collection(entity_of(p, None, state) or "")) is not None),
                 None)  # fmt: skip
    read = tool_access(tool) == "read"
    if keyed is not None and len(keyed.attributes) > 1:
        owned = _searched_collection(tool, state, owner=keyed) if read else None
        return collection_json_schema(keyed) if owned is None else _search_result(tool, owned)
    named = _searched_collection(tool, state) if read else None
    if named is not None:
        return _search_result(tool, named)
    return collection_json_schema(keyed) if keyed is not None else None


def _search_result(tool: ToolSpec, coll: CollectionSchema) -> dict[str, Any]:
    """What a search of ``coll`` returns: a list of its records or one (:func:`_lists`)."""
    record = collection_json_schema(coll)
    return {"type": "array", "items": record} if _lists(tool, coll) else record


def name_tokens(tool: ToolSpec) -> list[str]:
    """The words of a tool's name: ``getHotelOrder`` / ``get_hotel_order`` -> get, hotel, order."""
    return [t for t in snake_words(tool.name) if t]


def _searched_collection(
    tool: ToolSpec, state: StateSchema, owner: CollectionSchema | None = None
) -> CollectionSchema | None:
    """The collection a read tool's name names, when every parameter is an attribute of it
    and the name does not hold its key; else None.

    The noun the tool acts on by the synthesis's rule (:func:`autoforge.env.target_collection`:
    the head of a compound, ``search_clinic_visit`` searches visits; the later noun a
    parameterless tool's first one owns, ``get_user_all_visits()`` lists visits) comes first,
    so that the task side reads the result the environment's tool returns; unless that is a
    bare key collection, which says nothing of a result: then the first noun after the verb
    (a design that keeps clinic visits in ``clinics``). With ``owner``: the first noun naming
    another collection, when its records reference ``owner`` (words naming ``owner`` itself
    are passed over)."""
    words = name_tokens(tool)
    params = set(tool.param_names)

    def fits(coll: CollectionSchema) -> bool | None:
        names = {a.name for a in coll.attributes} | {coll.primary_key}
        key_words = set(coll.primary_key.lower().split("_"))
        if len(key_words) > 1 and key_words <= set(words):  # find_user_id_by_email
            return None
        return params <= names

    target = target_collection(tool, state)
    if (
        target is not None
        and owner is not None
        and (
            target.name == owner.name
            or not any(a.references == owner.name for a in target.attributes)
        )
    ):
        target = None  # with an owner: only a collection that references it
    if target is not None and len(target.attributes) > 1:
        fit = fits(target)
        if fit is not False:
            return target if fit else None
    for word in words[1:] or words:
        coll = next((c for c in state.collections
                     if word in (c.name.lower(), singular(c.name.lower()))
                     or singular(word) == singular(c.name.lower())), None)  # fmt: skip
        if coll is None or (owner is not None and coll.name == owner.name):
            continue
        if owner is not None and not any(a.references == owner.name for a in coll.attributes):
            return None
        return coll if fits(coll) else None
    return None


def qualified_for(qualifier: str | None, tool: ToolSpec, state: StateSchema) -> bool:
    """Whether records a tool's name qualifies by ``qualifier`` (the attribute a noun of the
    name requires set, :attr:`autoforge.env.ToolScope.qualifier`: ``search_shop_invoice``
    lists only invoices whose ``shop_id`` is set) may feed ``tool``: always when nothing
    qualifies them; else only a tool of the same qualifier (``pay_shop_invoice``) or one that
    takes the qualifying key (``open_shop_invoice(shop_id, ...)``). A shop's invoice is no
    client's invoice, and carries no client key for a call about one."""
    return (
        qualifier is None
        or qualifier in tool.param_names
        or (tool_scope(tool, state).qualifier == qualifier)
    )


_LIST_VERBS = frozenset({"list", "search", "query", "browse", "filter", "find", "all"})


def _lists(tool: ToolSpec, coll: CollectionSchema) -> bool:
    """Whether a search of ``coll`` returns a list: a listing verb, the collection's plural
    in the name, or no parameters to narrow it to one record."""
    words = name_tokens(tool)
    plural = coll.name.lower() if coll.name.lower() != singular(coll.name.lower()) else ""
    return not tool.param_names or bool(_LIST_VERBS & set(words)) or plural in words


def collection_json_schema(coll: CollectionSchema) -> dict[str, Any]:
    """A JSON Schema of one record of a collection, from its attribute types."""
    types = {
        "id": "string", "date": "string", "datetime": "string", "enum": "string",
        "string": "string", "integer": "integer", "number": "number", "boolean": "boolean",
        "object": "object", "array": "array",
    }  # fmt: skip
    props: dict[str, Any] = {}
    for attr in coll.attributes:
        prop: dict[str, Any] = {"type": types[attr.type], "description": attr.description}
        if attr.enum:
            prop["enum"] = list(attr.enum)
        props[attr.name] = prop
    return {"type": "object", "properties": props}
