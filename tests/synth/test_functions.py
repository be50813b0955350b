"""Phase 2: per-tool prompts, templates, the check-and-repair loop, failures recorded."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.spec import StateSchema
from autoforge.llm import LLMClient, RecordedRequest
from autoforge.synth.checking.checks import CheckContext
from autoforge.synth.checking.teststate import happy_arguments, synthetic_state
from autoforge.synth.modelcode.functions import ToolJob, first_messages, synthesize_tool
from autoforge.synth.options import SynthOptions
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.state.infer import record_sample, schema_field_paths
from autoforge.tooldocs import ToolDocs

from .conftest import GOOD_CODE, dispatcher  # type: ignore[import-not-found]

BUGGY_COMPLETE = """```python
def complete_task(state, task_id):
    task = state["task"][task_id]
    task["status"] = "done"
    return task
```"""
NO_CHECK_COMPLETE = """```python
def complete_task(state, task_id):
    task = state["tasks"].get(task_id)
    if task is None:
        raise ToolError("no such task")
    task["status"] = "done"
    return dict(task)
```"""


def make_job(docs: ToolDocs, schema: StateSchema, name: str) -> ToolJob:
    spec = docs.tool(name)
    c = classify_tool(spec, schema)
    state = synthetic_state(schema)
    ctx = CheckContext(
        spec=spec,
        classification=c,
        schema=schema,
        state=state,
        happy=happy_arguments(spec, c, schema, state),
    )
    coll = schema.collection(c.collection or "")
    return ToolJob(
        ctx=ctx,
        paths=schema_field_paths(coll) if coll else {},
        samples={x.name: record_sample(state, x.name, 500) for x in schema.collections},
        policy=docs.policy,
        exclude_examples={t.name for t in docs.tools},
    )


def test_prompt_has_doc_schema_record_examples_skeleton(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    job = make_job(todo_docs, todo_schema, "complete_task")
    system, user = first_messages(job)
    assert "ToolError" in system["content"] and "Allowed imports" in system["content"]
    text = user["content"]
    assert text.startswith("Tool to implement (transition):\ncomplete_task: Mark an open task")
    assert "- tasks (key task_id)" in text and "status: enum ['open', 'done']" in text
    assert '"TAS-1": {"task_id": "TAS-1"' in text  # a concrete record
    assert "def cancel_order(state, order_id, reason)" in text  # a bookstore transition
    assert "def return_loan(state, loan_id)" in text
    assert "record['status'] = 'done'" in text  # the skeleton, status from the docs
    assert text.rstrip().endswith("Write `def complete_task(state, task_id)` now.")
    assert len(text) < 9000


def test_examples_never_leak_the_tool_itself(todo_docs: ToolDocs, todo_schema: StateSchema) -> None:
    job = make_job(todo_docs, todo_schema, "complete_task")
    job.exclude_examples.add("cancel_order")
    text = first_messages(job)[1]["content"]
    assert "def cancel_order" not in text


async def test_plain_tool_uses_the_template_without_llm(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    client = LLMClient.scripted([])
    out = await synthesize_tool(
        client, make_job(todo_docs, todo_schema, "get_task"), SynthOptions()
    )
    assert out.report.status == "accepted" and out.report.source == "template"
    assert out.report.accepted_attempt == 0 and client.requests == []
    names = {c.name for c in out.report.checks}
    assert {"load", "runs", "json", "deterministic", "read_only", "unknown_id:task_id"} <= names


async def test_repair_loop_feeds_the_error_back(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    answers = iter([BUGGY_COMPLETE, GOOD_CODE["complete_task"]])
    client = dispatcher(
        {
            "synth.tests": {"cases": []},
            "synth.tool": lambda r: next(answers),
            "synth.repair": lambda r: next(answers),
        }
    )
    settings = SynthOptions(max_repairs=2, llm_tests=True, fill="function")
    out = await synthesize_tool(client, make_job(todo_docs, todo_schema, "complete_task"), settings)
    assert out.report.status == "accepted" and out.report.source == "llm"
    assert out.report.accepted_attempt == 2 and out.report.attempts == 2
    repair = next(r for r in client.requests if r.purpose == "synth.repair")
    fed_back = repair.messages[-1]["content"]
    assert "KeyError" in fed_back or "crash" in fed_back
    assert repair.messages[-2]["role"] == "assistant" and 'state["task"]' in repair.messages[-2][
        "content"
    ].replace("'", '"')
    assert out.code is not None and 'task["status"] = "done"' in out.code.body.replace("'", '"')
    assert out.report.usage.calls == 3


async def test_llm_test_cases_catch_a_missing_precondition(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    cases = {
        "cases": [
            {"arguments": {"task_id": "TAS-2"}, "expect_error": True, "description": "done"},
            {"arguments": {"task_id": "TAS-1"}, "expect_error": False},
            {"arguments": {"bogus": 1}, "expect_error": False},  # dropped: unknown parameter
        ]
    }
    answers = iter([NO_CHECK_COMPLETE, GOOD_CODE["complete_task"]])
    client = dispatcher(
        {
            "synth.tests": cases,
            "synth.tool": lambda r: next(answers),
            "synth.repair": lambda r: next(answers),
        }
    )
    out = await synthesize_tool(
        client,
        make_job(todo_docs, todo_schema, "complete_task"),
        SynthOptions(max_repairs=1, llm_tests=True, fill="function"),
    )
    assert out.report.llm_tests == 2
    assert "test:1" in out.report.errors[0] and "should fail with ToolError" in out.report.errors[0]
    assert out.report.status == "accepted" and out.report.accepted_attempt == 2


async def test_a_tool_that_never_passes_is_reported_failed(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    def prose(_: RecordedRequest) -> Any:
        return "I cannot write this function."

    client = dispatcher({"synth.tests": "not json", "*": prose})
    settings = SynthOptions(max_repairs=2, fallback=False, fill="function")
    out = await synthesize_tool(client, make_job(todo_docs, todo_schema, "complete_task"), settings)
    assert out.report.status == "failed" and out.code is None
    # the same failure twice ends the loop early (no third identical attempt)
    assert out.report.attempts == 2
    assert all("no function named 'complete_task'" in e for e in out.report.errors[:2])
    assert "same failure twice" in out.report.errors[-1]


async def test_fallback_keeps_a_passing_skeleton_and_says_so(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    client = dispatcher({"synth.tests": {"cases": []}, "*": "no code here"})
    out = await synthesize_tool(
        client,
        make_job(todo_docs, todo_schema, "complete_task"),
        SynthOptions(max_repairs=0, fill="function"),
    )
    assert out.report.status == "fallback" and out.report.source == "skeleton"
    assert out.code is not None and "'done'" in out.code.body


async def test_cases_contradicting_the_docs_are_dropped(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    cases = {
        "cases": [
            {"arguments": {"task_id": "NOPE"}, "expect_error": False},  # unknown id: wrong
            {"arguments": {"task_id": "TAS-1"}, "expect_error": False},
        ]
    }
    client = dispatcher({"synth.tests": cases, "*": GOOD_CODE["complete_task"]})
    out = await synthesize_tool(
        client,
        make_job(todo_docs, todo_schema, "complete_task"),
        SynthOptions(llm_tests=True, fill="function"),
    )
    assert out.report.llm_tests == 1 and out.report.llm_tests_dropped == 1
    assert out.report.status == "accepted" and out.report.accepted_attempt == 1


async def test_repairs_stop_when_the_model_repeats_itself(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    client = dispatcher({"synth.tests": {"cases": []}, "*": BUGGY_COMPLETE})
    settings = SynthOptions(max_repairs=3, fallback=False, fill="function")
    out = await synthesize_tool(client, make_job(todo_docs, todo_schema, "complete_task"), settings)
    assert out.report.status == "failed" and out.report.attempts == 2
    assert "same code as before" in out.report.errors[-1]
    repair = next(r for r in client.requests if r.purpose == "synth.repair")
    assert repair.body["temperature"] > 0 and repair.body["seed"] == 2


async def test_repeating_the_draft_is_not_accepted(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    from autoforge.synth.modelcode.functions import skeleton_for

    job = make_job(todo_docs, todo_schema, "complete_task")
    draft = skeleton_for(job)
    assert "#   - " in draft and "already done" in draft  # the docs' rule became a TODO line
    lazy = "```python\n" + "\n".join(ln for ln in draft.splitlines() if "#" not in ln) + "\n```"
    answers = iter([lazy, GOOD_CODE["complete_task"]])
    client = dispatcher(
        {"synth.tests": {"cases": []}, "synth.tool": lambda r: next(answers),
         "synth.repair": lambda r: next(answers)}
    )  # fmt: skip
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=1, fill="function"))
    assert "implements_todo" in out.report.errors[0]
    assert out.report.status == "accepted" and out.report.accepted_attempt == 2


def test_degenerate_answers_are_recognised() -> None:
    from autoforge.synth.modelcode.codegen import extract_function
    from autoforge.synth.modelcode.functions import degenerate

    loop = (
        "def f(state):\n" + "    if not state:\n        raise ToolError('empty state here')\n" * 7
    )
    assert "repeats" in degenerate(extract_function(loop, "f"), "stop")
    fine = extract_function(GOOD_CODE["complete_task"], "complete_task")
    assert degenerate(fine, "stop") == ""
    assert "cut off" in degenerate(fine, "length")
