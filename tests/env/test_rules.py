"""The environment's rules: one model and one extractor, recorded by synthesis in ``rules.json``
or, for a directory without that file, extracted from the spec when it is read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autoforge.env import (
    Attribute,
    CollectionSchema,
    DocRule,
    EnvDir,
    EnvironmentSpec,
    EnvLoadError,
    RuleSet,
    StateSchema,
)
from autoforge.examples import example_path
from autoforge.lexicon import dir_rules, environment_rules, rules_of
from autoforge.tooldocs import ToolSpec


def _bookstore_copy(tmp_path: Path) -> EnvDir:
    shutil.copytree(example_path("bookstore"), tmp_path / "env")
    return EnvDir(tmp_path / "env")


def _shipped_only() -> RuleSet:
    rule = DocRule(tool="cancel_order", kind="status", param="order_id", collection="orders",
                   attribute="status", allowed=["shipped"],
                   sentence="Only shipped orders can be cancelled.", source="policy")  # fmt: skip
    return RuleSet(rules=[rule])


def test_an_env_dir_without_rules_gets_them_from_its_own_docs() -> None:
    env_dir = EnvDir(example_path("bookstore"))  # hand-written: no rules.json
    assert not env_dir.rules_path.exists()
    assert env_dir.read_rules() is None  # the environment records none
    rules = dir_rules(env_dir)  # the lexicon reads them from the docs
    assert rules.origin == "extracted"
    by = {(r.tool, r.kind): r for r in rules.rules}
    assert by[("cancel_order", "status")].allowed == ["pending"]
    assert "still pending" in by[("cancel_order", "status")].sentence
    assert by[("add_review", "unique")].fields == ["customer_id", "book_id"]
    assert all(r.sentence for r in rules.rules)
    # the artifact round-trips (a one-sided schema bound is no infinite number in JSON)
    assert RuleSet.model_validate_json(rules.model_dump_json()) == rules


def test_recorded_rules_are_what_reading_and_loading_give(tmp_path: Path) -> None:
    env_dir = _bookstore_copy(tmp_path)
    parts = env_dir.read()
    env_dir.write(parts.spec, parts.tools_source, parts.initial_state, _shipped_only())
    assert env_dir.read_rules() == _shipped_only()
    env = env_dir.load(trusted=True)
    assert env.recorded_rules == _shipped_only() == rules_of(env)
    assert rules_of(env).origin == "synthesis"
    assert [p.name for p in env_dir.artifact_files()][-1] == EnvDir.RULES  # copied, packaged
    env_dir.write(parts.spec, parts.tools_source, parts.initial_state)  # no rules: file removed
    assert not env_dir.rules_path.exists()
    assert env_dir.load(trusted=True).recorded_rules is None
    assert rules_of(env_dir.load(trusted=True)).origin == "extracted"


def test_a_bad_rules_file_names_the_file_and_the_fix(tmp_path: Path) -> None:
    env_dir = _bookstore_copy(tmp_path)
    env_dir.rules_path.write_text(json.dumps({"version": 2, "rules": []}), encoding="utf-8")
    with pytest.raises(EnvLoadError, match=r"rules\.json: rules version 2.*delete the file"):
        env_dir.read_rules()
    env_dir.rules_path.write_text(json.dumps({"version": 1, "rules": [{"tool": "x"}]}))
    with pytest.raises(EnvLoadError, match=r"rules\.json: invalid rules at rules\.0"):
        env_dir.load(trusted=True)


def _orders_spec(policy: str) -> EnvironmentSpec:
    orders = CollectionSchema(name="orders", primary_key="order_id", attributes=[
        Attribute(name="order_id"),
        Attribute(name="status", enum=["pending", "delivered", "cancelled"]),
    ])  # fmt: skip
    params = {"type": "object", "properties": {"order_id": {"type": "string"}},
              "required": ["order_id"]}  # fmt: skip
    tools = [ToolSpec(name=n, description="", parameters=params, access="write")
             for n in ("return_order", "exchange_order", "cancel_order")]  # fmt: skip
    return EnvironmentSpec(name="shop", policy=policy, tools=tools,
                           state_schema=StateSchema(collections=[orders]))  # fmt: skip


def test_a_conditional_policy_sentence_binds_only_the_action_it_names() -> None:
    policy = (
        "An order can only be returned if its status is 'delivered', and you should check it "
        "first. An order can only be cancelled if its status is 'pending'."
    )
    rules = environment_rules(_orders_spec(policy)).rules
    found = {r.tool: (r.allowed, r.sentence[:30]) for r in rules if r.kind == "status"}
    assert found == {
        "return_order": (["delivered"], "An order can only be returned "),
        "cancel_order": (["pending"], "An order can only be cancelled"),
    }  # exchange_order: no sentence names its action


def _loans_spec(renew: str, close: str, policy: str = "") -> EnvironmentSpec:
    """A made-up docs-only domain: the status of a loan is no enum and there are no records,
    so the only statuses known are those the docs name."""
    loans = CollectionSchema(name="loans", primary_key="loan_id", attributes=[
        Attribute(name="loan_id", type="id"), Attribute(name="status"),
    ])  # fmt: skip
    params = {"type": "object", "properties": {"loan_id": {"type": "string"}},
              "required": ["loan_id"]}  # fmt: skip
    tools = [ToolSpec(name=n, description=d, parameters=params, access="write")
             for n, d in (("renew_loan", renew), ("close_loan", close))]  # fmt: skip
    return EnvironmentSpec(name="library", policy=policy, tools=tools,
                           state_schema=StateSchema(collections=[loans]))  # fmt: skip


def test_statuses_the_docs_name_are_the_values_of_an_open_status() -> None:
    """No enum, no data: "in returned status", "status is not closed" and "status changes to
    overdue" name the statuses; a refusal naming them becomes a rule of the tool it names."""
    spec = _loans_spec(
        "Renew a loan. Prohibited from renewing loans that are already in returned status.",
        "Close a loan, status changes to closed.\n\nPreconditions:\n"
        "    - ensure loan status is not lost",
    )
    from autoforge.lexicon import docs_statuses, tool_scope

    schema = spec.state_schema
    scoped = [(t, tool_scope(t, schema).collection) for t in spec.tools]
    assert docs_statuses(scoped) == {"loans": ["returned", "closed", "lost"]}
    found = {r.tool: (r.allowed, r.forbidden) for r in environment_rules(spec).rules}
    assert found == {"renew_loan": ([], ["returned"]), "close_loan": ([], ["lost"])}


def test_a_named_status_binds_only_the_action_the_sentence_names() -> None:
    """The refused verb must be the tool's: renewing is no rule of ``close_loan``; a policy
    sentence about the records names their statuses too ("only renew loans that are in
    active status")."""
    spec = _loans_spec(
        "Renew a loan.",
        "Close a loan. Prohibited from renewing loans that are already in returned status.",
        policy="You may only renew loans that are in active status.",
    )
    found = {r.tool: (r.allowed, r.forbidden, r.source) for r in environment_rules(spec).rules}
    assert found == {"renew_loan": (["active"], [], "policy")}


def test_a_precondition_on_a_status_the_docs_never_name_is_no_rule() -> None:
    """ "Loan status must be Active" is a rule once some sentence names Active a status; a
    value only the rule itself lists ("must be Overdue") is not known to be one."""
    spec = _loans_spec(
        "Renew a loan.\n\nChecks: Loan status must be Active.\nLogic: Sets loan status to Active.",
        "Close a loan.\n\nChecks: Loan status must be Overdue.\nLogic: Sets loan status to Closed.",
    )
    found = {r.tool: (r.allowed, r.forbidden) for r in environment_rules(spec).rules}
    assert found == {"renew_loan": (["Active"], [])}


def test_an_aside_or_an_exception_names_no_rule_of_its_action() -> None:
    """A bracketed aside ("(... it must be cancelled instead)") and what follows "but"
    ("... cannot be returned, but can still be cancelled") do not make the sentence a rule of
    the action they name; the sentence's own action keeps its rule."""
    for policy, rule in (
        (
            "Only 'pending' orders can be exchanged (a late order is refused; it must be "
            "cancelled instead).",
            {"exchange_order": (["pending"], [])},
        ),
        (
            "'delivered' orders cannot be returned, but can still be cancelled.",
            {"return_order": ([], ["delivered"])},
        ),
    ):
        rules = environment_rules(_orders_spec(policy)).rules
        assert {r.tool: (r.allowed, r.forbidden) for r in rules if r.kind == "status"} == rule


def test_a_remedy_after_a_dash_and_an_already_reached_state_name_no_rule() -> None:
    """What follows a dash is a remedy ("cannot be returned - cancel it first" is no rule of
    cancelling), and "(one that is already cancelled fails)" names the failing state, not the
    statuses the call takes."""
    rules = environment_rules(
        _orders_spec("A delivered order cannot be returned \u2014 cancel it first.")
    ).rules
    assert {r.tool: r.forbidden for r in rules if r.kind == "status"} == {
        "return_order": ["delivered"]
    }
    spec = _orders_spec("")
    spec.tools[
        2
    ].description = "Cancels a `pending` order (cancelling one that is already cancelled is a 409)."
    rules = environment_rules(spec).rules
    assert [r.allowed for r in rules if r.kind == "status" and r.tool == "cancel_order"] == []
