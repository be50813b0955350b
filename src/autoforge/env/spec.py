"""The environment artifact: E = (S, F) as a versioned model written to ``environment.json``.

An environment directory holds ``environment.json`` (this model), ``tools.py`` (one function per
tool, ``def tool_name(state, **arguments)``) and optionally ``initial_state.json``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from autoforge.tooldocs import ToolSpec

ENV_SCHEMA_VERSION = 1

AttributeType = Literal[
    "string",
    "integer",
    "number",
    "boolean",
    "date",
    "datetime",
    "enum",
    "object",
    "array",
    "id",
]


class Attribute(BaseModel):
    """One attribute of the records of a collection (names and types only, never values)."""

    name: str
    type: AttributeType = "string"
    description: str = ""
    enum: list[str] | None = None
    references: str | None = Field(
        default=None, description="collection whose primary key this attribute holds"
    )
    nullable: bool = False


class CollectionSchema(BaseModel):
    """A collection of records keyed by a primary-key attribute."""

    name: str
    primary_key: str
    description: str = ""
    attributes: list[Attribute] = Field(default_factory=list)
    fixed: dict[str, dict[str, Any]] | None = Field(
        default=None,
        description="records the docs fix (a settings singleton): every generated state holds "
        "exactly these, never sampled ones",
    )

    def attribute(self, name: str) -> Attribute | None:
        """The attribute called ``name``, or None."""
        return next((a for a in self.attributes if a.name == name), None)


class StateSchema(BaseModel):
    """The shape of the state S: collections of records (``state[collection][key] = record``)."""

    collections: list[CollectionSchema] = Field(default_factory=list)

    def collection(self, name: str) -> CollectionSchema | None:
        """The collection called ``name``, or None."""
        return next((c for c in self.collections if c.name == name), None)


class EnvironmentSpec(BaseModel):
    """What ``environment.json`` holds."""

    schema_version: int = ENV_SCHEMA_VERSION
    name: str
    description: str = ""
    policy: str = ""
    tools: list[ToolSpec] = Field(default_factory=list)
    state_schema: StateSchema = Field(default_factory=StateSchema)

    def tool(self, name: str) -> ToolSpec:
        """The tool called ``name``; ``KeyError`` if there is none."""
        for spec in self.tools:
            if spec.name == name:
                return spec
        raise KeyError(name)
