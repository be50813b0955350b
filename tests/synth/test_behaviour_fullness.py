"""A record's list must hold some items before a tool acts on it ("a draft with at least one
item"), read into a ``min_items`` check the compiled tool enforces; "at least one of" names
arguments and reads into nothing here (a small quoting API written here)."""

from __future__ import annotations

import copy
from typing import Any

from autoforge.env import Environment, EnvironmentSpec, ParamInfo, StateSchema, ToolBehaviour
from autoforge.env.artifact.spec import Attribute, CollectionSchema
from autoforge.synth.behaviour.compile import compile_tool
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.fullness import min_items_checks
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "quotes": {
        "Q1": {"quote_id": "Q1", "status": "draft", "lines": [{"sku": "a", "qty": 1}]},
        "Q2": {"quote_id": "Q2", "status": "draft", "lines": []},
    }
}


def _checks(sentence: str) -> list[Any]:
    tb = ToolBehaviour(tool="send_quote", kind="action", collection="quotes", id_param="quote_id")
    return min_items_checks(tb, [sentence], Context(ev=DataEvidence.of(DATA), policy=""))


def test_at_least_n_items_and_without_items_are_read() -> None:
    (c,) = _checks("The quote must be a draft with at least one line.")
    assert (c.kind, c.attribute, c.low) == ("min_items", "lines", 1.0)
    (c,) = _checks("A quote without any lines cannot be sent.")
    assert c.low == 1.0
    (c,) = _checks("Only quotes holding at least 2 lines can be sent.")
    assert c.low == 2.0
    assert _checks("Give at least one of lines or notes.") == []
    assert _checks("A quote without lines is kept as a draft.") == []  # no refusal


def test_the_compiled_tool_refuses_a_record_with_too_few_items() -> None:
    (check,) = _checks("The quote must be a draft with at least one line.")
    tb = ToolBehaviour(tool="send_quote", kind="action", collection="quotes", id_param="quote_id",
                       params=[ParamInfo(name="quote_id", required=True)],
                       checks=[check])  # fmt: skip
    spec = ToolSpec(
        name="send_quote",
        description="Send a quote.",
        parameters={"type": "object", "properties": {"quote_id": {"type": "string"}},
                    "required": ["quote_id"]},
        access="write",
    )  # fmt: skip
    quotes = CollectionSchema(name="quotes", primary_key="quote_id",
                              attributes=[Attribute(name="quote_id", type="id")])  # fmt: skip
    env_spec = EnvironmentSpec(name="q", tools=[spec],
                               state_schema=StateSchema(collections=[quotes]))  # fmt: skip
    env = Environment.from_parts(env_spec, compile_tool(tb, spec.description))
    ep = env.episode(state=copy.deepcopy(DATA))
    assert ep.call("send_quote", {"quote_id": "Q1"}).ok
    refused = ep.call("send_quote", {"quote_id": "Q2"})
    assert not refused.ok and "at least 1 items" in str(refused.content)
