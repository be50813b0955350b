"""``autoforge export``: a forged run handed to another ecosystem as an installable package."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from autoforge.errors import UserError, install_hint

_EXAMPLE = (
    "Examples:\n\n"
    "  autoforge export verifiers runs/shop --out pkgs/shop\n\n"
    "  autoforge export verifiers runs/shop --out pkgs/shop --wheel --name shop-env\n\n"
    "  pip install pkgs/shop/dist/*.whl && autoforge serve shop-env"
)


def register(app: typer.Typer) -> None:
    """Add the ``export`` command group to ``app``."""
    export = typer.Typer(help="Export a forged run for other ecosystems.", no_args_is_help=True)
    export.command(
        "verifiers",
        help=(
            "Write an installable package (environment.json, tools.py, tasks) whose "
            "load_environment() returns a verifiers multi-turn tool environment with the "
            "exact-state reward; --wheel also builds a wheel. Installed, the package is also an "
            "'autoforge serve NAME' target.\n\n" + _EXAMPLE
        ),
    )(verifiers)
    app.add_typer(export, name="export")


def verifiers(
    run_dir: Annotated[str, typer.Argument(help="Run dir (env/ + tasks.jsonl) to export.")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Package directory (default RUN_DIR-verifiers)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="Distribution name (default autoforge-env-<env name>).")
    ] = None,
    wheel: Annotated[bool, typer.Option("--wheel", help="Also build dist/*.whl.")] = False,
) -> None:
    """Write the package (and its wheel)."""
    import importlib.util

    if importlib.util.find_spec("verifiers") is None:
        raise UserError("autoforge export verifiers needs verifiers: " + install_hint("adapters"))
    from autoforge.adapters import export_package

    out = out or Path(f"{str(run_dir).rstrip('/')}-verifiers")
    exported = export_package(run_dir, out, name=name, wheel=wheel)
    err = Console(stderr=True)
    err.print(
        f"wrote [bold]{exported.dist_name}[/] ({exported.n_tasks} tasks) to {exported.root}",
        highlight=False,
    )
    if exported.wheel is not None:
        err.print(f"wheel: {exported.wheel}", highlight=False)
