"""End to end with a scripted model: a valid env dir, the report, and resumption."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autoforge.env import Environment
from autoforge.llm import RecordedRequest
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import ToolDocs

from .conftest import GOOD_CODE, dispatcher, tool_in_request  # type: ignore[import-not-found]

DESIGN = {  # the compact state-design answer: what the rules' draft leaves open
    "collections": [
        {"name": "projects", "key": "project_id", "add": ["archived: boolean"]},
        {"name": "tasks", "key": "task_id", "add": ["status: enum open|done"]},
    ]
}


def _code(req: RecordedRequest) -> str:
    return GOOD_CODE.get(tool_in_request(req), "no idea")


ANSWERS = {
    "synth.state.design": DESIGN,
    "synth.tests": {"cases": []},
    "synth.tool": _code,
    "synth.repair": _code,
}


async def test_synthesis_writes_a_loadable_environment(todo_docs: ToolDocs, tmp_path: Path) -> None:
    out = tmp_path / "todo"
    client = dispatcher(ANSWERS)
    report = await synthesize(
        todo_docs, out, client, options=SynthOptions(max_repairs=1, fill="function")
    )
    status = {t.name: (t.status, t.source) for t in report.tools}
    assert status == {
        "create_task": ("accepted", "llm"),  # not plain: status is not a parameter
        "get_task": ("accepted", "template"),
        "list_tasks": ("accepted", "template"),
        "complete_task": ("accepted", "llm"),
    }
    assert report.mode == "docs" and report.name == "todo"
    assert report.state["collections"]["tasks"][0] == "task_id"
    for name in ("environment.json", "tools.py", "synthesis_report.json"):
        assert (out / name).is_file()
    assert not (out / "initial_state.json").exists()  # docs mode: values come per task
    assert report.conformance is not None and report.conformance["ok"], report.conformance
    saved = json.loads((out / "synthesis_report.json").read_text())
    assert saved["tools"][0]["name"] == "create_task" and saved["usage"]["calls"] > 0
    env = Environment.load(out)
    ep = env.episode(
        state={"projects": {"P-1": {"project_id": "P-1", "archived": False}}, "tasks": {}}
    )
    made = ep.call("create_task", {"project_id": "P-1", "title": "Draft"})
    assert made.ok and made.result["task_id"] == "T-1"
    assert ep.call("complete_task", {"task_id": "T-1"}).ok
    assert ep.call("complete_task", {"task_id": "T-1"}).error_kind == "tool_error"
    assert ep.call("get_task", {"task_id": "T-1"}).result["status"] == "done"


async def test_rerun_skips_accepted_tools(todo_docs: ToolDocs, tmp_path: Path) -> None:
    out = tmp_path / "todo"
    first = dispatcher(ANSWERS)
    await synthesize(todo_docs, out, first, options=SynthOptions(max_repairs=1, fill="function"))
    assert first.requests
    again = dispatcher({})  # any LLM call would get None and fail the tool
    report = await synthesize(
        todo_docs, out, again, options=SynthOptions(max_repairs=1, fill="function")
    )
    assert again.requests == []
    assert sorted(report.resumed) == sorted(t.name for t in todo_docs.tools)
    assert all(t.status == "accepted" for t in report.tools)


async def test_failed_tool_is_retried_and_left_out_of_the_env(
    todo_docs: ToolDocs, tmp_path: Path
) -> None:
    out = tmp_path / "todo"
    broken = dict(ANSWERS, **{"synth.tool": "nothing", "synth.repair": "nothing"})
    opts = SynthOptions(max_repairs=0, fallback=False, llm_tests=True, fill="function")
    report = await synthesize(todo_docs, out, dispatcher(broken), options=opts)
    failed = {t.name for t in report.tools if t.status == "failed"}
    assert failed == {"create_task", "complete_task"}
    spec = json.loads((out / "environment.json").read_text())
    assert [t["name"] for t in spec["tools"]] == ["get_task", "list_tasks"]
    Environment.load(out)  # still a valid environment
    fixed = dispatcher(ANSWERS)
    report = await synthesize(todo_docs, out, fixed, options=opts)
    assert sorted(report.resumed) == ["get_task", "list_tasks"]
    assert {t.name for t in report.tools if t.status == "accepted"} == {
        "create_task",
        "get_task",
        "list_tasks",
        "complete_task",
    }
    assert {r.purpose for r in fixed.requests} == {"synth.tool", "synth.tests"}


async def test_data_mode_writes_the_initial_state(tmp_path: Path, todo_docs: ToolDocs) -> None:
    data = {
        "projects": {"P-1": {"project_id": "P-1", "archived": False}},
        "tasks": [
            {
                "task_id": "T-1",
                "project_id": "P-1",
                "title": "a",
                "priority": "low",
                "due_date": None,
                "status": "open",
            },
        ],
    }
    out = tmp_path / "env"
    opts = SynthOptions(fill="function")
    report = await synthesize(todo_docs, out, dispatcher(ANSWERS), data=data, options=opts)
    assert report.mode == "data" and report.state["source"] == "data"
    state = json.loads((out / "initial_state.json").read_text())
    assert state["tasks"]["T-1"]["title"] == "a"
    env = Environment.load(out)
    assert env.episode().call("get_task", {"task_id": "T-1"}).result["title"] == "a"
    assert report.conformance is not None and report.conformance["ok"], report.conformance
    # no state-design LLM calls in data mode
    assert report.usage.calls >= 1


async def test_an_unexpected_error_in_one_tool_fails_that_tool_only(
    todo_docs: ToolDocs, tmp_path: Path, monkeypatch: Any
) -> None:
    from autoforge.synth import pipeline

    real = pipeline.synthesize_tool

    async def flaky(client: Any, job: Any, settings: Any, **kw: Any) -> Any:
        if job.ctx.spec.name == "list_tasks":
            raise TypeError("unhashable type: 'dict'")  # a rule meeting an unexpected shape
        return await real(client, job, settings, **kw)

    monkeypatch.setattr(pipeline, "synthesize_tool", flaky)
    report = await synthesize(todo_docs, tmp_path / "todo", dispatcher(ANSWERS))
    status = {t.name: t.status for t in report.tools}
    assert status["list_tasks"] == "failed" and status["get_task"] == "accepted"
    failed = next(t for t in report.tools if t.name == "list_tasks")
    assert failed.errors == ["TypeError: unhashable type: 'dict'"]
