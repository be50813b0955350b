"""Per-TODO fills: the model writes one step of the rule draft at a time (scripted LLM)."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.spec import StateSchema
from autoforge.llm import RecordedRequest
from autoforge.synth.modelcode.codegen import CodeError
from autoforge.synth.modelcode.fill import (
    EXAMPLES,
    UNTRIGGERED,
    fill_messages,
    fill_summary,
    parse_fill,
    splice,
    todo_items,
)
from autoforge.synth.modelcode.functions import skeleton_for, synthesize_tool
from autoforge.synth.options import SynthOptions
from autoforge.tooldocs import ToolDocs

from .conftest import dispatcher  # type: ignore[import-not-found]
from .test_functions import make_job  # type: ignore[import-not-found]

EMPTY_TITLE = (
    "```python\nif not title.strip():\n    raise ToolError('the title must not be empty')\n```"
)
CRASH = "```python\nproject = state['project'][project_id]\n```"
NEW_ATTR = "```python\nrecord['created_by'] = 'agent'\n```"


def _fill_answers(*answers: str) -> Any:
    left = list(answers)

    def answer(_: RecordedRequest) -> str:  # in order, then the last one again
        return left.pop(0) if len(left) > 1 else left[0]

    return dispatcher({"synth.fill": answer, "synth.fill_repair": answer, "*": "no code"})


def test_steps_are_the_listed_sentences_not_the_header(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    draft = skeleton_for(make_job(todo_docs, todo_schema, "create_task"))
    todos = todo_items(draft)
    assert todos and all("compute and store" not in t.text for t in todos)
    assert todos[0].text.startswith("Fails if the project does not exist or is archived")
    assert draft.splitlines()[todos[0].line].strip().startswith("#   - Fails if the project")


def test_the_prompt_is_short_and_names_what_the_step_needs(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    job = make_job(todo_docs, todo_schema, "create_task")
    draft = skeleton_for(job)
    system, user = fill_messages(job, draft, todo_items(draft)[0])
    text = user["content"]
    assert "def create_task(state, project_id, title, priority=None, due_date=None):" in text
    assert "project = state.get('projects', {}).get(str(project_id))" in text  # bound names
    assert "tasks (key task_id): task_id: id, project_id: id -> projects" in text  # types
    assert "projects (key project_id): project_id: id, name: string, archived: boolean" in text
    assert "Step to write now: Fails if the project does not exist or is archived" in text
    assert EXAMPLES["rule"][1] in text and EXAMPLES["effect"][1] not in text  # one example
    assert "no return" in system["content"]
    assert len(system["content"]) + len(text) < 2500  # vs ~9,000 for the whole-function prompt


def test_parse_fill_keeps_only_the_new_lines() -> None:
    draft = "def f(state, x):\n    record = state['a'][x]\n    return record\n"
    whole = (
        "```python\ndef f(state, x):\n    record = state['a'][x]\n    record['n'] = 1\n"
        "    return record\n```"
    )
    assert parse_fill(whole, "f", draft, "y = 2") == ["record['n'] = 1"]
    assert parse_fill("```python\nrecord['n'] = 1\nreturn record\n```", "f", draft, "y = 2") == [
        "record['n'] = 1"
    ]
    for bad, why in [
        ("```python\npass\n```", "no code"),
        ("```python\nrecord = state['a'][x]\n```", "only repeats"),
        ("```python\ny = 2\n```", "copies the example"),
        ("```python\nif x:\n    return 1\nrecord['n'] = 2\n```", "not a"),
        ("```python\nrecord[\n```", "syntax error"),
    ]:
        if why == "not a":
            parse_fill(bad, "f", draft, "y = 2")  # a nested return is left to the checks
            continue
        with pytest.raises(CodeError, match=why):
            parse_fill(bad, "f", draft, "y = 2")


def test_splice_replaces_the_todo_line_in_place() -> None:
    draft = "def f(state):\n    x = 1\n    #   - The count goes up.\n    return x\n"
    todo = todo_items(draft)[0]
    out = splice(draft, todo, ["x = x + 1"]).splitlines()
    assert out == [
        "def f(state):",
        "    x = 1",
        "    # The count goes up.",
        "    x = x + 1",
        "    return x",
    ]


async def test_fills_are_spliced_and_the_tool_is_the_models(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    job = make_job(todo_docs, todo_schema, "create_task")
    n = len(todo_items(skeleton_for(job)))
    client = _fill_answers(EMPTY_TITLE, *["```python\npass\n```"] * (n - 1))
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0))
    assert [r.purpose for r in client.requests] == ["synth.fill"] * n  # no whole-function call
    assert out.report.status == "accepted" and out.report.source == "llm"
    assert [f.status for f in out.report.fills] == ["accepted"] + ["rejected"] * (n - 1)
    assert out.code is not None and "the title must not be empty" in out.code.body
    # the draft's own lines are all still there around the fill
    assert "record['title'] = title" in out.code.body and "table[key] = record" in out.code.body


async def test_a_failing_fill_is_rejected_counted_and_its_todo_kept(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    job = make_job(todo_docs, todo_schema, "create_task")
    # the first step crashes, then a good one, then one writing an attribute no record has
    client = _fill_answers(CRASH, EMPTY_TITLE, NEW_ATTR)
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=1))
    first = out.report.fills[0]
    assert first.status == "accepted" and first.attempts == 2  # repaired with the failure shown
    repair = next(r for r in client.requests if r.purpose == "synth.fill_repair")
    assert "KeyError" in repair.messages[-1]["content"]
    rest = out.report.fills[1:]
    assert rest and all(f.status == "rejected" and "schema_attrs" in f.detail for f in rest)
    assert sum("fill rejected" in e for e in out.report.errors) == len(rest)
    assert out.report.status == "accepted" and out.code is not None
    assert "created_by" not in out.code.body and "must not be empty" in out.code.body


async def test_no_accepted_fill_falls_back_to_the_draft(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    job = make_job(todo_docs, todo_schema, "complete_task")
    same = "```python\nrecord['status'] = 'done'\n```"  # already in the draft: changes nothing
    client = dispatcher({"synth.fill": same, "*": "no code"})
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0))
    assert out.report.fills and all(f.status == "rejected" for f in out.report.fills)
    assert all("implements_todo" in f.detail for f in out.report.fills)
    assert out.report.status == "fallback" and out.report.source == "skeleton"


async def test_function_mode_asks_for_the_whole_function(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    client = dispatcher({"*": "no code"})
    job = make_job(todo_docs, todo_schema, "complete_task")
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0, fill="function"))
    assert {r.purpose for r in client.requests} == {"synth.tool"} and not out.report.fills


async def test_a_step_that_refuses_the_happy_call_is_rejected(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    """A create's record has no status yet where the step goes: a guard on it refuses every
    call, which the ``runs`` check (success asked of plain tools only) does not see."""
    job = make_job(todo_docs, todo_schema, "create_task")
    always = (
        "```python\nif record['status'] not in ('open', 'done'):\n    raise ToolError('bad')\n```"
    )
    client = dispatcher({"synth.fill": always, "*": "no code"})
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0))
    assert out.report.fills and all(f.status == "rejected" for f in out.report.fills)
    assert all("happy_path" in f.detail for f in out.report.fills)
    assert out.code is None  # the unfinished create draft is not kept either


async def test_a_refusal_no_call_triggers_is_kept_but_marked(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    """A step that only adds a guard no test or probe call meets is kept (it may be right for a
    case the test state lacks) but marked, and counted apart in the summary; a step that
    changes an answer or the state carries no such note."""
    job = make_job(todo_docs, todo_schema, "create_task")
    never = "```python\nif title == 'no test call has this title':\n    raise ToolError('no')\n```"
    n = len(todo_items(skeleton_for(job)))
    client = _fill_answers(never, *["```python\npass\n```"] * (n - 1))
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0))
    first = out.report.fills[0]
    assert first.status == "accepted" and first.detail == UNTRIGGERED
    assert fill_summary(out.report) == {"accepted": 1, "rejected": n - 1, "untriggered": 1}
    # a step that changes what a call does is kept without a note
    job = make_job(todo_docs, todo_schema, "create_task")
    changes = "```python\nrecord['title'] = title.upper()\n```"
    client = _fill_answers(changes, *["```python\npass\n```"] * (n - 1))
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0))
    assert out.report.fills[0].status == "accepted" and out.report.fills[0].detail == ""
    assert fill_summary(out.report)["untriggered"] == 0
