"""Errors of the serving layer, each with the HTTP status and the machine-readable code it maps to.

The pure core (:mod:`autoforge.serve.service`) raises these; the HTTP app turns every one into a
JSON body ``{"error": code, "message": text}`` with ``status``, so a client never sees a bare 500
for something it did wrong.
"""

from __future__ import annotations

from typing import Any

from autoforge.errors import AutoforgeError


class ServeError(AutoforgeError):
    """A request the server cannot honour; ``status`` is the HTTP status, ``code`` the error id."""

    status: int = 400
    code: str = "bad_request"

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        """The JSON body of the error response."""
        return {"error": self.code, "message": self.message, **self.extra}


class UnknownEpisode(ServeError):
    """No open episode has this id (never opened, deleted, or evicted after being idle)."""

    status = 404
    code = "unknown_episode"


class UnknownTask(ServeError):
    """The task id is not in the served task set."""

    status = 404
    code = "unknown_task"


class UnknownTool(ServeError):
    """The environment has no tool of this name."""

    status = 404
    code = "unknown_tool"


class InvalidArguments(ServeError):
    """The tool arguments do not match the tool's parameter schema."""

    status = 422
    code = "invalid_arguments"


class NoTask(ServeError):
    """A reward was asked for an episode that was not started from a task."""

    status = 409
    code = "no_task"


class TooManySessions(ServeError):
    """Every session slot is taken by a live (not idle) episode."""

    status = 429
    code = "too_many_sessions"


class Unauthorized(ServeError):
    """The bearer token is missing or wrong."""

    status = 401
    code = "unauthorized"


class BodyTooLarge(ServeError):
    """The request body is over the server's size cap."""

    status = 413
    code = "body_too_large"


class RequestTimeout(ServeError):
    """The client did not send its whole request body in time."""

    status = 408
    code = "request_timeout"


class BadHost(ServeError):
    """The ``Host`` header names a host this server does not answer for (DNS rebinding)."""

    status = 421
    code = "host_not_allowed"


class BadOrigin(ServeError):
    """A browser request from a foreign ``Origin`` (another site driving the server)."""

    status = 403
    code = "origin_not_allowed"


class TooDeep(ServeError):
    """A JSON body nested deeper than the server accepts."""

    status = 422
    code = "invalid_request"


class EpisodeBusy(ServeError):
    """An earlier call of this episode is still running (it outlived its time limit)."""

    status = 409
    code = "episode_busy"


class CallStuck(ServeError):
    """A call did not come back from its worker within the server's wait limit."""

    status = 504
    code = "call_timeout"
