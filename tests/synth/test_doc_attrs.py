"""Optional attributes the docs name for a write's parameter (a library, not shaped like tau)."""

from __future__ import annotations

from typing import Any

from autoforge.env import Environment
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.synth import pipeline as P
from autoforge.synth.modelcode.functions import skeleton_for
from autoforge.synth.rulecode.doc_attrs import documented_attributes, with_documented_attributes
from autoforge.tooldocs import ToolDocs
from autoforge.tooldocs.spec import ToolSpec

POLICY = (
    "Loans can have other optional attributes once staff act on them (renewal note, "
    "the date a reminder was sent).\nA renewed loan keeps its due date."
)


def _docs(policy: str) -> ToolDocs:
    props = {"loan_id": {"type": "string"}, "note": {"type": "string"}}
    return ToolDocs(
        tools=[
            ToolSpec(
                name="renew_loan",
                description="Renew a loan.",
                parameters={"type": "object", "properties": props, "required": list(props)},
                access="write",
            )
        ],
        policy=policy,
    )


def _data() -> dict[str, Any]:
    return {
        "loans": {
            f"L{i}": {"loan_id": f"L{i}", "book": "Dune", "due": "2025-01-0{i}"}
            for i in range(1, 4)
        }
    }


def test_an_attribute_the_policy_names_for_a_parameter_is_added_and_stored() -> None:
    docs = _docs(POLICY)
    p1 = P._phase1_data(docs, _data())
    added = documented_attributes(docs.tools, p1.schema, POLICY)
    assert [a.name for a in added["loans"]] == ["renew_note"]
    assert added["loans"][0].nullable and "renewal note" in added["loans"][0].description
    p1.schema = with_documented_attributes(docs.tools, p1.schema, POLICY)
    job, _ = P._job(docs.tool("renew_loan"), p1, docs, POLICY)
    spec = EnvironmentSpec(name="t", tools=docs.tools, state_schema=p1.schema)
    env = Environment.from_parts(spec, skeleton_for(job), initial_state=p1.data_state)
    ep = env.episode()
    out = ep.call("renew_loan", {"loan_id": "L2", "note": "exam week"})
    assert out.ok and ep.snapshot()["loans"]["L2"]["renew_note"] == "exam week"


def test_no_attribute_without_a_sentence_about_attributes_of_that_collection() -> None:
    docs = _docs(POLICY)
    schema = P._phase1_data(docs, _data()).schema
    # the phrase alone, in a sentence that does not speak of attributes
    assert documented_attributes(docs.tools, schema, "Staff may add a renewal note.") == {}
    # attributes of another collection
    other = "Members can have optional attributes (renewal note)."
    assert documented_attributes(docs.tools, schema, other) == {}
    # words that are not consecutive do not state the name
    apart = "Loans can have optional attributes (a note about the renewal)."
    assert documented_attributes(docs.tools, schema, apart) == {}
    assert with_documented_attributes(docs.tools, schema, "") is schema
