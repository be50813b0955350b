"""The task blueprint: a DAG of tool-call nodes and reasoning nodes with every argument bound.

Each argument of each call is bound to a user-known fact (``{"kind": "user_fact", "name": ...}``),
to a path in a previous node's output (``{"kind": "output", "node": ..., "path": [...]}``), to a
reasoning node (``{"kind": "reasoning", ...}``), or to a list/object built from such bindings
(``place_order(items=[{"book_id": <output>, "quantity": <user_fact>}])``). A blueprint holds no
values: instantiation picks the facts and a state, execution fills in the rest.
"""

from __future__ import annotations

import hashlib
import heapq
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import networkx as nx
from pydantic import BaseModel, Field

from autoforge.env import EnvironmentSpec
from autoforge.errors import AutoforgeError
from autoforge.tasks.blueprints.reasoning import OP_INPUTS, PathSeg, ReasoningSpec

BLUEPRINT_SCHEMA_VERSION = 1

FactRole = Literal["entity", "attribute", "reference", "value", "predicate", "threshold", "choice"]


class FactRef(BaseModel):
    """An argument the user knows and tells the agent (an email, an order id, a new address)."""

    kind: Literal["user_fact"] = "user_fact"
    name: str


class OutputRef(BaseModel):
    """A value at ``path`` in the result of an earlier tool call."""

    kind: Literal["output"] = "output"
    node: str
    path: list[PathSeg] = Field(default_factory=list)


class ReasoningRef(BaseModel):
    """A value at ``path`` in the result of a reasoning node (the node's value when empty)."""

    kind: Literal["reasoning"] = "reasoning"
    node: str
    path: list[PathSeg] = Field(default_factory=list)


class ListBinding(BaseModel):
    """A list argument whose elements are bindings."""

    kind: Literal["list"] = "list"
    items: list[Binding]


class ObjectBinding(BaseModel):
    """An object argument whose fields are bindings."""

    kind: Literal["object"] = "object"
    fields: dict[str, Binding]


Binding = Annotated[
    FactRef | OutputRef | ReasoningRef | ListBinding | ObjectBinding, Field(discriminator="kind")
]
ListBinding.model_rebuild()
ObjectBinding.model_rebuild()


class CallNode(BaseModel):
    """One tool call of the gold trajectory; ``walk`` is the index of the walk it came from."""

    kind: Literal["call"] = "call"
    id: str
    tool: str
    args: dict[str, Binding] = Field(default_factory=dict)
    walk: int = 0


class ReasonNode(BaseModel):
    """A reasoning step; ``noun`` names the elements it works on (for question writing)."""

    kind: Literal["reasoning"] = "reasoning"
    id: str
    spec: ReasoningSpec
    inputs: dict[str, Binding] = Field(default_factory=dict)
    noun: str = "item"


Node = Annotated[CallNode | ReasonNode, Field(discriminator="kind")]


class FactSpec(BaseModel):
    """A user-known fact the blueprint needs, and where instantiation takes its value from.

    ``role``: ``entity`` (a primary key of ``collection``), ``attribute`` (an attribute of a record
    of ``collection``, e.g. an email), ``reference`` (an attribute the user holds that identifies
    exactly one record of ``collection``: the email a finder takes, see
    :mod:`autoforge.tasks.scenario.knowledge`), ``value`` (a free argument generated from
    ``json_schema``),
    ``predicate`` (the value a filter compares with), ``threshold`` (the right side of a
    comparison) or ``choice`` (an alternative of a branch).
    """

    name: str
    role: FactRole = "value"
    json_schema: dict[str, Any] = Field(default_factory=dict)
    collection: str | None = None
    attribute: str | None = None
    description: str = ""


#: ``id(blueprint) -> (its nodes, their dependencies)``; see :meth:`Blueprint._order`.
_ORDER_CACHE: dict[int, tuple[tuple[Any, ...], _Order]] = {}


class BlueprintError(AutoforgeError, ValueError):
    """A blueprint is cyclic, incomplete or refers to unknown tools, nodes or facts."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid blueprint: " + "; ".join(problems))


def iter_refs(binding: Binding) -> Iterator[FactRef | OutputRef | ReasoningRef]:
    """The leaf references inside a (possibly composite) binding."""
    if isinstance(binding, _LEAVES):
        return iter((binding,))
    out: list[FactRef | OutputRef | ReasoningRef] = []
    _collect_refs(binding, out)
    return iter(out)


_LEAVES = (FactRef, OutputRef, ReasoningRef)


def _collect_refs(binding: Binding, out: list[FactRef | OutputRef | ReasoningRef]) -> None:
    """Append the leaf references of ``binding`` to ``out``, depth first (a list, not nested
    generators: blueprints are walked tens of thousands of times per run)."""
    if isinstance(binding, ListBinding):
        for item in binding.items:
            _collect_refs(item, out)
    elif isinstance(binding, ObjectBinding):
        for value in binding.fields.values():
            _collect_refs(value, out)
    else:
        out.append(binding)


@dataclass
class _Order:
    """A blueprint's dependencies (node id -> the ids it reads) and what is derived from them
    once: the execution order (None while not computed), the levels and the networkx DAG."""

    parents: dict[str, set[str]]
    ids: list[str]
    topo: list[str] | None = None
    levels: dict[str, int] | None = None
    graph: nx.DiGraph | None = None

    def kahn(self) -> list[str] | None:
        """Node ids in execution order, the lowest list position first among the nodes ready
        (what ``nx.lexicographical_topological_sort`` with the position as key gives); None
        when the dependencies form a cycle or name an unknown or repeated node."""
        if self.topo is not None:
            return self.topo
        index = {node_id: i for i, node_id in enumerate(self.ids)}
        if len(index) != len(self.ids):
            return None
        children: dict[str, list[str]] = {node_id: [] for node_id in self.ids}
        waiting: dict[str, int] = {}
        for node_id, deps in self.parents.items():
            for dep in deps:
                if dep not in children:
                    return None
                children[dep].append(node_id)
            waiting[node_id] = len(deps)
        ready = [i for i, node_id in enumerate(self.ids) if not waiting[node_id]]
        heapq.heapify(ready)
        order: list[str] = []
        while ready:
            node_id = self.ids[heapq.heappop(ready)]
            order.append(node_id)
            for child in children[node_id]:
                waiting[child] -= 1
                if not waiting[child]:
                    heapq.heappush(ready, index[child])
        if len(order) != len(self.ids):
            return None
        self.topo = order
        return order


class Blueprint(BaseModel):
    """A DAG of calls and reasoning nodes, the facts it needs and the values to tell the user."""

    schema_version: int = BLUEPRINT_SCHEMA_VERSION
    nodes: list[Node] = Field(default_factory=list)
    facts: list[FactSpec] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list, description="node ids to tell the user")
    walks: list[list[str]] = Field(default_factory=list, description="tools of each merged walk")

    def node(self, node_id: str) -> CallNode | ReasonNode:
        """The node called ``node_id``; ``KeyError`` if there is none."""
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(node_id)

    def fact(self, name: str) -> FactSpec:
        """The fact called ``name``; ``KeyError`` if there is none."""
        for fact in self.facts:
            if fact.name == name:
                return fact
        raise KeyError(name)

    @property
    def calls(self) -> list[CallNode]:
        """The tool-call nodes, in list order."""
        return [n for n in self.nodes if isinstance(n, CallNode)]

    @property
    def reasoning(self) -> list[ReasonNode]:
        """The reasoning nodes, in list order."""
        return [n for n in self.nodes if isinstance(n, ReasonNode)]

    def bindings(self, node: CallNode | ReasonNode) -> dict[str, Binding]:
        """A node's argument bindings (call args or reasoning inputs)."""
        return node.args if isinstance(node, CallNode) else node.inputs

    def dependencies(self, node: CallNode | ReasonNode) -> set[str]:
        """Ids of the nodes whose outputs ``node`` reads."""
        return {
            ref.node
            for binding in self.bindings(node).values()
            for ref in iter_refs(binding)
            if not isinstance(ref, FactRef)
        }

    def fact_names_used(self) -> list[str]:
        """Names of the facts referenced by any binding, in first-use order."""
        names: list[str] = []
        for node in self.nodes:
            for binding in self.bindings(node).values():
                for ref in iter_refs(binding):
                    if isinstance(ref, FactRef) and ref.name not in names:
                        names.append(ref.name)
        return names

    def _order(self) -> _Order:
        """The dependencies and what follows from them (cached).

        The cache is keyed by the identity of the node objects, so replacing a node (or the
        list) recomputes it; blueprints are not meant to be edited in place after that.
        """
        cached = _ORDER_CACHE.get(id(self))
        nodes = tuple(self.nodes)
        if (
            cached is not None
            and len(cached[0]) == len(nodes)
            and all(a is b for a, b in zip(cached[0], nodes, strict=True))
        ):
            return cached[1]
        order = _Order({n.id: self.dependencies(n) for n in nodes}, [n.id for n in nodes])
        if len(_ORDER_CACHE) >= 512:
            _ORDER_CACHE.pop(next(iter(_ORDER_CACHE)))
        _ORDER_CACHE[id(self)] = (nodes, order)  # holding the nodes keeps their ids unique
        return order

    def dag(self) -> nx.DiGraph:
        """The dependency graph (edge parent -> child) over node ids (cached; do not mutate)."""
        order = self._order()
        if order.graph is None:
            order.graph = self._build_dag()
        return order.graph

    def _build_dag(self) -> nx.DiGraph:
        graph = nx.DiGraph()
        graph.add_nodes_from(n.id for n in self.nodes)
        for node in self.nodes:
            for dep in self.dependencies(node):
                graph.add_edge(dep, node.id)
        return graph

    def topo_order(self) -> list[str]:
        """Node ids in an execution order (list order among independent nodes)."""
        found = self._order().kahn()
        if found is None:  # a cycle or an unknown node: what networkx says about it
            index = {n.id: i for i, n in enumerate(self.nodes)}
            found = list(nx.lexicographical_topological_sort(self.dag(), key=lambda k: index[k]))
        return list(found)

    def levels(self) -> dict[str, int]:
        """Each node's dependency level: 0 without dependencies, else 1 + its parents' highest
        (the generation ``nx.topological_generations`` puts it in; one pass, cached)."""
        order = self._order()
        if order.levels is None:
            levels: dict[str, int] = {}
            for node_id in self.topo_order():
                parents = [levels[p] for p in order.parents[node_id]]
                levels[node_id] = 1 + max(parents) if parents else 0
            order.levels = levels
        return dict(order.levels)

    def depth(self) -> int:
        """Number of nodes on the longest dependency chain."""
        return max(self.levels().values(), default=-1) + 1

    def width(self) -> int:
        """The largest number of nodes that share a dependency level."""
        counts: dict[int, int] = {}
        for level in self.levels().values():
            counts[level] = counts.get(level, 0) + 1
        return max(counts.values(), default=0)

    def validate_against(self, spec: EnvironmentSpec | None = None) -> None:
        """Raise :class:`BlueprintError` unless the blueprint is acyclic and complete.

        Complete: ids unique, every reference names an existing node or declared fact, every
        reasoning node has the inputs its operator needs, every output is a node, and (with
        ``spec``) every call names a known tool, binds all its required parameters and no
        undocumented one.
        """
        problems = self._structure_problems()
        if spec is not None:
            problems += self._tool_problems(spec)
        if not problems and self._order().kahn() is None:
            problems.append("the node dependencies form a cycle")
        if problems:
            raise BlueprintError(problems)

    def _structure_problems(self) -> list[str]:
        ids = [n.id for n in self.nodes]
        known = set(ids)
        dups = sorted({i for i in ids if ids.count(i) > 1}) if len(known) < len(ids) else []
        problems = [f"duplicate node id {i!r}" for i in dups]
        facts = {f.name for f in self.facts}
        for node in self.nodes:
            for name, binding in self.bindings(node).items():
                for ref in iter_refs(binding):
                    if isinstance(ref, FactRef):
                        if ref.name not in facts:
                            problems.append(f"{node.id}.{name}: undeclared fact {ref.name!r}")
                    elif ref.node not in known:
                        problems.append(f"{node.id}.{name}: unknown node {ref.node!r}")
            if isinstance(node, ReasonNode):
                missing = set(OP_INPUTS[node.spec.op]) - set(node.inputs)
                op = node.spec.op
                problems += [f"{node.id}: {op} needs input {m!r}" for m in sorted(missing)]
        problems += [f"output {o!r} is not a node" for o in self.outputs if o not in known]
        return problems

    def _tool_problems(self, spec: EnvironmentSpec) -> list[str]:
        problems: list[str] = []
        for call in self.calls:
            try:
                tool = spec.tool(call.tool)
            except KeyError:
                problems.append(f"{call.id}: unknown tool {call.tool!r}")
                continue
            missing = [p for p in tool.required if p not in call.args]
            problems += [
                f"{call.id}: required argument {p!r} of {tool.name} unbound" for p in missing
            ]
            documented = tool.parameters.get("properties", {})
            extra = [a for a in call.args if a not in documented]
            problems += [f"{call.id}: {tool.name} has no parameter {a!r}" for a in extra]
        return problems

    def signature(self, facts: dict[str, Any] | None = None) -> str:
        """A canonical hash of the structure (and the fact values, when given) for de-duplication.

        Node ids are replaced by their position in execution order, so two blueprints that differ
        only in naming have the same signature.
        """
        order = self.topo_order()
        rename = {node_id: f"n{i}" for i, node_id in enumerate(order)}
        by_id = {n.id: n for n in reversed(self.nodes)}  # the first of an id, as node() finds
        canon = []
        for node_id in order:
            dumped = by_id[node_id].model_dump(mode="json", exclude={"walk", "noun"})
            canon.append(_rename_refs(dumped, rename))
        payload = {
            "nodes": canon,
            "outputs": sorted(rename[o] for o in self.outputs),
            "facts": facts if facts is not None else None,
        }
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()


_CONTAINERS = (dict, list)


def _rename_refs(value: Any, rename: dict[str, str]) -> Any:
    if isinstance(value, dict):
        out = {k: _rename_refs(v, rename) if isinstance(v, _CONTAINERS) else v
               for k, v in value.items()}  # fmt: skip
        node = out.get("node")
        if out.get("kind") in ("output", "reasoning") and isinstance(node, str) and node in rename:
            out["node"] = rename[node]
        if isinstance(out.get("id"), str) and out["id"] in rename:
            out["id"] = rename[out["id"]]
        return out
    if isinstance(value, list):
        return [_rename_refs(v, rename) if isinstance(v, _CONTAINERS) else v for v in value]
    return value
