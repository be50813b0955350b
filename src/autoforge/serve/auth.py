"""Bearer-token auth as a plain ASGI middleware (cheap: one hash and lookup per request).

Several tokens may be accepted; each is an *owner*: the middleware puts the caller's owner id
(``token-`` + a hash prefix, never the token) in the ASGI scope, and the service binds every
episode to the owner that opened it and counts its quota per owner. The server refuses to bind
beyond loopback without a token (see :func:`check_bind`), so an environment is never open to a
network by accident.
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Iterable

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from autoforge.errors import UserError
from autoforge.serve.sessions import LOCAL_OWNER

#: where the middleware leaves the caller's owner id for the handlers
OWNER_SCOPE_KEY = "autoforge.owner"


def token_owner(token: str) -> str:
    """The owner id of a token: stable, and it does not reveal the token."""
    return "token-" + hashlib.sha256(token.encode()).hexdigest()[:12]


def owner_of(scope: Scope) -> str:
    """The owner of a request (``"local"`` when the server runs without tokens)."""
    return str(scope.get(OWNER_SCOPE_KEY, LOCAL_OWNER))


class BearerAuth:
    """Reject HTTP requests without ``Authorization: Bearer <token>`` of one of ``tokens``
    (401, JSON body); accepted ones carry their owner id in ``scope[OWNER_SCOPE_KEY]``."""

    def __init__(
        self, app: ASGIApp, *, token: str | Iterable[str], public: Iterable[str] = ()
    ) -> None:
        tokens = [token] if isinstance(token, str) else list(token)
        if not tokens or not all(tokens):
            raise ValueError("empty token")
        self.app = app
        self._owners = {_digest(f"Bearer {t}".encode()): token_owner(t) for t in tokens}
        self._public = frozenset(public)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self._public:
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == b"authorization"), None)
        owner = None if given is None else self._owners.get(_digest(given))
        if owner is not None:
            scope[OWNER_SCOPE_KEY] = owner
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


def _digest(value: bytes) -> bytes:
    """Tokens are looked up by hash, so the lookup time says nothing about a token's bytes."""
    return hashlib.sha256(value).digest()


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | Iterable[str] | None) -> None:
    """Refuse (``UserError``) to serve beyond loopback without a bearer token."""
    if not token and not is_loopback(host):
        raise UserError(
            f"refusing to serve on {host} without a token: anyone who can reach it could run "
            "tools; pass --token SECRET (clients send 'Authorization: Bearer SECRET') or bind "
            "to 127.0.0.1"
        )
