"""Rule-based CRUD templates produce working code in the real runtime."""

from __future__ import annotations

import json
from pathlib import Path

from autoforge.env import Environment
from autoforge.env.artifact.spec import EnvironmentSpec, StateSchema
from autoforge.synth.checking.teststate import slice_state, synthetic_state
from autoforge.synth.modelcode.codegen import assemble, from_source
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.rulecode.headers import signature
from autoforge.synth.rulecode.templates import render_skeleton, render_template
from autoforge.synth.state.infer import data_to_state, field_paths, infer_schema
from autoforge.tooldocs import ToolDocs, load_docs
from autoforge.tooldocs.spec import ToolSpec


def _env(docs: list[ToolSpec], schema: StateSchema, state: dict, paths: dict) -> Environment:
    codes = []
    for spec in docs:
        c = classify_tool(spec, schema, paths)
        coll = schema.collection(c.collection or "")
        source = render_template(spec, c, coll, paths.get(c.collection or "", {}))
        assert source is not None, spec.name
        codes.append(from_source(source, spec.name))
    env_spec = EnvironmentSpec(name="t", tools=docs, state_schema=schema)
    return Environment.from_parts(env_spec, assemble(codes, "test"), initial_state=state)


def test_tau2_retail_templates_run_on_real_records(benchmarks_dir: Path) -> None:
    domain = benchmarks_dir / "tau2-bench" / "retail"
    docs = load_docs([domain])
    state, _ = data_to_state(json.loads((domain / "db.json").read_text()))
    schema = infer_schema(state)
    paths = {name: field_paths(coll.values()) for name, coll in state.items()}
    names = [
        "find_user_id_by_name_zip",
        "find_user_id_by_email",
        "get_order_details",
        "modify_user_address",
        "modify_pending_order_address",
        "calculate",
        "transfer_to_human_agents",
    ]
    small = slice_state(state, n=40)
    env = _env([docs.tool(n) for n in names], schema, small, paths)
    user_id, user = next(iter(small["users"].items()))
    ep = env.episode()
    obs = ep.call(
        "find_user_id_by_name_zip",
        {
            "first_name": user["name"]["first_name"].upper(),
            "last_name": user["name"]["last_name"],
            "zip": user["address"]["zip"],
        },
    )
    assert obs.ok and obs.result == user_id
    assert ep.call("find_user_id_by_email", {"email": "nobody@example.com"}).error_kind == (
        "tool_error"
    )
    address = {
        "address1": "1 Main St",
        "address2": "",
        "city": "Austin",
        "state": "TX",
        "country": "USA",
        "zip": "78701",
    }
    assert ep.call("modify_user_address", {"user_id": user_id, **address}).ok
    assert ep.diff() == [
        {
            "op": "replace",
            "path": ["users", user_id, "address", k],
            "old": user["address"][k],
            "new": v,
        }
        for k, v in address.items()
        if user["address"][k] != v
    ]
    pending = next(k for k, o in small["orders"].items() if o["status"] == "pending")
    done = next(k for k, o in small["orders"].items() if o["status"] == "delivered")
    assert ep.call("modify_pending_order_address", {"order_id": pending, **address}).ok
    refused = ep.call("modify_pending_order_address", {"order_id": done, **address})
    assert refused.error_kind == "tool_error" and "not pending" in refused.content
    assert ep.call("calculate", {"expression": "(3 + 4) * 2 / 4"}).content == "3.5"
    assert ep.call("calculate", {"expression": "import os"}).error_kind == "tool_error"
    assert ep.call("transfer_to_human_agents", {"summary": "x"}).ok


def test_create_update_delete_templates(todo_schema: StateSchema) -> None:
    schema = todo_schema.model_copy(deep=True)
    projects = schema.collection("projects")
    assert projects is not None
    docs = [
        ToolSpec(
            name="create_project",
            parameters={
                "type": "object",
                "properties": {"name": {"type": "string"}, "archived": {"type": "boolean"}},
                "required": ["name"],
            },
        ),
        ToolSpec(
            name="rename_project",
            parameters={
                "type": "object",
                "properties": {"project_id": {"type": "string"}, "name": {"type": "string"}},
                "required": ["project_id", "name"],
            },
        ),
        ToolSpec(
            name="delete_project",
            parameters={
                "type": "object",
                "properties": {"project_id": {"type": "string"}},
                "required": ["project_id"],
            },
        ),
    ]
    state = synthetic_state(schema)
    env = _env(docs, schema, state, {})
    ep = env.episode()
    created = ep.call("create_project", {"name": "Q3"})
    # the new key follows the existing keys (PRO-1..PRO-3), not an invented prefix
    assert created.ok and created.result["project_id"] == "PRO-4"
    assert ep.state["projects"]["PRO-4"]["name"] == "Q3"
    assert ep.call("rename_project", {"project_id": "PRO-4", "name": "Q4"}).ok
    assert ep.state["projects"]["PRO-4"]["name"] == "Q4"
    assert ep.call("delete_project", {"project_id": "PRO-1"}).ok
    assert "PRO-1" not in ep.state["projects"]
    gone = ep.call("delete_project", {"project_id": "PRO-1"})
    assert gone.error_kind == "tool_error" and "not found" in gone.content


def test_signature_follows_runtime_naming() -> None:
    spec = ToolSpec(
        name="book_trip",
        parameters={
            "type": "object",
            "properties": {
                "from": {"type": "string"},
                "to": {"type": "string"},
                "class": {"type": "string"},
            },
            "required": ["from", "to"],
        },
    )
    line, names = signature(spec)
    assert line == "def book_trip(state, from_, to, class_=None):"
    assert names == {"from": "from_", "to": "to", "class": "class_"}


def test_skeleton_is_a_runnable_draft(todo_docs: ToolDocs, todo_schema: StateSchema) -> None:
    spec = todo_docs.tool("complete_task")
    c = classify_tool(spec, todo_schema)
    source = render_skeleton(spec, c, todo_schema.collection("tasks"), {})
    assert "TODO" in source and "record['status'] = 'done'" in source
    env = Environment.from_parts(
        EnvironmentSpec(name="t", tools=[spec], state_schema=todo_schema),
        source,
        initial_state=synthetic_state(todo_schema),
    )
    assert env.episode().call("complete_task", {"task_id": "TAS-1"}).ok


def test_a_lookup_returns_the_fields_its_description_names() -> None:
    from autoforge.env.artifact.spec import Attribute, CollectionSchema
    from autoforge.synth.rulecode.templates import returned_fields

    people = CollectionSchema(
        name="customers",
        primary_key="customer_id",
        attributes=[Attribute(name=n) for n in ("customer_id", "name", "email")],
    )
    said = "Look up a customer by email. Returns the customer's id and name. Use it first."
    assert returned_fields(said, people) == ["customer_id", "name"]
    assert returned_fields("Returns the customer details.", people) == []  # not attributes
    assert returned_fields("Look up a customer by email.", people) == []  # docs do not say


def test_a_keyed_lookup_computes_the_documented_list_of_records_pointing_at_it() -> None:
    """``get_customer`` documented to return ``order_ids`` while orders hold ``customer_id``:
    the bare record would drop a promised field (and the tasks stage could then not reach a
    customer's orders, so users had to quote order ids)."""
    from autoforge.env.artifact.spec import Attribute, CollectionSchema

    customers = CollectionSchema(
        name="customers",
        primary_key="customer_id",
        attributes=[Attribute(name="customer_id", type="id"), Attribute(name="name")],
    )
    orders = CollectionSchema(
        name="orders",
        primary_key="order_id",
        attributes=[
            Attribute(name="order_id", type="id"),
            Attribute(name="customer_id", type="id", references="customers"),
        ],
    )
    schema = StateSchema(collections=[customers, orders])
    spec = ToolSpec(
        name="get_customer",
        description="Get a customer and the ids of their orders.",
        parameters={
            "type": "object",
            "properties": {"customer_id": {"type": "string"}},
            "required": ["customer_id"],
        },
        required=["customer_id"],
        returns={
            "type": "object",
            "properties": {
                "customer_id": {"type": "string"},
                "name": {"type": "string"},
                "order_ids": {"type": "array", "items": {"type": "string"}},
            },
        },
    )
    c = classify_tool(spec, schema, {})
    source = render_template(spec, c, customers, {}, schema=schema)
    assert source is not None and "order_ids" in source
    state = {
        "customers": {"C-1": {"customer_id": "C-1", "name": "A"},
                      "C-2": {"customer_id": "C-2", "name": "B"}},
        "orders": {"O-1": {"order_id": "O-1", "customer_id": "C-1"},
                   "O-2": {"order_id": "O-2", "customer_id": "C-2"},
                   "O-3": {"order_id": "O-3", "customer_id": "C-1"}},
    }  # fmt: skip
    env = Environment.from_parts(
        EnvironmentSpec(name="t", tools=[spec], state_schema=schema),
        assemble([from_source(source, spec.name)], "test"),
        initial_state=state,
    )
    obs = env.episode().call("get_customer", {"customer_id": "C-1"})
    assert obs.ok and obs.result["order_ids"] == ["O-1", "O-3"]
    # without the whole schema (or without a referencing collection) the record is returned
    assert "order_ids" not in (render_template(spec, c, customers, {}) or "")
