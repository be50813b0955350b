"""From a (merged) walk to a blueprint: bind every argument, insert reasoning nodes.

Each walk step becomes a call. Its arguments come, in this order of preference, from the step
that feeds it (its walk parent, along the graph edge's field mapping), from a direct field of
another earlier call, or from a user-known fact. When the feeding field is a list element
(``order_ids[]``, ``[].book_id``) a reasoning node chooses the element: the highest or lowest
by a numeric field, the only one matching a predicate, or the first/last one. Enumerated
arguments of state-changing calls can become a branch on a comparison ("if the total is above
30, cancel as found_cheaper, otherwise as no_longer_needed"). Read calls that feed nothing get an
answer node (a count, a total, a looked-up attribute) whose value the agent must tell the user.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import EnvironmentSpec
from autoforge.lexicon import (
    NAME_FIELDS,
    Leaf,
    entity_of,
    is_identifier_name,
    output_leaves,
    paging_role,
    schema_leaves,
    singular,
    split_path,
    tool_access,
    tool_scope,
)
from autoforge.tasks.blueprints.blueprint import (
    Binding,
    Blueprint,
    BlueprintError,
    CallNode,
    ListBinding,
    ObjectBinding,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.choosing import Chooser, path_of
from autoforge.tasks.blueprints.reasoning import ReasoningSpec
from autoforge.tasks.graph.dependency import FieldMapping, ToolEdge, ToolGraph
from autoforge.tasks.graph.merge import user_collection
from autoforge.tasks.graph.walks import Walk
from autoforge.tasks.scenario.knowledge import Knowledge
from autoforge.tooldocs import ToolSpec


@dataclass
class _Builder(Chooser):
    """Wires each walk step's arguments to the steps before it and adds the answers asked for."""

    #: per walk step, :meth:`providers` (the walk does not change while it is built)
    _providers: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: per (source, target) tool, the graph's edge (the graph does not change either)
    _edges: dict[tuple[str, str], ToolEdge | None] = field(default_factory=dict)

    # -- providers -------------------------------------------------------------------------

    def providers(self, index: int) -> tuple[int, ...]:
        """Earlier steps that may feed step ``index``: parent, its ancestors, then the rest."""
        found = self._providers.get(index)
        if found is not None:
            return found
        chain: list[int] = []
        parent = self.walk.steps[index].parent
        while parent is not None:
            chain.append(parent)
            parent = self.walk.steps[parent].parent
        rest = [i for i in range(index - 1, -1, -1) if i not in chain]
        found = self._providers[index] = (*chain, *rest)
        return found

    def edge(self, provider: int, target: str) -> ToolEdge | None:
        """The graph's edge from walk step ``provider``'s tool to ``target`` (looked up once)."""
        key = (self.walk.steps[provider].tool, target)
        if key not in self._edges:
            self._edges[key] = self.graph.edge(*key)
        return self._edges[key]

    def mapping(self, provider: int, target: str, path: str, index: int) -> FieldMapping | None:
        edge = self.edge(provider, target)
        mapping = edge.mapping_for(path) if edge else None
        if mapping is None:
            return None
        if mapping.through_list and provider != self.walk.steps[index].parent:
            return None  # only the walk's own edge may need a choice among list elements
        return mapping

    def holds_entity(self, path: str, schema: dict[str, Any]) -> bool:
        """Whether a composite parameter has a field holding an entity key (items[].book_id)."""
        if schema.get("type") not in ("object", "array"):
            return False
        leaves = schema_leaves(schema, self.spec.state_schema)
        return any(leaf.entity for leaf in leaves)

    def any_mapping_under(self, index: int, target: str, path: str) -> bool:
        for provider in self.providers(index):
            edge = self.edge(provider, target)
            for m in edge.mappings if edge else []:
                if m.param.startswith((path + ".", path + "[]")):
                    return True
        return False

    # -- reasoning -------------------------------------------------------------------------

    def echoes_list(self, provider: int, name: str) -> bool:
        """Whether the provider's result list ``name`` echoes a one-element list we passed it.

        ``place_order(items=[one line])`` returns an order whose ``items`` has that one line:
        choosing among them is no reasoning, so the element is taken directly.
        """
        call = next((n for n in self.nodes if n.id == f"c{provider}"), None)
        arg = call.args.get(name) if isinstance(call, CallNode) else None
        return isinstance(arg, ListBinding) and len(arg.items) == 1

    def select(self, provider: int, mapping: FieldMapping, index: int) -> Binding | None:
        """A reasoning node choosing one element of the list a mapping goes through; the
        step's other arguments from that list are read off the same element."""
        segs = split_path(mapping.output)
        cut = segs.index("[]")
        prefix, rest = segs[:cut], segs[cut + 1 :]
        if "[]" in rest:
            return None
        user = self.know.user if self.know is not None else None
        if user and rest and entity_of(rest[-1], None, self.spec.state_schema) == user:
            return None  # the user's key is theirs, not picked off one of their records
        tool = self.walk.steps[provider].tool
        list_path = ".".join(prefix)
        if prefix and self.echoes_list(provider, prefix[0]):
            return OutputRef(node=f"c{provider}", path=[*prefix, 0, *rest])
        items = OutputRef(node=f"c{provider}", path=list(prefix))
        entity = entity_of(segs[-1] if rest else (prefix[-1] if prefix else ""), None,
                           self.spec.state_schema)  # fmt: skip
        noun = singular(entity) if entity else singular(prefix[-1]) if prefix else "item"
        holder = next((x.record_of for x in self.element_leaves(tool, list_path)
                       if rest and x.name == rest[-1] and x.record_of), None)  # fmt: skip
        coll = self.spec.state_schema.collection(holder) if holder else None
        if coll is not None and rest and coll.primary_key != rest[-1]:
            noun = singular(coll.name)  # a reference read off a record: "the hotel whose ..."
        if not rest:
            spec = ReasoningSpec(op="lookup", field=[self.rng.choice([0, -1])])
            return ReasoningRef(node=self.reason(spec, {"value": items}, noun))
        same = self.picked.get((index, f"c{provider}:{list_path}"))
        if same is not None:  # the flight and the seat of one order, not of two
            return ReasoningRef(node=same, path=list(rest))
        leaves = [x for x in self.element_leaves(tool, list_path) if x.name != rest[-1]]
        chosen = self.choose(items, leaves, list(rest), noun)
        if isinstance(chosen, ReasoningRef):
            self.picked[(index, f"c{provider}:{list_path}")] = chosen.node
        return chosen

    def branch(self, index: int, name: str, schema: dict[str, Any]) -> Binding | None:
        """``then if <earlier number> > threshold else otherwise`` for an enumerated argument."""
        numeric = [
            (p, leaf)
            for p in self.providers(index)
            for leaf in output_leaves(
                self.spec.tool(self.walk.steps[p].tool), self.spec.state_schema
            )
            if leaf.type in ("integer", "number") and not leaf.through_list and "." not in leaf.path
        ]
        if not numeric or len(schema.get("enum", [])) < 2:
            return None
        provider, leaf = self.rng.choice(numeric)
        threshold = self.fact(f"{leaf.name}_threshold", "threshold", {"type": "number"})
        cmp = ReasoningSpec(op="compare", cmp=self.rng.choice(["gt", "lt"]))
        left = OutputRef(node=f"c{provider}", path=[leaf.name])
        noun = singular(leaf.record_of) if leaf.record_of else "item"
        cond = self.reason(cmp, {"left": left, "right": threshold}, noun)
        inputs: dict[str, Binding] = {
            "condition": ReasoningRef(node=cond),
            "then": self.fact(f"{name}_if_true", "choice", schema),
            "else": self.fact(f"{name}_otherwise", "choice", schema),
        }
        return ReasoningRef(node=self.reason(ReasoningSpec(op="branch"), inputs, noun))

    # -- arguments -------------------------------------------------------------------------

    def bind(self, index: int, tool: ToolSpec, path: str, schema: dict[str, Any]) -> Binding:
        for provider in self.providers(index):
            mapping = self.mapping(provider, tool.name, path, index)
            if mapping is None:
                continue
            if not mapping.through_list:
                return OutputRef(node=f"c{provider}", path=path_of(mapping.output))
            selected = self.select(provider, mapping, index)
            if selected is not None:
                return selected
        if self.any_mapping_under(index, tool.name, path) or self.holds_entity(path, schema):
            if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
                return ListBinding(items=[self.bind(index, tool, path + "[]", schema["items"])])
            if schema.get("type") == "object" and schema.get("properties"):
                return self.bind_object(index, tool, path, schema)
        if (
            tool_access(tool) == "write"
            and schema.get("type") == "object"
            and self.rng.random() < self.reasoning_rate
        ):
            stored = self.from_profile(index, tool, schema)
            if stored is not None:
                return stored
        if (
            tool_access(tool) == "write"
            and schema.get("enum")
            and self.rng.random() < self.reasoning_rate * 0.35
        ):
            branched = self.branch(index, path.replace("[]", "").split(".")[-1], schema)
            if branched is not None:
                return branched
        return self.param_fact(tool, path, schema, index)

    def bind_object(self, index: int, tool: ToolSpec, path: str, schema: dict[str, Any]) -> Binding:
        required = set(schema.get("required", list(schema["properties"])))
        fields: dict[str, Binding] = {}
        for key, sub in schema["properties"].items():
            sub_path = f"{path}.{key}"
            if (
                key in required
                or self.any_mapping_under(index, tool.name, sub_path)
                or any(self.mapping(p, tool.name, sub_path, index) for p in self.providers(index))
            ):
                fields[key] = self.bind(index, tool, sub_path, sub)
        return ObjectBinding(fields=fields)

    def call(self, index: int) -> CallNode:
        step = self.walk.steps[index]
        tool = self.spec.tool(step.tool)
        props = tool.parameters.get("properties", {})
        args: dict[str, Binding] = {}
        if tool_access(tool) == "write" and self.rng.random() < self.reasoning_rate:
            args.update(self.flat_profile(index, tool))  # address1, city, zip: "my address"
        self.own_ids = False
        required = tool.required
        for name in required:
            if name not in args:
                schema = props.get(name, {})
                related = self.related(index, tool, name, schema, args)
                self.own_ids = self.own_ids or related is not None
                args[name] = related or self.bind(index, tool, name, schema)
        optional = [n for n in tool.param_names  # a cursor or page size picks no record
                    if n not in required and paging_role(n, props.get(n)) is None]  # fmt: skip
        single = [n for n in optional if (props.get(n) or {}).get("type") != "array"]
        if not required and single and self.rng.random() < 0.8:  # one value, not a list
            ranked = sorted(single, key=lambda n: not props[n].get("enum"))
            name = ranked[0] if props[ranked[0]].get("enum") else self.rng.choice(single)
            args[name] = self.param_fact(tool, name, props.get(name, {}), index)
        values = [n for n in optional  # a value of the record, not a key naming one
                  if entity_of(n, None, self.spec.state_schema) is None
                  and not is_identifier_name(n)]  # fmt: skip
        if values and not set(values) & set(args) and self.changes_nothing(tool, args):
            name = self.rng.choice(values)  # an update told no new value changes nothing
            args[name] = self.param_fact(tool, name, props.get(name, {}), index)
        return CallNode(id=f"c{index}", tool=tool.name, args=args, walk=step.origin)

    def changes_nothing(self, tool: ToolSpec, args: dict[str, Binding]) -> bool:
        """Whether ``tool`` is an update (or a create) whose arguments so far only name
        records: every value it documents is optional, and a call without one changes nothing
        (makes an empty record)."""
        scope = tool_scope(tool, self.spec.state_schema)
        return scope.cls in ("update", "create") and all(
            entity_of(n, None, self.spec.state_schema) is not None for n in args
        )

    # -- answers ---------------------------------------------------------------------------

    def answer(self, call: CallNode) -> None:
        """Add a reasoning node over a read call's result whose value the user must be told."""
        leaves = output_leaves(self.spec.tool(call.tool), self.spec.state_schema)
        ref = OutputRef(node=call.id)
        lists = sorted({x.path.split("[]")[0] for x in leaves if x.through_list})
        scalars = [
            x for x in leaves
            if not x.through_list and "." not in x.path and not is_identifier_name(x.name)
            and x.type in ("string", "integer", "number")
        ]  # fmt: skip
        options: list[tuple[ReasoningSpec, dict[str, Binding], str]] = []
        for list_path in lists:
            items = OutputRef(node=call.id, path=path_of(list_path))
            elems = self.element_leaves(call.tool, list_path)
            noun = self.list_noun(list_path, elems)
            options.append((ReasoningSpec(op="count"), {"items": items}, noun))
            for leaf in elems:
                if leaf.type in ("integer", "number"):
                    total = ReasoningSpec(op="sum" if self.rng.random() < 0.5 else "average",
                                          field=[leaf.name])  # fmt: skip
                    options.append((total, {"items": items}, noun))
        user = user_collection(self.spec.state_schema)
        own = [
            x for x in scalars if x.record_of == user and x.name in (*NAME_FIELDS, "email", "phone")
        ]
        scalars = [x for x in scalars if x not in own]  # the user knows their own name
        for leaf in scalars:
            noun = singular(leaf.record_of) if leaf.record_of else "result"
            spec = ReasoningSpec(op="lookup", field=[leaf.name])
            options.append((spec, {"value": ref}, noun))
        if options:
            spec, inputs, noun = self.rng.choice(options)
            self.outputs.append(self.reason(spec, inputs, noun))

    def list_noun(self, list_path: str, elems: list[Leaf]) -> str:
        records = {leaf.record_of for leaf in elems if leaf.record_of}
        if len(records) == 1:
            return singular(records.pop())
        name = list_path.split(".")[-1] if list_path else ""
        entity = entity_of(name, None, self.spec.state_schema) if name else None
        return singular(entity or name or "item")

    def derive_values(self) -> None:
        """Values the user would state, read instead from their own records where the
        difficulty's limits leave room for the lookups: an entry of a map on the user's
        record described by its kind (:meth:`Chooser.from_user_map`), an object copied from
        another of their records (:meth:`Chooser.from_other_record`). A change that breaks a
        limit is undone, so the lookups never push a task out of its difficulty."""
        writes = [n.id for n in self.nodes if isinstance(n, CallNode)
                  and tool_access(self.spec.tool(n.tool)) == "write"]  # fmt: skip
        ways = ((self.from_user_map, self.stated_values),
                (self.from_other_record, self.placed_args))  # fmt: skip
        for node_id in writes:
            for way, needed in ways:
                pos = next((i for i, n in enumerate(self.nodes) if n.id == node_id), None)
                if pos is None:  # merged into an identical call by the last change
                    break
                if not needed(pos):  # the way would change nothing: no state to save
                    continue
                saved = (list(self.nodes), dict(self.facts), dict(self.found), self.n_reason,
                         self.rng.getstate())  # fmt: skip
                if not way(pos):
                    continue
                self.nodes = _dedupe_calls(self.nodes)
                if not self.fits():
                    self.nodes, self.facts, self.found, self.n_reason, state = saved
                    self.rng.setstate(state)
                    if way == self.from_user_map:  # else the user would state an internal id
                        raise BlueprintError(["an entry of the user's record said by its id"])

    def fits(self) -> bool:
        """Whether the blueprint so far, with an answer for each read that feeds nothing,
        keeps within the most calls and reasoning nodes :attr:`limits` allow."""
        bp = Blueprint(nodes=list(self.nodes), facts=list(self.facts.values()))
        used = {dep for node in bp.nodes for dep in bp.dependencies(node)}
        idle = sum(1 for c in bp.calls if c.id not in used
                   and tool_access(self.spec.tool(c.tool)) == "read")  # fmt: skip
        most_calls = self.limits.get("tool_calls", (None, None))[1]
        most_reasoning = self.limits.get("reasoning_nodes", (None, None))[1]
        return (most_calls is None or len(bp.calls) <= most_calls) and (
            most_reasoning is None or len(bp.reasoning) + idle <= most_reasoning
        )

    def build(self) -> Blueprint:
        for index in range(len(self.walk.steps)):
            self.nodes.append(self.call(index))
        self.nodes = _dedupe_calls(self.nodes)
        most = self.limits.get("tool_calls", (None, None))[1]
        calls = sum(isinstance(n, CallNode) for n in self.nodes)
        if most is not None and calls > most:
            raise TooManyCalls(calls, most)
        self.derive_values()
        if self.copies_back():  # a write undoing another is no request a person makes
            raise BlueprintError(["a write copies back what another write copied"])
        bp = Blueprint(nodes=list(self.nodes), facts=list(self.facts.values()))
        used = {dep for node in bp.nodes for dep in bp.dependencies(node)}
        reads = [c for c in bp.calls if tool_access(self.spec.tool(c.tool)) == "read"]
        for call in reads:
            if call.id not in used:
                self.answer(call)
        # asked for more reasoning: also ask about intermediate lookups ("and tell me ..."),
        extra = [c for c in reads if c.id in used]
        self.rng.shuffle(extra)
        # then about what a state-changing call returned ("... and tell me the new total")
        writes = [c for c in bp.calls if c not in reads]
        self.rng.shuffle(writes)
        extra = writes + extra
        while extra and sum(isinstance(n, ReasonNode) for n in self.nodes) < self.min_reasoning:
            self.answer(extra.pop())
        origins = sorted({s.origin for s in self.walk.steps})
        walks = [[s.tool for s in self.walk.steps if s.origin == o] for o in origins]
        bp = Blueprint(
            nodes=list(self.nodes), facts=list(self.facts.values()), outputs=self.outputs,
            walks=walks,
        )  # fmt: skip
        used = set(bp.fact_names_used())  # a stated value replaced by a record's own drops out
        return bp.model_copy(update={"facts": [f for f in bp.facts if f.name in used]})


class TooManyCalls(BlueprintError):
    """The walk's calls alone are more than the difficulty's ``tool_calls`` allow.

    Raised before the values, answers and validation are worked out: what follows only adds
    calls where the limit leaves room (:meth:`_Builder.derive_values` undoes any change that
    breaks it), so the finished blueprint would be rejected for its calls anyway."""

    def __init__(self, calls: int, most: int) -> None:
        super().__init__([f"{calls} tool calls, at most {most} asked"])


def _remap(binding: Binding, rename: dict[str, str]) -> Binding:
    if isinstance(binding, ListBinding):
        return ListBinding(items=[_remap(b, rename) for b in binding.items])
    if isinstance(binding, ObjectBinding):
        return ObjectBinding(fields={k: _remap(b, rename) for k, b in binding.fields.items()})
    if isinstance(binding, OutputRef | ReasoningRef) and binding.node in rename:
        return binding.model_copy(update={"node": rename[binding.node]})
    return binding


def _dedupe_calls(nodes: list[CallNode | ReasonNode]) -> list[CallNode | ReasonNode]:
    """Drop calls (and reasoning nodes) identical to an earlier one; re-point their users.

    Merging can leave two steps that make the very same call with the very same bindings (two
    walks both ending in "order the cheapest fantasy book"); a user asks for a thing once.
    """
    rename: dict[str, str] = {}
    seen: dict[str, str] = {}
    out: list[CallNode | ReasonNode] = []
    kinds = [n.tool if isinstance(n, CallNode) else f"?{n.spec.op}" for n in nodes]
    for node, kind in zip(nodes, kinds, strict=True):
        if rename and isinstance(node, CallNode):
            node = node.model_copy(
                update={"args": {k: _remap(b, rename) for k, b in node.args.items()}}
            )
        elif rename and isinstance(node, ReasonNode):
            node = node.model_copy(
                update={"inputs": {k: _remap(b, rename) for k, b in node.inputs.items()}}
            )
        if kinds.count(kind) < 2:  # nothing else of its kind: it cannot repeat another node
            out.append(node)
            continue
        key = node.model_dump_json(exclude={"id", "walk"})
        if key in seen:
            rename[node.id] = seen[key]
            continue
        seen[key] = node.id
        out.append(node)
    return out


def without_calls(bp: Blueprint, rename: dict[str, str]) -> Blueprint:
    """``bp`` without the calls in ``rename`` (old id -> id of the identical call that stays);
    their users read from the kept call, and facts no longer used are dropped."""
    nodes: list[CallNode | ReasonNode] = []
    for node in bp.nodes:
        if node.id in rename:
            continue
        if isinstance(node, CallNode):
            args = {k: _remap(b, rename) for k, b in node.args.items()}
            nodes.append(node.model_copy(update={"args": args}))
        else:
            inputs = {k: _remap(b, rename) for k, b in node.inputs.items()}
            nodes.append(node.model_copy(update={"inputs": inputs}))
    slim = bp.model_copy(update={"nodes": nodes})
    used = set(slim.fact_names_used())
    return slim.model_copy(update={"facts": [f for f in bp.facts if f.name in used]})


def build_blueprint(
    walk: Walk,
    graph: ToolGraph,
    spec: EnvironmentSpec,
    rng: random.Random,
    reasoning_rate: float = 0.5,
    min_reasoning: int = 0,
    know: Knowledge | None = None,
    limits: dict[str, tuple[int | None, int | None]] | None = None,
) -> Blueprint:
    """The blueprint of a walk; validated against ``spec`` (raises ``BlueprintError``, or
    :class:`TooManyCalls` as soon as the walk's calls exceed ``limits``' ``tool_calls``).

    ``reasoning_rate`` is the chance of turning an enumerated write argument into a branch;
    with ``min_reasoning``, intermediate read results are also asked about until the blueprint
    has that many reasoning nodes (when it has enough reads). With ``know``, a key the user
    does not hold is found by its finder call from what the user holds (an email, a title).
    ``limits`` (the difficulty's ``[min, max]`` per metric) bound the lookups added to read a
    value from the user's records instead of having it stated.
    """
    builder = _Builder(spec=spec, graph=graph, walk=walk, rng=rng,
                       reasoning_rate=reasoning_rate, min_reasoning=min_reasoning,
                       know=know, limits=dict(limits or {}))  # fmt: skip
    blueprint = builder.build()
    blueprint.validate_against(spec)
    return blueprint
