"""``autoforge synth env``: synthesize an environment (state schema + tool code) from tool docs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

from autoforge.cli.llm import (
    LlmApiKeyOpt,
    LlmBaseUrlOpt,
    LlmConfigOpt,
    LlmModelOpt,
    LlmSetOpt,
    NoCacheOpt,
    llm_config_from_options,
)
from autoforge.errors import UserError

# The synthesis options shared by ``synth env`` and ``forge``; unset = ``SynthOptions``' default
# (1 repair, 1 design round, LLM tests off: autoforge.synth.options, the one owner).
MaxRepairsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-repairs", min=0, help="Repair rounds per tool after the first [default: 1]"
    ),
]
DesignRoundsOpt = Annotated[
    int | None,
    typer.Option("--design-rounds", min=0, help="State-design feedback rounds (LLM) [default: 1]."),
]
LlmTestsOpt = Annotated[
    bool | None,
    typer.Option("--llm-tests/--no-llm-tests", help="LLM-proposed tool test cases [default: off]."),
]
FillOpt = Annotated[
    str | None,
    typer.Option(
        "--fill",
        help="How the model writes a tool no template covers: 'todo' fills the rule draft's "
        "TODO steps one short prompt at a time (what a 1.5B can do), 'function' asks for the "
        "whole function [default: todo].",
    ),
]
OnlyOpt = Annotated[list[str] | None, typer.Option("--only", help="Synthesize only these tools.")]
DataOpt = Annotated[
    Path | None, typer.Option("--data", help="db.json: infer the state from this data.")
]
NameOpt = Annotated[str | None, typer.Option("--name", help="Environment name.")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="Doc format (auto).")]
PolicyOpt = Annotated[
    Path | None, typer.Option("--policy", help="Policy text (Markdown) for the prompts.")
]
NoTemplatesOpt = Annotated[
    bool,
    typer.Option(
        "--no-templates",
        help="Let the LLM write plain CRUD tools too (without data, also those the "
        "behaviour model would write; it still fills what the LLM fails).",
    ),
]
NoFallbackOpt = Annotated[
    bool, typer.Option("--no-fallback", help="Never keep the rule-based skeleton.")
]
ConventionsOpt = Annotated[
    str,
    typer.Option(
        "--conventions", help="Opt-in benchmark convention profile (generic|tau); off by default."
    ),
]


def synth_options(**given: Any) -> Any:
    """``SynthOptions`` from the given values; ``None`` keeps the option's default."""
    from autoforge.synth import SynthOptions

    if given.get("fill") not in (None, "todo", "function"):
        raise UserError(f"--fill must be todo or function, got {given['fill']!r}")
    return SynthOptions(**{k: v for k, v in given.items() if v is not None})


_HELP = (
    "Synthesize a verifiable environment from tool docs: design the state (or infer it from "
    "--data), write one Python function per tool (templates for plain CRUD, the LLM with "
    "check-and-repair for the rest), then run the conformance check. Resumable: tools already "
    "accepted are kept under ENV_DIR/.synth/ and not regenerated.\n\n"
    "Examples:\n\n"
    "  autoforge synth env tools.openai.json --policy policy.md --out envs/todo\n\n"
    "  autoforge synth env tau2-bench/retail "
    "--data tau2-bench/retail/db.json --out envs/retail"
)


class RichReporter:
    """Progress bars: one per phase, plus a line naming the tool being synthesized."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.current: TaskID | None = None
        self.tool_line = progress.add_task("", total=None, visible=False)

    def phase(self, name: str, total: int) -> None:
        self.current = self.progress.add_task(f"[bold]{name}", total=total)

    def tool(self, name: str, text: str) -> None:
        self.progress.update(self.tool_line, description=f"  {name}: {text}", visible=True)

    def advance(self) -> None:
        if self.current is not None:
            self.progress.advance(self.current)


def register(app: typer.Typer) -> None:
    """Add the ``synth`` command group (``env``) to ``app``."""
    group = typer.Typer(help="Environment synthesis from tool docs.", no_args_is_help=True)
    group.command("env", help=_HELP)(env)
    app.add_typer(group, name="synth")


def _read_data(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    if not path.is_file():
        raise UserError(f"--data {path}: no such file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UserError(f"--data {path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise UserError(f"--data {path}: expected a JSON object of collections")
    return data


def env(
    docs: Annotated[list[Path], typer.Argument(help="Tool documents (any ingest format).")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Environment directory to write (default envs/NAME)."),
    ] = None,
    data: DataOpt = None,
    policy: PolicyOpt = None,
    max_repairs: MaxRepairsOpt = None,
    design_rounds: DesignRoundsOpt = None,
    name: NameOpt = None,
    format: FormatOpt = "auto",
    no_templates: NoTemplatesOpt = False,
    llm_tests: LlmTestsOpt = None,
    no_fallback: NoFallbackOpt = False,
    fill: FillOpt = None,
    only: OnlyOpt = None,
    conventions: ConventionsOpt = "generic",
    llm_config: LlmConfigOpt = None,
    llm_base_url: LlmBaseUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_api_key: LlmApiKeyOpt = None,
    no_cache: NoCacheOpt = False,
    llm_set: LlmSetOpt = None,
) -> None:
    """Run the synthesis and print the per-tool report and the conformance verdict."""
    from autoforge.llm import LLMClient, resolve_endpoint
    from autoforge.synth import synthesize
    from autoforge.tooldocs import load_docs

    config = llm_config_from_options(
        llm_config, llm_base_url, llm_model, llm_api_key, no_cache, llm_set
    )
    resolve_endpoint(config, "synthesizer")  # a model without an endpoint fails before any work
    loaded = load_docs(docs, format=format, llm=lambda: LLMClient(config))
    out = out or Path("envs") / (name or loaded.domain)
    db = _read_data(data)
    policy_text = policy.read_text(encoding="utf-8") if policy is not None else None
    client = LLMClient(config)
    options = synth_options(
        name=name,
        max_repairs=max_repairs,
        design_rounds=design_rounds,
        use_templates=not no_templates,
        llm_tests=llm_tests,
        fallback=not no_fallback,
        fill=fill,
        policy=policy_text,
        only=list(only or []),
        conventions=conventions,
    )
    console = Console()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console) as progress:
        reporter = RichReporter(progress)
        report = asyncio.run(
            synthesize(loaded, out, client, data=db, options=options, reporter=reporter)
        )
    _print_result(console, report, client, out)


def _print_result(console: Console, report: Any, client: Any, out: Path) -> None:
    """The per-tool table, LLM usage, the counts and the conformance verdict (exit 1 if bad)."""
    from autoforge.llm import print_usage
    from autoforge.synth import report_table

    console.print(report_table(report))
    print_usage(client.usage, console)
    counts = report.counts()
    console.print(
        f"tools: {counts['template']} template, {counts['first_attempt']} first attempt, "
        f"{counts['after_repair']} after repair, {counts['fallback']} fallback, "
        f"{counts['behaviour']} from the behaviour model ({counts['partial']} partial), "
        f"{counts['failed']} failed; {report.wall_s:.0f}s; wrote {out}",
        highlight=False,
    )
    check = report.conformance or {}
    for line in check.get("warnings", [])[:10]:
        console.print(f"[yellow]check warning:[/] {line}", highlight=False)
    if check.get("ok"):
        console.print(f"[green]conformance check passed[/] ({check.get('calls', 0)} calls)")
    else:
        problems = check.get("errors") or [check.get("error", "unknown problem")]
        for line in problems[:10]:
            console.print(f"[red]check error:[/] {line}", highlight=False)
        console.print("[red]conformance check failed[/]")
        raise typer.Exit(1)
