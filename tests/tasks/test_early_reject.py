"""Work saved before instantiation: blueprints no S0 can make a task are rejected before any
run is spent on them, and the difficulty pre-check computes only the metrics it checks."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from autoforge.env import BehaviourModel
from autoforge.env.artifact.behaviour import Effect, ToolBehaviour, Value
from autoforge.tasks import pipeline
from autoforge.tasks.blueprints.blueprint import (
    Blueprint,
    CallNode,
    FactRef,
    FactRole,
    FactSpec,
    OutputRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.reasoning import PathSeg, ReasoningOp, ReasoningSpec
from autoforge.tasks.gold.instantiate import GoldFailure, StartPool, instantiate, over_one_record
from autoforge.tasks.gold.modelled import left_by, unreachable_edges
from autoforge.tasks.gold.plausible import Guard, Left, call_guards, doomed, stated_rules
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tasks.states.population import StateGenerator


def _schema(spec: Any, tool: str, param: str) -> dict[str, Any]:
    schema: dict[str, Any] = spec.tool(tool).parameters["properties"][param]
    return schema


def _cancel_then(spec: Any, later: str) -> Blueprint:
    """Look an order up, cancel it, then call ``later`` on the order the cancel returned."""
    later_args: dict[str, Any] = {"order_id": OutputRef(node="c1", path=["order_id"])}
    facts = [
        FactSpec(name="order_id", role="entity", collection="orders", attribute="order_id"),
        FactSpec(name="reason", json_schema=_schema(spec, "cancel_order", "reason")),
    ]
    if later == "update_shipping_address":
        later_args["address"] = FactRef(name="address")
        facts.append(FactSpec(name="address",
                              json_schema=_schema(spec, later, "address")))  # fmt: skip
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="get_order", args={"order_id": FactRef(name="order_id")}),
            CallNode(id="c1", tool="cancel_order",
                     args={"order_id": OutputRef(node="c0", path=["order_id"]),
                           "reason": FactRef(name="reason")}),
            CallNode(id="c2", tool=later, args=later_args),
        ],
        facts=facts,
    )  # fmt: skip


def _two_reviews(spec: Any, same_book: bool) -> Blueprint:
    """Review a book, look the reviewed book up, then review (that or another) book again."""
    rating = _schema(spec, "add_review", "rating")
    second = OutputRef(node="c1", path=["book_id"]) if same_book else FactRef(name="other")
    facts = [FactSpec(name="customer_id", role="entity", collection="customers",
                      attribute="customer_id"),
             FactSpec(name="book_id", role="entity", collection="books", attribute="book_id"),
             FactSpec(name="rating", json_schema=rating)]  # fmt: skip
    if not same_book:
        facts.append(FactSpec(name="other", role="entity", collection="books",
                              attribute="book_id"))  # fmt: skip
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="add_review",
                     args={"customer_id": FactRef(name="customer_id"),
                           "book_id": FactRef(name="book_id"), "rating": FactRef(name="rating")}),
            CallNode(id="c1", tool="get_book",
                     args={"book_id": OutputRef(node="c0", path=["book_id"])}),
            CallNode(id="c2", tool="add_review",
                     args={"customer_id": FactRef(name="customer_id"), "book_id": second,
                           "rating": FactRef(name="rating")}),
        ],
        facts=facts,
    )  # fmt: skip


@pytest.fixture(scope="module")
def guards(bookstore_env: Any) -> Any:
    return call_guards(bookstore_env.spec, stated_rules(bookstore_env),
                       bookstore_env.initial_state)  # fmt: skip


def test_a_write_on_a_record_an_earlier_call_cancelled_is_doomed(
    bookstore_env: Any, guards: Any
) -> None:
    spec = bookstore_env.spec
    # the order the cancel returned (an echo of its key argument) is the cancelled order
    assert doomed(_cancel_then(spec, "update_shipping_address"), spec, guards) == (
        "after_terminal", "c2")  # fmt: skip
    # the same guards, no guards at all: implausible() would reject every gold run of it
    assert doomed(_cancel_then(spec, "update_shipping_address"), spec, {}) is not None
    # reading the cancelled order is fine, and so is a write on another record
    assert doomed(_cancel_then(spec, "get_order"), spec, guards) is None
    other = _cancel_then(spec, "update_shipping_address")
    other.nodes[2].args["order_id"] = FactRef(name="order_id_2")  # type: ignore[union-attr]
    other.facts.append(FactSpec(name="order_id_2", role="entity", collection="orders"))
    assert doomed(other, spec, guards) is None


def test_a_unique_record_created_twice_from_the_same_sources_is_doomed(
    bookstore_env: Any, guards: Any
) -> None:
    spec = bookstore_env.spec
    # add_review: "may review each book only once" (a uniqueness guard on customer + book)
    assert doomed(_two_reviews(spec, same_book=True), spec, guards) == ("repeat_unique", "c2")
    assert doomed(_two_reviews(spec, same_book=False), spec, guards) is None
    assert doomed(_two_reviews(spec, same_book=True), spec, {}) is None  # no rule stated


@pytest.mark.parametrize("which", ["after_terminal", "repeat_unique"])
def test_what_is_called_doomed_never_instantiates(
    bookstore_env: Any, guards: Any, which: str
) -> None:
    spec = bookstore_env.spec
    bp = (_cancel_then(spec, "update_shipping_address") if which == "after_terminal"
          else _two_reviews(spec, same_book=True))  # fmt: skip
    starts = StartPool(bookstore_env, StateGenerator(spec, bookstore_env.initial_state))
    for seed in range(4):
        with pytest.raises(GoldFailure):
            instantiate(bp, bookstore_env, seed, starts=starts, guards=guards)


def test_generation_rejects_doomed_blueprints_before_instantiation(
    bookstore_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    instantiated: list[Any] = []
    real = pipeline.instantiate

    def spy(bp: Blueprint, *args: Any, **kwargs: Any) -> Any:
        guards = kwargs.get("guards") or {}
        instantiated.append(doomed(bp, bookstore_env.spec, guards) or over_one_record(bp))
        return real(bp, *args, **kwargs)

    monkeypatch.setattr(pipeline, "instantiate", spy)
    tasks, stats = generate_tasks(bookstore_env, 4, "hard", seed=0)
    assert len(tasks) == 4
    assert instantiated and not any(instantiated)  # none reached instantiation
    counted = {k: v for k, v in stats.rejected.items() if k.startswith("doomed_")}
    reasons = {"doomed_after_terminal", "doomed_repeat_unique", "doomed_one_record"}
    assert counted and set(counted) <= reasons
    assert stats.attempts == stats.accepted + sum(stats.rejected.values())


def _count_found(
    op: ReasoningOp, take: Literal["all", "only", "named"] = "all", role: FactRole = "reference"
) -> Blueprint:
    """Find books by the title the user holds, then reason over the whole result."""
    inputs: dict[str, Any] = {"items": OutputRef(node="f0", path=[])}
    if op == "filter":
        inputs["value"] = FactRef(name="genre")
    field: list[PathSeg] = (
        ["price"] if op in ("argmax", "sum") else (["genre"] if op == "filter" else [])
    )
    return Blueprint(
        nodes=[
            CallNode(id="f0", tool="search_books", args={"title": FactRef(name="title")}),
            ReasonNode(id="r0", spec=ReasoningSpec(op=op, field=field, take=take), inputs=inputs,
                       noun="book"),
        ],
        facts=[FactSpec(name="title", role=role, collection="books", attribute="title"),
               FactSpec(name="genre", role="predicate")],
        outputs=["r0"],
    )  # fmt: skip


def test_a_step_needing_several_elements_over_the_one_record_a_finder_returns_is_doomed(
    bookstore_env: Any,
) -> None:
    ops: tuple[ReasoningOp, ...] = ("count", "argmax", "sum", "filter")
    for op in ops:
        assert over_one_record(_count_found(op)) == "r0", op
    # a filter naming the one record ("the book called X") is a description, not a selection
    assert over_one_record(_count_found("filter", take="named")) is None
    # a search by a value that is not a reference the user holds may find several
    assert over_one_record(_count_found("count", role="attribute")) is None
    starts = StartPool(
        bookstore_env, StateGenerator(bookstore_env.spec, bookstore_env.initial_state)
    )
    for seed in range(3):
        with pytest.raises(GoldFailure):
            instantiate(_count_found("count"), bookstore_env, seed, starts=starts)


def test_the_difficulty_precheck_computes_depth_and_width_only_when_a_range_asks(
    bookstore_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autoforge.tasks.difficulty import measure

    bp = _cancel_then(bookstore_env.spec, "update_shipping_address")
    full, flat = measure(bp), measure(bp, shape=False)
    assert (full.depth, full.width) == (3, 1) and (flat.depth, flat.width) == (0, 0)
    assert full.model_dump(exclude={"depth", "width"}) == flat.model_dump(
        exclude={"depth", "width"}
    )
    levels: list[int] = []
    real = Blueprint.levels

    def counted(self: Blueprint) -> dict[str, int]:
        levels.append(1)
        return real(self)

    monkeypatch.setattr(Blueprint, "levels", counted)
    tasks, stats = generate_tasks(bookstore_env, 2, "medium", seed=0)  # a seed with rejections
    before = len(levels)  # only the accepted tasks' own metrics (depth and width) asked
    assert len(tasks) == 2 and stats.attempts > 2 and before <= 2 * len(tasks)
    # a range on depth: checked before instantiation, so computed for every blueprint built
    deep, stats = generate_tasks(bookstore_env, 2, "tool_calls=3-6,depth=4-", seed=3)
    assert deep and all(t.difficulty.depth >= 4 for t in deep)
    assert len(levels) - before > 2 * len(deep)


def _address_then_cancel(spec: Any, same_order: bool = True) -> Blueprint:
    """Look an order up, change its address, then cancel (that or another) order."""
    order = OutputRef(node="c0", path=["order_id"])
    later = order if same_order else FactRef(name="other")
    facts = [
        FactSpec(name="order_id", role="entity", collection="orders", attribute="order_id"),
        FactSpec(name="other", role="entity", collection="orders", attribute="order_id"),
        FactSpec(name="address", json_schema=_schema(spec, "update_shipping_address", "address")),
        FactSpec(name="reason", json_schema=_schema(spec, "cancel_order", "reason")),
    ]
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="get_order", args={"order_id": FactRef(name="order_id")}),
            CallNode(id="c1", tool="update_shipping_address",
                     args={"order_id": order, "address": FactRef(name="address")}),
            CallNode(id="c2", tool="cancel_order",
                     args={"order_id": later, "reason": FactRef(name="reason")}),
        ],
        facts=facts if not same_order else [f for f in facts if f.name != "other"],
    )  # fmt: skip


def test_a_write_on_a_record_an_earlier_write_left_in_a_refused_status_is_doomed(
    bookstore_env: Any,
) -> None:
    """As if the docs said a change of address ships the order, and only pending or processing
    orders may be cancelled: no S0 can make the cancel succeed on the order just shipped."""
    spec = bookstore_env.spec
    left = {"update_shipping_address": Left("orders", "order_id", {"status": "shipped"})}
    only = Guard("cancel_order", "order_id", "orders", "status", ("pending", "processing"))
    never = Guard("cancel_order", "order_id", "orders", "status", ("pending",),
                  forbidden=("shipped", "cancelled"))  # fmt: skip
    bp = _address_then_cancel(spec)
    assert doomed(bp, spec, {"cancel_order": [only]}, left) == ("after_status", "c2")
    assert doomed(bp, spec, {"cancel_order": [never]}, left) == ("after_status", "c2")
    allows = Guard("cancel_order", "order_id", "orders", "status", ("pending", "shipped"))
    assert doomed(bp, spec, {"cancel_order": [allows]}, left) is None
    assert doomed(bp, spec, {"cancel_order": [only]}) is None  # nothing known to be left
    assert doomed(_address_then_cancel(spec, same_order=False), spec,
                  {"cancel_order": [only]}, left) is None  # fmt: skip


def test_what_a_write_leaves_comes_from_its_unconditional_constant_writes() -> None:
    const = Value(source="const", const="picked")
    model = BehaviourModel(tools=[
        ToolBehaviour(tool="pick_order", kind="action", collection="orders", id_param="order_id",
                      effects=[Effect(kind="set", fields={"status": const,
                                                          "picked_on": Value(source="today")})]),
        ToolBehaviour(tool="place_order", kind="create", collection="orders",
                      effects=[Effect(kind="create", record="new", fields={
                          "status": Value(source="const", const="pending")})]),
        ToolBehaviour(tool="hold_order", kind="action", collection="orders", id_param="order_id",
                      effects=[Effect(kind="set", when=["priority", "high"], fields={
                          "status": Value(source="const", const="held")})]),
    ])  # fmt: skip
    left = left_by(model)
    assert left == {
        "pick_order": Left("orders", "order_id", {"status": "picked"}),
        "place_order": Left("orders", None, {"status": "pending"}),
    }  # a write under a condition leaves nothing for sure
    guards = {
        "cancel_order": [Guard("cancel_order", "order_id", "orders", "status",
                               ("pending", "reserved"))],
        "refund_line": [Guard("refund_line", "line_id", "lines", "status", ("open",))],
    }  # fmt: skip
    edges = [("pick_order", "cancel_order", {"order_id"}),
             ("place_order", "cancel_order", {"order_id"}),
             ("pick_order", "refund_line", {"line_id"}),
             ("hold_order", "cancel_order", {"order_id"})]  # fmt: skip
    assert unreachable_edges(edges, left, guards) == {("pick_order", "cancel_order")}
