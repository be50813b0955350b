"""Integration: ``forge`` end to end with the real embedded 0.5B model on the bookstore docs.

Kept short: the state comes from the example's sample data (no state design) and only five of
the nine tools are synthesized. With data the behaviour model writes every tool read from an
HTTP operation, so the environment stage asks the model nothing (the model's synthesis work is
tested from documents alone in ``tests/synth/test_llm_synthesis.py``); the run still goes
through the model's client end to end. Run with
``pytest -m llm tests/forge``; skipped, with the pip command to run, when the ``[model-small]``
extra is not installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autoforge.env import Environment
from autoforge.forge import ForgeOptions, run_forge, verify_task
from autoforge.llm import LLMClient, LLMConfig
from autoforge.synth.behaviour.reader import PER_TOOL
from autoforge.synth.options import SynthOptions
from autoforge.tasks.model import TaskSet

pytestmark = pytest.mark.llm


async def test_forge_bookstore_with_the_embedded_model(
    embedded_small_config: LLMConfig, tmp_path: Path
) -> None:
    out = tmp_path / "bookstore"
    only = ["find_customer_by_email", "get_customer", "get_order", "cancel_order", "place_order"]
    options = ForgeOptions(
        out=out, example="bookstore", synth=SynthOptions(only=only, max_repairs=1), tasks=4
    )
    manifest = await run_forge(
        options, client_factory=lambda: LLMClient(embedded_small_config, cache=False)
    )
    env_stage = manifest.stages["environment"]
    # with data, no model call is spent on code the behaviour model writes anyway: the model
    # only reads rule sentences the rules leave uncarried (at most PER_TOOL per write tool)
    assert env_stage.status == "done" and env_stage.tokens.calls <= 3 * PER_TOOL
    assert manifest.model == "embedded:small"
    sources = env_stage.detail["tools_source"]
    assert set(sources.values()) <= {"template", "behaviour"}
    assert sources["cancel_order"] in ("template", "behaviour")
    assert sources["place_order"] == "behaviour"
    env = Environment.load(out / "env")
    assert {t.name for t in env.spec.tools} <= set(only) and len(env.spec.tools) >= 3
    tasks = TaskSet(out / "tasks.jsonl").load()
    assert tasks, manifest.stages["tasks"].detail
    assert all(verify_task(env, t).ok for t in tasks)
    assert manifest.stages["verify"].detail["verified"] == len(tasks)
    assert (out / "report.html").is_file()
