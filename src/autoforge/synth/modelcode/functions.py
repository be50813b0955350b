"""Phase 2: one Python function per tool — template, or LLM with check-and-repair.

For each tool: a plain CRUD tool gets its code template (no model call) if the template passes
the checks. Otherwise the LLM gets one small prompt (doc, relevant collections with a real or
synthetic record, runtime conventions, two examples of the same class, the class skeleton),
and every answer is checked (:mod:`autoforge.synth.checking.checks`); failures go back with the
error
text for up to ``max_repairs`` rounds. A tool that never passes is reported as failed; the
rule-based skeleton is kept instead only when it passes the checks itself (status
``fallback``). Bad model output never raises out of here.
"""

from __future__ import annotations

import ast
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from autoforge.lexicon import Envelope, envelope_of, name_verb
from autoforge.llm import ChatResponse, LLMClient, LLMFailure, Message, TokenUsage
from autoforge.synth.checking.checks import (
    CheckContext,
    TestCases,
    failures,
    run_checks,
    valid_cases,
)
from autoforge.synth.checking.leftout import kept_partial_reason, left_out_reason, skeleton_problem
from autoforge.synth.checking.teststate import slice_state
from autoforge.synth.modelcode import prompts
from autoforge.synth.modelcode.codegen import CodeError, ToolCode, extract_function, from_source
from autoforge.synth.modelcode.create_draft import CREATE_TODO
from autoforge.synth.modelcode.examples import add_example_helpers, pick_examples
from autoforge.synth.modelcode.fill import Draft, ask_synthesizer, fill_todos, todo_items
from autoforge.synth.modelcode.repair import crash_hints
from autoforge.synth.options import SynthOptions
from autoforge.synth.report import CheckResult, ToolReport
from autoforge.synth.rulecode.classify import READ_CLASSES
from autoforge.synth.rulecode.conventions import GENERIC, Conventions
from autoforge.synth.rulecode.doc_rules import (
    DocRule,
    covered_by_rules,
    guard_lines,
    guarded,
    status_values,
)
from autoforge.synth.rulecode.doc_templates import documented_list
from autoforge.synth.rulecode.effects import MirrorEffect, nested_lookup
from autoforge.synth.rulecode.envelope import enveloped
from autoforge.synth.rulecode.headers import signature
from autoforge.synth.rulecode.session_scope import session_read
from autoforge.synth.rulecode.templates import FieldMap, render_skeleton, render_template
from autoforge.synth.rulecode.transition_fields import target_status


@dataclass
class ToolJob:
    """One tool to synthesize, with everything its prompt and checks need."""

    ctx: CheckContext
    paths: FieldMap
    samples: dict[str, str]
    policy: str | None = None
    exclude_examples: set[str] = field(default_factory=set)
    mirrors: list[MirrorEffect] = field(default_factory=list)
    conventions: Conventions = GENERIC
    rules: list[DocRule] = field(default_factory=list)
    #: Other list tools over the same collection with the same parameters: what tells them
    #: apart is in their names and descriptions, not in anything a template reads, so none
    #: of them gets one (the model writes them).
    twins: tuple[str, ...] = ()
    #: the status attribute and value a create's record starts with, where the docs state one
    #: (:func:`autoforge.synth.rulecode.transition_fields.starting_status`)
    start: tuple[str, str] | None = None

    def guard(self, code: ToolCode) -> ToolCode:
        """``code`` with the doc-stated preconditions (:mod:`autoforge.synth.rulecode.doc_rules`)
        first, answering in the reply envelope its docs document
        (:mod:`autoforge.synth.rulecode.envelope`)."""
        names = signature(self.ctx.spec)[1]
        return enveloped(guarded(code, guard_lines(self.rules, names)), self.envelope, names)

    @property
    def envelope(self) -> Envelope | None:
        """Where the documented reply puts this tool's records (None: the reply is them)."""
        c, schema = self.ctx.classification, self.ctx.schema
        coll = schema.collection(c.collection) if c.collection else None
        spec = self.ctx.spec
        return envelope_of(spec.returns, coll, c.cls == "list", schema, spec.param_names)


@dataclass
class ToolOutcome:
    """The result of one tool: its report and, when kept, its code."""

    report: ToolReport
    code: ToolCode | None


def usage_of(client: LLMClient) -> TokenUsage:
    """Total calls and tokens the client spent so far (for per-item deltas)."""
    return client.usage.total()


def _passed(results: list[CheckResult]) -> bool:
    return bool(results) and all(r.ok for r in results)


async def propose_cases(client: LLMClient, job: ToolJob) -> list[Any]:
    """LLM-proposed test cases on a small slice of the test state (empty on failure)."""
    ctx = job.ctx
    small = slice_state(ctx.state, n=2)
    keep = {n: small[n] for n in small if n in _prompt_collections(job)}
    text = prompts.compact_json(keep or small, 1500)
    try:
        answer = await client.structured(
            prompts.tests_messages(ctx.spec, ctx.classification, text),
            TestCases,
            role="synthesizer",
            purpose="synth.tests",
            max_tokens=500,
            strict=False,
        )
    except LLMFailure:
        return []
    return valid_cases(answer.cases, ctx)


def _prompt_collections(job: ToolJob) -> list[str]:
    ctx = job.ctx
    return [c.name for c in prompts.relevant_collections(ctx.spec, ctx.classification, ctx.schema)]


def first_messages(job: ToolJob) -> list[Message]:
    """The initial prompt for ``job``'s tool."""
    ctx = job.ctx
    c = ctx.classification
    skeleton = None if c.plain and c.cls in ("generic",) else skeleton_for(job)
    examples = pick_examples(c.cls, job.exclude_examples)
    line = signature(ctx.spec)[0].rstrip(":")
    return prompts.tool_messages(
        ctx.spec, c, ctx.schema, job.samples, examples, skeleton, line, job.policy
    )


def _try_template(job: ToolJob) -> tuple[ToolCode | None, list[CheckResult]]:
    ctx = job.ctx
    c = ctx.classification
    if job.twins and c.cls == "list":
        return None, []
    coll = ctx.schema.collection(c.collection) if c.collection else None
    source = render_template(ctx.spec, c, coll, job.paths, job.conventions, ctx.schema)
    if source is None and c.cls == "lookup" and c.key_param is None:
        source = nested_lookup(ctx.spec, ctx.schema)
    if source is None:
        return None, []
    code = job.guard(from_source(source, ctx.spec.name))
    return code, run_checks(code, ctx)


def _template_kind(job: ToolJob) -> str:
    ctx, c = job.ctx, job.ctx.classification
    coll = ctx.schema.collection(c.collection) if c.collection else None
    if session_read(ctx.spec, c, coll, ctx.schema) is not None:
        return "session read"
    if (
        c.cls == "list"
        and coll is not None
        and documented_list(ctx.spec, coll, dict(job.paths), c.qualifier)
    ):
        return "documented list"
    return "crud"


def skeleton_for(job: ToolJob) -> str:
    """The rule-based draft of ``job``'s tool, with the policy sections about that tool."""
    ctx = job.ctx
    c = ctx.classification
    coll = ctx.schema.collection(c.collection) if c.collection else None
    excerpt = prompts.relevant_policy(job.policy, ctx.spec)
    return render_skeleton(
        ctx.spec, c, coll, job.paths, excerpt, ctx.schema, job.mirrors, job.conventions,
        covered=lambda sentence: covered_by_rules(sentence, job.rules, _statuses(job)),
        start=job.start,
    )  # fmt: skip


def _statuses(job: ToolJob) -> list[str]:
    """The status values of the tool's collection (schema enum, else the test data's)."""
    c = job.ctx.classification
    coll = job.ctx.schema.collection(c.collection) if c.collection else None
    found = status_values(coll, job.ctx.state) if coll is not None else None
    return found[1] if found else []


def complete_draft(job: ToolJob) -> ToolCode | None:
    """The class draft as the whole tool, when the docs leave nothing for a model to write.

    An update or transition whose draft has no TODO line: every parameter has its field, every
    sentence that states an effect or a rule is enforced by a guard, and a transition's target
    status is one the data, the schema's enum or the docs name (not a guessed participle).
    """
    ctx, c = job.ctx, job.ctx.classification
    if c.cls not in ("update", "transition") or c.collection is None:
        return None
    source = skeleton_for(job)
    if "TODO" in source or "not implemented" in source:
        return None
    coll = ctx.schema.collection(c.collection)
    if c.cls == "transition" and coll is not None:
        verb = name_verb(ctx.spec)
        excerpt = prompts.relevant_policy(job.policy, ctx.spec)
        target = target_status(verb, coll, ctx.spec.description, excerpt, job.conventions)
        text = f"{ctx.spec.description}\n{excerpt}".lower()
        if target is None or (target[1] not in _statuses(job) and target[1].lower() not in text):
            return None
    return job.guard(from_source(source, ctx.spec.name))


def consistent_cases(job: ToolJob, cases: list[Any]) -> list[Any]:
    """Drop proposed cases that expect success where the docs' own preconditions fail.

    The rule-based skeleton raises ToolError only for an unknown key or a status the tool's
    name rules out (``cancel_pending_order`` on a delivered order); a small model's test that
    expects such a call to succeed is wrong, and repairing code against it only breaks it.
    """
    ctx = job.ctx
    source = skeleton_for(job)
    if "not implemented" in source or not any(not x.expect_error for x in cases):
        return cases
    from autoforge.env import Environment, EnvironmentSpec

    try:
        env = Environment.from_parts(
            EnvironmentSpec(name="skeleton", tools=[ctx.spec], state_schema=ctx.schema),
            from_source(source, ctx.spec.name).source,
            initial_state=ctx.state,
        )
    except Exception:  # the skeleton itself does not load: keep the cases as they are
        return cases
    kept = []
    for case in cases:
        if not case.expect_error:
            obs = env.episode().call(ctx.spec.name, case.arguments)
            if obs.error_kind == "tool_error":
                continue
        kept.append(case)
    return kept


Leaf = tuple[list[Any], Any]


@dataclass
class _Happy:
    """The happy-path call of one candidate: loaded, succeeded, and the leaves it wrote."""

    loaded: bool
    ok: bool = False
    leaves: list[Leaf] = field(default_factory=list)
    error: str = ""


def _happy_leaves(source: str, job: ToolJob, args: dict[str, Any] | None = None) -> _Happy:
    """Run one call of ``source`` (the happy-path one by default) on the test state;
    ``(path, value)`` of every leaf it writes."""
    from autoforge.env import Environment, EnvironmentSpec, diff_states

    ctx = job.ctx
    try:
        env = Environment.from_parts(
            EnvironmentSpec(name="draft", tools=[ctx.spec], state_schema=ctx.schema),
            source,
            initial_state=ctx.state,
        )
    except Exception:  # a candidate that does not load is reported by the load check
        return _Happy(loaded=False)
    ep = env.episode()
    before = ep.snapshot()
    obs = ep.call(ctx.spec.name, ctx.happy if args is None else args)
    if not obs.ok:
        return _Happy(loaded=True, error=obs.content[:300])
    leaves = [(list(op["path"]), op.get("new")) for op in diff_states(before, ep.snapshot())]
    return _Happy(loaded=True, ok=True, leaves=leaves)


def probe_calls(job: ToolJob, n: int = 6) -> list[dict[str, Any]]:
    """The happy-path arguments, then the same with the key of each other test record that
    meets the status guard (a gift-card order besides a credit-card one), up to ``n``."""
    ctx, c = job.ctx, job.ctx.classification
    calls = [dict(ctx.happy)]
    records = ctx.state.get(c.collection or "") or {}
    if c.key_param is None or c.key_param not in ctx.happy:
        return calls
    for key, rec in records.items():
        if len(calls) >= n:
            break
        if key == ctx.happy[c.key_param] or not isinstance(rec, dict):
            continue
        if c.guard is not None and rec.get(c.guard[0]) != c.guard[1]:
            continue
        calls.append({**ctx.happy, c.key_param: key})
    return calls


Probe = tuple[dict[str, Any], list[Leaf]]


def draft_effects(job: ToolJob) -> list[Probe]:
    """What the rule-based draft writes on each probe call it succeeds on, when it passes its
    own checks.

    Those writes come from the docs and the data (status, stored parameters, learned effects);
    an answer that drops or changes them is worse than the draft, so it must keep them
    (``keeps_draft``) and may only add to them: a stronger model can only improve on the draft.
    Several records are probed, so an effect that shows only on some (a gift-card balance) is
    compared too.
    """
    if job.ctx.classification.cls in READ_CLASSES:
        return []
    code, results = _try_skeleton(job)
    if code is None or not _passed(results):
        return []
    out = []
    for args in probe_calls(job):
        got = _happy_leaves(code.source, job, args)
        if got.ok and got.leaves:
            out.append((args, got.leaves))
    return out


def keeps_draft(code: ToolCode, job: ToolJob, probes: list[Probe]) -> CheckResult | None:
    """The ``keeps_draft`` check: on every probe call, the answer succeeds where the draft
    does and makes every draft write with the same value."""
    if not probes:
        return None
    for args, leaves in probes:
        got = _happy_leaves(code.source, job, args)
        if not got.loaded:
            return None  # the load check says why
        call = f"{job.ctx.spec.name}({json.dumps(args, default=str)[:200]})"
        if not got.ok:
            detail = f"the draft succeeds on {call} but the answer raises: {got.error}"
            return CheckResult(name="keeps_draft", ok=False, detail=detail)
        have = {json.dumps(p, default=str): v for p, v in got.leaves}
        lost = [(p, v) for p, v in leaves if have.get(json.dumps(p, default=str), _LOST) != v]
        if lost:
            shown = "; ".join(
                f"{'/'.join(map(str, p))} = {json.dumps(v, default=str)[:80]}" for p, v in lost[:4]
            )
            detail = (
                f"after {call} the draft sets {shown} but the answer does not: keep the "
                "draft's code and add to it"
            )
            return CheckResult(name="keeps_draft", ok=False, detail=detail)
    return CheckResult(name="keeps_draft", ok=True)


_LOST = object()


def _try_skeleton(job: ToolJob) -> tuple[ToolCode | None, list[CheckResult]]:
    ctx = job.ctx
    source = skeleton_for(job)
    if "not implemented" in source or CREATE_TODO in source:  # an unfinished create: no tool
        return None, []  # skeleton_problem(source, []) says why
    code = job.guard(from_source(source, ctx.spec.name))
    saved, ctx.cases = ctx.cases, []
    try:
        return code, run_checks(code, ctx)
    finally:
        ctx.cases = saved


async def synthesize_tool(
    client: LLMClient, job: ToolJob, settings: SynthOptions, *, use_model: bool = True
) -> ToolOutcome:
    """Template or LLM code for one tool, checked and repaired; never raises for bad output.
    ``use_model`` False keeps to the rule-based path for this tool (as ``--llm none`` does for
    all): the caller knows its code will come from elsewhere."""
    ctx = job.ctx
    c = ctx.classification
    start, before = time.monotonic(), usage_of(client)
    report = ToolReport(
        name=ctx.spec.name,
        cls=c.cls,
        collection=c.collection,
        plain=c.plain,
        classification_reason=c.reason,
        rules=[
            {"kind": r.kind, "rule": r.describe(), "sentence": r.sentence, "source": r.source}
            for r in job.rules
        ],
    )

    def done(code: ToolCode | None) -> ToolOutcome:
        report.usage = usage_of(client) - before
        report.wall_s = round(time.monotonic() - start, 2)
        return ToolOutcome(report=report, code=code)

    had_template = False
    if settings.use_templates:
        code, results = _try_template(job)
        had_template = code is not None
        if code is not None and _passed(results):
            report.source, report.status, report.accepted_attempt = "template", "accepted", 0
            report.template, report.checks = _template_kind(job), results
            return done(code)
        if code is not None:
            report.errors.append("template: " + "; ".join(failures(results)))
        draft = complete_draft(job)
        if draft is not None:
            results = run_checks(draft, ctx)
            if _passed(results):
                report.source, report.status, report.accepted_attempt = "template", "accepted", 0
                report.template, report.checks = "complete draft", results
                return done(draft)
            report.errors.append("complete draft: " + "; ".join(failures(results)))
    rules_only = client.rules_only("synthesizer") or not use_model  # template or skeleton only
    if settings.llm_tests and not rules_only:
        proposed = await propose_cases(client, job)
        ctx.cases = consistent_cases(job, proposed)
        report.llm_tests = len(ctx.cases)
        report.llm_tests_dropped = len(proposed) - len(ctx.cases)
    code = None if rules_only else await _model_code(client, job, settings, report)
    if code is not None:
        return done(code)
    skeleton = None
    if settings.fallback:
        code, results = _try_skeleton(job)
        if code is not None and _passed(results):
            report.source, report.status, report.checks = "skeleton", "fallback", results
            report.reason = kept_partial_reason(report.errors, code.source)
            return done(code)
        skeleton = skeleton_problem(skeleton_for(job), results)
    no_model = "" if not rules_only else "--llm none" if use_model else "behaviour model"
    report.reason = left_out_reason(c, report.errors, skeleton, no_model, had_template)
    return done(None)


def fillable(job: ToolJob) -> bool:
    """Whether the draft has TODO steps to fill one at a time: it is runnable (it loaded its
    record or builds one) and lists what is left open."""
    source = skeleton_for(job)
    return "not implemented" not in source and bool(todo_items(source))


async def _model_code(
    client: LLMClient, job: ToolJob, settings: SynthOptions, report: ToolReport
) -> ToolCode | None:
    """The model's code for the tool: per-TODO fills of the draft (``fill="todo"``, default),
    else the whole function (``fill="function"``, or a draft with no step to fill)."""
    if settings.fill == "todo" and fillable(job):
        probes = draft_effects(job)
        draft = Draft(
            source=skeleton_for(job),
            calls=probe_calls(job),
            keeps=lambda code: keeps_draft(code, job, probes),
        )
        return await fill_todos(client, job, draft, settings, report)
    return await _llm_loop(client, job, settings, report)


def degenerate(code: ToolCode, finish_reason: str | None) -> str:
    """Why an answer is unusable even if it runs: cut off, or looping on one statement.

    Small models sometimes repeat a line until ``max_tokens``; the truncated text can still
    parse and pass every behavioural check, so it is rejected here.
    """
    if finish_reason == "length":
        return "the answer was cut off (too long): write a shorter function, no repeated lines"
    lines = [ln.strip() for ln in code.body.splitlines() if ln.strip()]
    run, longest = 1, 1
    for prev, cur in itertools.pairwise(lines):
        run = run + 1 if cur == prev else 1
        longest = max(longest, run)
    repeats = max((lines.count(x) for x in set(lines) if len(x) > 12), default=0)
    if longest >= 3 or repeats >= 6:
        return "the answer repeats the same lines over and over: write each check once"
    return ""


def _draft(job: ToolJob) -> tuple[ToolCode | None, list[str]]:
    """The skeleton shown to the model and its TODO lines (None when it lists no effects)."""
    ctx = job.ctx
    source = skeleton_for(job)
    todos = [ln.strip()[4:].strip() for ln in source.splitlines() if ln.strip().startswith("#   -")]
    if not todos or "not implemented" in source:
        return None, []
    return job.guard(from_source(source, ctx.spec.name)), todos


def _same_code(a: ToolCode, b: ToolCode) -> bool:
    """Equal up to comments, docstrings and formatting."""

    def is_doc(stmt: ast.stmt) -> bool:
        return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)

    def norm(code: ToolCode) -> str:
        tree = ast.parse(code.body)
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and is_doc(body[0]):
                body.pop(0)
        return ast.dump(tree)

    return norm(a) == norm(b)


def _attempt_checks(
    code: ToolCode, job: ToolJob, drafted: tuple[ToolCode | None, list[str]], probes: list[Probe]
) -> list[CheckResult]:
    """The sandbox checks of one LLM answer, plus: it keeps the draft's behaviour, and it does
    more than repeat a draft that still has TODO lines."""
    draft, draft_todos = drafted
    results = run_checks(code, job.ctx)
    kept = keeps_draft(code, job, probes)
    if kept is not None:
        results.append(kept)
    if draft is not None and _same_code(code, draft):
        todo = "; ".join(draft_todos) or "the effects the description states"
        detail = f"the answer only repeats the draft; implement the TODO lines: {todo}"
        results.append(CheckResult(name="implements_todo", ok=False, detail=detail))
    return results


async def _llm_loop(
    client: LLMClient, job: ToolJob, settings: SynthOptions, report: ToolReport
) -> ToolCode | None:
    """Ask the model for the tool, then repair with the failures shown, until an answer passes
    the checks; gives up on the same failure twice or the same code twice."""
    ctx = job.ctx
    first = first_messages(job)
    messages = first
    seen_code: set[str] = set()
    drafted = _draft(job)
    probes = draft_effects(job)
    last_error = ""
    for attempt in range(1, settings.max_repairs + 2):
        report.attempts = attempt
        try:
            resp = await _ask(client, messages, attempt, settings)
        except LLMFailure as exc:
            report.errors.append(f"attempt {attempt}: LLM call failed: {exc}")
            continue
        code, unusable, shown = _usable_code(resp.content or "", resp.finish_reason, job, report)
        if code is None:
            report.errors.append(f"attempt {attempt}: {unusable}")
            if unusable == last_error:
                report.errors.append(f"attempt {attempt}: same failure twice; giving up")
                break
            last_error = unusable
            messages = prompts.repair_messages(first, shown, [unusable])
            continue
        if code.source in seen_code:
            report.errors.append(f"attempt {attempt}: same code as before; giving up")
            break
        seen_code.add(code.source)
        results = _attempt_checks(code, job, drafted, probes)
        report.checks = results
        if _passed(results):
            report.source, report.status, report.accepted_attempt = "llm", "accepted", attempt
            return code
        problems = failures(results)
        report.errors.append(f"attempt {attempt}: " + "; ".join(problems)[:600])
        hints = crash_hints(code.body, problems, ctx.state, ctx.happy)
        messages = prompts.repair_messages(first, code.source, problems, hints)
    return None


async def _ask(
    client: LLMClient, messages: list[Message], attempt: int, settings: SynthOptions
) -> ChatResponse:
    """One whole-function synthesizer call
    (:func:`autoforge.synth.modelcode.fill.ask_synthesizer`)."""
    purposes = ("synth.tool", "synth.repair")
    return await ask_synthesizer(client, messages, attempt, purposes, settings.max_tokens)


def _usable_code(
    text: str, finish_reason: str | None, job: ToolJob, report: ToolReport
) -> tuple[ToolCode | None, str, str]:
    """``(code, "", "")``: the answer's function, with the few-shot helpers it calls and the
    job's guards; or ``(None, why it is unusable, the text to show back in the repair)`` when
    it holds no such function or is degenerate (:func:`degenerate`)."""
    try:
        code = extract_function(text, job.ctx.spec.name)
    except CodeError as exc:
        return None, str(exc), text.strip()[:3000]
    code = job.guard(_with_example_helpers(code, report))
    sloppy = degenerate(code, finish_reason)
    if sloppy:
        return None, sloppy, code.source[:3000]
    return code, "", ""


def _with_example_helpers(code: ToolCode, report: ToolReport) -> ToolCode:
    """``code`` plus the few-shot helpers it calls without defining them (noted in the report).

    A small model copies ``_next_id(...)`` from an example and leaves the definition out; a
    repair round then often returns the same code, so the definition is supplied here.
    """
    source, added = add_example_helpers(code.source)
    if not added:
        return code
    report.helpers_added.extend(n for n in added if n not in report.helpers_added)
    return extract_function(source, code.name)
