"""pass^k arithmetic against hand-computed values, exclusions and grouping."""

from __future__ import annotations

import pytest

from autoforge.bench.passk import EvalReport, evaluate, pass_hat_k, pass_hat_k_task
from autoforge.rollout.trajectory import EndReason, Trajectory


def test_single_task_values() -> None:
    # n=4, c=3: pass^1 = 3/4, pass^2 = C(3,2)/C(4,2) = 3/6, pass^3 = 1/4, pass^4 = 0
    assert [pass_hat_k_task(4, 3, k) for k in (1, 2, 3, 4)] == [0.75, 0.5, 0.25, 0.0]
    assert pass_hat_k_task(5, 5, 5) == 1.0
    with pytest.raises(ValueError):
        pass_hat_k_task(3, 4, 1)
    with pytest.raises(ValueError):
        pass_hat_k_task(3, 1, 4)


def test_mean_over_tasks() -> None:
    # task A: n=4,c=3 -> .75,.5,.25,0 ; task B: n=4,c=1 -> .25,0,0,0
    out = pass_hat_k([(4, 3), (4, 1)])
    assert out == {1: 0.5, 2: 0.25, 3: 0.125, 4: 0.0}


def test_tasks_with_fewer_trials_only_count_for_small_k() -> None:
    # A: n=4,c=4 ; B: n=2,c=1 -> k=1: (1 + .5)/2, k=2: (1 + 0)/2, k=3,4: A only
    out = pass_hat_k([(4, 4), (2, 1)])
    assert out == {1: 0.75, 2: 0.5, 3: 1.0, 4: 1.0}
    assert pass_hat_k([]) == {}
    assert pass_hat_k([(0, 0)]) == {}


def t(task: str, reward: float | None, **kw: object) -> Trajectory:
    kw.setdefault("end_reason", EndReason.USER_STOP)
    return Trajectory(task_id=task, reward=reward, **kw)  # type: ignore[arg-type]


def test_evaluate_excludes_infra_and_counts() -> None:
    trajs = [
        t("a", 1.0, domain="retail", difficulty="easy"),
        t("a", 1.0, domain="retail", difficulty="easy"),
        t("a", 0.0, domain="retail", difficulty="easy"),
        t(
            "a",
            None,
            domain="retail",
            infra_error="LLMFailure: down",
            end_reason=EndReason.LLM_FAILURE,
        ),
        t("b", 0.0, domain="airline", difficulty="hard", user_error=True),
        t("b", 1.0, domain="airline", difficulty="hard"),
        t("b", None, domain="airline", difficulty="hard"),  # unscored (NL not judged)
    ]
    rep = evaluate(trajs)
    assert isinstance(rep, EvalReport)
    assert (rep.n_trials, rep.n_valid_trials, rep.n_infra_errors) == (7, 5, 1)
    assert (rep.n_user_errors, rep.n_unscored, rep.n_tasks) == (1, 1, 2)
    # a: n=3,c=2 -> 2/3, 1/3, 0 ; b: n=2,c=1 -> 1/2, 0
    assert rep.pass_hat_k[1] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert rep.pass_hat_k[2] == pytest.approx((1 / 3 + 0) / 2)
    assert rep.pass_hat_k[3] == pytest.approx(0.0)
    assert rep.n_tasks_per_k == {1: 2, 2: 2, 3: 1}
    assert rep.by_domain["retail"].pass_hat_k[1] == pytest.approx(2 / 3)
    assert rep.by_difficulty["hard"].pass_hat_k == {1: 0.5, 2: 0.0}
    excl = evaluate(trajs, exclude_user_errors=True)
    assert excl.by_domain["airline"].pass_hat_k == {1: 1.0}
    assert excl.excluded_user_errors and excl.n_valid_trials == 4


def test_eval_json_round_trip() -> None:
    rep = evaluate([t("a", 1.0), t("a", 0.0)])
    again = EvalReport.model_validate_json(rep.model_dump_json())
    assert again.pass_hat_k == {1: 0.5, 2: 0.0} and again.schema_version == 1
