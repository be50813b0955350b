"""A seeded generator of realistic state values from the state schema's attribute types.

Person-like values (names, emails, phones, addresses, dates, free text) come from Faker;
categories and numbers come from the attribute's domain (:mod:`autoforge.tasks.states.domain`: the
docs'
enums, the values and ranges the example data shows), else from the attribute names.
References point at generated records, every referenced record gets several referencing ones
(so "the customer's orders" is a list worth reasoning over), and nested values (an order's item
lines, an address) follow the record schemas that the tools' ``returns`` document, falling back
to the environment's example state.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

import networkx as nx

from autoforge.env import Attribute, CollectionSchema, EnvironmentSpec
from autoforge.lexicon import (
    IdShape,
    documented,
    entity_of,
    fitting,
    from_examples,
    from_keys,
    is_identifier_name,
    key_rules,
    owner_attribute,
    plain,
    record_collection,
    session_owner,
    sign_in,
    tool_scope,
)
from autoforge.tasks.blueprints.held import held_keys, rehold
from autoforge.tasks.states.domain import domains
from autoforge.tasks.states.values import PERSON_COLLECTIONS, value_for
from autoforge.tooldocs import ToolSpec

if TYPE_CHECKING:
    from autoforge.lexicon import ToolScope

#: The fewest records of each collection of users' records the signed-in user owns in S0.
_OWN_LEAST = 4


_TYPE_SCHEMA = {
    "integer": {"type": "integer"}, "number": {"type": "number"}, "boolean": {"type": "boolean"},
    "date": {"type": "string", "format": "date"},
    "datetime": {"type": "string", "format": "date-time"},
}  # fmt: skip


#: Most records a catalogue kept from the data may have (it is copied into every state).
_CATALOGUE_LIMIT = 200


class StateGenerator:
    """Generates whole states for an environment; one instance per environment, reused."""

    def __init__(
        self,
        spec: EnvironmentSpec,
        examples: dict[str, Any] | None = None,
        pool_size: int = 8,
        perturbations: int = 8,
        tools_source: str = "",
    ) -> None:
        self.spec = spec
        self.pool_size = pool_size
        self.perturbations = perturbations
        self._pool: dict[int, dict[str, Any]] = {}
        self.schema = spec.state_schema
        self.examples = examples or {}
        self.domains = domains(spec, self.examples, tools_source)
        scopes = [(t, tool_scope(t, self.schema)) for t in spec.tools]  # once, not per collection
        self.kinds = {
            c.name: k for c in self.schema.collections if (k := record_kinds(spec, c, scopes))
        }
        self.order = self._collection_order()
        self.nested = {
            (c.name, a.name): self._nested_schema(c, a)
            for c in self.schema.collections
            for a in c.attributes
            if a.type in ("object", "array")
        }
        self.kept = self._catalogues()
        self.shapes = {c.name: self._shape(c) for c in self.schema.collections}
        self.held = held_keys(self.schema, self.examples)
        self.valued = {c.name: self._value_shapes(c) for c in self.schema.collections}
        self._keyed: dict[int, tuple[dict[str, Any], list[tuple[str, str]]]] = {}
        #: nested values cut to keep a start state bounded, per attribute name
        self.cuts: Counter[str] = Counter()

    def _catalogues(self) -> set[str]:
        """Collections whose example records are kept as they are, keys included: those whose
        keys the examples' nested values mention where those values are copied from the
        examples (an order's ``items`` naming products and their variants). Generated records
        under new keys left such copied values pointing at nothing, so no exchange or return
        of an item could succeed."""
        copied = [(c.name, a.name) for c in self.schema.collections for a in c.attributes
                  if a.type in ("object", "array") and self.nested.get((c.name, a.name)) is None
                  and c.fixed is None and not a.references]  # fmt: skip
        texts: dict[str, str] = {}
        for holder, attr in copied:
            records = self.examples.get(holder)
            if isinstance(records, dict):
                texts[holder] = texts.get(holder, "") + json.dumps(
                    [r.get(attr) for r in list(records.values())[:200] if isinstance(r, dict)]
                )
        kept: set[str] = set()
        for coll in self.schema.collections:
            records = self.examples.get(coll.name)
            if coll.fixed is not None or not isinstance(records, dict) or not records:
                continue
            if len(records) > _CATALOGUE_LIMIT:  # copied into every state: keep states small
                continue
            keys = [json.dumps(str(k)) for k in records]
            if any(any(k in text for k in keys) for c, text in texts.items() if c != coll.name):
                kept.add(coll.name)
        return kept

    def _collection_order(self) -> list[CollectionSchema]:
        graph = nx.DiGraph()
        for coll in self.schema.collections:
            graph.add_node(coll.name)
            for attr in coll.attributes:
                if attr.references and attr.references != coll.name and attr.type != "array":
                    graph.add_edge(attr.references, coll.name)  # lists of keys: filled after
        names = [c.name for c in self.schema.collections]
        try:
            order = list(nx.lexicographical_topological_sort(graph, key=names.index))
        except nx.NetworkXUnfeasible:
            order = names
        return [c for n in order if (c := self.schema.collection(n)) is not None]

    def _nested_schema(self, coll: CollectionSchema, attr: Attribute) -> dict[str, Any] | None:
        """The JSON Schema of an object/array attribute, as some tool's ``returns`` shows it."""
        for tool in self.spec.tools:
            found = _find_record_prop(tool.returns or {}, coll.name, attr.name, self)
            if found is not None:
                return found
        return None

    def sizes(self, rng: random.Random) -> dict[str, int]:
        """How many records per collection: 8-12 roots, 2-3 children per referenced record,
        as many again per further kind of record (:func:`record_kinds`: each kind of a user's
        orders is a list to choose from)."""
        out: dict[str, int] = {}
        for coll in self.order:
            parents = [out[a.references] for a in coll.attributes
                       if a.references in out and a.references != coll.name]  # fmt: skip
            size = min(30, max(parents) * rng.randint(2, 3)) if parents else rng.randint(8, 12)
            out[coll.name] = size * max(1, len(self.kinds.get(coll.name, {})))
        return out

    def generate(self, rng: random.Random) -> dict[str, dict[str, Any]]:
        """A fresh state: ``state[collection][key] = record``."""
        state: dict[str, dict[str, Any]] = {}
        sizes = self.sizes(rng)
        for coll in self.order:
            if coll.fixed is not None:  # documented constants: as the docs state them
                state[coll.name] = copy_json(coll.fixed)
                continue
            if coll.name in self.kept:  # a catalogue the copied nested values point into
                state[coll.name] = copy_json(self.examples[coll.name])
                continue
            state[coll.name] = self._records(coll, sizes[coll.name], state, rng)
        for coll in self.schema.collections:
            state.setdefault(coll.name, {})
        self._dangling(state, rng)
        for coll in self.order:
            for attr in coll.attributes:
                if attr.type == "array" and attr.references and coll.fixed is None:
                    self._key_lists(coll, attr, state, rng)
        self._sign_in(state, rng)
        rehold(state, self.held, rng)  # the owners _sign_in gave records to hold their keys
        return state

    def _dangling(self, state: dict[str, Any], rng: random.Random) -> None:
        """Point each single reference that names no record of its target (one generated
        before its target: a cycle of references, ``users.book_id`` and ``books.user_id``, or
        a collection referencing itself) at a record of the target, spread evenly; in place.

        Why: such a reference was drawn as a word ("he" for a user's ``shop_id``), an id of no
        shape the keys have and a record no tool can find."""
        for coll in self.order:
            records = state.get(coll.name)
            if coll.fixed is not None or coll.name in self.kept or not records:
                continue
            for attr in coll.attributes:
                target = state.get(attr.references or "")
                if attr.type == "array" or not target or attr.name == coll.primary_key:
                    continue
                wrong = [k for k, r in records.items() if _names_none(r.get(attr.name), target)]
                for key, ref in zip(wrong, _spread(list(target), len(wrong), rng), strict=True):
                    records[key] = {**records[key], attr.name: ref}  # a changed copy

    def _sign_in(self, state: dict[str, Any], rng: random.Random) -> None:
        """Where the state says who is signed in (:mod:`autoforge.lexicon.session`): one user
        of
        the state, at random, who then owns a share of each collection of users' records
        (:meth:`_give_records`)."""
        owner = session_owner(self.schema)
        users = sorted(state.get(owner[0]) or {}) if owner is not None else []
        if owner is not None and users:
            me = rng.choice(users)
            sign_in(state, self.schema, me)
            self._give_records(state, owner[0], me, rng)

    def _give_records(self, state: dict[str, Any], user: str, me: str, rng: random.Random) -> None:
        """Make ``me`` the owner of at least a third (and at least :data:`_OWN_LEAST`) of the
        records of every collection whose records belong to a user, in place, and keep the
        user records' key lists of them consistent.

        Why: writes that act for the signed-in user may change only that user's records, and
        a task picks its target among them by a condition ("my cheapest order"); with owners
        drawn uniformly the signed-in user held about two records per collection, so most
        such selections had nothing to choose from."""
        ucoll = self.schema.collection(user)
        if ucoll is None:
            return
        for coll in self.order:
            by = owner_attribute(coll, user) if coll.name != user else None
            records = state.get(coll.name) or {}
            if by is None or coll.fixed is not None or not records:
                continue
            want = min(len(records), max(_OWN_LEAST, len(records) // 3))
            mine = sum(1 for r in records.values() if r.get(by) == me)
            others = sorted(k for k, r in records.items() if r.get(by) != me)
            for key in rng.sample(others, max(0, want - mine)):
                records[key] = {**records[key], by: me}  # a changed copy, not in place
            for attr in ucoll.attributes:
                if attr.type == "array" and attr.references == coll.name:
                    self._key_lists(ucoll, attr, state, rng)

    def _key_lists(
        self, coll: CollectionSchema, attr: Attribute, state: dict[str, Any], rng: random.Random
    ) -> None:
        """Fill a list-of-keys attribute (``users.orders``) consistently with the references
        back (the orders whose ``user_id`` is this user), else with 1-3 random keys.

        Why: a list attribute given one parent key as a plain string (or keys of records
        generated later left dangling) made every "choose among the user's orders" step fail.
        """
        target = self.schema.collection(attr.references or "")
        others = list(state.get(attr.references or "", {}))
        back = [a.name for a in target.attributes if a.references == coll.name] if target else []
        owned: dict[str, list[str]] = {}
        if back:
            for key, record in state.get(attr.references or "", {}).items():
                owner = record.get(back[0])
                if isinstance(owner, str):
                    owned.setdefault(owner, []).append(key)
        records = state[coll.name]
        for key, record in list(records.items()):  # changed copies, not in place
            if back:
                records[key] = {**record, attr.name: owned.get(key, [])}
            else:
                keys = rng.sample(others, min(len(others), rng.randint(1, 3)))
                records[key] = {**record, attr.name: keys}

    def base(self, index: int) -> dict[str, Any]:
        """The ``index``-th base population (generated once from its own seed, then cached)."""
        if index not in self._pool:
            self._pool[index] = self.generate(random.Random(f"base-population:{index}"))
        return self._pool[index]

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """A state for one instantiation attempt: a perturbed copy of a random base population.

        Generating a state costs far more than copying one, so attempts draw from a pool of
        ``pool_size`` base populations and change ``perturbations`` scalar attributes (an
        enum, a number, a flag) of random records, which also breaks ties and degenerate
        filters that made an earlier attempt fail. The state's collections are new, its
        records the base's: a record is never changed in place (one that changes is replaced
        by a changed copy, here and in S0 repairs), so copying them all was wasted.
        """
        base = self.base(rng.randrange(self.pool_size))
        state = {k: dict(v) if isinstance(v, dict) else copy_json(v) for k, v in base.items()}
        self.perturb(state, rng, self.perturbations)
        self._sign_in(state, rng)
        rehold(state, self.held, rng)  # the owners _sign_in gave records to hold their keys
        return state

    def perturb(self, state: dict[str, Any], rng: random.Random, changes: int) -> None:
        """Give ``changes`` scalar attributes of random records new random values, in place."""
        options = [
            (coll, attr)
            for coll in self.order
            for attr in coll.attributes
            if (
                attr.type in ("enum", "integer", "number", "boolean")
                or (coll.name, attr.name) in self.domains.values
            )
            and attr.name != coll.primary_key
            and not attr.references
            and coll.fixed is None
            and state.get(coll.name)
        ]
        for _ in range(changes if options else 0):
            coll, attr = rng.choice(options)
            records = state[coll.name]
            key = rng.choice(list(records))
            record = records[key] = dict(records[key])  # a changed copy, not in place
            record[attr.name] = self._attribute(coll, attr, record, state, rng, False)

    def _records(
        self, coll: CollectionSchema, n: int, state: dict[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        shape = self.shapes[coll.name]
        numbers = shape.numbers(n, rng)
        keys = [shape.key(number) for number in numbers]
        valued = {name: (s, s.numbers(n, rng)) for name, s in self.valued[coll.name].items()}
        parents = {
            a.name: _spread(list(state.get(a.references, {})), n, rng)
            for a in coll.attributes
            if a.references and a.references in state and a.references != coll.name
            and a.type != "array"
        }  # fmt: skip
        person = coll.name in PERSON_COLLECTIONS or any(
            coll.attribute(x) for x in ("email", "phone")
        )
        records: dict[str, Any] = {}
        seen: dict[str, set[Any]] = {}
        idents = {a.name for a in coll.attributes if is_identifier_name(a.name)}
        sources = self._sources(coll, n, rng)
        for i, key in enumerate(keys):
            record: dict[str, Any] = {}
            # the example record this one's copied values come from
            source: dict[str, Any] = dict(sources[i % len(sources)]) if sources else {}
            for attr in coll.attributes:
                if attr.name == coll.primary_key:
                    record[attr.name] = coll.key_value(key)
                elif attr.name in parents:
                    pool = parents[attr.name]
                    held = None if attr.nullable and rng.random() < 0.6 else pool[i]
                    record[attr.name] = self._held_key(attr, held)
                else:
                    record[attr.name] = self._attribute(
                        coll, attr, record, state, rng, person, source
                    )
                    if attr.name in idents and isinstance(record[attr.name], str):
                        record[attr.name] = _unique(
                            record[attr.name], seen.setdefault(attr.name, set())
                        )
            for name, (value_shape, drawn) in valued.items():  # after the fields they spell
                if isinstance(record.get(name), str):
                    record[name] = value_shape.key(drawn[i], record)
            if shape.fields:  # a stem the record's own fields spell
                key = shape.key(numbers[i], record)
                if coll.primary_key in record:
                    record[coll.primary_key] = coll.key_value(key)
            records[key] = record
        self._one_kind(coll, records, rng)
        return records

    def _sources(self, coll: CollectionSchema, n: int, rng: random.Random) -> list[Any]:
        """Distinct example records (as many as there are, up to ``n``) that ``n`` records'
        copied values come from, one each, where ``coll`` copies values from the examples.
        Why: two records copying one example held the same nested ids (a payment method of
        two users)."""
        copied = [a.name for a in coll.attributes if a.type in ("object", "array")
                  and self.nested.get((coll.name, a.name)) is None]  # fmt: skip
        records = self.examples.get(coll.name)
        if not copied or not isinstance(records, dict):
            return []
        pool = [
            r for r in records.values() if isinstance(r, dict) and any(r.get(a) for a in copied)
        ]
        return rng.sample(pool, min(n, len(pool)))

    def _one_kind(
        self, coll: CollectionSchema, records: dict[str, Any], rng: random.Random
    ) -> None:
        """Give each record of a collection whose tools treat it as several kinds (a hotel
        order, a flight order: :func:`record_kinds`) one kind, spread evenly: the references
        of the other kinds are cleared, in place."""
        kinds = self.kinds.get(coll.name)
        if not kinds:
            return
        spread = _spread(sorted(kinds), len(records), rng)
        for record, kind in zip(records.values(), spread, strict=True):
            for name in kinds[kind or ""]:
                record[name] = None

    def _held_key(self, attr: Attribute, key: str | None) -> Any:
        """The value a reference ``attr`` holds for the state key ``key`` of the collection it
        names: the integer where that collection is integer-keyed."""
        target = self.spec.state_schema.collection(attr.references or "")
        return target.key_value(key) if target is not None and key is not None else key

    def _shape(self, coll: CollectionSchema) -> IdShape:
        """The shape of ``coll``'s keys (:mod:`autoforge.lexicon.idshape`): the one the data's
        keys agree on, else the first example's stem with the default numbers; without data,
        the docs' examples of the key, else :func:`~autoforge.lexicon.idshape.plain`."""
        records = self.examples.get(coll.name)
        if coll.integer_keyed and not (isinstance(records, dict) and records):
            said = from_examples(documented(self.spec, coll))  # plain numbers, no zero padding
            return IdShape("", said.width if said and not (said.stem or said.suffix) else None)
        if isinstance(records, dict) and records:
            shape = from_keys(records)
            if shape is not None and (shape.width is not None or shape.fields):
                return shape
            return IdShape(re.sub(r"\d+$", "", str(next(iter(records)))))
        shape = from_examples(documented(self.spec, coll)) or plain(coll.name)
        return fitting(shape, key_rules(self.spec, coll))

    def _value_shapes(self, coll: CollectionSchema) -> dict[str, IdShape]:
        """The shapes of ``coll``'s other identifier attributes (an ``email``, a ``sku``) that
        the data's values agree on (:func:`~autoforge.lexicon.idshape.from_keys` over value ->
        record): ``noah.brown7922@example.com`` spelled from the record's own name."""
        records = self.examples.get(coll.name)
        if not isinstance(records, dict) or coll.fixed is not None:
            return {}
        out: dict[str, IdShape] = {}
        for attr in coll.attributes:
            if (attr.name == coll.primary_key or attr.references or attr.enum
                    or not is_identifier_name(attr.name)
                    or (coll.name, attr.name) in self.domains.values):  # fmt: skip
                continue
            by_value = {r[attr.name]: r for r in records.values()
                        if isinstance(r, dict) and isinstance(r.get(attr.name), str)}  # fmt: skip
            shape = from_keys(by_value) if len(by_value) >= 4 else None
            if shape is not None and (shape.width is not None or shape.fields):
                out[attr.name] = shape
        return out

    def _attribute(
        self,
        coll: CollectionSchema,
        attr: Attribute,
        record: dict[str, Any],
        state: dict[str, Any],
        rng: random.Random,
        person: bool,
        source: dict[str, Any] | None = None,
    ) -> Any:
        if attr.nullable and attr.type != "enum" and rng.random() < 0.3:
            return None
        if attr.name == "email" and isinstance(record.get("name"), str) and " " in record["name"]:
            first, last = record["name"].lower().split(" ", 1)
            return f"{first}.{last.replace(' ', '')}@example.com"
        if attr.type in ("object", "array"):
            nested = self.nested.get((coll.name, attr.name))
            if nested is not None:
                budget = [MAX_NESTED_NODES]
                return self._nested(attr.name, nested, state, rng, person, 0, budget)
            return self._from_example(coll, attr, rng, source)
        observed = self.domains.values.get((coll.name, attr.name))
        if observed:
            if attr.nullable and attr.type == "enum" and rng.random() < 0.5:
                return None
            if (coll.name, attr.name) in self.domains.unset:  # before any transition wrote it
                return rng.choice([None, *observed])
            return rng.choice(observed)
        span = self.domains.ranges.get((coll.name, attr.name))
        if span is not None:
            low, high, integer = span
            return rng.randint(int(low), int(high)) if integer else round(rng.uniform(low, high), 2)
        schema = _TYPE_SCHEMA.get(attr.type, {"type": "string"})
        return value_for(attr.name, schema, rng, person)

    def _nested(
        self,
        name: str,
        schema: dict[str, Any],
        state: dict[str, Any],
        rng: random.Random,
        person: bool,
        depth: int = 0,
        budget: list[int] | None = None,
    ) -> Any:
        """A nested value from its schema; entity keys point at generated records. Bounded:
        below :data:`MAX_NESTED_DEPTH` levels, or past :data:`MAX_NESTED_NODES` values in one
        attribute (``budget``), a list or object is cut to an empty one and counted in
        :attr:`cuts` (recursive schemas would otherwise nest without end)."""
        budget = budget if budget is not None else [MAX_NESTED_NODES]
        kind = schema.get("type")
        budget[0] -= 1
        composite = kind in ("array", "object") or "properties" in schema
        if composite and (depth >= MAX_NESTED_DEPTH or budget[0] < 0):
            self.cuts[name] += 1
            return [] if kind == "array" else {}
        if kind == "array":
            items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
            count = rng.randint(2, 4)
            return [
                self._nested(name, items or {}, state, rng, person, depth + 1, budget)
                for _ in range(count)
            ]
        if kind == "object" or "properties" in schema:
            props = schema.get("properties", {})
            value = {
                k: self._nested(k, v, state, rng, person, depth + 1, budget)
                for k, v in props.items()
            }
            for key, held in self._key_fields(props):
                if state.get(held) and isinstance(value.get(key), str):
                    ref_key = rng.choice(list(state[held]))
                    ref = state[held][ref_key]
                    value[key] = ref_key
                    value.update({k: copy.deepcopy(ref[k]) for k in props if k in ref and k != key})
            return value
        entity = entity_of(name, None, self.schema)
        if entity and state.get(entity):
            return rng.choice(list(state[entity]))
        return value_for(name, schema, rng, person)

    def _key_fields(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        """The properties of an object schema that hold an entity's key, with that entity,
        in property order (worked out once per schema: every nested value of every state
        asks)."""
        entry = self._keyed.get(id(props))
        if entry is None or entry[0] is not props:
            inner = record_collection(props, self.schema)
            found: list[tuple[str, str]] = []
            for key in props:
                entity = entity_of(key, inner, self.schema)
                if entity:
                    found.append((key, entity))
            entry = self._keyed[id(props)] = (props, found)
        return entry[1]

    def _from_example(
        self,
        coll: CollectionSchema,
        attr: Attribute,
        rng: random.Random,
        source: dict[str, Any] | None = None,
    ) -> Any:
        """A copy of ``attr``'s value in a random example record; the record's other copied
        values come from that same example (``source``, filled on the first copy) where it has
        them. Why: an order's items, fulfilments and payments copied from three different
        orders fulfilled items the order does not hold."""
        if source and isinstance(source.get(attr.name), list | dict):  # empty ones too
            return copy.deepcopy(source[attr.name])
        records = [r for r in self.examples.get(coll.name, {}).values()
                   if isinstance(r, dict) and r.get(attr.name)]  # fmt: skip
        if not records:
            return [] if attr.type == "array" else {}
        chosen = rng.choice(records)
        if source is not None and not source:
            source.update(chosen)
        return copy.deepcopy(chosen[attr.name])


def record_kinds(
    spec: EnvironmentSpec,
    coll: CollectionSchema,
    scopes: list[tuple[ToolSpec, ToolScope]] | None = None,
) -> dict[str, frozenset[str]]:
    """The kinds of a collection's records, when its tools qualify them by at least two
    references (``pay_hotel_order`` and ``pay_flight_order`` act on an order whose
    ``hotel_id`` resp. ``flight_id`` is set: :attr:`autoforge.env.ToolScope.qualifier`), as
    ``{qualifier: the references a record of that kind leaves empty}``; else ``{}``.

    A kind's references are its qualifier and the references the tools of that kind take as
    parameters (a hotel order's ``room_id``); a reference every kind takes (the owner's
    ``user_id``) belongs to all of them. Why: a record carrying every qualifier at once is
    a hotel, flight and train order in one, which no documented tool ever makes.
    """
    if scopes is None:  # each tool's scope (:func:`autoforge.env.tool_scope`), when not given
        scopes = [(t, tool_scope(t, spec.state_schema)) for t in spec.tools]
    scopes = [(t, s) for t, s in scopes if s.collection == coll.name]
    qualifiers = sorted({s.qualifier for _, s in scopes if s.qualifier})
    if len(qualifiers) < 2:
        return {}
    refs = {a.name for a in coll.attributes if a.references and a.name != coll.primary_key}
    groups: dict[str, set[str]] = {q: {q} for q in qualifiers}
    for tool, scope in scopes:
        for q in qualifiers:
            if scope.qualifier == q or q in tool.param_names:
                groups[q] |= refs & set(tool.param_names)
    shared = set.intersection(*groups.values())
    specific = set.union(*groups.values()) - shared
    return {q: frozenset(specific - group) for q, group in groups.items()}


#: levels of nesting a generated attribute value may have (a list or object deeper is cut)
MAX_NESTED_DEPTH = 6
#: values one generated attribute may hold in all (lists and objects past it are cut)
MAX_NESTED_NODES = 500


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data (pickle round trip: several times faster than deepcopy)."""
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def _spread(keys: list[str], n: int, rng: random.Random) -> list[str | None]:
    """``n`` parent keys so that every parent is used about equally often, in random order."""
    if not keys:
        return [None] * n
    pool = [keys[i % len(keys)] for i in range(n)]
    rng.shuffle(pool)
    return list(pool)


def _names_none(value: Any, target: dict[str, Any]) -> bool:
    """Whether a single reference's ``value`` is set and names no record of ``target``."""
    return isinstance(value, str | int) and not isinstance(value, bool) and value not in target


def _unique(value: str, seen: set[Any]) -> str:
    candidate, n = value, 2
    while candidate in seen:
        stem, at, domain = value.partition("@")
        candidate = f"{stem}{n}{at}{domain}"
        n += 1
    seen.add(candidate)
    return candidate


def _find_record_prop(
    node: dict[str, Any], coll: str, prop: str, gen: StateGenerator
) -> dict[str, Any] | None:
    """Search a returns schema for a record of ``coll`` and return its ``prop`` schema."""
    if not isinstance(node, dict):
        return None
    props = node.get("properties")
    if isinstance(props, dict):
        if record_collection(props, gen.schema) == coll and isinstance(props.get(prop), dict):
            return dict(props[prop])
        for sub in props.values():
            found = _find_record_prop(sub, coll, prop, gen)
            if found is not None:
                return found
    if isinstance(node.get("items"), dict):
        return _find_record_prop(node["items"], coll, prop, gen)
    return None
