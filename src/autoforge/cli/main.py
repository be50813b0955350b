"""The ``autoforge`` command line: one Typer app, each stage registering its own commands.

Each module in ``COMMAND_MODULES`` exposes ``register(app)``. User mistakes (bad docs, missing
files, malformed environments) are printed as one message without a traceback, exit status 2.
"""

from __future__ import annotations

import importlib
import sys

import typer
from rich.console import Console
from rich.markup import escape

from autoforge.errors import USER_FIXABLE

COMMAND_MODULES = [
    "autoforge.cli.ingest",
    "autoforge.cli.check",
    "autoforge.cli.serve",
    "autoforge.cli.llm",
    "autoforge.cli.synth",
    "autoforge.cli.fidelity",
    "autoforge.cli.forge",
    "autoforge.cli.eval",
    "autoforge.cli.train",
    "autoforge.cli.export",
]

#: One-line errors without a traceback: the ``UserError`` branch of ``autoforge.errors``.
USER_ERRORS = USER_FIXABLE

app = typer.Typer(
    name="autoforge",
    help=(
        "Turn tool documentation into verifiable RL environments and tasks for tool-using "
        "LLM agents.\n\nExample: autoforge ingest openapi.yaml --out tools.json"
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _register_all() -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(app)


_register_all()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``autoforge`` script."""
    err = Console(stderr=True)
    try:
        app(args=argv, standalone_mode=True)
    except USER_ERRORS as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
