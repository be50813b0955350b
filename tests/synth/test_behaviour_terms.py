"""Words the docs define as a set of statuses ("still open (requested, scheduled or
rescheduled)") name those statuses where they qualify a record, in the description's
presumed status and in stated rules alike."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.presumed import presumed_checks
from autoforge.synth.behaviour.terms import expand_terms, status_terms
from autoforge.synth.behaviour.text import status_checks
from autoforge.tooldocs import ToolSpec

STATUSES = ["placed", "packed", "sent", "returned", "lost"]
POLICY = "A parcel that is still live (placed, packed or sent) can be traced (see below).\n"
DATA: dict[str, Any] = {
    "parcels": {f"P{i}": {"parcel_id": f"P{i}", "status": s} for i, s in enumerate(STATUSES)}
}
TB = ToolBehaviour(
    tool="redirect_parcel",
    kind="action",
    collection="parcels",
    id_param="parcel_id",
    params=[ParamInfo(name="parcel_id", references="parcels")],
)


def _ctx(policy: str = POLICY) -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.schemas["parcels"] = {"status": {"type": "string", "enum": STATUSES}}
    return ctx


def test_a_word_before_a_bracketed_list_of_statuses_names_them() -> None:
    assert status_terms(POLICY, STATUSES) == {"live": ["placed", "packed", "sent"]}
    assert status_terms("A parcel (placed or sent) is ours.", STATUSES, {"parcel"}) == {}
    assert status_terms("Its status (placed or sent) shows.", STATUSES) == {}
    said = expand_terms(
        "Only live parcels; the live tracker.", {"live": ["placed", "sent"]}, "parcels"
    )
    assert said == "Only `placed` or `sent` parcels; the live tracker."


def _checks(description: str, policy: str = POLICY) -> list[tuple[str, list[Any]]]:
    spec = ToolSpec(name="redirect_parcel", description=description)
    checks = status_checks(spec, TB, _ctx(policy))
    checks += presumed_checks(spec, TB, _ctx(policy), checks)
    return [(c.kind, c.values) for c in checks]


def test_a_defined_word_and_a_written_status_are_one_set_of_statuses() -> None:
    assert _checks("Sends a live parcel or a `returned` parcel to a new address.") == [
        ("status_in", ["packed", "placed", "returned", "sent"])
    ]
    assert _checks("Only live parcels can be redirected.") == [
        ("status_in", ["packed", "placed", "sent"])
    ]


def test_without_the_definition_the_word_names_nothing() -> None:
    assert _checks("Only live parcels can be redirected.", policy="") == []
