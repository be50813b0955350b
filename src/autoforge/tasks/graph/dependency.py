"""The tool dependency graph: an edge A -> B when an output of A can supply an input of B.

Edges are proposed by rule from the schemas (see :mod:`autoforge.lexicon.dataflow`): a field
and a
parameter holding the primary key of the same collection (``order_ids[]`` -> ``order_id``), or
two identifier-like fields with the same name. Every edge records why and which output path feeds
which parameter. An :class:`EdgeJudge` then confirms the candidates in one batch and may add
edges the schemas do not show; the default judge keeps every rule edge, so the whole step works
without an LLM. The graph is persisted as ``graph.json`` and drawn as SVG for the report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Protocol

import networkx as nx
from pydantic import BaseModel, Field

from autoforge.env import EnvironmentSpec
from autoforge.lexicon import (
    Leaf,
    is_identifier_name,
    new_key_param,
    output_leaves,
    param_leaves,
    qualified_for,
    tool_access,
    tool_scope,
)
from autoforge.tooldocs import ToolSpec

GRAPH_SCHEMA_VERSION = 1


class FieldMapping(BaseModel):
    """An output path of the source tool that can supply a parameter path of the target."""

    output: str
    param: str
    reason: str
    required: bool = Field(default=False, description="the parameter is required")

    @property
    def through_list(self) -> bool:
        """Whether one element of a list must be chosen (a reasoning step)."""
        return "[]" in self.output


class ToolEdge(BaseModel):
    """A data-flow edge ``source -> target`` with its field mappings."""

    source: str
    target: str
    mappings: list[FieldMapping]
    reason: str
    confirmed_by: Literal["rule", "llm"] = "rule"

    def mapping_for(self, param: str) -> FieldMapping | None:
        """The mapping that supplies the parameter path ``param``, or None."""
        return next((m for m in self.mappings if m.param == param), None)


class ToolNode(BaseModel):
    """A tool as a graph node: whether it writes, and which entities it consumes and produces."""

    name: str
    access: Literal["read", "write"]
    description: str = ""
    consumes: list[str] = Field(default_factory=list)
    produces: list[str] = Field(default_factory=list)


class EdgeVerdict(BaseModel):
    """A judge's decision on one candidate edge."""

    keep: bool
    reason: str = ""


#: ``id(graph) -> (graph, its edge list, its length, (source, target) -> first edge)``
_EDGE_INDEX: dict[int, tuple[Any, list[Any], int, dict[tuple[str, str], Any]]] = {}


class ToolGraph(BaseModel):
    """Nodes (tools), confirmed edges and the candidates the judge rejected."""

    schema_version: int = GRAPH_SCHEMA_VERSION
    env_id: str
    nodes: list[ToolNode] = Field(default_factory=list)
    edges: list[ToolEdge] = Field(default_factory=list)
    rejected: list[ToolEdge] = Field(default_factory=list)
    judge: str = "rules"

    def node(self, name: str) -> ToolNode:
        """The node of tool ``name``; ``KeyError`` if there is none."""
        for node in self.nodes:
            if node.name == name:
                return node
        raise KeyError(name)

    def out_edges(self, tool: str) -> list[ToolEdge]:
        """Edges leaving ``tool``, in graph order."""
        return [e for e in self.edges if e.source == tool]

    def in_edges(self, tool: str) -> list[ToolEdge]:
        """Edges entering ``tool``, in graph order."""
        return [e for e in self.edges if e.target == tool]

    def edge(self, source: str, target: str) -> ToolEdge | None:
        """The edge ``source -> target`` (the first, should there be several), or None.

        Looked up in an index of the edges, made again when the edge list is replaced or
        grows (edges are only ever added); blueprint building asks thousands of times a run.
        """
        edges = self.edges
        cached = _EDGE_INDEX.get(id(self))
        if cached is None or cached[0] is not self or cached[1] is not edges or (
                cached[2] != len(edges)):  # fmt: skip
            index: dict[tuple[str, str], ToolEdge] = {}
            for e in edges:
                index.setdefault((e.source, e.target), e)
            if len(_EDGE_INDEX) >= 64:
                _EDGE_INDEX.pop(next(iter(_EDGE_INDEX)))
            cached = _EDGE_INDEX[id(self)] = (self, edges, len(edges), index)
        return cached[3].get((source, target))

    def writes(self) -> set[str]:
        """Names of the state-changing tools."""
        return {n.name for n in self.nodes if n.access == "write"}

    def to_networkx(self) -> nx.DiGraph:
        """The graph as a networkx DiGraph (edge attribute ``edge`` holds the ToolEdge)."""
        graph = nx.DiGraph()
        for node in self.nodes:
            graph.add_node(node.name, access=node.access)
        for edge in self.edges:
            graph.add_edge(edge.source, edge.target, edge=edge)
        return graph

    def save(self, path: str | Path) -> Path:
        """Write ``graph.json`` (or ``path`` when it names a file) and return its path."""
        target = Path(path)
        if target.is_dir() or not target.suffix:
            target = target / "graph.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(self.model_dump_json(indent=2) + "\n", encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: str | Path) -> ToolGraph:
        """Read a ``graph.json`` written by :meth:`save`."""
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))


class EdgeJudge(Protocol):
    """Confirms candidate edges (one batch per environment) and may add edges of its own.

    An LLM judge sees the tool docs and the candidates, answers keep/drop with a reason for
    each, and may propose edges the schemas do not show (``propose``); proposals are validated
    against the tools' real parameters before they enter the graph.
    """

    name: str

    def judge(self, spec: EnvironmentSpec, candidates: list[ToolEdge]) -> list[EdgeVerdict]:
        """One verdict per candidate, in order."""
        ...

    def propose(self, spec: EnvironmentSpec, graph: ToolGraph) -> list[ToolEdge]:
        """Extra edges beyond the rule candidates (may be empty)."""
        ...


class RuleJudge:
    """The deterministic default: keeps every rule edge and proposes none."""

    name = "rules"

    def judge(self, spec: EnvironmentSpec, candidates: list[ToolEdge]) -> list[EdgeVerdict]:
        """Keep all candidates."""
        return [EdgeVerdict(keep=True, reason="schema rule") for _ in candidates]

    def propose(self, spec: EnvironmentSpec, graph: ToolGraph) -> list[ToolEdge]:
        """No extra edges."""
        return []


def _match(out: Leaf, param: Leaf) -> str | None:
    """Why ``out`` can supply ``param`` (None if it cannot)."""
    numbers = {out.type, param.type} == {"integer", "number"}
    if out.type and param.type and out.type != param.type and not numbers:
        return None
    if out.entity and out.entity == param.entity:
        return f"both hold the key of {out.entity}"
    plain = _in_plain_object(out.path) or _in_plain_object(param.path)
    if out.name == param.name and is_identifier_name(out.name) and not out.entity and not plain:
        return f"same identifier {out.name!r}"
    return None


def _in_plain_object(path: str) -> bool:
    """Whether a path lies inside a plain (non-record-list) object, like ``address.postal_code``.

    Such fields are parts of a composite value (an address) rather than references, so they are
    not matched by name alone.
    """
    parts = path.split(".")
    return any(not part.endswith("[]") for part in parts[:-1])


def _best_mapping(outs: list[Leaf], param: Leaf, required: bool) -> FieldMapping | None:
    options = [(o, r) for o in outs if (r := _match(o, param)) is not None]
    if not options:
        return None
    # Prefer direct fields over list elements, then the shortest path (the record's own key).
    out, reason = min(options, key=lambda opt: (opt[0].through_list, len(opt[0].path)))
    return FieldMapping(output=out.path, param=param.path, reason=reason, required=required)


def _adds_nothing(target: ToolSpec, known: set[str], spec: EnvironmentSpec) -> bool:
    """A read tool whose every result field the source already returned: a pointless lookup
    (``get_customer -> find_customer_by_email``)."""
    if tool_access(target) != "read":
        return False
    names = {leaf.name for leaf in output_leaves(target, spec.state_schema)}
    return bool(names) and names <= known


def propose_edges(spec: EnvironmentSpec) -> list[ToolEdge]:
    """All rule edges between the tools of ``spec``, in tool order.

    No self-loops, no edge into a read tool that would return nothing new, and no field of
    records the source's name qualifies into a tool they do not serve (:func:`qualified_for`:
    a shop's invoice feeds no call about a client's invoice).
    """
    state = spec.state_schema
    edges: list[ToolEdge] = []
    for source in spec.tools:
        outs = output_leaves(source, state)
        out_names = {o.name for o in outs}
        scope = tool_scope(source, state)
        for target in spec.tools:
            if target.name == source.name or _adds_nothing(target, out_names, spec):
                continue
            usable = outs if qualified_for(scope.qualifier, target, state) else [
                o for o in outs if o.record_of != scope.collection]  # fmt: skip
            mappings = []
            made = new_key_param(target, state)
            for param in param_leaves(target, state):
                if param.path == made:  # a create's own key is new: nothing existing feeds it
                    continue
                required = param.path.split(".")[0].replace("[]", "") in target.required
                mapping = _best_mapping(usable, param, required)
                if mapping is not None:
                    mappings.append(mapping)
            if mappings:
                reason = "; ".join(f"{m.output} -> {m.param} ({m.reason})" for m in mappings)
                edges.append(ToolEdge(source=source.name, target=target.name,
                                      mappings=mappings, reason=reason))  # fmt: skip
    return edges


def _nodes(spec: EnvironmentSpec) -> list[ToolNode]:
    state = spec.state_schema
    nodes = []
    for tool in spec.tools:
        consumes = sorted({p.entity for p in param_leaves(tool, state) if p.entity})
        produces = sorted({o.entity for o in output_leaves(tool, state) if o.entity})
        access: Literal["read", "write"] = "read" if tool_access(tool) == "read" else "write"
        nodes.append(
            ToolNode(
                name=tool.name,
                access=access,
                description=tool.description,
                consumes=consumes,
                produces=produces,
            )
        )
    return nodes


def _valid_extra(spec: EnvironmentSpec, edge: ToolEdge) -> bool:
    try:
        target = spec.tool(edge.target)
        spec.tool(edge.source)
    except KeyError:
        return False
    params = {p.path for p in param_leaves(target, spec.state_schema)}
    return bool(edge.mappings) and all(m.param in params for m in edge.mappings)


def build_graph(spec: EnvironmentSpec, judge: EdgeJudge | None = None) -> ToolGraph:
    """The dependency graph of an environment: rule candidates, judged in one batch."""
    judge = judge or RuleJudge()
    candidates = propose_edges(spec)
    verdicts = judge.judge(spec, candidates)
    if len(verdicts) != len(candidates):
        raise ValueError(f"judge {judge.name} gave {len(verdicts)} verdicts for {len(candidates)}")
    graph = ToolGraph(env_id=spec.name, nodes=_nodes(spec), judge=judge.name)
    for edge, verdict in zip(candidates, verdicts, strict=True):
        (graph.edges if verdict.keep else graph.rejected).append(edge)
    known = {(e.source, e.target) for e in graph.edges}
    for extra in judge.propose(spec, graph):
        if (extra.source, extra.target) not in known and _valid_extra(spec, extra):
            graph.edges.append(extra.model_copy(update={"confirmed_by": "llm"}))
            known.add((extra.source, extra.target))
    return graph


def without_tools(graph: ToolGraph, names: set[str]) -> ToolGraph:
    """``graph`` less the tools ``names`` and every edge that touches one of them."""
    if not names & {n.name for n in graph.nodes}:
        return graph
    keep = [n for n in graph.nodes if n.name not in names]
    edges = [e for e in graph.edges if e.source not in names and e.target not in names]
    return graph.model_copy(update={"nodes": keep, "edges": edges})


def without_edges(graph: ToolGraph, pairs: set[tuple[str, str]]) -> ToolGraph:
    """``graph`` less the edges ``(source, target)`` in ``pairs`` (its tools all stay)."""
    if not pairs:
        return graph
    edges = [e for e in graph.edges if (e.source, e.target) not in pairs]
    return graph.model_copy(update={"edges": edges})
