"""Errors of the environment layer."""

from __future__ import annotations

from autoforge.errors import UserError


class ToolError(Exception):
    """A business error raised by a tool (``order not found``): the agent sees the message.

    Tool code does not import it: the runtime puts ``ToolError`` in every tool module's globals.
    """


class SandboxViolation(UserError):
    """Tool code uses a construct the sandbox forbids. Names the line and the construct."""

    def __init__(self, message: str, *, line: int | None = None, construct: str = "") -> None:
        self.line = line
        self.construct = construct
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{message}")


class EnvLoadError(UserError):
    """An environment directory is missing a file or does not match its spec."""
