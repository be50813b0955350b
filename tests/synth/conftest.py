"""Fixtures for the synthesis tests: the todo docs, a todo schema, scripted LLM answers; the
made-up documents module (``doc_tools``) on ``sys.path``."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autoforge.env.artifact.spec import Attribute, CollectionSchema, StateSchema
from autoforge.examples import example_path
from autoforge.llm import LLMClient, RecordedRequest
from autoforge.tooldocs import ToolDocs, load_docs

sys.path.insert(0, str(Path(__file__).resolve().parent))

GOOD_CODE = {
    "create_task": '''```python
def create_task(state, project_id, title, priority="normal", due_date=None):
    """Create an open task."""
    project = state["projects"].get(project_id)
    if project is None:
        raise ToolError(f"project {project_id} not found")
    if project.get("archived"):
        raise ToolError(f"project {project_id} is archived")
    if not title.strip():
        raise ToolError("title must not be empty")
    task_id = f"T-{len(state['tasks']) + 1}"
    state["tasks"][task_id] = {"task_id": task_id, "project_id": project_id, "title": title,
                               "priority": priority, "due_date": due_date, "status": "open"}
    return dict(state["tasks"][task_id])
```''',
    "complete_task": """Here you go:
```python
def complete_task(state, task_id):
    task = state["tasks"].get(task_id)
    if task is None:
        raise ToolError(f"task {task_id} not found")
    if task["status"] != "open":
        raise ToolError(f"task {task_id} is already done")
    task["status"] = "done"
    return dict(task)
```""",
}


@pytest.fixture
def todo_docs() -> ToolDocs:
    """The bundled docs-only todo example (4 tools + policy)."""
    root = example_path("todo")
    docs = load_docs([root / "tools.openai.json"])
    return docs.model_copy(update={"policy": (root / "policy.md").read_text()})


@pytest.fixture
def todo_schema() -> StateSchema:
    """A correct state design for the todo tools."""
    return StateSchema(
        collections=[
            CollectionSchema(
                name="projects",
                primary_key="project_id",
                attributes=[
                    Attribute(name="project_id", type="id"),
                    Attribute(name="name", type="string"),
                    Attribute(name="archived", type="boolean"),
                ],
            ),
            CollectionSchema(
                name="tasks",
                primary_key="task_id",
                attributes=[
                    Attribute(name="task_id", type="id"),
                    Attribute(name="project_id", type="id", references="projects"),
                    Attribute(name="title", type="string"),
                    Attribute(name="priority", type="enum", enum=["low", "normal", "high"]),
                    Attribute(name="due_date", type="date", nullable=True),
                    Attribute(name="status", type="enum", enum=["open", "done"]),
                ],
            ),
        ]
    )


Responder = Callable[[RecordedRequest], Any]


def tool_in_request(req: RecordedRequest) -> str:
    """Which tool a ``synth.tool`` / ``synth.repair`` / ``synth.tests`` request is about."""
    text = req.messages[1]["content"] if len(req.messages) > 1 else ""
    m = re.search(r"Write `def (\w+)\(", text) or re.search(r"^Tool \(\w+\):\n(\w+):", text)
    return m.group(1) if m else ""


def dispatcher(answers: dict[str, Responder | Any], n: int = 200) -> LLMClient:
    """A scripted client answering by request purpose (``synth.tool``, ``synth.tests``...)."""

    def answer(req: RecordedRequest) -> Any:
        item = answers.get(req.purpose, answers.get("*"))
        return item(req) if callable(item) else item

    return LLMClient.scripted([answer] * n)
