"""``run_evaluation``: a whole evaluation as one library call (what ``autoforge eval`` runs).

Kept apart from :mod:`autoforge.bench.evaluation` because it also renders the viewer
(:mod:`autoforge.bench.html`), which reads that module's models.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

from autoforge.bench.diffs import episode_diff
from autoforge.bench.evaluation import (
    EvalOutput,
    EvalSettings,
    check_resumable,
    default_concurrency,
    run_info,
    run_trials,
    summarize,
    write_outputs,
)
from autoforge.bench.html import render_eval_html
from autoforge.bench.targets import EvalTarget
from autoforge.tasks import Task


def run_evaluation(
    settings: EvalSettings,
    target: EvalTarget,
    tasks: Sequence[Task],
    out_dir: Path,
    *,
    trials: int = 1,
    seed: int = 0,
    executor: str = "local",
    concurrency: int | None = None,
    exclude_user_errors: bool = False,
    restart: bool = False,
) -> EvalOutput:
    """Evaluate an agent on ``tasks`` of ``target``: run or resume ``trials`` episodes per task
    in ``out_dir``, then write ``eval.json`` and ``eval.html`` and return the summary (pass^k,
    episode counts). What ``autoforge eval`` runs; ``concurrency`` None: the endpoint's
    capacity (:func:`default_concurrency`)."""
    check_resumable(out_dir, settings, restart)
    started, clock = time.time(), time.perf_counter()
    trajs, n_run = asyncio.run(
        run_trials(
            settings, tasks, out_dir, trials=trials, seed=seed, executor=executor,
            concurrency=concurrency or default_concurrency(settings), env=target.env,
        )
    )  # fmt: skip
    run = run_info(
        settings, target.env.spec.name, target.tasks_source, trials=trials, seed=seed,
        executor=executor, started_at=started, wall_s=time.perf_counter() - clock,
        episodes_run=n_run,
    )  # fmt: skip
    output = summarize(trajs, run, exclude_user_errors=exclude_user_errors, skipped=target.skipped)
    by_id = {t.id: t for t in tasks}
    html = render_eval_html(
        output, trajs, lambda tr: episode_diff(target.env, by_id[tr.task_id], tr)
    )
    write_outputs(out_dir, output, html)
    return output
