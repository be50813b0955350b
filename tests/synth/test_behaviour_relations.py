"""Sentence rules relating a call's arguments to records other than its target: a record that
must exist for a pair of parameters, an item that must be one of a record's list, and a status
the policy requires of a record a parameter names. Each is read and then run as compiled code."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import Check, ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.policy import policy_required_status
from autoforge.synth.behaviour.relations import member_checks, record_for_checks


class ToolError(Exception):
    pass


DATA: dict[str, Any] = {
    "events": {
        "E1": {"event_id": "E1", "status": "open", "sessions": [{"room": "R1", "seats": 4}]},
        "E2": {"event_id": "E2", "status": "closed", "sessions": [{"room": "R2", "seats": 9}]},
    },
    "seats": {
        "S1": {"seat_id": "S1", "event_id": "E1", "room": "R1", "taken": False},
    },
    "rooms": {"R1": {"room": "R1"}, "R2": {"room": "R2"}},
}


def _ctx(policy: str = "") -> Context:
    return Context(ev=DataEvidence.of(DATA), policy=policy)


def _run(checks: list[Check], tb: ToolBehaviour, **scope: Any) -> None:
    code = "\n".join(line for c in checks for line in _check_lines(c, tb))
    exec(code, {"ToolError": ToolError, "state": DATA, **scope})


def test_a_record_for_a_pair_of_parameters_must_exist() -> None:
    tb = ToolBehaviour(
        tool="hold_seat", kind="action", collection="holds",
        params=[ParamInfo(name="event_id"), ParamInfo(name="room")],
    )  # fmt: skip
    text = ["A seat for that event in that room must exist (holding elsewhere is refused)."]
    checks = record_for_checks(tb, text, _ctx())
    assert [(c.kind, c.collection, c.values) for c in checks] == [
        ("record_for", "seats", ["event_id", "room"])
    ]
    _run(checks, tb, event_id="E1", room="R1")
    with pytest.raises(ToolError, match="no seats record"):
        _run(checks, tb, event_id="E1", room="R2")
    # a read filter that matches nothing is an empty answer, and a sentence without a
    # requirement is no rule
    assert record_for_checks(tb.model_copy(update={"kind": "list"}), text, _ctx()) == []
    assert record_for_checks(tb, ["Lists a seat for that event in that room."], _ctx()) == []


def test_an_item_must_be_one_of_the_list_of_the_record_a_parameter_names() -> None:
    tb = ToolBehaviour(
        tool="book_rooms", kind="create", collection="bookings",
        params=[ParamInfo(name="event_id", references="events"), ParamInfo(name="rooms")],
    )  # fmt: skip
    schema = {
        "properties": {
            "event_id": {"type": "string"},
            "rooms": {
                "type": "array",
                "items": {"type": "object", "properties": {"room": {}, "n": {}}},
            },
        }
    }
    text = ["Each room must be a session of the event; n is at least 1."]
    checks = member_checks(tb, text, _ctx(), schema)
    assert [(c.kind, c.param, c.attribute, c.via, c.values) for c in checks] == [
        ("member_of", "rooms", "sessions", "param:event_id", ["room"])
    ]
    _run(checks, tb, event_id="E1", rooms=[{"room": "R1", "n": 2}])
    with pytest.raises(ToolError, match="R2 is not among the sessions"):
        _run(checks, tb, event_id="E1", rooms=[{"room": "R1"}, {"room": "R2"}])
    # the list's entries lack the field: no rule
    assert member_checks(tb, ["Each seat must be a session of the event."], _ctx(), schema) == []


def test_the_policy_requires_a_status_of_the_record_a_parameter_names() -> None:
    tb = ToolBehaviour(
        tool="register_guest", kind="create", collection="registrations",
        params=[ParamInfo(name="event_id", references="events")],
    )  # fmt: skip
    policy = (
        "- Only events with status `open` can be registered for; closed ones are refused.\n"
        "- Only events with status `closed` can be archived.\n"
    )
    checks = policy_required_status(tb, _ctx(policy))
    assert [(c.kind, c.via, c.values) for c in checks] == [
        ("status_in", "param:event_id", ["open"])
    ]
    _run(checks, tb, event_id="E1", _today="2026-01-01")
    with pytest.raises(ToolError):
        _run(checks, tb, event_id="E2", _today="2026-01-01")


def test_the_policy_bounds_the_date_of_the_record_the_verb_acts_on() -> None:
    from autoforge.synth.behaviour.policy import policy_date_windows

    data = {
        "trips": {
            "T1": {"trip_id": "T1", "status": "planned", "departs_on": "2026-01-02"},
            "T2": {"trip_id": "T2", "status": "planned", "departs_on": "2025-12-30"},
        }
    }
    ev = DataEvidence.of(data)
    tb = ToolBehaviour(tool="confirm_trip", kind="action", collection="trips", id_param="trip_id")
    policy = ("- Only `planned` trips can be confirmed, and only if their departs_on date is "
              "today or later (a past trip must be cancelled instead).\n")  # fmt: skip
    checks = policy_date_windows(tb, Context(ev=ev, policy=policy))
    assert [(c.kind, c.attribute, c.values) for c in checks] == [
        ("date_window", "departs_on", [">="])
    ]
    other = tb.model_copy(update={"tool": "cancel_trip"})  # the verb names confirm only
    assert policy_date_windows(other, Context(ev=ev, policy=policy)) == []
    code = "\n".join(line for c in checks for line in _check_lines(c, tb))
    exec(code, {"ToolError": ToolError, "_rec": data["trips"]["T1"], "_today": "2026-01-01"})
    with pytest.raises(ToolError, match="not >= today"):
        exec(code, {"ToolError": ToolError, "_rec": data["trips"]["T2"], "_today": "2026-01-01"})


def test_a_tool_section_requires_an_attribute_of_the_record_a_parameter_names() -> None:
    from autoforge.synth.behaviour.headings import section_sentences
    from autoforge.synth.behaviour.policy import policy_attribute_checks

    data = {"docks": {"D1": {"dock_id": "D1", "area": "north"},
                      "D2": {"dock_id": "D2", "area": "south"}},
            "loads": {"L1": {"load_id": "L1", "dock_id": "D1"}}}  # fmt: skip
    policy = (
        "# Yard rules\n\n## Loading (load_truck)\n"
        "- The dock must be `open` and in area `north` or `east`.\n"
        "## Unloading (unload_truck)\n- The dock may not be in area `north`.\n"
    )
    assert section_sentences(policy, "load_truck") == [
        "The dock must be `open` and in area `north` or `east`."
    ]
    ctx = Context(ev=DataEvidence.of(data), policy=policy)
    tb = ToolBehaviour(
        tool="load_truck", kind="create", collection="loads",
        params=[ParamInfo(name="dock_id", references="docks")],
    )  # fmt: skip
    checks = policy_attribute_checks(tb, ctx)
    assert [(c.kind, c.attribute, c.via, c.values) for c in checks] == [
        ("status_in", "area", "param:dock_id", ["east", "north"])
    ]
    _run(checks, tb, dock_id="D1", _today="2026-01-01", state=data)
    with pytest.raises(ToolError):
        _run(checks, tb, dock_id="D2", _today="2026-01-01", state=data)
    unload = tb.model_copy(update={"tool": "unload_truck"})
    assert [(c.kind, c.values) for c in policy_attribute_checks(unload, ctx)] == [
        ("status_not_in", ["north"])
    ]
    other = tb.model_copy(update={"tool": "inspect_truck"})  # no section names it
    assert policy_attribute_checks(other, ctx) == []
