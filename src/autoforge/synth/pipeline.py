"""Environment synthesis end to end: docs (+ data) in, a checked environment directory out.

Phase 1 designs (docs mode) or infers (data mode) the state schema; phase 2 writes one function
per tool (:mod:`autoforge.synth.modelcode.functions`). Progress is resumable: the schema and every
tool's
result are stored under ``ENV_DIR/.synth/`` keyed by a fingerprint of their inputs, and tools
already accepted are not regenerated on a rerun. The run ends by writing ``environment.json``,
``tools.py``, ``initial_state.json`` (data mode) and ``synthesis_report.json``, and running the
conformance check on the result.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from autoforge.env import (
    BehaviourModel,
    EnvDir,
    Environment,
    EnvironmentSpec,
    EnvLoadError,
    RuleSet,
    SandboxViolation,
    StateSchema,
)
from autoforge.lexicon import add_session, docs_statuses, name_verb, session_owner, sign_in
from autoforge.llm import LLMClient
from autoforge.synth.behaviour.formula_reader import read_formulas
from autoforge.synth.behaviour.reader import read_rules
from autoforge.synth.behaviour.run import (
    derive_model,
    fill_missing,
    laid_out_tools,
    placed_tools,
    replaced_tools,
)
from autoforge.synth.checking.checks import CheckContext
from autoforge.synth.checking.teststate import (
    State,
    happy_arguments,
    integer_passed,
    slice_state,
    synthetic_state,
)
from autoforge.synth.modelcode.codegen import assemble
from autoforge.synth.modelcode.functions import ToolJob, synthesize_tool, usage_of
from autoforge.synth.options import SynthOptions
from autoforge.synth.report import SynthesisReport, ToolRecord, ToolReport, report_table
from autoforge.synth.rulecode.classify import Classification, classify_tool
from autoforge.synth.rulecode.conventions import GENERIC, Conventions, conventions_profile
from autoforge.synth.rulecode.doc_attrs import with_documented_attributes
from autoforge.synth.rulecode.doc_rules import DocRule, extract_rules, guard_for, meet_rules
from autoforge.synth.rulecode.effects import MirrorEffect, learn_mirror_effects, tool_entry_flags
from autoforge.synth.rulecode.transition_fields import starting_status, target_status
from autoforge.synth.state.design import design_state, schema_summary
from autoforge.synth.state.infer import (
    data_to_state,
    field_paths,
    infer_schema,
    nested_field_names,
    record_sample,
    schema_field_paths,
)
from autoforge.synth.state.mapping import unmapped_params
from autoforge.tooldocs import ToolDocs, ToolSpec

SYNTH_VERSION = "3"
STORE = EnvDir.SYNTH_STORE


class Reporter(Protocol):
    """Progress sink (the CLI shows rich bars; tests and library callers can ignore it)."""

    def phase(self, name: str, total: int) -> None: ...

    def tool(self, name: str, text: str) -> None: ...

    def advance(self) -> None: ...


class NullReporter:
    """A reporter that shows nothing."""

    def phase(self, name: str, total: int) -> None:
        return None

    def tool(self, name: str, text: str) -> None:
        return None

    def advance(self) -> None:
        return None


def _sha(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _tool_key(spec: ToolSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", exclude={"source"})


class Store:
    """``ENV_DIR/.synth/``: the stored schema and per-tool records."""

    def __init__(self, out_dir: Path) -> None:
        self.root = out_dir / STORE
        (self.root / "tools").mkdir(parents=True, exist_ok=True)

    def load_state(self, fingerprint: str) -> dict[str, Any] | None:
        path = self.root / "state.json"
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if data.get("fingerprint") == fingerprint else None

    def save_state(self, data: dict[str, Any]) -> None:
        (self.root / "state.json").write_text(json.dumps(data, indent=2), encoding="utf-8")

    def load_tool(self, name: str, fingerprint: str) -> ToolRecord | None:
        path = self.root / "tools" / f"{name}.json"
        if not path.is_file():
            return None
        try:
            rec = ToolRecord.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError:
            return None
        return rec if rec.fingerprint == fingerprint else None

    def save_tool(self, rec: ToolRecord) -> None:
        path = self.root / "tools" / f"{rec.report.name}.json"
        path.write_text(rec.model_dump_json(indent=2), encoding="utf-8")


@dataclass
class Phase1:
    """The state schema and what the tool phase needs from it."""

    schema: StateSchema
    test_state: State
    paths: dict[str, dict[str, list[str]]]
    samples: dict[str, str]
    info: dict[str, Any]
    data_state: State | None = None
    mirrors: list[MirrorEffect] = field(default_factory=list)
    #: per collection, the statuses the docs name (:func:`docs_statuses`): values a status
    #: rule may name where neither an enum nor the data closes the status
    stated: dict[str, list[str]] = field(default_factory=dict)


async def _phase1_docs(
    client: LLMClient, docs: ToolDocs, opts: SynthOptions, store: Store, policy: str | None
) -> Phase1:
    rules = ["rules only"] if client.rules_only("synthesizer") else []
    fp = _sha(
        [SYNTH_VERSION, [_tool_key(t) for t in docs.tools], policy, opts.design_rounds, *rules]
    )
    stored = store.load_state(fp)
    if stored is not None:
        schema = StateSchema.model_validate(stored["schema"])
        info = dict(stored["info"], resumed=True)
    else:
        before, start = usage_of(client), time.monotonic()
        design = await design_state(client, docs.tools, policy, max_rounds=opts.design_rounds)
        schema = design.state_schema
        info = design.model_dump(mode="json", exclude={"state_schema"})
        spent = usage_of(client)
        info["usage"] = {
            "calls": spent.calls - before.calls,
            "prompt_tokens": spent.prompt_tokens - before.prompt_tokens,
            "completion_tokens": spent.completion_tokens - before.completion_tokens,
            "wall_s": round(time.monotonic() - start, 2),
        }
        store.save_state(
            {"fingerprint": fp, "schema": schema.model_dump(mode="json"), "info": info}
        )
    test_state = synthetic_state(schema, digits=integer_passed(schema, docs.tools))
    for coll in schema.collections:
        if coll.fixed is not None:  # the documented values (settings), not samples
            test_state[coll.name] = json.loads(json.dumps(coll.fixed))
    _sign_in_first(test_state, schema)
    return Phase1(
        schema=schema,
        test_state=test_state,
        paths={c.name: schema_field_paths(c) for c in schema.collections},
        samples={c.name: record_sample(test_state, c.name, 500) for c in schema.collections},
        info={**info, "collections": schema_summary(schema)},
    )


def _phase1_data(docs: ToolDocs, data: Mapping[str, Any]) -> Phase1:
    state, warnings = data_to_state(data)
    schema = infer_schema(state)
    session = add_session(schema, docs.tools)  # the data never says who is signed in
    test_state = slice_state(state)
    _sign_in_first(test_state, schema)
    nested = nested_field_names(state)
    unmapped = [str(u) for u in unmapped_params(docs.tools, schema, nested)]
    return Phase1(
        schema=schema,
        test_state=test_state,
        paths={name: field_paths(coll.values()) for name, coll in state.items()},
        samples={name: record_sample(state, name, 700) for name in state},
        info={
            "source": "data",
            "warnings": warnings,
            "session": session,
            "unmapped_final": unmapped,
            "collections": schema_summary(schema),
            "provenance": {
                c.name: {a.name: "data" for a in c.attributes} for c in schema.collections
            },
        },
        data_state=state,
        mirrors=learn_mirror_effects(state, schema),
    )


def _sign_in_first(state: dict[str, Any], schema: StateSchema) -> None:
    """The synthesis test state's session: its first user signed in (the checks and probes
    of the tools acting for that user need one)."""
    owner = session_owner(schema)
    users = state.get(owner[0]) if owner is not None else None
    if isinstance(users, dict) and users:
        sign_in(state, schema, str(next(iter(users))))


def _tool_rules(spec: ToolSpec, c: Classification, p1: Phase1, policy: str | None) -> list[DocRule]:
    """The preconditions the docs and policy state about one tool: its guards, and its part of
    the environment's ``rules.json``."""
    return extract_rules(spec, c, p1.schema, policy, p1.data_state or p1.test_state, p1.stated)


def _by_tool(rules: list[DocRule]) -> dict[str, list[DocRule]]:
    out: dict[str, list[DocRule]] = {}
    for r in rules:
        out.setdefault(r.tool, []).append(r)
    return out


def _rule_set(tools: list[ToolSpec], p1: Phase1, policy: str | None) -> RuleSet:
    """The rules of ``tools`` as their guards were written (the artifact task generation reads
    instead of reading the policy again)."""
    rules = [
        r for t in tools for r in _tool_rules(t, classify_tool(t, p1.schema, p1.paths), p1, policy)
    ]
    return RuleSet(origin="synthesis", rules=rules)


def _job(
    spec: ToolSpec, p1: Phase1, docs: ToolDocs, policy: str | None, conv: Conventions = GENERIC
) -> tuple[ToolJob, Classification]:
    c = classify_tool(spec, p1.schema, p1.paths)
    rules = _tool_rules(spec, c, p1, policy)
    c = c.model_copy(update={"guard": guard_for(c, rules)})
    flags = tool_entry_flags(spec, policy, p1.schema, conv)
    happy = happy_arguments(spec, c, p1.schema, p1.test_state, flags)
    happy = meet_rules(happy, rules, c.refs, p1.test_state)
    ctx = CheckContext(
        spec=spec,
        classification=c,
        schema=p1.schema,
        state=p1.test_state,
        happy=happy,
        paths=p1.paths.get(c.collection or "", {}),
        allow_new_attrs=conv.verb_plural_names,
    )
    job = ToolJob(
        ctx=ctx,
        paths=p1.paths.get(c.collection or "", {}),
        samples=p1.samples,
        policy=policy,
        exclude_examples={t.name for t in docs.tools},
        mirrors=p1.mirrors,
        conventions=conv,
        rules=rules,
        twins=_list_twins(spec, c, p1, docs),
        start=_start_status(c, p1, docs, policy, conv) if c.cls == "create" else None,
    )
    return job, c


def _start_status(
    c: Classification, p1: Phase1, docs: ToolDocs, policy: str | None, conv: Conventions
) -> tuple[str, str] | None:
    """The status a create's record starts with, when the docs of the tools on its collection
    state one (:func:`starting_status`)."""
    coll = p1.schema.collection(c.collection or "")
    if coll is None:
        return None
    same = [(t, classify_tool(t, p1.schema, p1.paths)) for t in docs.tools]
    same = [(t, k) for t, k in same if k.collection == coll.name]
    targets = [
        found[1]
        for t, k in same
        if k.cls == "transition"
        and (found := target_status(name_verb(t), coll, t.description, policy or "", conv))
    ]
    return starting_status(coll, [t.description for t, _ in same], targets)


def _list_twins(spec: ToolSpec, c: Classification, p1: Phase1, docs: ToolDocs) -> tuple[str, ...]:
    """The other list tools over ``spec``'s collection that take exactly its parameters
    (``search_direct_flight`` and ``search_onestop_flight``): one template would answer both
    alike, though their docs say they differ (unless a noun of their names tells them apart,
    ``Classification.qualifier``). Tools without parameters are left out: their
    template lists the whole collection or the signed-in user's records."""
    params = set(spec.parameters.get("properties", {}))
    if c.cls != "list" or not params:
        return ()  # parameterless reads are whole-collection or session-scoped, not filters
    twins = []
    for other in docs.tools:
        if other.name == spec.name or set(other.parameters.get("properties", {})) != params:
            continue
        oc = classify_tool(other, p1.schema, p1.paths)
        if oc.cls == "list" and oc.collection == c.collection and oc.qualifier == c.qualifier:
            twins.append(other.name)
    return tuple(twins)


async def _phase2(
    client: LLMClient,
    docs: ToolDocs,
    p1: Phase1,
    opts: SynthOptions,
    store: Store,
    reporter: Reporter,
    policy: str | None,
    compiled: set[str] | frozenset[str] = frozenset(),
) -> tuple[list[ToolRecord], list[str]]:
    """Code for each tool; tools in ``compiled`` get the behaviour model's code whatever this
    phase writes (see :func:`replaced_tools`), so no model is asked for them."""
    tools = [t for t in docs.tools if not opts.only or t.name in opts.only]
    reporter.phase("tools", len(tools))
    schema_fp = _sha(p1.schema.model_dump(mode="json"))
    knobs: list[Any] = [opts.use_templates, opts.llm_tests, opts.fallback, opts.max_repairs]
    if opts.fill != "todo":
        knobs.append(opts.fill)
    conv = conventions_profile(opts.conventions)
    if conv.name != "generic":
        knobs.append(conv.name)
    knobs += ["rules only"] if client.rules_only("synthesizer") else []
    records, resumed = [], []
    for spec in tools:
        skip = spec.name in compiled and not client.rules_only("synthesizer")
        fp = _sha(
            [SYNTH_VERSION, _tool_key(spec), schema_fp, knobs, *(["compiled"] if skip else [])]
        )
        rec = store.load_tool(spec.name, fp)
        if rec is not None and rec.report.status == "accepted":
            resumed.append(spec.name)
            reporter.tool(spec.name, f"{rec.report.status} (stored)")
        else:
            rec = await _synthesize_one(
                spec, p1, docs, policy, conv, client, opts, fp, reporter, use_model=not skip
            )
            store.save_tool(rec)
            reporter.tool(spec.name, _progress(rec, spec.name in compiled))
        records.append(rec)
        reporter.advance()
    return records, resumed


def _progress(rec: ToolRecord, compiled: bool) -> str:
    """The progress line of one tool: where its code comes from, and a failure's reason."""
    if compiled:  # fill_missing writes it from the behaviour model whatever this gave
        return "the behaviour model writes it (after the other tools)"
    if rec.report.status == "failed":
        why = rec.report.reason or "no reason recorded"
        if len(why) > 200:  # the whole reason is in the report; cut between its parts
            why = why[:200].rsplit("; ", 1)[0].rstrip("; ") + " (more in the report)"
        return f"failed: {why}"
    return f"{rec.report.status} ({rec.report.source})"


async def _synthesize_one(
    spec: ToolSpec,
    p1: Phase1,
    docs: ToolDocs,
    policy: str | None,
    conv: Conventions,
    client: LLMClient,
    opts: SynthOptions,
    fp: str,
    reporter: Reporter,
    *,
    use_model: bool = True,
) -> ToolRecord:
    """One tool; an unexpected error is this tool's recorded failure, never the run's end."""
    try:
        job, c = _job(spec, p1, docs, policy, conv)
        reporter.tool(spec.name, f"{c.cls}{' plain' if c.plain else ''}: synthesizing")
        outcome = await synthesize_tool(client, job, opts, use_model=use_model)
    except Exception as exc:  # a rule or template that met a shape it did not expect
        why = f"{type(exc).__name__}: {exc}"
        report = ToolReport(
            name=spec.name, cls="unknown", errors=[why], reason=f"synthesis failed: {why}"[:300]
        )
        return ToolRecord(fingerprint=fp, report=report, code=None)
    return ToolRecord(fingerprint=fp, report=outcome.report, code=outcome.code)


def _header(name: str) -> str:
    return (
        f"Tools of the {name} environment, synthesized by autoforge.\n\n"
        "One function per tool, ``def tool_name(state, <documented parameters>)``; ``ToolError``\n"
        "is put in the module globals by the runtime. Regenerate with ``autoforge synth env``."
    )


def write_environment(
    out_dir: Path,
    name: str,
    docs: ToolDocs,
    policy: str | None,
    schema: StateSchema,
    records: list[ToolRecord],
    data_state: State | None,
    rules: RuleSet | None = None,
) -> EnvironmentSpec:
    """Write ``environment.json``, ``tools.py``, (data mode) ``initial_state.json`` and, when
    given, ``rules.json`` with the rules of the tools kept."""
    kept = {r.report.name: r for r in records if r.code is not None and r.report.status != "failed"}
    tools = [t for t in docs.tools if t.name in kept]
    spec = EnvironmentSpec(
        name=name,
        description=docs.description or f"Synthesized from the {docs.domain} tool docs.",
        policy=policy or "",
        tools=tools,
        state_schema=schema,
    )
    codes = [code for t in tools if (code := kept[t.name].code) is not None]
    source = assemble(codes, _header(name))
    try:
        Environment.from_parts(spec, source)
    except (EnvLoadError, SandboxViolation):  # helpers still collide: one copy per tool
        source = assemble(codes, _header(name), share=False)
    if rules is not None:
        rules = rules.model_copy(update={"rules": [r for r in rules.rules if r.tool in kept]})
    EnvDir(out_dir).write(spec, source, data_state, rules)
    return spec


def conformance(out_dir: Path) -> dict[str, Any]:
    """Run the conformance checker (as ``autoforge check`` does) on ``out_dir``; a summary."""
    from autoforge.synth.check.checker import check_directory

    try:
        result = check_directory(out_dir)
    except Exception as exc:  # a broken artifact is a finding, not a crash
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    failed = [i for i in result.items if not i.ok]
    return {
        "ok": result.ok,
        "items": len(result.items),
        "calls": result.calls,
        "errors": [
            f"{i.check} {i.tool or ''}: {i.detail}".strip() for i in failed if i.severity == "error"
        ],
        "warnings": [
            f"{i.check} {i.tool or ''}: {i.detail}".strip() for i in failed if i.severity != "error"
        ],
        "broken_promises": [
            {"tool": i.tool, "check": i.check, "detail": i.detail}
            for i in failed
            if i.check in PROMISE_CHECKS and i.tool
        ],
        "elapsed_s": result.elapsed_s,
    }


#: conformance checks whose failure is one tool's fault: the round trips the docs imply
PROMISE_CHECKS = ("roundtrip", "paging", "secret")


def mark_broken_promises(records: list[ToolRecord], check: Mapping[str, Any]) -> list[str]:
    """Mark partial the kept tools the conformance check caught breaking a round trip, with
    the finding as their reason; the names marked.

    The tool stays in the environment (a documented tool never disappears) and the check
    keeps failing on it, so the environment does not pass as faithful; the report says why.
    """
    found: dict[str, str] = {}
    for item in check.get("broken_promises") or []:
        found.setdefault(str(item["tool"]), f"{item['check']}: {item['detail']}")
    marked = []
    for rec in records:
        why = found.get(rec.report.name)
        if why is not None and rec.report.status not in ("failed", "partial"):
            rec.report.status = "partial"
            rec.report.reason = f"kept, but the conformance check found: {why}"[:300]
            marked.append(rec.report.name)
    return marked


async def _model_readings(
    model: BehaviourModel,
    docs: ToolDocs,
    data: Mapping[str, Any] | None,
    policy: str | None,
    client: LLMClient,
    rep: Reporter,
    layout: StateSchema,
) -> list[dict[str, Any]]:
    """With a model: the grounded rules and formulas the model reads into ``model`` where the
    rules could not (over the data, or without data over the state design's ``layout``);
    returns what it was asked to read and whether each was kept."""
    readings: list[dict[str, Any]] = []
    if client.rules_only("synthesizer"):
        return readings
    rep.phase("the model reads the rules and amounts the rules could not place", 1)
    given = data if data is not None else {}
    await read_rules(model, docs, given, policy or "", client, readings, layout)  # grounded only
    await read_formulas(model, docs, given, policy or "", client, readings, layout)
    rep.advance()
    return readings


def _checked(out_dir: Path, records: list[ToolRecord], model: BehaviourModel) -> dict[str, Any]:
    """The conformance check of the written environment; the tools it caught breaking a
    promise are marked in their reports and in the behaviour model (saved again), so that
    task generation keeps them out of gold calls."""
    check = conformance(out_dir)
    marked = set(mark_broken_promises(records, check))
    for rec in records:
        tb = model.tool(rec.report.name) if rec.report.name in marked else None
        if tb is not None:
            tb.broken = rec.report.reason
    if marked:
        model.save(out_dir)
    return check


@dataclass
class _CodePlan:
    """Which tools get the behaviour model's code: ``replace`` over code that passed its
    checks, ``skip`` never written by phase 2, ``fill`` where nothing else passed (True: any)."""

    replace: set[str]
    skip: set[str]
    fill: set[str] | bool


def _code_plan(
    model: BehaviourModel, docs: ToolDocs, p1: Phase1, opts: SynthOptions, *, rules_only: bool
) -> _CodePlan:
    """Without data: the model's code replaces passing code only where it carries every rule
    sentence (:func:`laid_out_tools`); with an LLM, as with data, the LLM writes none of the
    tools the model writes (measured: the 0.5B's code for such tools passed its checks and did
    worse); without templates (``--no-templates``) the other stages write them first."""
    fill = placed_tools(model) - _disputed(model, docs, p1)
    if not opts.use_templates:
        return _CodePlan(set(), set(), fill)
    said = {t.name: t.description for t in docs.tools}
    replace = laid_out_tools(model, _scoped(p1), said) & fill
    skip = replace if rules_only else laid_out_tools(model, _scoped(p1), None) & fill
    return _CodePlan(replace, skip, fill)


def _disputed(model: BehaviourModel, docs: ToolDocs, p1: Phase1) -> set[str]:
    """Tools whose name says they make a record while their HTTP method reads as an update
    of an existing one (a ``PUT`` that creates or replaces the record its path names; a
    ``POST`` on a record's path that adds to it is an action, not disputed).
    Without data nothing settles it, so the behaviour model writes no code for them. (The
    reverse, a ``POST`` to a collection answering 201 with the record, is a create whatever
    verb names it.)"""
    out = set()
    for spec in docs.tools:
        tb = model.tool(spec.name)
        cls = classify_tool(spec, p1.schema, p1.paths).cls
        if tb is not None and cls == "create" and tb.kind == "update":
            out.add(spec.name)
    return out


def _scoped(p1: Phase1) -> set[str]:
    """Collections the state design keeps in scopes their list tools require (reported as
    ``coll.param``)."""
    return {str(s).split(".")[0] for s in p1.info.get("scoped") or []}


async def synthesize(
    docs: ToolDocs,
    out_dir: Path,
    client: LLMClient,
    *,
    data: Mapping[str, Any] | None = None,
    options: SynthOptions | None = None,
    reporter: Reporter | None = None,
) -> SynthesisReport:
    """Synthesize an environment for ``docs`` into ``out_dir`` and return the report."""
    opts = options or SynthOptions()
    rep = reporter or NullReporter()
    start, before = time.monotonic(), usage_of(client)
    store = Store(out_dir)
    policy = opts.policy if opts.policy is not None else docs.policy
    name = opts.name or out_dir.resolve().name or docs.domain
    rep.phase("state", 1)
    if data is not None:
        p1 = _phase1_data(docs, data)
    else:
        p1 = await _phase1_docs(client, docs, opts, store, policy)
    p1.schema = with_documented_attributes(docs.tools, p1.schema, policy or "")
    scoped = [(t, classify_tool(t, p1.schema, p1.paths).collection) for t in docs.tools]
    p1.stated = docs_statuses(scoped, policy)
    rep.advance()
    # without data the state design's layout stands in for it; then only tools read from an
    # HTTP operation get the model's code (a function list's tool would be a bare compute)
    model = derive_model(docs, data, policy or "", layout=p1.schema)
    readings = await _model_readings(model, docs, data, policy, client, rep, p1.schema)
    if data is not None:  # the model writes every tool read from an HTTP operation
        plan = _CodePlan(replaced_tools(model), replaced_tools(model), True)
    else:
        plan = _code_plan(model, docs, p1, opts, rules_only=client.rules_only("synthesizer"))
    records, resumed = await _phase2(client, docs, p1, opts, store, rep, policy, plan.skip)
    kept = [t for t in docs.tools if any(r.report.name == t.name for r in records)]
    rules = _rule_set(kept, p1, policy)
    carried: dict[str, set[str]] = {}
    for r in rules.rules:
        carried.setdefault(r.tool, set()).add(r.sentence)
    records = fill_missing(docs, records, model, carried, compile_missing=plan.fill,
                           replace_passing=plan.replace, only=opts.only,
                           guards=_by_tool(rules.rules))  # fmt: skip
    write_environment(out_dir, name, docs, policy, p1.schema, records, p1.data_state, rules)
    model.save(out_dir)
    rep.phase("check", 1)
    check = _checked(out_dir, records, model)
    rep.advance()
    after = usage_of(client)
    report = SynthesisReport(
        name=name,
        mode="data" if data is not None else "docs",
        model=client.endpoint("synthesizer").model,
        rules_only=client.rules_only("synthesizer"),
        state=p1.info,
        tools=[r.report for r in records],
        conformance=check,
        resumed=resumed,
        conventions=conventions_profile(opts.conventions).name,
        model_readings=readings,
    )
    report.usage = after - before
    report.wall_s = round(time.monotonic() - start, 2)
    EnvDir(out_dir).write_report(report.model_dump_json(indent=2))
    return report


__all__ = [
    "NullReporter",
    "Reporter",
    "SynthOptions",
    "ToolReport",
    "conformance",
    "report_table",
    "synthesize",
    "write_environment",
]
