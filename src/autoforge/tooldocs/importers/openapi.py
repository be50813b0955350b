"""OpenAPI 3.0 / 3.1 (JSON or YAML): one tool per operation.

* name: ``operationId`` when it is a valid identifier, else sanitised to snake_case; without an
  ``operationId``, derived from method and path (``GET /pets/{petId}`` -> ``get_pets_by_pet_id``);
* parameters: path, query, header and cookie parameters (path-level ones too) plus the request
  body, merged into one object schema. An object body's properties become top-level arguments
  (``readOnly`` ones dropped; one that repeats a parameter is that parameter); any other body is
  one ``body`` argument.
  Parameter names that are not identifiers are sanitised, the original kept in ``x-original-name``;
* returns: the JSON schema of the first 2xx response; access: GET/HEAD/OPTIONS/TRACE -> read;
* every ``$ref`` is expanded (cycles cut), and OpenAPI 3.0 schema dialect (``nullable``, boolean
  ``exclusiveMinimum``, ``example``) is rewritten into JSON Schema 2020-12.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any, Literal

from autoforge.tooldocs.naming import READ_VERBS, snake_words
from autoforge.tooldocs.refs import RefResolver
from autoforge.tooldocs.schema import (
    is_tool_name,
    map_subschemas,
    normalize_parameters,
    normalize_returns,
    sanitize_name,
)
from autoforge.tooldocs.source import DocInput, pointer_join
from autoforge.tooldocs.spec import DocParseError, DocWarning, SourceLocation, ToolDocs, ToolSpec

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
READ_METHODS = frozenset({"get", "head", "options", "trace"})
PARAM_LOCATIONS = ("path", "query", "header", "cookie")
IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NOT_FLAT = ("anyOf", "oneOf", "not", "if", "patternProperties", "discriminator")


@dataclass
class Ctx:
    """One document being imported: its name and its ``$ref`` resolver (shared with Swagger 2)."""

    file: str
    resolver: RefResolver
    v30: bool

    def schema(self, node: Any, at: str) -> Any:
        """The schema at ``at`` with refs expanded, in JSON Schema 2020-12 dialect."""
        return self.resolver.schema(node, at)

    def error(self, message: str, pointer: str, hint: str) -> DocParseError:
        return DocParseError(message, file=self.file, pointer=pointer, hint=hint)


@dataclass
class Operation:
    """One operation: path, method, its object and its path item, with their pointers."""

    path: str
    method: str
    op: dict[str, Any]
    item: dict[str, Any]
    item_ptr: str
    pointer: str


def method_access(o: Operation) -> Literal["read", "write"]:
    """What the method says of an operation: a reading method reads, and so does a POST whose
    path ends in a read verb (``POST /search``, ``POST /rest_services.get_facilities``): a
    query sent as a body, not a record created."""
    if o.method in READ_METHODS:
        return "read"
    literal = [s for s in o.path.strip("/").split("/") if s and not s.startswith("{")]
    if o.method == "post" and literal:
        words = snake_words(re.split(r"[.:]", literal[-1])[-1])
        if words and words[0] in READ_VERBS:
            return "read"
    return "write"


@dataclass
class Param:
    """One parameter as an argument: name, location, JSON schema, required."""

    name: str
    location: str
    schema: dict[str, Any]
    required: bool


def detect(doc: DocInput) -> bool:
    """A mapping with an ``openapi`` key (Swagger 2.0, key ``swagger``, is :mod:`.swagger2`)."""
    data = doc.try_data()
    return isinstance(data, dict) and "openapi" in data


def load(doc: DocInput) -> ToolDocs:
    """One tool per operation, in document order."""
    data = doc.data()
    file = doc.filename
    if not isinstance(data, dict):
        raise DocParseError(
            "an OpenAPI document must be a mapping", file=file, pointer="", hint="check the file"
        )
    v30 = _check_version(data, file)
    resolver = RefResolver(data, file=file, transform=convert_openapi30_node if v30 else None)
    ctx = Ctx(file, resolver, v30)
    operations = collect_operations(ctx, data)
    names = assign_names(ctx, operations)
    tools = [_tool(ctx, name, op) for name, op in zip(names, operations, strict=True)]
    return ToolDocs(domain=doc.domain, description=info_text(data), tools=tools)


def _check_version(data: dict[str, Any], file: str) -> bool:
    """Whether the document is OpenAPI 3.0 (True) or 3.1 (False); other versions are errors."""
    if "swagger" in data and "openapi" not in data:
        raise DocParseError(
            f"a Swagger {data['swagger']} document given as format 'openapi'",
            file=file,
            pointer="/swagger",
            hint="use format 'swagger2' (or 'auto'): Swagger / OpenAPI 2.0 is imported natively",
        )
    version = str(data.get("openapi"))
    if not version.startswith("3."):
        raise DocParseError(
            f"unsupported OpenAPI version {version!r}",
            file=file,
            pointer="/openapi",
            hint='OpenAPI 3.0 and 3.1 are supported ("openapi": "3.1.0"), and Swagger 2.0 '
            '("swagger": "2.0")',
        )
    return version.startswith("3.0")


def collect_operations(ctx: Ctx, data: dict[str, Any]) -> list[Operation]:
    paths = data.get("paths")
    if not isinstance(paths, dict):
        raise ctx.error(
            "OpenAPI document has no 'paths' object, so there are no operations to import",
            "/paths" if "paths" in data else "",
            "add 'paths' with at least one operation (webhooks-only documents are unsupported)",
        )
    found: list[Operation] = []
    for path, raw_item in paths.items():
        item, item_ptr = ctx.resolver.deref(raw_item, pointer_join("/paths", path))
        if not isinstance(item, dict):
            raise ctx.error("a path item must be a mapping", item_ptr, "list operations under it")
        for method in METHODS:
            if method not in item:
                continue
            op_ptr = pointer_join(item_ptr, method)
            op = item[method]
            if not isinstance(op, dict):
                raise ctx.error("an operation must be a mapping", op_ptr, "check the indentation")
            found.append(Operation(path, method, op, item, item_ptr, op_ptr))
    return found


def assign_names(ctx: Ctx, operations: list[Operation]) -> list[str]:
    """Tool names: valid operationIds first (duplicates are errors), then derived ones."""
    names: list[str | None] = [None] * len(operations)
    taken: dict[str, str] = {}
    for i, o in enumerate(operations):
        op_id = o.op.get("operationId")
        if is_tool_name(op_id):
            assert isinstance(op_id, str)
            if op_id in taken:
                raise ctx.error(
                    f"duplicate operationId {op_id!r} (also at {taken[op_id]})",
                    pointer_join(o.pointer, "operationId"),
                    "operationIds must be unique: rename one of them",
                )
            taken[op_id] = o.pointer
            names[i] = op_id
    for i, o in enumerate(operations):
        if names[i] is not None:
            continue
        op_id = o.op.get("operationId")
        base = sanitize_name(op_id) if isinstance(op_id, str) and op_id.strip() else None
        base = base or derive_name(o.method, o.path)
        name, n = base, 2
        while name in taken:
            name, n = f"{base[:58]}_{n}", n + 1
        taken[name] = o.pointer
        names[i] = name
        if isinstance(op_id, str) and op_id.strip():
            warnings.warn(
                DocWarning(
                    f"{ctx.file}#{pointer_join(o.pointer, 'operationId')}: operationId "
                    f"{op_id!r} is not a valid tool name (an identifier of at most 64 "
                    f"characters, no keyword, no leading underscore); the tool is named {name!r}"
                ),
                stacklevel=2,
            )
    return [n for n in names if n is not None]


def derive_name(method: str, path: str) -> str:
    """A snake_case name from method and path: ``GET /pets/{petId}`` -> ``get_pets_by_pet_id``."""
    parts = [method]
    for segment in path.strip("/").split("/"):
        match = re.fullmatch(r"\{(.+)\}", segment)
        if match:
            parts.append("by_" + sanitize_name(match[1]))
        elif segment:
            parts.append(sanitize_name(segment))
    return sanitize_name("_".join(parts))


def _tool(ctx: Ctx, name: str, o: Operation) -> ToolSpec:
    params = _collect_params(
        ctx,
        [(o.item.get("parameters"), pointer_join(o.item_ptr, "parameters")),
         (o.op.get("parameters"), pointer_join(o.pointer, "parameters"))],
    )  # fmt: skip
    props, required = param_properties(ctx, params, o.pointer)
    if "requestBody" in o.op:
        _merge_body(
            ctx, o.op["requestBody"], pointer_join(o.pointer, "requestBody"), props, required
        )
    schema = {"type": "object", "properties": props, "required": required}
    rptr = pointer_join(o.pointer, "responses")
    return ToolSpec(
        name=name,
        description=op_description(o.op),
        parameters=normalize_parameters(schema, file=ctx.file, pointer=o.pointer),
        returns=normalize_returns(
            _returns(ctx, o.op.get("responses"), rptr), file=ctx.file, pointer=rptr
        ),
        access=method_access(o),
        source=SourceLocation(file=ctx.file, pointer=o.pointer),
    )


def op_description(op: dict[str, Any]) -> str:
    summary = op.get("summary") if isinstance(op.get("summary"), str) else ""
    detail = op.get("description") if isinstance(op.get("description"), str) else ""
    parts = [p.strip() for p in (summary, detail) if p and p.strip()]
    if len(parts) == 2 and parts[1].startswith(parts[0]):
        parts = parts[1:]
    text = "\n\n".join(parts)
    return f"Deprecated. {text}".strip() if op.get("deprecated") is True else text


def _collect_params(ctx: Ctx, sources: list[tuple[Any, str]]) -> list[Param]:
    """Path-level then operation-level parameters; the latter override by (name, in)."""
    found: dict[tuple[str, str], Param] = {}
    for raw_list, ptr in sources:
        if raw_list is None:
            continue
        if not isinstance(raw_list, list):
            raise ctx.error("'parameters' must be a list", ptr, "write '- name: ...' entries")
        for i, raw in enumerate(raw_list):
            param = _param(ctx, raw, pointer_join(ptr, i))
            if param is not None:
                found[(param.name, param.location)] = param
    return list(found.values())


def _param(ctx: Ctx, raw: Any, ptr: str) -> Param | None:
    p, pptr = ctx.resolver.deref(raw, ptr)
    name = p.get("name") if isinstance(p, dict) else None
    location = p.get("in") if isinstance(p, dict) else None
    if not isinstance(name, str) or not name or location not in PARAM_LOCATIONS:
        raise ctx.error(
            "a parameter needs a 'name' and 'in' (path, query, header or cookie)",
            pptr,
            "write e.g. {name: petId, in: path, required: true, schema: {type: string}}",
        )
    if location == "header" and name.lower() in IGNORED_HEADERS:
        return None  # OpenAPI: such header parameter definitions SHALL be ignored
    schema = _param_schema(ctx, p, pptr)
    desc = p.get("description")
    if isinstance(desc, str) and desc.strip() and "description" not in schema:
        schema = {"description": desc.strip(), **schema}
    return Param(name, location, schema, p.get("required") is True or location == "path")


def _param_schema(ctx: Ctx, p: dict[str, Any], pptr: str) -> dict[str, Any]:
    if "schema" in p:
        schema = ctx.schema(p["schema"], pointer_join(pptr, "schema"))
    elif isinstance(p.get("content"), dict) and p["content"]:
        mtype = next(iter(p["content"]))
        media, mptr = ctx.resolver.deref(p["content"][mtype], pointer_join(pptr, "content", mtype))
        raw = media.get("schema", {}) if isinstance(media, dict) else {}
        schema = ctx.schema(raw, pointer_join(mptr, "schema"))
    else:
        schema = {"type": "string"}
    return schema if isinstance(schema, dict) else {}


def param_properties(
    ctx: Ctx, params: list[Param], op_ptr: str
) -> tuple[dict[str, Any], list[str]]:
    """Parameters as properties; names made identifiers, clashes prefixed with the location.
    An optional parameter named exactly as an earlier one in another place (a query
    ``FileSystemId`` beside the path's) is the same value sent twice: dropped, with a warning,
    so that no tool takes one value under two names."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for p in params:
        key = p.name if _IDENTIFIER.fullmatch(p.name) else sanitize_name(p.name)
        if key in props and not p.required and props[key].get("x-original-name", key) == p.name:
            warnings.warn(
                DocWarning(
                    f"{ctx.file}#{op_ptr}: {p.location} parameter {p.name!r} repeats another "
                    "of that name; one value, kept once"
                ),
                stacklevel=2,
            )
            continue
        if key in props:
            key = f"{p.location}_{key}"
            warnings.warn(
                DocWarning(f"{ctx.file}#{op_ptr}: parameter {p.name!r} renamed {key!r}"),
                stacklevel=2,
            )
        schema = p.schema if key == p.name else {**p.schema, "x-original-name": p.name}
        props[key] = schema
        if p.required:
            required.append(key)
    return props, required


def _merge_body(ctx: Ctx, raw: Any, ptr: str, props: dict[str, Any], required: list[str]) -> None:
    """Add the JSON (or form) request body to ``props``/``required``, in place."""
    body, bptr = ctx.resolver.deref(raw, ptr)
    if not isinstance(body, dict):
        raise ctx.error("requestBody must be a mapping", bptr, "give it a 'content' mapping")
    schema = _media_schema(ctx, body.get("content"), bptr, json_only=False)
    if schema is None:
        return
    body_required = body.get("required") is True
    flat = flatten_object(schema)
    if flat is not None:
        merge_flat_body(flat, props, required, body_required)
        return
    key = "body" if "body" not in props else "request_body"
    desc = body.get("description")
    if isinstance(desc, str) and desc.strip() and isinstance(schema, dict):
        schema = {"description": desc.strip(), **schema}
    props[key] = schema
    if body_required:
        required.append(key)


def merge_flat_body(
    flat: tuple[dict[str, Any], list[str]],
    props: dict[str, Any],
    required: list[str],
    body_required: bool,
) -> None:
    """Add an object body's properties to ``props`` as arguments, in place. A property the
    call already has as a path, query or header parameter (a resource's ``name`` in its path
    and its body) names the same value: the parameter is kept and the body's copy dropped, so
    the call has one argument of that name."""
    fields, needed = flat
    for name, schema in fields.items():
        props.setdefault(name, schema)
    if body_required:
        required.extend(n for n in needed if n not in required)


def flatten_object(schema: Any) -> tuple[dict[str, Any], list[str]] | None:
    """(properties, required) of a plain object schema (``allOf`` merged), else None."""
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        return None
    extra = schema.get("additionalProperties")
    if any(k in schema for k in _NOT_FLAT) or isinstance(extra, dict):
        return None
    if "properties" not in schema and "allOf" not in schema:
        return None
    props: dict[str, Any] = {}
    required: list[str] = []
    parts = schema.get("allOf", [])
    own = schema.get("properties", {})
    listed = schema.get("required", [])
    if not (isinstance(parts, list) and isinstance(own, dict) and isinstance(listed, list)):
        return None  # not a plain object: kept whole, so its schema check reports the fault
    for part in parts:
        sub = flatten_object(part)
        if sub is None:
            return None
        props.update(sub[0])
        required += sub[1]
    props.update(own)
    required += [r for r in listed if isinstance(r, str)]
    props = {k: v for k, v in props.items() if not (isinstance(v, dict) and v.get("readOnly"))}
    if not all(_IDENTIFIER.fullmatch(k) for k in props):
        return None
    return props, [r for r in dict.fromkeys(required) if r in props]


def _returns(ctx: Ctx, responses: Any, ptr: str) -> Any:
    """The JSON schema of the first 2xx response (``200`` before ``201`` before ``2XX``)."""
    if not isinstance(responses, dict):
        return None
    codes = sorted((c for c in responses if c.startswith("2")), key=lambda c: (c.upper(), c))
    if not codes:
        return None
    resp, rptr = ctx.resolver.deref(responses[codes[0]], pointer_join(ptr, codes[0]))
    if not isinstance(resp, dict):
        return None
    return _media_schema(ctx, resp.get("content"), rptr, json_only=True)


def _media_schema(ctx: Ctx, content: Any, owner_ptr: str, *, json_only: bool) -> Any:
    """The resolved schema of the preferred media type of ``content`` (JSON first)."""
    if not isinstance(content, dict) or not content:
        return None
    types = list(content)
    preferred = [t for t in types if t.split(";")[0].strip() == "application/json"]
    preferred += [t for t in types if "json" in t and t not in preferred]
    if not json_only:
        preferred += [t for t in types if t not in preferred]
    if not preferred:
        return None
    mptr = pointer_join(owner_ptr, "content", preferred[0])
    media, mptr = ctx.resolver.deref(content[preferred[0]], mptr)
    if not isinstance(media, dict) or "schema" not in media:
        return None
    return ctx.schema(media["schema"], pointer_join(mptr, "schema"))


def openapi30_to_json_schema(schema: Any) -> Any:
    """Rewrite OpenAPI 3.0 schema dialect into JSON Schema 2020-12, recursively.

    ``nullable: true`` adds ``"null"`` to ``type`` (and ``None`` to ``enum``); boolean
    ``exclusiveMinimum``/``exclusiveMaximum`` become numeric; ``example`` becomes ``examples``.
    """
    if not isinstance(schema, dict):
        return schema
    return convert_openapi30_node(
        map_subschemas(schema, lambda sub, _ptr: openapi30_to_json_schema(sub))
    )


def convert_openapi30_node(out: dict[str, Any]) -> dict[str, Any]:
    """Convert one schema object (its subschemas already converted), in place."""
    if out.pop("nullable", False) is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        if isinstance(out.get(exclusive), bool) and out.pop(exclusive) and bound in out:
            out[exclusive] = out.pop(bound)
    if "example" in out:
        example = out.pop("example")
        out.setdefault("examples", [example])
    return out


def info_text(data: dict[str, Any]) -> str:
    info = data.get("info") if isinstance(data.get("info"), dict) else {}
    assert isinstance(info, dict)
    parts = [info.get("title"), info.get("description")]
    return "\n\n".join(p.strip() for p in parts if isinstance(p, str) and p.strip())
