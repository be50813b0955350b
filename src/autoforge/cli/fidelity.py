"""``autoforge fidelity``: replay a benchmark's ground truth in a synthesized environment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from autoforge.errors import UserError

_HELP = (
    "Measure how faithfully a synthesized environment reproduces a benchmark domain: load the "
    "benchmark's db.json as the state, replay every task's ground-truth actions and compare "
    "with gt_replay.json (error flags and write effects per action; final state per task).\n\n"
    "Example:\n\n  autoforge fidelity envs/retail --bench ../shared/benchmarks/tau2-bench/retail"
)


def register(app: typer.Typer) -> None:
    """Add the ``fidelity`` command to ``app``."""
    app.command("fidelity", help=_HELP)(fidelity)


def fidelity(
    env_dir: Annotated[Path, typer.Argument(help="Synthesized environment directory.")],
    bench: Annotated[
        Path, typer.Option("--bench", help="Benchmark domain dir (db.json, tasks.json, ...).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary only.")] = False,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the full report JSON here.")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Replay only the first N tasks.")
    ] = None,
) -> None:
    """Replay, score, print a table (or JSON with ``--json``)."""
    from autoforge.synth.fidelity import run_fidelity

    if not env_dir.is_dir():
        raise UserError(f"{env_dir}: not an environment directory")
    if not bench.is_dir():
        raise UserError(f"--bench {bench}: not a directory")
    report = run_fidelity(env_dir, bench, limit=limit)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(report.headline()))
        return
    console = Console()
    console.print(fidelity_table(report))
    console.print(
        f"action agreement {report.action_agreement:.3f} over {report.actions} actions; "
        f"task agreement {report.task_agreement:.3f} over {report.tasks} tasks "
        f"({report.skipped_tasks} skipped); {report.wall_s:.1f}s",
        highlight=False,
    )
    if report.never_exercised:
        console.print(f"never exercised: {', '.join(report.never_exercised)}", highlight=False)
    if report.missing_tools:
        console.print(f"missing from the env: {', '.join(report.missing_tools)}", highlight=False)


def fidelity_table(report: object) -> Table:
    """One row per tool: calls, error-flag agreement, write agreement, overall agreement."""
    from autoforge.synth.fidelity import FidelityReport

    assert isinstance(report, FidelityReport)
    table = Table(title=f"fidelity of {report.env} against {report.bench}")
    for col in ("tool", "calls", "error flag", "writes", "writes ok", "agreement"):
        table.add_column(col, justify="left" if col == "tool" else "right")
    for name, t in sorted(report.per_tool.items()):
        table.add_row(
            name + (" (missing)" if t.missing else ""),
            str(t.calls),
            f"{t.error_flag_agree}/{t.calls}",
            str(t.writes),
            f"{t.write_agree}/{t.writes}" if t.writes else "-",
            f"{t.agreement:.2f}",
        )
    return table
