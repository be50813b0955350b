"""Checks of what the docs and data make checkable; a failure sends the tool to repair."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.spec import StateSchema
from autoforge.synth.checking.checks import CheckContext, run_checks
from autoforge.synth.checking.teststate import happy_arguments, synthetic_state
from autoforge.synth.modelcode.codegen import from_source
from autoforge.synth.modelcode.functions import ToolJob, synthesize_tool
from autoforge.synth.options import SynthOptions
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.state.infer import schema_field_paths
from autoforge.tooldocs.spec import ToolSpec

from .conftest import dispatcher  # type: ignore[import-not-found]

S = {"type": "string"}


def _spec(name: str, access: str, required: list[str], **props: Any) -> ToolSpec:
    return ToolSpec(
        name=name,
        description=f"{name.replace('_', ' ')}.",
        parameters={"type": "object", "properties": props, "required": required},
        access=access,  # type: ignore[arg-type]
    )


def _ctx(spec: ToolSpec, schema: StateSchema) -> CheckContext:
    c = classify_tool(spec, schema)
    state = synthetic_state(schema)
    coll = schema.collection(c.collection or "")
    return CheckContext(
        spec=spec,
        classification=c,
        schema=schema,
        state=state,
        happy=happy_arguments(spec, c, schema, state),
        paths=schema_field_paths(coll) if coll else {},
    )


def _failed(spec: ToolSpec, schema: StateSchema, source: str) -> set[str]:
    ctx = _ctx(spec, schema)
    if spec.name == "update_task":  # a happy call that sets both fields
        ctx.happy = {**ctx.happy, "title": "Renamed", "priority": "high"}
    results = run_checks(from_source(source, spec.name), ctx)
    return {r.name for r in results if not r.ok}


UPDATE = _spec("update_task", "write", ["task_id"], task_id=S, title=S, priority=S)
CLEARS = """
def update_task(state, task_id, title=None, priority=None):
    task = state["tasks"].get(task_id)
    if task is None:
        raise ToolError("no such task")
    task["title"] = title
    task["priority"] = priority
    return task
"""
PARTIAL = """
def update_task(state, task_id, title=None, priority=None):
    task = state["tasks"].get(task_id)
    if task is None:
        raise ToolError("no such task")
    if title is not None:
        task["title"] = title
    if priority is not None:
        task["priority"] = priority
    return task
"""


def test_an_update_that_clears_a_field_it_was_not_given_fails(todo_schema: StateSchema) -> None:
    assert {"untouched:title", "untouched:priority"} <= _failed(UPDATE, todo_schema, CLEARS)
    assert not any(n.startswith("untouched") for n in _failed(UPDATE, todo_schema, PARTIAL))


def test_a_write_adding_an_attribute_the_schema_lacks_fails(todo_schema: StateSchema) -> None:
    moves = PARTIAL.replace('task["title"] = title', 'task["new_title"] = title')
    assert "schema_attrs" in _failed(UPDATE, todo_schema, moves)
    assert "schema_attrs" not in _failed(UPDATE, todo_schema, PARTIAL)


def test_a_documented_read_that_writes_fails(todo_schema: StateSchema) -> None:
    """A GET-like tool (read hint) whose name has no read verb still must not write."""
    touch = _spec("touch_task", "read", ["task_id"], task_id=S)
    source = (
        "def touch_task(state, task_id):\n    state['tasks'][task_id]['title'] = 'seen'\n"
        "    return state['tasks'][task_id]\n"
    )
    assert "read_only" in _failed(touch, todo_schema, source)


def test_a_list_that_returns_a_dict_fails(todo_schema: StateSchema) -> None:
    lister = _spec("list_tasks", "read", [], project_id=S)
    source = "def list_tasks(state, project_id=None):\n    return dict(state['tasks'])\n"
    assert "list_return" in _failed(lister, todo_schema, source)
    good = "def list_tasks(state, project_id=None):\n    return list(state['tasks'].values())\n"
    assert "list_return" not in _failed(lister, todo_schema, good)


CREATE = """
def create_task(state, project_id, title):
    if project_id not in state["projects"]:
        raise ToolError("no such project")
    task_id = KEY
    state["tasks"][task_id] = {"task_id": task_id, "project_id": project_id, "title": title,
                               "priority": "normal", "due_date": None, "status": "open"}
    return state["tasks"][task_id]
"""


def test_a_create_whose_id_breaks_the_data_pattern_fails(todo_schema: StateSchema) -> None:
    create = _spec("create_task", "write", ["project_id", "title"], project_id=S, title=S)
    ctx = _ctx(create, todo_schema)
    example = next(iter(ctx.state["tasks"]))
    shaped = example.rstrip("0123456789") + "99"
    assert "id_pattern" in _failed(create, todo_schema, CREATE.replace("KEY", "'new-task'"))
    assert "id_pattern" not in _failed(create, todo_schema, CREATE.replace("KEY", repr(shaped)))


async def test_a_failed_doc_check_goes_back_to_repair(todo_schema: StateSchema) -> None:
    ctx = _ctx(UPDATE, todo_schema)
    ctx.happy = {**ctx.happy, "title": "Renamed", "priority": "high"}
    job = ToolJob(ctx=ctx, paths=ctx.paths, samples={})
    answers = iter([f"```python\n{CLEARS}\n```", f"```python\n{PARTIAL}\n```"])
    client = dispatcher({"synth.tests": {"cases": []}, "*": lambda _: next(answers)})
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=1, use_templates=False))
    assert out.report.status == "accepted" and out.report.accepted_attempt == 2
    assert any("untouched:title" in e for e in out.report.errors)


BAD_ENV_TOOLS = (
    CLEARS
    + CREATE.replace("KEY", "'new-task'").replace('"open"}', '"open", "tag": 1}')
    + "\ndef list_tasks(state, project_id=None):\n    return dict(state['tasks'])\n"
)
GOOD_ENV_TOOLS = (
    PARTIAL
    + CREATE.replace("KEY", "'t' + str(len(state['tasks']) + 100)")
    + "\ndef list_tasks(state, project_id=None):\n    return list(state['tasks'].values())\n"
)


def _env_dir(root: Any, name: str, schema: StateSchema, source: str) -> Any:
    import json

    from autoforge.env.artifact.spec import EnvironmentSpec

    tools = [
        UPDATE,
        _spec("create_task", "write", ["project_id", "title"], project_id=S, title=S),
        _spec("list_tasks", "read", [], project_id=S),
    ]
    env = root / name
    env.mkdir()
    spec = EnvironmentSpec(name=name, tools=tools, state_schema=schema)
    (env / "environment.json").write_text(spec.model_dump_json())
    (env / "tools.py").write_text(source)
    state = synthetic_state(schema)
    tasks = list(state["tasks"].values())
    state["tasks"] = {f"t{i}": {**rec, "task_id": f"t{i}"} for i, rec in enumerate(tasks)}
    (env / "initial_state.json").write_text(json.dumps(state))
    return env


def test_autoforge_check_fails_an_env_that_breaks_its_own_docs(
    todo_schema: StateSchema, tmp_path: Any, capsys: Any
) -> None:
    """The conformance checker alone passes this env; the doc-derived checks in ``autoforge
    check`` fail it: an update clearing a field it was not given, a create adding an attribute
    and an id unlike the data's, a documented list returning a dict."""
    import json

    import pytest

    from autoforge.cli.main import main as cli_main
    from autoforge.synth import check_directory

    bad = _env_dir(tmp_path, "bad", todo_schema, BAD_ENV_TOOLS)
    assert check_directory(bad, mode="inline").ok
    with pytest.raises(SystemExit) as done:
        cli_main(["check", str(bad), "--inline", "--json"])
    assert done.value.code == 1
    items = json.loads(capsys.readouterr().out)["items"]
    failed = {(i["check"], i["tool"]) for i in items if not i["ok"]}
    assert {
        ("docs:untouched", "update_task"),
        ("docs:schema_attrs", "create_task"),
        ("docs:id_pattern", "create_task"),
        ("docs:list_return", "list_tasks"),
    } <= failed
    good = _env_dir(tmp_path, "good", todo_schema, GOOD_ENV_TOOLS)
    with pytest.raises(SystemExit) as done:
        cli_main(["check", str(good), "--inline", "--json"])
    items = json.loads(capsys.readouterr().out)["items"]
    assert done.value.code == 0, [i for i in items if not i["ok"]]
    assert any(i["check"].startswith("docs:") and i["ok"] for i in items)
