"""``run_forge``: run the stages in order, skipping the finished ones, recording everything.

For each stage the runner compares the stage's input fingerprint with the one in ``run.json``:
unchanged and ``done`` (and its artifacts still there, and nothing left to resume) means skip;
changed means reset and redo; ``failed``/``partial``/``running`` (an interrupted session) means
run again, which resumes where the stage's own store allows (synthesis keeps accepted tools,
task generation appends to ``tasks.jsonl``). Time and LLM tokens are added to the stage's record
over sessions, and the manifest is saved after every transition. The report stage runs last in
every session, also after ``--until`` or a failure, so ``report.html`` always shows the run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from autoforge.errors import USER_FIXABLE, UserError
from autoforge.forge.context import (
    ForgeContext,
    ForgeError,
    ForgeReporter,
    Inputs,
    NullReporter,
    Outcome,
    resolve_inputs,
)
from autoforge.forge.layout import STAGES, ForgeOptions, RunLayout
from autoforge.forge.manifest import (
    RunManifest,
    StageRecord,
    load_manifest,
    now_iso,
    save_manifest,
)
from autoforge.forge.outlock import out_lock
from autoforge.forge.stages import STAGE_DEFS, Stage
from autoforge.llm import LLMClient
from autoforge.tasks import TaskHooks

#: Failures a user can act on: reported in one line (with the stage), no traceback.
_EXPECTED = USER_FIXABLE


def _should_skip(ctx: ForgeContext, stage: Stage, rec: StageRecord, fp: str) -> bool:
    if rec.status != "done" or rec.fingerprint != fp:
        return False
    missing = [a for a in rec.artifacts if not (ctx.layout.root / a).exists()]
    if missing:
        ctx.reporter.note(f"{stage.name}: {missing[0]} is missing; running the stage again")
        return False
    return not stage.incomplete(ctx, rec)


def _begin(ctx: ForgeContext, stage: Stage, rec: StageRecord, fp: str) -> None:
    if rec.fingerprint and rec.fingerprint != fp and rec.status != "pending":
        if not ctx.ran and stage.name != "report":  # after an upstream rerun this is expected
            ctx.reporter.note(f"{stage.name}: inputs changed since the last run; redoing it")
        stage.reset(ctx)
    ctx.ran.append(stage.name)
    rec.fingerprint = fp
    rec.status = "running"
    rec.sessions += 1
    rec.started_at = now_iso()
    rec.error = None
    rec.skipped_last = False
    save_manifest(ctx.layout.root, ctx.manifest)


def _finish(rec: StageRecord, outcome: Outcome) -> None:
    rec.status = outcome.status
    rec.detail = outcome.detail
    rec.artifacts = outcome.artifacts
    rec.finished_at = now_iso()


async def run_stage(ctx: ForgeContext, stage: Stage) -> StageRecord:
    """Run (or skip) one stage and record it in the manifest."""
    rec = ctx.manifest.stage(stage.name)
    fp = stage.fingerprint(ctx)
    if _should_skip(ctx, stage, rec, fp):
        rec.skipped_last = True
        ctx.reporter.skip(stage.name, str(rec.detail.get("summary", "")))
        return rec
    _begin(ctx, stage, rec, fp)
    start, before = time.monotonic(), ctx.tokens()
    ctx.reporter.start(stage.name, None)
    try:
        outcome = await stage.run(ctx, rec)
    except (KeyboardInterrupt, asyncio.CancelledError):
        rec.status = "interrupted"  # not a failure: rerunning resumes it
        raise
    except BaseException as exc:
        rec.status = "failed"
        rec.error = f"{type(exc).__name__}: {exc}".strip()
        raise
    else:
        outcome.detail.setdefault("summary", outcome.summary)
        _finish(rec, outcome)
    finally:
        rec.seconds = round(rec.seconds + time.monotonic() - start, 3)
        rec.tokens = rec.tokens + (ctx.tokens() - before)
        save_manifest(ctx.layout.root, ctx.manifest)
    ctx.reporter.finish(stage.name, outcome.summary)
    return rec


def _stages(until: str | None) -> list[str]:
    if until is None:
        return list(STAGES)
    if until not in STAGES:
        raise UserError(f"--until {until!r}: not a stage; stages: {', '.join(STAGES)}")
    names = list(STAGES[: STAGES.index(until) + 1])
    return names if "report" in names else [*names, "report"]


async def _write_report_after_failure(ctx: ForgeContext) -> None:
    try:
        await run_stage(ctx, STAGE_DEFS["report"])
    except Exception as exc:  # the original failure matters more than the report's
        ctx.reporter.note(f"report not written: {type(exc).__name__}: {exc}")


async def run_forge(
    options: ForgeOptions,
    *,
    client_factory: Callable[[], LLMClient] | None = None,
    reporter: ForgeReporter | None = None,
    hooks_factory: Callable[[ForgeContext], TaskHooks] | None = None,
) -> RunManifest:
    """Run (or resume) the forge pipeline into ``options.out``; returns the final manifest.

    ``client_factory`` builds the LLM client when a stage first needs one (synthesis).
    Expected failures are raised as :class:`ForgeError` naming the stage; rerunning the same
    command resumes from there. A second run into the same ``out`` while this one holds it is
    refused with :class:`~autoforge.forge.outlock.OutDirLocked` (a user error: exit status 2).
    """
    names = _stages(options.until)
    inputs = resolve_inputs(options)
    layout = RunLayout(options.out)
    with out_lock(layout.root):
        return await _run_locked(options, names, inputs, layout, client_factory, reporter,
                                 hooks_factory)  # fmt: skip


async def _run_locked(
    options: ForgeOptions,
    names: list[str],
    inputs: Inputs,
    layout: RunLayout,
    client_factory: Callable[[], LLMClient] | None,
    reporter: ForgeReporter | None,
    hooks_factory: Callable[[ForgeContext], TaskHooks] | None,
) -> RunManifest:
    """The run itself, while this process holds the lock of ``--out``."""
    manifest = load_manifest(layout.root)
    manifest.sessions += 1
    manifest.options = options.summary()
    ctx = ForgeContext(options, inputs, layout, manifest, reporter or NullReporter(),
                       client_factory, hooks_factory)  # fmt: skip
    current = names[0]
    try:
        for current in names:
            await run_stage(ctx, STAGE_DEFS[current])
    except _EXPECTED as exc:
        await _write_report_after_failure(ctx)
        raise ForgeError(
            f"stage {current} failed: {exc}; once fixed, rerun the same command to resume "
            "(finished stages are kept)"
        ) from exc
    finally:
        await ctx.aclose()
    return manifest
