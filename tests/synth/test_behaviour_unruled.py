"""No documented tool goes missing when deriving its rules fails: it keeps its documented
parameters, the existence of the records they name and its reply, marked partial with the
reason (a derivation failure is injected on the apiary API written for the tally tests)."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

import autoforge.synth.behaviour.derive as derive
from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import load_docs

HERE = Path(__file__).parent / "behaviour_apis"


def test_a_tool_whose_rules_fail_is_kept_partial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise TypeError("injected for this test")

    monkeypatch.setattr(derive, "pair_checks", broken)
    docs = load_docs([HERE / "apiary_openapi.yaml"])
    data = json.loads((HERE / "apiary_db.json").read_text())
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    out = tmp_path / "env"
    asyncio.run(synthesize(docs, out, client, data=copy.deepcopy(data), options=SynthOptions()))
    env = Environment.load(out)
    assert sorted(t.name for t in env.spec.tools) == sorted(t.name for t in docs.tools)
    model = json.loads((out / "behaviour.json").read_text())
    retire = next(t for t in model["tools"] if t["tool"] == "retire_hive")
    assert retire["partial"] and retire["unenforced"][0].startswith("not modelled: TypeError")
    ep = env.episode(state=copy.deepcopy(data))
    assert not ep.call("retire_hive", {"hive_id": "H999"}).ok  # the record must exist
    assert ep.call("retire_hive", {"hive_id": "H001"}).ok
