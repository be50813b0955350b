"""A record a write acts on is chosen by a condition a person would use, never by its name.

"The book whose title is X among the romance books" names the book by its own identifying
value dressed as a selection; "the book with the highest quantity among the items of my most
recent order" chooses it. These tests pin the second and forbid the first.
"""

from __future__ import annotations

import random

from autoforge.env import Environment
from autoforge.lexicon import names_record
from autoforge.tasks.blueprints.blueprint import (
    Blueprint,
    CallNode,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.build import build_blueprint
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tasks.graph.walks import Walk, WalkStep
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tasks.scenario.knowledge import knowledge


def test_a_field_names_its_record_when_it_is_a_name_or_title() -> None:
    named = ("title", "name", "full_name", "full name", "hotelName", "product_name", "label")
    assert all(names_record(n) for n in named)
    assert not any(names_record(n) for n in ("genre", "author", "price", "username", "status"))


def _name_filters(bp: Blueprint) -> list[ReasonNode]:
    return [n for n in bp.reasoning if n.spec.op == "filter" and n.spec.take != "named"
            and n.spec.field and names_record(str(n.spec.field[-1]))]  # fmt: skip


def test_medium_tasks_never_pick_a_record_by_a_condition_on_its_own_name(
    bookstore_env: Environment,
) -> None:
    """Seed 1 gave six of twenty medium tasks "the book whose title is X among ..."."""
    tasks, _ = generate_tasks(bookstore_env, 20, "medium", seed=1)
    assert len(tasks) == 20
    assert [t.id for t in tasks if t.blueprint and _name_filters(t.blueprint)] == []
    assert not any(" whose title is " in t.scenario.question for t in tasks)


def _book_from_own_order(bp: Blueprint, write: str) -> bool:
    """Whether ``write``'s book is picked among the items of an order chosen by its place in
    the user's own list (not named by the user)."""
    call = next(c for c in bp.calls if c.tool == write)
    book = call.args.get("book_id")
    if write == "place_order":
        line = call.args["items"].items[0]  # type: ignore[union-attr]
        book = line.fields["book_id"]  # type: ignore[union-attr]
    if not isinstance(book, ReasoningRef):
        return False
    pick = bp.node(book.node)
    items = pick.inputs.get("items") if isinstance(pick, ReasonNode) else None
    reader = bp.node(items.node) if isinstance(items, OutputRef) else None
    if not isinstance(reader, CallNode) or items.path != ["items"]:  # type: ignore[union-attr]
        return False
    order = reader.args.get("order_id")
    chosen = bp.node(order.node) if isinstance(order, ReasoningRef) else None
    return isinstance(chosen, ReasonNode) and chosen.spec.op == "lookup"


def test_a_write_about_a_record_the_user_already_has_is_read_from_the_docs(
    bookstore_env: Environment,
) -> None:
    """add_review's docs say the customer "received the book in a delivered order": the book
    is one the user has in their orders. place_order puts a book in a new order."""
    know = knowledge(bookstore_env.spec, bookstore_env.initial_state)
    tool = bookstore_env.spec.tool
    assert know.already_had(tool("add_review"), "book_id")
    assert not know.already_had(tool("place_order"), "book_id")
    assert not know.already_had(tool("add_review"), "coupon_code")


def test_a_book_the_user_has_is_chosen_among_the_items_of_their_own_order(
    bookstore_env: Environment,
) -> None:
    """With conditions always on, a review's book comes from the items of one of the user's
    orders; a new purchase's book from those or from a catalogue condition. Neither names the
    book by its title."""
    spec = bookstore_env.spec
    graph, know = build_graph(spec), knowledge(spec, bookstore_env.initial_state)

    def blueprints(*tools: str) -> list[Blueprint]:
        walk = Walk(steps=tuple(WalkStep(tool=t) for t in tools))
        return [build_blueprint(walk, graph, spec, random.Random(seed), 1.0, know=know)
                for seed in range(12)]  # fmt: skip

    reviews, orders = blueprints("add_review"), blueprints("place_order")
    assert all(_book_from_own_order(bp, "add_review") for bp in reviews)
    own = [_book_from_own_order(bp, "place_order") for bp in orders]
    assert any(own) and not all(own)
    for bp in reviews + orders:
        assert not any(c.tool == "search_books" and "title" in c.args for c in bp.calls)
        assert _name_filters(bp) == []
