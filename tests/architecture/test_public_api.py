"""The top-level API: a small pinned surface, each name importable from the stage that owns it."""

from __future__ import annotations

import subprocess
import sys

import autoforge

PINNED = [
    "__version__",
    "AutoforgeError",
    "UserError",
    "load_docs",
    "ToolDocs",
    "ToolSpec",
    "Environment",
    "EnvironmentSpec",
    "ToolError",
    "check_environment",
    "state_hash",
    "synthesize",
    "SynthOptions",
    "run_fidelity",
    "generate_tasks",
    "Task",
    "TaskSet",
    "run_episode",
    "Runner",
    "run_evaluation",
    "compute_advantages",
    "ERPOConfig",
    "LLMClient",
    "get_client",
]


def test_all_is_pinned() -> None:
    # changing the public surface is a decision: update this list and the README together
    assert autoforge.__all__ == PINNED


def test_every_public_name_resolves() -> None:
    for name in autoforge.__all__:
        assert getattr(autoforge, name) is not None


def test_import_autoforge_loads_no_stage() -> None:
    code = (
        "import sys, autoforge; print(sorted(m for m in sys.modules if m.startswith('autoforge')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['autoforge']"
