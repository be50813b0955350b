"""Every failed or partial tool says why, in the synthesis report, report.html, the batch's
index and its ``batch.json``."""

from __future__ import annotations

import json
from pathlib import Path

from autoforge.cli.llm import llm_config_from_options
from autoforge.forge import ForgeOptions
from autoforge.forge.batch import discover, forge_many
from autoforge.synth.checking.leftout import reason_kind

DOC = Path(__file__).parent / "data" / "kennel_swagger.json"


async def test_every_tool_left_out_carries_its_reason(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "kennel").mkdir(parents=True)
    (docs / "kennel" / "swagger.json").write_text(DOC.read_text())
    out = tmp_path / "runs"
    base = ForgeOptions(out=out, tasks=2, exports=False, until="tasks", rules_only=True)
    config = llm_config_from_options(llm_model="none")
    report = await forge_many(discover(docs), base, out, config)
    run = out / "kennel"
    synth = json.loads((run / "env/synthesis_report.json").read_text())
    not_accepted = [t for t in synth["tools"] if t["status"] != "accepted"]
    assert any(t["name"] == "compileReport" for t in not_accepted)
    for tool in not_accepted:
        assert tool["reason"], tool["name"]
    report_tool = next(t for t in synth["tools"] if t["name"] == "compileReport")
    assert "no model to write it (--llm none)" in report_tool["reason"]
    html = (run / "report.html").read_text()
    assert report_tool["reason"].split(";")[0] in html
    item = report.items[0]
    assert item.tools_left_out.get(reason_kind(report_tool["reason"]), 0) >= 1
    assert item.writes_documented >= 3 and 0 < item.writes_kept <= item.writes_documented
    index = (out / "index.html").read_text()
    assert reason_kind(report_tool["reason"]) in index
    saved = json.loads((out / "batch.json").read_text())
    assert saved["items"][0]["tools_left_out"] == item.tools_left_out


def test_reason_kind_blanks_calls_values_and_numbers() -> None:
    reason = "template: runs: getPet(id=2) should succeed but gave: Error: pet not found: 2; x"
    assert reason_kind(reason) == "template: runs: CALL should succeed but"
    assert reason_kind("no rule template for a list tool; more") == (
        "no rule template for a list tool"
    )


def test_behaviour_code_carries_its_own_reason_and_progress_says_who_writes_it(
    tmp_path: Path,
) -> None:
    """A tool the behaviour model writes keeps no reason of the template attempt before it
    (an accepted one none at all), and its progress line says the behaviour model writes it
    rather than the template attempt's "failed"."""
    import asyncio

    from autoforge.forge import run_forge
    from autoforge.llm import LLMClient
    from autoforge.synth.pipeline import _progress
    from autoforge.synth.report import ToolRecord, ToolReport

    out = tmp_path / "bs"
    options = ForgeOptions(out=out, example="bookstore", tasks=0, exports=False,
                           until="environment", rules_only=True)  # fmt: skip
    config = llm_config_from_options(llm_model="none")
    asyncio.run(run_forge(options, client_factory=lambda: LLMClient(config)))
    synth = json.loads((out / "env/synthesis_report.json").read_text())
    place = next(t for t in synth["tools"] if t["name"] == "place_order")
    assert place["source"] == "behaviour" and place["status"] == "accepted"
    assert place["reason"] == ""
    failed = ToolRecord(fingerprint="", report=ToolReport(name="t", cls="create",
                        status="failed", reason="no rule template"), code=None)  # fmt: skip
    assert _progress(failed, compiled=True).startswith("the behaviour model writes it")
    assert _progress(failed, compiled=False) == "failed: no rule template"
