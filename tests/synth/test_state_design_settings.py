"""Settings: facts the docs state that are no records get a singleton ``settings`` record."""

from __future__ import annotations

from pathlib import Path

from autoforge.llm import LLMClient
from autoforge.synth.pipeline import Store, SynthOptions, _phase1_docs
from autoforge.synth.state.design import design_state
from autoforge.synth.state.settings import extract_settings, settings_record
from autoforge.tooldocs import ToolDocs
from autoforge.tooldocs.spec import ToolSpec

POLICY = """# Bike rental policy

Today is 2025-03-14.
The shop is open from 9am to 5:30pm, Monday to Saturday.
Each rental can include at most three bikes. A customer must book at least 2 hours.
A late return fee of $15 applies per started hour, and a $40 deposit is charged at pickup.

| Tier | Hourly rate | Free hours |
|------|-------------|------------|
| basic | $8 | 0 |
| member | $6.50 | 1 |

Be polite and never make more than one tool call at a time. Make at most one tool call per turn.
"""

TOOLS = [
    ToolSpec(
        name="book_rental",
        description="Book bikes. Bookings close 30 minutes before closing.",
        parameters={
            "type": "object",
            "properties": {"customer_id": {"type": "string"}, "bike_ids": {"type": "array"}},
        },
    ),
    ToolSpec(
        name="get_rental",
        parameters={"type": "object", "properties": {"rental_id": {"type": "string"}}},
    ),
]


def test_explicit_facts_are_read_with_their_sentence() -> None:
    found = {s.name: s for s in extract_settings(TOOLS, POLICY)}
    assert found["current_date"].value == "2025-03-14"
    assert found["current_date"].type == "date"
    assert found["opening_hours"].value == {"open": "09:00", "close": "17:30"}
    assert found["max_bikes"].value == 3 and found["max_bikes"].type == "integer"
    assert found["min_hours"].value == 2
    assert found["late_return_fee"].value == 15
    assert found["deposit"].value == 40
    assert found["tier_hourly_table"].value == {
        "basic": {"hourly_rate": 8, "free_hours": 0},
        "member": {"hourly_rate": 6.5, "free_hours": 1},
    }
    assert found["max_bikes"].source == 'policy: "Each rental can include at most three bikes."'
    # a conduct rule with no number right after the limit word is no setting
    assert not any(name.startswith("max_tool") for name in found)


def test_no_facts_no_settings() -> None:
    assert extract_settings(TOOLS, "Be helpful. Confirm before writing.") == []


async def test_design_puts_settings_in_a_singleton_collection_tools_can_read() -> None:
    result = await design_state(LLMClient.scripted(["no answer"] * 20), TOOLS, POLICY)
    coll = result.state_schema.collection("settings")
    assert coll is not None and coll.primary_key == "settings_id"
    attrs = {a.name: a for a in coll.attributes}
    assert attrs["max_bikes"].type == "integer"
    assert attrs["max_bikes"].description.startswith("fixed value 3; from policy:")
    assert result.provenance["settings"]["max_bikes"].startswith('policy: "Each rental')
    record = settings_record(result.settings)["settings"]
    assert record["settings_id"] == "settings" and record["current_date"] == "2025-03-14"
    assert record["opening_hours"] == {"open": "09:00", "close": "17:30"}


async def test_the_synthesis_test_state_holds_the_documented_values(tmp_path: Path) -> None:
    """Tools are checked on a state whose ``settings`` record has the docs' values (stored and
    resumed alike), not generated samples."""
    docs = ToolDocs(tools=TOOLS)
    for _ in range(2):  # the second run resumes the stored design
        client = LLMClient.scripted(["no answer"] * 20)
        p1 = await _phase1_docs(client, docs, SynthOptions(), Store(tmp_path), POLICY)
        record = p1.test_state["settings"]["settings"]
        assert record["max_bikes"] == 3 and record["late_return_fee"] == 15
        assert list(p1.test_state["settings"]) == ["settings"]


async def test_generated_task_states_hold_the_documented_settings_unchanged() -> None:
    """The task generator's states carry the settings record exactly as the docs state it:
    never sampled, never perturbed (a tool reading ``max_bikes`` sees 3 in every task)."""
    import random

    from autoforge.env import EnvironmentSpec
    from autoforge.tasks.states.population import StateGenerator

    result = await design_state(LLMClient.scripted(["no answer"] * 20), TOOLS, POLICY)
    spec = EnvironmentSpec(name="bikes", tools=TOOLS, state_schema=result.state_schema)
    gen = StateGenerator(spec, perturbations=50)
    expected = settings_record(result.settings)
    for seed in range(5):
        assert gen.sample(random.Random(seed))["settings"] == expected
