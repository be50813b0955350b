"""``autoforge check`` runs the round trips a collection's tools imply, and finds tools that
each pass their own calls but break the promise between them."""

from __future__ import annotations

from typing import Any

from autoforge.env import Attribute, CollectionSchema, Environment, EnvironmentSpec, StateSchema
from autoforge.synth import check_environment
from autoforge.tooldocs import ToolSpec

SCHEMA = StateSchema(
    collections=[
        CollectionSchema(
            name="kites",
            primary_key="kite_id",
            attributes=[
                Attribute(name="kite_id", type="id"),
                Attribute(name="colour", type="string"),
                Attribute(name="span", type="integer"),
            ],
        ),
        CollectionSchema(
            name="pilots",
            primary_key="pilot_id",
            attributes=[
                Attribute(name="pilot_id", type="id"),
                Attribute(name="password", type="string"),
            ],
        ),
    ]
)
STATE = {
    "kites": {
        "K-1": {"kite_id": "K-1", "colour": "red", "span": 3},
        "K-2": {"kite_id": "K-2", "colour": "blue", "span": 4},
    },
    "pilots": {"P-1": {"pilot_id": "P-1", "password": "hunter2"}},
}


def _tool(name: str, props: dict[str, Any], required: list[str], access: str) -> ToolSpec:
    schema = {"type": "object", "properties": props, "required": required}
    return ToolSpec(name=name, parameters=schema, access=access)  # type: ignore[arg-type]


STR, INT = {"type": "string"}, {"type": "integer"}
TOOLS = [
    _tool("create_kite", {"colour": STR, "span": INT}, ["colour", "span"], "write"),
    _tool("get_kite", {"kite_id": STR}, ["kite_id"], "read"),
    _tool("update_kite", {"kite_id": STR, "colour": STR}, ["kite_id"], "write"),
    _tool("delete_kite", {"kite_id": STR}, ["kite_id"], "write"),
    _tool("list_kites", {"limit": INT}, [], "read"),
    _tool("login_pilot", {"pilot_id": STR}, ["pilot_id"], "write"),
]

GOOD = """
def create_kite(state, colour, span):
    table = state.setdefault('kites', {})
    key = f"K-{len(table) + 1}"
    while key in table:
        key = key + "x"
    table[key] = {'kite_id': key, 'colour': colour, 'span': span}
    return table[key]

def get_kite(state, kite_id):
    record = state.get('kites', {}).get(kite_id)
    if record is None:
        raise ToolError(f"kite not found: {kite_id}")
    return record

def update_kite(state, kite_id, colour=None):
    record = get_kite(state, kite_id)
    if colour is not None:
        record['colour'] = colour
    return record

def delete_kite(state, kite_id):
    get_kite(state, kite_id)
    return state['kites'].pop(kite_id)

def list_kites(state, limit=None):
    rows = list(state.get('kites', {}).values())
    return rows[:limit] if limit is not None else rows

def login_pilot(state, pilot_id):
    if pilot_id not in state.get('pilots', {}):
        raise ToolError("no such pilot")
    state['session'] = {'me': {'pilot_id': pilot_id}}
    return {'pilot_id': pilot_id}
"""


def _findings(source: str) -> dict[str, str]:
    spec = EnvironmentSpec(name="kites", tools=TOOLS, state_schema=SCHEMA)
    env = Environment.from_parts(spec, source, STATE)
    report = check_environment(env, mode="inline")
    return {
        f"{i.check}:{i.tool}": i.detail
        for i in report.items
        if not i.ok and i.check in ("roundtrip", "paging", "secret")
    }


def test_correct_tools_pass_every_round_trip() -> None:
    assert _findings(GOOD) == {}


def test_a_create_the_get_cannot_find_is_caught() -> None:
    bad = GOOD.replace(
        "table[key] = {'kite_id': key,", "table['k' + key] = {'kite_id': key,"
    ).replace("return table[key]", "return table['k' + key]")
    found = _findings(bad)
    assert "does not find it" in found["roundtrip:create_kite"]


def test_an_update_that_changes_nothing_or_more_is_caught() -> None:
    nothing = GOOD.replace("record['colour'] = colour", "pass")
    assert "not changed {'colour'" in _findings(nothing)["roundtrip:update_kite"]
    also = "record['colour'] = colour\n        record['span'] = 0"
    more = GOOD.replace("record['colour'] = colour", also)
    assert "changed besides {'span'" in _findings(more)["roundtrip:update_kite"]


def test_a_delete_that_leaves_the_record_is_caught() -> None:
    bad = GOOD.replace("return state['kites'].pop(kite_id)", "return state['kites'][kite_id]")
    assert "still finds it" in _findings(bad)["roundtrip:delete_kite"]


def test_a_page_size_that_filters_is_caught() -> None:
    bad = GOOD.replace(
        "return rows[:limit] if limit is not None else rows",
        "return [r for r in rows if limit is None or r.get('count') == limit]",
    )
    assert "paging:list_kites" in _findings(bad)


def test_a_sign_in_that_returns_the_password_is_caught() -> None:
    bad = GOOD.replace("return {'pilot_id': pilot_id}", "return dict(state['pilots'][pilot_id])")
    assert "password" in _findings(bad)["secret:login_pilot"]


def test_a_create_whose_reply_is_another_collections_record_makes_no_round_trip() -> None:
    """A tool scoped to one collection that writes a record of another (a booking made under a
    class) promises nothing about the first collection's get."""
    from autoforge.env.artifact.spec import CollectionSchema
    from autoforge.synth.check.roundtrip import _Trips

    coll = CollectionSchema.model_validate(
        {"name": "classes", "primary_key": "id",
         "attributes": [{"name": n, "type": "string"} for n in ("id", "title", "starts_at")]}
    )  # fmt: skip
    trips = _Trips(coll, [], lambda calls: [], lambda tool: [])
    assert not trips._is_record({"id": "B1", "member_id": "M1", "class_id": "C1", "at": "x"})
    assert trips._is_record({"id": "C1", "title": "Yoga", "starts_at": "x", "extra": 1})
