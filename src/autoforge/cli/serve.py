"""``autoforge serve``: an environment over HTTP (FastAPI, OpenAPI) or as an MCP server."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from autoforge.errors import UserError, install_hint

if TYPE_CHECKING:
    from autoforge.serve import EnvService, HttpLimits

_EXAMPLE = (
    "Examples:\n\n"
    "  autoforge serve runs/shop --tasks runs/shop/tasks.jsonl --port 8000\n\n"
    '  autoforge serve bookstore --host 0.0.0.0 --token "$SECRET"\n\n'
    "  autoforge serve runs/shop/env --mcp                  (MCP over stdio)\n\n"
    "  autoforge serve runs/shop/env --mcp --transport http --port 8001   (MCP at /mcp)\n\n"
    "  autoforge serve runs/shop --openenv --port 8002        (OpenEnv: /ws, /reset, /step)"
)


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command(
        "serve",
        help=(
            "Serve an environment: isolated episodes over an HTTP API (POST /episodes, POST "
            "/episodes/{id}/tools/{name}, GET /episodes/{id}/reward, DELETE /episodes/{id}; spec "
            "at /openapi.json), or its tools as an MCP server with --mcp. Binding beyond "
            "loopback needs --token.\n\n" + _EXAMPLE
        ),
    )(serve)


TargetArg = Annotated[
    str, typer.Argument(help="Environment dir, run dir, or bundled example name.")
]
TokenOpt = Annotated[
    list[str] | None,
    typer.Option(
        envvar="AUTOFORGE_SERVE_TOKEN",
        help="Bearer token clients must send; required beyond loopback. Repeat it for "
        "several clients: each token owns its episodes and has its own quota.",
    ),
]
TasksOpt = Annotated[
    Path | None,
    typer.Option(help="tasks.jsonl to start episodes from (default: the run dir's)."),
]
TransportOpt = Annotated[
    str, typer.Option(help="MCP transport: stdio or http (streamable HTTP at /mcp).")
]
TaskOpt = Annotated[
    str | None,
    typer.Option(
        help="MCP: start each session's episode from this task's S0. Without it, sessions "
        "start from the environment's initial state, where a forged task's records may not "
        "exist (each task carries its own S0)."
    ),
]
IdleTimeoutOpt = Annotated[
    float, typer.Option(help="Seconds without a call after which an episode is dropped.")
]
CallTimeoutOpt = Annotated[
    float | None,
    typer.Option(help="Per tool call time limit in seconds (default: the runtime's)."),
]
IsolatedOpt = Annotated[
    bool, typer.Option("--isolated", help="Run tool code in a subprocess per episode.")
]
PerTokenOpt = Annotated[
    int | None, typer.Option(help="Most episodes one token may hold (default: all).")
]
AllowHostOpt = Annotated[
    list[str] | None,
    typer.Option(help="Also answer for this Host name (e.g. behind a proxy); repeatable."),
]
AllowOriginOpt = Annotated[
    list[str] | None,
    typer.Option(help="Let web pages of this origin call the server; repeatable."),
]
OpenEnvOpt = Annotated[
    bool,
    typer.Option("--openenv", help="Serve as an OpenEnv environment (loopback only; needs tasks)."),
]


def serve(
    target: TargetArg,
    host: Annotated[str, typer.Option(help="Address to bind (HTTP transports).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind (HTTP transports).")] = 8000,
    token: TokenOpt = None,
    tasks: TasksOpt = None,
    mcp: Annotated[bool, typer.Option("--mcp", help="Serve the tools over MCP instead.")] = False,
    transport: TransportOpt = "stdio",
    task: TaskOpt = None,
    max_sessions: Annotated[int, typer.Option(help="Most episodes open at once.")] = 256,
    idle_timeout: IdleTimeoutOpt = 600.0,
    call_timeout: CallTimeoutOpt = None,
    isolated: IsolatedOpt = False,
    max_sessions_per_token: PerTokenOpt = None,
    max_body_bytes: Annotated[int, typer.Option(help="Largest request body accepted.")] = 1_048_576,
    allow_host: AllowHostOpt = None,
    allow_origin: AllowOriginOpt = None,
    openenv: OpenEnvOpt = False,
) -> None:
    """Load the environment and serve it until interrupted."""
    if openenv:
        _serve_openenv(target, tasks, host=host, port=port, max_sessions=max_sessions)
        return
    _require_extra(mcp)
    from autoforge.serve import HttpLimits, Limits, check_bind, load_service

    _check_options(transport, max_sessions, idle_timeout, call_timeout, max_sessions_per_token,
                   max_body_bytes)  # fmt: skip
    http = not mcp or transport == "http"
    if http:
        check_bind(host, token)
    limits = Limits(
        max_sessions=max_sessions,
        idle_timeout_s=idle_timeout,
        max_sessions_per_token=max_sessions_per_token,
    )
    http_limits = HttpLimits(
        max_body_bytes=max_body_bytes,
        allowed_hosts=frozenset(allow_host or ()),
        allowed_origins=frozenset(allow_origin or ()),
    )
    service = load_service(
        target, tasks, limits=limits, call_timeout_s=call_timeout, isolated=isolated
    )
    _check_task(service, task)
    err = Console(stderr=True)
    err.print(f"execution boundary: {service.boundary()}", highlight=False)
    if mcp:
        _serve_mcp(
            service, err, kind=transport, host=host, port=port, token=token, task=task,
            http=http_limits,
        )  # fmt: skip
    else:
        _serve_http(service, err, host=host, port=port, token=token, http=http_limits)


def _check_options(
    transport: str,
    max_sessions: int,
    idle_timeout: float,
    call_timeout: float | None,
    max_sessions_per_token: int | None,
    max_body_bytes: int,
) -> None:
    """One clear error for an option value out of range."""
    if transport not in ("stdio", "http"):
        raise UserError(f"--transport must be stdio or http, not {transport!r}")
    if max_sessions < 1 or idle_timeout <= 0 or (call_timeout is not None and call_timeout <= 0):
        raise UserError("--max-sessions must be >= 1, --idle-timeout and --call-timeout > 0")
    if (max_sessions_per_token is not None and max_sessions_per_token < 1) or max_body_bytes < 1:
        raise UserError("--max-sessions-per-token and --max-body-bytes must be >= 1")


def _check_task(service: EnvService, task: str | None) -> None:
    """``--task`` names one of the service's tasks: fail now, not at the first call."""
    if task is not None and task not in service.tasks.ids():
        known = ", ".join(service.tasks.ids()[:10]) or "none: pass --tasks"
        raise UserError(f"unknown task {task!r} for --task (tasks: {known})")


def _serve_http(
    service: EnvService,
    err: Console,
    *,
    host: str,
    port: int,
    token: list[str] | None,
    http: HttpLimits,
) -> None:
    from autoforge.serve import create_app, run

    app = create_app(service, token=token, http=http, bind=host)
    auth = "bearer token required" if token else "no auth (loopback only)"
    err.print(
        f"serving [bold]{service.env_id}[/] ({len(service.tools)} tools, {len(service.tasks)} "
        f"tasks) at http://{_netloc(host, port)}  [dim]{auth}; spec at /openapi.json[/]",
        highlight=False,
    )
    run(app, host, port)


def _serve_mcp(
    service: EnvService,
    err: Console,
    *,
    kind: str,
    host: str,
    port: int,
    token: list[str] | None,
    task: str | None,
    http: HttpLimits,
) -> None:
    from autoforge.serve import mcp_http_app, serve_stdio

    err.print(mcp_start_state(service, task), highlight=False, soft_wrap=True)
    if kind == "stdio":
        err.print(f"MCP server for {service.env_id} on stdio", highlight=False)
        serve_stdio(service, task_id=task)
        return
    from autoforge.serve import run

    app = mcp_http_app(service, host=host, token=token, task_id=task, http=http)
    err.print(
        f"MCP server for {service.env_id} at http://{_netloc(host, port)}/mcp (streamable HTTP)",
        highlight=False,
    )
    run(app, host, port)


def mcp_start_state(service: EnvService, task: str | None) -> str:
    """What state an MCP session's tools act on: a task's S0, or the environment's initial
    state (where a forged task's records do not exist: each task carries its own S0)."""
    if task is not None:
        return f"each MCP session starts from the S0 of task {task}"
    ids = service.tasks.ids()
    if not ids:
        return "each MCP session starts from the environment's initial state (no tasks loaded)"
    return (
        "no --task: each MCP session starts from the environment's initial state, not from a "
        f"task's S0 (records a task mentions may not exist there); {len(ids)} tasks loaded, "
        f"play one with --task {ids[0]}"
    )


def _serve_openenv(
    target: str, tasks: Path | None, *, host: str, port: int, max_sessions: int
) -> None:
    """OpenEnv clients send no credentials, so this transport stays on loopback."""
    import importlib.util

    from autoforge.serve import is_loopback

    if importlib.util.find_spec("openenv") is None:
        raise UserError("autoforge serve --openenv needs openenv-core: " + install_hint("adapters"))
    if not is_loopback(host):
        raise UserError(
            f"--openenv serves without authentication, so only on loopback, not {host}: "
            "bind 127.0.0.1 (put an authenticating proxy in front to share it)"
        )
    from autoforge.adapters import create_openenv_app, load_forged
    from autoforge.serve import Limits, run

    service = load_forged(target, tasks, limits=Limits(max_sessions=max(1, max_sessions)))
    Console(stderr=True).print(
        f"OpenEnv environment [bold]{service.env_id}[/] ({len(service.tasks)} tasks) at "
        f"ws://{_netloc(host, port)}/ws  [dim]reset(task_id=...), call_tool, finish_episode[/]",
        highlight=False,
    )
    run(create_openenv_app(service), host, port)


def _require_extra(mcp: bool) -> None:
    """A one-line hint instead of an ImportError when the ``[serve]`` extra is missing."""
    import importlib.util

    needed = ["fastapi", "uvicorn", "orjson", *(["mcp"] if mcp else [])]
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        raise UserError(f"autoforge serve needs {', '.join(missing)}: " + install_hint("serve"))


def _netloc(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
