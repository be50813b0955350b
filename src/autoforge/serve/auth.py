"""Bearer-token auth as a plain ASGI middleware (cheap: one header compare per request).

The server refuses to bind beyond loopback without a token (see :func:`check_bind`), so an
environment is never open to a network by accident.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from autoforge.errors import UserError


class BearerAuth:
    """Reject HTTP requests without ``Authorization: Bearer <token>`` (401, JSON body)."""

    def __init__(self, app: ASGIApp, *, token: str, public: Iterable[str] = ()) -> None:
        if not token:
            raise ValueError("empty token")
        self.app = app
        self._expected = f"Bearer {token}".encode()
        self._public = frozenset(public)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self._public:
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == b"authorization"), None)
        if given is not None and hmac.compare_digest(given, self._expected):
            await self.app(scope, receive, send)
            return
        why = "missing" if given is None else "wrong"
        body = orjson.dumps(
            {
                "error": "unauthorized",
                "message": f"{why} bearer token: send 'Authorization: Bearer <token>' "
                "with the token the server was started with (--token)",
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", b'Bearer realm="autoforge"'),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse (``UserError``) to serve beyond loopback without a bearer token."""
    if token is None and not is_loopback(host):
        raise UserError(
            f"refusing to serve on {host} without a token: anyone who can reach it could run "
            "tools; pass --token SECRET (clients send 'Authorization: Bearer SECRET') or bind "
            "to 127.0.0.1"
        )
