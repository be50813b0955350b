"""The rule schema gives ``status`` only to collections a transition with a known verb changes:
a write the classifier only guesses (no known verb) names no status to set."""

from __future__ import annotations

from doc_tools import doc_tool  # type: ignore[import-not-found]

from autoforge.synth.state.design import rule_based_schema
from autoforge.tooldocs import ToolSpec


def _specs(*entries: dict) -> list[ToolSpec]:  # type: ignore[type-arg]
    out = []
    for entry in entries:
        f = entry["function"]
        out.append(
            ToolSpec(name=f["name"], description=f["description"], parameters=f["parameters"])
        )
    return out


def test_status_only_where_a_known_verb_transitions() -> None:
    schema = rule_based_schema(
        _specs(
            doc_tool(
                "harbour_boat_discover", "Find boats by keyword", keywords="words", boat_id="boat"
            ),
            doc_tool("cancel_mooring", "Cancel a mooring", mooring_id="the mooring"),
            doc_tool("tide_to_depth", "Depth from a tide reading", tide_id="tide", hour="hour"),
        )
    )
    assert schema.collection("moorings").attribute("status") is not None  # cancel -> cancelled
    for name in ("boats", "tides"):
        coll = schema.collection(name)
        assert coll is not None and coll.attribute("status") is None, name
