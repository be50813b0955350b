"""Values a person would not recite are read from their own records.

A made-up venue domain: members hold an id-keyed map of wallets and a list of bookings; a
booking has a delivery object. Paying takes a wallet id: a member says "my voucher wallet",
never its id. Moving a booking's delivery to where another booking goes reads that booking's
delivery instead of reciting it. Neither may push a task out of its difficulty's limits.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.blueprint import (
    BlueprintError,
    CallNode,
    FactRef,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.build import build_blueprint
from autoforge.tasks.blueprints.reasoning import ReasoningError, ReasoningSpec, as_items, evaluate
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tasks.graph.walks import Walk, WalkStep
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tasks.scenario.knowledge import MapFields, knowledge
from autoforge.tooldocs.spec import ToolSpec

_VENUE_TOOLS = '''
def find_member_by_email(state, email):
    """The id of the member with this email."""
    for key, member in state["members"].items():
        if member["email"] == email:
            return key
    raise ToolError(f"no member with email {email}")


def get_member(state, member_id):
    """A member with their wallets and the ids of their bookings."""
    member = state["members"].get(member_id)
    if member is None:
        raise ToolError(f"member {member_id} not found")
    return member


def get_booking(state, booking_id):
    """A booking with its delivery."""
    booking = state["bookings"].get(booking_id)
    if booking is None:
        raise ToolError(f"booking {booking_id} not found")
    return booking


def pay_booking(state, booking_id, wallet_id):
    """Pay a booking from one of its member's wallets."""
    booking = state["bookings"].get(booking_id)
    if booking is None:
        raise ToolError(f"booking {booking_id} not found")
    if wallet_id not in state["members"][booking["member_id"]]["wallets"]:
        raise ToolError(f"wallet {wallet_id} is not the member's")
    booking["paid_with"] = wallet_id
    return booking


def move_booking(state, booking_id, line1, town, postcode):
    """Send a booking to another delivery address."""
    booking = state["bookings"].get(booking_id)
    if booking is None:
        raise ToolError(f"booking {booking_id} not found")
    booking["delivery"] = {"line1": line1, "town": town, "postcode": postcode}
    return booking
'''

_KINDS = ["voucher", "card", "cash"]


def _string(**extra: Any) -> dict[str, Any]:
    return {"type": "string", **extra}


def _tool(name: str, access: str, *params: str, returns: Any = None) -> ToolSpec:
    return ToolSpec(name=name, access=access, returns=returns, parameters={  # type: ignore[arg-type]
        "type": "object", "properties": {p: _string() for p in params},
        "required": list(params)})  # fmt: skip


def _venue_env() -> Environment:
    members = CollectionSchema(name="members", primary_key="member_id", attributes=[
        Attribute(name="member_id", type="id"), Attribute(name="email", type="string"),
        Attribute(name="wallets", type="object"),
        Attribute(name="bookings", type="array", references="bookings")])  # fmt: skip
    bookings = CollectionSchema(
        name="bookings",
        primary_key="booking_id",
        attributes=[
            Attribute(name="booking_id", type="id"),
            Attribute(name="member_id", type="id", references="members"),
            Attribute(name="delivery", type="object"),
            Attribute(name="paid_with", type="string"),
        ],
    )
    tools = [
        _tool("find_member_by_email", "read", "email", returns=_string()),  # the bare key
        _tool("get_member", "read", "member_id"),
        _tool("get_booking", "read", "booking_id"),
        _tool("pay_booking", "write", "booking_id", "wallet_id"),
        _tool("move_booking", "write", "booking_id", "line1", "town", "postcode"),
    ]
    rng = random.Random(7)
    state: dict[str, Any] = {"members": {}, "bookings": {}}
    for m in range(12):
        kinds = rng.sample(_KINDS, 2 + m % 2)
        wallets = {f"{k}_{m}{i}": {"wallet_id": f"{k}_{m}{i}", "kind": k,
                                   "nickname": f"wallet {m}-{i}"}
                   for i, k in enumerate(kinds)}  # fmt: skip
        keys = [f"BK{m}{b}" for b in range(3)]
        state["members"][f"M{m}"] = {"member_id": f"M{m}", "email": f"m{m}@venue.test",
                                     "wallets": wallets, "bookings": keys}  # fmt: skip
        for b, key in enumerate(keys):
            state["bookings"][key] = {
                "booking_id": key, "member_id": f"M{m}", "paid_with": "",
                "delivery": {"line1": f"{m}{b} Quay Road", "town": f"Town{m}{b}",
                             "postcode": f"P{m}{b}X"}}  # fmt: skip
    spec = EnvironmentSpec(
        name="venue", tools=tools, state_schema=StateSchema(collections=[members, bookings])
    )
    return Environment.from_parts(spec, _VENUE_TOOLS, state)


@pytest.fixture(scope="module")
def venue() -> Environment:
    return _venue_env()


def test_an_id_keyed_map_of_records_is_read_from_the_data(venue: Environment) -> None:
    """The wallets map: each entry holds its own key in ``wallet_id``; ``kind`` repeats across
    entries (a category a person names); ``nickname`` is unique per entry, so not a kind."""
    know = knowledge(venue.spec, venue.initial_state)
    assert know.maps == {("members", "wallets"): MapFields("wallet_id", ("kind",))}


def test_reasoning_chooses_among_the_entries_of_a_map() -> None:
    wallets = {"v_1": {"wallet_id": "v_1", "kind": "voucher"},
               "c_2": {"wallet_id": "c_2", "kind": "card"}}  # fmt: skip
    spec = ReasoningSpec(op="filter", field=["kind"], cmp="eq", take="named")
    assert evaluate(spec, {"items": wallets, "value": "card"})["wallet_id"] == "c_2"
    assert as_items([1, 2]) == [1, 2]
    with pytest.raises(ReasoningError):
        as_items({"kind": "card"})  # one record, not a map of records


def test_a_wallet_is_described_by_its_kind_never_by_its_id(venue: Environment) -> None:
    """The old code stated the wallet id itself ("pay with wallet card_31"). No limits here
    (``any``): under medium's, a task with no room for the lookups keeps the stated id."""
    tasks, stats = generate_tasks(venue, 12, "any", seed=0)
    pays = [(t, c) for t in tasks for c in t.gold_calls if c.name == "pay_booking"]
    assert pays, stats.rejected
    for task, call in pays:
        wallet = call.arguments["wallet_id"]
        member = next(m for m in (task.initial_state or {})["members"].values()
                      if wallet in m["wallets"])  # fmt: skip
        text = task.scenario.question
        assert wallet not in text, text
        assert member["wallets"][wallet]["kind"] in text, text


def test_a_delivery_is_copied_from_another_of_the_members_bookings(venue: Environment) -> None:
    """Some moves read the delivery of the booking at the other end of the member's list:
    the values are not in the request, and the source is never the booking being moved."""
    copied = 0
    for seed in range(3):
        tasks, _ = generate_tasks(venue, 12, "medium", seed=seed)
        for task in tasks:
            bookings = (task.initial_state or {})["bookings"]
            for call in (c for c in task.gold_calls if c.name == "move_booking"):
                booking = call.arguments["booking_id"]
                delivery = {k: call.arguments[k] for k in ("line1", "town", "postcode")}
                others = [b["delivery"] for key, b in bookings.items() if key != booking]
                if delivery in others and delivery["line1"] not in task.scenario.question:
                    copied += 1
                    assert delivery != bookings[booking]["delivery"]
    assert copied >= 1


def _blueprint(env: Environment, limits: dict[str, tuple[int | None, int | None]]) -> Any:
    graph = build_graph(env.spec)
    walk = Walk(steps=(WalkStep(tool="get_member", parent=None),
                       WalkStep(tool="pay_booking", parent=0)))  # fmt: skip
    know = knowledge(env.spec, env.initial_state)
    return build_blueprint(walk, graph, env.spec, random.Random(0), 0.6, know=know,
                           limits=limits)  # fmt: skip


def test_the_lookups_stay_within_the_difficultys_limits(venue: Environment) -> None:
    """With room, the wallet is a reasoning node over the member's wallets; when the limits
    leave no room for it, the blueprint is rejected: neither does the task leave its
    difficulty nor does the member quote the wallet's internal id."""
    roomy = _blueprint(venue, {})
    pay = next(c for c in roomy.calls if c.tool == "pay_booking")
    wallet = pay.args["wallet_id"]
    assert isinstance(wallet, ReasoningRef) and wallet.path == ["wallet_id"]
    pick = roomy.node(wallet.node)
    assert isinstance(pick, ReasonNode) and pick.spec.field == ["kind"]
    items = pick.inputs["items"]
    assert isinstance(items, OutputRef) and items.path == ["wallets"]
    reader = roomy.node(items.node)
    assert isinstance(reader, CallNode) and reader.tool == "get_member"
    with pytest.raises(BlueprintError, match="said by its id"):
        _blueprint(venue, {"reasoning_nodes": (0, len(roomy.reasoning) - 1)})


def test_no_copy_from_the_other_end_of_another_list(venue: Environment) -> None:
    """A booking picked as the first of some other listing (not the member's own list) may be
    either end of the member's list, so its delivery is never copied from that list's other
    end: it stays stated."""
    listing = ToolSpec(name="list_open_bookings", access="read",
                       parameters={"type": "object", "properties": {}},
                       returns={"type": "object", "properties": {
                           "booking_ids": {"type": "array", "items": _string()}}})  # fmt: skip
    spec = venue.spec.model_copy(update={"tools": [*venue.spec.tools, listing]})
    walk = Walk(steps=(WalkStep(tool="list_open_bookings", parent=None),
                       WalkStep(tool="move_booking", parent=0)))  # fmt: skip
    know = knowledge(spec, venue.initial_state)
    for seed in range(4):
        bp = build_blueprint(walk, build_graph(spec), spec, random.Random(seed), 1.0, know=know)
        move = next(c for c in bp.calls if c.tool == "move_booking")
        pick = move.args["booking_id"]
        assert isinstance(pick, ReasoningRef) and bp.node(pick.node).spec.op == "lookup"  # type: ignore[union-attr]
        assert all(isinstance(move.args[k], FactRef) for k in ("line1", "town", "postcode"))
