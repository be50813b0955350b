"""The tool dependency graph on the bookstore: rule edges, mappings, judge hook, JSON, SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.lexicon import entity_of, output_leaves, param_leaves, split_path
from autoforge.tasks.graph.dependency import (
    EdgeVerdict,
    FieldMapping,
    ToolEdge,
    ToolGraph,
    build_graph,
    propose_edges,
)
from autoforge.tasks.graph.svg import graph_svg, layers


def _edges(graph: ToolGraph) -> dict[tuple[str, str], ToolEdge]:
    return {(e.source, e.target): e for e in graph.edges}


def test_schema_leaves_resolve_entities(bookstore_spec: EnvironmentSpec) -> None:
    state = bookstore_spec.state_schema
    customer = {
        leaf.path: leaf for leaf in output_leaves(bookstore_spec.tool("get_customer"), state)
    }
    assert customer["order_ids[]"].entity == "orders"
    assert customer["customer_id"].entity == "customers"
    assert customer["address.city"].entity is None
    books = {leaf.path: leaf for leaf in output_leaves(bookstore_spec.tool("search_books"), state)}
    assert books["[].book_id"].entity == "books" and books["[].book_id"].through_list
    params = {leaf.path: leaf for leaf in param_leaves(bookstore_spec.tool("place_order"), state)}
    assert params["items[].book_id"].entity == "books"
    assert params["coupon_code"].entity == "coupons"  # via orders.coupon_code references
    assert entity_of("code", None, state) is None  # generic key needs a record around it
    assert split_path("items[].book_id") == ["items", "[]", "book_id"]


def test_bookstore_edges_and_mappings(bookstore_spec: EnvironmentSpec) -> None:
    graph = build_graph(bookstore_spec)
    edges = _edges(graph)
    expected = {
        ("find_customer_by_email", "get_customer"): ("customer_id", "customer_id"),
        ("get_customer", "get_order"): ("order_ids[]", "order_id"),
        ("get_customer", "cancel_order"): ("order_ids[]", "order_id"),
        ("search_books", "get_book"): ("[].book_id", "book_id"),
        ("search_books", "place_order"): ("[].book_id", "items[].book_id"),
        ("get_order", "add_review"): ("items[].book_id", "book_id"),
        ("get_order", "cancel_order"): ("order_id", "order_id"),
        ("place_order", "cancel_order"): ("order_id", "order_id"),
        ("get_book", "place_order"): ("book_id", "items[].book_id"),
    }
    for (source, target), (output, param) in expected.items():
        edge = edges[(source, target)]
        mapping = edge.mapping_for(param)
        assert mapping is not None and mapping.output == output, (source, target, edge.mappings)
        assert edge.reason and edge.confirmed_by == "rule"
    # get_order feeds add_review both ids, the customer directly and the book through the list
    review = edges[("get_order", "add_review")]
    assert {m.param for m in review.mappings} == {"customer_id", "book_id"}
    # Nothing feeds a tool from itself, no edge into a tool without inputs from others
    assert all(e.source != e.target for e in graph.edges)
    assert not graph.in_edges("search_books")
    # parts of an address are not references: no postal_code -> address.postal_code mapping
    assert all("postal_code" not in m.param for e in graph.edges for m in e.mappings)
    # a lookup that returns nothing the source did not already return is not an edge
    assert ("get_customer", "find_customer_by_email") not in edges
    assert ("get_order", "get_book") in edges  # the book's price, author, ... are new
    assert graph.writes() == {
        "place_order",
        "cancel_order",
        "update_shipping_address",
        "add_review",
    }
    assert graph.node("get_customer").produces == ["customers", "orders"]


class _DropAndAdd:
    name = "test-judge"

    def judge(self, spec: EnvironmentSpec, candidates: list[ToolEdge]) -> list[EdgeVerdict]:
        return [
            EdgeVerdict(keep=not (c.source == "get_order" and c.target == "get_customer"))
            for c in candidates
        ]

    def propose(self, spec: EnvironmentSpec, graph: ToolGraph) -> list[ToolEdge]:
        good = ToolEdge(
            source="get_book",
            target="search_books",
            reason="title search",
            mappings=[FieldMapping(output="title", param="title", reason="llm")],
        )
        bad = ToolEdge(
            source="get_book",
            target="get_order",
            reason="nonsense",
            mappings=[FieldMapping(output="title", param="no_such_param", reason="llm")],
        )
        return [good, bad]


def test_judge_hook_confirms_in_one_batch_and_validates_proposals(
    bookstore_spec: EnvironmentSpec,
) -> None:
    rules = build_graph(bookstore_spec)
    judged = build_graph(bookstore_spec, _DropAndAdd())
    edges = _edges(judged)
    assert ("get_order", "get_customer") not in edges
    assert [(e.source, e.target) for e in judged.rejected] == [("get_order", "get_customer")]
    assert edges[("get_book", "search_books")].confirmed_by == "llm"
    assert ("get_book", "get_order") not in edges  # invalid proposal dropped
    assert len(judged.edges) == len(rules.edges)  # one dropped, one added
    assert judged.judge == "test-judge"
    assert len(propose_edges(bookstore_spec)) == len(rules.edges)


def test_graph_json_roundtrip(bookstore_spec: EnvironmentSpec, tmp_path: Path) -> None:
    graph = build_graph(bookstore_spec)
    path = graph.save(tmp_path)
    assert path.name == "graph.json"
    loaded = ToolGraph.load(path)
    assert loaded == graph and loaded.schema_version == 1


def test_svg_is_wellformed_and_layered(bookstore_spec: EnvironmentSpec) -> None:
    graph = build_graph(bookstore_spec)
    svg = graph_svg(graph)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    rects = root.findall(f".//{ns}rect")
    paths = root.findall(f"{ns}path")
    assert len(rects) == len(graph.nodes) and len(paths) == len(graph.edges)
    assert {t.text for t in root.findall(f".//{ns}g/{ns}text")} == {n.name for n in graph.nodes}
    grid = layers(graph)
    assert sorted(n for layer in grid for n in layer) == sorted(n.name for n in graph.nodes)
    # search_books has no inputs from other tools: it sits in the first layer
    assert "search_books" in grid[0]


def test_edge_lookup_follows_the_edge_list() -> None:
    """``edge`` finds the first edge of a pair, also one added or a list replaced after an
    earlier lookup (made-up tools)."""

    def link(source: str, target: str, why: str) -> ToolEdge:
        mapping = FieldMapping(output="id", param="id", reason=why)
        return ToolEdge(source=source, target=target, mappings=[mapping], reason=why)

    graph = ToolGraph(env_id="moons", edges=[link("scan", "land", "a"), link("scan", "land", "b")])
    assert graph.edge("scan", "land") is graph.edges[0]
    assert graph.edge("land", "scan") is None
    graph.edges.append(link("land", "launch", "c"))
    assert graph.edge("land", "launch") is graph.edges[-1]
    graph.edges = [link("orbit", "land", "d")]
    assert graph.edge("scan", "land") is None
    assert graph.edge("orbit", "land") is graph.edges[0]
    other = graph.model_copy(update={"edges": [link("scan", "orbit", "e")]})
    assert other.edge("orbit", "land") is None and graph.edge("orbit", "land") is not None
