"""What the user knows: which attributes a person holds and which only the tools reveal.

A real customer knows who they are (name, email, phone, zip: whatever the docs find a person
by) and the references they were handed (an order number on a receipt, a coupon code), never
the internal keys a system uses (a customer id, a product id) when a tool finds those from
something the person holds. The rule reads the docs only:

* a **finder** is a read tool that takes attributes of a collection C (not keys) and returns
  C's primary key (``find_customer_by_email(email) -> customer_id``,
  ``search_books(title) -> [{book_id, ...}]``);
* the primary key of C is **internal** when C has a finder (the agent can and must find it),
  or when a **lister** gives it: a read tool that takes only the user's key and returns a list
  of records carrying C's key (``search_orders(user_id) -> [{order_id, date, ...}]``); a task
  then names the record by a condition over that list ("my hotel order dated 2024-10-13"),
  never by its key. Otherwise the key is **held** by the user: the user collection's key when
  nothing else identifies the user (said once, as "my user id"), the key of records the user
  owns (they reference the user collection: orders, reservations) when no tool lists them, or
  of something handed out (a coupon code);
* the user is a **session user** when the docs show tools acting for whoever is signed in:
  a read tool without parameters whose name and description speak of the user (VitaBench's
  ``get_user_all_orders()``, "Get all order information for user"), or a parameter holding
  the user's key described as the current/logged-in user. Then the user's key, when no
  finder finds it, is neither held nor looked up: the app knows it, as it knows a login, and
  a task hands it to the agent as episode context (``Task.session``); the user never says it;
* a non-key attribute is held when a finder takes it, when it describes the user (on the user
  collection: name, email, phone, address), or when it references a held key; otherwise it is
  internal (a price, a stock level: the agent reads it).

:func:`knowledge` computes it once per environment; :meth:`Knowledge.report` gives the verdict
per attribute with its reason (shown in ``generation.json``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import EnvironmentSpec, StateSchema
from autoforge.lexicon import (
    entity_of,
    is_identifier_name,
    name_tokens,
    output_leaves,
    qualified_for,
    session_user,
    singular,
    tool_access,
    tool_scope,
    user_collection,
)
from autoforge.tasks.blueprints.reasoning import PathSeg
from autoforge.tasks.states.domain import categorical
from autoforge.tooldocs import ToolSpec

#: Attributes of the user record a person knows about themselves (substring match).
_PERSONAL = ("name", "email", "phone", "zip", "postal", "address", "birth", "dob", "username")
#: Finder parameters that identify one record best (preferred when a search has no required one).
_NAMING = ("email", "title", "name", "full_name", "username", "phone", "label")


@dataclass(frozen=True)
class Finder:
    """A read tool that finds records of ``collection`` by attributes the user holds.

    ``params``: the parameters to bind to the user's values (attribute names of the
    collection); ``key_path``: where the primary key sits in the result (``[0, "book_id"]`` for
    a list; the result must then hold exactly one record).
    """

    tool: str
    collection: str
    params: tuple[str, ...]
    key_path: tuple[PathSeg, ...]
    many: bool = False


@dataclass(frozen=True)
class Lister:
    """A read tool that lists the user's own records carrying ``collection``'s key.

    ``tool`` takes the user's key and requires nothing else; ``list_path`` is where the list
    sits in its result (``""`` for a top-level list); ``field`` the element field holding the
    key; ``record_of`` the collection of the listed records (an order lists its hotel's key:
    ``hotels`` via ``orders``).
    """

    tool: str
    collection: str
    list_path: str
    field: str
    record_of: str | None = None
    #: the attribute the tool's name requires set on the records it lists
    #: (``search_shop_invoice`` lists only invoices whose ``shop_id`` is set)
    qualifier: str | None = None

    def serves(self, tool: ToolSpec, state: StateSchema) -> bool:
        """Whether this list holds the records ``tool`` is about (:func:`qualified_for`)."""
        return qualified_for(self.qualifier, tool, state)


@dataclass(frozen=True)
class Holding:
    """Whether the user holds ``collection.attribute``, and why (the rule that decided)."""

    collection: str
    attribute: str
    held: bool
    reason: str


@dataclass(frozen=True)
class MapFields:
    """An id-keyed map attribute: ``key`` the element field equal to the element's own key,
    ``described`` the categorical string fields every element has (sorted)."""

    key: str
    described: tuple[str, ...]


@dataclass
class Knowledge:
    """The holdings of every attribute and the finders of every collection."""

    holdings: dict[tuple[str, str], Holding] = field(default_factory=dict)
    finders: dict[str, list[Finder]] = field(default_factory=dict)
    #: per collection, the tools that list the user's own records carrying its key
    listers: dict[str, list[Lister]] = field(default_factory=dict)
    user: str | None = None
    #: why the docs show a session user (the tool or parameter that acts for whoever is signed
    #: in), or None: the user's key then goes to the agent as context (:meth:`session_key`)
    session: str | None = None
    #: fields every sampled record has inside an object attribute (``address`` -> ``city``,
    #: ``zip``...), read from the data where the docs give the object no schema
    nested: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    #: scalar fields every sampled element of a list attribute has (an order's ``items``
    #: with ``item_id, name, price``), read from the data: the records a value is drawn from
    elements: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    #: id-keyed maps of objects, read from the data (a user's ``payment_methods`` keyed by
    #: ``paypal_1`` with ``{"id": "paypal_1", "source": "paypal"}``): the field holding each
    #: element's own key and the fields a person describes an element by (a kind the data
    #: repeats: ``source``)
    maps: dict[tuple[str, str], MapFields] = field(default_factory=dict)

    def internal_key(self, collection: str) -> bool:
        """Whether the primary key of ``collection`` is internal (found by a finder, or
        chosen from a list of the user's own records)."""
        return bool(self.finders.get(collection) or self.listers.get(collection))

    def already_had(self, tool: Any, key: str) -> bool:
        """Whether a write taking ``key`` (a book's id) is about a record the user already
        has in their own records: its description speaks of a collection whose list elements
        carry that key (a review of a book "received in a delivered order") and the tool is
        none of that collection's own (placing an order puts a book in a new one). Such a
        record is then chosen among the user's records rather than from a catalogue."""
        text = str(getattr(tool, "description", "") or "").lower()
        own = set(name_tokens(tool))
        for (holder, _attr), fields in sorted(self.elements.items()):
            noun = singular(holder).lower()
            if holder == self.user or key not in fields or noun in own:
                continue
            if re.search(rf"\b{re.escape(noun)}s?\b", text):
                return True
        return False

    def session_key(self) -> bool:
        """Whether the user's key is the session's: the docs show a session user and no
        finder finds the key from what the user holds (a finder keeps it internal)."""
        return bool(self.session and self.user and self.finder(self.user) is None)

    def lister(
        self, collection: str, records: set[str] | None = None, tool: ToolSpec | None = None,
        state: StateSchema | None = None,
    ) -> Lister | None:  # fmt: skip
        """The lister to use for ``collection``'s key: one whose listed records are of a
        collection in ``records`` first (the records the calling tool reads), then a list of
        ``collection``'s own records, then one unqualified or qualified by that very key (the
        user's shop invoices for a shop's key), then by tool name (deterministic). With the
        calling ``tool`` and the state schema, only a list that serves it
        (:meth:`Lister.serves`)."""
        found = [x for x in self.listers.get(collection) or []
                 if tool is None or state is None or x.serves(tool, state)]  # fmt: skip
        wanted = records or set()
        return min(found, key=lambda x: (x.record_of not in wanted,
                                         x.record_of != collection,
                                         x.qualifier not in (None, x.field), x.tool),
                   default=None)  # fmt: skip

    def finder(self, collection: str) -> Finder | None:
        """The finder to use for ``collection`` (a single-record one first)."""
        found = self.finders.get(collection) or []
        return min(found, key=lambda f: (f.many, len(f.params), f.tool)) if found else None

    def report(self) -> list[dict[str, Any]]:
        """One row per attribute: collection, attribute, held, reason."""
        return [
            {"collection": h.collection, "attribute": h.attribute, "held": h.held,
             "reason": h.reason}
            for h in self.holdings.values()
        ]  # fmt: skip


def _nested_names(value: Any) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _nested_names(item)


def _attribute_names(spec: EnvironmentSpec, examples: Mapping[str, Any]) -> dict[str, set[str]]:
    """Attribute names per collection, nested object fields included (``zip`` of an address)."""
    names: dict[str, set[str]] = {}
    for coll in spec.state_schema.collections:
        found = {a.name for a in coll.attributes}
        records = examples.get(coll.name) if isinstance(examples, Mapping) else None
        for record in list((records or {}).values())[:20] if isinstance(records, Mapping) else []:
            for attr in coll.attributes:
                if attr.type == "object" and isinstance(record, Mapping):
                    found.update(_nested_names(record.get(attr.name)))
        names[coll.name] = found
    return names


def _key_path(
    tool: Any, spec: EnvironmentSpec, coll: str, pk: str
) -> tuple[tuple[PathSeg, ...], bool] | None:
    """Where a read tool's result holds ``coll``'s key: ``((pk,), False)``, ``((0, pk), True)``
    for a list of records, ``((), False)`` for a bare key; None when it holds none."""
    state = spec.state_schema
    for leaf in output_leaves(tool, state):
        if leaf.entity != coll or leaf.name != pk:
            continue
        if leaf.path == pk:
            return (pk,), False
        if leaf.path == f"[].{pk}":
            return (0, pk), True
    returns = tool.returns
    bare = returns is None or returns.get("type") == "string"
    if bare and (pk in tool.name or f"find_{singular(coll)}" in tool.name):
        return (), False  # find_user_id_by_email -> "sara_doe_496"
    return None


def _finder(tool: Any, spec: EnvironmentSpec, names: dict[str, set[str]]) -> Finder | None:
    if tool_access(tool) != "read":
        return None
    props = tool.parameters.get("properties", {})
    state = spec.state_schema
    if any(entity_of(p, None, state) for p in props):
        return None  # keyed by an entity: a lookup, not a finder
    for coll in state.collections:
        where = _key_path(tool, spec, coll.name, coll.primary_key)
        if where is None:
            continue
        attrs = names.get(coll.name, set()) - {coll.primary_key}
        required = [p for p in tool.required if p in props]
        if required:
            if all(p in attrs for p in required):
                return Finder(tool.name, coll.name, tuple(required), where[0], where[1])
            continue
        usable = [p for p in props if p in attrs and props[p].get("type", "string") == "string"
                  and not props[p].get("enum")]  # fmt: skip
        ranked = sorted(usable, key=lambda p: (p not in _NAMING, _NAMING.index(p)
                                               if p in _NAMING else 0, p))  # fmt: skip
        if ranked:
            return Finder(tool.name, coll.name, (ranked[0],), where[0], where[1])
    return None


def _nested_fields(
    spec: EnvironmentSpec, examples: Mapping[str, Any]
) -> dict[tuple[str, str], tuple[str, ...]]:
    """Per object attribute, the scalar fields all its sampled values share (a record's
    ``address`` with ``address1, city, zip``; an id-keyed map such as ``payment_methods``
    shares none)."""
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for coll in spec.state_schema.collections:
        records = examples.get(coll.name) if isinstance(examples, Mapping) else None
        sample = list(records.values())[:20] if isinstance(records, Mapping) else []
        for attr in coll.attributes:
            values = [r.get(attr.name) for r in sample if isinstance(r, Mapping)]
            if attr.type != "object" or not values or not all(isinstance(v, Mapping)
                                                              for v in values):  # fmt: skip
                continue
            keys = [{k for k, x in v.items() if isinstance(x, str | int)}
                    for v in values if isinstance(v, Mapping)]  # fmt: skip
            shared = set.intersection(*keys) if keys else set()
            if shared:
                out[(coll.name, attr.name)] = tuple(sorted(shared))
    return out


def _element_fields(
    spec: EnvironmentSpec, examples: Mapping[str, Any]
) -> dict[tuple[str, str], tuple[str, ...]]:
    """Per list attribute whose sampled values are lists of objects, the scalar fields all
    their elements share (an order's ``items``: ``item_id, name, price, product_id``)."""
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for coll in spec.state_schema.collections:
        records = examples.get(coll.name) if isinstance(examples, Mapping) else None
        sample = list(records.values())[:20] if isinstance(records, Mapping) else []
        for attr in coll.attributes:
            if attr.type not in ("array", "object"):
                continue
            elems = [e for r in sample if isinstance(r, Mapping)
                     and isinstance(r.get(attr.name), list) for e in r[attr.name]]  # fmt: skip
            if not elems or not all(isinstance(e, Mapping) for e in elems):
                continue
            keys = [{k for k, x in e.items() if isinstance(x, str | int | float)}
                    for e in elems]  # fmt: skip
            shared = set.intersection(*keys)
            if shared:
                out[(coll.name, attr.name)] = tuple(sorted(shared))
    return out


def _map_fields(
    spec: EnvironmentSpec, examples: Mapping[str, Any]
) -> dict[tuple[str, str], MapFields]:
    """Per object attribute whose sampled values are maps of objects keyed by an element
    field (``payment_methods: {"paypal_1": {"id": "paypal_1", "source": "paypal"}}``): that
    key field, and the string fields all elements share whose values look like a category
    (:func:`~autoforge.tasks.states.domain.categorical`: ``source``, not a free-text name)."""
    out: dict[tuple[str, str], MapFields] = {}
    for coll in spec.state_schema.collections:
        records = examples.get(coll.name) if isinstance(examples, Mapping) else None
        sample = list(records.values())[:50] if isinstance(records, Mapping) else []
        for attr in coll.attributes:
            maps = [r[attr.name] for r in sample if isinstance(r, Mapping)
                    and isinstance(r.get(attr.name), Mapping) and r[attr.name]]  # fmt: skip
            pairs = [(k, e) for m in maps for k, e in m.items()]
            if attr.type != "object" or not pairs or not all(isinstance(e, Mapping)
                                                             for _, e in pairs):  # fmt: skip
                continue
            keys = sorted(set.intersection(*({f for f, v in e.items() if v == k}
                                              for k, e in pairs)))  # fmt: skip
            if not keys:
                continue
            shared = set.intersection(*({f for f, v in e.items() if isinstance(v, str)}
                                        for _, e in pairs)) - set(keys)  # fmt: skip
            described = tuple(sorted(f for f in shared if not is_identifier_name(f)
                                     and categorical([e[f] for _, e in pairs])))  # fmt: skip
            out[(coll.name, attr.name)] = MapFields(keys[0], described)
    return out


def knowledge(spec: EnvironmentSpec, examples: Mapping[str, Any] | None = None) -> Knowledge:
    """The user's knowledge of ``spec``'s state (see the module docstring for the rules)."""
    names = _attribute_names(spec, examples or {})
    out = Knowledge(user=user_collection(spec.state_schema))
    out.session = session_user(spec.tools, spec.state_schema, out.user)
    out.nested = _nested_fields(spec, examples or {})
    out.elements = _element_fields(spec, examples or {})
    out.maps = _map_fields(spec, examples or {})
    for tool in spec.tools:
        found = _finder(tool, spec, names)
        if found is not None:
            out.finders.setdefault(found.collection, []).append(found)
    for found_list in _listers(spec, out.user):
        out.listers.setdefault(found_list.collection, []).append(found_list)
    finder_params = {(f.collection, p): f.tool for fs in out.finders.values() for f in fs
                     for p in f.params}  # fmt: skip
    for tool in spec.tools:  # search parameters: the user describes records by them too
        if tool_access(tool) != "read":
            continue
        for coll in spec.state_schema.collections:
            if _key_path(tool, spec, coll.name, coll.primary_key) is None:
                continue
            for param in tool.parameters.get("properties", {}):
                if param in names.get(coll.name, set()) - {coll.primary_key}:
                    finder_params.setdefault((coll.name, param), tool.name)
    for coll in spec.state_schema.collections:
        owned = any(a.references == out.user and out.user != coll.name for a in coll.attributes)
        for attr in coll.attributes:
            key = (coll.name, attr.name)
            if attr.name == coll.primary_key:
                held, why = _key_holding(out, coll.name, owned)
            elif key in finder_params:
                held, why = True, f"the user identifies a {singular(coll.name)} by it "
                why += f"({finder_params[key]} takes it)"
            elif attr.references:
                held = not out.internal_key(attr.references)
                why = f"a key of {attr.references} ({'held' if held else 'internal'})"
            elif coll.name == out.user and any(w in attr.name.lower() for w in _PERSONAL):
                held, why = True, "the user's own details"
            else:
                held, why = False, "a value the agent reads with the tools"
            out.holdings[key] = Holding(coll.name, attr.name, held, why)
    return out


def _listers(spec: EnvironmentSpec, user: str | None) -> Iterator[Lister]:
    """The read tools that take the user's key and need nothing else (optional filters
    aside) and return a list of records, one :class:`Lister` per key (other than the
    user's) those records carry."""
    ucoll = spec.state_schema.collection(user) if user else None
    if ucoll is None:
        return
    pk = ucoll.primary_key
    for tool in spec.tools:
        if tool_access(tool) != "read" or pk not in tool.param_names or set(tool.required) - {pk}:
            continue
        for leaf in output_leaves(tool, spec.state_schema):
            head, sep, rest = leaf.path.rpartition("[].")
            if (not leaf.entity or leaf.entity == user or not sep or "[]" in head
                    or rest != leaf.name):  # fmt: skip
                continue
            qualifier = tool_scope(tool, spec.state_schema).qualifier
            yield Lister(tool.name, leaf.entity, head, leaf.name, leaf.record_of, qualifier)


def _key_holding(out: Knowledge, coll: str, owned: bool) -> tuple[bool, str]:
    finder = out.finder(coll)
    if finder is not None:
        return False, f"internal: {finder.tool}({', '.join(finder.params)}) finds it"
    if coll == out.user and out.session_key():
        return False, (f"session: {out.session}, so the agent is given the signed-in user's "
                       "key as episode context; the user never says it")  # fmt: skip
    if coll == out.user:
        return True, ("the user's own account key: nothing else identifies the user, so "
                      "the user gives it (once)")  # fmt: skip
    lister = out.lister(coll)
    if lister is not None:
        return False, (f"internal: {lister.tool} lists the user's own records with it; a "
                       "task names one by a condition")  # fmt: skip
    if owned:
        return True, "a reference the user is handed for their own record (e.g. a receipt)"
    return True, "no tool finds it from other attributes: the user must give it"


__all__ = ["Finder", "Holding", "Knowledge", "Lister", "MapFields", "knowledge", "session_user"]
