"""``autoforge fidelity``: how closely a synthesized environment behaves like its reference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from autoforge.errors import UserError

_HELP = (
    "Measure whether a synthesized environment behaves like the API it was made from.\n\n"
    "REF is a reference API folder (openapi.yaml, db.json, ref_impl.py, probes.py: the "
    "reference's own probes run on both sides, each on a fresh copy of db.json; decision "
    "balanced accuracy and write-effect agreement, the refuse-everything environment beside), "
    "a benchmark domain dir (db.json, tasks.json, gt_replay.json: every task's "
    "ground-truth actions are replayed and compared on error flag, returned value and state), a "
    "Python file of reference tool functions f(state, **args), or the base URL of a live HTTP "
    "API described by --openapi (probes are generated: valid calls on records in every status, "
    "precondition violations, unknown ids, wrong types). Every figure is shown beside the null "
    "environment's (every call succeeds, nothing changes), computed by the same code.\n\n"
    "Examples:\n\n"
    "  autoforge fidelity envs/kanban --against refapis/kanban\n\n"
    "  autoforge fidelity envs/retail --against tau2-bench/retail\n\n"
    "  autoforge fidelity envs/bookstore --against src/autoforge/examples/bookstore/tools.py\n\n"
    "  autoforge fidelity envs/shop --against http://127.0.0.1:8000 --openapi openapi.yaml"
)


def register(app: typer.Typer) -> None:
    """Add the ``fidelity`` command to ``app``."""
    app.command("fidelity", help=_HELP)(fidelity)


def fidelity(
    env_dir: Annotated[Path, typer.Argument(help="Synthesized environment directory.")],
    against: Annotated[
        str | None,
        typer.Option("--against", help="Benchmark dir, reference .py file, or http(s) URL."),
    ] = None,
    bench: Annotated[
        Path | None, typer.Option("--bench", help="Benchmark domain dir (same as --against DIR).")
    ] = None,
    split: Annotated[
        str | None,
        typer.Option("--split", help="splits.json split to replay (default: test, else all)."),
    ] = None,
    openapi: Annotated[
        Path | None, typer.Option("--openapi", help="OpenAPI document of an HTTP reference.")
    ] = None,
    reset: Annotated[
        str | None, typer.Option("--reset", help="Path POSTed before each HTTP probe.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary only.")] = False,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the full report JSON here.")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Replay only the first N tasks.")
    ] = None,
    probes: Annotated[
        int, typer.Option("--probes", min=1, help="Reference API folder: number of probes.")
    ] = 400,
    seed: Annotated[int, typer.Option("--seed", help="Reference API folder: probe seed.")] = 7,
    agent_side: Annotated[
        bool,
        typer.Option(
            "--agent-side",
            help="Replay the agent's actions only (user-side actions and initialisation left "
            "out, agent-side setup calls run first); for benchmarks with a simulated user's "
            "own tools (tau2 telecom).",
        ),
    ] = False,
) -> None:
    """Replay or probe, score, print a table (or JSON with ``--json``)."""
    if not env_dir.is_dir():
        raise UserError(f"{env_dir}: not an environment directory")
    ref = against if against is not None else (str(bench) if bench is not None else None)
    if ref is None:
        raise UserError("fidelity needs --against REF (a benchmark dir, a .py file or a URL)")
    from autoforge.synth import is_refapi_dir

    if not ref.startswith(("http://", "https://")) and is_refapi_dir(Path(ref)):
        _refapi(env_dir, Path(ref), probes, seed, as_json, out)
    elif not ref.startswith(("http://", "https://")) and Path(ref).is_dir():
        _replay(env_dir, Path(ref), split, limit, as_json, out, agent_side)
    elif ref.startswith(("http://", "https://")) or ref.endswith(".py"):
        _probe(env_dir, ref, openapi, reset, as_json, out)
    else:
        raise UserError(f"--against {ref}: not a directory, a .py file or an http(s) URL")


def _write(out: Path | None, report: Any) -> None:
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(report.model_dump_json(indent=2), encoding="utf-8")


def _refapi(env_dir: Path, ref: Path, n: int, seed: int, as_json: bool, out: Any) -> None:
    from autoforge.synth import score_refapi

    report = score_refapi(env_dir, ref, n=n, seed=seed)
    _write(out, report)
    if as_json:
        typer.echo(json.dumps(report.headline()))
        return
    console = Console()
    console.print(refapi_table(report))
    console.print(figures_table(report.figures.model_dump(), report.null.model_dump(), "probes"))
    if report.load_error:
        console.print(f"environment did not load: {report.load_error}", highlight=False)
    if report.missing_tools:
        console.print(f"missing from the env: {', '.join(report.missing_tools)}", highlight=False)
    if report.host_exceptions:
        console.print(f"host exceptions (counted as refusals): {report.host_exceptions}")


def refapi_table(report: Any) -> Table:
    """One row per tool: probes, accepts kept, refusals kept, write effects kept."""
    table = Table(title=f"probes of {report.env} against {report.against}")
    for col in ("tool", "probes", "accepts kept", "refusals kept", "write effect"):
        table.add_column(col, justify="left" if col == "tool" else "right")
    for name, t in report.per_tool.items():
        table.add_row(
            name + (" (missing)" if t.missing else ""), str(t.probes),
            f"{t.accepts_kept}/{t.ref_accepted}", f"{t.refusals_kept}/{t.ref_refused}",
            f"{t.effects_kept}/{t.ref_writes}" if t.ref_writes else "-",
        )  # fmt: skip
    return table


def _replay(
    env_dir: Path,
    bench: Path,
    split: str | None,
    limit: int | None,
    as_json: bool,
    out: Any,
    agent_side: bool = False,
) -> None:
    from autoforge.adapters.tau import bench_fidelity

    report = bench_fidelity(env_dir, bench, limit=limit, split=split, agent_side=agent_side)
    _write(out, report)
    if as_json:
        typer.echo(json.dumps(report.headline()))
        return
    console = Console()
    console.print(fidelity_table(report))
    console.print(figures_table(report.figures.rounded(), report.null.rounded(), report.split))
    if report.never_exercised:
        console.print(f"never exercised: {', '.join(report.never_exercised)}", highlight=False)
    if report.missing_tools:
        console.print(f"missing from the env: {', '.join(report.missing_tools)}", highlight=False)


def _probe(
    env_dir: Path, ref: str, openapi: Path | None, reset: str | None, as_json: bool, out: Any
) -> None:
    from autoforge.synth import run_probes

    report = run_probes(env_dir, ref, openapi=openapi, reset=reset)
    _write(out, report)
    if as_json:
        typer.echo(json.dumps(report.headline()))
        return
    console = Console()
    table = Table(title=f"probes of {report.env} against {report.against}")
    for col in ("tool", "probes", "acceptance", "results", "state"):
        table.add_column(col, justify="left" if col == "tool" else "right")
    for name, t in sorted(report.per_tool.items()):
        table.add_row(
            name, str(t.probes), f"{t.acceptance_agree}/{t.probes}",
            f"{t.result_agree}/{t.both_accepted}", f"{t.state_agree}/{t.state_compared}",
        )  # fmt: skip
    console.print(table)
    console.print(figures_table(report.figures.rounded(), report.null.rounded(), "probes"))
    if report.missing_tools:
        console.print(f"not probed (missing from the env): {', '.join(report.missing_tools)}")
    for d in report.disagreements:
        console.print(
            f"[bold]{d.tool}[/] {d.kind} {json.dumps(d.arguments)[:100]}: {', '.join(d.what)}\n"
            f"    ours: {d.ours[:110]}\n    ref:  {d.reference[:110]}",
            highlight=False,
        )


def figures_table(ours: dict[str, Any], null: dict[str, Any], split: str) -> Table:
    """Each figure beside the null environment's."""
    table = Table(title=f"agreement ({split}) beside the null environment")
    for col in ("figure", "environment", "null environment"):
        table.add_column(col, justify="left" if col == "figure" else "right")
    for key, value in ours.items():
        table.add_row(key, str(value), str(null.get(key, "")))
    return table


def fidelity_table(report: object) -> Table:
    """One row per tool: calls, error-flag, result and write agreement, overall agreement."""
    from autoforge.synth import FidelityReport

    assert isinstance(report, FidelityReport)
    table = Table(title=f"fidelity of {report.env} against {report.bench} ({report.split})")
    for col in ("tool", "calls", "error flag", "results", "writes", "writes ok", "agreement"):
        table.add_column(col, justify="left" if col == "tool" else "right")
    for name, t in sorted(report.per_tool.items()):
        table.add_row(
            name + (" (missing)" if t.missing else ""),
            str(t.calls),
            f"{t.error_flag_agree}/{t.calls}",
            f"{t.result_agree}/{t.results}" if t.results else "-",
            str(t.writes),
            f"{t.write_agree}/{t.writes}" if t.writes else "-",
            f"{t.agreement:.2f}",
        )
    return table
