"""Every summary names what failed and why: tools, too few tasks, a run without tasks."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from autoforge.cli.llm import llm_config_from_options
from autoforge.cli.main import app
from autoforge.examples import example_path
from autoforge.forge import ForgeOptions, RunManifest, load_manifest
from autoforge.forge.batch import discover, forge_many
from autoforge.forge.manifest import StageRecord
from autoforge.forge.summary import (
    checks_cell,
    failed_tools,
    rejection_text,
    run_failure,
    task_shortfall,
)

#: A difficulty no bookstore blueprint reaches: generation gives up with no task.
UNREACHABLE = ["--difficulty", "tool_calls=40-", "--max-attempts", "120"]


def _tool(name: str, status: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "status": status, "cls": "create", "attempts": 0, "checks": [],
            "errors": [], **extra}  # fmt: skip


def test_failed_tools_say_why_in_words() -> None:
    report = {
        "rules_only": True,
        "tools": [
            _tool("get_item", "accepted", checks=[{"name": "load", "ok": True}]),
            _tool("make_item", "failed"),
            _tool("drop_item", "failed", attempts=2,
                  errors=["attempt 1: KeyError 'x'", "attempt 2: wrong state after call"]),
        ],
    }  # fmt: skip
    found = dict(failed_tools(report))
    assert list(found) == ["make_item", "drop_item"]
    assert "no code template covers a create tool" in found["make_item"]
    assert "rules only" in found["make_item"]
    assert found["drop_item"].startswith("attempt 2: wrong state after call")


def test_a_failed_tool_never_shows_a_full_check_score_alone() -> None:
    checks = [{"name": n, "ok": True} for n in "abcdefgh"]
    assert checks_cell(_tool("t", "accepted", checks=checks)) == "8/8"
    assert checks_cell(_tool("t", "failed", checks=checks)) == "8/8 before it failed"
    assert checks_cell(_tool("t", "failed")) == "none ran"
    assert (
        checks_cell(_tool("t", "accepted", source="behaviour")) == "in the run's conformance check"
    )


def test_every_rejection_reason_has_text() -> None:
    from autoforge.tasks.gold.gates import REASONS

    for code in (*REASONS, "doomed_after_terminal", "doomed_repeat_unique", "several_users",
                 "doomed_new_kind", "implausible_other", "error:KeyError"):  # fmt: skip
        text = rejection_text(code)
        assert text and "no description" not in text, code
    assert "generation.json" in rejection_text("never_seen_before")


def _manifest(target: int, produced: int, rejected: dict[str, int]) -> RunManifest:
    manifest = RunManifest(options={"difficulty": "hard"})
    detail = {"target": target, "produced": produced, "attempts": 500, "rejected": rejected}
    manifest.stages["tasks"] = StageRecord(name="tasks", status="done", detail=detail)
    return manifest


def test_shortfall_names_missing_tools_rejections_and_what_to_try() -> None:
    synth = {"tools": [_tool("make_item", "failed")]}
    lines = task_shortfall(_manifest(10, 0, {"difficulty": 400, "gold_error": 100}), synth)
    text = "\n".join(lines)
    assert lines[0] == "0 of 10 tasks after 500 attempts"
    assert "tool make_item is missing" in text
    assert "rejected 400x difficulty: outside the requested difficulty ranges" in text
    assert "--difficulty easy (now hard)" in lines[-1] and "--llm-model" in lines[-1]
    assert task_shortfall(_manifest(10, 10, {})) == []
    assert run_failure(_manifest(10, 0, {})) == "no task was made in 500 attempts"
    why = run_failure(_manifest(10, 0, {"gold_error": 3, "difficulty": 9}))
    assert why == ("no task was made in 500 attempts (most rejected as difficulty: outside the "
                   "requested difficulty ranges)")  # fmt: skip
    assert run_failure(_manifest(10, 3, {})) is None
    assert run_failure(_manifest(0, 0, {})) is None  # none asked, none missing


def test_cli_forge_without_tasks_exits_non_zero_and_says_why(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["forge", "--env", "example:bookstore", "--out", str(out), "--tasks", "3",
            "--no-exports", *UNREACHABLE]  # fmt: skip
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert "tasks: 0 of 3 tasks" in result.output
    assert "rejected" in result.output and "try: --difficulty easy" in result.output
    assert "run failed: no task was made" in result.output
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "run failed" in report and "0 of 3 tasks" in report


def test_cli_forge_with_no_working_tool_exits_1_and_names_the_tool(tmp_path: Path) -> None:
    """A doc set whose one tool synthesis cannot build is a run that made nothing (exit 1,
    as one without tasks), not an input error (exit 2); the terminal and report.html say
    which tool failed and why, and the report's check card does not say passed."""
    doc = tmp_path / "mailer.json"
    tool = {
        "name": "send_email",
        "description": "Send an e-mail message to a recipient.",
        "parameters": {
            "type": "object",
            "required": ["to", "body"],
            "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
        },
    }
    doc.write_text(json.dumps([{"type": "function", "function": tool}]), encoding="utf-8")
    out = tmp_path / "run"
    args = ["forge", str(doc), "--out", str(out), "--llm", "none", "--no-exports"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert "tool send_email failed:" in result.output
    assert "run failed: stage environment failed" in result.output
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "send_email" in report and "no tool to check" in report
    assert "no call ran" in report  # the Environment section does not say passed either


def test_batch_counts_a_doc_set_without_tasks_as_failed(tmp_path: Path) -> None:
    root, out = tmp_path / "docs", tmp_path / "runs"
    root.mkdir()
    shutil.copyfile(example_path("bookstore") / "openapi.yaml", root / "shop.yaml")
    base = ForgeOptions(out=out, tasks=3, difficulty="tool_calls=40-", max_attempts=120,
                        exports=False, rules_only=True)  # fmt: skip
    none = llm_config_from_options(llm_model="none")
    report = asyncio.run(forge_many(discover(root), base, out, none))
    (item,) = report.items
    assert item.status == "failed" and item.failed_stage == "tasks" and item.tasks == 0
    assert "no task was made" in (item.error or "")
    assert report.counts() == {"items": 1, "done": 0, "failed": 1}
    assert "failed at tasks" in (out / "index.html").read_text(encoding="utf-8")
    assert load_manifest(out / "shop").stages["tasks"].status == "done"


def test_a_one_sided_schema_range_names_only_its_bound() -> None:
    from autoforge.lexicon.rules import _schema_rules
    from autoforge.tooldocs import ToolSpec

    prop = {"max_price": {"type": "number", "minimum": 0}}
    spec = ToolSpec(name="search", description="", parameters={"properties": prop})
    assert [r.sentence for r in _schema_rules(spec)] == ["max_price: minimum 0"]


def test_eval_page_colours_a_zero_pass_rate_as_a_failure() -> None:
    from autoforge.bench.html import _rate_kind

    assert (_rate_kind(0.0), _rate_kind(0.25), _rate_kind(0.75), _rate_kind(None)) == (
        "bad", "warn", "ok", "",
    )  # fmt: skip


def test_every_forge_option_is_checked_before_the_run_directory_exists(tmp_path: Path) -> None:
    out = tmp_path / "run"
    base = ["forge", "--example", "bookstore", "--out", str(out)]
    cases = {
        "--llm-base-url": ["--llm-model", "tiny"],
        "unknown difficulty": ["--difficulty", "extreme", "--llm-model", "none"],
        "bad range": ["--difficulty", "tool_calls=x", "--llm-model", "none"],
        "unknown format": ["--format", "pdf", "--llm-model", "none"],
        "not a stage": ["--until", "deploy", "--llm-model", "none"],
        "--executor must be": ["--executor", "dask", "--llm-model", "none"],
    }
    for expected, args in cases.items():
        result = CliRunner().invoke(app, [*base, *args], env={"COLUMNS": "200"})
        assert result.exit_code != 0 and expected in str(result.exception or result.output), args
        assert not out.exists(), args


def test_shortfall_of_an_environment_without_writes_names_that_cause() -> None:
    """With no write tool no task changes the state: the lines say so and the tip asks for a
    write tool instead of sending the user round easier difficulties."""
    lines = task_shortfall(_manifest(10, 0, {"no_walk": 200}), {"tools": []}, writes=0)
    assert any("has no write tool" in x for x in lines)
    assert lines[-1] == "try: docs with a write tool (a create, update, cancel or delete operation)"
    other = task_shortfall(_manifest(10, 0, {"no_walk": 200}), {"tools": []}, writes=2)
    assert not any("no write tool" in x for x in other) and "--difficulty" in other[-1]


def test_batch_shows_a_doc_set_with_fewer_tasks_than_asked_as_incomplete(tmp_path: Path) -> None:
    from autoforge.cli.forge import batch_table
    from autoforge.forge.batch_report import BatchReport, ItemResult, render_index

    short = ItemResult(name="a", run_dir=str(tmp_path / "a"), status="done", tasks=266,
                       tasks_asked=300)  # fmt: skip
    full = ItemResult(name="b", run_dir=str(tmp_path / "b"), status="done", tasks=5, tasks_asked=5)
    report = BatchReport(items=[short, full])
    page = render_index(tmp_path, report)
    assert "incomplete: 266 of 300 tasks" in page and "1 with fewer tasks than asked" in page
    assert short.short and not full.short
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(batch_table(report))
    text = console.export_text()
    assert "incomplete" in text and "266 of 300" in text


def test_hints_follow_the_cause_of_the_shortfall() -> None:
    """Repeats of tasks already made ask for fewer tasks, not more attempts; a length no walk
    reaches asks for an easier difficulty, not more attempts."""
    dup = task_shortfall(_manifest(300, 266, {"duplicate": 14834}), {"tools": []}, writes=2)
    assert "fewer --tasks" in dup[-1] and "--max-attempts" not in dup[-1]
    walk = task_shortfall(_manifest(10, 0, {"no_walk": 200}), {"tools": []}, writes=2)
    assert "--difficulty easy" in walk[-1] and "--max-attempts" not in walk[-1]


def test_shortfall_names_the_writes_left_out_and_the_commonest_failed_gold_runs() -> None:
    gen = {"partial_writes": ["close_item"],
           "failures": {"gold_error: close_item: Error: I# is open": 7}}  # fmt: skip
    lines = task_shortfall(_manifest(10, 2, {"gold_error": 7}), None, gen)
    text = "\n".join(lines)
    assert "1 write tool(s) left out of gold calls" in text and text.count("close_item") == 2
    assert "  7x gold_error: close_item: Error: I# is open" in lines
