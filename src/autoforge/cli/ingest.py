"""``autoforge ingest``: read tool documents into the ToolDocs IR and show what was found."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from autoforge.cli.llm import (
    LlmApiKeyOpt,
    LlmBaseUrlOpt,
    LlmConfigOpt,
    LlmModelOpt,
    LlmSetOpt,
    NoCacheOpt,
    llm_config_from_options,
)
from autoforge.tooldocs import DocWarning, ToolDocs, ToolSpec, load_docs

_FORMAT_HELP = (
    "Input format: auto (detect by content), openai, openapi (3.x), swagger2, mcp, markdown, "
    "bench, autoforge, or any other registered importer."
)
_EXAMPLE = (
    "Examples:\n\n"
    "  autoforge ingest api/openapi.yaml --out tools.json\n\n"
    "  autoforge ingest mcp_tools.json extra_tools.json --domain shop --out tools.json\n\n"
    "  autoforge ingest tau2-bench/airline --format bench --out -\n\n"
    "  autoforge ingest api.md --llm-model small --out tools.json"
)


def register(app: typer.Typer) -> None:
    """Add the ``ingest`` command to ``app``."""
    app.command(
        "ingest",
        help=(
            "Import tool documentation (OpenAI tool lists, OpenAPI 3.x, Swagger 2.0, MCP "
            "tools/list, Markdown, a benchmark domain directory, or a ToolDocs JSON) into one "
            "ToolDocs IR; print a summary table and, with --out, write the IR as JSON.\n\n"
            "Markdown is read by rules when each tool has a heading with its name (`## "
            "get_member` or `## get_member(member_id)`) and its parameters as bullets "
            "(`- member_id (string, required): text`) or as a table with a name (or parameter), "
            "type, required and description column; prose the rules cannot read goes to the LLM "
            "set by the --llm-* options.\n\n" + _EXAMPLE
        ),
    )(ingest)


def ingest(
    docs: Annotated[
        list[Path], typer.Argument(help="Tool documents (files or benchmark domain dirs).")
    ],
    format: Annotated[str, typer.Option("--format", "-f", help=_FORMAT_HELP)] = "auto",
    domain: Annotated[
        str | None, typer.Option("--domain", help="Domain name (default: from the input).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write the ToolDocs JSON here ('-' for stdout)."),
    ] = None,
    llm_config: LlmConfigOpt = None,
    llm_base_url: LlmBaseUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_api_key: LlmApiKeyOpt = None,
    no_cache: NoCacheOpt = False,
    llm_set: LlmSetOpt = None,
) -> None:
    """Import ``docs`` and report; raises DocParseError for bad input (printed in one line)."""
    from autoforge.llm import LLMClient

    to_stdout = out is not None and str(out) == "-"
    console = Console(stderr=to_stdout)
    config = llm_config_from_options(
        llm_config, llm_base_url, llm_model, llm_api_key, no_cache, llm_set
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DocWarning)
        result = load_docs(docs, format=format, domain=domain, llm=lambda: LLMClient(config))
    console.print(summary_table(result))
    for warning in caught:
        if issubclass(warning.category, DocWarning):
            console.print(f"[yellow]warning:[/] {warning.message}", highlight=False, soft_wrap=True)
    text = json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    if to_stdout:
        typer.echo(text, nl=False)
    elif out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {len(result.tools)} tools to {out}", highlight=False)
    else:
        console.print("(not written: pass --out FILE to save the IR)", style="dim")


def summary_table(docs: ToolDocs) -> Table:
    """One row per tool: name, parameter count, required names, access, source.

    When every tool comes from one file, the file goes in the caption and the source column
    holds only the JSON pointers.
    """
    policy = f", policy {len(docs.policy)} chars" if docs.policy else ""
    files = {t.source.file for t in docs.tools if t.source is not None}
    one_file = next(iter(files)) if len(files) == 1 else None
    table = Table(
        title=f"domain {docs.domain}: {len(docs.tools)} tools{policy}",
        caption=f"source: {one_file}" if one_file else None,
    )
    table.add_column("tool", style="bold", no_wrap=True)
    table.add_column("#params", justify="right")
    table.add_column("required")
    table.add_column("access")
    table.add_column("source", overflow="fold")
    for tool in docs.tools:
        table.add_row(
            tool.name,
            str(len(tool.param_names)),
            ", ".join(tool.required) or "-",
            tool.access or "?",
            _short_source(tool, with_file=one_file is None),
        )
    return table


def _short_source(tool: ToolSpec, *, with_file: bool) -> str:
    """``dir/file#pointer`` (the last two path parts), or just the pointer (``line N`` for a
    text document, which has lines, not pointers)."""
    if tool.source is None:
        return "-"
    line = f"line {tool.source.line}" if tool.source.line is not None else ""
    pointer = tool.source.pointer or line
    if not with_file:
        return pointer or "-"
    file = tool.source.file
    short = "/".join(Path(file).parts[-2:]) if file else "<input>"
    return short + (f"#{pointer}" if pointer else "")
