"""Phase 1 (docs mode): the rule draft, the one compact model call, the budget, the rule floor."""

from __future__ import annotations

import json

from autoforge.llm import LLMClient
from autoforge.synth.state.design import design_state, rule_based_schema
from autoforge.synth.state.mapping import unmapped_params
from autoforge.tooldocs import ToolDocs

ANSWER = {
    "collections": [
        {
            "name": "Tasks",
            "key": "id",
            "add": [
                "due date: date",
                "filters: weird-type",
                "estimate: number",
                "parent_task_id: id -> tasks",
            ],
        },
        {
            "name": "projects",
            "key": "project_id",
            "add": ["name: string", "archived: enum yes|no", "owner_id: id -> tasks"],
        },
        {"name": "list_tasks", "key": "list_task_id", "add": ["x: string"]},
        {"name": "invoices", "key": "invoice_id", "add": ["total: number"]},
    ]
}


async def test_one_compact_call_adds_what_the_rules_leave_open(todo_docs: ToolDocs) -> None:
    client = LLMClient.scripted([ANSWER])
    result = await design_state(client, todo_docs.tools, todo_docs.policy)
    assert result.model_calls == 1 and len(client.requests) == 1
    tasks, projects = (result.state_schema.collection(n) for n in ("tasks", "projects"))
    assert tasks is not None and projects is not None
    # the key the tools pass (task_id) wins over the model's "id"; the rules' attributes stay
    assert tasks.primary_key == "task_id"
    names = [a.name for a in tasks.attributes]
    assert names[0] == "task_id" and {"project_id", "title", "due_date"} <= set(names)
    filters = tasks.attribute("filters")
    assert filters is not None and filters.type == "string"  # unknown type repaired
    assert tasks.attribute("parent_task_id") is None  # a self-reference the docs never name
    # what the docs state is kept ("a name, and whether they are archived"), a guess is not
    name, archived, owner = (projects.attribute(n) for n in ("name", "archived", "owner_id"))
    assert name is not None and name.type == "string"
    assert archived is not None and archived.enum == ["yes", "no"]
    assert owner is not None and owner.type == "id" and owner.references == "tasks"
    assert tasks.attribute("estimate") is None
    assert "tasks.estimate: model guess, not in the docs" in result.rejected
    prio = tasks.attribute("priority")
    assert prio is not None and prio.enum == ["low", "normal", "high"]  # the docs' enum
    assert result.provenance["projects"]["archived"] == "model"
    assert result.provenance["tasks"]["title"].startswith("rules:")
    # a collection named after an operation, or one the docs never name, is rejected
    assert result.state_schema.collection("invoices") is None
    assert "collection invoices: model guess, not in the docs" in result.rejected
    assert result.state_schema.collection("list_tasks") is None
    assert any("named after an operation" in r for r in result.rejected)
    prompt = client.requests[0].messages[-1]["content"]
    # one line per tool with typed parameters (* = required), and what is known so far
    assert "- create_task(project_id*: string, title*: string" in prompt
    assert "- tasks (key task_id): project_id, title, priority, due_date, status" in prompt


async def test_the_answer_is_bounded_so_a_constrained_decoder_ends_it(todo_docs: ToolDocs) -> None:
    client = LLMClient.scripted([{"collections": []}])
    await design_state(client, todo_docs.tools)
    body = client.requests[0].body
    schema = body["response_format"]["json_schema"]["schema"]
    text = json.dumps(schema)
    assert '"maxItems"' in text and '"maxLength"' in text
    assert body["max_tokens"] <= 1200


async def test_rules_place_what_the_model_never_adds(todo_docs: ToolDocs) -> None:
    client = LLMClient.scripted([{"collections": [{"name": "tasks", "key": "task_id"}]}])
    result = await design_state(client, todo_docs.tools)
    assert result.model_calls == 1 and result.failures == []
    assert unmapped_params(todo_docs.tools, result.state_schema) == []


async def test_model_failure_falls_back_to_rules_without_a_re_ask(todo_docs: ToolDocs) -> None:
    client = LLMClient.scripted(["not json"] * 30)
    result = await design_state(client, todo_docs.tools)
    assert result.failures and result.source == "llm+rules"
    assert len(client.requests) == 1 == result.model_calls
    names = {c.name for c in result.state_schema.collections}
    assert names == {"projects", "tasks"}
    assert unmapped_params(todo_docs.tools, result.state_schema) == []


async def test_a_cut_off_answer_is_repaired_without_a_new_call(todo_docs: ToolDocs) -> None:
    cut = '{"collections": [{"name": "tasks", "key": "task_id", "add": ["filters: integer", "no'
    client = LLMClient.scripted([cut] + ["{}"] * 5)
    result = await design_state(client, todo_docs.tools)
    assert len(client.requests) == 1 == result.model_calls
    tasks = result.state_schema.collection("tasks")
    assert tasks is not None
    filters = tasks.attribute("filters")
    assert filters is not None and filters.type == "integer"
    assert result.repaired and not result.failures


def test_rule_based_schema_for_the_todo_tools(todo_docs: ToolDocs) -> None:
    schema = rule_based_schema(todo_docs.tools)
    tasks = schema.collection("tasks")
    assert tasks is not None and tasks.primary_key == "task_id"
    project = tasks.attribute("project_id")
    assert project is not None and project.references == "projects"
    prio = tasks.attribute("priority")
    assert prio is not None and prio.enum == ["low", "normal", "high"]
    assert tasks.attribute("status") is not None  # complete_task is a transition


async def test_without_any_rule_collection_the_model_is_still_asked() -> None:
    from autoforge.tooldocs.spec import ToolSpec

    tools = [ToolSpec(name="ping", description="Check that the lights service is up.")]
    answer = {"collections": [{"name": "lights", "key": "light_id", "add": ["service: string"]}]}
    client = LLMClient.scripted([answer])
    result = await design_state(client, tools)
    assert len(client.requests) == 1
    assert "(none found yet)" in client.requests[0].messages[-1]["content"]
    lights = result.state_schema.collection("lights")
    assert lights is not None and lights.attribute("service") is not None
    assert result.provenance["lights"]["light_id"] == "model"
