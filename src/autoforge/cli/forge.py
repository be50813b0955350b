"""``autoforge forge``: the main job, tool docs in, environment + verified tasks + report out."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from autoforge.cli.interrupt import (
    exit_interrupted,
    ignore_further_signals,
    resume_command,
    run_async,
    stop_on_signals,
)
from autoforge.cli.llm import (
    LlmApiKeyOpt,
    LlmBaseUrlOpt,
    LlmConfigOpt,
    LlmModelOpt,
    LlmSetOpt,
    NoCacheOpt,
    llm_config_from_options,
)
from autoforge.cli.synth import (
    DataOpt,
    DesignRoundsOpt,
    FillOpt,
    FormatOpt,
    LlmTestsOpt,
    MaxRepairsOpt,
    NameOpt,
    OnlyOpt,
    synth_options,
)
from autoforge.errors import UserError
from autoforge.llm import NO_MODEL

_HELP = (
    "Run the whole pipeline into one run directory: ingest the tool docs, synthesize the "
    "environment (or copy --env), build the tool graph, generate verified tasks, replay every "
    "task's gold calls to its S* hash, export (tau2-bench, parquet) and write report.html. "
    "Resumable: RUN_DIR/run.json records each stage; a rerun skips finished stages, resumes "
    "partial ones (task generation appends to tasks.jsonl) and redoes stages whose inputs "
    "changed. Ctrl-C stops at once and keeps what is done.\n\n"
    "\b\nExamples:\n"
    "  autoforge forge --example bookstore --out runs/bookstore --llm-model small\n"
    "  autoforge forge --env example:bookstore --out runs/bs-hard --tasks 50 \\\n"
    "      --difficulty hard\n"
    "  autoforge forge --env example:bookstore --out runs/bs-llm --tasks 10 \\\n"
    "      --llm-tasks --llm-model small\n"
    "  autoforge forge tau-bench/retail --data tau-bench/retail/db.json --out runs/retail\n\n"
    "A directory of doc sets (each file, or each folder of files, is one) is forged item by "
    "item into --out/NAME, with batch.json and index.html in --out:\n\n"
    "\b\n  autoforge forge apis/ --out runs/apis --tasks 10 --llm none --executor local|ray"
)


class RichForgeReporter:
    """One progress bar per stage, a line for the tool being synthesized, notes above."""

    def __init__(self, progress: Progress, console: Console) -> None:
        self.progress = progress
        self.console = console
        self.bars: dict[str, TaskID] = {}
        self.detail = progress.add_task("", total=None, visible=False)

    def start(self, stage: str, total: int | None, completed: int = 0) -> None:
        if stage in self.bars:
            self.progress.update(self.bars[stage], total=total, completed=completed)
            return
        self.bars[stage] = self.progress.add_task(
            f"[bold]{stage}", total=total, completed=completed
        )

    def advance(self, stage: str, text: str = "") -> None:
        if stage in self.bars:
            self.progress.advance(self.bars[stage])
        if text:
            self.progress.update(self.detail, description=f"  {text}", visible=True)

    def finish(self, stage: str, summary: str) -> None:
        bar = self.bars.get(stage)
        if bar is not None:
            total = self.progress.tasks[bar].total or 1
            self.progress.update(bar, total=total, completed=total,
                                 description=f"[bold]{stage}[/] [dim]{summary}")  # fmt: skip
        self.progress.update(self.detail, visible=False)

    def skip(self, stage: str, summary: str) -> None:
        self.progress.add_task(f"[bold]{stage}[/] [dim]done before, skipped: {summary}",
                               total=1, completed=1)  # fmt: skip

    def note(self, text: str) -> None:
        self.console.print(f"[yellow]note:[/] {text}", highlight=False)

    def synth(self) -> _SynthBars:
        return _SynthBars(self)


class LogForgeReporter:
    """Progress as one log line per step, for output that is not a terminal (CI logs, nohup).

    Each line starts with the time since the run started; tool synthesis lines carry an
    estimate of the time left in that phase (elapsed per finished tool x tools left).
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        self.start_time = time.monotonic()
        self.totals: dict[str, int | None] = {}
        self.done: dict[str, int] = {}

    def log(self, text: str) -> None:
        elapsed = time.monotonic() - self.start_time
        self.console.print(f"[{elapsed:7.1f}s] {text}", highlight=False, soft_wrap=True)

    def start(self, stage: str, total: int | None, completed: int = 0) -> None:
        self.totals[stage], self.done[stage] = total, completed
        self.log(f"{stage}: started" + (f" ({completed}/{total})" if total else ""))

    def advance(self, stage: str, text: str = "") -> None:
        self.done[stage] = self.done.get(stage, 0) + 1
        total = self.totals.get(stage)
        count = f"{self.done[stage]}/{total}" if total else str(self.done[stage])
        self.log(f"{stage}: {count}" + (f" {text}" if text else ""))

    def finish(self, stage: str, summary: str) -> None:
        self.log(f"{stage}: done: {summary}")

    def skip(self, stage: str, summary: str) -> None:
        self.log(f"{stage}: done before, skipped: {summary}")

    def note(self, text: str) -> None:
        self.log(f"note: {text}")

    def synth(self) -> _SynthLog:
        return _SynthLog(self)


class _SynthLog:
    """Synthesis phases and the tool being synthesized, as log lines with an estimate."""

    def __init__(self, parent: LogForgeReporter) -> None:
        self.parent = parent
        self.name, self.total, self.done = "", 0, 0
        self.phase_start = time.monotonic()

    def phase(self, name: str, total: int) -> None:
        self.name, self.total, self.done = name, total, 0
        self.phase_start = time.monotonic()
        self.parent.log(f"environment: {name} ({total})")

    def tool(self, name: str, text: str) -> None:
        self.parent.log(f"environment: {self.name} {self.done + 1}/{self.total} {name}: {text}")

    def advance(self) -> None:
        self.done += 1
        if self.done < self.total:
            per = (time.monotonic() - self.phase_start) / self.done
            left = per * (self.total - self.done)
            self.parent.log(f"environment: {self.name} {self.done}/{self.total}, ~{left:.0f}s left")


class _SynthBars:
    """Synthesis phases (state, tools, check) as sub-bars of the environment stage."""

    def __init__(self, parent: RichForgeReporter) -> None:
        self.parent = parent
        self.current: TaskID | None = None

    def phase(self, name: str, total: int) -> None:
        self.current = self.parent.progress.add_task(f"  environment: {name}", total=total)

    def tool(self, name: str, text: str) -> None:
        self.parent.progress.update(
            self.parent.detail, description=f"    {name}: {text}", visible=True
        )

    def advance(self) -> None:
        if self.current is not None:
            self.parent.progress.advance(self.current)


def register(app: typer.Typer) -> None:
    """Add the ``forge`` command to ``app``."""
    app.command("forge", help=_HELP)(forge)


DocsArg = Annotated[list[Path] | None, typer.Argument(help="Tool documents (any ingest format).")]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o",
        help="Run directory (created; default runs/NAME after the example, env or first doc).",
    ),
]  # fmt: skip
TasksOpt = Annotated[int, typer.Option("--tasks", "-n", min=0, help="Tasks to generate.")]
DifficultyOpt = Annotated[
    str,
    typer.Option(
        "--difficulty", "-d", help="easy, medium, hard, any, or ranges like tool_calls=4-"
    ),
]
PolicyOpt = Annotated[
    Path | None, typer.Option("--policy", help="Policy text (Markdown) for the domain.")
]
ExampleOpt = Annotated[
    str | None,
    typer.Option(
        "--example",
        help="Use a bundled example's docs, policy and sample data: bookstore (docs, data and "
        "policy) or todo (docs and policy only, no data).",
    ),
]
ExampleDataOpt = Annotated[
    bool,
    typer.Option(
        "--example-data/--no-example-data",
        help="With --example: infer the state from the example's data (else design it).",
    ),
]
EnvOpt = Annotated[
    Path | None,
    typer.Option("--env", help="Start from this environment dir (or example:NAME)."),
]
MaxAttemptsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-attempts", min=1, help="Task attempts before giving up (default 50*tasks+100)."
    ),
]
StateOpt = Annotated[
    str,
    typer.Option(
        "--state",
        help="S0 per task: data (a subset of the real records; the default with --data or an"
        " example's data), generate (fresh values; the default otherwise) or initial (the"
        " environment's whole initial state).",
    ),
]
LlmTasksOpt = Annotated[
    bool,
    typer.Option(
        "--llm-tasks/--no-llm-tasks",
        help="LLM edge judge, merge advice and user scenarios in task synthesis.",
    ),
]
UntilOpt = Annotated[
    str | None, typer.Option("--until", help="Stop after this stage (report still written).")
]
ExecutorOpt = Annotated[
    str,
    typer.Option("--executor", help="With a directory of doc sets: local (one by one) or ray."),
]
WorkersOpt = Annotated[
    int, typer.Option("--workers", min=1, help="With --executor ray: parallel doc sets.")
]


def forge(
    docs: DocsArg = None,
    out: OutOpt = None,
    tasks: TasksOpt = 50,
    difficulty: DifficultyOpt = "medium",
    data: DataOpt = None,
    policy: PolicyOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of task generation.")] = 0,
    example: ExampleOpt = None,
    example_data: ExampleDataOpt = True,
    env_dir: EnvOpt = None,
    max_attempts: MaxAttemptsOpt = None,
    state: StateOpt = "auto",
    max_repairs: MaxRepairsOpt = None,
    design_rounds: DesignRoundsOpt = None,
    llm_tests: LlmTestsOpt = None,
    fill: FillOpt = None,
    llm_tasks: LlmTasksOpt = False,
    only: OnlyOpt = None,
    until: UntilOpt = None,
    no_exports: Annotated[bool, typer.Option("--no-exports", help="Skip the exports.")] = False,
    format: FormatOpt = "auto",
    name: NameOpt = None,
    executor: ExecutorOpt = "local",
    workers: WorkersOpt = 2,
    llm_config: LlmConfigOpt = None,
    llm_base_url: LlmBaseUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_api_key: LlmApiKeyOpt = None,
    no_cache: NoCacheOpt = False,
    llm_set: LlmSetOpt = None,
) -> None:
    """Run or resume the pipeline and print the stage table."""
    from autoforge.forge import ForgeOptions, StateSource, is_doc_set_dir

    out = out or default_out(example, env_dir, list(docs or []))
    if state not in ("auto", "generate", "initial", "data"):
        raise UserError(f"--state must be data, generate or initial, got {state!r}")
    if state == "auto":
        with_data = data is not None or (example and example_data and _example_has_data(example))
        state = "data" if with_data else "generate"
    synth = synth_options(name=name, max_repairs=max_repairs, design_rounds=design_rounds,
                          llm_tests=llm_tests, fill=fill, only=list(only or []))  # fmt: skip
    options = ForgeOptions(
        out=out, docs=list(docs or []), example=example, example_data=example_data,
        env_dir=env_dir, data=data,
        policy=policy, doc_format=format, synth=synth, tasks=tasks, difficulty=difficulty,
        seed=seed, state_source=cast(StateSource, state),
        max_attempts=max_attempts,
        llm_tasks=llm_tasks,
        exports=not no_exports, until=until,
    )  # fmt: skip
    config = llm_config_from_options(
        llm_config, llm_base_url, llm_model, llm_api_key, no_cache, llm_set
    )
    options.rules_only = config.role("synthesizer").model == NO_MODEL
    console = Console()
    many = bool(docs and len(docs) == 1 and is_doc_set_dir(docs[0]) and example is None)
    validate_options(options, config, executor, many)
    if many:
        assert docs is not None
        _forge_many(console, docs[0], options, config, executor, workers)
        return
    _forge_one(console, options, config, out)


def _example_has_data(name: str) -> bool:
    """Whether the bundled example ships sample data (an unknown name is reported later)."""
    from autoforge.env import EnvDir
    from autoforge.examples import example_path

    try:
        return EnvDir(example_path(name)).initial_state_path.is_file()
    except UserError:
        return False


def default_out(example: str | None, env_dir: Path | None, docs: list[Path]) -> Path:
    """``runs/NAME``: the example, the environment or the first document names the run."""
    source = example or (env_dir.name.removeprefix("example:") if env_dir else None)
    if source is None and docs:
        source = docs[0].stem if docs[0].is_file() else docs[0].name
    return Path("runs") / (source or "forge")


def validate_options(options: Any, config: Any, executor: str, many: bool) -> None:
    """Every option checked before any work starts and before the run directory exists:
    a mistake found after the environment stage would waste minutes and leave a half run."""
    from autoforge.forge import STAGES
    from autoforge.llm import resolve_endpoint
    from autoforge.tasks import parse_difficulty
    from autoforge.tooldocs import get_importer

    if executor not in ("local", "ray"):
        raise UserError(f"--executor must be local or ray, got {executor!r}")
    if executor != "local" and not many:
        raise UserError("--executor ray forges a directory of doc sets: give one DIR")
    try:
        parse_difficulty(options.difficulty)
    except UserError as exc:
        raise UserError(f"--difficulty {options.difficulty!r}: {exc}") from None
    if options.until is not None and options.until not in STAGES:
        raise UserError(f"--until {options.until!r}: not a stage; stages: {', '.join(STAGES)}")
    if options.doc_format != "auto":
        get_importer(options.doc_format, file="--format")
    resolve_endpoint(config, "synthesizer")  # a model name without an endpoint fails here
    if not many:
        _check_docs(options)


def _check_files(data: Path | None, policy: Path | None) -> None:
    """``--data`` is a JSON object of collections and ``--policy`` a text file."""
    import json

    if policy is not None:
        if not policy.is_file():
            raise UserError(f"--policy {policy}: not a file; give the policy as a text file")
        try:
            policy.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"--policy {policy}: not readable as UTF-8 text ({exc})") from None
    if data is None:
        return
    if not data.is_file():
        raise UserError(f"--data {data}: not a file; give a JSON object of collections")
    try:
        value = json.loads(data.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UserError(f"--data {data}: not JSON ({exc}); give a JSON object of "
                        "collections, e.g. {\"customers\": {\"C1\": {...}}}") from None  # fmt: skip
    if not isinstance(value, dict):
        raise UserError(f"--data {data}: a JSON {type(value).__name__}, not an object of "
                        "collections")  # fmt: skip


def _check_docs(options: Any) -> None:
    """The docs read before the run directory exists: a document that is not tool docs, or
    an ``--only`` that names no documented tool, ends here. Read without a model; a text
    document that a model may still read is left to the run unless the run has no model."""
    import warnings

    from autoforge.env import EnvDir
    from autoforge.forge import resolve_inputs
    from autoforge.tooldocs import TEXT_SUFFIXES, load_docs

    inputs = resolve_inputs(options)
    _check_files(inputs.data, inputs.policy)
    if inputs.env_dir is not None:
        names = [t.name for t in EnvDir(inputs.env_dir).read_spec().tools]
    elif not options.rules_only and any(p.suffix.lower() in TEXT_SUFFIXES for p in inputs.docs):
        return
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            names = [t.name for t in load_docs(inputs.docs, format=options.doc_format).tools]
    unknown = [n for n in options.synth.only or [] if n not in names]
    if unknown:
        raise UserError(
            f"--only {', '.join(unknown)}: not a documented tool; the tools are {', '.join(names)}"
        )


def _forge_one(console: Console, options: Any, config: Any, out: Path) -> None:
    """Run or resume one forge run with progress (bars on a terminal, else log lines), then
    print the stage table and the verdict. Ctrl-C or SIGTERM stops it at once (exit 130)."""
    from autoforge.forge import ForgeError, failed_stage, load_manifest, run_forge
    from autoforge.llm import LLMClient

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip

    def run(reporter: Any) -> Any:
        return run_async(
            run_forge(options, client_factory=lambda: LLMClient(config), reporter=reporter)
        )

    try:
        with stop_on_signals():
            if console.is_terminal:
                with Progress(*columns, console=console) as progress:
                    manifest = run(RichForgeReporter(progress, console))
            else:  # a log file or CI: one line per step instead of bars nobody sees
                manifest = run(LogForgeReporter(console))
    except KeyboardInterrupt:
        ignore_further_signals()
        manifest = load_manifest(out)
        if not _run_complete(manifest):
            _report_interrupt(console, manifest, out)
            exit_interrupted()
    except ForgeError:
        manifest = load_manifest(out)
        if failed_stage(manifest) in (None, "ingest"):
            raise  # the docs could not be read: an input error (exit 2), said as such
        # a later stage made nothing to use (an environment with no working tool): the
        # summary names what failed and why, and the run exits 1 as a run without tasks does
        console.print(stage_table(manifest))
        _verdict(console, manifest, out)
        raise typer.Exit(1) from None
    console.print(stage_table(manifest))
    _verdict(console, manifest, out)


def _run_complete(manifest: Any) -> bool:
    """Every stage of the run is done (a Ctrl-C after the last one interrupted nothing)."""
    from autoforge.forge import STAGES

    stages = manifest.stages
    return all(name in stages and stages[name].status == "done" for name in STAGES)


def _report_interrupt(console: Console, manifest: Any, out: Path) -> None:
    """What an interrupted run kept, where it stopped, and the command that resumes it."""
    from autoforge.forge import STAGES

    stages = manifest.stages
    done = [n for n in STAGES if n in stages and stages[n].status == "done"]
    stopped = next((n for n in STAGES if n not in done), "")
    kept = ", ".join(done) if done else "nothing yet"
    if stopped == "tasks":
        kept += f"; {_count_lines(out / 'tasks.jsonl')} tasks in tasks.jsonl"
    console.print(
        f"[yellow]interrupted[/] during stage {stopped} of {out}; kept: {kept}.\n"
        f"resume with: {resume_command()}",
        highlight=False, soft_wrap=True,
    )  # fmt: skip


def _count_lines(path: Path) -> int:
    if not path.is_file():
        return 0
    with path.open(encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip())


def _forge_many(
    console: Console,
    root: Path,
    options: object,
    config: object,
    executor: str,
    workers: int,
) -> None:
    """Forge each doc set of ``root`` into ``--out/NAME``; print the summary table."""
    from autoforge.forge import ForgeOptions, ItemResult, discover, forge_many
    from autoforge.llm import LLMConfig

    assert isinstance(options, ForgeOptions) and isinstance(config, LLMConfig)
    items = discover(root)
    console.print(f"{len(items)} doc sets in {root} -> {options.out}/NAME ({executor})")

    def line(r: ItemResult) -> None:
        verdict = "[green]done[/]" if r.status == "done" else f"[red]failed[/] ({r.failed_stage})"
        verdict = "[yellow]incomplete[/]" if r.short else verdict
        if r.error:
            verdict += f": {escape(r.error.splitlines()[0])}"
        made = f"{r.tasks} of {r.tasks_asked}" if r.short else str(r.tasks)
        console.print(f"  {r.name}: {verdict}, {made} tasks, {r.forge_seconds:.1f}s",
                      highlight=False, soft_wrap=True)  # fmt: skip
        if r.check_ok is False and r.check_error:
            console.print(f"    check failed: {escape(r.check_error)}", highlight=False,
                          soft_wrap=True)  # fmt: skip
        for why in r.shortfall[1:]:  # the causes and what to try (the counts are above)
            console.print(f"    {escape(why)}", highlight=False, soft_wrap=True)

    try:
        with stop_on_signals():
            report = run_async(
                forge_many(items, options, options.out, config, executor=executor,  # type: ignore[arg-type]
                           workers=workers, on_item=line)
            )  # fmt: skip
    except KeyboardInterrupt:
        ignore_further_signals()
        kept = f"the finished doc sets are kept in {options.out}"
        console.print(f"[yellow]interrupted[/]; {kept}.\nresume with: {resume_command()}",
                      highlight=False, soft_wrap=True)  # fmt: skip
        exit_interrupted()
    console.print(batch_table(report))
    console.print(f"index: {options.out / 'index.html'}", highlight=False)
    if report.counts()["failed"]:
        raise typer.Exit(1)


def batch_table(report: object) -> Table:
    """One row per doc set: status, tools, check, tasks, verified, seconds."""
    from autoforge.forge import BatchReport

    assert isinstance(report, BatchReport)
    table = Table(title=f"autoforge forge: {len(report.items)} doc sets")
    left = ("doc set", "status", "check", "left out (why)")
    for col in ("doc set", "status", "tools", "check", "tasks", "verified", "s", "left out (why)"):
        table.add_column(
            col,
            justify="left" if col in left else "right",
            min_width=10 if col == "status" else None,
        )  # "incomplete" whole
    for r in report.items:
        status = "done" if r.status == "done" else f"failed: {r.failed_stage}"
        status = "incomplete" if r.short else status
        check = "-" if r.check_ok is None else ("passed" if r.check_ok else "FAILED")
        why = sorted(r.tools_left_out.items(), key=lambda kv: -kv[1])[:2]
        made = f"{r.tasks} of {r.tasks_asked}" if r.short else str(r.tasks)
        table.add_row(r.name, status, f"{r.tools}/{r.tools_documented}", check, made,
                      str(r.verified), f"{r.forge_seconds:.1f}",
                      "; ".join(f"{n} x {w}" for w, n in why))  # fmt: skip
    return table


def _left_out_lines(console: Console, out: Path) -> None:
    """The documented tools the environment left out, counted by reason."""
    from autoforge.forge import tool_outcomes

    left, (writes, kept) = tool_outcomes(out)
    for why, n in sorted(left.items(), key=lambda kv: -kv[1]):
        console.print(f"  left out: {n} x {why}", highlight=False)
    if writes:
        console.print(f"  write tools kept: {kept}/{writes}", highlight=False)


def stage_table(manifest: object) -> Table:
    """Stage, status, seconds, tokens, result."""
    from autoforge.forge import RunManifest

    assert isinstance(manifest, RunManifest)
    table = Table(title="autoforge forge")
    for col in ("stage", "status", "s", "LLM calls", "tokens", "result"):
        table.add_column(col, justify="right" if col in ("s", "LLM calls", "tokens") else "left")
    for rec in manifest.stages.values():
        status = "skipped (done)" if rec.skipped_last else rec.status
        result = rec.error or str(rec.detail.get("summary", ""))
        cells = (f"{rec.seconds:.1f}", str(rec.tokens.calls), str(rec.tokens.total_tokens), result)
        table.add_row(rec.name, status, *cells)
    return table


def _verdict(console: Console, manifest: object, out: Path) -> None:
    """The last lines: time and report, then what failed and why; exit 1 when the run failed
    (a task that does not replay, or no task at all)."""
    from autoforge.forge import RunLayout, RunManifest, failed_tools, run_failure, run_shortfall

    assert isinstance(manifest, RunManifest)
    layout = RunLayout(out)
    synthesis = _read_json(layout.env_dir.report_path)
    used = manifest.tokens
    cached = f" ({used.cache_hits} of {used.calls} calls from the cache)" if used.cache_hits else ""
    console.print(
        f"{manifest.seconds:.0f}s over {manifest.sessions} session(s), "
        f"{used.total_tokens:,} LLM tokens{cached}; report: {out / 'report.html'}",
        highlight=False,
    )
    env_stage = manifest.stages.get("environment")
    readings = env_stage.detail.get("model_readings") if env_stage else None
    if readings:
        console.print(f"model: {readings}", highlight=False, soft_wrap=True)
    for name, why in failed_tools(synthesis):
        console.print(f"[red]tool {name} failed:[/] {why}", highlight=False, soft_wrap=True)
    env = manifest.stages.get("environment")
    _left_out_lines(console, out)
    check = env.detail.get("conformance", {}) if env else {}
    if env and check and not check.get("ok"):
        errors = check.get("errors") or []
        first = f"; first: {errors[0]}" if errors else ""
        text = f"({len(errors)} errors{first})"
        console.print(f"[red]the environment failed its conformance check[/] {text}",
                      highlight=False, soft_wrap=True)  # fmt: skip
    for line in run_shortfall(out, manifest):
        if not line.startswith("tool "):  # the failed tools are listed above
            console.print(f"[yellow]tasks:[/] {line}", highlight=False, soft_wrap=True)
    verify = manifest.stages.get("verify")
    unverified = list(verify.detail.get("failed", [])) if verify else []
    if unverified:
        console.print(f"[red]{len(unverified)} task(s) did not replay to their S* hash[/]")
    failure = run_failure(manifest)
    if failure:
        console.print(f"[red]run failed:[/] {failure}", highlight=False, soft_wrap=True)
    if unverified or failure:
        raise typer.Exit(1)


def _read_json(path: Path) -> Any:
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
