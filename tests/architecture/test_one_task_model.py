"""One task model and one reader of ``tasks.jsonl``: grep-level facts, kept by a test.

A task is :class:`autoforge.tasks.model.Task`; no other class in the package may re-declare its
key fields (the former rollout ``TaskSpec`` / ``RolloutTask`` pair did, with other names), and
no other module may parse task records (``read_tasks`` is the one reader).
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import autoforge

SRC = Path(autoforge.__file__).parent
#: The task's key fields, under the names either former model used.
TASK_KEYS = {
    "scenario",
    "initial_state",
    "final_state_hash",
    "gold_state_hash",
    "user_facts",
    "user_known_facts",
    "gold_calls",
    "required_outputs",
}


def _declared(cls: ast.ClassDef) -> set[str]:
    """Field names a class declares: annotated attributes and properties."""
    names = set()
    for item in cls.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
        elif isinstance(item, ast.FunctionDef) and any(
            isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list
        ):
            names.add(item.name)
    return names


def task_like_classes() -> list[str]:
    """``path:Class`` of every class declaring three or more of the task's key fields."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and len(_declared(node) & TASK_KEYS) >= 3:
                found.append(f"{path.relative_to(SRC)}:{node.name}")
    return found


def test_the_task_is_declared_once() -> None:
    assert task_like_classes() == ["tasks/model.py:Task"]


def test_the_checker_sees_a_second_task_model() -> None:
    # the check above can fail: a class shaped like the former rollout record is found
    tree = ast.parse(
        "class TaskSpec:\n    scenario: str\n    user_known_facts: dict\n"
        "    @property\n    def gold_state_hash(self) -> str: ...\n"
    )
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert len(_declared(cls) & TASK_KEYS) == 3


def test_former_task_names_are_gone() -> None:
    import autoforge.rollout as rollout

    assert importlib.util.find_spec("autoforge.rollout.task") is None
    for name in ("TaskSpec", "RolloutTask", "from_task_model", "as_rollout_task"):
        assert not hasattr(rollout, name), name


def test_only_the_owner_parses_task_records() -> None:
    parse = re.compile(r"\bTask\.model_validate(_json)?\(")
    readers = [
        str(path.relative_to(SRC))
        for path in sorted(SRC.rglob("*.py"))
        if parse.search(path.read_text(encoding="utf-8"))
    ]
    assert readers == ["tasks/model.py"]


def test_owner_is_exported_from_its_package() -> None:
    import autoforge.tasks as tasks

    for name in ("Task", "TaskSet", "read_tasks", "GoldCall", "RequiredOutput", "UserScenario"):
        assert name in tasks.__all__ and getattr(tasks, name).__module__ == "autoforge.tasks.model"
