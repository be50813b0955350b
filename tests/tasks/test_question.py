"""The template writer: only user-known facts, all of them, selections described not revealed."""

from __future__ import annotations

from typing import Any

from autoforge.tasks.blueprint import ReasonNode
from autoforge.tasks.model import UserScenario
from autoforge.tasks.question import (
    ScenarioRequest,
    TemplateWriter,
    fact_text,
    missing_facts,
)


def test_template_scenarios_carry_facts_not_answers(generated: Any, bookstore_env: Any) -> None:
    tasks, _ = generated
    for task in tasks:
        scenario = task.scenario
        assert scenario.writer == "template" and scenario.intent and scenario.persona
        assert not missing_facts(scenario, task.user_facts)
        text = scenario.question
        # values the agent must find out are not given away
        for out in task.required_outputs:
            if out.text not in {fact_text(v) for v in task.user_facts.values()}:
                assert f" {out.text} " not in f" {text} ", (out, text)
        # every state-changing call is asked for
        for call in task.gold_calls:
            if call.writes:
                assert call.name.replace("_", " ") in text
        # reasoning selections are described by their criterion
        for node in task.blueprint.reasoning:
            if node.spec.op in ("argmax", "argmin") and node.id not in task.blueprint.outputs:
                best = "highest" if node.spec.op == "argmax" else "lowest"
                assert best in text


def test_writer_is_deterministic(generated: Any, bookstore_env: Any) -> None:
    task = generated[0][0]
    request = ScenarioRequest(
        spec=bookstore_env.spec, blueprint=task.blueprint, facts=task.user_facts, seed=task.seed
    )
    assert TemplateWriter().write(request) == task.scenario


def test_missing_facts() -> None:
    scenario = UserScenario(intent="i", question="My email is a@b.c; ship to 1 Elm St, Lyon.")
    facts = {"email": "a@b.c", "address": {"street": "1 Elm St", "city": "Lyon"}, "rating": 4}
    assert missing_facts(scenario, facts) == ["rating"]
    partial = {"address": {"street": "1 Elm St", "city": "Paris"}}
    assert missing_facts(scenario, partial) == ["address"]
    assert fact_text(19.5) == "19.50" and fact_text({"a": "x", "b": None}) == "x"


def test_reasoning_nodes_have_nouns(generated: Any) -> None:
    for task in generated[0]:
        for node in task.blueprint.nodes:
            if isinstance(node, ReasonNode):
                assert node.noun and node.noun != "s"
