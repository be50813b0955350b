"""The identifier splitters of :mod:`autoforge.tooldocs.naming` that every stage builds on."""

from __future__ import annotations

from autoforge.tooldocs.naming import break_camel, snake_words, to_snake, tokens


def test_break_camel_marks_boundaries_and_keeps_case() -> None:
    assert break_camel("getHotelOrder") == "get_Hotel_Order"
    assert break_camel("getHotelOrder", " ") == "get Hotel Order"
    assert break_camel("HTTPServer") == "HTTPServer"  # no lower-case letter before an upper one


def test_break_camel_after_digit_is_optional() -> None:
    assert break_camel("get2Order") == "get2_Order"
    assert break_camel("get2Order", after_digit=False) == "get2Order"
    assert break_camel("getOrder", after_digit=False) == "get_Order"


def test_to_snake_keeps_other_characters() -> None:
    assert to_snake("hotelName") == "hotel_name"
    assert to_snake("full-name tag") == "full_name_tag"
    assert to_snake("a.bC") == "a.b_c"  # punctuation stays, unlike tokens()
    assert tokens("a.bC") == ["a", "b", "c"]


def test_snake_words_keeps_the_leading_word_in_place() -> None:
    assert snake_words("DescribeBudgets") == ["describe", "budgets"]
    assert snake_words("update-shippingAddress") == ["update", "shipping", "address"]
    assert snake_words("_get") == ["", "get"]
    assert snake_words("a__b") == ["a", "", "b"]


def test_the_one_singular() -> None:
    import re
    from pathlib import Path

    from autoforge.lexicon import singular as from_lexicon
    from autoforge.tooldocs import singular

    words = {
        "orders": "order", "categories": "category", "addresses": "address", "boxes": "box",
        "branches": "branch", "statuses": "status", "bonuses": "bonus", "cases": "case",
        "causes": "cause", "purchases": "purchase", "bus": "bus", "Orders": "order",
        "class": "class",
    }  # fmt: skip
    assert {w: singular(w) for w in words} == words
    assert from_lexicon is singular
    src = Path(__file__).resolve().parents[2] / "src"
    defined = [p for p in src.rglob("*.py") if re.search(r"^def singular\(", p.read_text(), re.M)]
    assert [p.name for p in defined] == ["naming.py"]
