"""The intermediate representation of tool documentation.

Every importer (OpenAI function lists, OpenAPI, MCP, the benchmark layout, plain text) produces
the same :class:`ToolDocs`, so later stages never care where a tool was documented.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from autoforge.errors import UserError

TOOLDOCS_SCHEMA_VERSION = 1

AccessHint = Literal["read", "write"]


class SourceLocation(BaseModel):
    """Where a tool was documented: a file and a JSON pointer or a line number."""

    model_config = ConfigDict(frozen=True)

    file: str | None = None
    pointer: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.pointer is not None:
            where += f"#{self.pointer}"
        if self.line is not None:
            where += f":{self.line}"
        return where


class ToolSpec(BaseModel):
    """One tool: its name, what it does, and the JSON Schema of its arguments.

    ``parameters`` is always an object schema (``{"type": "object", "properties": ...}``).
    ``returns`` is the JSON Schema of the result when the docs give one. ``access`` is a hint
    whether the tool only reads the state (``"read"``) or may change it (``"write"``).
    """

    name: str = Field(min_length=1)
    description: str = ""
    parameters: dict[str, Any] = Field(
        default_factory=lambda: {"type": "object", "properties": {}, "required": []}
    )
    returns: dict[str, Any] | None = None
    access: AccessHint | None = None
    source: SourceLocation | None = None

    @property
    def param_names(self) -> list[str]:
        """Names of the documented parameters, in schema order."""
        return list(self.parameters.get("properties", {}))

    @property
    def required(self) -> list[str]:
        """Names of the required parameters."""
        return list(self.parameters.get("required", []))

    def openai_tool(self) -> dict[str, Any]:
        """This tool in the OpenAI ``tools=`` format."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


class ToolDocs(BaseModel):
    """A set of tools of one domain, with the domain's policy text when there is one."""

    schema_version: int = TOOLDOCS_SCHEMA_VERSION
    domain: str = "default"
    description: str = ""
    policy: str | None = None
    tools: list[ToolSpec] = Field(default_factory=list)

    def tool(self, name: str) -> ToolSpec:
        """The tool called ``name``; ``KeyError`` if there is none."""
        for spec in self.tools:
            if spec.name == name:
                return spec
        raise KeyError(name)


class DocParseError(UserError, ValueError):
    """A tool document could not be read. The message names where, what, and how to fix it."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        pointer: str | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.location = SourceLocation(file=file, pointer=pointer, line=line)
        self.problem = message
        self.hint = hint
        text = f"{self.location}: {message}"
        if hint:
            text += f" (fix: {hint})"
        super().__init__(text)


class DocWarning(UserWarning):
    """Something odd but usable in a tool document (issued with :func:`warnings.warn`).

    The CLI shows these after the summary; library callers can filter or record them.
    """
