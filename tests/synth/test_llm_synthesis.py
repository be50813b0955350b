"""Integration: full synthesis of the docs-only todo example with the real embedded 0.5B model.

Slow (minutes on 2 CPU cores); run with ``pytest -m llm tests/synth``. Skipped, with the pip
command to run, when the ``[model-small]`` extra is not installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autoforge.env import Environment
from autoforge.llm import LLMClient, LLMConfig
from autoforge.llm.config import build_config
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import ToolDocs

pytestmark = pytest.mark.llm


@pytest.fixture(scope="module")
def small_config() -> LLMConfig:
    """The embedded 0.5B model (server started once), no cache: real answers every run."""
    from autoforge.llm.embedded import MODELS, ModelNotInstalled, chunk_paths, ensure_server

    try:
        import xllamacpp  # noqa: F401

        chunk_paths(MODELS["small"])
    except (ImportError, ModelNotInstalled) as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[model-small]'")
    cfg = build_config(environ={}, overrides={"embedded": {"model": "small"}, "cache": False})
    ensure_server("small", cfg.embedded)
    return cfg


async def test_todo_synthesis_passes_the_checker(
    small_config: LLMConfig, todo_docs: ToolDocs, tmp_path: Path
) -> None:
    client = LLMClient(small_config, cache=False)
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
