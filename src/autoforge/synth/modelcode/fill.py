"""Per-TODO fills: the model writes only the lines one TODO of the rule draft leaves open.

The rule draft (:func:`autoforge.synth.modelcode.functions.skeleton_for`, handed over as a
:class:`Draft`) already holds what the docs make explicit (the record load, the guards, the
status, the stored parameters, the paired effects);
what it cannot derive is listed as ``# TODO`` lines, each one sentence of the docs or policy.
Asking a 1.5B model to rewrite the whole function with those lines done gives back the draft
unchanged; asking it for the few lines of *one* step, with a short context (the ``def`` line,
the variables the draft has bound before that line, the collections' attributes with one
record, the sentence, one small example of the answer's shape), gives lines it can write.

Each answer is parsed (:func:`parse_fill`), spliced in place of its TODO line, and the whole
tool is checked again (:func:`autoforge.synth.checking.checks.run_checks`, ``keeps_draft``) plus
what
only a fill can get wrong (``implements_todo``: no code, only lines the draft already has, the
example copied, a step that returns, code that changes nothing on any test call). A rejected
fill is counted in the report and its TODO stays as the draft has it; the tool keeps its other
fills. The tool is the model's when at least one fill is accepted and the result passes every
check; otherwise the caller falls back to the draft as before.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from autoforge.llm import ChatResponse, LLMClient, LLMFailure, Message
from autoforge.synth.checking.checks import CheckContext, failures, run_checks
from autoforge.synth.modelcode import prompts
from autoforge.synth.modelcode.codegen import CodeError, ToolCode, from_source
from autoforge.synth.options import SynthOptions
from autoforge.synth.report import CheckResult, FillResult, ToolReport
from autoforge.synth.rulecode.headers import signature


class FillJob(Protocol):
    """What a fill needs of a tool's job (:class:`autoforge.synth.modelcode.functions.ToolJob`)."""

    ctx: CheckContext
    samples: dict[str, str]

    def guard(self, code: ToolCode) -> ToolCode: ...


@dataclass(frozen=True)
class Draft:
    """The rule draft of one tool as the fills start from it (built by ``functions.py``):
    its raw text with the TODO lines, the probe calls (the happy-path call and the same on
    other records), and the ``keeps_draft`` check bound to the draft's own writes."""

    source: str
    calls: list[dict[str, Any]] = field(default_factory=list)
    keeps: Callable[[ToolCode], CheckResult | None] = lambda code: None


#: the shape of a whole-step answer, on another app, one for an effect and one for a rule;
#: neither can be pasted into a tool here (no such collection), which ``copies_example`` checks
EXAMPLES = {
    "effect": (
        "A late return adds a fee of 2.5 to the member's balance.",
        "member = state['members'][record['member_id']]\n"
        "member['balance'] = member['balance'] + 2.5",
    ),
    "rule": (
        "A loan can only be extended if it is not overdue.",
        "if record['overdue']:\n    raise ToolError('an overdue loan cannot be extended')",
    ),
}
_RULE_WORDS = re.compile(
    r"\b(only|must|cannot|can ?not|not allowed|at most|at least|unless|never|fails?)\b", re.I
)
_TODO = re.compile(r"^(\s*)# TODO: (.*\S)\s*$")
_ITEM = re.compile(r"^(\s*)#   - (.*\S)\s*$")
_ASSIGN = re.compile(r"^    ([A-Za-z_]\w*) = (.+)$")
_HELPER = re.compile(r"^    def (_\w+\([^)]*\)):")
_COMPUTE = "compute and store what the docs state"

SYSTEM_FILL = (
    "You add the code for ONE step to a Python function of a simulated app. "
    "state[collection][key] is a record (a dict). ToolError exists: raise ToolError('why') "
    "when the step's rule is broken. Answer with only the new lines in one ```python block: "
    "no def, no import, no return."
)


@dataclass(frozen=True)
class Todo:
    """One open step of a draft: its line number in the raw draft, indentation and sentence."""

    line: int
    indent: str
    text: str


def todo_items(source: str, description: str = "") -> list[Todo]:
    """The steps of ``source`` a model can fill, in order: each listed sentence (``#   - ``)
    and each ``# TODO:`` line that lists none (a header ending in ``:`` is no step). The
    create draft's "compute and store what the docs state" stands for the tool's description."""
    out = []
    for i, line in enumerate(source.splitlines()):
        m = _ITEM.match(line) or _TODO.match(line)
        if m is None or m.group(2).endswith(":"):
            continue
        text = m.group(2)
        if text.startswith(_COMPUTE) and description:
            text = prompts.clip(description, 300)
        out.append(Todo(line=i, indent=m.group(1), text=text))
    return out


def _bound(source: str, before: int) -> list[str]:
    """The names the draft binds at function level before line ``before`` (and its helpers)."""
    out: list[str] = []
    for line in source.splitlines()[:before]:
        if m := _ASSIGN.match(line):
            out.append(f"{m.group(1)} = {prompts.clip(m.group(2), 90)}")
        elif m := _HELPER.match(line):
            out.append(f"{m.group(1)} is a helper defined above")
    seen: dict[str, str] = {}
    for entry in out:  # the last binding of a name is the one in scope
        seen[entry.split(" ", 1)[0]] = entry
    return list(seen.values())


def _collections_text(job: FillJob) -> str:
    """The attributes (with types) of the collections the tool touches, one record of its own."""
    ctx = job.ctx
    colls = prompts.relevant_collections(ctx.spec, ctx.classification, ctx.schema)[:3]
    lines = []
    for coll in colls:
        attrs = ", ".join(
            f"{a.name}: {a.type}" + (f" -> {a.references}" if a.references else "")
            for a in coll.attributes
        )
        lines.append(f"{coll.name} (key {coll.primary_key}): {attrs}")
        if coll.name == ctx.classification.collection and coll.name in job.samples:
            lines.append(f"  one {coll.name} record: {prompts.clip(job.samples[coll.name], 350)}")
    return "\n".join(lines)


def example_for(sentence: str) -> tuple[str, str]:
    """The example shown with ``sentence``: a rule's shape for a rule, else an effect's."""
    return EXAMPLES["rule" if _RULE_WORDS.search(sentence) else "effect"]


def fill_messages(job: FillJob, source: str, todo: Todo) -> list[Message]:
    """The short prompt for one step of ``job``'s draft ``source``."""
    spec = job.ctx.spec
    bound = _bound(source, todo.line)
    ex_step, ex_code = example_for(todo.text)
    doc = prompts.clip(spec.description.split("\n")[0], 200)
    parts = [
        f"Function: {signature(spec)[0]}\n  {doc}",
        "Already set before this step:\n" + "\n".join(f"  {b}" for b in bound) if bound else "",
        f"Collections:\n{_collections_text(job)}",
        f"Example for another app. Step: {ex_step}\n```python\n{ex_code}\n```",
        f"Step to write now: {todo.text}\nWrite only the lines for this step.",
    ]
    return [
        {"role": "system", "content": SYSTEM_FILL},
        {"role": "user", "content": "\n\n".join(p for p in parts if p)},
    ]


def _statements(source: str) -> set[str]:
    """Every statement of ``source`` at any depth, as normalised text."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.stmt)}


def _answer_body(text: str, name: str, draft: str) -> list[ast.stmt]:
    """The statements of an answer: its code block, or, when the model sent the whole
    function anyway, that function's statements the draft does not already have."""
    m = re.search(r"```[ \t]*[A-Za-z0-9_+-]*[^\n]*\n(.*?)(?:```|\Z)", text, re.DOTALL)
    code = textwrap.dedent(m.group(1) if m else text).strip("\n")
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise CodeError(f"syntax error on line {exc.lineno}: {exc.msg}") from None
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if not funcs:
        return list(tree.body)
    have = _statements(draft)
    return [s for s in funcs[0].body if ast.unparse(s) not in have]


def _is_noise(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
    )


def parse_fill(text: str, name: str, draft: str, example: str) -> list[str]:
    """The lines of one fill (unindented), or :class:`CodeError` saying why there are none.

    A trailing ``return`` is dropped (the draft returns its record); any other top-level
    ``return``, a ``def``, no code, only lines the draft already has, or the example's lines
    make the answer no fill of this step.
    """
    body = [s for s in _answer_body(text, name, draft) if not _is_noise(s)]
    if body and isinstance(body[-1], ast.Return):
        body = body[:-1]
    if not body:
        raise CodeError("implements_todo: the answer holds no code for the step")
    if any(isinstance(s, ast.Return) for s in body):
        raise CodeError("implements_todo: a step must not return; the function returns later")
    if any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) for s in body):
        raise CodeError("implements_todo: write statements, not a def")
    lines = [ast.unparse(s) for s in body]
    have = _statements(draft)
    if all(x in have for x in lines):
        raise CodeError("implements_todo: the answer only repeats lines the draft already has")
    copied = _statements(example)
    if any(x in copied for x in lines):
        raise CodeError("implements_todo: the answer copies the example; write this step")
    return "\n".join(lines).splitlines()


def splice(source: str, todo: Todo, lines: Sequence[str]) -> str:
    """``source`` with ``todo``'s line replaced by ``lines`` (at its indentation) under a
    comment naming the sentence they implement."""
    out = source.splitlines()
    note = todo.indent + "# " + prompts.clip(todo.text, 150).replace("\n", " ")
    out[todo.line] = "\n".join([note, *(todo.indent + ln for ln in lines)])
    return "\n".join(out)


def _behaviour(source: str, job: FillJob, args: dict[str, Any]) -> tuple[bool, str, str]:
    """``(ok, content, state hash)`` of one call of ``source`` on the test state."""
    from autoforge.env import Environment, EnvironmentSpec

    ctx = job.ctx
    spec = EnvironmentSpec(name="fill", tools=[ctx.spec], state_schema=ctx.schema)
    env = Environment.from_parts(spec, source, initial_state=ctx.state)
    ep = env.episode()
    obs = ep.call(ctx.spec.name, args)
    return obs.ok, obs.content, ep.state_hash()


def _changes_behaviour(before: ToolCode, after: ToolCode, job: FillJob, draft: Draft) -> bool:
    """Whether ``after`` answers or writes differently from ``before`` on some test call (the
    probe calls and the proposed test cases)."""
    calls = [*draft.calls, *(c.arguments for c in job.ctx.cases)]
    try:
        return any(
            _behaviour(before.source, job, a) != _behaviour(after.source, job, a) for a in calls
        )
    except Exception:  # does not load: the load check says why
        return True


def _refuses_happy(before: ToolCode, after: ToolCode, job: FillJob) -> str:
    """Why ``after`` is worse on the happy-path call (built to meet the rules read from the docs):
    ``before`` succeeds on it and ``after`` refuses it; "" otherwise. The ``runs`` check asks
    success only of plain tools, so a step that refuses every call would pass it."""
    try:
        was, now = (
            _behaviour(before.source, job, job.ctx.happy),
            _behaviour(after.source, job, job.ctx.happy),
        )
    except Exception:  # does not load: the load check says why
        return ""
    if was[0] and not now[0]:
        return (
            f"happy_path: the step refuses the test call {job.ctx.happy}, which meets the "
            f"rules read from the docs and succeeds without the step: {now[1][:200]}"
        )
    return ""


#: The note on an accepted step that only adds a refusal no test call triggers: it may be a
#: correct guard for a case the test state lacks, or dead code; either way nothing showed it.
UNTRIGGERED = "untriggered: adds a refusal that no test or probe call triggers"


def _judge(
    cand: ToolCode, current: ToolCode, cur_failed: set[str], job: FillJob, draft: Draft
) -> tuple[list[CheckResult], str, str]:
    """The candidate's checks, why it is rejected ("" when the fill is accepted) and a note on
    an accepted one: it must fail no check the tool did not fail already and keep the draft's
    writes; a fill that refuses nothing must change some call's answer or state, and one that
    only adds a refusal no call triggers is kept with the note :data:`UNTRIGGERED`."""
    results = run_checks(cand, job.ctx)
    kept = draft.keeps(cand)
    if kept is not None:
        results.append(kept)
    new = [f for r in results if not r.ok and r.name not in cur_failed for f in failures([r])]
    if new:
        return results, "; ".join(new), ""
    refused = _refuses_happy(current, cand, job)
    if refused:
        return results, refused, ""
    refuses = "ToolError" in cand.body and cand.body.count("raise") > current.body.count("raise")
    if _changes_behaviour(current, cand, job, draft):
        return results, "", ""
    if not refuses:
        return results, "implements_todo: the step's code changes nothing on any test call", ""
    return results, "", UNTRIGGERED


async def ask_synthesizer(
    client: LLMClient,
    messages: list[Message],
    attempt: int,
    purposes: tuple[str, str],
    max_tokens: int,
) -> ChatResponse:
    """One synthesizer call, tagged ``purposes[0]`` on the first attempt and ``purposes[1]`` on a
    repair: the first at temperature 0; repairs sample a little (seeded, so still cached and
    reproducible), since at temperature 0 an unchanged prompt would give back the same failing
    code. Shared by the per-TODO fills and the whole-function path."""
    return await client.chat(
        messages,
        role="synthesizer",
        purpose=purposes[0] if attempt == 1 else purposes[1],
        max_tokens=max_tokens,
        temperature=0.0 if attempt == 1 else 0.3,
        seed=None if attempt == 1 else attempt,
    )


async def _ask_fill(
    client: LLMClient, messages: list[Message], attempt: int, settings: SynthOptions
) -> str:
    purposes = ("synth.fill", "synth.fill_repair")
    resp = await ask_synthesizer(client, messages, attempt, purposes, settings.fill_tokens)
    return resp.content or ""


async def _fill_one(
    client: LLMClient,
    job: FillJob,
    state: _FillState,
    todo: Todo,
    settings: SynthOptions,
) -> FillResult:
    """Ask for one step, with up to ``max_repairs`` retries showing the failure; splice the
    first answer that passes into ``state`` (which holds the tool as filled so far)."""
    name = job.ctx.spec.name
    first = fill_messages(job, state.source, todo)
    messages, why, attempt = first, "", 0
    example = example_for(todo.text)[1]
    for attempt in range(1, settings.max_repairs + 2):
        try:
            text = await _ask_fill(client, messages, attempt, settings)
        except LLMFailure as exc:
            why = f"LLM call failed: {exc}"
            continue
        try:
            lines = parse_fill(text, name, state.source, example)
            spliced = splice(state.source, todo, lines)
            cand = job.guard(from_source(spliced, name))
        except CodeError as exc:
            why = str(exc)
        else:
            results, why, note = _judge(cand, state.code, state.failed, job, state.draft)
            if not why:
                state.accept(spliced, cand, results)
                return FillResult(todo=todo.text, status="accepted", attempts=attempt, detail=note)
        messages = [
            *first,
            {"role": "assistant", "content": text},
            {"role": "user", "content": f"That fails: {prompts.clip(why, 400)}\nWrite the "
             "lines for the step again, fixed."},
        ]  # fmt: skip
    return FillResult(todo=todo.text, status="rejected", attempts=attempt, detail=why[:500])


@dataclass
class _FillState:
    """The tool as filled so far: raw draft text (comments kept), its code and checks."""

    source: str
    code: ToolCode
    results: list[CheckResult]
    draft: Draft
    offset: int = 0

    @property
    def failed(self) -> set[str]:
        return {r.name for r in self.results if not r.ok}

    def accept(self, source: str, code: ToolCode, results: list[CheckResult]) -> None:
        self.offset += len(source.splitlines()) - len(self.source.splitlines())
        self.source, self.code, self.results = source, code, results


async def fill_todos(
    client: LLMClient, job: FillJob, draft: Draft, settings: SynthOptions, report: ToolReport
) -> ToolCode | None:
    """Fill the draft's TODO steps one at a time; the filled tool when at least one fill was
    accepted and it passes every check, else ``None`` (each fill is in ``report.fills``)."""
    ctx = job.ctx
    source = draft.source
    todos = todo_items(source, ctx.spec.description)
    code = job.guard(from_source(source, ctx.spec.name))
    state = _FillState(source, code, run_checks(code, ctx), draft)
    for todo in todos:
        moved = Todo(line=todo.line + state.offset, indent=todo.indent, text=todo.text)
        result = await _fill_one(client, job, state, moved, settings)
        report.fills.append(result)
        report.attempts += result.attempts
        if result.status == "rejected":
            report.errors.append(f"fill rejected ({prompts.clip(todo.text, 80)}): {result.detail}")
    accepted = any(f.status == "accepted" for f in report.fills)
    report.checks = state.results
    if accepted and not state.failed:
        report.source, report.status = "llm", "accepted"
        # 1 when every kept step was the model's first answer, as for a whole function
        report.accepted_attempt = max(f.attempts for f in report.fills if f.status == "accepted")
        return state.code
    if accepted:
        report.errors.append("filled tool: " + "; ".join(failures(state.results))[:600])
    return None


def fill_summary(report: ToolReport) -> dict[str, int]:
    """Accepted and rejected fills of one tool, and the accepted ones that only add a refusal
    no test call triggers (``untriggered``; for tables)."""
    ok = sum(f.status == "accepted" for f in report.fills)
    untriggered = sum(f.status == "accepted" and f.detail == UNTRIGGERED for f in report.fills)
    return {"accepted": ok, "rejected": len(report.fills) - ok, "untriggered": untriggered}


__all__ = [
    "UNTRIGGERED",
    "Draft",
    "FillJob",
    "Todo",
    "ask_synthesizer",
    "fill_messages",
    "fill_todos",
    "parse_fill",
    "splice",
    "todo_items",
]
