"""Markdown / plain-text tool docs: rules for the common layouts, the LLM for the rest.

A document is split at its headings. A section whose heading names a tool (``## get_order``,
``### `cancel_order(order_id, reason)` ``) and lists parameters as bullets
(``- `order_id` (string, required): ...``) or a table (``| name | type | required | ... |``)
is parsed by rules. Sections the rules cannot read but that look like tool documentation
(a call-like code span, words like "parameters" or "returns") are sent, in small chunks, to the
LLM, which answers schema-constrained (:class:`ExtractedTools`); the client comes from the
caller (``load_docs(..., llm=factory)``, the CLI's ``--llm-*`` options). Everything else becomes
the policy text. ``autoforge ingest library.md`` therefore works like the structured formats, and
without a model for documents the rules can read.
"""

from __future__ import annotations

import asyncio
import re
import threading
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from autoforge.tooldocs.schema import is_tool_name, sanitize_name
from autoforge.tooldocs.source import DocInput, LLMFactory
from autoforge.tooldocs.spec import (
    DocParseError,
    DocWarning,
    SourceLocation,
    ToolDocs,
    ToolSpec,
)

if TYPE_CHECKING:
    from autoforge.llm import LLMClient

SUFFIXES = (".md", ".markdown", ".txt", ".text")
#: the suffixes of text documents (read by rules, and by a model where the rules cannot)
TEXT_SUFFIXES = SUFFIXES
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_CALL = re.compile(r"`?([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)`?")
_IDENT = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`|^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)$")
_BULLET = re.compile(
    r"^\s*(?:[-*+]|\d{1,2}[.)])\s+[*_]{0,2}`?(?P<name>[A-Za-z_][A-Za-z0-9_]*?)`?[*_]{0,2}\s*"
    r"(?:[*_]{0,2}\((?P<meta>[^)]*)\)[*_]{0,2})?\s*(?:[:\u2014\u2013-]\s*(?P<desc>.*))?$"
)
#: a line without a bullet that still reads as a parameter: the name set off in bold or code
#: and its type or flags in brackets ("**order_id** (string, required): the order")
_BARE = re.compile(
    r"^\s*(?:\*\*|__|`)(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\*\*|__|`)\s*"
    r"\((?P<meta>[^)]*)\)\s*(?:[:\u2014\u2013-]\s*(?P<desc>.*))?$"
)
#: type and flag words that may lead a description ("— string — optional — the note")
_FLAG_WORDS = r"(?:required|optional|string|integer|number|boolean|array|object|int|float|bool|str)"
_FLAGS = re.compile(
    rf"^`?(?P<flags>{_FLAG_WORDS}\b`?(?:\s*,\s*`?{_FLAG_WORDS}\b`?)*)\s*(?:[\u2014\u2013:.-]\s*|$)",
    re.IGNORECASE,
)
_TYPES = {"string", "integer", "number", "boolean", "array", "object", "int", "float", "bool",
          "str", "list", "dict"}  # fmt: skip
_TYPE_MAP = {"int": "integer", "float": "number", "bool": "boolean", "str": "string",
             "list": "array", "dict": "object"}  # fmt: skip
#: words that mark a section as a tool's documentation ("return" only as a label or "returns
#: the/a ...": a sentence about returning things is not one)
_TOOLISH = re.compile(
    r"\b(parameters?|arguments?|inputs?)\b|^\W*returns?\b|\breturns?\s*:|\breturns\s+(?:the|a|an)\b",
    re.IGNORECASE | re.MULTILINE,
)
#: header words of a parameter table's columns
_COLUMNS = {
    "name": ("name", "parameter", "param", "argument", "field"),
    "type": ("type",),
    "required": ("required", "req", "optional"),
    "description": ("description", "desc"),
}
_CHUNK = 2500


class ExtractedParam(BaseModel):
    """One parameter as the LLM reads it from prose."""

    name: str
    type: Literal["string", "integer", "number", "boolean", "array", "object"] = "string"
    description: str = ""
    required: bool = True
    enum: list[str] | None = None


class ExtractedTool(BaseModel):
    """One tool as the LLM reads it from prose."""

    name: str
    description: str = ""
    access: Literal["read", "write"] | None = None
    parameters: list[ExtractedParam] = Field(default_factory=list)


class ExtractedTools(BaseModel):
    """The structured answer for one chunk of the document."""

    tools: list[ExtractedTool] = Field(default_factory=list)


class Section(BaseModel):
    """A heading and the lines under it (up to the next heading)."""

    heading: str
    level: int
    line: int
    body: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.body).strip()


def split_sections(text: str) -> list[Section]:
    """The document's sections; text before the first heading is a level-0 section."""
    sections = [Section(heading="", level=0, line=1, body=[])]
    in_code = False
    for i, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        m = None if in_code else _HEADING.match(line)
        if m:
            sections.append(
                Section(heading=m.group(2).strip(), level=len(m.group(1)), line=i, body=[])
            )
        else:
            sections[-1].body.append(line)
    return [s for s in sections if s.heading or s.text]


#: sub-headings that hold part of one tool's documentation ("### Parameters")
_PART = re.compile(
    r"^\W*(?:parameters?|arguments?|inputs?|request(?:\s+body)?|body|query|returns?|"
    r"responses?|output|errors?|examples?|notes?)\W*$",
    re.IGNORECASE,
)


def _with_subsections(sections: list[Section]) -> list[Section]:
    """Sections with each part-heading ("### Parameters", "#### Returns") folded into the
    section above it that it belongs to (a deeper heading under a tool's heading)."""
    out: list[Section] = []
    for s in sections:
        owner = out[-1] if out else None
        if owner is not None and s.level > owner.level and _PART.match(s.heading):
            label = s.heading.strip(" :*_") + ":"
            out[-1] = owner.model_copy(update={"body": [*owner.body, label, *s.body]})
            continue
        out.append(s)
    return out


def _tool_name(heading: str) -> tuple[str | None, list[str]]:
    """The tool name a heading gives and the parameter names of a call-like heading."""
    call = _CALL.search(heading)
    if call and is_tool_name(call.group(1)):
        params = [p.strip().split(":")[0].split("=")[0].strip() for p in call.group(2).split(",")]
        return call.group(1), [p for p in params if p]
    clean = heading.strip().strip("`").strip()
    m = _IDENT.search(clean)
    if m:
        name = m.group(1) or m.group(2)
        if is_tool_name(name) and ("_" in name or any(c.isupper() for c in name[1:])):
            return name, []
    return None, []


def _param_line(line: str) -> re.Match[str] | None:
    """A line that lists one parameter: a bullet or numbered item, or a bold or code name with
    its type or flags in brackets."""
    m = _BULLET.match(line)
    if m is None or (not m.group("meta") and m.group("desc") is None and "`" not in line):
        m = _BARE.match(line) or m
    return m


def _param_from_bullet(m: re.Match[str]) -> tuple[str, dict[str, Any], bool]:
    meta = [x.strip().lower() for x in (m.group("meta") or "").split(",") if x.strip()]
    desc = (m.group("desc") or "").strip()
    while (flags := _FLAGS.match(desc)) is not None:  # "— string — optional — text"
        meta += [x.strip(" `").lower() for x in flags.group("flags").split(",") if x.strip()]
        desc = desc[flags.end() :].strip()
    typ = next((_TYPE_MAP.get(x, x) for x in meta if x in _TYPES), "string")
    required = "optional" not in meta
    schema: dict[str, Any] = {"type": typ}
    if desc:
        schema["description"] = desc
    enum = re.search(r"one of ([^.;]+)", desc)
    if enum:
        values = [
            v.strip(" `'\"") for v in re.split(r",|\bor\b", enum.group(1)) if v.strip(" `'\"")
        ]
        if values:
            schema["enum"] = _typed_enum(values, typ)
    return m.group("name"), schema, required


def _typed_enum(values: list[str], typ: str) -> list[Any]:
    """Enum values converted to the parameter's type (``"7"`` -> ``7`` for an integer)."""
    conv = {"integer": int, "number": float}.get(typ)
    if conv is None:
        return values
    try:
        return [conv(v) for v in values]
    except ValueError:
        return values


def markdown_tables(text: str) -> Iterator[list[list[str]]]:
    """The Markdown tables of ``text`` (lines that start and end with ``|``, two rows or more):
    rows of stripped cells, the header first, the ``---`` rule left out. One reader for every
    stage that reads tables out of docs or a policy."""
    block: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                block.append(cells)
            continue
        if len(block) >= 2:
            yield block
        block = []


def _table_params(lines: list[str]) -> list[tuple[str, dict[str, Any], bool]]:
    rows = [
        [c.strip() for c in ln.strip().strip("|").split("|")]
        for ln in lines
        if ln.strip().startswith("|")
    ]
    if len(rows) < 3:
        return []
    header = [h.lower().strip("*_` ") for h in rows[0]]
    col = {
        key: next(i for i, h in enumerate(header) if h in words)
        for key, words in _COLUMNS.items()
        if any(h in words for h in header)
    }
    if "name" not in col:
        return []
    flipped = header[col["required"]] == "optional" if "required" in col else False
    out = []
    for row in rows[2:]:
        if len(row) != len(header):
            continue
        name = row[col["name"]].strip("`")
        typ = row[col["type"]].lower().strip("`*_ ") if "type" in col else "string"
        said = row[col["required"]].lower().strip("*_` ") if "required" in col else "yes"
        req = said in ("yes", "true", "required", "y")
        req = (not req and said in ("no", "false", "n", "")) if flipped else req
        schema: dict[str, Any] = {"type": _TYPE_MAP.get(typ, typ if typ in _TYPES else "string")}
        if "description" in col and row[col["description"]]:
            schema["description"] = row[col["description"]]
        out.append((name, schema, req))
    return out


def parse_section(section: Section, filename: str) -> ToolSpec | None:
    """A tool from one section by rules, or None when the section does not read as one."""
    name, call_params = _tool_name(section.heading)
    if name is None:
        return None
    params = [(m.group("name"), m) for ln in section.body if (m := _param_line(ln))]
    parsed = [
        _param_from_bullet(m)
        for _, m in params
        if not call_params or m.group("name") in call_params
    ]
    parsed = parsed or _table_params(section.body)
    if call_params and not parsed:
        parsed = [(p, {"type": "string"}, True) for p in call_params]
    desc_lines = [
        ln for ln in section.body if not _param_line(ln) and not ln.strip().startswith("|")
    ]
    description = " ".join(
        ln.strip() for ln in desc_lines if ln.strip() and not ln.strip().endswith(":")
    )
    access = _access(name, description)
    return ToolSpec(
        name=name,
        description=description,
        parameters={
            "type": "object",
            "properties": {p: s for p, s, _ in parsed},
            "required": [p for p, _, r in parsed if r],
        },
        access=access,
        source=SourceLocation(file=filename, line=section.line),
    )


def _access(name: str, description: str) -> Literal["read", "write"] | None:
    text = f"{name} {description}".lower()
    if re.search(r"\b(read-only|does not change|only reads)\b", text):
        return "read"
    if re.match(r"(get|list|find|search|show|fetch|lookup)[_A-Z]", name):
        return "read"
    return None


def _chunks(sections: list[Section]) -> list[str]:
    chunks: list[str] = []
    current = ""
    for s in sections:
        piece = f"{'#' * max(s.level, 1)} {s.heading}\n{s.text}\n" if s.heading else s.text + "\n"
        if current and len(current) + len(piece) > _CHUNK:
            chunks.append(current)
            current = ""
        current += piece[: _CHUNK * 2]
    if current.strip():
        chunks.append(current)
    return chunks


def _from_extracted(tool: ExtractedTool, filename: str) -> ToolSpec | None:
    name = tool.name if is_tool_name(tool.name) else sanitize_name(tool.name)
    if not is_tool_name(name):
        return None
    props: dict[str, Any] = {}
    required = []
    for p in tool.parameters:
        pname = p.name if is_tool_name(p.name) else sanitize_name(p.name)
        schema: dict[str, Any] = {"type": p.type}
        if p.description:
            schema["description"] = p.description
        if p.enum:
            schema["enum"] = p.enum
        props[pname] = schema
        if p.required:
            required.append(pname)
    return ToolSpec(
        name=name,
        description=tool.description,
        parameters={"type": "object", "properties": props, "required": required},
        access=tool.access,
        source=SourceLocation(file=filename),
    )


def _messages(chunk: str) -> list[dict[str, Any]]:
    return [
        {
            "role": "system",
            "content": "You extract tool (function) definitions from docs. Answer in JSON.",
        },
        {
            "role": "user",
            "content": (
                f"Documentation:\n{chunk}\n\nList every tool (callable function/operation) "
                "documented above: name (snake_case identifier), description, access (read if it "
                "only reads data, write if it changes data), and parameters (name, type, "
                "description, required, enum values if listed). Return an empty list if none."
            ),
        },
    ]


async def extract_markdown(text: str, filename: str, client: LLMClient | None) -> ToolDocs:
    """All tools of a Markdown/text document: rule-parsed sections, LLM for the rest."""
    from autoforge.llm import LLMFailure

    sections = _with_subsections(split_sections(text))
    tools: dict[str, ToolSpec] = {}
    leftovers: list[Section] = []
    bare: dict[str, Section] = {}  # tools the rules read without the parameters they mention
    policy: list[str] = []
    for s in sections:
        spec = parse_section(s, filename)
        if spec is not None:
            tools.setdefault(spec.name, spec)
            if not spec.parameters["properties"] and _TOOLISH.search(s.text):
                bare[spec.name] = s
                leftovers.append(s)  # a model may read the parameters from the prose
        elif _TOOLISH.search(s.text) or _CALL.search(s.heading + s.text) or _table_params(s.body):
            leftovers.append(s)
        else:
            policy.append((f"{'#' * s.level} {s.heading}\n" if s.heading else "") + s.text)
    if leftovers and (client is not None):
        for chunk in _chunks(leftovers):
            try:
                answer = await client.structured(
                    _messages(chunk), ExtractedTools, purpose="tooldocs.markdown", max_tokens=1500
                )
            except LLMFailure as exc:
                said = " ".join(str(exc).split())
                why = "no model was given (--llm none)" if "rules only" in said else said
                for s in leftovers:
                    if s.text and s.text in chunk and s not in bare.values():
                        _warn_not_a_tool(s, filename, f"no model answer: {why}")
                unread = [x for x in leftovers if x.text in chunk and x not in bare.values()]
                policy += _chunks(unread)  # the sections no tool was read from stay policy
                continue
            _take(tools, answer.tools, bare, filename, chunk)
    elif leftovers:
        unread = [x for x in leftovers if x not in bare.values()]
        for s in unread:
            _warn_not_a_tool(s, filename)
        policy += [s.text for s in unread]
    for name, section in bare.items():
        if not tools[name].parameters["properties"]:
            _warn_no_parameters(section, name, filename)
    if not tools:
        raise DocParseError(
            "no tools found in this text document",
            file=filename,
            hint="give each tool a heading with its name and list its parameters as bullets",
        )
    return ToolDocs(
        domain=_stem(filename),
        policy="\n\n".join(p for p in policy if p.strip()) or None,
        tools=list(tools.values()),
    )


def _warn_not_a_tool(
    section: Section,
    filename: str,
    why: str = "the rules cannot read it and no model was given",
) -> None:
    """A section that looks like a tool but that the rules cannot read, with no model to ask:
    it stays policy text, and the user is told which section and how to make it a tool."""
    name = f"'{section.heading}'" if section.heading else "before the first heading"
    warnings.warn(
        DocWarning(
            f"{filename}:{section.line}: section {name} looks like tool documentation but did "
            f"not become a tool ({why.strip()}); it is kept as policy text. Give it a heading "
            "with the tool's name and its parameters as bullets (- `name` (type, required): "
            "text), or let a model read it (--llm-model small)"
        ),
        stacklevel=3,
    )


def _take(
    tools: dict[str, ToolSpec],
    read: list[ExtractedTool],
    bare: dict[str, Section],
    file: str,
    text: str,
) -> None:
    """Add the tools a model read from ``text``: new ones, and the parameters of a tool the
    rules read without them (keeping the rules' source and access). A "tool" named like a
    parameter of another is a misread table, and enum values the text does not state are the
    model's invention; both are dropped."""
    specs = [spec for item in read if (spec := _from_extracted(item, file)) is not None]
    specs = [_stated_enums(spec, text) for spec in specs]
    params = {p for t in [*tools.values(), *specs] for p in t.parameters.get("properties") or {}}
    for spec in specs:
        held = tools.get(spec.name)
        if held is None and spec.name not in params:
            tools[spec.name] = spec
        elif held is not None and spec.name in bare and spec.parameters.get("properties"):
            tools[spec.name] = spec.model_copy(update={"source": held.source,
                                                       "access": held.access})  # fmt: skip


def _stated_enums(spec: ToolSpec, text: str) -> ToolSpec:
    """``spec`` without the enum lists whose values are not all written in ``text``."""
    props = dict(spec.parameters.get("properties") or {})
    words = set(re.findall(r"[\w.-]+", text.lower()))
    for name, schema in props.items():
        enum = schema.get("enum") if isinstance(schema, dict) else None
        if enum and not all(str(v).lower() in words for v in enum):
            props[name] = {k: v for k, v in schema.items() if k != "enum"}
    return spec.model_copy(update={"parameters": {**spec.parameters, "properties": props}})


def _warn_no_parameters(section: Section, name: str, filename: str) -> None:
    """A tool read from its heading whose section speaks of parameters the rules found none
    of: it is kept without parameters, and the user is told where and how to list them."""
    warnings.warn(
        DocWarning(
            f"{filename}:{section.line}: tool {name!r} has no parameter the rules could read, "
            "although its section mentions some; list them as bullets (- `name` (type, "
            "required): text) or as a table with name, type, required and description columns"
        ),
        stacklevel=3,
    )


def _stem(filename: str) -> str:
    from pathlib import Path

    return Path(filename).stem or "default"


def _run(coro: Any) -> Any:
    """Run a coroutine from sync code, also when an event loop is already running here."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def detect(doc: DocInput) -> bool:
    """A Markdown or plain-text file (by suffix), not JSON/YAML."""
    return not doc.is_dir and doc.suffix in SUFFIXES


def load(doc: DocInput) -> ToolDocs:
    """Import ``doc`` with the caller's LLM client factory (``doc.llm``; called only if the
    rules are not enough); without one, prose the rules cannot read stays policy text."""
    assert doc.text is not None
    client = _LazyClient(doc.llm) if doc.llm is not None else None
    return _run(extract_markdown(doc.text, doc.filename, client))  # type: ignore[arg-type]


class _LazyClient:
    """Creates the caller's client on first use, so rule-readable docs never start a model."""

    def __init__(self, factory: LLMFactory) -> None:
        self._factory = factory
        self._client: Any = None

    async def structured(self, *args: Any, **kwargs: Any) -> Any:
        if self._client is None:
            self._client = self._factory()
        return await self._client.structured(*args, **kwargs)
