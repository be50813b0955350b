"""Transition effects learned from data and docs, rendered in the draft, kept by the LLM loop."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.synth import pipeline as P
from autoforge.synth.modelcode.functions import skeleton_for, synthesize_tool
from autoforge.synth.options import SynthOptions
from autoforge.synth.rulecode.conventions import GENERIC, TAU, Conventions
from autoforge.synth.rulecode.effects import MirrorEffect, credit_field, learn_mirror_effects
from autoforge.synth.state.infer import data_to_state, infer_schema
from autoforge.tooldocs import ToolDocs
from autoforge.tooldocs.spec import ToolSpec

from .conftest import dispatcher  # type: ignore[import-not-found]

IDS = {"type": "array", "items": {"type": "string"}}


def _params(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props)}


def _order(i: int, status: str, method: str, price: float = 10.0) -> dict[str, Any]:
    history = [{"transaction_type": "payment", "amount": price, "payment_method_id": method}]
    if status == "cancelled":
        history.append({**history[0], "transaction_type": "refund"})
    item = {"name": "Shirt", "product_id": "500", "item_id": "1001", "price": price}
    return {
        "order_id": f"#O{i}",
        "user_id": "ann_1",
        "items": [item, {**item, "item_id": "1002", "price": 12.0}],
        "status": status,
        "payment_history": history,
    }


def shop_data() -> dict[str, Any]:
    variants = {
        "1001": {"item_id": "1001", "price": 10.0, "available": True, "options": {"c": "red"}},
        "1002": {"item_id": "1002", "price": 12.0, "available": True, "options": {"c": "blue"}},
        "1003": {"item_id": "1003", "price": 15.5, "available": True, "options": {"c": "green"}},
        "1004": {"item_id": "1004", "price": 9.0, "available": False, "options": {"c": "pink"}},
        "1005": {"item_id": "1005", "price": 100.0, "available": True, "options": {"c": "gold"}},
    }
    methods = {
        "gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 50.0},
        "card_2": {"source": "credit_card", "id": "card_2", "last_four": "1234"},
    }
    statuses = ["pending", "delivered", "cancelled"] * 4
    orders = {
        f"#O{i}": _order(i, s, "gift_card_1" if i % 2 else "card_2") for i, s in enumerate(statuses)
    }
    return {
        "products": {"500": {"product_id": "500", "name": "Shirt", "variants": variants}},
        "users": {"ann_1": {"user_id": "ann_1", "payment_methods": methods}},
        "orders": orders,
    }


ORDER = {"type": "string", "description": "The order id."}
DOCS = ToolDocs(
    tools=[
        ToolSpec(
            name="cancel_pending_order",
            description="Cancel a pending order. The refund is added to the user's gift card "
            "balance immediately if the payment was made using a gift card.",
            parameters=_params(order_id=ORDER, reason={"type": "string"}),
            access="write",
        ),
        ToolSpec(
            name="exchange_delivered_order_items",
            description="Exchange items in a delivered order to new items of the same product.",
            parameters=_params(
                order_id=ORDER,
                item_ids={**IDS, "description": "There could be duplicate items in the list."},
                new_item_ids={
                    **IDS,
                    "description": "Matches the item id in the same position. "
                    "There could be duplicate items in the list.",
                },
                payment_method_id={
                    "type": "string",
                    "description": "To pay or receive refund of the item price difference. "
                    "A gift card must have enough balance to cover the price difference.",
                },
            ),
            access="write",
        ),
        ToolSpec(
            name="modify_pending_order_items",
            description="Modify items in a pending order to new items of the same product.",
            parameters=_params(order_id=ORDER, item_ids=IDS, new_item_ids=IDS),
            access="write",
        ),
        ToolSpec(
            name="get_item_details",
            description="Get the inventory details of an item.",
            parameters=_params(item_id={"type": "string"}),
            access="read",
        ),
    ]
)


@pytest.fixture
def phase1() -> P.Phase1:
    return P._phase1_data(DOCS, shop_data())


def _env(p1: P.Phase1, name: str, source: str | None = None, conv: Conventions = TAU) -> Any:
    """The draft of ``name`` over the shop data; this fixture is shaped like tau-bench retail,
    so the tau convention profile is on unless ``conv`` says otherwise."""
    job, _ = P._job(DOCS.tool(name), p1, DOCS, None, conv)
    spec = EnvironmentSpec(name="t", tools=[DOCS.tool(name)], state_schema=p1.schema)
    return Environment.from_parts(spec, source or skeleton_for(job), initial_state=p1.data_state)


def test_mirrored_entries_are_learned_only_when_every_record_shows_them() -> None:
    state, _ = data_to_state(shop_data())
    schema = infer_schema(state)
    want = MirrorEffect(
        "orders", "status", "cancelled", "payment_history", "transaction_type", "payment", "refund"
    )
    assert learn_mirror_effects(state, schema) == [want]
    broken = copy.deepcopy(state)
    broken["orders"]["#O2"]["payment_history"].pop()  # one cancelled order without its refund
    assert learn_mirror_effects(broken, schema) == []


def test_cancel_draft_refunds_and_credits_the_gift_card(phase1: P.Phase1) -> None:
    env = _env(phase1, "cancel_pending_order")
    ep = env.episode()
    order = ep.call("cancel_pending_order", {"order_id": "#O3", "reason": "no longer needed"})
    assert order.ok, order.content
    state = ep.snapshot()
    rec = state["orders"]["#O3"]
    assert rec["status"] == "cancelled" and rec["cancel_reason"] == "no longer needed"
    assert [e["transaction_type"] for e in rec["payment_history"]] == ["payment", "refund"]
    assert state["users"]["ann_1"]["payment_methods"]["gift_card_1"]["balance"] == 60.0
    ep.call("cancel_pending_order", {"order_id": "#O6", "reason": "x"})  # paid by credit card
    after = ep.snapshot()["users"]["ann_1"]["payment_methods"]
    assert after["gift_card_1"]["balance"] == 60.0 and "balance" not in after["card_2"]
    assert not ep.call("cancel_pending_order", {"order_id": "#O1", "reason": "x"}).ok  # delivered


def test_exchange_draft_checks_ids_and_stores_the_price_difference(phase1: P.Phase1) -> None:
    env = _env(phase1, "exchange_delivered_order_items")
    call = {"order_id": "#O1", "payment_method_id": "card_2"}
    ep = env.episode()
    ok = ep.call(
        "exchange_delivered_order_items",
        {**call, "item_ids": ["1002", "1001"], "new_item_ids": ["1003", "1002"]},
    )
    assert ok.ok, ok.content
    rec = ep.snapshot()["orders"]["#O1"]
    assert rec["exchange_items"] == ["1001", "1002"]  # a multiset: stored sorted
    assert rec["exchange_new_items"] == ["1002", "1003"]
    assert rec["exchange_payment_method_id"] == "card_2"  # not a multiset: as given
    assert rec["exchange_price_difference"] == round(15.5 + 12.0 - 12.0 - 10.0, 2)
    for bad in (
        {"item_ids": ["1001", "1001"], "new_item_ids": ["1002", "1003"]},  # one 1001 only
        {"item_ids": ["1001"], "new_item_ids": ["9999"]},  # no such item
        {"item_ids": ["1001"], "new_item_ids": ["1004"]},  # not available
        {"item_ids": ["1001"], "new_item_ids": []},  # lengths differ
    ):
        obs = env.episode().call("exchange_delivered_order_items", {**call, **bad})
        assert obs.error_kind == "tool_error", bad


def test_payment_method_must_be_the_owners_and_cover_the_difference(phase1: P.Phase1) -> None:
    env = _env(phase1, "exchange_delivered_order_items")
    dearer = {"order_id": "#O1", "item_ids": ["1001"], "new_item_ids": ["1005"]}  # +90.0

    def call(method: str) -> Any:
        args = {**dearer, "payment_method_id": method}
        return env.episode().call("exchange_delivered_order_items", args)

    assert call("card_2").ok  # no balance to check
    assert "insufficient balance" in call("gift_card_1").content  # 50.0 < 90.0
    assert "payment method not found" in call("card_9").content  # not the user's
    cheaper = {"order_id": "#O1", "item_ids": ["1002"], "new_item_ids": ["1001"]}
    args = {**cheaper, "payment_method_id": "gift_card_1"}
    assert env.episode().call("exchange_delivered_order_items", args).ok  # a refund


def test_update_draft_replaces_the_items(phase1: P.Phase1) -> None:
    ep = _env(phase1, "modify_pending_order_items").episode()
    obs = ep.call(
        "modify_pending_order_items",
        {"order_id": "#O0", "item_ids": ["1001"], "new_item_ids": ["1003"]},
    )
    assert obs.ok, obs.content
    items = ep.snapshot()["orders"]["#O0"]["items"]
    # the fields the catalogue entry shares with the order item are copied, the rest kept
    assert items[0] == {"name": "Shirt", "product_id": "500", "item_id": "1003", "price": 15.5}
    assert items[1]["item_id"] == "1002"
    assert "item_ids" not in ep.snapshot()["orders"]["#O0"]  # no invented top-level field


def test_generic_profile_stores_only_what_the_docs_name(phase1: P.Phase1) -> None:
    """Without the tau profile: no ``<verb>_<noun>`` names, no sorting, no difference field, no
    ``available`` check; the data-learned refund mirror and the credit the docs state apply."""
    ep = _env(phase1, "cancel_pending_order", conv=GENERIC).episode()
    assert ep.call("cancel_pending_order", {"order_id": "#O3", "reason": "moved"}).ok
    state = ep.snapshot()
    rec = state["orders"]["#O3"]
    # no attribute of the data holds a reason: nothing invented (the schema_attrs check)
    assert rec["status"] == "cancelled" and "reason" not in rec and "cancel_reason" not in rec
    assert [e["transaction_type"] for e in rec["payment_history"]] == ["payment", "refund"]
    # "The refund is added to the user's gift card balance": docs name it, data has it
    assert state["users"]["ann_1"]["payment_methods"]["gift_card_1"]["balance"] == 60.0
    env = _env(phase1, "exchange_delivered_order_items", conv=GENERIC)
    ep = env.episode()
    args = {"order_id": "#O1", "payment_method_id": "card_2"}
    obs = ep.call(
        "exchange_delivered_order_items",
        {**args, "item_ids": ["1002", "1001"], "new_item_ids": ["1004", "1002"]},
    )
    assert obs.ok, obs.content  # 1004 is 'available: false': only the tau profile reads that
    rec = ep.snapshot()["orders"]["#O1"]
    assert "item_ids" not in rec and "new_item_ids" not in rec
    assert not any(k.endswith("_difference") or k.startswith("exchange_") for k in rec)


def test_the_credited_field_is_the_one_the_docs_name_and_the_data_has() -> None:
    members = CollectionSchema(
        name="members",
        primary_key="member_id",
        attributes=[
            Attribute(name="member_id", type="id"),
            Attribute(name="wallets", description="map from id to object with keys: id, points"),
        ],
    )
    schema = StateSchema(collections=[members])
    assert credit_field(schema, "The fee is added to the member's loyalty points.") == "points"
    assert credit_field(schema, "The fee is refunded within 5 days.") is None
    assert credit_field(schema, "The fee is added to the member's balance.") is None  # no such


async def test_nested_map_lookup_is_a_template(phase1: P.Phase1) -> None:
    job, _ = P._job(DOCS.tool("get_item_details"), phase1, DOCS, None, TAU)
    out = await synthesize_tool(dispatcher({"*": "no code"}), job, SynthOptions())
    assert out.report.source == "template" and out.code is not None
    env = _env(phase1, "get_item_details", out.code.source)
    assert env.episode().call("get_item_details", {"item_id": "1003"}).result["price"] == 15.5
    assert not env.episode().call("get_item_details", {"item_id": "77"}).ok


DROPS_REFUND = """```python
def cancel_pending_order(state, order_id, reason):
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError("order not found")
    if order["status"] != "pending":
        raise ToolError("not pending")
    order["status"] = "cancelled"
    order["cancel_reason"] = reason
    return order
```"""


async def test_an_answer_dropping_draft_effects_is_not_accepted(phase1: P.Phase1) -> None:
    job, _ = P._job(DOCS.tool("cancel_pending_order"), phase1, DOCS, None, TAU)
    client = dispatcher({"synth.tests": {"cases": []}, "*": DROPS_REFUND})
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=1, fill="function"))
    assert out.report.status == "fallback"  # the draft, with the refund, is kept instead
    assert any("keeps_draft" in e and "payment_history" in e for e in out.report.errors)
    assert out.code is not None and "'refund'" in out.code.source


async def test_an_answer_keeping_the_draft_and_adding_to_it_is_accepted(
    phase1: P.Phase1,
) -> None:
    job, _ = P._job(DOCS.tool("cancel_pending_order"), phase1, DOCS, None, TAU)
    draft = skeleton_for(job).replace(
        "    return record", "    record['note'] = 1\n    return record"
    )
    client = dispatcher({"synth.tests": {"cases": []}, "*": f"```python\n{draft}\n```"})
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0, fill="function"))
    assert out.report.status == "accepted" and out.report.source == "llm"
    assert any(c.name == "keeps_draft" and c.ok for c in out.report.checks)


def test_a_refund_to_the_original_payment_is_a_negated_entry_and_status_is_recorded() -> None:
    """No status attribute and no refund in the data (nothing was ever cancelled): the docs'
    refund to the original payment methods becomes negated payment entries."""
    pays = [{"payment_id": "card_1", "amount": 300}, {"payment_id": "gift_2", "amount": 20}]
    data = {"reservations": {f"R{i}": {"reservation_id": f"R{i}", "payment_history": pays}
                             for i in range(3)}}  # fmt: skip
    docs = ToolDocs(
        tools=[
            ToolSpec(
                name="cancel_reservation",
                description="Cancel the whole reservation.",
                parameters=_params(reservation_id={"type": "string"}),
                access="write",
            )
        ],
        policy="## Cancel reservation\nThe refund will go to original payment methods.",
    )
    p1 = P._phase1_data(docs, data)
    job, _ = P._job(docs.tool("cancel_reservation"), p1, docs, docs.policy, TAU)
    spec = EnvironmentSpec(name="t", tools=docs.tools, state_schema=p1.schema)
    env = Environment.from_parts(spec, skeleton_for(job), initial_state=p1.data_state)
    ep = env.episode()
    assert ep.call("cancel_reservation", {"reservation_id": "R1"}).ok
    rec = ep.snapshot()["reservations"]["R1"]
    assert rec["status"] == "cancelled"
    assert [e["amount"] for e in rec["payment_history"]] == [300, 20, -300, -20]
    job.policy = None  # the docs no longer say where the refund goes: no ledger entries
    env = Environment.from_parts(spec, skeleton_for(job), initial_state=p1.data_state)
    ep = env.episode()
    assert ep.call("cancel_reservation", {"reservation_id": "R1"}).ok
    assert len(ep.snapshot()["reservations"]["R1"]["payment_history"]) == 2


async def test_an_answer_failing_where_the_draft_succeeds_is_not_accepted(
    phase1: P.Phase1,
) -> None:
    """Seen with the 1.5B model: the draft's writes, then a re-check of the old status that
    always raises. Without the draft comparison such an answer passed every check."""
    job, _ = P._job(DOCS.tool("cancel_pending_order"), phase1, DOCS, None, TAU)
    recheck = "    if record.get('status') != 'pending':\n        raise ToolError('not pending')\n"
    broken = skeleton_for(job).replace("    return record", recheck + "    return record")
    client = dispatcher({"synth.tests": {"cases": []}, "*": f"```python\n{broken}\n```"})
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0, fill="function"))
    assert out.report.status == "fallback"
    assert any("the draft succeeds on" in e for e in out.report.errors)


async def test_draft_effects_are_compared_on_several_records(phase1: P.Phase1) -> None:
    """Seen with the 1.5B model: the balance credit written twice. The happy-path order is
    paid by card, so only probing another (gift-card) order shows the difference."""
    job, _ = P._job(DOCS.tool("cancel_pending_order"), phase1, DOCS, None, TAU)
    assert job.ctx.happy["order_id"] == "#O0"  # paid with card_2: no balance to credit
    draft = skeleton_for(job)
    loop = draft[draft.index("    for e in added:") : draft.index("    # TODO")]
    twice = draft.replace(loop, loop + loop)
    client = dispatcher({"synth.tests": {"cases": []}, "*": f"```python\n{twice}\n```"})
    out = await synthesize_tool(client, job, SynthOptions(max_repairs=0, fill="function"))
    assert out.report.status == "fallback"
    assert any("keeps_draft" in e and "balance" in e for e in out.report.errors)


def test_generic_profile_reads_cover_and_availability_off_the_docs(phase1: P.Phase1) -> None:
    """Generic profile: "enough balance to cover the price difference" (the field the sentence
    names, which the payment entries have) and "an available new item" (a field the catalogue
    entries have) become checks; a sentence naming a field the data lacks adds nothing."""
    from autoforge.synth.rulecode.effects import cover_field, new_entry_flags

    base = DOCS.tool("exchange_delivered_order_items")
    said = "Each item can be exchanged to an available new item of the same product."
    tool = base.model_copy(update={"description": base.description + " " + said})
    docs = ToolDocs(tools=[tool])
    job, _ = P._job(tool, phase1, docs, None, GENERIC)
    spec = EnvironmentSpec(name="t", tools=[tool], state_schema=phase1.schema)
    env = Environment.from_parts(spec, skeleton_for(job), initial_state=phase1.data_state)
    call = {"order_id": "#O1", "payment_method_id": "card_2"}
    refused = env.episode().call(
        "exchange_delivered_order_items", {**call, "item_ids": ["1001"], "new_item_ids": ["1004"]}
    )
    assert refused.error_kind == "tool_error" and "not available" in refused.content
    dearer = {"order_id": "#O1", "item_ids": ["1001"], "new_item_ids": ["1005"]}  # +90.0
    short = env.episode().call(
        "exchange_delivered_order_items", {**dearer, "payment_method_id": "gift_card_1"}
    )
    assert "insufficient balance" in short.content  # 50.0 < 90.0
    assert cover_field("It must have enough credit to cover the difference.", ["balance"]) is None
    assert new_entry_flags("to an in-stock new item", phase1.schema) == []
