"""The stages of ``autoforge forge``: what each one reads, writes and fingerprints.

Every stage is a :class:`Stage` with a ``fingerprint`` (a digest of the inputs it depends on:
options and the *content* of the upstream artifacts, so an edited environment redoes the graph
and the tasks), a ``run`` that writes its artifacts under RUN_DIR and returns figures for the
manifest, and optionally ``incomplete`` (a done stage that must still be resumed, e.g. more
tasks were asked for) and ``reset`` (clear a stage whose inputs changed).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoforge.env import EnvDir
from autoforge.errors import install_hint
from autoforge.forge.context import ForgeContext, ForgeError, Outcome, path_digest
from autoforge.forge.generation import generate_into
from autoforge.forge.manifest import StageRecord, fingerprint, read_json, write_atomic
from autoforge.forge.summary import failed_tools
from autoforge.forge.verify import VerifyReport, verify_task
from autoforge.synth import SynthOptions
from autoforge.tasks import TaskSet
from autoforge.tooldocs import DocWarning, ToolDocs, load_docs


@dataclass(frozen=True)
class Stage:
    """One stage: name, input fingerprint, run, and the optional resume hooks."""

    name: str
    fingerprint: Callable[[ForgeContext], str]
    run: Callable[[ForgeContext, StageRecord], Awaitable[Outcome]]
    incomplete: Callable[[ForgeContext, StageRecord], bool] = lambda ctx, rec: False
    reset: Callable[[ForgeContext], None] = lambda ctx: None


def _json(path: Any, value: Any) -> None:
    write_atomic(path, json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n")


# ---------------------------------------------------------------------------------- ingest


def _fp_ingest(ctx: ForgeContext) -> str:
    return fingerprint(["ingest", ctx.inputs.signature(), ctx.options.doc_format])


def load_run_docs(ctx: ForgeContext) -> ToolDocs:
    """The ToolDocs of this run: from the docs (+ policy file), or from the given env's spec."""
    inputs = ctx.inputs
    if inputs.env_dir is not None:
        spec = EnvDir(inputs.env_dir).read_spec()
        docs = ToolDocs(
            domain=spec.name, description=spec.description, policy=spec.policy or None,
            tools=spec.tools,
        )  # fmt: skip
    else:
        docs = load_docs(inputs.docs, format=ctx.options.doc_format, llm=ctx.client_factory)
    if inputs.policy is not None:
        docs = docs.model_copy(update={"policy": inputs.policy.read_text(encoding="utf-8")})
    return docs


async def _run_ingest(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DocWarning)
        docs = load_run_docs(ctx)
    write_atomic(ctx.layout.tools, docs.model_dump_json(indent=2) + "\n")
    for warning in caught:
        if issubclass(warning.category, DocWarning):
            ctx.reporter.note(f"ingest: {warning.message}")
    access = [t.access or "unknown" for t in docs.tools]
    detail = {
        "domain": docs.domain,
        "tools": len(docs.tools),
        "read": access.count("read"),
        "write": access.count("write"),
        "policy_chars": len(docs.policy or ""),
        "warnings": [str(w.message) for w in caught if issubclass(w.category, DocWarning)],
        "source": "env" if ctx.inputs.env_dir else [str(p) for p in ctx.inputs.docs],
    }
    summary = f"{len(docs.tools)} tools from {docs.domain}"
    return Outcome(detail=detail, artifacts=["tools.json"], summary=summary)


# ----------------------------------------------------------------------------- environment


_SYNTH_EXTRA = ("use_templates", "fallback", "policy", "conventions", "max_tokens")


def _fp_environment(ctx: ForgeContext) -> str:
    o = ctx.options
    s = o.synth
    knobs: list[Any] = [s.max_repairs, s.design_rounds, s.llm_tests, sorted(s.only), s.name]
    default = SynthOptions()
    knobs += [  # the other options, only when set (fingerprints of earlier runs stay valid)
        (k, getattr(s, k)) for k in _SYNTH_EXTRA if getattr(s, k) != getattr(default, k)
    ]
    if o.rules_only:
        knobs.append("rules only")  # a later run with a model redoes the synthesis
    return fingerprint(["environment", _fp_ingest(ctx), ctx.inputs.signature(), knobs])


def _synth_counts(report: Any) -> dict[str, Any]:
    return {
        "counts": report.counts(),
        "tools_status": {t.name: t.status for t in report.tools},
        "tools_source": {t.name: t.source for t in report.tools},
        "resumed": report.resumed,
        "synth_seconds": report.wall_s,
    }


async def _synthesize(ctx: ForgeContext) -> dict[str, Any]:
    from autoforge.synth import synthesize

    docs = ToolDocs.model_validate_json(ctx.layout.tools.read_text(encoding="utf-8"))
    data = None
    if ctx.inputs.data is not None:
        data = json.loads(ctx.inputs.data.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ForgeError(f"--data {ctx.inputs.data}: expected a JSON object of collections")
    synth = ctx.options.synth
    options = dataclasses.replace(synth, name=synth.name or docs.domain, only=list(synth.only))
    report = await synthesize(
        docs, ctx.layout.env, ctx.client(), data=data, options=options,
        reporter=ctx.reporter.synth(),
    )  # fmt: skip
    detail = {"mode": report.mode, "model": report.model, **_synth_counts(report)}
    detail["rules_only"] = report.rules_only
    detail["conformance"] = report.conformance or {}
    if report.model_readings:
        detail["model_readings"] = report.readings_line()
    return detail


def _copy_env(ctx: ForgeContext) -> dict[str, Any]:
    from autoforge.synth import conformance

    source = ctx.inputs.env_dir
    assert source is not None
    target = ctx.layout.env
    if source.resolve() != target.resolve():
        if target.exists():
            shutil.rmtree(target)
        ignore = shutil.ignore_patterns("__pycache__", EnvDir.SYNTH_STORE)
        shutil.copytree(source, target, ignore=ignore)
    return {"mode": "given", "source": str(source), "conformance": conformance(target)}


async def _run_environment(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    detail = _copy_env(ctx) if ctx.inputs.env_dir is not None else await _synthesize(ctx)
    check = detail.get("conformance") or {}
    _json(ctx.layout.check, check)
    try:
        env = ctx.layout.env_dir.load()
    except Exception as exc:
        raise ForgeError(f"the environment in {ctx.layout.env} does not load: {exc}") from None
    if not env.spec.tools:
        failed = failed_tools(read_json(ctx.layout.env_dir.report_path))
        named = "; ".join(f"{name}: {why}" for name, why in failed[:3])
        raise ForgeError(
            "the environment has no working tool"
            + (f" ({named})" if named else "")
            + "; see env/synthesis_report.json"
        )
    detail.update(
        name=env.spec.name,
        tools=len(env.spec.tools),
        collections=len(env.spec.state_schema.collections),
        initial_records=sum(len(v) for v in env.initial_state.values() if isinstance(v, dict)),
    )
    summary = _environment_summary(env.spec.name, len(env.spec.tools), detail, check)
    artifacts = [ctx.layout.rel(ctx.layout.env_dir.spec_path),
                 ctx.layout.rel(ctx.layout.env_dir.tools_path), "check.json"]  # fmt: skip
    return Outcome(detail=detail, artifacts=artifacts, summary=summary)


def _environment_summary(
    name: str, tools: int, detail: dict[str, Any], check: dict[str, Any]
) -> str:
    """One line: the tools that work, the ones that failed by name, the check's verdict on
    the environment as built (never "passed" without saying a documented tool is missing)."""
    statuses = detail.get("tools_status") or {}
    failed = [t for t, status in statuses.items() if status == "failed"]
    verdict = "passed" if check.get("ok") else "FAILED"
    if not failed:
        return f"{name}: {tools} tools, conformance check {verdict}"
    documented = max(len(statuses), tools)
    return (f"{name}: {tools} of {documented} documented tools work, FAILED: "
            f"{', '.join(failed)}; conformance check of the rest {verdict}")  # fmt: skip


# ---------------------------------------------------------------------------------- graph


def _fp_graph(ctx: ForgeContext) -> str:
    judge = getattr(ctx.hooks().edge_judge, "name", "rules")
    return fingerprint(["graph", ctx.env_digest(), judge])


async def _run_graph(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    from autoforge.tasks import build_graph_async, graph_svg

    spec = ctx.layout.env_dir.read_spec()
    graph = await build_graph_async(spec, ctx.hooks().edge_judge)
    graph.save(ctx.layout.graph)
    write_atomic(ctx.layout.graph_svg, graph_svg(graph))
    writes = graph.writes()
    detail = {
        "nodes": len(graph.nodes),
        "edges": len(graph.edges),
        "rejected": len(graph.rejected),
        "write_tools": len(writes),
        "read_tools": len(graph.nodes) - len(writes),
        "judge": graph.judge,
        "isolated": sorted(
            n.name
            for n in graph.nodes
            if not graph.in_edges(n.name) and not graph.out_edges(n.name)
        ),
    }
    summary = f"{len(graph.nodes)} tools, {len(graph.edges)} edges ({graph.judge})"
    return Outcome(detail=detail, artifacts=["graph.json", "graph.svg"], summary=summary)


# ---------------------------------------------------------------------------------- tasks


def _fp_tasks(ctx: ForgeContext) -> str:
    o, hooks = ctx.options, ctx.hooks()
    names = [getattr(h, "name", "default") for h in (hooks.merge_advisor, hooks.writer)]
    digests = [ctx.env_digest(), path_digest(ctx.layout.graph)]
    return fingerprint(["tasks", digests, o.difficulty, o.seed, o.state_source, names])


def _tasks_incomplete(ctx: ForgeContext, rec: StageRecord) -> bool:
    produced, target = int(rec.detail.get("produced", 0)), ctx.options.tasks
    if produced >= target:
        return False
    same_limits = rec.detail.get("target") == target and (
        rec.detail.get("max_attempts") == ctx.options.max_attempts
    )
    return not (rec.detail.get("exhausted") and same_limits)  # retrying would fail the same way


def _reset_tasks(ctx: ForgeContext) -> None:
    path = ctx.layout.tasks
    if path.exists() and path.stat().st_size:
        previous = path.with_name(path.name + ".prev")
        path.replace(previous)
        ctx.reporter.note(f"the previous tasks are kept as {previous.name}")
    path.unlink(missing_ok=True)
    ctx.layout.generation.unlink(missing_ok=True)


async def _run_tasks(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    return await generate_into(ctx, rec)


# --------------------------------------------------------------------------------- verify


def _fp_verify(ctx: ForgeContext) -> str:
    return fingerprint(["verify", ctx.env_digest(), path_digest(ctx.layout.tasks)])


async def _run_verify(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    env = ctx.layout.env_dir.load()
    tasks = TaskSet(ctx.layout.tasks).load()
    ctx.reporter.start("verify", len(tasks))
    verdicts = []
    for task in tasks:
        verdicts.append(verify_task(env, task))
        ctx.reporter.advance("verify")
    report = VerifyReport(
        total=len(verdicts), verified=sum(v.ok for v in verdicts), verdicts=verdicts
    )
    write_atomic(ctx.layout.verify, report.model_dump_json(indent=2) + "\n")
    failed = [v.task_id for v in report.failed]
    detail = {"total": report.total, "verified": report.verified, "failed": failed}
    summary = f"{report.verified}/{report.total} tasks replay to their S* hash"
    return Outcome(detail=detail, artifacts=["verify.json"], summary=summary)


# -------------------------------------------------------------------------------- exports


def _has_pyarrow() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyarrow") is not None


def _fp_exports(ctx: ForgeContext) -> str:
    digests = [ctx.env_digest(), path_digest(ctx.layout.tasks)]
    return fingerprint(["exports", digests, ctx.options.exports, _has_pyarrow()])


async def _run_exports(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    from autoforge.profiles import profile_mapping
    from autoforge.tasks import export_parquet

    if not ctx.options.exports:
        return Outcome(detail={"skipped": "--no-exports"}, summary="skipped (--no-exports)")
    tasks = TaskSet(ctx.layout.tasks).load()
    if not tasks:
        return Outcome(detail={"skipped": "no tasks"}, summary="nothing to export (no tasks)")
    spec = ctx.layout.env_dir.read_spec()
    out = ctx.layout.exports
    artifacts: list[str] = []
    detail: dict[str, Any] = {}
    for name, write in profile_mapping("TASK_EXPORTERS").items():  # benchmark layouts
        written = write(tasks, spec, out / name)
        artifacts += [f"exports/{Path(f).relative_to(out).as_posix()}" for f in written]
        detail[name] = f"exports/{name}"
    detail["tasks"] = len(tasks)
    if _has_pyarrow():
        export_parquet(tasks, out / "tasks.parquet", policy=spec.policy)
        artifacts.append("exports/tasks.parquet")
        detail["parquet"] = "exports/tasks.parquet"
    else:
        detail["parquet"] = "skipped: " + install_hint("parquet")
    formats = [k for k in detail if k != "tasks" and (k != "parquet" or _has_pyarrow())]
    summary = f"{len(tasks)} tasks as " + " and ".join(formats)
    return Outcome(detail=detail, artifacts=artifacts, summary=summary)


# --------------------------------------------------------------------------------- report


def _fp_report(ctx: ForgeContext) -> str:
    return fingerprint(["report", ctx.manifest.sessions])  # rewritten by every session


async def _run_report(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    from autoforge.forge.report import write_forge_report

    path = write_forge_report(ctx.layout.root, ctx.manifest)
    size_kb = path.stat().st_size / 1024
    return Outcome(
        detail={"bytes": path.stat().st_size}, artifacts=["report.html"],
        summary=f"{ctx.layout.rel(path)} ({size_kb:.0f} KiB)",
    )  # fmt: skip


STAGE_DEFS: dict[str, Stage] = {
    "ingest": Stage("ingest", _fp_ingest, _run_ingest),
    "environment": Stage("environment", _fp_environment, _run_environment),
    "graph": Stage("graph", _fp_graph, _run_graph),
    "tasks": Stage("tasks", _fp_tasks, _run_tasks, _tasks_incomplete, _reset_tasks),
    "verify": Stage("verify", _fp_verify, _run_verify),
    "exports": Stage("exports", _fp_exports, _run_exports),
    "report": Stage("report", _fp_report, _run_report),
}
