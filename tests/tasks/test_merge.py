"""Merging walks: redundant lookups removed by schema rules, children re-pointed, advisor hook."""

from __future__ import annotations

import pytest

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.tasks.graph.dependency import ToolGraph, build_graph
from autoforge.tasks.graph.merge import merge_walks, user_collection
from autoforge.tasks.graph.walks import Walk, WalkStep


@pytest.fixture(scope="module")
def graph(bookstore_spec: EnvironmentSpec) -> ToolGraph:
    return build_graph(bookstore_spec)


def walk(*steps: tuple[str, int | None]) -> Walk:
    return Walk(steps=tuple(WalkStep(tool=t, parent=p) for t, p in steps))


def test_user_collection(bookstore_spec: EnvironmentSpec) -> None:
    assert user_collection(bookstore_spec.state_schema) == "customers"


def test_same_root_lookup_is_merged(graph: ToolGraph, bookstore_spec: EnvironmentSpec) -> None:
    a = walk(("find_customer_by_email", None), ("get_customer", 0), ("cancel_order", 1))
    b = walk(("find_customer_by_email", None), ("place_order", 0))
    merged = merge_walks([a, b], graph, bookstore_spec)
    assert merged.tools == ("find_customer_by_email", "get_customer", "cancel_order", "place_order")
    assert merged.steps[3].parent == 0  # place_order now hangs off the one lookup
    assert merged.removed == ("find_customer_by_email",)
    assert [s.origin for s in merged.steps] == [0, 0, 0, 1]


def test_user_lookups_through_different_paths_are_merged(
    graph: ToolGraph, bookstore_spec: EnvironmentSpec
) -> None:
    a = walk(("find_customer_by_email", None), ("get_customer", 0), ("get_order", 1))
    b = walk(("get_customer", None), ("update_shipping_address", 0))
    merged = merge_walks([a, b], graph, bookstore_spec)
    assert merged.tools.count("get_customer") == 1
    assert merged.steps[-1].tool == "update_shipping_address" and merged.steps[-1].parent == 1


def test_other_entities_and_writes_are_kept(
    graph: ToolGraph, bookstore_spec: EnvironmentSpec
) -> None:
    # two get_book lookups fed differently may be two different books: both stay
    a = walk(("search_books", None), ("get_book", 0))
    b = walk(("get_order", None), ("get_book", 0))
    merged = merge_walks([a, b], graph, bookstore_spec)
    assert merged.tools.count("get_book") == 2
    # repeated steps inside one walk are deliberate (two different orders): kept
    c = walk(("get_customer", None), ("get_order", 0), ("get_order", 0))
    assert merge_walks([c], graph, bookstore_spec).tools.count("get_order") == 2


class _SameBook:
    name = "test-advisor"

    def same_lookup(self, spec: EnvironmentSpec, w: Walk, earlier: int, later: int) -> bool:
        return w.steps[later].tool == "get_book"


def test_advisor_hook_can_merge_more(graph: ToolGraph, bookstore_spec: EnvironmentSpec) -> None:
    a = walk(("search_books", None), ("get_book", 0), ("place_order", 1))
    b = walk(("get_order", None), ("get_book", 0), ("add_review", 1))
    merged = merge_walks([a, b], graph, bookstore_spec, _SameBook())
    assert merged.tools.count("get_book") == 1
    review = merged.steps[merged.tools.index("add_review")]
    assert merged.steps[review.parent].tool == "get_book"  # type: ignore[index]
