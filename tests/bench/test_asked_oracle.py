"""The asked-only oracle (:class:`autoforge.rollout.players.AskedOracle`) acts as a support agent:
it asks for each fact its gold calls need that the user has not given, one question naming the
fact and never its value, then performs the gold calls once they were asked for."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.rollout import STOP_TOKEN, EpisodeConfig, ScriptedUser
from autoforge.rollout.goals import has_value, task_goals
from autoforge.rollout.players import (
    FACT_ASKS,
    AskedOracle,
    RoutedClient,
    fact_question,
    first_uses,
)
from autoforge.rollout.runner import RolloutDeps, bind_environment, rollout_episode
from autoforge.rollout.user_guards import details_asked, task_request
from autoforge.tasks import Task, generate_tasks


@pytest.fixture(scope="module")
def env() -> Environment:
    return Environment.load(example_path("bookstore"))


@pytest.fixture(scope="module")
def tasks(env: Environment) -> list[Task]:
    made, _ = generate_tasks(env, n=12, difficulty="medium", seed=0)
    return made


def _email_task(tasks: list[Task]) -> tuple[Task, str, str]:
    """A task whose request states a fact a gold call needs in a sentence of its own ("My
    email is ..."), with that request less the sentence: the fact's name and value."""
    for task in tasks:
        request = task_request(task.scenario.as_text()) or ""
        for goal in (g for g in task_goals(task) if g.kind == "fact"):
            (value,) = goal.values if len(goal.values) == 1 else ("",)
            needed = any(has_value(str(a.arguments), value) for a in task.gold_calls if value)
            said = [s for s in re.split(r"(?<=[.?!])\s+", request) if has_value(s, value)]
            if needed and len(said) == 1 and not said[0].endswith("?"):
                return task, request.replace(said[0], "").strip(), value
    raise AssertionError("no bookstore task states a needed fact in a sentence of its own")


def _label(task: Task, value: str) -> str:
    """The first word of the name of the fact that holds ``value`` ("email")."""
    fact = next(g for g in task_goals(task) if g.kind == "fact" and value in g.values)
    return fact.key.removeprefix("fact:").split("_")[0]


def _chat(oracle: AskedOracle, user_texts: list[str]) -> dict[str, Any]:
    messages = [{"role": "system", "content": "policy"}]
    messages += [{"role": "user", "content": t} for t in user_texts]
    reply = asyncio.run(oracle.chat(messages, purpose="agent_turn", role="agent"))
    return reply.message


def test_asks_for_a_missing_fact_before_acting(tasks: list[Task]) -> None:
    task, request, value = _email_task(tasks)
    oracle = AskedOracle(task)
    message = _chat(oracle, [request])
    assert not message.get("tool_calls"), "acted before the user gave a fact it needs"
    question = str(message["content"])
    assert question.endswith("?") and not has_value(question, value)
    assert _label(task, value) in question.lower()


def test_never_states_a_fact_value(tasks: list[Task]) -> None:
    questions = 0
    for task in tasks:
        for goal in (g for g in task_goals(task) if g.kind == "fact"):
            for again in (False, True):
                text = fact_question(goal, again=again)
                assert not any(has_value(text, v) for v in goal.values), (goal, text)
                name = goal.key.removeprefix("fact:")  # a user reads the question sentence
                assert details_asked(text, [name], strict=True), (goal, text)
                questions += 1
    assert questions >= 24


def test_facts_are_due_before_acting_or_before_their_write(tasks: list[Task]) -> None:
    due_later = 0
    for task in tasks:
        facts = [g for g in task_goals(task) if g.kind == "fact"]
        calls = [a for a in task.gold_calls if a.requestor != "user"]
        for goal in facts:
            at = first_uses(facts, calls)[goal.key]
            assert not any(has_value(str(c.arguments), goal.values[0]) for c in calls[:at])
            if at:
                due_later += 1
                assert calls[at].writes and has_value(str(calls[at].arguments), goal.values[0])
    assert due_later  # a rating or a quantity is asked when its write is due


def test_asks_at_most_fact_asks_times_then_acts(tasks: list[Task]) -> None:
    task, request, value = _email_task(tasks)
    oracle = AskedOracle(task)
    label = _label(task, value)
    said = [request]
    replies = []
    for _ in range(FACT_ASKS + len(oracle.calls) + 2):
        replies.append(_chat(oracle, said))
        said.append("Okay.")
    texts = [str(r.get("content") or "") for r in replies]
    assert sum(label in t.lower() for t in texts) == FACT_ASKS  # asked again, then no more
    assert sum(bool(r.get("tool_calls")) for r in replies) == len(oracle.calls)


def test_performs_the_gold_calls_after_the_fact_is_given(
    env: Environment, tasks: list[Task]
) -> None:
    task, request, value = _email_task(tasks)
    user = ScriptedUser([request, f"Sure, it is {value}.", f"Thanks, that is all. {STOP_TOKEN}"])
    deps = RolloutDeps(
        client=RoutedClient({"agent": AskedOracle(task)}, default=None),
        env_factory=lambda t: bind_environment(env, t),
        user_factory=lambda t, seed: user,
    )
    traj = asyncio.run(rollout_episode(task, 0, 0, EpisodeConfig(), deps))
    gold = [a.name for a in task.gold_calls if a.requestor != "user"]
    assert [c.name for c in traj.tool_calls] == gold
    # between the request and the first call: the question for the fact, without its value
    roles = [m.get("role") for m in traj.messages]
    first_call = next(i for i, m in enumerate(traj.messages) if m.get("tool_calls"))
    between = traj.messages[roles.index("user") + 1 : first_call]
    asked = [str(m.get("content") or "") for m in between if m.get("role") == "assistant"]
    label = _label(task, value)
    assert asked and label in asked[0].lower() and not has_value(asked[0], value)
    assert any(value in str(m.get("content")) for m in between if m.get("role") == "user")
    assert traj.reward == 1.0
