"""The state design's compact answer: line parsing, repair, bounds, the docs-evidence check."""

from __future__ import annotations

import pytest

from autoforge.synth.state.design_model import (
    CompactDesign,
    docs_words,
    max_tokens_for,
    parse_line,
    parse_lines,
    repair,
    stated,
)
from autoforge.tooldocs.spec import ToolSpec


@pytest.mark.parametrize(
    ("line", "name", "typ", "enum", "ref"),
    [
        ("price: number", "price", "number", None, None),
        ("user_id: id -> users", "user_id", "id", None, "users"),
        ("status: enum open|done", "status", "enum", ["open", "done"], None),
        ("status: enum (open, done)", "status", "enum", ["open", "done"], None),
        ("- Due Date: date", "due_date", "date", None, None),
        ("in_stock (bool)", "in_stock", "boolean", None, None),
        ("count: int", "count", "integer", None, None),
        ("order_id", "order_id", "id", None, None),
        ("nickname", "nickname", "string", None, None),
        ("note: whatever", "note", "string", None, None),
        ("label: enum", "label", "string", None, None),
    ],
)
def test_compact_lines_parse(
    line: str, name: str, typ: str, enum: list[str] | None, ref: str | None
) -> None:
    attr = parse_line(line)
    assert attr is not None
    assert (attr.name, attr.type, attr.enum, attr.references) == (name, typ, enum, ref)


def test_lines_without_a_name_are_skipped_and_the_first_mention_wins() -> None:
    assert parse_line("") is None and parse_line(": number") is None
    assert parse_line("string") is None  # a bare type is no attribute
    attrs = parse_lines(["price: number", "price: string", "???", "stock: integer"])
    assert [(a.name, a.type) for a in attrs] == [("price", "number"), ("stock", "integer")]


def test_repair_keeps_the_complete_part_of_a_cut_off_answer() -> None:
    cut = '```json\n{"collections": [{"name": "books", "key": "b1", "add": ["price: number", "s'
    fixed = repair(cut)
    assert fixed is not None and fixed.collections[0].name == "books"
    assert fixed.collections[0].add[0] == "price: number"
    assert repair("no json at all") is None and repair('{"collections": []}') is None


def test_repair_trims_an_answer_beyond_the_bounds() -> None:
    many = {"collections": [{"name": f"c{i}", "add": ["x: string"] * 30} for i in range(40)]}
    import json

    fixed = repair(json.dumps(many))
    assert fixed is not None
    CompactDesign.model_validate(fixed.model_dump())  # within the schema's bounds
    assert len(fixed.collections) == 12 and len(fixed.collections[0].add) == 10


def test_the_schema_bounds_every_list_and_string_and_the_cap_scales() -> None:
    schema = CompactDesign.model_json_schema()
    coll = schema["$defs"]["CompactCollection"]["properties"]
    assert schema["properties"]["collections"]["maxItems"] == 12
    assert coll["add"]["maxItems"] == 10 and coll["add"]["items"]["maxLength"] == 64
    assert coll["name"]["maxLength"] == 40
    assert max_tokens_for(1) < max_tokens_for(5) <= max_tokens_for(50) <= 1200


def test_stated_finds_a_name_as_consecutive_words_of_the_docs() -> None:
    tool = ToolSpec(
        name="get_customer",
        description="Get a customer with their membership tier and the prices they paid.",
        parameters={"type": "object", "properties": {"customer_id": {"type": "string"}}},
    )
    words = docs_words([tool], policy="Orders ship within 2 days.")
    assert stated("membership_tier", words) and stated("price", words)
    assert stated("membershipTier", words) and stated("customer_id", words)
    assert not stated("tier_membership", words) and not stated("loyalty_points", words)
    assert not stated("tier_price", words)  # the words are there, but not as one phrase
