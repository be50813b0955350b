"""Preconditions stated by docs, policy and parameter schemas, enforced as guards."""

from __future__ import annotations

import json
from typing import Any

from autoforge.env import Environment
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.examples import example_path
from autoforge.lexicon.rules import _schema_rules
from autoforge.synth import pipeline as P
from autoforge.synth.modelcode.codegen import from_source
from autoforge.synth.modelcode.functions import skeleton_for, synthesize_tool
from autoforge.synth.options import SynthOptions
from autoforge.synth.rulecode.doc_rules import extract_rules, guard_lines, guarded
from autoforge.tooldocs import ToolDocs, load_docs
from autoforge.tooldocs.spec import ToolSpec

from .conftest import dispatcher  # type: ignore[import-not-found]


def _bookstore() -> tuple[ToolDocs, str, dict[str, Any]]:
    root = example_path("bookstore")
    docs = load_docs([root / "tools.openai.json"])
    policy = (root / "policy.md").read_text(encoding="utf-8")
    return docs, policy, json.loads((root / "initial_state.json").read_text(encoding="utf-8"))


def _orders_in(state: dict[str, Any], status: str) -> list[str]:
    return [k for k, o in state["orders"].items() if o["status"] == status]


def test_bookstore_cancel_refuses_what_the_docs_rule_out() -> None:
    """The docs say only pending orders can be cancelled: the rule-based draft, guarded,
    refuses a delivered order and names the sentence; a pending one is cancelled."""
    docs, policy, data = _bookstore()
    p1 = P._phase1_data(docs, data)
    job, c = P._job(docs.tool("cancel_order"), p1, docs, policy)
    assert c.guard == ("status", "pending")
    kinds = {(r.kind, r.param): r for r in job.rules}
    assert kinds[("status", "order_id")].allowed == ["pending"]
    assert "pending" in kinds[("status", "order_id")].sentence
    assert kinds[("enum", "reason")].allowed[0] == "no_longer_needed"
    code = job.guard(from_source(skeleton_for(job), "cancel_order"))
    spec = EnvironmentSpec(name="b", tools=[docs.tool("cancel_order")], state_schema=p1.schema)
    env = Environment.from_parts(spec, code.source, initial_state=p1.data_state)
    delivered = _orders_in(data, "delivered")[0]
    refused = env.episode().call("cancel_order", {"order_id": delivered, "reason": "other"})
    assert not refused.ok and "pending" in refused.content and "docs:" in refused.content
    pending = _orders_in(data, "pending")[0]
    assert env.episode().call("cancel_order", {"order_id": pending, "reason": "other"}).ok
    bad_reason = env.episode().call("cancel_order", {"order_id": pending, "reason": "bored"})
    assert not bad_reason.ok  # the runtime checks schema enums before the guard would


async def test_the_report_lists_each_rule_with_its_sentence() -> None:
    docs, policy, data = _bookstore()
    p1 = P._phase1_data(docs, data)
    job, _ = P._job(docs.tool("add_review"), p1, docs, policy)
    out = await synthesize_tool(dispatcher({"*": "no code"}), job, SynthOptions(max_repairs=0))
    ranges = [r for r in out.report.rules if r["kind"] == "range"]
    assert ranges and ranges[0]["rule"] == "rating must be from 1 to 5"
    assert all(r["sentence"] for r in out.report.rules)


LIBRARY_POLICY = """# Lending desk
Members borrow books and renew loans.

- Only `active` loans can be renewed.
- Only `gold` members can reserve rare books.
- A renewal needs a channel (`desk`, `phone` or `web`).
- Fines are whole euros between 0 and 50 when a fine is waived.
"""


def _library() -> tuple[ToolDocs, dict[str, Any]]:
    renew = ToolSpec(
        name="renew_loan",
        description="Extend a loan by two weeks.",
        parameters={
            "type": "object",
            "properties": {
                "loan_id": {"type": "string"},
                "channel": {"type": "string", "description": "Where the request came from."},
            },
            "required": ["loan_id", "channel"],
        },
        access="write",
    )
    waive = ToolSpec(
        name="waive_fine",
        description="Waive part of a member's fine. The fine is from 0 to 50.",
        parameters={
            "type": "object",
            "properties": {"member_id": {"type": "string"}, "fine": {"type": "integer"}},
            "required": ["member_id", "fine"],
        },
        access="write",
    )
    loans = {
        f"L{i}": {"loan_id": f"L{i}", "member_id": "M1", "state": s, "due": f"2026-01-0{i}"}
        for i, s in enumerate(["active", "returned", "overdue", "active"], 1)
    }
    data = {
        "members": {"M1": {"member_id": "M1", "tier": "gold", "fine": 10}},
        "loans": loans,
    }
    return ToolDocs(tools=[renew, waive], policy=LIBRARY_POLICY), data


def test_generic_rules_on_a_library_domain_not_shaped_like_tau() -> None:
    """A 'state' attribute (not 'status'), other words, other values: the same extraction; a
    rule about another action (reserving) is not applied to renewing."""
    docs, data = _library()
    p1 = P._phase1_data(docs, data)
    job, c = P._job(docs.tool("renew_loan"), p1, docs, docs.policy)
    by = {(r.kind, r.param): r for r in job.rules}
    assert by[("status", "loan_id")].allowed == ["active"]
    assert by[("status", "loan_id")].attribute == "state"
    assert by[("enum", "channel")].allowed == ["desk", "phone", "web"]
    assert not any("gold" in r.sentence for r in job.rules)
    waive_rules = extract_rules(docs.tool("waive_fine"), c, p1.schema, docs.policy, data)
    fine = next(r for r in waive_rules if r.kind == "range")
    assert (fine.low, fine.high) == (0.0, 50.0)


def test_guards_run_before_the_body_after_the_docstring() -> None:
    docs, data = _library()
    p1 = P._phase1_data(docs, data)
    job, _ = P._job(docs.tool("renew_loan"), p1, docs, docs.policy)
    body = (
        'def renew_loan(state, loan_id, channel):\n    """Extend."""\n'
        "    state['loans'][loan_id]['due'] = 'later'\n    return 'ok'\n"
    )
    code = guarded(
        from_source(body, "renew_loan"),
        guard_lines(job.rules, {"loan_id": "loan_id", "channel": "channel"}),
    )
    assert code.body.index('"""Extend."""') < code.body.index("_rec = ")
    assert guarded(code, guard_lines(job.rules, {"loan_id": "loan_id"})).body == code.body
    spec = EnvironmentSpec(name="l", tools=[docs.tool("renew_loan")], state_schema=p1.schema)
    env = Environment.from_parts(spec, code.source, initial_state=p1.data_state)
    ep = env.episode()
    assert not ep.call("renew_loan", {"loan_id": "L2", "channel": "desk"}).ok  # returned
    assert ep.snapshot()["loans"]["L2"]["due"] == "2026-01-02"  # nothing written
    assert ep.call("renew_loan", {"loan_id": "L1", "channel": "web"}).ok


def test_only_once_becomes_a_uniqueness_guard() -> None:
    """'may review each book only once': a second review of the same book by the same customer
    is refused; another book is fine."""
    docs, policy, data = _bookstore()
    p1 = P._phase1_data(docs, data)
    job, _ = P._job(docs.tool("add_review"), p1, docs, policy)
    unique = next(r for r in job.rules if r.kind == "unique")
    assert unique.fields == ["customer_id", "book_id"] and "only once" in unique.sentence
    body = (
        "def add_review(state, customer_id, book_id, rating, text=None):\n"
        "    key = f'REV-{len(state[\"reviews\"]) + 1}'\n"
        "    state['reviews'][key] = {'review_id': key, 'customer_id': customer_id,\n"
        "                             'book_id': book_id, 'rating': rating, 'text': text}\n"
        "    return state['reviews'][key]\n"
    )
    code = job.guard(from_source(body, "add_review"))
    spec = EnvironmentSpec(name="b", tools=[docs.tool("add_review")], state_schema=p1.schema)
    env = Environment.from_parts(spec, code.source, initial_state=p1.data_state)
    seen = next(iter(data["reviews"].values()))
    again = {"customer_id": seen["customer_id"], "book_id": seen["book_id"], "rating": 4}
    refused = env.episode().call("add_review", again)
    assert not refused.ok and "only once" in refused.content
    other = next(b for b in data["books"] if b != seen["book_id"])
    assert env.episode().call("add_review", {**again, "book_id": other}).ok


def test_a_one_sided_schema_bound_guards_without_an_infinite_name() -> None:
    spec = ToolSpec(
        name="search_books",
        parameters={
            "type": "object",
            "properties": {"max_price": {"type": "number", "minimum": 0}},
        },
    )
    rules = [r for r in _schema_rules(spec) if r.kind == "range"]
    assert rules and rules[0].describe() == "max_price must be at least 0"
    lines = guard_lines(rules, {"max_price": "max_price"})
    body = "def search_books(state, max_price=None):\n" + "\n".join(lines) + "\n    return []\n"
    assert "inf" not in "\n".join(lines)
    scope: dict[str, Any] = {"ToolError": ValueError}
    exec(compile(body, "<guard>", "exec"), scope)
    assert scope["search_books"]({}, max_price=0.0) == []  # the bound itself is allowed
    try:
        scope["search_books"]({}, max_price=-1)
    except ValueError as exc:
        assert "at least 0" in str(exc)
    else:
        raise AssertionError("a price below the minimum must be refused")


def test_a_status_field_holding_objects_is_no_status_list() -> None:
    from autoforge.env.artifact.spec import Attribute, CollectionSchema
    from autoforge.synth.rulecode.doc_rules import status_values

    coll = CollectionSchema(
        name="devices",
        primary_key="id",
        attributes=[Attribute(name="id", type="id"), Attribute(name="last_error_status")],
    )
    state = {"devices": {"d1": {"id": "d1", "last_error_status": {"code": 3}}}}
    assert status_values(coll, state) is None  # it used to raise TypeError: unhashable dict
    state["devices"]["d2"] = {"id": "d2", "last_error_status": "failing"}
    assert status_values(coll, state) == ("last_error_status", ["failing"])


async def test_synthesis_records_the_rules_its_guards_enforce(tmp_path: Any) -> None:
    """``rules.json`` holds each kept tool's rules with its sentence, as the report lists
    them; a resumed synthesis writes the same file."""
    from autoforge.cli.llm import llm_config_from_options
    from autoforge.env import EnvDir
    from autoforge.llm import LLMClient

    docs, policy, data = _bookstore()
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    out = tmp_path / "env"
    options = SynthOptions(policy=policy)
    report = await P.synthesize(docs, out, client, data=data, options=options)
    rules = EnvDir(out).read_rules()
    assert rules.origin == "synthesis"
    kept = [t for t in report.tools if t.status != "failed"]
    listed = {(t.name, r["rule"], r["sentence"]) for t in kept for r in t.rules}
    assert {(r.tool, r.describe(), r.sentence) for r in rules.rules} == listed
    cancel = [r for r in rules.rules if r.tool == "cancel_order" and r.kind == "status"]
    assert cancel and cancel[0].allowed == ["pending"]
    again = await P.synthesize(docs, out, client, data=data, options=options)
    assert again.resumed and EnvDir(out).read_rules() == rules


async def test_docs_only_synthesis_guards_a_status_the_docs_name(tmp_path: Any) -> None:
    """A docs-only JSON tool list (no enum, no data): "prohibited from closing tickets that
    are already in closed status" becomes a guard in the synthesized tool, recorded in
    ``rules.json``: closing a closed ticket is refused, closing an open one is not."""
    from autoforge.cli.llm import llm_config_from_options
    from autoforge.env import EnvDir
    from autoforge.llm import LLMClient

    def tool(name: str, description: str) -> dict[str, Any]:
        params = {"type": "object", "properties": {"ticket_id": {"type": "string"}},
                  "required": ["ticket_id"]}  # fmt: skip
        return {"type": "function", "function": {
            "name": name, "description": description, "parameters": params}}  # fmt: skip

    refusal = "Prohibited from closing tickets that are already in closed status."
    tools = [
        tool("get_ticket", "Get a support ticket by its id."),
        tool("reopen_ticket", "Reopen a support ticket; ticket status changes to open."),
        tool("close_ticket", f"Close a support ticket. {refusal}"),
    ]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    out = tmp_path / "env"
    await P.synthesize(load_docs([path]), out, client, options=SynthOptions())
    rules = [r for r in EnvDir(out).read_rules().rules if r.kind == "status"]
    assert [(r.tool, r.attribute, r.forbidden) for r in rules] == [
        ("close_ticket", "status", ["closed"])
    ]
    env = EnvDir(out).load(trusted=True)
    tickets = {"T-1": {"ticket_id": "T-1", "status": "closed"},
               "T-2": {"ticket_id": "T-2", "status": "open"}}  # fmt: skip
    state = {c.name: {} for c in env.spec.state_schema.collections}
    env = Environment.from_parts(env.spec, env.tools_source, initial_state={**state,
                                 "tickets": tickets})  # fmt: skip
    refused = env.episode().call("close_ticket", {"ticket_id": "T-1"})
    assert not refused.ok and "already in closed status" in refused.content
    assert env.episode().call("close_ticket", {"ticket_id": "T-2"}).ok


def test_every_status_listed_after_that_is_is_allowed() -> None:
    """ "Scrap a crate that is `sealed`, `open` or `held`, giving a reason": all three statuses
    allowed (the first alone refused valid calls on the other two)."""
    from autoforge.env.artifact.spec import Attribute, CollectionSchema
    from autoforge.lexicon.rules import _status_rule

    statuses = ["open", "sealed", "held", "scrapped"]
    crates = CollectionSchema(name="crates", primary_key="crate_id", attributes=[
        Attribute(name="crate_id", type="id"),
        Attribute(name="status", type="string", enum=statuses)])  # fmt: skip
    spec = ToolSpec(name="scrap_crate", description="Scrap a crate.")
    said = "Staff may scrap a crate that is `sealed`, `open` or `held`, giving a reason."
    rule = _status_rule(spec, crates, "crate_id", said, "description", None)
    assert rule is not None and rule.allowed == ["sealed", "open", "held"]


def test_only_once_followed_by_a_clause_means_only_when() -> None:
    """ "(only once its expiry date is behind us)" is a time, not a one-per rule."""
    from autoforge.tooldocs import ONCE_ONLY

    assert ONCE_ONLY.search("Each voucher can be redeemed only once.")
    assert ONCE_ONLY.search("at most once per member")
    assert not ONCE_ONLY.search("taken out as expired (only once its expiry date is behind us)")
    assert not ONCE_ONLY.search("released only once the test is negative")
