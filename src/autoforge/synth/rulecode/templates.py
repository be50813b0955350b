"""Rule-based tool implementations (code templates) and class skeletons.

For plain CRUD over an obvious collection, :func:`render_template` writes the whole function:
no model is needed, and a stronger model can only replace it with something better. For the
other tools, :func:`render_skeleton` writes a draft of the right shape (load the record, check
the status precondition the name states, TODO markers for the effects the docs describe) that the
LLM completes. All generated code follows the runtime conventions: ``def name(state, ...)`` with
the documented parameters, ``ToolError`` from the globals, no imports.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from autoforge.env import CollectionSchema, StateSchema
from autoforge.lexicon import find_user_collection, name_verb, paging_params, request_params
from autoforge.synth.modelcode.create_draft import (
    create_draft,
    entry_refs,
    key_list_check,
    whole_param,
)
from autoforge.synth.rulecode.classify import Classification
from autoforge.synth.rulecode.conventions import GENERIC, Conventions
from autoforge.synth.rulecode.doc_templates import (
    documented_list,
    field_by_noun,
    list_results,
    qualified_field,
    qualified_refs,
)
from autoforge.synth.rulecode.effects import (
    EffectCode,
    MirrorEffect,
    is_multiset,
    mirror_effect,
    new_entry_flags,
    owned_ref_checks,
    pair_effect,
    refund_effect,
    restore_effect,
)
from autoforge.synth.rulecode.headers import head
from autoforge.synth.rulecode.open_effects import effect_sentences, effect_todos, open_clauses
from autoforge.synth.rulecode.session_scope import (
    SESSION_PARAM,
    create_owner_lines,
    owned_record_lines,
    session_key_lines,
    session_read,
)
from autoforge.synth.rulecode.transition_fields import (
    existing_field,
    modified_field,
    stored_name,
    target_status,
)
from autoforge.synth.state.scope import scope_lines
from autoforge.tooldocs import NAME_LIKE, ToolSpec, singular, tokens

FieldMap = Mapping[str, list[str]]


def field_path(paths: FieldMap, param: str) -> list[str]:
    """Where a parameter's value lives in a record (top level when the paths do not say)."""
    return paths.get(param) or [param]


def get_expr(var: str, path: list[str]) -> str:
    """Python expression reading ``path`` from dict ``var`` (``None`` when missing)."""
    expr = f"{var}.get({path[0]!r})"
    for key in path[1:]:
        expr = f"({expr} or {{}}).get({key!r})"
    return expr


def set_lines(
    var: str, path: list[str], value: str, indent: str, seen: set[str] | None = None
) -> list[str]:
    """Lines assigning ``value`` at ``path`` inside dict ``var``, creating parent objects.

    ``seen`` collects the parents already ensured, so a run of assignments creates each once.
    """
    lines: list[str] = []
    target = var
    for key in path[:-1]:
        parent = f"{target}[{key!r}]"
        if seen is None or parent not in seen:
            lines.append(f"{indent}if not isinstance({target}.get({key!r}), dict):")
            lines.append(f"{indent}    {parent} = {{}}")
            if seen is not None:
                seen.add(parent)
        target = parent
    lines.append(f"{indent}{target}[{path[-1]!r}] = {value}")
    return lines


def _noun(coll: CollectionSchema) -> str:
    return singular(coll.name).replace("_", " ")


def _load_record(
    coll: CollectionSchema,
    key_expr: str,
    guard: tuple[str, str] | None,
    qualifier: str | None = None,
) -> list[str]:
    """Lines loading ``record`` by key, refusing an unknown key, a record whose status is not
    the ``guard``'s, and one without the ``qualifier`` attribute the tool's name requires
    (``pay_shop_invoice`` on an invoice of no shop)."""
    noun = _noun(coll)
    lines = [
        f"    record = state.get({coll.name!r}, {{}}).get(str({key_expr}))",
        "    if record is None:",
        f'        raise ToolError(f"{noun} not found: {{{key_expr}}}")',
    ]
    if qualifier is not None:
        lines += [
            f"    if record.get({qualifier!r}) is None:",
            f'        raise ToolError(f"{noun} {{{key_expr}}} has no {qualifier}")',
        ]
    if guard is not None:
        attr, value = guard
        lines += [
            f"    if record.get({attr!r}) != {value!r}:",
            f'        raise ToolError(f"{noun} {{{key_expr}}} is not {value}: '
            f'{{record.get({attr!r})}}")',
        ]
    return lines


def _reference_checks(
    coll: CollectionSchema,
    spec: ToolSpec,
    exprs: Mapping[str, str],
    indent: str,
    refs: Mapping[str, str] | None = None,
) -> list[str]:
    """Lines raising ToolError when a parameter names a record of another collection that
    does not exist (from the schema's ``references`` and the classifier's key parameters)."""
    lines: list[str] = []
    for param in spec.param_names:
        attr = coll.attribute(param)
        target = (refs or {}).get(param) or (attr.references if attr is not None else None)
        if not target or param == coll.primary_key:
            continue
        expr = exprs[param]
        if _is_array(spec, param):  # a list of keys: each must name a record
            lines += key_list_check(expr, target, indent)
            continue
        lines += [
            f"{indent}if {expr} is not None and str({expr}) not in state.get({target!r}, {{}}):",
            f'{indent}    raise ToolError(f"{singular(target)} not found: {{{expr}}}")',
        ]
    return lines


def _is_array(spec: ToolSpec, param: str) -> bool:
    return (spec.parameters.get("properties", {}).get(param) or {}).get("type") == "array"


def _lookup(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    paths: FieldMap,
    schema: StateSchema | None = None,
) -> str:
    top, exprs = head(spec)
    if c.key_param is not None:
        load = _load_record(coll, exprs[c.key_param], None, c.qualifier)
        load += scope_lines(spec, coll, c.key_param, exprs, _noun(coll))
        derived = [
            f"    record = {{**record, {name!r}: [k for k, r in state.get({other!r}, {{}}).items()"
            f" if str(r.get({ref!r})) == str({exprs[c.key_param]})]}}"
            for name, other, ref in derived_key_lists(spec, coll, schema)
        ]
        return "\n".join([*top, *load, *derived, "    return record"])
    conds = []
    for param in spec.param_names:
        got = get_expr("record", field_path(paths, param))
        if tokens(param)[-1:] and tokens(param)[-1] in (*NAME_LIKE, "email"):
            conds.append(f"str({got}).lower() == str({exprs[param]}).lower()")
        else:
            conds.append(f"{got} == {exprs[param]}")
    wants_id = "id" in tokens(spec.name)
    fields = returned_fields(spec.description, coll)
    answer = "key" if wants_id else "record"
    if fields and not wants_id:
        answer = "{" + ", ".join(f"{f!r}: record.get({f!r})" for f in fields) + "}"
    body = [
        f"    for key, record in state.get({coll.name!r}, {{}}).items():",
        f"        if {' and '.join(conds)}:",
        f"            return {answer}",
        f'    raise ToolError("{_noun(coll)} not found")',
    ]
    return "\n".join([*top, *body])


def derived_key_lists(
    spec: ToolSpec, coll: CollectionSchema, schema: StateSchema | None
) -> list[tuple[str, str, str]]:
    """Documented result fields that list the keys of the records pointing at this one.

    A lookup documented to return ``order_ids`` (an array of strings) for a customer, while the
    state stores the relation on the other side (``orders.customer_id`` references
    ``customers``), must compute the list: returning the bare record drops a field the docs
    promise. Each ``(field, other collection, referencing attribute)`` is found by the field's
    name (``<singular of other>_ids`` or ``<other>``) and a unique referencing attribute.
    """
    props = (spec.returns or {}).get("properties") if isinstance(spec.returns, dict) else None
    if schema is None or not isinstance(props, dict):
        return []
    stored = {a.name for a in coll.attributes}
    out = []
    for name, prop in props.items():
        items = prop.get("items") if isinstance(prop, dict) else None
        if name in stored or prop.get("type") != "array" or not isinstance(items, dict):
            continue
        if items.get("type", "string") not in ("string", "integer"):
            continue
        for other in schema.collections:
            if name not in (f"{singular(other.name)}_ids", other.name, f"{other.primary_key}s"):
                continue
            refs = [a.name for a in other.attributes if a.references == coll.name]
            if len(refs) == 1 and other.name != coll.name:
                out.append((name, other.name, refs[0]))
    return out


_RETURNS = re.compile(r"\breturns? (?:the |its |their )?(?:\w+'s )?([a-z_ ,]+?)(?:\.|$)", re.I)


def returned_fields(description: str, coll: CollectionSchema) -> list[str]:
    """The attributes a description says a lookup returns ("Returns the customer's id and
    name." -> ``customer_id``, ``name``), when every named word is an attribute (``id`` is the
    primary key); empty when the docs do not say, or name something else."""
    m = _RETURNS.search(description)
    if m is None:
        return []
    words = [w.strip() for w in re.split(r",|\band\b", m.group(1)) if w.strip()]
    names = {a.name for a in coll.attributes}
    out = []
    for word in words:
        attr = coll.primary_key if word == "id" else word.replace(" ", "_")
        if attr not in names and attr != coll.primary_key:
            return []
        out.append(attr)
    return out


def _list(
    spec: ToolSpec, coll: CollectionSchema, paths: FieldMap, qualifier: str | None = None
) -> str:
    top, exprs = head(spec)
    body = ["    results = []", f"    for record in state.get({coll.name!r}, {{}}).values():"]
    if qualifier is not None:
        body += [f"        if record.get({qualifier!r}) is None:", "            continue"]
    paging = paging_params(spec.parameters.get("properties", {}), spec.param_names)
    for param in spec.param_names:
        expr = exprs[param]
        path = paths.get(param)
        if param in paging:
            continue
        if param in ("query", "q"):
            body.append(
                f"        if {expr} is not None and str({expr}).lower() not in str(record).lower():"
            )
        elif path is not None:
            body.append(f"        if {expr} is not None and {get_expr('record', path)} != {expr}:")
        else:
            continue
        body.append("            continue")
    body += list_results(coll, exprs, [], paging=paging)
    return "\n".join([*top, *body])


def _create(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    paths: FieldMap,
    schema: StateSchema | None = None,
) -> str:
    top, exprs = head(spec)
    prefix = f"{singular(coll.name)[:3]}_"
    signed_in, attach = create_owner_lines(spec, c, coll, schema)  # acts for the signed-in user
    body = [*signed_in, f"    table = state.setdefault({coll.name!r}, {{}})"]
    if c.key_param is not None:
        body.append(f"    key = {exprs[c.key_param]}")
    else:
        body.append("    key = None")
    body += [
        *_new_key_lines(coll, prefix),
        "    key = str(key)",
        "    if key in table:",
        f'        raise ToolError(f"{_noun(coll)} already exists: {{key}}")',
        *_reference_checks(coll, spec, exprs, "    ", c.refs),
        "    record = {"
        + ", ".join(f"{a.name!r}: None" for a in coll.attributes if a.name != coll.primary_key)
        + "}",
        f"    record[{coll.primary_key!r}] = "
        + ("int(key) if key.lstrip('-').isdigit() else key" if coll.integer_keyed else "key"),
        *attach,
    ]
    seen: set[str] = set()
    request = request_params(spec.parameters.get("properties", {}), spec.param_names)
    for param in spec.param_names:  # an idempotency token controls the call, is not stored
        if param != c.key_param and param not in request:
            body += set_lines("record", field_path(paths, param), exprs[param], "    ", seen)
    body += ["    table[key] = record", "    return record"]
    return "\n".join([*top, *body])


def _new_key_lines(coll: CollectionSchema, prefix: str) -> list[str]:
    """Lines giving ``key`` a fresh value when the caller named none: one past the largest
    key of an integer-keyed collection, else a key in the existing keys' pattern (REV-1,
    REV-2 -> REV-4) or a default."""
    if coll.integer_keyed:
        return [
            "    if key is None:",
            "        key = max([int(k) for k in table if str(k).lstrip('-').isdigit()] or [0]) + 1",
        ]
    return [
        "    if key is None:",
        "        stems = {str(k).rstrip('0123456789') for k in table if str(k)[-1:].isdigit()}",
        f"        stem = stems.pop() if len(stems) == 1 else {prefix!r}",
        "        n = len(table) + 1",
        '        while f"{stem}{n}" in table:',
        "            n += 1",
        '        key = f"{stem}{n}"',
    ]


def _update(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    paths: FieldMap,
    schema: StateSchema | None = None,
) -> str:
    top, exprs = head(spec)
    assert c.key_param is not None
    body = [*_load_record(coll, exprs[c.key_param], c.guard, c.qualifier)]
    body += scope_lines(spec, coll, c.key_param, exprs, _noun(coll))
    body += owned_record_lines(spec, c, coll, schema, exprs[c.key_param])
    owner, checked = owner_param_checks(spec, c, coll, schema, exprs)
    body += owner
    body += _reference_checks(coll, spec, exprs, "    ", c.refs)
    seen: set[str] = set()
    for param in spec.param_names:
        if param == c.key_param or param in checked:
            continue
        replaced = modified_field(coll, param)  # ``new_date`` writes ``date``
        path = [replaced] if replaced is not None else field_path(paths, param)
        if param in spec.required:
            body += set_lines("record", path, exprs[param], "    ", seen)
        else:
            body.append(f"    if {exprs[param]} is not None:")
            body += set_lines("record", path, exprs[param], "        ")
    body.append("    return record")
    return "\n".join([*top, *body])


def _delete(
    spec: ToolSpec, c: Classification, coll: CollectionSchema, schema: StateSchema | None = None
) -> str:
    top, exprs = head(spec)
    assert c.key_param is not None
    body = [*_load_record(coll, exprs[c.key_param], c.guard, c.qualifier)]
    body += scope_lines(spec, coll, c.key_param, exprs, _noun(coll))
    body += owned_record_lines(spec, c, coll, schema, exprs[c.key_param])
    body += [f"    del state[{coll.name!r}][str({exprs[c.key_param]})]", "    return record"]
    return "\n".join([*top, *body])


_CALC = """    expr = str(expression)
    allowed = "0123456789.+-*/() "
    if not expr.strip() or any(ch not in allowed for ch in expr):
        raise ToolError("invalid characters in expression: " + expr)
    toks = []
    i = 0
    while i < len(expr):
        ch = expr[i]
        if ch == " ":
            i += 1
        elif ch in "0123456789.":
            j = i
            while j < len(expr) and expr[j] in "0123456789.":
                j += 1
            try:
                toks.append(float(expr[i:j]))
            except ValueError:
                raise ToolError("bad number: " + expr[i:j])
            i = j
        else:
            toks.append(ch)
            i += 1
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def atom():
        tok = peek()
        if tok == "-":
            take()
            return -atom()
        if tok == "+":
            take()
            return atom()
        if tok == "(":
            take()
            value = add()
            if peek() != ")":
                raise ToolError("unbalanced parentheses")
            take()
            return value
        if isinstance(tok, float):
            return take()
        raise ToolError("malformed expression: " + expr)

    def mul():
        value = atom()
        while peek() in ("*", "/"):
            if take() == "*":
                value = value * atom()
            else:
                divisor = atom()
                if divisor == 0:
                    raise ToolError("division by zero")
                value = value / divisor
        return value

    def add():
        value = mul()
        while peek() in ("+", "-"):
            value = value + mul() if take() == "+" else value - mul()
        return value

    result = add()
    if pos[0] != len(toks):
        raise ToolError("malformed expression: " + expr)
    return str(round(result, 2))"""


def _generic(spec: ToolSpec, c: Classification, conv: Conventions = GENERIC) -> str:
    top, _ = head(spec)
    toks = tokens(spec.name)
    if c.cls == "compute":
        return "\n".join([*top, _CALC])
    if toks and toks[0] == "transfer" and conv.transfer_reply:
        result = '"Transfer successful"'
    elif toks and toks[0] == "think":
        result = '""'
    else:
        result = '"ok"'
    return "\n".join([*top, f"    return {result}"])


def render_template(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema | None,
    paths: FieldMap,
    conv: Conventions = GENERIC,
    schema: StateSchema | None = None,
) -> str | None:
    """The complete rule-based implementation of a plain tool, or None when it is not plain.

    ``schema`` (the whole state) lets a keyed lookup compute the documented lists of records
    that reference it (:func:`derived_key_lists`) and tells whether a session record says who
    is signed in (:func:`~autoforge.synth.rulecode.session_scope.session_read` scopes argument-less
    reads to that user). A list whose every parameter the docs explain
    (:func:`documented_list`) gets that template even when it is not plain CRUD.
    """
    scoped = session_read(spec, c, coll, schema)
    if scoped is not None:  # acts for whoever is signed in: that user's records only
        return scoped
    if c.cls == "list" and coll is not None:
        documented = documented_list(spec, coll, dict(paths), c.qualifier)
        if documented is not None:
            return documented
    if not c.plain:
        return None
    if c.cls in ("generic", "compute"):
        return _generic(spec, c, conv)
    if coll is None:
        return None
    if c.cls == "lookup":
        return _lookup(spec, c, coll, paths, schema)
    if c.cls == "list":
        return _list(spec, coll, paths, c.qualifier)
    if c.cls == "create":
        return _create(spec, c, coll, paths, schema)
    if c.cls == "update" and c.key_param is not None:
        return _update(spec, c, coll, paths, schema)
    if c.cls == "delete" and c.key_param is not None:
        return _delete(spec, c, coll, schema)
    return None


def render_skeleton(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema | None,
    paths: FieldMap,
    policy: str = "",
    schema: StateSchema | None = None,
    mirrors: Sequence[MirrorEffect] = (),
    conv: Conventions = GENERIC,
    covered: Callable[[str], bool] | None = None,
    start: tuple[str, str] | None = None,
) -> str:
    """A runnable draft for a tool the templates cannot fully write, with TODOs for the LLM.

    The draft loads the record by key, checks the status precondition the name states, checks
    and computes what the docs and data make explicit (:mod:`autoforge.synth.rulecode.effects`:
    paired
    old/new id lists, mirrored entries, balance credits), sets the status a transition verb
    implies, and stores the parameters it can place (multisets sorted). It is also the
    last-resort fallback when no LLM attempt passes the checks. ``covered`` tells the doc
    sentences that the guards already enforce
    (:func:`autoforge.synth.rulecode.doc_rules.covered_by_rules`):
    they are no TODO, so a draft can come out complete (no TODO line at all).
    """
    top, exprs = head(spec)
    lines = list(top)
    if (
        c.cls == "create" and coll is not None
    ):  # a new record, whether or not the call names its key
        return "\n".join(
            [*lines, *_create_body(spec, c, coll, paths, policy, schema, conv, covered, start)]
        )
    signed_in = session_key_lines(c, coll, schema)
    if signed_in is not None:  # acts on the signed-in user's own record
        lines += signed_in
        exprs = {**exprs, SESSION_PARAM: "me"}
        c = c.model_copy(update={"key_param": SESSION_PARAM})
    if coll is None or c.key_param is None:
        return "\n".join([*lines, *_UNPLACED_BODY])
    lines += _load_record(coll, exprs[c.key_param], c.guard, c.qualifier)
    lines += scope_lines(spec, coll, c.key_param, dict(exprs), _noun(coll))
    lines += owned_record_lines(spec, c, coll, schema, exprs[c.key_param])
    owner, checked = owner_param_checks(spec, c, coll, schema, exprs)
    lines += owner
    verb = name_verb(spec)
    target, pair, mirror, restore = _record_effects(
        spec, c, coll, exprs, verb, policy, schema, mirrors, conv
    )
    if pair is not None:
        lines += pair.checks
    has_difference = pair is not None and "difference" in "\n".join(pair.checks)
    lines += owned_ref_checks(spec, coll, schema, exprs, c.key_param, policy, has_difference)
    lines += _destination_checks(spec, coll, exprs)
    if target is not None:
        lines.append(f"    record[{target[0]!r}] = {target[1]!r}")
    lines += _store_params(spec, c, paths, exprs, verb, pair, conv, coll, checked)
    for effect in (pair, mirror, restore):
        if effect is not None:
            lines += effect.writes
    done = [restore.clause] if restore is not None else []
    lines += effect_todos(spec.description + "\n" + policy, done, covered, schema)
    lines.append("    return record")
    return "\n".join(lines)


#: the body of a draft that has no collection or no key to load a record by
_UNPLACED_BODY = (
    "    # TODO: implement from the tool description using the state collections",
    '    raise ToolError("not implemented")',
)


def _record_effects(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    exprs: Mapping[str, str],
    verb: str,
    policy: str,
    schema: StateSchema | None,
    mirrors: Sequence[MirrorEffect],
    conv: Conventions,
) -> tuple[tuple[str, str] | None, EffectCode | None, EffectCode | None, EffectCode | None]:
    """What a draft on one record does besides storing parameters: ``(status to set, paired
    id lists, mirrored entries or refund, restored stock)``, each ``None`` when it does not
    apply (the status and the restore apply to transitions only)."""
    text = spec.description + "\n" + policy
    transition = c.cls == "transition"
    target = target_status(verb, coll, spec.description, policy, conv) if transition else None
    flags = new_entry_flags(text, schema)
    pair = pair_effect(spec, coll, exprs, verb, replace=not transition, conv=conv, flags=flags)
    mirror = mirror_effect(spec, coll, schema, target[1] if target else None, mirrors)
    if mirror is None and transition and conv.negated_refunds:
        mirror = refund_effect(spec, coll, policy)
    restore = restore_effect(coll, schema, text) if transition else None
    return target, pair, mirror, restore


def _destination_checks(
    spec: ToolSpec, coll: CollectionSchema, exprs: Mapping[str, str]
) -> list[str]:
    """A move's destination exists: each parameter naming a record of another collection."""
    lines: list[str] = []
    for param, dest in qualified_refs(spec, coll).items():
        lines += [
            f"    if str({exprs[param]}) not in state.get({dest!r}, {{}}):",
            f'        raise ToolError(f"{singular(dest)} not found: {{{exprs[param]}}}")',
        ]
    return lines


def _create_body(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    paths: FieldMap,
    policy: str,
    schema: StateSchema | None,
    conv: Conventions,
    covered: Callable[[str], bool] | None,
    start: tuple[str, str] | None = None,
) -> list[str]:
    """The draft of a create that computes part of its record (:mod:`.create_draft`); ``start``:
    the status its record starts with, where the docs state one."""
    _, exprs = head(spec)
    effects = effect_sentences(spec.description + "\n" + policy)
    effects = [e for e in effects if open_clauses(e, [], covered, schema)]
    listed = {p for p in spec.param_names if schema is not None and entry_refs(spec, p, schema)}
    listed.add(whole_param(spec, coll) or "")  # the record given whole: stored field by field
    props = {k: v for k, v in spec.parameters.get("properties", {}).items() if k not in listed}
    plain = spec.model_copy(update={"parameters": {**spec.parameters, "properties": props}})
    stored = _store_params(plain, c, paths, exprs, "", None, conv, coll)
    if start is not None and start[0] not in spec.param_names:
        stored.append(f"    record[{start[0]!r}] = {start[1]!r}")
    refs = {p: t for p in spec.param_names if (t := _ref_target(spec, coll, p, c.refs))}
    owner = create_owner_lines(spec, c, coll, schema)  # acts for the signed-in user
    return create_draft(spec, c, coll, exprs, schema, effects, stored, refs, owner)


def owner_param_checks(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    schema: StateSchema | None,
    exprs: Mapping[str, str],
) -> tuple[list[str], frozenset[str]]:
    """A write on one record that also takes its owner's key (``cancel_invoice(invoice_id,
    client_id)``, ``client_id`` the attribute referencing the user collection) names whose
    record it is, it does not hand the record to someone else: the lines refusing another
    owner's record, and the parameters so checked (not stored)."""
    user = find_user_collection(schema) if schema is not None else None
    if user is None or c.cls not in ("update", "transition") or c.key_param is None:
        return [], frozenset()
    lines: list[str] = []
    checked: set[str] = set()
    for param in spec.param_names:
        attr = coll.attribute(param)
        if param == c.key_param or attr is None or attr.references != user:
            continue
        checked.add(param)
        lines += [
            f"    if str(record.get({param!r})) != str({exprs[param]}):",
            f'        raise ToolError(f"{_noun(coll)} {{{exprs[c.key_param]}}} does not belong to '
            f'{singular(user).replace("_", " ")} {{{exprs[param]}}}")',
        ]
    return lines, frozenset(checked)


def _ref_target(
    spec: ToolSpec, coll: CollectionSchema, param: str, refs: Mapping[str, str]
) -> str | None:
    """The collection a scalar parameter names a record of (classifier refs, then schema); a
    list of keys is checked key by key (:mod:`.create_draft`)."""
    if _is_array(spec, param):
        return None
    attr = coll.attribute(param)
    target = refs.get(param) or (attr.references if attr is not None else None)
    return target if target and param != coll.primary_key else None


def _store_params(
    spec: ToolSpec,
    c: Classification,
    paths: FieldMap,
    exprs: Mapping[str, str],
    verb: str,
    pair: EffectCode | None,
    conv: Conventions = GENERIC,
    coll: CollectionSchema | None = None,
    checked: frozenset[str] = frozenset(),
) -> list[str]:
    """Assignments of the parameters a draft can place (``checked``: parameters the draft
    compares with the record instead, :func:`owner_param_checks`).

    A parameter naming the new value of an attribute goes there (:func:`modified_field`:
    ``new_date`` -> ``date``); any other to its field, else to an attribute the data has for it
    (:func:`existing_field`); the rest stay TODOs: an attribute the schema does not have is
    what the ``schema_attrs`` check refuses. The ``tau`` profile instead stores a transition's
    rest under :func:`stored_name` (multisets sorted) and skips :func:`existing_field`.
    """
    lines: list[str] = []
    seen: set[str] = set()
    handled = (set(pair.stored) if pair is not None else set()) | checked
    handled |= request_params(spec.parameters.get("properties", {}), spec.param_names)
    for param in spec.param_names:
        if param == c.key_param or param in handled:
            continue
        replaced = modified_field(coll, param) if coll is not None else None
        known = [replaced] if replaced is not None and c.cls != "create" else paths.get(param)
        found = None
        if coll is not None and known is None:
            found = (
                existing_field(spec, coll, param)
                or qualified_field(coll, param)
                or field_by_noun(coll, param)
            )
        if found is not None and not conv.verb_plural_names:
            known = [found]
        if known is None and not conv.verb_plural_names:
            lines.append(f"    # TODO: use {param} (no attribute of the schema holds it)")
            continue
        if known is None and c.cls != "transition":
            if pair is not None:
                lines.append(f"    # TODO: use {param}")
                continue
            known = [param]
        path = known or [stored_name(verb, param, conv)]
        value = exprs[param]
        if known is None and conv.sorted_multisets and is_multiset(spec, param):
            value = f"sorted({value})"
        if param in spec.required:
            lines += set_lines("record", path, value, "    ", seen)
        else:  # an optional parameter not given leaves its field as it is
            lines.append(f"    if {exprs[param]} is not None:")
            lines += set_lines("record", path, value, "        ")
    return lines
