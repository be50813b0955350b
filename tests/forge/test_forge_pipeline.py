"""End to end: ``run_forge`` on the bundled bookstore docs with a scripted LLM, and resumption."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from autoforge.env import Environment
from autoforge.forge import (
    STAGES,
    ForgeOptions,
    NullReporter,
    load_manifest,
    run_forge,
    verify_task,
)
from autoforge.llm import LLMClient, RecordedRequest
from autoforge.synth import SynthOptions
from autoforge.tasks.model import TaskSet

ARTIFACTS = [
    "run.json",
    "tools.json",
    "env/environment.json",
    "env/tools.py",
    "env/synthesis_report.json",
    "check.json",
    "graph.json",
    "graph.svg",
    "tasks.jsonl",
    "generation.json",
    "verify.json",
    "exports/tau2/tasks.json",
    "exports/tau2/db.json",
    "report.html",
]


def _no_llm() -> LLMClient:
    raise AssertionError("this run must not need the LLM")


class _Interrupt(NullReporter):
    """Raises KeyboardInterrupt after ``after`` tasks were written (a Ctrl-C mid-stage)."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after, self.seen = after, 0

    def advance(self, stage: str, text: str = "") -> None:
        if stage == "tasks":
            self.seen += 1
            if self.seen >= self.after:
                raise KeyboardInterrupt


async def test_forge_from_docs_with_scripted_llm(
    tmp_path: Path, scripted_llm: Callable[..., LLMClient]
) -> None:
    out = tmp_path / "run"
    requests: list[RecordedRequest] = []
    options = ForgeOptions(
        out=out, example="bookstore", example_data=False, tasks=6, difficulty="medium"
    )
    manifest = await run_forge(
        options, client_factory=lambda: scripted_llm(on_call=requests.append)
    )
    for name in ARTIFACTS:
        assert (out / name).is_file(), name
    assert [s for s in STAGES if manifest.stages[s].status != "done"] == []
    purposes = {r.purpose for r in requests}
    # the example's OpenAPI document types every return: the state is read from its schemas
    # without a model call; its operations give every tool's behaviour model, so the (scripted)
    # LLM reads the rule sentences the rules leave uncarried (and would write tools nothing
    # else covers: whole functions, or the steps of a rule draft)
    assert purposes & {"synth.read_rule", "synth.tool", "synth.fill"}
    assert not any(p.startswith("synth.state") for p in purposes)
    env_stage = manifest.stages["environment"]
    assert env_stage.detail["mode"] == "docs"
    assert env_stage.tokens.calls == len(requests) and env_stage.tokens.total_tokens > 0
    assert manifest.stages["tasks"].tokens.calls == 0  # task synthesis is deterministic here
    # the environment was synthesized from the docs: failed tools are left out, the rest load
    report = json.loads((out / "env/synthesis_report.json").read_text())
    accepted = {t["name"] for t in report["tools"] if t["status"] != "failed"}
    env = Environment.load(out / "env")
    assert {t.name for t in env.spec.tools} == accepted and len(accepted) >= 5
    # every kept task verifies independently by replaying its gold calls to its S* hash
    tasks = TaskSet(out / "tasks.jsonl").load()
    assert len(tasks) == 6 and len({t.id for t in tasks}) == 6
    assert all(verify_task(env, t).ok for t in tasks)
    assert all((t.gold_calls and t.changes_state) or t.required_outputs for t in tasks)
    verify = json.loads((out / "verify.json").read_text())
    assert verify["verified"] == verify["total"] == 6
    tau2 = json.loads((out / "exports/tau2/tasks.json").read_text())
    assert [t["id"] for t in tau2] == [t.id for t in tasks]
    saved = load_manifest(out)
    assert saved.stages["tasks"].detail["produced"] == 6 and saved.sessions == 1
    from autoforge.env import EnvDir  # the run dir is a valid serve target

    target = EnvDir.resolve(out)
    assert target.root == out / "env" and target.tasks_file == out / "tasks.jsonl"


async def test_rerun_skips_finished_stages_without_the_llm(
    tmp_path: Path, scripted_llm: Callable[..., LLMClient]
) -> None:
    out = tmp_path / "run"
    first = ForgeOptions(out=out, example="bookstore", tasks=3, until="graph")
    manifest = await run_forge(first, client_factory=scripted_llm)
    assert manifest.stages["graph"].status == "done"
    assert manifest.stages["environment"].detail["mode"] == "data"  # the example's sample data
    assert not (out / "env/initial_state.json").read_text().startswith("{}")
    assert "tasks" not in manifest.stages and not (out / "tasks.jsonl").exists()
    assert (out / "report.html").is_file()  # written even when stopped early
    reporter = NullReporter()
    again = ForgeOptions(out=out, example="bookstore", tasks=3)
    manifest = await run_forge(again, client_factory=_no_llm, reporter=reporter)
    assert reporter.skipped == ["ingest", "environment", "graph"]
    assert manifest.stages["environment"].sessions == 1 and manifest.sessions == 2
    assert manifest.stages["environment"].skipped_last
    assert len(TaskSet(out / "tasks.jsonl").load()) == 3


async def test_interrupted_generation_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    await run_forge(
        ForgeOptions(out=whole, env_dir=Path("example:bookstore"), tasks=7, exports=False)
    )
    cut = tmp_path / "cut"
    options = ForgeOptions(out=cut, env_dir=Path("example:bookstore"), tasks=7, exports=False)
    with pytest.raises(KeyboardInterrupt):
        await run_forge(options, reporter=_Interrupt(after=3))
    manifest = load_manifest(cut)
    assert manifest.stages["tasks"].status == "interrupted" and "verify" not in manifest.stages
    assert len(TaskSet(cut / "tasks.jsonl").load()) == 3
    reporter = NullReporter()
    manifest = await run_forge(options, reporter=reporter)
    assert reporter.skipped == ["ingest", "environment", "graph"]
    assert manifest.stages["tasks"].sessions == 2 and manifest.stages["tasks"].status == "done"
    ids = [t.id for t in TaskSet(cut / "tasks.jsonl").load()]
    assert ids == [t.id for t in TaskSet(whole / "tasks.jsonl").load()]
    stats = [json.loads((d / "generation.json").read_text()) for d in (whole, cut)]
    for key in ("attempts", "accepted", "rejected", "accept_rate"):
        assert stats[0][key] == stats[1][key], key
    assert stats[1]["replayed"] == 3


async def test_more_tasks_appends_and_changed_options_redo_downstream(tmp_path: Path) -> None:
    out = tmp_path / "run"
    given = Path("example:bookstore")
    await run_forge(ForgeOptions(out=out, env_dir=given, tasks=3))
    first = [t.id for t in TaskSet(out / "tasks.jsonl").load()]
    reporter = NullReporter()
    await run_forge(ForgeOptions(out=out, env_dir=given, tasks=5), reporter=reporter)
    ids = [t.id for t in TaskSet(out / "tasks.jsonl").load()]
    assert ids[:3] == first and len(ids) == 5
    assert reporter.notes == []  # more tasks is a resumption, not a change of inputs
    reporter = NullReporter()
    manifest = await run_forge(
        ForgeOptions(out=out, env_dir=given, tasks=2, difficulty="easy"), reporter=reporter
    )
    assert reporter.skipped == ["ingest", "environment", "graph"]
    assert any("tasks" in n and "changed" in n for n in reporter.notes)
    easy = TaskSet(out / "tasks.jsonl").load()
    assert len(easy) == 2 and all(t.meta["difficulty"] == "easy" for t in easy)
    assert len(TaskSet(out / "tasks.jsonl.prev").load()) == 5  # the old tasks are kept aside
    assert manifest.stages["verify"].detail["total"] == 2


async def test_missing_artifact_reruns_its_stage(tmp_path: Path) -> None:
    out = tmp_path / "run"
    options = ForgeOptions(out=out, env_dir=Path("example:bookstore"), tasks=2, exports=False)
    await run_forge(options)
    (out / "graph.svg").unlink()
    reporter = NullReporter()
    await run_forge(options, reporter=reporter)
    assert (out / "graph.svg").is_file()
    assert "graph" not in reporter.skipped and "tasks" in reporter.skipped


async def test_unreachable_difficulty_ends_with_no_tasks_and_is_not_retried(tmp_path: Path) -> None:
    out = tmp_path / "run"
    options = ForgeOptions(
        out=out, env_dir=Path("example:bookstore"), tasks=2, difficulty="tool_calls=40-"
    )
    manifest = await run_forge(options)
    tasks = manifest.stages["tasks"]
    assert tasks.status == "done" and tasks.detail["produced"] == 0 and tasks.detail["exhausted"]
    assert tasks.detail["attempts"] == 200 == sum(tasks.detail["rejected"].values())
    assert tasks.detail["rejected"]["difficulty"] > 150
    assert manifest.stages["exports"].detail["skipped"] == "no tasks"
    assert manifest.stages["verify"].detail["total"] == 0
    reporter = NullReporter()
    await run_forge(options, reporter=reporter)
    assert "tasks" in reporter.skipped  # same target, attempts already exhausted
    options.max_attempts = 30  # other limits: tried again (and exhausted again)
    manifest = await run_forge(options, reporter=NullReporter())
    assert manifest.stages["tasks"].sessions == 2
    assert manifest.stages["tasks"].detail["attempts"] == 30


async def test_interrupted_synthesis_resumes_without_redoing_finished_work(
    tmp_path: Path, scripted_llm: Callable[..., LLMClient]
) -> None:
    out = tmp_path / "run"
    # every tool to the model (the templates and, without data, the behaviour model would
    # write most of them): two model-written tools to interrupt between
    options = ForgeOptions(
        out=out,
        example="bookstore",
        example_data=False,
        tasks=2,
        synth=SynthOptions(use_templates=False),
    )
    tool_calls: list[str] = []

    def stop_at_second_tool(req: RecordedRequest) -> None:
        if req.purpose == "synth.tool":
            tool_calls.append(req.messages[-1]["content"])
            if len(tool_calls) == 2:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        await run_forge(options, client_factory=lambda: scripted_llm(on_call=stop_at_second_tool))
    assert load_manifest(out).stages["environment"].status == "interrupted"
    again: list[RecordedRequest] = []
    manifest = await run_forge(options, client_factory=lambda: scripted_llm(on_call=again.append))
    purposes = [r.purpose for r in again]
    assert purposes and not any(p.startswith("synth.state") for p in purposes)  # schema kept
    assert tool_calls[0] not in [r.messages[-1]["content"] for r in again]  # first tool kept
    env = manifest.stages["environment"]
    assert env.status == "done" and env.sessions == 2 and env.detail["resumed"]
    assert len(TaskSet(out / "tasks.jsonl").load()) == 2
