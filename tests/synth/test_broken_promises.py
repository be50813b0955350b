"""A tool the conformance check catches breaking a round trip stays in the environment, marked
partial with the finding as its reason (a documented tool never disappears)."""

from __future__ import annotations

from autoforge.synth.modelcode.codegen import from_source
from autoforge.synth.pipeline import mark_broken_promises
from autoforge.synth.report import ToolRecord, ToolReport


def _record(name: str) -> ToolRecord:
    code = from_source(f"def {name}(state):\n    return 1\n", name)
    report = ToolReport(name=name, cls="create", status="accepted", source="template")
    return ToolRecord(fingerprint="f", report=report, code=code)


def test_the_tool_named_by_a_round_trip_finding_is_kept_partial_with_its_reason() -> None:
    records = [_record("make_kite"), _record("get_kite")]
    check = {
        "broken_promises": [
            {"tool": "make_kite", "check": "roundtrip", "detail": "get_kite does not find it"}
        ]
    }
    assert mark_broken_promises(records, check) == ["make_kite"]
    made, got = records
    assert made.report.status == "partial" and "does not find it" in made.report.reason
    assert made.code is not None
    assert got.report.status == "accepted" and not got.report.reason
    assert mark_broken_promises(records, {"errors": ["no_crash x"]}) == []
