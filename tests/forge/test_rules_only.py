"""A forge run with no model (``--llm none``): rules only, labelled as such everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.forge import ForgeError, ForgeOptions, run_forge
from autoforge.llm import LLMClient


def _none() -> LLMClient:
    return LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))


async def test_rules_only_forge_synthesizes_and_labels_the_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    options = ForgeOptions(out=out, example="bookstore", example_data=False, tasks=4, exports=False)
    manifest = await run_forge(options, client_factory=_none)
    assert manifest.stages["tasks"].status == "done"
    assert manifest.model == "none (rules only)"
    assert manifest.tokens.calls == 0
    report = json.loads((out / "env/synthesis_report.json").read_text())
    assert report["rules_only"] is True and report["state"]["source"] in ("rules", "docs+rules")
    assert report["state"]["model_calls"] == 0
    sources = {t["source"] for t in report["tools"] if t["status"] != "failed"}
    assert sources and sources <= {"template", "skeleton", "behaviour"}  # no LLM code
    assert manifest.stages["environment"].detail["rules_only"] is True
    html = (out / "report.html").read_text()
    assert "Rules only (--llm none)" in html and "by rules only" in html
    assert manifest.stages["tasks"].detail["produced"] == 4


async def test_rules_only_with_llm_tasks_is_a_clear_error(tmp_path: Path) -> None:
    options = ForgeOptions(
        out=tmp_path / "run", example="bookstore", example_data=False, tasks=2,
        llm_tasks=True, exports=False,
    )  # fmt: skip
    with pytest.raises(ForgeError, match="--llm-tasks needs a model"):
        await run_forge(options, client_factory=_none)


def test_report_of_a_model_run_has_no_rules_only_label(tmp_path: Path) -> None:
    from autoforge.forge.manifest import RunManifest
    from autoforge.forge.report import render_forge_report

    html = render_forge_report(tmp_path, RunManifest(model="embedded:small"))
    assert "Rules only (--llm none)" not in html
