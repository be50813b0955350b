"""A tool acts on the record whose key it takes; the other nouns of its name qualify that record.

A made-up market: clients hold invoices opened at shops or at kiosks. ``pay_shop_invoice
(invoice_id)`` pays an invoice (one of a shop), ``open_shop_invoice(shop_id, client_id)`` makes
an invoice that names its shop and client, ``search_kiosk_invoice(client_id)`` lists a client's
kiosk invoices only; rules only, no model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from doc_tools import doc_tool  # type: ignore[import-not-found]

from autoforge.cli.main import main
from autoforge.env import Environment
from autoforge.lexicon import target_collection, tool_scope
from autoforge.synth.modelcode.create_draft import CREATE_TODO, create_draft
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.state.design import rule_based_schema
from autoforge.tasks.runtime import bind_state
from autoforge.tooldocs import ToolSpec

DOCS = [
    doc_tool("get_shop_info", "Get a shop.", shop_id="Shop id"),
    doc_tool("get_kiosk_info", "Get a kiosk.", kiosk_id="Kiosk id"),
    doc_tool("get_client_details", "Get a client.", client_id="Client id"),
    doc_tool("open_shop_invoice", "Open an invoice at a shop.", shop_id="Shop", client_id="Client"),
    doc_tool("open_kiosk_invoice", "Open an invoice at a kiosk.", kiosk_id="K", client_id="Client"),
    doc_tool("pay_shop_invoice", "Pay a shop invoice: status changed to 'paid'.", invoice_id="Id"),
    doc_tool(
        "pay_kiosk_invoice", "Pay a kiosk invoice: status changed to 'paid'.", invoice_id="Id"
    ),
    doc_tool("get_shop_invoice_detail", "Get a shop invoice.", invoice_id="Invoice id"),
    doc_tool("search_shop_invoice", "List a client's shop invoices.", client_id="Client id"),
    doc_tool("search_kiosk_invoice", "List a client's kiosk invoices.", client_id="Client id"),
    doc_tool(
        "move_shop_invoice",
        "Move a shop invoice to another date.",
        invoice_id="Invoice id",
        client_id="Client id",
        new_date="New date",
    ),
]
SPECS = {
    d["function"]["name"]: ToolSpec(
        name=d["function"]["name"],
        description=d["function"]["description"],
        parameters=d["function"]["parameters"],
    )
    for d in DOCS
}


@pytest.mark.parametrize(
    ("tool", "target", "qualifier"),
    [
        ("pay_shop_invoice", "invoices", "shop_id"),  # takes the invoice's key: an invoice
        ("get_shop_invoice_detail", "invoices", "shop_id"),
        ("open_shop_invoice", "invoices", None),  # takes the shop's key: makes an invoice
        ("search_kiosk_invoice", "invoices", "kiosk_id"),  # no key of either: the compound's head
        ("get_shop_info", "shops", None),  # one noun: as before
        ("get_invoices_for_client", "invoices", None),  # the client is the preposition's object
    ],
)
def test_the_key_a_tool_takes_says_which_noun_of_its_name_it_acts_on(
    tool: str, target: str, qualifier: str | None
) -> None:
    schema = rule_based_schema(list(SPECS.values()))
    extra = ToolSpec(
        name="get_invoices_for_client",
        parameters={"type": "object", "properties": {"client_id": {"type": "string"}}},
    )
    found = target_collection({**SPECS, extra.name: extra}[tool], schema)
    assert found is not None and found.name == target
    assert tool_scope({**SPECS, extra.name: extra}[tool], schema).qualifier == qualifier


def test_the_target_collection_gets_the_qualifying_references_and_a_status() -> None:
    schema = rule_based_schema(list(SPECS.values()))
    invoices = schema.collection("invoices")
    assert invoices is not None
    refs = {a.name: a.references for a in invoices.attributes if a.references}
    assert refs == {"shop_id": "shops", "client_id": "clients", "kiosk_id": "kiosks"}
    assert invoices.attribute("status") is not None  # pay is a transition on invoices
    shops = schema.collection("shops")
    assert shops is not None and shops.attribute("client_id") is None  # not on the shop


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    root = tmp_path_factory.mktemp("market")
    (root / "tools.json").write_text(json.dumps(DOCS))
    try:
        main(["synth", "env", str(root / "tools.json"), "--llm", "none", "--out", str(root / "e")])
    except SystemExit as exc:
        assert not exc.code
    return Environment.load(Path(root / "e"))


def _state() -> dict[str, Any]:
    return {
        "shops": {"s1": {"shop_id": "s1"}},
        "kiosks": {"k1": {"kiosk_id": "k1"}},
        "clients": {c: {"client_id": c} for c in ("c1", "c2")},
        "invoices": {
            "i1": {"invoice_id": "i1", "shop_id": "s1", "kiosk_id": None, "client_id": "c1"},
            "i2": {"invoice_id": "i2", "shop_id": None, "kiosk_id": "k1", "client_id": "c1"},
        },
    }


def test_every_write_of_the_market_is_synthesized_rules_only(env: Environment) -> None:
    names = {t.name for t in env.spec.tools}
    writes = [n for n in SPECS if n.split("_")[0] in ("open", "pay", "move")]
    assert set(writes) <= names
    assert {"search_shop_invoice", "search_kiosk_invoice"} <= names  # told apart by the noun


def test_a_create_stores_the_records_it_names_and_refuses_unknown_ones(env: Environment) -> None:
    episode = bind_state(env, _state()).episode()
    made = episode.call("open_shop_invoice", {"shop_id": "s1", "client_id": "c2"})
    assert made.ok and made.result["shop_id"] == "s1" and made.result["client_id"] == "c2"
    assert made.result["kiosk_id"] is None
    assert made.result["invoice_id"] in episode.state["invoices"]
    refused = episode.call("open_shop_invoice", {"shop_id": "nope", "client_id": "c2"})
    assert not refused.ok and "shop not found" in refused.content


def test_a_qualified_write_refuses_a_record_the_qualifier_does_not_fit(env: Environment) -> None:
    episode = bind_state(env, _state()).episode()
    paid = episode.call("pay_shop_invoice", {"invoice_id": "i1"})
    assert paid.ok and episode.state["invoices"]["i1"]["status"] == "paid"
    refused = episode.call("pay_shop_invoice", {"invoice_id": "i2"})  # a kiosk's invoice
    assert not refused.ok and episode.state["invoices"]["i2"].get("status") is None
    listed = episode.call("search_kiosk_invoice", {"client_id": "c1"})
    assert listed.ok and [r["invoice_id"] for r in listed.result] == ["i2"]


def test_a_writes_owner_key_is_checked_not_stored(env: Environment) -> None:
    episode = bind_state(env, _state()).episode()
    other = episode.call(
        "move_shop_invoice", {"invoice_id": "i1", "client_id": "c2", "new_date": "d"}
    )
    assert not other.ok and episode.state["invoices"]["i1"]["client_id"] == "c1"
    own = episode.call(
        "move_shop_invoice", {"invoice_id": "i1", "client_id": "c1", "new_date": "d"}
    )
    assert own.ok and episode.state["invoices"]["i1"]["client_id"] == "c1"


def test_a_create_draft_is_complete_only_when_the_docs_state_no_computation() -> None:
    schema = rule_based_schema(list(SPECS.values()))
    spec = SPECS["open_shop_invoice"]
    c = classify_tool(spec, schema)
    coll = schema.collection("invoices")
    assert coll is not None
    exprs = {p: p for p in spec.param_names}
    stored = [f"    record[{p!r}] = {p}" for p in spec.param_names]
    bare = create_draft(spec, c, coll, exprs, schema, [], stored, c.refs)
    assert CREATE_TODO not in bare
    computed = create_draft(spec, c, coll, exprs, schema, ["The total is the sum."], stored, c.refs)
    assert CREATE_TODO + ":" in computed
    unplaced = create_draft(spec, c, coll, exprs, schema, [], ["    # TODO: use x"], c.refs)
    assert CREATE_TODO in unplaced
    props = {**spec.parameters["properties"], "shop_id": {"type": "array"}}
    listed = spec.model_copy(update={"parameters": {**spec.parameters, "properties": props}})
    refs = {k: v for k, v in c.refs.items() if k != "shop_id"}  # a list is no scalar reference
    drafted = create_draft(listed, c, coll, exprs, schema, [], stored, refs)
    assert CREATE_TODO not in drafted  # a list of keys is checked key by key, then stored
    assert "    for item in shop_id or []:" in drafted
