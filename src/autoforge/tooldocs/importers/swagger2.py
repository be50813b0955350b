"""Swagger / OpenAPI 2.0 (JSON or YAML): one tool per operation, imported natively.

The same rules as the OpenAPI 3 importer (:mod:`.openapi`), read from the 2.0 layout:

* name: ``operationId`` when it is a valid identifier, else sanitised, else derived from method
  and path (``GET /pets/{petId}`` -> ``get_pets_by_pet_id``); ``basePath`` is a server detail
  and not part of the name (it is stated in the domain description with ``host``);
* parameters: ``path``, ``query``, ``header`` and ``formData`` parameters (path-level ones too,
  ``#/parameters/...`` references followed) become arguments; their inline type keywords
  (``type``, ``format``, ``items``, ``enum``, bounds, ``default``) become the JSON schema and a
  ``type: file`` upload becomes a binary string. The ``body`` parameter's object properties
  become top-level arguments when the operation consumes JSON (or says nothing); a property
  that repeats a path, query or header parameter is that parameter (one argument); any other
  body is one argument named after the parameter;
* API-wide parameters are left out (one :class:`DocWarning` names them): the ``apiKey``
  credentials of ``securityDefinitions``, and, with three operations or more, the non-path
  parameters every operation takes that are optional, headers, or named as transport (an
  ``api-version``, a JSONP ``callback``, a ``key``): signing headers, output format, field
  selection, versions: transport details, not choices a user makes;
* returns: the ``schema`` of the first 2xx response when the operation produces JSON (or its
  ``produces`` says nothing); access: GET/HEAD/OPTIONS -> read, others -> write, and no hint
  (None) in an RPC-style document whose operations are all POST;
* every ``$ref`` (``#/definitions``, ``#/parameters``, ``#/responses``) is expanded, cycles cut,
  and the 2.0 schema dialect (draft 4 plus ``x-nullable``, ``example``, ``type: file``) is
  rewritten into JSON Schema 2020-12. Schema keywords with a wrong type that real documents
  carry (``required: true`` on a property) are dropped with one :class:`DocWarning`.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Any

from autoforge.tooldocs.importers.openapi import (
    IGNORED_HEADERS,
    Ctx,
    Operation,
    Param,
    assign_names,
    collect_operations,
    convert_openapi30_node,
    flatten_object,
    info_text,
    merge_flat_body,
    method_access,
    op_description,
    param_properties,
)
from autoforge.tooldocs.refs import RefResolver
from autoforge.tooldocs.schema import normalize_parameters, normalize_returns, sanitize_name
from autoforge.tooldocs.source import DocInput, pointer_join
from autoforge.tooldocs.spec import DocParseError, DocWarning, SourceLocation, ToolDocs, ToolSpec

PARAM_LOCATIONS = ("path", "query", "header", "formData", "body")
#: Keywords of a non-body parameter (and of its ``items``) that are JSON Schema keywords too.
_INLINE_KEYS = (
    "type", "format", "items", "default", "enum", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
    "uniqueItems", "multipleOf",
)  # fmt: skip
#: Schema keywords that must hold a list of strings / a boolean / a number; other values are
#: mistakes seen in published documents and are dropped (with a warning) rather than fatal.
_LIST_KEYS = ("required",)
_BOOL_KEYS = ("uniqueItems", "readOnly")
_NUMBER_KEYS = (
    "maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems", "multipleOf",
    "maxProperties", "minProperties",
)  # fmt: skip
_JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})


@dataclass
class _Dialect:
    """Rewrites 2.0 schema objects into JSON Schema 2020-12 and counts what it dropped."""

    dropped: list[str] = field(default_factory=list)

    def __call__(self, out: dict[str, Any]) -> dict[str, Any]:
        """Convert one schema object (its subschemas already converted), in place."""
        if out.get("type") == "file":
            out["type"] = "string"
            out.setdefault("format", "binary")
        self._drop_malformed(out)
        if "x-nullable" in out:  # 2.0's vendor spelling of 3.0's ``nullable``
            out["nullable"] = out.pop("x-nullable")
        return convert_openapi30_node(out)  # the rest converts as OpenAPI 3.0 schemas do

    def _drop_malformed(self, out: dict[str, Any]) -> None:
        bad = [k for k in _LIST_KEYS if k in out and not _str_list(out[k])]
        bad += [k for k in _BOOL_KEYS if k in out and not isinstance(out[k], bool)]
        bad += [k for k in _NUMBER_KEYS if k in out and not _number(out[k])]
        kinds = out.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "type" in out and not all(isinstance(k, str) and k in _JSON_TYPES for k in kinds):
            bad.append("type")
        if "enum" in out and not isinstance(out["enum"], list):
            bad.append("enum")
        for key in bad:
            self.dropped.append(f"{key}: {out.pop(key)!r}")
        if isinstance(out.get("items"), list):  # draft-4 tuple form
            items = out.pop("items")
            if len(items) == 1:
                out["items"] = items[0]
            else:
                out["prefixItems"] = items
        pattern = out.get("pattern")
        if "pattern" in out and not _python_regex(pattern):
            # ECMA-262 classes like \p{L} that Python's re (used to validate) cannot read
            out["x-pattern"] = out.pop("pattern")
            self.dropped.append(f"pattern: {pattern!r} (kept as x-pattern)")


def _python_regex(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        re.compile(value)
    except re.error:
        return False
    return True


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass
class _Op:
    """Content types in force for one operation (its own, else the document's)."""

    consumes: list[str]
    produces: list[str]


def detect(doc: DocInput) -> bool:
    """A mapping with a ``swagger`` key and no ``openapi`` key."""
    data = doc.try_data()
    return isinstance(data, dict) and "swagger" in data and "openapi" not in data


def load(doc: DocInput) -> ToolDocs:
    """One tool per operation, in document order."""
    data = doc.data()
    file = doc.filename
    if not isinstance(data, dict):
        raise DocParseError(
            "a Swagger document must be a mapping", file=file, pointer="", hint="check the file"
        )
    _check_version(data, file)
    dialect = _Dialect()
    ctx = Ctx(file, RefResolver(data, file=file, transform=dialect), v30=False)
    operations = collect_operations(ctx, data)
    names = assign_names(ctx, operations)
    collected = [_op_params(ctx, o) for o in operations]
    plumbing = _plumbing(data, [params for params, _ in collected])
    rpc = len(operations) > 1 and all(o.method == "post" for o in operations)
    tools = [
        _tool(ctx, data, name, o, ([p for p in params if _key(p) not in plumbing], body), rpc)
        for name, o, (params, body) in zip(names, operations, collected, strict=True)
    ]
    if plumbing:
        shown = ", ".join(f"{name} ({where})" for name, where in sorted(plumbing))
        warnings.warn(
            DocWarning(f"{file}: left out API-wide parameters (credentials, signing, output "
                       f"format), not tool arguments: {shown[:300]}"),
            stacklevel=2,
        )  # fmt: skip
    if dialect.dropped:
        shown = "; ".join(dict.fromkeys(dialect.dropped))
        warnings.warn(
            DocWarning(
                f"{file}: dropped {len(dialect.dropped)} malformed schema keyword(s) "
                f"(not valid JSON Schema): {shown[:300]}"
            ),
            stacklevel=2,
        )
    return ToolDocs(domain=doc.domain, description=_description(data), tools=tools)


def _check_version(data: dict[str, Any], file: str) -> None:
    version = str(data.get("swagger"))
    if version not in ("2.0", "2"):
        raise DocParseError(
            f"unsupported Swagger version {version!r}",
            file=file,
            pointer="/swagger",
            hint='only Swagger 2.0 ("swagger": "2.0") and OpenAPI 3.x are supported; convert '
            "Swagger 1.x with `npx swagger-converter` or editor.swagger.io",
        )


def _description(data: dict[str, Any]) -> str:
    text = info_text(data)
    host, base = data.get("host"), data.get("basePath")
    if isinstance(host, str) and host.strip():
        url = host.strip() + (base if isinstance(base, str) else "")
        schemes = data.get("schemes")
        scheme = schemes[0] if isinstance(schemes, list) and schemes else "https"
        text = f"{text}\n\nBase URL: {scheme}://{url}".strip()
    return text


def _content_types(data: dict[str, Any], op: dict[str, Any], key: str) -> list[str]:
    value = op.get(key, data.get(key))
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def _is_json(types: list[str], *, form: bool = False) -> bool:
    """Whether a JSON payload fits ``types`` (no types listed means JSON, the 2.0 default)."""
    if not types:
        return True
    for t in types:
        base = t.split(";")[0].strip().lower()
        if "json" in base or base == "*/*":
            return True
        if form and base in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return True
    return False


def _op_params(ctx: Ctx, o: Operation) -> tuple[list[Param], _Body | None]:
    return _collect_params(
        ctx,
        [(o.item.get("parameters"), pointer_join(o.item_ptr, "parameters")),
         (o.op.get("parameters"), pointer_join(o.pointer, "parameters"))],
    )  # fmt: skip


def _key(p: Param) -> tuple[str, str]:
    return p.name, p.location


def _plumbing(data: dict[str, Any], per_op: list[list[Param]]) -> set[tuple[str, str]]:
    """API-wide parameters that are not tool arguments.

    The ``apiKey`` parameters of ``securityDefinitions`` (credentials), and, in a document of
    at least three operations, the non-path parameters every operation takes that are optional,
    headers or named as transport (:func:`_transport`): signing headers, API versions, JSONP
    callbacks, access keys, output format and field selection.
    """
    out: set[tuple[str, str]] = set()
    security = data.get("securityDefinitions")
    for scheme in security.values() if isinstance(security, dict) else []:
        if not isinstance(scheme, dict) or scheme.get("type") != "apiKey":
            continue
        if isinstance(scheme.get("name"), str) and scheme.get("in") in ("header", "query"):
            out.add((scheme["name"], scheme["in"]))
    if len(per_op) >= 3:
        common = set.intersection(*({_key(p) for p in params} for params in per_op))
        for params in per_op[:1]:
            for p in params:
                optional = not p.required or p.location == "header" or _transport(p.name)
                if _key(p) in common and p.location != "path" and optional:
                    out.add(_key(p))
    return out


#: last name words of a parameter that, taken by every operation, is transport (the API's
#: version, a JSONP callback, an access key, the RPC action, the signing time), required or not
_TRANSPORT_WORDS = frozenset(
    {"version", "callback", "jsonp", "apikey", "key", "wskey", "action", "timestamp"}
)


def _transport(name: str) -> bool:
    """Whether a parameter's name says it carries transport, not a user's choice: its last
    word (:data:`_TRANSPORT_WORDS`), a request signature (``SignatureMethod``) or an access
    key (``AWSAccessKeyId``)."""
    words = re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower())
    signing = "signature" in words or ("key" in words and any("access" in w for w in words))
    return bool(words) and (words[-1] in _TRANSPORT_WORDS or signing)


def _tool(
    ctx: Ctx,
    data: dict[str, Any],
    name: str,
    o: Operation,
    collected: tuple[list[Param], _Body | None],
    rpc: bool,
) -> ToolSpec:
    """One tool; ``rpc``: every operation is a POST, so the method says nothing about access."""
    types = _Op(_content_types(data, o.op, "consumes"), _content_types(data, o.op, "produces"))
    params, body = collected
    props, required = param_properties(ctx, params, o.pointer)
    if body is not None:
        _merge_body(ctx, body, props, required, flatten=_is_json(types.consumes, form=True))
    schema = {"type": "object", "properties": props, "required": required}
    rptr = pointer_join(o.pointer, "responses")
    returns = _returns(ctx, o.op.get("responses"), rptr) if _is_json(types.produces) else None
    return ToolSpec(
        name=name,
        description=op_description(o.op),
        parameters=normalize_parameters(schema, file=ctx.file, pointer=o.pointer),
        returns=normalize_returns(returns, file=ctx.file, pointer=rptr),
        access=None if rpc else method_access(o),
        source=SourceLocation(file=ctx.file, pointer=o.pointer),
    )


@dataclass
class _Body:
    """The ``in: body`` parameter: its name, resolved schema, description and required flag."""

    name: str
    schema: Any
    description: str
    required: bool


def _collect_params(ctx: Ctx, sources: list[tuple[Any, str]]) -> tuple[list[Param], _Body | None]:
    """Path-level then operation-level parameters (the latter override by (name, in)); the
    body parameter apart."""
    found: dict[tuple[str, str], Param] = {}
    body: _Body | None = None
    for raw_list, ptr in sources:
        if raw_list is None:
            continue
        if not isinstance(raw_list, list):
            raise ctx.error("'parameters' must be a list", ptr, "write '- name: ...' entries")
        for i, raw in enumerate(raw_list):
            p, pptr = ctx.resolver.deref(raw, pointer_join(ptr, i))
            location = _check_param(ctx, p, pptr)
            if location == "body":
                body = _body(ctx, p, pptr)
                continue
            param = _param(ctx, p, pptr, location)
            if param is not None:
                found[(param.name, param.location)] = param
    return list(found.values()), body


def _check_param(ctx: Ctx, p: Any, pptr: str) -> str:
    name = p.get("name") if isinstance(p, dict) else None
    location = p.get("in") if isinstance(p, dict) else None
    if not isinstance(name, str) or not name or location not in PARAM_LOCATIONS:
        raise ctx.error(
            "a parameter needs a 'name' and 'in' (path, query, header, formData or body)",
            pptr,
            "write e.g. {name: petId, in: path, required: true, type: string}",
        )
    assert isinstance(location, str)
    return location


def _param(ctx: Ctx, p: dict[str, Any], pptr: str, location: str) -> Param | None:
    name = p["name"]
    if location == "header" and name.lower() in IGNORED_HEADERS:
        return None  # content negotiation and credentials are not tool arguments
    schema = ctx.schema(_inline_schema(p), pptr)
    if not isinstance(schema, dict):
        schema = {}
    desc = p.get("description")
    if isinstance(desc, str) and desc.strip() and "description" not in schema:
        schema = {"description": desc.strip(), **schema}
    return Param(name, location, schema, p.get("required") is True or location == "path")


def _inline_schema(p: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of a non-body parameter (or an ``items`` object) from its keywords."""
    out: dict[str, Any] = {}
    for key in _INLINE_KEYS:
        if key not in p:
            continue
        value = p[key]
        out[key] = _inline_schema(value) if key == "items" and isinstance(value, dict) else value
    if "type" not in out and "schema" in p and isinstance(p["schema"], dict):
        return dict(p["schema"])  # an OpenAPI-3 style parameter: accept it as written
    out.setdefault("type", "string")
    return out


def _body(ctx: Ctx, p: dict[str, Any], pptr: str) -> _Body:
    if not isinstance(p.get("schema"), dict):
        raise ctx.error(
            "a body parameter needs a 'schema'",
            pptr,
            "write e.g. {name: pet, in: body, schema: {$ref: '#/definitions/Pet'}}",
        )
    schema = ctx.schema(p["schema"], pointer_join(pptr, "schema"))
    desc = p.get("description")
    return _Body(
        name=p["name"],
        schema=schema,
        description=desc.strip() if isinstance(desc, str) else "",
        required=p.get("required") is True,
    )


def _empty_object(schema: Any) -> bool:
    """An object schema that allows no value: no properties, no additional ones, no parts."""
    if not isinstance(schema, dict) or schema.get("type") not in ("object", None):
        return False
    keys = ("properties", "additionalProperties", "allOf", "oneOf", "anyOf", "items", "$ref")
    return schema.get("type") == "object" and not any(schema.get(k) for k in keys)


def _merge_body(
    ctx: Ctx, body: _Body, props: dict[str, Any], required: list[str], *, flatten: bool
) -> None:
    """Add the body to ``props``/``required`` in place: its properties, or one argument. A body
    whose schema is an object with no properties at all carries nothing: no argument."""
    if _empty_object(body.schema):
        return
    flat = flatten_object(body.schema) if flatten else None
    if flat is not None:
        merge_flat_body(flat, props, required, body.required)
        return
    key = body.name if body.name.isidentifier() and body.name.isascii() else ""
    key = key or sanitize_name(body.name)
    for candidate in (key, "body", "request_body"):
        if candidate not in props:
            key = candidate
            break
    schema = body.schema
    if body.description and isinstance(schema, dict):
        schema = {"description": body.description, **schema}
    props[key] = schema if isinstance(schema, dict) else {}
    if body.required:
        required.append(key)


def _returns(ctx: Ctx, responses: Any, ptr: str) -> Any:
    """The schema of the first 2xx response (``200`` before ``201``), or None."""
    if not isinstance(responses, dict):
        return None
    codes = sorted((c for c in responses if c.startswith("2")), key=lambda c: (c.upper(), c))
    if not codes:
        return None
    resp, rptr = ctx.resolver.deref(responses[codes[0]], pointer_join(ptr, codes[0]))
    if not isinstance(resp, dict) or "schema" not in resp:
        return None
    schema = ctx.schema(resp["schema"], pointer_join(rptr, "schema"))
    if isinstance(schema, dict) and schema.get("format") == "binary":
        return None  # a file download: nothing a JSON result could state
    return schema
