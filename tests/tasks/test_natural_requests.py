"""A request reads like what a person brings, on made-up domains (no benchmark names).

A replacement part is asked for by how it differs from the part it replaces, never by its
internal id; a documented reason is said as the reason; two writes that copy a value back to
where it came from are no request.
"""

from __future__ import annotations

import random
from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.alike import described_facts
from autoforge.tasks.blueprints.blueprint import Blueprint
from autoforge.tasks.blueprints.choosing import Chooser
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tasks.graph.walks import Walk, WalkStep
from autoforge.tasks.model import GoldCall
from autoforge.tasks.scenario.knowledge import Knowledge
from autoforge.tasks.scenario.question import ScenarioRequest, TemplateWriter
from autoforge.tasks.scenario.spoken import missing_facts
from autoforge.tooldocs.spec import ToolSpec


def _tool(name: str, params: list[str], access: str, **schemas: Any) -> ToolSpec:
    props = {p: schemas.get(p, {"type": "string"}) for p in params}
    return ToolSpec(name=name, parameters={"type": "object", "properties": props},
                    required=params, access=access)  # fmt: skip


def _coll(name: str, key: str, *attrs: str) -> CollectionSchema:
    attributes = [Attribute(name=key, type="id"), *(Attribute(name=a, type="string")
                                                    for a in attrs)]  # fmt: skip
    return CollectionSchema(name=name, primary_key=key, attributes=attributes)


def _bike_spec() -> EnvironmentSpec:
    state = StateSchema(collections=[_coll("riders", "rider_id"),
                                     _coll("rentals", "rental_id", "rider_id"),
                                     _coll("frames", "frame_id")])  # fmt: skip
    lists = {"type": "array", "items": {"type": "string"}}
    why = {"type": "string", "description": "Why: either 'too small' or 'wrong colour'."}
    tools = [
        _tool("swap_rental_parts", ["rental_id", "part_ids", "new_part_ids", "reason"], "write",
              part_ids=lists, new_part_ids=lists, reason=why),
        _tool("get_rental", ["rental_id"], "read"),
    ]  # fmt: skip
    return EnvironmentSpec(name="bikes", tools=tools, state_schema=state)


def _part(sku: str, colour: str, size: str) -> dict[str, Any]:
    return {"sku": sku, "spec": {"colour": colour, "size": size}, "stock": 2, "price": 40.0}


_STATE = {"frames": {"FR-1": {"frame_id": "FR-1", "parts": {
    "S1": _part("S1", "red", "M"), "S2": _part("S2", "blue", "M"),
    "S3": _part("S3", "blue", "L"), "S4": _part("S4", "green", "M")}}},
    "rentals": {"R-9": {"rental_id": "R-9", "rider_id": "U-1"}}}  # fmt: skip


def _swap(new: str, reason: str = "too small") -> tuple[Blueprint, list[GoldCall], dict[str, Any]]:
    def fact(name: str, **schema: Any) -> dict[str, Any]:
        return {"name": name, "role": "value", "json_schema": {"type": "string", **schema},
                "description": schema.get("description", "")}  # fmt: skip

    why = _bike_spec().tool("swap_rental_parts").parameters["properties"]["reason"]
    bp = Blueprint.model_validate({"nodes": [{"kind": "call", "id": "c0",
        "tool": "swap_rental_parts", "args": {
            "rental_id": {"kind": "user_fact", "name": "rental_id"},
            "part_ids": {"kind": "user_fact", "name": "part_ids"},
            "new_part_ids": {"kind": "user_fact", "name": "new_part_ids"},
            "reason": {"kind": "user_fact", "name": "reason"}}}],
        "facts": [fact("rental_id"), fact("part_ids"), fact("new_part_ids"),
                  fact("reason", description=why["description"])], "walks": [[]]})  # fmt: skip
    facts = {"rental_id": "R-9", "part_ids": ["S1"], "new_part_ids": [new], "reason": reason}
    calls = [GoldCall(node="c0", name="swap_rental_parts", arguments=facts)]
    return bp, calls, facts


def test_a_replacement_is_said_by_how_it_differs_from_what_it_replaces() -> None:
    """S3 differs from S1 in colour and size; "colour blue" would also be S2, so the fewest
    fields that pick S3 alone are said. S2 differs only in colour, and "colour blue" is not
    S2 alone: the size it keeps is added. The part replaced is said the same way (the only
    red one). The rental id and the reason are no such ids: no record pairs them."""
    bp, calls, facts = _swap("S3")
    said = described_facts(bp, calls, facts, _STATE)
    assert said == {"part_ids": "colour red", "new_part_ids": "size L"}
    bp, calls, facts = _swap("S2")
    assert described_facts(bp, calls, facts, _STATE)["new_part_ids"] == "colour blue, size M"


def test_no_description_when_no_fields_pick_the_record_alone() -> None:
    """A twin of S3 (same spec, another sku) leaves nothing that tells them apart: the id
    stays stated; so it does when the state does not keep both records together."""
    twin = {**_STATE["frames"]["FR-1"]["parts"], "S5": _part("S5", "blue", "L")}
    state = {"frames": {"FR-1": {"frame_id": "FR-1", "parts": twin}}}
    bp, calls, facts = _swap("S3")
    assert "new_part_ids" not in described_facts(bp, calls, facts, state)
    assert described_facts(bp, calls, facts, {"frames": {}}) == {}


def test_the_writer_says_the_description_and_the_reason_as_a_person_does() -> None:
    """The new part is "a new part (size L)", its sku is nowhere in the user's text; the
    documented reason is said after the request ("My reason is too small."), not "with
    reason too small"; a reason the docs leave open stays a detail of the request."""
    bp, calls, facts = _swap("S3")
    said = described_facts(bp, calls, facts, _STATE)
    request = ScenarioRequest(spec=_bike_spec(), blueprint=bp, facts=facts, described=said)
    scenario = TemplateWriter().write(request)
    text = f"{scenario.question} {scenario.known_info}"
    assert "a new part (size L)" in scenario.question, scenario.question
    assert "S3" not in text and "S1" not in text, text
    assert "(size L). My reason is too small." in scenario.question, scenario.question
    assert "with reason" not in scenario.question
    assert missing_facts(scenario, {k: v for k, v in facts.items() if k not in said}) == []
    plain = ScenarioRequest(spec=_bike_spec(), blueprint=bp, facts=facts)  # no S0 to read
    assert "S3" in TemplateWriter().write(plain).question
    kept = [f.model_copy(update={"description": "Why, in the user's words."}) for f in bp.facts]
    free = ScenarioRequest(spec=_bike_spec(), blueprint=bp.model_copy(update={"facts": kept}),
                           facts=facts, described=said)  # fmt: skip
    text = TemplateWriter().write(free).question
    assert "and reason too small" in text and "My reason" not in text, text


def _home_spec() -> tuple[EnvironmentSpec, Knowledge]:
    members = _coll("members", "member_id", "home")
    bookings = _coll("bookings", "booking_id", "member_id", "delivery")
    state = StateSchema(collections=[members, bookings])
    tools = [_tool("get_member", ["member_id"], "read"),
             _tool("get_booking", ["booking_id"], "read"),
             _tool("move_booking", ["booking_id", "line1", "town"], "write"),
             _tool("set_member_home", ["member_id", "line1", "town"], "write")]  # fmt: skip
    spec = EnvironmentSpec(name="venue", tools=tools, state_schema=state)
    return spec, Knowledge(user="members")


def _copies(first_home: int, second_from: str) -> bool:
    """A booking picked first in the member's list gets the member's home; then the home
    is set from the delivery of the booking picked at ``second_from``."""
    spec, know = _home_spec()
    walk = Walk(steps=(WalkStep(tool="move_booking", parent=None),))
    chooser = Chooser(spec=spec, graph=build_graph(spec), walk=walk, rng=random.Random(0),
                      reasoning_rate=1.0, know=know)  # fmt: skip

    def out(node: str, *path: str) -> dict[str, Any]:
        return {"kind": "output", "node": node, "path": list(path)}

    def pick(rid: str, at: int) -> dict[str, Any]:
        return {"kind": "reasoning", "id": rid, "noun": "booking",
                "inputs": {"value": out("f0", "bookings")}, "spec": {"op": "lookup",
                                                                    "field": [at]}}  # fmt: skip

    nodes = [
        {"kind": "call", "id": "f0", "tool": "get_member",
         "args": {"member_id": {"kind": "user_fact", "name": "member_id"}}},
        pick("r0", first_home), pick("r1", 0 if second_from == "same" else -1),
        {"kind": "call", "id": "f1", "tool": "get_booking",
         "args": {"booking_id": {"kind": "reasoning", "node": "r0", "path": []}}},
        {"kind": "call", "id": "f2", "tool": "get_booking",
         "args": {"booking_id": {"kind": "reasoning", "node": "r1", "path": []}}},
        {"kind": "call", "id": "c0", "tool": "move_booking",
         "args": {"booking_id": out("f1", "booking_id"), "line1": out("f0", "home", "line1"),
                  "town": out("f0", "home", "town")}},
        {"kind": "call", "id": "c1", "tool": "set_member_home",
         "args": {"member_id": out("f1", "member_id"), "line1": out("f2", "delivery", "line1"),
                  "town": out("f2", "delivery", "town")}},
    ]  # fmt: skip
    bp = Blueprint.model_validate({"nodes": nodes, "facts": [
        {"name": "member_id", "role": "entity", "json_schema": {"type": "string"},
         "collection": "members", "attribute": "member_id"}], "walks": [[]]})  # fmt: skip
    chooser.nodes = list(bp.nodes)
    return chooser.copies_back()


def test_a_write_copying_back_what_another_copied_is_found() -> None:
    """The first booking gets the member's home, then the home is set from that same
    booking's delivery (picked again by another lookup of the same place): a copy back.
    From the other end of the list, it is a real change."""
    assert _copies(0, "same")
    assert not _copies(0, "other")
