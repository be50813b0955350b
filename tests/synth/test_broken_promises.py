"""A tool the conformance check catches breaking a round trip is dropped from the environment,
with the finding as its reason."""

from __future__ import annotations

from autoforge.synth.codegen import from_source
from autoforge.synth.pipeline import drop_broken_promises
from autoforge.synth.report import ToolRecord, ToolReport


def _record(name: str) -> ToolRecord:
    code = from_source(f"def {name}(state):\n    return 1\n", name)
    report = ToolReport(name=name, cls="create", status="accepted", source="template")
    return ToolRecord(fingerprint="f", report=report, code=code)


def test_the_tool_named_by_a_round_trip_finding_is_dropped_with_its_reason() -> None:
    records = [_record("make_kite"), _record("get_kite")]
    check = {
        "broken_promises": [
            {"tool": "make_kite", "check": "roundtrip", "detail": "get_kite does not find it"}
        ]
    }
    assert drop_broken_promises(records, check) == ["make_kite"]
    made, got = records
    assert made.report.status == "failed" and "does not find it" in made.report.reason
    assert got.report.status == "accepted" and not got.report.reason
    assert drop_broken_promises(records, {"errors": ["no_crash x"]}) == []
