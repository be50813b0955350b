"""Phase 1 (docs mode): entities, attributes, the mapping validation loop, the rule floor."""

from __future__ import annotations

from autoforge.llm import LLMClient
from autoforge.synth.mapping import unmapped_params
from autoforge.synth.state_design import design_state, rule_based_schema
from autoforge.tooldocs import ToolDocs

ENTITIES = {"collections": [{"name": "Tasks", "primary_key": "id", "description": "todo items"}]}
TASK_ATTRS = {
    "attributes": [
        {"name": "id", "type": "id"},
        {"name": "title", "type": "string"},
        {"name": "status", "type": "enum", "enum": ["open", "done"]},
        {"name": "due date", "type": "date"},
        {"name": "priority", "type": "weird-type", "references": "tasks"},
    ]
}
WITH_PROJECT = {"attributes": [{"name": "project_id", "type": "id", "references": "projects"}]}


async def test_unmapped_parameters_are_fed_back(todo_docs: ToolDocs) -> None:
    client = LLMClient.scripted([ENTITIES, TASK_ATTRS, WITH_PROJECT])
    result = await design_state(client, todo_docs.tools, todo_docs.policy)
    tasks = result.state_schema.collection("tasks")
    assert tasks is not None
    # the pk the tools pass (task_id) wins over the model's "id"
    assert tasks.primary_key == "task_id"
    names = [a.name for a in tasks.attributes]
    assert names[0] == "task_id" and "due_date" in names and "project_id" in names
    prio = tasks.attribute("priority")
    # the bad type is repaired, the self-reference dropped, the docs' enum applied
    assert prio is not None and prio.type == "enum" and prio.references is None
    assert prio.enum == ["low", "normal", "high"]
    assert "create_task.project_id" in result.unmapped_initial
    assert result.rounds == 1 and result.unmapped_final == [] and result.added_by_rules == []
    feedback = client.requests[2]
    assert feedback.purpose == "synth.state.attributes"
    last = feedback.messages[-1]["content"]
    assert "project_id" in last and "create_task" in last and "Fix this" in last
    # the entities prompt is one line per tool, with required params starred
    first = client.requests[0].messages[-1]["content"]
    assert "- create_task(project_id*, title*, priority, due_date)" in first


async def test_rules_place_what_the_model_never_adds(todo_docs: ToolDocs) -> None:
    no_help = {"attributes": [{"name": "title", "type": "string"}]}
    client = LLMClient.scripted([ENTITIES, TASK_ATTRS, no_help, no_help])
    result = await design_state(client, todo_docs.tools, max_rounds=2, max_calls=4)
    assert result.rounds == 2 and result.model_calls == 4
    assert result.unmapped_final  # still missing after the model's rounds
    assert any("collection projects" in a for a in result.added_by_rules)
    assert unmapped_params(todo_docs.tools, result.state_schema) == []


async def test_model_failure_falls_back_to_rules(todo_docs: ToolDocs) -> None:
    client = LLMClient.scripted(["not json"] * 30)
    result = await design_state(client, todo_docs.tools)
    assert result.failures and result.source == "llm+rules"
    names = {c.name for c in result.state_schema.collections}
    assert names == {"projects", "tasks"}
    assert unmapped_params(todo_docs.tools, result.state_schema) == []


def test_rule_based_schema_for_the_todo_tools(todo_docs: ToolDocs) -> None:
    schema = rule_based_schema(todo_docs.tools)
    tasks = schema.collection("tasks")
    assert tasks is not None and tasks.primary_key == "task_id"
    project = tasks.attribute("project_id")
    assert project is not None and project.references == "projects"
    prio = tasks.attribute("priority")
    assert prio is not None and prio.enum == ["low", "normal", "high"]
    assert tasks.attribute("status") is not None  # complete_task is a transition
