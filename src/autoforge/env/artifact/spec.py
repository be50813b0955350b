"""The environment artifact: E = (S, F) as a versioned model written to ``environment.json``.

An environment directory holds ``environment.json`` (this model), ``tools.py`` (one function per
tool, ``def tool_name(state, **arguments)``) and optionally ``initial_state.json``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

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

    @property
    def integer_keyed(self) -> bool:
        """Whether the docs give this collection integer keys (its key attribute is of type
        ``integer``). JSON objects key by strings, so ``state[name]`` keys its records by the
        key's decimal text (``"2"``) while the record and every argument hold the integer."""
        key = self.attribute(self.primary_key)
        return key is not None and key.type == "integer"

    def key_value(self, key: str) -> Any:
        """What a record of this collection holds in its key attribute for the state key
        ``key``: the integer for an integer-keyed collection (when ``key`` is one), else ``key``."""
        if self.integer_keyed and isinstance(key, str) and key.lstrip("-").isdigit():
            return int(key)
        return key


class StateSchema(BaseModel):
    """The shape of the state S: collections of records (``state[collection][key] = record``)."""

    collections: list[CollectionSchema] = Field(default_factory=list)

    def collection(self, name: str) -> CollectionSchema | None:
        """The collection called ``name``, or None."""
        return next((c for c in self.collections if c.name == name), None)


class _ToolIndex:
    """Where each tool name sits in an :class:`EnvironmentSpec`'s tools list, for O(1) look-ups.

    A private attribute of the spec, so never validated or dumped; it compares equal to any
    other index (two specs with equal fields stay equal whether or not either has looked a tool
    up) and deep copies and pickles as an empty one. A shallow ``model_copy`` shares it with
    the original, which stays correct: every look-up checks it against the list at hand.
    """

    __slots__ = ("length", "positions", "tools")

    def __init__(self) -> None:
        self.tools: list[ToolSpec] | None = None  # the list indexed, its length then
        self.length = 0
        self.positions: dict[str, int] = {}  # name -> position of the first tool of that name

    def find(self, tools: list[ToolSpec], name: str) -> ToolSpec:
        """The first tool of ``tools`` called ``name``; ``KeyError`` if there is none."""
        if self.tools is not tools or self.length != len(tools):
            self._index(tools)
        at = self.positions.get(name)
        if at is not None and tools[at].name == name:
            return tools[at]
        for spec in tools:  # not indexed, or a tool renamed in place since
            if spec.name == name:
                self._index(tools)
                return spec
        raise KeyError(name)

    def _index(self, tools: list[ToolSpec]) -> None:
        positions: dict[str, int] = {}
        for at, spec in enumerate(tools):
            positions.setdefault(spec.name, at)
        self.tools, self.length, self.positions = tools, len(tools), positions

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ToolIndex)

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> _ToolIndex:
        return _ToolIndex()

    def __deepcopy__(self, memo: dict[int, Any]) -> _ToolIndex:
        return _ToolIndex()

    def __reduce__(self) -> tuple[type[_ToolIndex], tuple[()]]:
        return _ToolIndex, ()


class EnvironmentSpec(BaseModel):
    """What ``environment.json`` holds."""

    schema_version: int = ENV_SCHEMA_VERSION
    name: str
    description: str = ""
    policy: str = ""
    tools: list[ToolSpec] = Field(default_factory=list)
    state_schema: StateSchema = Field(default_factory=StateSchema)

    _tool_index: _ToolIndex = PrivateAttr(default_factory=_ToolIndex)

    def tool(self, name: str) -> ToolSpec:
        """The tool called ``name``; ``KeyError`` if there is none.

        Looked up in an index of positions (the first tool of each name), checked on every use
        against the list as it is now (the same list object, the same length, the tool found
        there still of that name): a list replaced, appended to, shortened or with a tool
        renamed is re-indexed rather than answered from stale positions, and a name not indexed
        is looked for in the list itself before ``KeyError``.
        """
        private = self.__pydantic_private__  # read directly: pydantic's __getattr__ costs ~2 us
        index = private.get("_tool_index") if private else None
        tools = self.tools
        if index is not None and index.tools is tools and index.length == len(tools):
            at = index.positions.get(name)
            if at is not None and tools[at].name == name:
                return tools[at]
        if index is None:  # built without its private attributes (no __init__)
            index = _ToolIndex()
            if private is not None:
                private["_tool_index"] = index
        return index.find(tools, name)
