"""Fact choice: the value each fact of a blueprint takes, chosen when a node first needs it.

:class:`FactChooser` picks values consistent with what is already in play (the order of *this*
customer), an attribute of such a record (its email), a filter value that selects exactly one
element, a threshold near the compared value, an enum value different from the current one,
and records a stated guard admits (:mod:`autoforge.tasks.gold.plausible`). Instantiation
(:mod:`autoforge.tasks.gold.instantiate`) executes the blueprint and asks it for each fact.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from autoforge.env import EnvironmentSpec, EpisodeLike, StateSchema
from autoforge.lexicon import (
    is_identifier_name,
    new_key_param,
    output_leaves,
    param_leaves,
    scope_params,
    signed_in,
    singular,
    tool_access,
    tool_scope,
    user_collection,
)
from autoforge.tasks.blueprints.blueprint import (
    FactSpec,
    ReasonNode,
)
from autoforge.tasks.blueprints.reasoning import ReasoningError, as_items, get_path
from autoforge.tasks.blueprints.related import (
    column_values,
    map_keys,
    observed_category,
    paired_values,
    replacements,
    shaped_values,
)
from autoforge.tasks.gold.alike import fresh_like
from autoforge.tasks.gold.failures import GoldFailure
from autoforge.tasks.gold.plausible import Breach, Guard, breach
from autoforge.tasks.gold.preconditions import Preconditions
from autoforge.tasks.states.domain import enum_from_text
from autoforge.tasks.states.repair import referenced, selective_fixes
from autoforge.tasks.states.values import value_for
from autoforge.tooldocs import ToolSpec


def values_at(value: Any, segs: list[str]) -> list[Any]:
    """All values at a schema path (``[]`` fans out over list elements)."""
    if not segs:
        return [value]
    head, rest = segs[0], segs[1:]
    if head == "[]":
        items = value if isinstance(value, list) else []
        return [v for item in items for v in values_at(item, rest)]
    if isinstance(value, dict) and head in value:
        return values_at(value[head], rest)
    return []


#: ``(collection, key) -> (record, its JSON, the JSON of its nested attributes)``: a record
#: equal to the cached one (the same record of a base population, in another S0 or an
#: episode's copy) reuses its JSON. Records are never changed in place once cached (S0
#: repairs copy the record first), so an equal record has the same JSON.
JsonCache = dict[tuple[str, str], tuple[dict[str, Any], str, str]]
_TEXTS: JsonCache = {}
_TEXTS_LIMIT = 50_000


class _LazyState(Mapping[str, Any]):
    """An episode's current state as plain data, each collection read when first asked:
    shared with the episode where it can ``peek`` (read-only), else copied from ``state``."""

    def __init__(self, episode: EpisodeLike) -> None:
        self._episode = episode
        self._copied: dict[str, Any] = {}
        self._peek: Callable[[str], Any] | None = getattr(episode, "peek", None)

    def __getitem__(self, name: str) -> Any:
        if name not in self._copied:
            value = self._episode.state[name] if self._peek is None else self._peek(name)
            plain = self._peek is not None or not isinstance(value, Mapping)
            self._copied[name] = value if plain else dict(value.items())
        return self._copied[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._episode.state)

    def __len__(self) -> int:
        return len(self._episode.state)


@dataclass
class FactChooser:
    """Chooses fact values when first needed, consistently with the entities already in play.

    ``base_state`` is the episode's start state as plain data, used until the first write
    (after that, one snapshot per write).
    """

    spec: EnvironmentSpec
    episode: EpisodeLike
    rng: random.Random
    excluded: dict[str, set[str]] = field(default_factory=dict)
    base_state: dict[str, Any] | None = None
    context: dict[str, set[str]] = field(default_factory=dict)
    texts: JsonCache = field(default_factory=lambda: _TEXTS)
    guards: Mapping[str, list[Guard]] = field(default_factory=dict)  # per tool
    guarded: Mapping[str, list[Guard]] = field(default_factory=dict)  # per fact
    steps: Mapping[str, list[Guard]] = field(default_factory=dict)  # per reasoning node
    #: per fact: the attribute of its record that must hold the signed-in user's key (the
    #: record a write changes for that user: :func:`~autoforge.tasks.gold.plausible.owned_facts`)
    owned: Mapping[str, str] = field(default_factory=dict)
    #: the documented preconditions of calls (the seam: "is this call valid?") and, per fact,
    #: the ``(tool, argument)`` of the ruled calls whose record it names
    pre: Preconditions | None = None
    pre_facts: Mapping[str, list[tuple[str, str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._plain: Mapping[str, Any] | None = self.base_state
        self._version = 0
        self._near: tuple[int, str] = (-1, "")
        self._near_state: Mapping[str, Any] | None = None  # the state _near_parts were read from
        self._partial: tuple[str, Mapping[str, Any]] = ("", {})  # the call being resolved
        self._param = ""  # the argument of that call being resolved
        self._follows: dict[str, frozenset[str]] = {}  # per tool: see follows_key
        self._near_done: dict[str, set[str]] = {}  # entities whose records are in the parts
        self._near_parts: list[str] = []
        self._near_rows: dict[str, list[tuple[dict[str, Any], str, str]]] = {}  # see _rows
        self._seen: dict[int, tuple[dict[str, Any], str, str]] = {}  # this run's records
        # references out of / into each collection: [(attribute, collection)]
        self._refs_out: dict[str, list[tuple[str, str]]] = {}
        self._refs_in: dict[str, list[tuple[str, str]]] = {}
        self._nested: dict[str, list[str]] = {
            c.name: [a.name for a in c.attributes if a.type in ("object", "array")]
            for c in self.spec.state_schema.collections
        }
        for coll in self.spec.state_schema.collections:
            for attr in coll.attributes:
                if attr.references:
                    self._refs_out.setdefault(coll.name, []).append((attr.name, attr.references))
                    self._refs_in.setdefault(attr.references, []).append((coll.name, attr.name))

    def plain(self) -> Mapping[str, Any]:
        """The episode's current state as plain data (until the next write; read-only).

        After a write, collections are copied out of the episode one at a time, when first
        read: fact choice usually looks at one or two of them, not the whole state.
        """
        if self._plain is None:
            self._plain = _LazyState(self.episode)
        return self._plain

    def _in_play(self, collection: str, key: str) -> None:
        keys = self.context.setdefault(collection, set())
        if key not in keys:
            keys.add(key)
            self._version += 1

    def note_args(self, tool: str, args: dict[str, Any]) -> None:
        """Remember the entity keys in (possibly partial) arguments of a call."""
        if not args:
            return
        for entity, segments in _entity_fields(self.spec.tool(tool), self.spec.state_schema)[0]:
            for key in values_at(args, segments):
                if isinstance(key, str):
                    self._in_play(entity, key)

    def note_entities(self, tool: str, args: dict[str, Any], result: Any, wrote: bool) -> None:
        """Remember the entity keys a call used and the direct ones it returned."""
        if wrote:
            self._plain = None
            self._version += 1
        self.note_args(tool, args)
        if isinstance(result, dict):
            for entity, path in _entity_fields(self.spec.tool(tool), self.spec.state_schema)[1]:
                value = result.get(path)
                if isinstance(value, str):
                    self._in_play(entity, value)

    def _score(self, collection: str, key: str, record: dict[str, Any], near: str) -> int:
        """How well a record fits the entities in play (higher is better).

        +1/-1 for each reference of the record that does/does not point at an entity in play;
        +1 for each entity in play that references the record; +1 when the record's key is
        mentioned inside a record that references an entity in play (a book in one of *this*
        customer's orders).
        """
        score = 1 if near and json.dumps(key) in near else 0
        for attr, target in self._refs_out.get(collection, ()):
            keys = self.context.get(target)
            if keys:
                value = record.get(attr)
                held = value if isinstance(value, list) else [value]
                score += 1 if any(isinstance(v, str) and v in keys for v in held) else -1
        state = self.plain()
        for other, attr in self._refs_in.get(collection, ()):
            for k in self.context.get(other, ()):
                if (state[other].get(k) or {}).get(attr) == key:
                    score += 1
        return score

    def _mentioned_near(self) -> str:
        """JSON text of the records that reference or mention an entity in play (memoised).

        A key is "near" when it appears quoted in it (``"B-201"``): one C-speed substring test
        per candidate instead of walking nested values. Records that mention an entity in play
        in nested values count too (an order whose item lines hold the book in play). Built
        incrementally: each entity's records are looked up once per state (until a write).
        """
        if self._near[0] == self._version:
            return self._near[1]
        state = self.plain()
        if self._near_state is not state:
            self._near_state, self._near_done, self._near_parts = state, {}, []
            self._near_rows = {}
        for target, keys in self.context.items():
            done = self._near_done.setdefault(target, set())
            for key in sorted(keys - done):
                done.add(key)
                self._near_parts.extend(self._mentioning(state, target, key))
        joined = "\n".join(self._near_parts)
        self._near = (self._version, joined)
        return joined

    def _mentioning(self, state: Mapping[str, Any], target: str, key: str) -> list[str]:
        """JSON of the records that reference ``key`` of ``target`` or hold it in a nested
        value."""
        quoted = json.dumps(key)
        found: list[str] = []
        for coll, nested in self._nested.items():
            attrs = [a for a, t in self._refs_out.get(coll, ()) if t == target]
            if not nested:
                for rkey, record in (state.get(coll) or {}).items() if attrs else ():
                    if any(record.get(a) == key for a in attrs):
                        found.append(self._json(coll, rkey, record, nested)[0])
                continue
            for record, text, inner in self._rows(state, coll, nested):
                if (attrs and any(record.get(a) == key for a in attrs)) or quoted in inner:
                    found.append(text)
        return found

    def _rows(
        self, state: Mapping[str, Any], coll: str, nested: list[str]
    ) -> list[tuple[dict[str, Any], str, str]]:
        """``(record, its JSON, its nested attributes' JSON)`` of each record of ``coll``, for
        the state the near parts are read from (once per state: each entity in play asks)."""
        rows = self._near_rows.get(coll)
        if rows is None:
            rows = self._near_rows[coll] = [
                (record, *self._json(coll, rkey, record, nested))
                for rkey, record in (state.get(coll) or {}).items()
            ]
        return rows

    def _json(
        self, coll: str, key: str, record: dict[str, Any], nested: list[str]
    ) -> tuple[str, str]:
        """(``record`` as JSON, its ``nested`` attributes as JSON), cached (:data:`JsonCache`;
        records seen in this run by identity, others by equality with the cached record)."""
        entry = self._seen.get(id(record))
        if entry is not None and entry[0] is record:
            return entry[1], entry[2]
        entry = self.texts.get((coll, key))
        if entry is None or (entry[0] is not record and entry[0] != record):
            inner = json.dumps([record.get(a) for a in nested]) if nested else ""
            entry = (record, json.dumps(record), inner)
            if len(self.texts) >= _TEXTS_LIMIT:
                self.texts.clear()
            self.texts[(coll, key)] = entry
        self._seen[id(record)] = (record, entry[1], entry[2])
        return entry[1], entry[2]

    def record(self, fact: FactSpec, unique: bool = False) -> tuple[str, dict[str, Any]]:
        """A record for ``fact`` most consistent with the context (ties: at random).

        Records whose key or attribute value an earlier failed run blamed are skipped, and so
        are other users' records where a write acts for the signed-in user (``owned``). For an
        attribute fact (a genre to search by), values that several records share are preferred,
        so that a search returns a list worth reasoning over. ``unique``: only records whose
        attribute value no other record shares (a reference must name one record).
        """
        collection = fact.collection or ""
        records = self.plain().get(collection) or {}
        me = signed_in(self.plain(), self.spec.state_schema)
        if me is not None and collection == user_collection(self.spec.state_schema):
            records = {k: r for k, r in records.items() if k == me}  # the user is who is in
        records = self._in_named_scope(collection, records)
        by = self.owned.get(fact.name)
        if me is not None and by is not None:  # a write for the user: one of their records
            records = {k: r for k, r in records.items() if str(r.get(by)) == me}
        banned = self.excluded.get(fact.name, set())
        attr = fact.attribute if fact.role in ("attribute", "reference") else None
        values = {k: attribute_value(r, attr) if attr else k for k, r in records.items()}
        texts = {k: repr(v) for k, v in values.items()}  # how a value is banned and counted
        shared: dict[str, int] = {}
        if attr:
            for text in texts.values():
                shared[text] = shared.get(text, 0) + 1
        near = self._mentioned_near()
        bonus = -1 if unique else 1
        scored = [
            (self._score(collection, k, r, near) + bonus * (shared.get(texts[k], 0) > 1), k)
            for k, r in records.items()
            if texts[k] not in banned
            and not (unique and (values[k] is None or shared.get(texts[k], 0) > 1))
        ]
        if attr and not unique and fact.role == "attribute":
            # a value several records share, when there is one: a search by it lists records
            # worth choosing among (a unique value left "the cheapest of one" degenerate)
            several = [(sc, k) for sc, k in scored if shared.get(texts[k], 0) > 1]
            if several or max(shared.values(), default=0) > 1:
                scored = several  # shared values exist: those left, or none (fail early)
        if not scored:
            raise GoldFailure("no_fact_value", f"no usable record of {collection} for {fact.name}")
        guards = [g for g in self.guarded.get(fact.name, ()) if g.collection == collection]
        admitted = [(s, k) for s, k in scored if all(g.admits(records[k]) for g in guards)]
        scored = admitted or scored  # records a stated rule refuses: only when nothing else
        valid = self._valid_keys(fact, collection)
        if valid is not None:
            scored = [(s, k) for s, k in scored if k in valid] or scored
        best = max(s for s, _ in scored)
        key = self.rng.choice(sorted(k for s, k in scored if s == best))
        self._in_play(collection, key)
        return key, records[key]

    def _valid_keys(self, fact: FactSpec, collection: str) -> set[str] | None:
        """The keys the documented preconditions of the calls ``fact`` feeds allow (None:
        no rule narrows them); the call being resolved reads its arguments chosen so far."""
        if self.pre is None:
            return None
        out: set[str] | None = None
        tool_now, partial = self._partial
        for tool, param in self.pre_facts.get(fact.name, ()):
            given = partial if tool == tool_now else {}
            keys = self.pre.keys(tool, param, given, collection, self._reading())
            if keys is not None:
                out = keys if out is None else out & keys
        return out

    def follows_key(self, tool: str) -> frozenset[str]:
        """The parameters of ``tool`` that must hold the values of the record its key names:
        the scopes that record lives in and, for a read or a delete, the parent it references
        (:func:`~autoforge.lexicon.scope_params`); the tool refuses any other value as not
        found. Instantiation resolves them after the key (:meth:`for_call` copies them)."""
        found = self._follows.get(tool)
        if found is None:
            spec, schema = self.spec.tool(tool), self.spec.state_schema
            scope = tool_scope(spec, schema)
            coll = schema.collection(scope.collection) if scope.collection else None
            keyed = coll is not None and scope.key_param is not None and scope.cls != "create"
            params = scope_params(spec, coll, scope.key_param) if keyed and coll else []
            found = self._follows[tool] = frozenset(params)
        return found

    def _of_named_record(self, tool: str, param: str, partial: Mapping[str, Any]) -> Any:
        """The value ``param`` must take: that of the record the call's key already names
        (:meth:`follows_key`); ``_MISSING`` when the parameter is free or no record is named.
        Why: a scope drawn on its own (another record's resource group, a random word) made
        every such call fail as "not found in <scope>"."""
        if param not in self.follows_key(tool):
            return _MISSING
        scope = tool_scope(self.spec.tool(tool), self.spec.state_schema)
        key = partial.get(scope.key_param or "")
        records = self.plain().get(scope.collection or "") or {}
        record = records.get(str(key)) if key is not None else None
        if not isinstance(record, dict) or record.get(param) is None:
            return _MISSING
        return copy.deepcopy(record[param])

    def _in_named_scope(self, collection: str, records: Mapping[str, Any]) -> Mapping[str, Any]:
        """For the key of the call being resolved, the records in the scopes its arguments
        already name (all of them when none is, or none matches)."""
        tool, partial = self._partial
        given = [p for p in self.follows_key(tool) if partial.get(p) is not None] if tool else []
        if not given:  # most calls: no scope named, no tool_scope to read on this hot path
            return records
        scope = tool_scope(self.spec.tool(tool), self.spec.state_schema)
        if scope.collection != collection or self._param != scope.key_param:
            return records
        kept = {
            k: r
            for k, r in records.items()
            if isinstance(r, dict) and all(str(r.get(p)) == str(partial[p]) for p in given)
        }
        return kept or records

    def for_call(self, fact: FactSpec, tool: str, partial: dict[str, Any], param: str = "") -> Any:
        """A value for a fact that a call argument (``param``) needs (the call's other
        arguments so far count as entities in play: the customer to pair with the book
        already chosen; a scope of the record the call names is that record's own)."""
        self.note_args(tool, partial)
        self._partial = (tool, partial)
        self._param = param
        own = self._of_named_record(tool, param, partial)
        if own is not _MISSING:
            return own
        if fact.role == "reference" and fact.collection:
            _, record = self.record(fact, unique=True)
            return copy.deepcopy(attribute_value(record, fact.attribute or fact.name))
        if fact.role in ("entity", "attribute") and fact.collection:
            key, record = self.record(fact)
            if fact.role == "entity":
                return key
            return copy.deepcopy(record.get(fact.attribute or fact.name))
        new_key = self._new_key(fact, tool)
        if new_key is not _MISSING:
            return new_key
        schema = fact.json_schema
        enum = list(schema.get("enum") or []) or enum_from_text(str(schema.get("description", "")))
        if enum and tool_access(self.spec.tool(tool)) == "write":
            current = self._current(tool, partial, fact.name)
            banned = self.excluded.get(fact.name, set())
            others = [v for v in enum if v != current and repr(v) not in banned]
            allowed = (
                self.pre.values(tool, fact.name, partial, self._reading()) if self.pre else None
            )
            if allowed:  # the values the docs allow from the record's current status
                others = [v for v in others if v in allowed] or others
            return self.rng.choice(others or enum)
        ruled = self._ruled_value(fact, tool, partial)
        if ruled is not _MISSING:
            return ruled
        if self.pre is not None:  # a create's date, as far from today as the data's records'
            dated = self.pre.date(tool, param or fact.name, partial, self.plain(), self.rng)
            if dated is not None:
                return dated
        known = self._known_identifier(fact, tool, partial)
        if known is _MISSING:  # like the values the records it is stored on hold
            known = self._stored_like(fact, tool, partial, param or fact.name)
        if known is _MISSING and schema.get("type", "string") == "string":
            seen = observed_category(self.plain(), fact.name)  # a country the data always has
            known = self.rng.choice(seen) if seen else _MISSING
        if known is _MISSING:  # a value the data's own column holds, not an invented one
            known = self._from_column(fact, tool, partial)
        return value_for(fact.name, schema, self.rng) if known is _MISSING else known

    def _new_key(self, fact: FactSpec, tool: str) -> Any:
        """For a create that takes the key of the record it makes (``create_bucket(name)``,
        :func:`~autoforge.lexicon.new_key_param`), a key no record has, shaped like the
        collection's keys; ``_MISSING`` for any other fact.
        Why: an identifier already in the state was chosen, and the create refused it as
        already there on every generated state."""
        spec, schema = self.spec.tool(tool), self.spec.state_schema
        collection = tool_scope(spec, schema).collection
        if new_key_param(spec, schema) != fact.name or collection is None:
            return _MISSING
        keys = [str(k) for k in (self.plain().get(collection) or {})]
        new = fresh_like(keys, self.rng) if keys else None
        return _MISSING if new is None else new

    def _ruled_value(self, fact: FactSpec, tool: str, partial: dict[str, Any]) -> Any:
        """A value the documented preconditions allow for the record the call names (a
        country of the same zone as the shipment's), another than the record's own where
        there is one; ``_MISSING`` when no rule says."""
        allowed = self.pre.values(tool, fact.name, partial, self._reading()) if self.pre else None
        if not allowed:
            return _MISSING
        current = self._current(tool, partial, fact.name)
        banned = self.excluded.get(fact.name, set())
        left = [v for v in allowed if repr(v) not in banned]
        left = [v for v in left if v != current] or left
        return self.rng.choice(left) if left else _MISSING

    def _stored_like(self, fact: FactSpec, tool: str, partial: dict[str, Any], param: str) -> Any:
        """A value like those the collection the write stores ``param`` in holds in that
        attribute (:meth:`~autoforge.tasks.gold.preconditions.Preconditions.stored_like`),
        valid under the fact's schema, not the record's current value nor one ruled out;
        ``_MISSING`` where no model says."""
        if self.pre is None:
            return _MISSING
        fits = Draft202012Validator(dict(fact.json_schema))
        current = self._current(tool, partial, fact.name)
        banned = self.excluded.get(fact.name, set())

        def allowed(v: Any) -> bool:
            return v != current and repr(v) not in banned and fits.is_valid(v)

        ok, value = self.pre.stored_like(tool, param, partial, self.plain(), self.rng, allowed)
        return value if ok else _MISSING

    def _from_column(self, fact: FactSpec, tool: str, partial: dict[str, Any]) -> Any:
        """A value of the records' own attribute called like the fact (a destination city
        the data holds), other than the one the call's record already has; ``_MISSING``
        when no attribute is called so. Where its text values never repeat (a unique value,
        such as a file name or an e-mail, is not to be reused) a new one shaped like them.

        Why: with data given, a new value drawn by the field's name alone was a random word
        ("help" as a country), which the docs' own checks refuse."""
        kinds: dict[str, type | tuple[type, ...]] = {
            "string": str, "integer": int, "number": (int, float)}  # fmt: skip
        kind = kinds.get(str(fact.json_schema.get("type", "string")))
        if kind is None:
            return self._structured(fact, tool, partial)
        seen = column_values(self.plain(), fact.name, kind)
        if seen and kind is str and len(set(map(repr, seen))) >= len(seen):
            new = fresh_like(seen, self.rng)  # unique: a new value shaped like the data's
            return _MISSING if new is None else new
        if len(set(map(repr, seen))) >= len(seen):
            return _MISSING
        current = self._current(tool, partial, fact.name)
        banned = self.excluded.get(fact.name, set())
        left = [v for v in seen if v != current and repr(v) not in banned]
        return self.rng.choice(left) if left else _MISSING

    def _structured(self, fact: FactSpec, tool: str, partial: dict[str, Any]) -> Any:
        """A list or object the data's records hold in an attribute called like the fact and
        shaped as its schema asks (the lines of an existing request for a new one), other
        than the call's record's own; ``_MISSING`` when none.

        Why: an invented list of lines named item kinds and counts no record allows ("lot",
        29), which every rule on the lines refuses; the data's own lines obey them."""
        seen = shaped_values(self.plain(), fact.name, fact.json_schema)
        current = self._current(tool, partial, fact.name)
        banned = self.excluded.get(fact.name, set())
        left = {repr(v): v for v in seen if v != current and repr(v) not in banned}
        return copy.deepcopy(self.rng.choice([left[k] for k in sorted(left)])) if left else _MISSING

    def _known_identifier(self, fact: FactSpec, tool: str, partial: dict[str, Any]) -> Any:
        """An identifier the state already holds for a plain-value fact, or ``_MISSING``.

        ``item_ids`` or ``payment_method_id`` name no collection of the state schema, but
        their values sit in nested fields of the records in play (the items of the order
        being exchanged, the payment history of that order). Why: invented ids made most
        write calls of foreign environments fail, or succeed only on tools that check
        nothing. Looked up first in the records this call's arguments name (and the records
        those reference), then in all the records in play.
        """
        many = fact.json_schema.get("type") == "array"
        name = singular(fact.name) if many else fact.name
        if not is_identifier_name(name):
            return _MISSING
        items = fact.json_schema.get("items")
        schema = items if many and isinstance(items, dict) else fact.json_schema
        kind = int if schema.get("type") == "integer" else str
        banned = self.excluded.get(fact.name, set())
        own = dict(self._entities_in(tool, partial))
        for scope in (own, self.context):
            found: dict[str, Any] = {}
            held: dict[str, Any] = {}
            for record in self._records(scope):
                for value in _values_under(record, name):
                    if type(value) is kind and repr([value] if many else value) not in banned:
                        found.setdefault(repr(value), value)
                for value in map_keys(record, name):
                    if type(value) is kind and repr([value] if many else value) not in banned:
                        held.setdefault(repr(value), value)
            found = held or found  # the record's own holdings before ids in its history
            if found:
                value = self.rng.choice([found[k] for k in sorted(found)])
                return [value] if many else value
        sibling = self._sibling(fact.name, partial, own, kind, banned)
        if sibling is not _MISSING:
            return [sibling] if many else sibling
        return _MISSING

    def _sibling(
        self, name: str, partial: dict[str, Any], own: Mapping[str, set[str]], kind: type,
        banned: set[str],
    ) -> Any:  # fmt: skip
        """A replacement for an identifier the call also names (``new_item_ids`` beside
        ``item_ids``): see :func:`related.replacements`. ``_MISSING`` when there is none."""
        skip = set(own) | {t for c in own for _, t in self._refs_out.get(c, ())}
        for field_name, olds in paired_values(name, partial):
            found = replacements(self.plain(), skip, field_name, olds, kind, banned)
            if found:
                return self.rng.choice([found[k] for k in sorted(found)])
        return _MISSING

    def _entities_in(self, tool: str, partial: dict[str, Any]) -> Iterator[tuple[str, set[str]]]:
        for leaf in param_leaves(self.spec.tool(tool), self.spec.state_schema):
            if leaf.entity and "." not in leaf.path and isinstance(partial.get(leaf.path), str):
                yield leaf.entity, {partial[leaf.path]}

    def _records(self, scope: Mapping[str, set[str]]) -> list[dict[str, Any]]:
        """The records of the entities in ``scope`` and the records they reference."""
        state = self.plain()
        out: list[dict[str, Any]] = []
        for coll, keys in scope.items():
            for key in sorted(keys):
                record = (state.get(coll) or {}).get(key)
                if not isinstance(record, dict):
                    continue
                out.append(record)
                for attr, target in self._refs_out.get(coll, ()):
                    value = record.get(attr)
                    for ref_key in value if isinstance(value, list) else [value]:
                        ref = (
                            (state.get(target) or {}).get(ref_key)
                            if isinstance(ref_key, str)
                            else None
                        )
                        if isinstance(ref, dict):
                            out.append(ref)
        return out

    def _current(self, tool: str, partial: dict[str, Any], name: str) -> Any:
        """The value the targeted record already has for attribute ``name`` (or None)."""
        for leaf in param_leaves(self.spec.tool(tool), self.spec.state_schema):
            if leaf.entity and "." not in leaf.path and leaf.path in partial:
                record = (self.plain().get(leaf.entity) or {}).get(partial[leaf.path])
                if isinstance(record, dict) and name in record:
                    return record[name]
        return None

    def breach(self, tool: str, args: dict[str, Any]) -> Breach | None:
        """A stated guard of ``tool`` that ``args`` break in the current state, or None."""
        if self.pre is not None:
            return self.pre.check(tool, args, self._reading())
        guards = self.guards.get(tool)
        return breach(guards, args, self._reading()) if guards else None

    def _reading(self) -> Mapping[str, Any]:
        """The current state, to read a few records of: the plain start state until the first
        write, then the episode's own (no collection copied out of it)."""
        return self._plain if isinstance(self._plain, dict) else self.episode.state

    def fix(self, found: Breach) -> tuple[str, str, str, Any] | None:
        """The S0 change that meets a broken status rule: the record's status set to an
        allowed value, when no earlier call of this run changed it (else None). For a broken
        uniqueness rule: the record that holds the call's values left out of S0 (attribute
        ``""``, :func:`~autoforge.tasks.states.repair.apply_fix`), when it is S0's own, unchanged,
        and no record refers to its collection (S0 is generated: without it, S0 is one where
        the user has not done this yet)."""
        key, coll, attr = found.key, found.guard.collection, found.guard.attribute
        if found.guard.fields:
            start = ((self.base_state or {}).get(coll) or {}).get(key)
            now = (self._reading().get(coll) or {}).get(key)
            if not isinstance(start, dict) or not isinstance(now, Mapping) or dict(now) != start:
                return None
            return None if referenced(self.spec, coll) else (coll, key, "", None)
        start = ((self.base_state or {}).get(coll) or {}).get(key)
        now = (self._reading().get(coll) or {}).get(key)
        if not attr or not found.guard.allowed:  # a rule no status of the record meets
            return None
        if not isinstance(start, dict) or not isinstance(now, Mapping) or (
                start.get(attr) != now.get(attr)):  # fmt: skip
            return None
        return coll, key, attr, self.rng.choice(sorted(found.guard.allowed, key=repr))

    def for_reasoning(self, fact: FactSpec, node: ReasonNode, inputs: dict[str, Any]) -> Any:
        """A value for a fact a reasoning node needs (filter value, threshold, branch choice).

        An input of another shape than the operator expects (a single record where the docs
        promised a list) fails the run as ``reasoning_shape``, a counted rejection.
        """
        try:
            return self._for_reasoning(fact, node, inputs)
        except ReasoningError as exc:
            raise GoldFailure("reasoning_shape", f"{node.id}: {exc}") from None

    def _for_reasoning(self, fact: FactSpec, node: ReasonNode, inputs: dict[str, Any]) -> Any:
        op = node.spec.op
        if op == "filter":
            items = as_items(inputs.get("items"))
            values = [get_path(item, node.spec.field) for item in items]
            counts = {repr(v): values.count(v) for v in values}
            said = [v for v in values if v not in (None, "")]  # no value describes nothing
            if node.spec.take in ("only", "named"):
                options = [v for v in said if counts[repr(v)] == 1]
            else:
                options = [v for v in said if counts[repr(v)] < len(values)]
            guards = self.steps.get(node.id, ())  # the value picks a record the call changes
            fit = [v for v in options if all(g.admits(i) for i, w in zip(items, values, strict=True)
                                             if w == v for g in guards)]  # fmt: skip
            options = fit or options
            if not options:
                failure = GoldFailure("degenerate", f"{node.id}: no value selects a proper subset")
                if node.spec.take in ("only", "named"):  # one item made unique in S0
                    failure.fixes = selective_fixes(
                        items, node.spec.field, self.base_state or {}, self.spec.state_schema,
                        lambda i: all(g.admits(i) for g in guards))  # fmt: skip
                raise failure
            return copy.deepcopy(self.rng.choice(options))
        if op == "compare":
            left = inputs["left"]
            if isinstance(left, bool) or not isinstance(left, int | float):
                raise GoldFailure("degenerate", f"{node.id}: compares a non-number {left!r}")
            factor = self.rng.choice([self.rng.uniform(0.6, 0.9), self.rng.uniform(1.1, 1.5)])
            if left == 0:
                return self.rng.choice([-1, 1])
            return round(left * factor) if isinstance(left, int) else round(left * factor, 2)
        enum = list(fact.json_schema.get("enum") or [])
        if op == "branch" and "then" in inputs and enum:
            others = [v for v in enum if v != inputs["then"]]
            return self.rng.choice(others or enum)
        return value_for(fact.name, fact.json_schema, self.rng)


def attribute_value(record: Any, name: str) -> Any:
    """``record[name]``, or the first ``name`` inside a nested object (the ``zip`` of an
    address); None when there is none."""
    if not isinstance(record, dict):
        return None
    if name in record:
        return record[name]
    for value in record.values():
        if isinstance(value, dict):
            found = attribute_value(value, name)
            if found is not None:
                return found
    return None


#: ``(parameter fields, result fields)``: see :func:`_entity_fields`
_Fields = tuple[list[tuple[str, list[str]]], list[tuple[str, str]]]
#: ``(id(tool), id(state schema)) -> (tool, schema, its entity fields)``
_ENTITY_FIELDS: dict[tuple[int, int], tuple[Any, Any, _Fields]] = {}


def _entity_fields(tool: ToolSpec, state: StateSchema) -> _Fields:
    """The fields of ``tool`` that hold an entity's key: ``(entity, path segments)`` of each
    parameter field, and ``(entity, name)`` of each top-level field of its result (worked out
    once per tool: every call of every attempt asks)."""
    entry = _ENTITY_FIELDS.get((id(tool), id(state)))
    if entry is None or entry[0] is not tool or entry[1] is not state:
        params = [(x.entity, x.segments) for x in param_leaves(tool, state) if x.entity]
        results = [(x.entity, x.path) for x in output_leaves(tool, state)
                   if x.entity and not x.through_list and "." not in x.path]  # fmt: skip
        if len(_ENTITY_FIELDS) > 4096:
            _ENTITY_FIELDS.clear()
        entry = _ENTITY_FIELDS[(id(tool), id(state))] = (tool, state, (params, results))
    return entry[2]


NeedFact = Callable[[FactSpec], Any]
_MISSING: Any = object()


def _values_under(value: Any, key: str) -> Iterator[Any]:
    """Every value stored under ``key`` anywhere inside ``value`` (nested dicts and lists)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key and not isinstance(v, dict | list):
                yield v
            elif isinstance(v, dict | list):
                yield from _values_under(v, key)
    elif isinstance(value, list):
        for item in value:
            yield from _values_under(item, key)
