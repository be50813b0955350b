"""A rule the policy states about a write tool that nothing enforces keeps that tool out of
gold calls: the environment would accept a call the policy refuses, and a task built on it
would teach the agent to break the rule (the apiary API written for the tally tests, with a
policy written here)."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from types import SimpleNamespace

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import BehaviourModel
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tasks.pipeline import _partial_writes, behaviour_of
from autoforge.tooldocs import load_docs

HERE = Path(__file__).parent / "behaviour_apis"

POLICY = """# Apiary office

## Retiring a hive
A hive can only be retired by the keeper who placed it, and never during the honey season.

## Adding a hive
Hives are placed in any apiary.
"""


def test_a_policy_rule_nothing_enforces_keeps_the_tool_out_of_gold_calls(
    tmp_path: Path,
) -> None:
    docs = load_docs([HERE / "apiary_openapi.yaml"])
    data = json.loads((HERE / "apiary_db.json").read_text())
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    out = tmp_path / "env"
    options = SynthOptions(policy=POLICY)
    asyncio.run(synthesize(docs, out, client, data=copy.deepcopy(data), options=options))
    model = BehaviourModel.load(out)
    assert model is not None
    retire, add = model.tool("retire_hive"), model.tool("add_hive")
    assert retire is not None and add is not None
    said = (
        "A hive can only be retired by the keeper who placed it, and never during the honey season."
    )
    assert retire.policy_rules == [said] and retire.policy_unenforced == [said]
    assert add.policy_rules == [] and add.policy_unenforced == []
    left_out = _partial_writes(behaviour_of(SimpleNamespace(path=out)))  # type: ignore[arg-type]
    assert "retire_hive" in left_out and "add_hive" not in left_out


def test_a_sentence_only_requiring_a_required_parameter_is_carried_by_the_schema() -> None:
    from autoforge.synth.behaviour.run import _schema_carried
    from autoforge.tooldocs import ToolSpec

    spec = ToolSpec(
        name="dispatch_van",
        description="Dispatch a van.",
        parameters={"type": "object", "required": ["van_id", "driver_name"],
                    "properties": {"van_id": {"type": "string"},
                                   "driver_name": {"type": "string"},
                                   "note": {"type": "string"}}},
        access="write",
    )  # fmt: skip
    assert _schema_carried("The driver's name is required.", spec)
    assert not _schema_carried("A note is required.", spec)  # optional in the schema
    assert not _schema_carried("The driver's name is required and must be unique.", spec)
