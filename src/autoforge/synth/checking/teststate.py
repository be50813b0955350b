"""States and arguments for checking synthesized tools, built without any model.

Without data, :func:`synthetic_state` fills every collection with a few deterministic records
that respect references. With data, :func:`slice_state` keeps a few real records per collection
plus the records they point at. :func:`happy_arguments` then picks arguments a correct tool must
accept on that state (existing keys, values taken from the record a lookup searches for).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import jsonschema

from autoforge.env import Attribute, CollectionSchema, StateSchema
from autoforge.lexicon import is_scope, owner_attribute, paging_role, session_owner, signed_in
from autoforge.synth.rulecode.classify import READ_CLASSES, Classification, collection_of_key
from autoforge.synth.rulecode.paging import paging_argument
from autoforge.tooldocs import ToolSpec, id_base, is_id_like, singular

State = dict[str, dict[str, Any]]


def _key(coll: CollectionSchema, i: int, digits: Collection[str] = ()) -> str:
    """The state key of record ``i``: ``ABC-<i>``, or ``"<i>"`` in an integer-keyed collection
    or one whose key a tool takes as an integer (``digits``)."""
    if coll.integer_keyed or coll.name in digits:
        return str(i)
    return f"{singular(coll.name)[:3].upper()}-{i}"


def integer_passed(schema: StateSchema, tools: Sequence[ToolSpec]) -> set[str]:
    """The collections whose key some tool takes as an integer (or number) parameter
    (``get_gif(gif_id: integer)`` while the record's ``id`` is documented as a string): their
    keys must be digits, or no call could name a record."""
    out = set()
    for tool in tools:
        for name, prop in (tool.parameters.get("properties") or {}).items():
            coll = collection_of_key(name, schema)
            numeric = isinstance(prop, Mapping) and prop.get("type") in ("integer", "number")
            if coll is not None and numeric:
                out.add(coll.name)
    return out


def _value(attr: Attribute, i: int, schema: StateSchema) -> Any:
    if attr.references and (ref := schema.collection(attr.references)) is not None:
        return ref.key_value(_key(ref, i))
    if attr.enum:
        return attr.enum[(i - 1) % len(attr.enum)]
    by_type: dict[str, Any] = {
        "integer": i,
        "number": float(10 * i),
        "boolean": i % 2 == 1,
        "date": f"2024-01-{i:02d}",
        "datetime": f"2024-01-{i:02d}T10:00:00",
        "array": [],
        "id": f"{attr.name.upper()}-{i}",
    }
    if attr.type == "object":
        prefix = "object with keys: "
        keys = (
            attr.description[len(prefix) :].split(",")
            if attr.description.startswith(prefix)
            else []
        )
        return {k.strip(): f"{k.strip()} {i}" for k in keys if k.strip()}
    return by_type.get(attr.type, f"{attr.name} {i}")


def synthetic_state(schema: StateSchema, n: int = 3, digits: Collection[str] = ()) -> State:
    """``n`` records per collection, keys ``ABC-<i>`` (``"<i>"`` for the ``digits``
    collections, :func:`integer_passed`), references pointing at existing records."""
    state: State = {}
    for coll in schema.collections:
        records: dict[str, Any] = {}
        for i in range(1, n + 1):
            key = _key(coll, i, digits)
            rec = {a.name: _value(a, i, schema) for a in coll.attributes}
            rec[coll.primary_key] = coll.key_value(key)
            records[key] = rec
        state[coll.name] = records
    return state


def _strings(value: Any, out: set[str], depth: int = 0) -> None:
    if depth > 5:
        return
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _strings(v, out, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out, depth + 1)


def slice_state(state: Mapping[str, Mapping[str, Any]], n: int = 6) -> State:
    """The first ``n`` records of each collection plus every record they mention by key."""
    out: State = {name: dict(list(coll.items())[:n]) for name, coll in state.items()}
    mentioned: set[str] = set()
    for part in out.values():
        for rec in part.values():
            _strings(rec, mentioned)
    for name, full in state.items():
        for key in sorted(mentioned):
            if key in full and key not in out[name]:
                out[name][key] = full[key]
    return json.loads(json.dumps(out))


def _find_in(value: Any, field: str, depth: int = 0) -> Any:
    """The first value stored under ``field`` anywhere inside ``value``."""
    if depth > 5:
        return None
    items: list[Any]
    if isinstance(value, dict):
        if field in value:
            return value[field]
        items = list(value.values())
    elif isinstance(value, list):
        items = value
    else:
        return None
    for v in items:
        found = _find_in(v, field, depth + 1)
        if found is not None:
            return found
    return None


def _pick_record(
    c: Classification, schema: StateSchema, state: State
) -> tuple[str, dict[str, Any]] | None:
    if c.collection is None or not state.get(c.collection):
        return None
    records = _own_first(c.collection, schema, state)
    if c.guard is not None:
        attr, wanted = c.guard
        for key, rec in records.items():
            if rec.get(attr) == wanted:
                return key, rec
    return next(iter(records.items()))


def _own_first(name: str, schema: StateSchema, state: State) -> dict[str, Any]:
    """The records of ``name``, the signed-in user's first where the state says who is signed
    in and the records belong to users: a tool acting for that user refuses the others'."""
    records = state[name]
    owner = session_owner(schema)
    coll = schema.collection(name)
    by = owner_attribute(coll, owner[0]) if owner is not None and coll is not None else None
    me = signed_in(state, schema) if by is not None else None
    if me is None:
        return records
    mine = {k: r for k, r in records.items() if isinstance(r, dict) and str(r.get(by)) == me}
    return {**mine, **records}


def _number(prop: Mapping[str, Any], preferred: float) -> float:
    low = prop.get("minimum", prop.get("exclusiveMinimum"))
    high = prop.get("maximum", prop.get("exclusiveMaximum"))
    value = preferred
    if low is not None and value <= low:
        value = low + 1 if "exclusiveMinimum" in prop else low
    if high is not None and value >= high:
        value = high - 1 if "exclusiveMaximum" in prop else high
    return value


def sample_value(
    prop: Mapping[str, Any], name: str, schema: StateSchema, state: State, write: bool = False
) -> Any:
    """A value valid for the JSON schema ``prop``; id-like fields get keys that exist.

    Objects get their required properties (recursively), arrays one item, numbers respect
    their bounds, strings their enum and date formats. ``place_order(items=[{"book_id",
    "quantity"}])`` thus gets a real book id and a positive quantity.
    """
    if prop.get("enum"):
        return prop["enum"][-1 if write and len(prop["enum"]) > 1 else 0]
    if "const" in prop:
        return prop["const"]
    if prop.get("default") is not None:
        return prop["default"]
    for key in ("anyOf", "oneOf"):
        options = [o for o in prop.get(key) or [] if isinstance(o, dict)]
        if options:
            return sample_value(options[0], name, schema, state, write)
    typ = prop.get("type")
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), "string")
    if typ == "object" or (typ is None and "properties" in prop):
        props = prop.get("properties") or {}
        wanted = prop.get("required") or []
        return {
            k: sample_value(props[k] or {}, k, schema, state, write) for k in wanted if k in props
        }
    if typ == "array":
        item = sample_value(prop.get("items") or {}, singular(name), schema, state, write)
        return [item] * max(1, int(prop.get("minItems", 1)))
    if typ == "integer":
        ref = collection_of_key(name, schema)
        if ref is not None and ref.integer_keyed and state.get(ref.name):
            return ref.key_value(next(iter(state[ref.name])))
        return int(_number(prop, 2))
    if typ == "number":  # a key given as a number (``transId: number``) names a record
        ref = collection_of_key(name, schema)
        first = str(next(iter(state[ref.name]))) if ref is not None and state.get(ref.name) else ""
        return int(first) if first.isdigit() else _number(prop, 2.5)
    if typ == "boolean":
        return True
    ref = collection_of_key(name, schema)
    if ref is not None and state.get(ref.name):
        return next(iter(state[ref.name]))
    fmt = prop.get("format")
    if fmt == "date" or name == "dob" or name == "date" or name.endswith("_date"):
        return "2024-05-15"
    if fmt == "date-time":
        return "2024-01-15T10:00:00"
    if fmt == "email":
        return "someone@example.com"
    return "test value"


def happy_arguments(
    spec: ToolSpec,
    c: Classification,
    schema: StateSchema,
    state: State,
    flags: Sequence[str] = (),
) -> dict[str, Any]:
    """Arguments a correct implementation must handle on ``state`` (required ones always).

    Keys come from existing records (one meeting the status guard when there is one); a lookup
    by attribute uses the attribute's value in that record; a write tool gets fresh values so a
    successful call visibly changes the state. ``flags``: the fields the docs require a new
    entry to have (:func:`autoforge.synth.rulecode.effects.entry_flags`, "an available new item"): a
    new id of an old/new pair names an entry where none of them is false.
    """
    picked = _pick_record(c, schema, state)
    rec = picked[1] if picked else {}
    write = c.cls not in READ_CLASSES
    props = spec.parameters.get("properties", {})
    args: dict[str, Any] = {}
    for param in spec.param_names:
        prop = props.get(param) or {}
        value = _argument(param, prop, c, schema, state, picked, rec, write)
        if value is not None and not fits(value, prop):
            value = None
        if value is not None or param in spec.required:
            args[param] = (
                value if value is not None else sample_value(prop, param, schema, state, write)
            )
    _pair_new_ids(args, state, flags)
    if c.cls == "update":
        _one_change(spec, c, schema, state, args)
    return args


def _one_change(
    spec: ToolSpec, c: Classification, schema: StateSchema, state: State, args: dict[str, Any]
) -> None:
    """An update whose arguments so far name only the record (every new value optional) gets
    a new value for its first parameter that is a field of the record, so a correct update
    visibly changes the state. Naming the record includes the scope it lives in and the
    records it references (``update_job(account, collection, job)``)."""
    coll = schema.collection(c.collection) if c.collection else None
    if coll is None or any(_is_value(p, c, coll) for p in args):
        return
    props = spec.parameters.get("properties", {})
    for param in spec.param_names:
        if param in args or coll.attribute(param) is None or not _is_value(param, c, coll):
            continue
        value = sample_value(props.get(param) or {}, param, schema, state, write=True)
        if value is not None and fits(value, props.get(param) or {}):
            args[param] = value
            return


def _is_value(param: str, c: Classification, coll: CollectionSchema) -> bool:
    """Whether an argument of an update is a new value, not part of naming the record: not
    its key, a scope or a reference (a parameter with no field counts as a value)."""
    attr = coll.attribute(param)
    if param in (c.key_param, coll.primary_key) or param in c.refs:
        return False
    return attr is None or not (is_scope(attr) or attr.references)


def _pair_new_ids(args: dict[str, Any], state: State, flags: Sequence[str] = ()) -> None:
    """``new_item_ids`` next to ``item_ids``: a sibling of each old id in the nested map that
    holds it (another variant of the same product), so a write can succeed on the test state."""
    for param, value in list(args.items()):
        new = f"new_{param}"
        if not isinstance(value, list) or new not in args:
            continue
        picked = [_sibling_key(state, str(v), flags) for v in value]
        if all(p is not None for p in picked):
            args[new] = picked


def _sibling_key(state: State, key: str, flags: Sequence[str] = ()) -> str | None:
    """Another key of the nested map (inside some record) that has ``key``, one whose
    ``flags`` fields are not false, else ``key``."""
    for table in state.values():
        for rec in table.values() if isinstance(table, dict) else []:
            for value in rec.values() if isinstance(rec, dict) else []:
                if isinstance(value, dict) and isinstance(value.get(key), dict):
                    others = [
                        k
                        for k, v in value.items()
                        if k != key
                        and isinstance(v, dict)
                        and all(v.get(f) is not False for f in flags)
                    ]
                    return str(others[0]) if others else key
    return None


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def fits(value: Any, prop: Mapping[str, Any]) -> bool:
    """Whether ``value`` is valid for a parameter schema (full JSON Schema validation)."""
    try:
        return bool(jsonschema.Draft202012Validator(dict(prop)).is_valid(value))
    except jsonschema.SchemaError:
        return _fits_basic(value, prop)


def _fits_basic(value: Any, prop: Mapping[str, Any]) -> bool:
    if prop.get("enum") is not None and value not in prop["enum"]:
        return False
    typ = prop.get("type")
    if not isinstance(typ, str) or typ not in _JSON_TYPES:
        return True
    if isinstance(value, bool) and typ in ("integer", "number"):
        return False
    return isinstance(value, _JSON_TYPES[typ])


def _fresh_key(state: State, name: str | None, like: Any) -> Any:
    """A key no record of ``name`` has, shaped like ``like``: what a create that takes its
    record's key from the caller (``create_cluster(cluster_name)``) must accept."""
    taken = {str(k) for k in state.get(name or "", {})}
    n = 1
    while True:
        key: Any = int(like) + n if isinstance(like, int) else f"{like}-{n}"
        if str(key) not in taken:
            return key
        n += 1


def _argument(
    param: str,
    prop: Mapping[str, Any],
    c: Classification,
    schema: StateSchema,
    state: State,
    picked: tuple[str, dict[str, Any]] | None,
    rec: dict[str, Any],
    write: bool,
) -> Any:
    own = schema.collection(c.collection) if c.collection else None
    if param == c.key_param and picked is not None:
        key = own.key_value(picked[0]) if own is not None else picked[0]
        return key if c.cls != "create" else _fresh_key(state, c.collection, key)
    if own is not None and rec and is_scope(own.attribute(param)) and c.cls != "create":
        return rec.get(param)  # the scope the record lives in
    ref = collection_of_key(param, schema)
    if ref is not None and state.get(ref.name):
        found = _find_in(rec, id_base(param)) if rec else None
        held = isinstance(found, str | int) and str(found) in state[ref.name]
        key = ref.key_value(str(found) if held else next(iter(state[ref.name])))
        return [key] if prop.get("type") == "array" else key
    if prop.get("type") == "object" or prop.get("properties"):
        return None  # built from the schema by sample_value
    if prop.get("type") == "array" and rec:
        found = _find_in(rec, id_base(param))
        if found is not None:
            return [found]
    if is_id_like(param) and rec:
        found = _find_in(rec, param)
        if isinstance(found, str | int):
            return found
    if param == "expression":
        return "2 + 3 * 4"
    if not write and rec:
        found = _find_in(rec, param)
        if found is not None and not isinstance(found, dict | list):
            return found
    role = paging_role(param, prop)
    if role is not None:
        return paging_argument(role)
    return None


def unknown_key_calls(
    spec: ToolSpec, c: Classification, schema: StateSchema, happy: Mapping[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """``(param, arguments)`` pairs where one key parameter names a record that does not exist.

    A correct tool answers these with a ToolError, not a crash and not a success. List tools
    (an unknown filter may rightly give an empty list) and the key a create tool invents are
    left out.
    """
    if c.cls in ("list", "generic", "compute"):
        return []
    out = []
    for param in spec.param_names:
        prop = spec.parameters.get("properties", {}).get(param) or {}
        if prop.get("type") not in (None, "string", "integer") or paging_role(param, prop):
            continue  # a cursor naming where a page starts need not name a record
        names = collection_of_key(param, schema)
        is_key = param == c.key_param or names is not None
        own = names is not None and names.name == c.collection
        made = c.cls == "create" and (param == c.key_param or own)
        if not is_key or made:  # a create's own new record is no record that must exist
            continue
        missing: Any = 987654321 if prop.get("type") == "integer" else "__no_such_id__"
        out.append((param, {**happy, param: missing}))
    return out
