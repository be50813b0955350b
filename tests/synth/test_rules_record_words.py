"""A policy sentence is attributed to a tool by its action, never by the record word in its name.

"To place a booking you need a channel (...)" is about ``place_booking``; that
``cancel_booking`` also has ``booking`` in its name (a word that names a kind of record of the
state) does not make the sentence about cancelling. No record word is special-cased: the words
come from the state's collections.
"""

from __future__ import annotations

from autoforge.lexicon import record_words
from autoforge.synth import pipeline as P
from autoforge.tooldocs import ToolDocs
from autoforge.tooldocs.spec import ToolSpec

POLICY = "To place a booking you need a channel (`desk`, `phone` or `web`)."


def _tool(name: str, key: str) -> ToolSpec:
    params = {key: {"type": "string"}, "channel": {"type": "string"}}
    return ToolSpec(
        name=name, description=f"{name.replace('_', ' ').capitalize()}.",
        parameters={"type": "object", "properties": params, "required": [key, "channel"]},
        access="write",
    )  # fmt: skip


def test_record_words_do_not_name_an_action() -> None:
    docs = ToolDocs(
        tools=[_tool("place_booking", "slot_id"), _tool("cancel_booking", "booking_id")],
        policy=POLICY,
    )
    data = {
        "bookings": {
            f"B{i}": {"booking_id": f"B{i}", "slot_id": f"S{i}", "channel": "web"}
            for i in range(1, 4)
        },
        "slots": {f"S{i}": {"slot_id": f"S{i}", "day": "mon"} for i in range(1, 4)},
    }
    p1 = P._phase1_data(docs, data)
    assert {"booking", "bookings", "slot"} <= record_words(p1.schema)
    rules = {
        name: {(r.kind, r.param) for r in P._job(docs.tool(name), p1, docs, POLICY)[0].rules}
        for name in ("place_booking", "cancel_booking")
    }
    assert ("enum", "channel") in rules["place_booking"]
    assert ("enum", "channel") not in rules["cancel_booking"]
