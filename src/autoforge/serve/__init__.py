"""Serving environments: an HTTP API (FastAPI), an MCP server, and a gymnasium-style client.

```python
from autoforge.serve import EnvService, create_app, EnvClient, load_service
service = load_service("runs/shop", "runs/shop/tasks.jsonl")   # env + tasks, bounded sessions
app = create_app(service, token=None)                          # ASGI app (uvicorn)
with EnvClient("http://127.0.0.1:8000") as env:                # sync gym-style client
    obs, info = env.reset(task_id="t-1")
```

``create_app`` and the MCP server need the ``[serve]`` extra (fastapi, uvicorn, mcp, httpx,
orjson); they are imported lazily so the core stays importable without it.
"""

from __future__ import annotations

from typing import Any

from autoforge.serve.errors import ServeError
from autoforge.serve.service import EnvService, Limits
from autoforge.serve.sessions import SessionStore

__all__ = [
    "EnvClient",
    "EnvClientError",
    "EnvService",
    "HttpLimits",
    "Limits",
    "ServeError",
    "SessionStore",
    "build_mcp_server",
    "check_bind",
    "create_app",
    "is_loopback",
    "load_service",
    "mcp_http_app",
    "run",
    "serve_stdio",
]

_LAZY = {
    "EnvClient": "autoforge.serve.client",
    "EnvClientError": "autoforge.serve.client",
    "create_app": "autoforge.serve.app",
    "build_mcp_server": "autoforge.serve.mcp_server",
    "load_service": "autoforge.serve.loader",
    "HttpLimits": "autoforge.serve.guard",
    "check_bind": "autoforge.serve.auth",
    "is_loopback": "autoforge.serve.auth",
    "mcp_http_app": "autoforge.serve.mcp_server",
    "run": "autoforge.serve.server",
    "serve_stdio": "autoforge.serve.mcp_server",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'autoforge.serve' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
