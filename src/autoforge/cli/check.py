"""``autoforge check``: run the conformance checker on an environment directory."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from autoforge.env import EnvDir
from autoforge.errors import UserError
from autoforge.synth import CheckItem, CheckReport, check_directory

_EXAMPLE = (
    "Examples:\n\n"
    "  autoforge check envs/bookstore\n\n"
    "  autoforge check runs/bookstore      # a forge run: checks its env/\n\n"
    "  autoforge check envs/shop --sequences replays.json --json > report.json\n\n"
    "  autoforge check envs/shop --inline   # faster; only for code you already trust"
)


_ENV_HELP = "An environment directory, a forge run directory (its env/) or example:NAME."


def register(app: typer.Typer) -> None:
    """Add the ``check`` command to ``app``."""
    app.command(
        "check",
        help=(
            "Check an environment directory (environment.json, tools.py, initial_state.json): "
            "valid schemas and signatures, sandbox, no crashes on sampled calls, read tools "
            "leave the state unchanged, unknown ids give tool errors, replays are "
            "deterministic, reset restores the initial hash; and what the tools' own docs make "
            "checkable (a documented read that writes, a write adding attributes the schema "
            "lacks, an update changing fields the call did not mention, a documented list "
            "return that is not a list, a create whose id breaks the data's pattern). Exit "
            "status 1 when a check fails.\n\n" + _EXAMPLE
        ),
    )(check)


def check(
    env_dir: Annotated[Path, typer.Argument(help=_ENV_HELP)],
    sequences: Annotated[
        Path | None,
        typer.Option(
            "--sequences",
            help="JSON list of call sequences to replay (default: ENV_DIR/sequences.json "
            "when present, else sampled calls).",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (for machines).")
    ] = False,
    inline: Annotated[
        bool,
        typer.Option(
            "--inline",
            help="Trust the code: run it in this process, without the sandbox worker.",
        ),
    ] = False,
) -> None:
    """Check ``env_dir``; exit 1 when a check fails."""
    env_dir = EnvDir.resolve(env_dir).root  # also a forge run directory (its env/) or example
    if not env_dir.is_dir():
        raise UserError(f"{env_dir}: not a directory (expected an environment directory)")
    if sequences is not None and not sequences.is_file():
        raise UserError(f"{sequences}: no such file (--sequences)")
    report = check_directory(env_dir, sequences, mode="inline" if inline else "isolated")
    if not any(i.check == "load" and not i.ok for i in report.items):
        report = with_doc_checks(report, env_dir, trusted=inline)
    if as_json:
        typer.echo(json.dumps(report.model_dump(mode="json"), indent=2))
    else:
        print_report(report, Console())
        _print_missing_tools(env_dir, Console())
    if not report.ok:
        raise typer.Exit(1)


def _print_missing_tools(env_dir: Path, console: Console) -> None:
    """The documented tools synthesis could not build: the checks above cover only the tools
    the environment has, so a PASS must not hide the ones it lacks."""
    from autoforge.forge import failed_tools

    report = EnvDir(env_dir).report_path
    try:
        synthesis = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
    except ValueError:
        return
    for name, why in failed_tools(synthesis):
        console.print(f"[yellow]documented tool {name} is missing:[/] {why}", highlight=False,
                      soft_wrap=True)  # fmt: skip


def with_doc_checks(report: CheckReport, env_dir: Path, *, trusted: bool) -> CheckReport:
    """``report`` plus the checks the tools' docs and the initial state make possible
    (:func:`autoforge.synth.fidelity.envdir_checks.check_env_dir`); a failing one fails the
    report."""
    from autoforge.synth import check_env_dir

    items = [
        CheckItem(check=f"docs:{name}", tool=tool, ok=ok, detail=detail)
        for name, tool, ok, detail in check_env_dir(env_dir, trusted=trusted)
    ]
    ok = report.ok and all(i.ok for i in items)
    return report.model_copy(update={"items": [*report.items, *items], "ok": ok})


def _row_style(item: CheckItem) -> tuple[str, str]:
    if item.ok:
        return "[green]ok[/]", ""
    if item.severity == "warning":
        return "[yellow]warn[/]", "yellow"
    return "[bold red]FAIL[/]", "red"


def print_report(report: CheckReport, console: Console) -> None:
    """A table of the checks, failures first, then a one-line verdict."""
    table = Table(title=f"environment {report.env_name}: conformance")
    table.add_column("status", no_wrap=True, min_width=4)
    table.add_column("check", no_wrap=True, min_width=13)
    table.add_column("tool", max_width=30, overflow="fold")
    table.add_column("detail", ratio=1, overflow="fold")
    order = {"error": 0, "warning": 1}
    bad = sorted((i for i in report.items if not i.ok), key=lambda i: order[i.severity])
    for item in bad:
        status, style = _row_style(item)
        table.add_row(status, item.check, item.tool or "", item.detail, style=style)
    passed: dict[str, list[CheckItem]] = {}
    for item in report.items:
        if item.ok:
            passed.setdefault(item.check, []).append(item)
    for name, group in passed.items():
        tools = [i.tool for i in group if i.tool]
        detail = _passed_detail(group)
        shown = ", ".join(tools[:4]) + (f" (+{len(tools) - 4})" if len(tools) > 4 else "")
        table.add_row("[green]ok[/]", name, shown, detail)
    console.print(table)
    if report.boundary:
        console.print(report.boundary, markup=False)
    verdict = "[bold green]PASS[/]" if report.ok else "[bold red]FAIL[/]"
    console.print(
        f"{verdict}: {len(report.failures)} failure(s), {len(report.warnings)} warning(s), "
        f"{report.calls} calls in {report.elapsed_s:.2f} s",
        highlight=False,
    )


def _passed_detail(group: list[CheckItem]) -> str:
    """The detail cell of one check's passed items: each item's detail behind its tool's
    name, cut at a word (the whole text is in the JSON report), or the count."""
    said = [i for i in group if i.detail]
    if not said:
        return f"{len(group)} passed"
    if len(said) == 1:
        return said[0].detail
    return "; ".join(
        f"{i.tool + ': ' if i.tool else ''}{textwrap.shorten(i.detail, 70, placeholder=' ...')}"
        for i in said
    )
