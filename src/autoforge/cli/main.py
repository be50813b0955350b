"""The ``autoforge`` command line: one Typer app, each stage registering its own commands.

Each module in ``COMMAND_MODULES`` exposes ``register(app)``. User mistakes (bad docs, missing
files, malformed environments) are printed as one message without a traceback, exit status 2.
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from autoforge import __version__
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

#: ``autoforge --help`` lists the commands in pipeline order: the whole job, then its stages
#: from docs to a trained agent, then the ecosystem and model helpers.
COMMAND_ORDER = ("forge", "ingest", "synth", "check", "fidelity", "serve", "eval", "train",
                 "sft", "export", "llm")  # fmt: skip


class PipelineOrderGroup(TyperGroup):
    """A command group that lists its commands in :data:`COMMAND_ORDER` (others after)."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(self.commands)
        rank = {name: i for i, name in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda n: (rank.get(n, len(rank)), names.index(n)))


app = typer.Typer(
    name="autoforge",
    cls=PipelineOrderGroup,
    help=(
        "Turn tool documentation into verifiable RL environments and tasks for tool-using "
        "LLM agents.\n\n\b\nExample: the whole pipeline with the small embedded model\n"
        "(then open runs/bookstore/report.html):\n"
        "  autoforge forge --example bookstore --out runs/bookstore --llm-model small"
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: option descriptions get the width, not 17 columns
    add_completion=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"autoforge {__version__}")
        raise typer.Exit()


VersionOpt = Annotated[
    bool,
    typer.Option(
        "--version", is_eager=True, callback=_print_version, help="Print the version and exit."
    ),
]


@app.callback()
def _root(version: VersionOpt = False) -> None:
    """Options of ``autoforge`` itself (before the command)."""


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
