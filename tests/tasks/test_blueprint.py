"""Blueprint models (validation, order, signature) and the walk -> blueprint builder."""

from __future__ import annotations

import random

import pytest

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.tasks.blueprints.blueprint import (
    Binding,
    Blueprint,
    BlueprintError,
    CallNode,
    FactRef,
    FactSpec,
    ListBinding,
    ObjectBinding,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.build import _dedupe_calls, build_blueprint
from autoforge.tasks.blueprints.reasoning import ReasoningSpec
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tasks.graph.walks import Walk, WalkStep


def _bp(order_ref: str = "r0") -> Blueprint:
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="get_customer", args={"customer_id": FactRef(name="cid")}),
            ReasonNode(
                id="r0",
                spec=ReasoningSpec(op="lookup", field=[-1]),
                inputs={"value": OutputRef(node="c0", path=["order_ids"])},
            ),
            CallNode(
                id="c1",
                tool="cancel_order",
                args={"order_id": ReasoningRef(node=order_ref), "reason": FactRef(name="why")},
            ),
        ],
        facts=[FactSpec(name="cid", role="entity", collection="customers"), FactSpec(name="why")],
    )


def test_valid_blueprint_order_depth_width(bookstore_spec: EnvironmentSpec) -> None:
    bp = _bp()
    bp.validate_against(bookstore_spec)
    assert bp.topo_order() == ["c0", "r0", "c1"]
    assert (bp.depth(), bp.width()) == (3, 1)
    assert bp.fact_names_used() == ["cid", "why"]
    assert Blueprint.model_validate_json(bp.model_dump_json()) == bp


def test_validation_problems(bookstore_spec: EnvironmentSpec) -> None:
    cyclic = _bp()
    cyclic.nodes[0] = CallNode(
        id="c0",
        tool="get_customer",
        args={"customer_id": OutputRef(node="c1", path=["customer_id"])},
    )
    with pytest.raises(BlueprintError, match="cycle"):
        cyclic.validate_against(bookstore_spec)
    incomplete = _bp()
    incomplete.nodes[2] = CallNode(
        id="c1", tool="cancel_order", args={"order_id": FactRef(name="x")}
    )
    with pytest.raises(BlueprintError) as err:
        incomplete.validate_against(bookstore_spec)
    assert any("'reason'" in p for p in err.value.problems)
    assert any("undeclared fact 'x'" in p for p in err.value.problems)
    with pytest.raises(BlueprintError, match="unknown node"):
        _bp(order_ref="r9").validate_against()
    unknown_tool = _bp()
    unknown_tool.nodes[0] = CallNode(id="c0", tool="nope", args={})
    with pytest.raises(BlueprintError, match="unknown tool"):
        unknown_tool.validate_against(bookstore_spec)


def test_signature_ignores_names_but_not_structure_or_facts() -> None:
    a, b = _bp(), _bp()
    renamed = Blueprint.model_validate_json(
        b.model_dump_json().replace('"r0"', '"rX"').replace('"c0"', '"cA"')
    )
    assert a.signature() == renamed.signature()
    assert a.signature({"cid": "C-1"}) != a.signature({"cid": "C-2"})
    other = _bp()
    other.nodes[1] = ReasonNode(
        id="r0",
        spec=ReasoningSpec(op="lookup", field=[0]),
        inputs={"value": OutputRef(node="c0", path=["order_ids"])},
    )
    assert other.signature() != a.signature()


def _walk(*steps: tuple[str, int | None]) -> Walk:
    return Walk(steps=tuple(WalkStep(tool=t, parent=p) for t, p in steps))


def test_builder_binds_through_edges_and_reasoning(bookstore_spec: EnvironmentSpec) -> None:
    graph = build_graph(bookstore_spec)
    walk = _walk(
        ("find_customer_by_email", None), ("get_customer", 0), ("get_order", 1), ("add_review", 2)
    )
    bp = build_blueprint(walk, graph, bookstore_spec, random.Random(0))
    calls = {c.tool: c for c in bp.calls}
    assert calls["find_customer_by_email"].args["email"] == FactRef(name="email")
    assert bp.fact("email").role == "attribute" and bp.fact("email").collection == "customers"
    assert calls["get_customer"].args["customer_id"] == OutputRef(node="c0", path=["customer_id"])
    # get_customer returns a list of order ids: a reasoning node picks one
    pick = calls["get_order"].args["order_id"]
    assert isinstance(pick, ReasoningRef)
    assert bp.node(pick.node).spec.op == "lookup"  # type: ignore[union-attr]
    review = calls["add_review"].args
    assert review["customer_id"] == OutputRef(node="c2", path=["customer_id"])
    assert isinstance(review["book_id"], ReasoningRef)  # one of the order's items
    assert isinstance(review["rating"], FactRef)
    bp.validate_against(bookstore_spec)


def test_builder_composite_arguments_and_answers(bookstore_spec: EnvironmentSpec) -> None:
    graph = build_graph(bookstore_spec)
    bp = build_blueprint(
        _walk(("search_books", None), ("place_order", 0)), graph, bookstore_spec, random.Random(1)
    )
    items = bp.calls[1].args["items"]
    assert isinstance(items, ListBinding) and isinstance(items.items[0], ObjectBinding)
    book = items.items[0].fields["book_id"]
    assert isinstance(book, ReasoningRef)
    assert bp.node(book.node).spec.op in ("argmax", "argmin", "filter")  # type: ignore[union-attr]
    assert isinstance(items.items[0].fields["quantity"], FactRef)
    # a read leaf gets an answer node whose value must be told
    read_only = build_blueprint(
        _walk(("find_customer_by_email", None), ("get_customer", 0)),
        graph,
        bookstore_spec,
        random.Random(2),
    )
    assert len(read_only.outputs) == 1
    answer = read_only.node(read_only.outputs[0])
    assert isinstance(answer, ReasonNode) and "c1" in read_only.dependencies(answer)


def test_identical_calls_from_merged_walks_are_dropped() -> None:
    nodes: list[CallNode | ReasonNode] = [
        CallNode(id="c0", tool="get_order", args={"order_id": FactRef(name="order_id")}),
        CallNode(id="c1", tool="get_order", args={"order_id": FactRef(name="order_id")}, walk=1),
        CallNode(
            id="c2",
            tool="cancel_order",
            walk=1,
            args={
                "order_id": OutputRef(node="c1", path=["order_id"]),
                "reason": FactRef(name="reason"),
            },
        ),
    ]
    kept = _dedupe_calls(nodes)
    assert [n.id for n in kept] == ["c0", "c2"]
    assert kept[1].args["order_id"] == OutputRef(node="c0", path=["order_id"])  # type: ignore[union-attr]


def _random_blueprint(rng: random.Random, size: int, cyclic: bool) -> Blueprint:
    """Reasoning nodes over made-up ids, each reading up to three others: earlier ones in a
    shuffled list order (acyclic), or any (possibly itself) when ``cyclic``."""
    ids = [f"x{i}" for i in range(size)]
    rank = {node_id: i for i, node_id in enumerate(ids)}  # dependencies go down this order
    rng.shuffle(ids)
    nodes: list[CallNode | ReasonNode] = []
    for node_id in ids:
        pool = ids if cyclic else [o for o in ids if rank[o] < rank[node_id]]
        deps = rng.sample(pool, min(len(pool), rng.randint(0, 3)))
        inputs: dict[str, Binding] = {"items": FactRef(name="things")}
        inputs.update({f"in{j}": OutputRef(node=d) for j, d in enumerate(deps)})
        nodes.append(ReasonNode(id=node_id, spec=ReasoningSpec(op="count"), inputs=inputs))
    return Blueprint(nodes=nodes, facts=[FactSpec(name="things")])


def test_execution_order_and_cycles_agree_with_networkx() -> None:
    import networkx as nx

    rng = random.Random(5)
    for trial in range(200):
        bp = _random_blueprint(rng, rng.randint(1, 9), cyclic=trial % 3 == 0)
        dag = bp._build_dag()
        index = {n.id: i for i, n in enumerate(bp.nodes)}
        if nx.is_directed_acyclic_graph(dag):
            expected = list(nx.lexicographical_topological_sort(dag, key=index.__getitem__))
            assert bp.topo_order() == expected
            generations = {n: i for i, gen in enumerate(nx.topological_generations(dag))
                           for n in gen}  # fmt: skip
            assert bp.levels() == generations
            bp.validate_against()
        else:
            with pytest.raises(BlueprintError, match="cycle"):
                bp.validate_against()
            with pytest.raises(nx.NetworkXUnfeasible):
                bp.topo_order()
