"""How a call's argument refers to a record without naming it: the choosing half of the builder.

A key the user does not hold is found by its finder from what the user holds (an email, a
title); a record the user owns is picked by its place in their list or by a condition over the
list a tool gives of them; a catalogue record by a condition over a search ("the cheapest
fantasy book"); an element of one of the user's records by what a person calls it ("the item
whose name is Water Bottle"). Each such choice adds the lookup calls and reasoning nodes it
needs to the blueprint being built (:class:`Chooser`'s ``nodes``); anything else becomes a fact
the user states. :mod:`autoforge.tasks.blueprints.build` wires walk steps to one another on top of
it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import CollectionSchema, EnvironmentSpec
from autoforge.lexicon import (
    NAME_FIELDS,
    Leaf,
    entity_of,
    is_identifier_name,
    names_record,
    output_leaves,
    singular,
    split_path,
    tool_access,
)
from autoforge.tasks.blueprints.blueprint import (
    Binding,
    CallNode,
    FactRef,
    FactRole,
    FactSpec,
    ListBinding,
    ObjectBinding,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.reasoning import PathSeg, ReasoningSpec
from autoforge.tasks.blueprints.related import names_map
from autoforge.tasks.graph.dependency import ToolGraph
from autoforge.tasks.graph.walks import Walk
from autoforge.tasks.scenario.knowledge import Knowledge
from autoforge.tooldocs import ToolSpec


def path_of(path: str) -> list[PathSeg]:
    """A schema path without list markers as a binding path."""
    return [seg for seg in split_path(path) if seg != "[]"]


def _meaning(
    role: str, collection: str | None, attribute: str | None, schema: dict[str, Any]
) -> tuple[Any, ...]:
    """What two facts must share to share one name (and so one value)."""
    return role, collection, attribute, schema.get("type"), schema.get("enum")


def _fact_meaning(fact: FactSpec) -> tuple[Any, ...]:
    return _meaning(fact.role, fact.collection, fact.attribute, fact.json_schema)


@dataclass
class Chooser:
    """The builder's state (the walk, the nodes and facts so far) and its ways of choosing
    a record; :class:`autoforge.tasks.blueprints.build._Builder` adds the wiring of walk steps."""

    spec: EnvironmentSpec
    graph: ToolGraph
    walk: Walk
    rng: random.Random
    reasoning_rate: float
    min_reasoning: int = 0
    nodes: list[CallNode | ReasonNode] = field(default_factory=list)
    facts: dict[str, FactSpec] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)
    n_reason: int = 0
    know: Knowledge | None = None
    found: dict[str, str] = field(default_factory=dict)  # user collection -> its finder node
    own_ids: bool = False  # the call being built took an id from its own record (related)
    #: per walk step and list (a lister tool, or ``c<step>:<path>``), the reasoning node that
    #: picked one of its records: the call's other keys from that list are read off the same
    picked: dict[tuple[int, str], str] = field(default_factory=dict)
    #: the difficulty's ``[min, max]`` per metric: optional lookups stay within them
    limits: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)

    # -- facts -----------------------------------------------------------------------------

    def next_id(self, prefix: str = "f") -> str:
        """A new node id: ``prefix`` and one more than the highest number in use."""
        taken = [int(n.id[len(prefix):]) for n in self.nodes
                 if n.id.startswith(prefix) and n.id[len(prefix):].isdigit()]  # fmt: skip
        return f"{prefix}{max(taken, default=-1) + 1}"

    def fact(
        self, name: str, role: FactRole, schema: dict[str, Any], fresh: bool = False, **where: Any
    ) -> FactRef:
        """Declare (or reuse) a fact; a clash of meaning under one name gets a new name
        (``fresh``: always a new name, e.g. the title of a second book)."""
        collection, attribute = where.get("collection"), where.get("attribute")
        meaning = _meaning(role, collection, attribute, schema)
        base, n = name, 1
        while name in self.facts and (fresh or meaning != _fact_meaning(self.facts[name])):
            n += 1
            name = f"{base}_{n}"
        self.facts[name] = FactSpec(
            name=name, role=role, json_schema=schema, description=schema.get("description", ""),
            collection=collection, attribute=attribute,
        )  # fmt: skip
        return FactRef(name=name)

    def find(self, entity: str, tool: ToolSpec, index: int) -> Binding | None:
        """The key of an ``entity`` record found by its finder from what the user holds
        (``find_customer_by_email(email).customer_id``), or None when the user holds the key.

        The finder call goes before the call that needs the key; the user's own record is
        found once per task (a task has one user).
        """
        finder = self.know.finder(entity) if self.know is not None else None
        if finder is None:
            return self.listed(entity, tool, index)
        if finder.tool == tool.name:
            return None
        if entity != self.know.user and self.rng.random() < self.reasoning_rate:  # type: ignore[union-attr]
            chosen = self.by_condition(entity, tool, index)
            if chosen is not None:
                return chosen
        node_id = self.found.get(entity) if entity == self.know.user else None  # type: ignore[union-attr]
        if node_id is None:
            spec = self.spec.tool(finder.tool)
            props = spec.parameters.get("properties", {})
            user = entity == self.know.user  # type: ignore[union-attr]
            prefix = "" if user else f"{singular(entity)}_"
            args: dict[str, Binding] = {
                p: self.fact(f"{prefix}{p}", "reference", dict(props.get(p, {})), fresh=not user,
                             collection=entity, attribute=p)
                for p in finder.params
            }  # fmt: skip
            node_id = self.add_call(index, finder.tool, args)
            if user:
                self.found[entity] = node_id
        return OutputRef(node=node_id, path=list(finder.key_path))

    def by_condition(self, entity: str, tool: ToolSpec, index: int) -> Binding | None:
        """An ``entity`` record chosen by a condition: among the user's records that list it
        first when ``tool`` is about one they already have (:meth:`Knowledge.already_had`),
        else that or a catalogue condition ("the cheapest fantasy book") at random."""
        coll = self.spec.state_schema.collection(entity)
        ways = [self.in_own_records, self.find_by_condition]
        if coll is None or self.know is None or not self.know.already_had(tool, coll.primary_key):
            self.rng.shuffle(ways)
        for way in ways:
            chosen = way(entity, index)
            if chosen is not None:
                return chosen
        return None

    def flat_profile(self, index: int, tool: ToolSpec) -> dict[str, Binding]:
        """Flat arguments (``address1, city, zip``) taken from one object of the user's record,
        as :meth:`from_profile` does for an object argument; ``{}`` when fewer than three
        required parameters match one object's fields."""
        fields: dict[str, Any] = {p: {} for p in tool.required}
        found = self.from_profile(index, tool, {"properties": fields}, least=3)
        owner = self.know.user if self.know is not None else None
        if not isinstance(found, OutputRef):
            found, owner = self.from_owned_record(index, tool, set(fields))
            if not isinstance(found, OutputRef):
                return {}
        paths = self.reader_paths(self.spec.tool(self.node_tool(found.node)), owner or "")
        top = str(found.path[0])
        return {p: OutputRef(node=found.node, path=[top, p]) for p in tool.required
                if f"{top}.{p}" in paths}  # fmt: skip

    def from_owned_record(
        self, index: int, tool: ToolSpec, fields: set[str]
    ) -> tuple[OutputRef | None, str | None]:
        """Flat arguments that change the user's own record (``modify_user_address``) taken
        from an object of one of the user's other records with the same fields: "change my
        address to the address of my most recent order"; with the record's collection.
        ``(None, None)`` when there is none."""
        know = self.know
        user = self.spec.state_schema.collection(know.user) if know and know.user else None
        if know is None or user is None or user.primary_key not in tool.required:
            return None, None
        for (coll, attr), names in sorted(know.nested.items()):
            if coll == know.user or len(fields & set(names)) < 3:
                continue
            target = self.spec.state_schema.collection(coll)
            reader = next((r for r in self.spec.tools if tool_access(r) == "read"
                           and target is not None and r.required == [target.primary_key]),
                          None)  # fmt: skip
            chosen = self.owned(coll, index) if reader is not None else None
            if reader is None or chosen is None:
                continue
            return OutputRef(node=self.reader_call(index, reader, chosen), path=[attr]), coll
        return None, None

    def node_tool(self, node_id: str) -> str:
        """The tool of call node ``node_id``."""
        return next(n.tool for n in self.nodes if isinstance(n, CallNode) and n.id == node_id)

    def from_profile(
        self, index: int, tool: ToolSpec, schema: dict[str, Any], least: int = 0
    ) -> Binding | None:
        """An object argument taken from the user's own record (``my default address``) rather
        than spelled out: a lookup of the user whose result has an object with the same fields.
        """
        user = self.know.user if self.know is not None else None
        coll = self.spec.state_schema.collection(user) if user else None
        fields = set(schema.get("properties") or {})
        if coll is None or not fields or coll.primary_key in tool.required:
            return None  # a value read from the user's record is not written back to it
        for reader in self.spec.tools:
            if tool_access(reader) != "read" or reader.required != [coll.primary_key]:
                continue
            paths = self.reader_paths(reader, coll.name)
            tops = sorted({p.split(".")[0] for p in paths if "." in p and "[]" not in p})
            for top in tops:
                inside = sum(f"{top}.{f}" in paths for f in fields)
                if (inside == len(fields)) if not least else inside >= least:
                    key = self.user_key(coll, reader, index)
                    node_id = self.add_call(index, reader.name, {coll.primary_key: key})
                    return OutputRef(node=node_id, path=[top])
        return None

    def reader_paths(self, reader: ToolSpec, user: str) -> set[str]:
        """The result paths of a lookup of the user's record; where the docs give no result
        schema (the record is assumed), also the fields the data shows inside its object
        attributes (``address.city``)."""
        paths = {x.path for x in output_leaves(reader, self.spec.state_schema)}
        if reader.returns is None and self.know is not None:
            paths |= {f"{attr}.{name}" for (coll, attr), names in self.know.nested.items()
                      if coll == user for name in names}  # fmt: skip
        return paths

    def owned(self, entity: str, index: int, place: int | None = None) -> Binding | None:
        """One of the user's own records chosen by its place in their list (``my most recent
        order``) instead of its key: a lookup of the user whose result lists the keys, then the
        first or last one (``place``: that one). None when the user has no such list."""
        user = self.know.user if self.know is not None else None
        coll = self.spec.state_schema.collection(user) if user else None
        if coll is None or entity == user:
            return None
        for reader in self.spec.tools:
            if tool_access(reader) != "read" or reader.required != [coll.primary_key]:
                continue
            lists = [x for x in output_leaves(reader, self.spec.state_schema)
                     if x.entity == entity and x.path.endswith("[]") and x.path.count("[]") == 1
                     and "." not in x.path]  # fmt: skip
            if not lists:
                continue
            key = self.user_key(coll, reader, index)
            node_id = self.add_call(index, reader.name, {coll.primary_key: key})
            items = OutputRef(node=node_id, path=[lists[0].path[:-2]])
            at = self.rng.choice([0, -1]) if place is None else place
            spec = ReasoningSpec(op="lookup", field=[at])
            return ReasoningRef(node=self.reason(spec, {"value": items}, singular(entity)))
        return None

    def stated_values(self, pos: int) -> bool:
        """Whether the call at ``self.nodes[pos]`` has an argument the user states as a plain
        value: what :meth:`from_user_map` needs (it changes nothing, draws nothing without)."""
        call = self.nodes[pos]
        return isinstance(call, CallNode) and any(
            isinstance(b, FactRef) and self.facts[b.name].role == "value"
            for b in call.args.values()
        )

    def placed_args(self, pos: int) -> bool:
        """Whether the call at ``self.nodes[pos]`` has an argument picked by its place in a list
        (:meth:`placed`): what :meth:`from_other_record` needs (it changes nothing, draws
        nothing without)."""
        call = self.nodes[pos]
        return (self.know is not None and isinstance(call, CallNode)
                and any(self.placed(b) is not None for b in call.args.values()))  # fmt: skip

    def from_user_map(self, pos: int) -> bool:
        """Replace the first stated identifier of the write at ``self.nodes[pos]`` that names
        an entry of an id-keyed map of the user's record (a payment method id) by that entry
        described by its kind (:meth:`in_user_map`); the lookups go just before the write.
        Whether it replaced one."""
        call = self.nodes[pos]
        for name, bound in call.args.items() if isinstance(call, CallNode) else ():
            if not isinstance(bound, FactRef) or self.facts[bound.name].role != "value":
                continue
            before = len(self.nodes)
            held = self.in_user_map(int(call.id[1:]) if call.id[1:].isdigit() else 0, name)
            if held is not None:
                self.splice(pos, before, {name: held})
                return True
        return False

    def copies_back(self) -> bool:
        """Whether one write copies fields of record A onto record B and another writes the
        same fields of A from B ("change the address of my last order to my address";
        "change my address to the address of that order"): a pair a person never asks for,
        as the second rewrites what the first made equal. Records are told apart by the
        binding of their key, read through the reads that return it; the user's own record
        is one."""
        moves = set()
        for call in self.nodes:
            if not isinstance(call, CallNode) or tool_access(self.spec.tool(call.tool)) != "write":
                continue
            targets = {
                self.record(n, b)
                for n, b in call.args.items()
                if isinstance(b, FactRef | OutputRef | ReasoningRef)
                and entity_of(n, None, self.spec.state_schema)
            }
            sources: dict[tuple[Any, ...], set[str]] = {}
            for name, source in self.copied(call.args.items()):
                sources.setdefault(source, set()).add(name)
            moves |= {(source, target, frozenset(names)) for source, names in sources.items()
                      for target in targets if target != source}  # fmt: skip
        return any((b, a, names) in moves for a, b, names in moves)

    def copied(self, args: Any) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """``(argument, record)`` for each of ``args`` (objects and lists opened) that reads
        a field inside a part of a record a read call returned (``address.city``)."""
        for name, b in args:
            if isinstance(b, ObjectBinding):
                yield from self.copied(b.fields.items())
            elif isinstance(b, ListBinding):
                yield from self.copied((name, item) for item in b.items)
            elif isinstance(b, OutputRef) and len(b.path) >= 2:
                call = next((n for n in self.nodes if n.id == b.node), None)
                if isinstance(call, CallNode) and len(call.args) == 1:
                    ((key, bound),) = call.args.items()
                    yield name, self.record(key, bound)

    def record(self, name: str, bound: Binding) -> tuple[Any, ...]:
        """Which record a key argument ``name`` bound to ``bound`` names, as a comparable
        tuple: a key read off a read call's result that the call was given is that given
        key; every key of the user's own collection names the one user."""
        state = self.spec.state_schema
        entity = entity_of(name, None, state)
        if self.know is not None and entity is not None and entity == self.know.user:
            return (entity,)
        while isinstance(bound, OutputRef) and len(bound.path) == 1:
            call = next((n for n in self.nodes if n.id == bound.node), None)
            if not isinstance(call, CallNode) or bound.path[0] not in call.args:
                break
            bound = call.args[str(bound.path[0])]
        node = next((n for n in self.nodes if isinstance(bound, ReasoningRef)
                     and n.id == bound.node), None)  # fmt: skip
        listed = node.inputs.get("value") if isinstance(node, ReasonNode) else None
        if (
            isinstance(node, ReasonNode)
            and node.spec.op == "lookup"
            and isinstance(listed, OutputRef)
        ):
            # the first of the user's orders, read from any call that returns the user
            owner = next((n for n in self.nodes if n.id == listed.node), None)
            holders = sorted({self.record(k, b) for k, b in owner.args.items()
                              if entity_of(k, None, state)} if isinstance(owner, CallNode)
                             else set())  # fmt: skip
            return (entity, str(node.spec.field), str(listed.path), str(holders))
        return (entity, bound.model_dump_json())

    def splice(self, pos: int, before: int, args: dict[str, Binding]) -> None:
        """Move the nodes added since ``before`` to just before the call at ``pos`` and set
        its ``args``."""
        call = self.nodes[pos]
        assert isinstance(call, CallNode)
        added = self.nodes[before:]
        self.nodes[before:] = []
        bound = call.model_copy(update={"args": {**call.args, **args}})
        self.nodes[pos : pos + 1] = [*added, bound]

    def from_other_record(self, pos: int) -> bool:
        """Replace, at the reasoning rate, the stated parts of an object that the write at
        ``self.nodes[pos]`` sets (a new ``address``, or flat ``address1, city, zip``) by the
        same object of another of the user's own records of the kind the write acts on:
        "change the address of my most recent order to the address of my oldest order". Only
        when the write's record is picked by its place in the user's list, so that the other
        end of the list is another record; the object's fields must be ones every record of
        the data has there (:attr:`Knowledge.nested`). The lookups it needs go just before
        the write. Whether it replaced anything."""
        know, state, call = self.know, self.spec.state_schema, self.nodes[pos]
        if know is None or not isinstance(call, CallNode):
            return False
        index = int(call.id[1:]) if call.id[1:].isdigit() else 0  # c<step>: the walk step
        for name, target in call.args.items():
            pick = self.placed(target)
            if pick is None:
                continue
            coll = state.collection(entity_of(name, None, state) or "")
            reader = next((r for r in self.spec.tools if coll is not None
                           and tool_access(r) == "read" and r.required == [coll.primary_key]),
                          None)  # fmt: skip
            if coll is None or reader is None:
                continue
            for (owner, attr), fields in sorted(know.nested.items()):
                parts = self.stated_parts(call.args, set(fields)) if owner == coll.name else {}
                if not parts or self.rng.random() >= self.reasoning_rate:
                    continue
                before, n_reason, found = len(self.nodes), self.n_reason, dict(self.found)
                other = self.owned(coll.name, index, -1 - int(pick.spec.field[0]))
                if other is None or not self.same_list(pick, other):
                    self.nodes[before:], self.n_reason, self.found = [], n_reason, found
                    return False  # the other end of another list may be the very record
                node = self.reader_call(index, reader, other)
                paths = {a: OutputRef(node=node, path=[attr, *p]) for a, p in parts.items()}
                self.splice(pos, before, dict(paths))
                return True
        return False

    def placed(self, binding: Binding) -> ReasonNode | None:
        """The lookup that picked a record by its place (0 or -1) in a list, also when the
        key is read back from the result of a call on that record (``get_order(<my first
        order>).order_id``); else None."""
        ref = binding if isinstance(binding, OutputRef | ReasoningRef) else None
        node = next((n for n in self.nodes if n.id == ref.node), None) if ref else None
        if isinstance(node, CallNode) and isinstance(binding, OutputRef) and len(binding.path) == 1:
            key = binding.path[0]
            same = node.args.get(key) if isinstance(key, str) else None
            return self.placed(same) if same is not None else None
        if (not isinstance(node, ReasonNode) or binding.path  # type: ignore[union-attr]
                or node.spec.op != "lookup" or not node.spec.field):  # fmt: skip
            return None
        return node if node.spec.field[0] in (0, -1) else None

    def same_list(self, pick: ReasonNode, other: Binding) -> bool:
        """Whether the lookup behind ``other`` reads the same list as ``pick`` (the same tool
        on the same arguments, the same path), so that their two ends are two records."""
        nodes = {n.id: n for n in self.nodes}
        node = nodes.get(other.node) if isinstance(other, ReasoningRef) else None
        a = pick.inputs.get("value")
        b = node.inputs.get("value") if isinstance(node, ReasonNode) else None
        if not isinstance(a, OutputRef) or not isinstance(b, OutputRef) or a.path != b.path:
            return False
        first, second = nodes.get(a.node), nodes.get(b.node)
        return (isinstance(first, CallNode) and isinstance(second, CallNode)
                and (first.tool, first.args) == (second.tool, second.args))  # fmt: skip

    def stated_parts(self, args: dict[str, Binding], fields: set[str]) -> dict[str, list[str]]:
        """Arguments the user would state that are parts of one object with ``fields``: an
        object of plain values whose keys are all among them (``{arg: []}``), or three or
        more plain-value arguments named after them (``{arg: [arg]}``); ``{}`` otherwise."""

        def plain(binding: Binding) -> bool:
            return isinstance(binding, FactRef) and self.facts[binding.name].role == "value"

        for arg, bound in args.items():
            keys = set(bound.fields) if isinstance(bound, ObjectBinding) else set()
            if isinstance(bound, FactRef) and plain(bound):  # one stated object: an address
                keys = set(self.facts[bound.name].json_schema.get("properties") or {})
            if keys and keys <= fields and (not isinstance(bound, ObjectBinding) or all(
                    plain(b) for b in bound.fields.values())):  # fmt: skip
                return {arg: []}
        flat = {arg: [arg] for arg, bound in args.items() if arg in fields and plain(bound)}
        return flat if len(flat) >= 3 else {}

    def listed(self, entity: str, tool: ToolSpec, index: int) -> Binding | None:
        """The key of one of the user's own records that nothing finds from what the user
        holds, picked by a condition over the list a tool gives of them ("the hotel whose
        date is 2024-10-13 among the hotel orders on my account"); None without such a list
        (:attr:`Knowledge.listers`)."""
        know = self.know
        if know is None or not know.user or not know.listers.get(entity):
            return None
        reads = {x.record_of for x in output_leaves(tool, self.spec.state_schema)}
        lister = know.lister(entity, {r for r in reads if r}, tool, self.spec.state_schema)
        if lister is None or lister.tool == tool.name:
            return None
        same = self.picked.get((index, lister.tool))
        if same is not None:  # the flight and the seat of one order, not of two
            return ReasoningRef(node=same, path=[lister.field])
        reader = self.spec.tool(lister.tool)
        pk = self.spec.state_schema.collection(know.user).primary_key  # type: ignore[union-attr]
        key = self.find(know.user, reader, index) or self.param_fact(
            reader, pk, dict(reader.parameters.get("properties", {}).get(pk, {})))  # fmt: skip
        call = self.reader_call(index, reader, key, pk)
        items = OutputRef(node=call, path=path_of(lister.list_path))
        leaves = [x for x in self.element_leaves(reader.name, lister.list_path)
                  if x.name != lister.field]  # fmt: skip
        chosen = self.choose(items, leaves, [lister.field], singular(lister.record_of or entity))
        if isinstance(chosen, ReasoningRef):
            self.picked[(index, lister.tool)] = chosen.node
        return chosen

    def find_by_condition(self, entity: str, index: int) -> Binding | None:
        """A record chosen by a condition the user states instead of naming it: a search by a
        shared attribute, then the element with the highest/lowest number (``the cheapest
        fantasy book``). None when no search tool of ``entity`` allows it."""
        assert self.know is not None
        coll = self.spec.state_schema.collection(entity)
        for finder in self.know.finders.get(entity, []):
            if not finder.many or coll is None:
                continue
            tool = self.spec.tool(finder.tool)
            props = tool.parameters.get("properties", {})
            required = tool.required
            shared = [p for p in props if p not in finder.params and p not in required
                      and (props[p].get("enum")
                           or getattr(coll.attribute(p), "enum", None))]  # fmt: skip
            numeric = [x for x in self.element_leaves(tool.name, "")
                       if x.type in ("integer", "number")]  # fmt: skip
            if required or not shared or not numeric:
                continue
            by = self.rng.choice(sorted(shared))
            args: dict[str, Binding] = {
                by: self.fact(f"{singular(entity)}_{by}", "attribute", dict(props[by]), fresh=True,
                              collection=entity, attribute=by)
            }  # fmt: skip
            node_id = self.add_call(index, tool.name, args)
            leaf = self.rng.choice(numeric)
            spec = ReasoningSpec(op=self.rng.choice(["argmax", "argmin"]), field=[leaf.name])
            noun = singular(entity)
            chosen = self.reason(spec, {"items": OutputRef(node=node_id)}, noun)
            return ReasoningRef(node=chosen, path=[coll.primary_key])
        return None

    def in_own_records(self, entity: str, index: int) -> Binding | None:
        """A record one of the user's own records lists (:attr:`Knowledge.elements`), chosen
        by a condition over that list: "the book with the highest quantity among the items of
        my most recent order"; None when no record the user owns lists ``entity``'s key."""
        know, state = self.know, self.spec.state_schema
        coll = state.collection(entity)
        for (owner, attr), fields in sorted(know.elements.items()) if know and coll else ():
            holder = state.collection(owner)
            if coll is None or holder is None or owner in (entity, know.user) or (  # type: ignore[union-attr]
                    coll.primary_key not in fields):  # fmt: skip
                continue
            reader = self.record_reader(holder.primary_key, attr)
            record = self.owned(owner, index) if reader is not None else None
            if reader is None or record is None:
                continue
            items = OutputRef(node=self.reader_call(index, reader, record), path=[attr])
            leaves = [x for x in self.element_leaves(reader.name, attr)
                      if x.name != coll.primary_key]  # fmt: skip
            return self.choose(items, leaves, [coll.primary_key], singular(entity))
        return None

    def param_fact(
        self, tool: ToolSpec, path: str, schema: dict[str, Any], index: int = -1
    ) -> Binding:
        name = [s for s in split_path(path) if s != "[]"][-1]
        state = self.spec.state_schema
        entity = entity_of(name, None, state)
        if entity is not None and index >= 0 and schema.get("type", "string") != "array":
            found = self.find(entity, tool, index)
            if found is not None:
                return found
        if (entity is not None and index >= 0
                and self.rng.random() < self.reasoning_rate):  # fmt: skip
            listed = self.owned(entity, index)
            if listed is not None:
                return listed
        if entity is not None:
            coll = state.collection(entity)
            pk = coll.primary_key if coll else None
            return self.fact(name, "entity", schema, collection=entity, attribute=pk)
        if tool_access(tool) == "read":
            for coll in state.collections:
                attr = coll.attribute(name)
                if attr is not None and name != coll.primary_key:
                    return self.fact(
                        name, "attribute", schema, collection=coll.name, attribute=name
                    )
        # ids paired with an element of this call's own record (the replacement of the item
        # taken from the order) are this call's own, not shared with another call's
        fresh = self.own_ids and is_identifier_name(singular(name))
        return self.fact(name, "value", schema, fresh=fresh)

    def in_user_map(self, index: int, name: str) -> Binding | None:
        """An identifier of one of the user's own entries in an id-keyed map of their record
        (``payment_method_id`` from ``payment_methods``, :attr:`Knowledge.maps`), described
        by its kind instead of quoted: "the payment method with source paypal in my
        account". None when the user's record has no such map or the data shows no field a
        person describes its entries by."""
        know = self.know
        user = self.spec.state_schema.collection(know.user) if know and know.user else None
        if know is None or user is None or not is_identifier_name(name):
            return None
        reader = next((r for r in self.spec.tools if tool_access(r) == "read"
                       and r.required == [user.primary_key]), None)  # fmt: skip
        for (coll, attr), fields in sorted(know.maps.items()):
            if coll != user.name or not names_map(attr, name) or not fields.described:
                continue
            if reader is None:
                return None
            key = self.user_key(user, reader, index)
            items = OutputRef(node=self.reader_call(index, reader, key), path=[attr])
            by = self.rng.choice(fields.described)
            noun = singular(attr).replace("_", " ")
            value = self.fact(f"{singular(attr)}_{by}", "predicate", {"type": "string"},
                              fresh=True)  # fmt: skip
            spec = ReasoningSpec(op="filter", field=[by], cmp="eq", take="named")
            node = self.reason(spec, {"items": items, "value": value}, noun)
            return ReasoningRef(node=node, path=[fields.key])
        return None

    def related(
        self, index: int, tool: ToolSpec, name: str, schema: dict[str, Any],
        args: dict[str, Binding],
    ) -> Binding | None:  # fmt: skip
        """An identifier a write takes together with the key of a record R that lists such
        identifiers (``item_ids`` with the ``order_id`` whose ``items`` hold ``item_id``):
        the element of R's list described by what a person calls it (``the item whose name
        is Water Bottle among the items of order #W1``), not quoted. The relation is read
        from the data (:attr:`Knowledge.elements`); None when there is none."""
        state = self.spec.state_schema
        many = schema.get("type") == "array"
        base = singular(name) if many else name
        if (tool_access(tool) != "write" or self.know is None or not is_identifier_name(base)
                or entity_of(base, None, state) is not None):  # fmt: skip
            return None
        for arg, bound in args.items():
            coll = state.collection(entity_of(arg, None, state) or "")
            for (owner, attr), fields in self.know.elements.items() if coll else ():
                if coll is None or owner != coll.name or base not in fields:
                    continue
                by = _describing(fields, base)
                reader = self.record_reader(coll.primary_key, attr)
                if by is None or reader is None:
                    continue
                node_id = self.reader_call(index, reader, bound)
                noun = singular(attr)
                value = self.fact(f"{noun}_{by}", "predicate", {"type": "string"}, fresh=True)
                spec = ReasoningSpec(op="filter", field=[by], cmp="eq", take="named")
                items = OutputRef(node=node_id, path=[attr])
                node = self.reason(spec, {"items": items, "value": value}, noun)
                ref = ReasoningRef(node=node, path=[base])
                return ListBinding(items=[ref]) if many else ref
        return None

    def reader_call(self, index: int, reader: ToolSpec, key: Binding, param: str = "") -> str:
        """The id of a call of ``reader`` on ``key`` (as ``param``, by default its one
        required parameter): the one already in the blueprint (the key read from that very
        call's result included), else a new one before the step."""
        param = param or reader.required[0]
        for node in self.nodes:
            if not isinstance(node, CallNode) or node.tool != reader.name:
                continue
            same = node.args.get(param) == key
            if same or (isinstance(key, OutputRef) and key.node == node.id):
                return node.id
        return self.add_call(index, reader.name, {param: key})

    def add_call(self, index: int, tool: str, args: dict[str, Binding]) -> str:
        """A new call node of ``tool`` with ``args``, from walk step ``index``; its id."""
        node_id = self.next_id()
        self.nodes.append(CallNode(id=node_id, tool=tool, args=args,
                                   walk=self.walk.steps[index].origin))  # fmt: skip
        return node_id

    def user_key(self, user: CollectionSchema, reader: ToolSpec, index: int) -> Binding:
        """The key of the task's user for a call of ``reader``: the finder's result when the
        user was found, else the key as a fact the user states."""
        return self.find(user.name, reader, index) or self.param_fact(
            reader, user.primary_key, {"type": "string"})  # fmt: skip

    def record_reader(self, key: str, attr: str) -> ToolSpec | None:
        """A read tool keyed by ``key`` alone whose result holds the list ``attr``."""
        for reader in self.spec.tools:
            if tool_access(reader) != "read" or len(reader.required) != 1:
                continue
            if entity_of(reader.required[0], None, self.spec.state_schema) != entity_of(
                key, None, self.spec.state_schema
            ):
                continue
            paths = {x.path for x in output_leaves(reader, self.spec.state_schema)}
            if any(p == f"{attr}[]" or p.startswith(f"{attr}[].") for p in paths):
                return reader
        return None

    # -- reasoning -------------------------------------------------------------------------

    def reason(self, spec: ReasoningSpec, inputs: dict[str, Binding], noun: str) -> str:
        node_id = f"r{self.n_reason}"
        self.n_reason += 1
        self.nodes.append(ReasonNode(id=node_id, spec=spec, inputs=inputs, noun=noun))
        return node_id

    def element_leaves(self, tool: str, list_path: str) -> list[Leaf]:
        """Scalar fields of the elements of the list at ``list_path`` in ``tool``'s result:
        their own fields, which a reasoning step reads by name, not those of an object inside
        them (``properties.created`` is no field ``created`` of the element)."""
        prefix = list_path + "[]."
        leaves = output_leaves(self.spec.tool(tool), self.spec.state_schema)
        return [
            leaf
            for leaf in leaves
            if leaf.path.startswith(prefix) and leaf.path[len(prefix) :] == leaf.name
        ]

    def pinned_fields(self, items: OutputRef) -> set[str]:
        """The arguments given one value each in the call whose result ``items`` reads (a
        list or object of values pins no single field)."""
        call = next((n for n in self.nodes if n.id == items.node), None)
        if not isinstance(call, CallNode):
            return set()
        return {k for k, b in call.args.items() if not isinstance(b, ListBinding | ObjectBinding)}

    def choose(self, items: OutputRef, leaves: list[Leaf], rest: list[PathSeg],
               noun: str) -> Binding:  # fmt: skip
        """The element of ``items`` picked by a condition over its fields ``leaves`` (the
        highest/lowest number, the only one with a value), else by its place; ``rest`` is
        read off the chosen element. A field the call that gave ``items`` was asked to match
        (``search(genre=G)`` then "the only one of genre ...") is no condition: every element
        has the value asked for, so no value narrows them and no extreme is unique."""
        pinned = self.pinned_fields(items)
        leaves = [x for x in leaves if x.name not in pinned]
        numeric = [x for x in leaves if x.type in ("integer", "number")]
        categorical = [
            x for x in leaves
            if x.type == "string" and not is_identifier_name(x.name) and x.entity is None
            and not names_record(x.name)  # "the book whose title is X" names, not chooses
        ]  # fmt: skip
        choices = [("extreme", leaf) for leaf in numeric] + [
            ("filter", leaf) for leaf in categorical
        ]
        if not choices:
            spec = ReasoningSpec(op="lookup", field=[self.rng.choice([0, -1])])
            node = self.reason(spec, {"value": items}, noun)
            return ReasoningRef(node=node, path=rest)
        kind, leaf = self.rng.choice(choices)
        if kind == "extreme":
            spec = ReasoningSpec(op=self.rng.choice(["argmax", "argmin"]), field=[leaf.name])
            return ReasoningRef(node=self.reason(spec, {"items": items}, noun), path=rest)
        value = self.fact(f"{noun}_{leaf.name}", "predicate", dict(leaf.schema))
        spec = ReasoningSpec(op="filter", field=[leaf.name], cmp="eq", take="only")
        node = self.reason(spec, {"items": items, "value": value}, noun)
        return ReasoningRef(node=node, path=rest)


def _describing(fields: tuple[str, ...], base: str) -> str | None:
    """The field a person describes an element by (its name or title); None when the
    elements have none (a payment line is not described by its amount)."""
    return next((f for f in NAME_FIELDS if f in fields and f != base), None)
