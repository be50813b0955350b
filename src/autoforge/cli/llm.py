"""``autoforge llm serve|check`` and the LLM options every LLM-using command shares.

Other command modules reuse the option types below and turn them into a config with
``llm_config_from_options`` (or ``autoforge.llm.config_from_cli``)::

    def synth(..., llm_config: LlmConfigOpt = None, llm_base_url: LlmBaseUrlOpt = None,
              llm_model: LlmModelOpt = None, llm_api_key: LlmApiKeyOpt = None,
              no_cache: NoCacheOpt = False, llm_set: LlmSetOpt = None) -> None:
        client = get_client(llm_config_from_options(llm_config, llm_base_url, llm_model,
                                                     llm_api_key, no_cache, llm_set))
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from autoforge.errors import UserError
from autoforge.llm import (
    EMBEDDED_NAMES,
    ROLES,
    EmbeddedConfig,
    Endpoint,
    LLMClient,
    LLMConfig,
    LLMFailure,
    build_config,
    config_from_cli,
)

LlmConfigOpt = Annotated[
    Path | None,
    typer.Option("--llm-config", help="LLM config file (TOML or YAML): per-role endpoints."),
]
LlmBaseUrlOpt = Annotated[
    str | None,
    typer.Option("--llm-base-url", help="OpenAI-compatible base URL for all roles."),
]
LlmModelOpt = Annotated[
    str | None,
    typer.Option(
        "--llm-model",
        "--llm",
        help="Model for all roles (without a base URL: default|small, embedded); 'none' = no "
        "model: synthesis and tasks by rules only (templates, skeletons, rule edges).",
    ),
]
LlmApiKeyOpt = Annotated[str | None, typer.Option("--llm-api-key", help="API key for all roles.")]
NoCacheOpt = Annotated[bool, typer.Option("--no-cache", help="Do not read or write the LLM cache.")]
LlmSetOpt = Annotated[
    list[str] | None,
    typer.Option("--llm-set", help="Set one field: ROLE.KEY=VALUE, e.g. agent.model=gpt-4o."),
]


def llm_config_from_options(
    llm_config: Path | None = None,
    llm_base_url: str | None = None,
    llm_model: str | None = None,
    llm_api_key: str | None = None,
    no_cache: bool = False,
    llm_set: list[str] | None = None,
) -> LLMConfig:
    """The ``LLMConfig`` for the shared options (file < environment < these flags)."""
    return config_from_cli(
        llm_config=llm_config,
        base_url=llm_base_url,
        model=llm_model,
        api_key=llm_api_key,
        no_cache=no_cache,
        llm_set=llm_set or (),
    )


_SERVE_HELP = (
    "Run the embedded llama.cpp server standalone (OpenAI-compatible, on 127.0.0.1) until "
    "Ctrl-C; point other tools or another autoforge run at the printed URL.\n\n"
    "Example:\n\n  autoforge llm serve --model small --port 8088\n\n"
    "  AUTOFORGE_BASE_URL=http://127.0.0.1:8088/v1 autoforge llm check"
)
_CHECK_HELP = (
    "Show which endpoint and model each role (synthesizer, agent, user, judge) uses and do one "
    "short round trip per distinct endpoint, printing latency and tokens.\n\n"
    "Examples:\n\n  autoforge llm check\n\n"
    "  autoforge llm check --llm-model small\n\n"
    "  autoforge llm check --llm-base-url http://localhost:8000/v1 --llm-model Qwen/Qwen3-8B"
)


def register(app: typer.Typer) -> None:
    """Add the ``llm`` command group (``serve``, ``check``) to ``app``."""
    group = typer.Typer(
        help="The LLM layer: run the embedded model, check configured endpoints.",
        no_args_is_help=True,
    )
    group.command("serve", help=_SERVE_HELP)(serve)
    group.command("check", help=_CHECK_HELP)(check)
    app.add_typer(group, name="llm")


def serve(
    model: Annotated[
        str, typer.Option("--model", help="Embedded model: default|small.")
    ] = "default",
    port: Annotated[int, typer.Option("--port", help="TCP port (0 = any free port).")] = 8088,
    threads: Annotated[
        int | None,
        typer.Option(
            "--threads",
            help="CPU threads (default: AUTOFORGE_THREADS, else the cores the 1-minute load "
            "average leaves idle, at least 1; see MODELS.md).",
        ),
    ] = None,
    parallel: Annotated[int, typer.Option("--parallel", help="Concurrent request slots.")] = 2,
    ctx_size: Annotated[int, typer.Option("--ctx-size", help="Context tokens per slot.")] = 8192,
) -> None:
    """Start the embedded server and block until interrupted."""
    from autoforge.llm import ensure_server, shutdown_all

    if model not in EMBEDDED_NAMES:
        raise UserError(f"--model must be one of {', '.join(EMBEDDED_NAMES)}, got {model!r}")
    base = build_config().embedded
    cfg = EmbeddedConfig.model_validate(
        {
            **base.model_dump(),
            "model": model,
            "port": port,
            "parallel": parallel,
            "ctx_size": ctx_size,
        }
        | ({"threads": threads} if threads else {})
    )
    console = Console()
    console.print(f"starting embedded model {model!r} ...", highlight=False)
    server = ensure_server(model, cfg)
    console.print(
        f"serving {server.spec.upstream} (started in {server.startup_s:.1f}s; Ctrl-C to stop)",
        highlight=False,
    )
    console.print(f"[bold]{server.base_url}[/]", highlight=False, soft_wrap=True)
    _stop_on_signals()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        console.print("stopping")
    finally:
        shutdown_all()


def _stop_on_signals() -> None:
    """Ctrl-C and SIGTERM end ``serve`` cleanly, even when started with SIGINT ignored."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def check(
    llm_config: LlmConfigOpt = None,
    llm_base_url: LlmBaseUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_api_key: LlmApiKeyOpt = None,
    llm_set: LlmSetOpt = None,
) -> None:
    """Print the role table, then one uncached round trip per distinct endpoint."""
    config = llm_config_from_options(
        llm_config, llm_base_url, llm_model, llm_api_key, True, llm_set
    )
    client = LLMClient(config, cache=False)
    console = Console()
    console.print(roles_table(client))
    results = asyncio.run(_round_trips(client))
    console.print(round_trip_table(results))
    failed = [r for r in results if r["error"]]
    if failed:
        raise UserError(f"{len(failed)} of {len(results)} endpoint(s) failed: {failed[0]['error']}")


def roles_table(client: LLMClient) -> Table:
    """One row per role: endpoint, model, tool mode, concurrency."""
    table = Table(title="LLM roles")
    for name in ("role", "endpoint", "model", "tool mode", "concurrency"):
        table.add_column(name)
    for role in ROLES:
        ep = client.endpoint(role)
        table.add_row(
            role, ep.label, ep.model or "(first listed)", ep.tool_mode, str(ep.max_concurrency)
        )
    return table


def _distinct(client: LLMClient) -> dict[tuple[str, str], Endpoint]:
    out: dict[tuple[str, str], Endpoint] = {}
    for role in ROLES:
        ep = client.endpoint(role)
        out.setdefault((ep.label, ep.model), ep)
    return out


async def _round_trip(client: LLMClient, ep: Endpoint) -> dict[str, Any]:
    """One tiny uncached request; an embedded server is started before the clock starts."""
    from autoforge.llm import ensure_server

    row: dict[str, Any] = {"endpoint": ep.label, "model": ep.model, "error": "", "latency_s": 0.0}
    if ep.disabled:
        row["reply"] = "(no model: rules only)"
        return row
    messages = [{"role": "user", "content": "Reply with the single word: OK"}]
    try:
        if ep.embedded:
            await asyncio.to_thread(ensure_server, ep.embedded, client.config.embedded)
        start = time.monotonic()
        resp = await client.chat(
            messages, role=ep.role, purpose="llm.check", max_tokens=8, cache=False
        )
        row["latency_s"] = time.monotonic() - start
        row.update(reply=(resp.content or "").strip()[:40], usage=resp.usage, model=resp.model)
    except (LLMFailure, UserError) as exc:
        row["error"] = str(exc)
    return row


async def _round_trips(client: LLMClient) -> list[dict[str, Any]]:
    try:
        return [await _round_trip(client, ep) for ep in _distinct(client).values()]
    finally:
        await client.aclose()


def round_trip_table(results: list[dict[str, Any]]) -> Table:
    """Latency, tokens and reply (or error) per endpoint."""
    table = Table(title="round trips")
    for name in ("endpoint", "model", "latency s", "prompt tok", "compl. tok", "reply / error"):
        table.add_column(name, justify="right" if "tok" in name or "latency" in name else "left")
    for r in results:
        usage = r.get("usage")
        table.add_row(
            r["endpoint"],
            str(r["model"]),
            f"{r['latency_s']:.2f}",
            str(usage.prompt_tokens) if usage else "-",
            str(usage.completion_tokens) if usage else "-",
            f"[red]{r['error']}[/]" if r["error"] else repr(r.get("reply", "")),
        )
    return table
