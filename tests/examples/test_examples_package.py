"""Finding the bundled examples, and the docs-only todo example."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from autoforge.env.artifact.envdir import example_names
from autoforge.errors import UserError
from autoforge.examples import example_path, list_examples
from autoforge.tooldocs.spec import ToolSpec

BOOKSTORE_FILES = {
    "environment.json", "tools.py", "initial_state.json", "sequences.json", "policy.md",
    "tools.openai.json", "openapi.yaml",
}  # fmt: skip


def test_list_examples_separates_runnable_from_docs_only() -> None:
    assert list_examples() == ["bookstore", "todo"]
    assert example_names() == ["bookstore"]


def test_example_path_points_at_the_files() -> None:
    root = example_path()
    assert root.name == "bookstore" and root.is_dir()
    assert {p.name for p in root.iterdir()} >= BOOKSTORE_FILES
    assert {p.name for p in example_path("todo").iterdir()} == {"tools.openai.json", "policy.md"}


def test_unknown_example_is_a_user_error_naming_the_choices() -> None:
    with pytest.raises(UserError, match="bookstore, todo"):
        example_path("pet_shop")


def test_todo_docs_are_valid_openai_tools() -> None:
    raw = json.loads((example_path("todo") / "tools.openai.json").read_text())
    specs = [ToolSpec.model_validate(item["function"]) for item in raw]
    assert all(item["type"] == "function" for item in raw)
    assert {s.name for s in specs} == {"create_task", "list_tasks", "complete_task", "get_task"}
    for spec in specs:
        Draft202012Validator.check_schema(spec.parameters)
        assert spec.parameters["type"] == "object" and spec.description
        assert set(spec.required) <= set(spec.param_names)
        assert all(p.get("description") for p in spec.parameters["properties"].values())
    policy = (example_path("todo") / "policy.md").read_text()
    assert "project" in policy and "open" in policy and "done" in policy
