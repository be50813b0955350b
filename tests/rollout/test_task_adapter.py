"""Tasks of ``autoforge.tasks`` fit the rollout through ``from_task_model``."""

from __future__ import annotations

from types import SimpleNamespace

from autoforge.rollout.task import RolloutTask, TaskSpec, as_rollout_task, from_task_model


def fake_task_model() -> SimpleNamespace:
    """The shape of ``autoforge.tasks.model.Task`` (kept duck-typed on purpose)."""
    return SimpleNamespace(
        id="bk-1",
        env_id="bookstore",
        initial_state={"books": {}},
        final_state_hash="f" * 64,
        required_outputs=[SimpleNamespace(text="19.90", alternatives=["19.9"])],
        scenario=SimpleNamespace(
            intent="Buy a book",
            question="Can I order Dune?",
            persona=None,
            known_info="Your id is u1.",
            unknown_info="the price",
        ),
        user_facts={"user_id": "u1", "budget": 30},
        difficulty=SimpleNamespace(level=lambda: "medium"),
    )


def test_from_task_model() -> None:
    spec = from_task_model(fake_task_model())
    assert isinstance(spec, RolloutTask)
    assert spec.gold_state_hash == "f" * 64 and spec.required_outputs == ["19.90"]
    assert spec.criteria is not None and spec.criteria.output_alternatives == {"19.90": ["19.9"]}
    assert spec.user_known_facts == {"user_id": "u1", "budget": "30"}
    assert "Can I order Dune?" in spec.scenario and "the price" in spec.scenario
    assert spec.difficulty == "medium" and spec.initial_state == {"books": {}}


def test_as_rollout_task_passes_specs_through() -> None:
    spec = TaskSpec(id="a", env_id="e", scenario="s")
    assert as_rollout_task(spec) is spec
    assert as_rollout_task(fake_task_model()).id == "bk-1"


def test_real_task_model_if_constructible() -> None:
    from autoforge.tasks import model

    assert {"id", "env_id", "final_state_hash", "user_facts", "scenario"} <= set(
        model.Task.model_fields
    )
