"""The Markdown/plain-text importer: rules for common layouts, the LLM for prose."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from autoforge.llm import LLMClient
from autoforge.tooldocs import DocParseError, load_docs
from autoforge.tooldocs.markdown import extract_markdown

DOC = """# Library API

The library keeps books and loans.

## `get_book(book_id)`
Get one book by id.

- `book_id` (string, required): the book id, e.g. B-1.

## borrow_book
Borrow a book for a member. Fails if the book is already on loan.

- `book_id` (string): the book id
- `member_id` (string): who borrows
- `days` (integer, optional): loan length, one of 7, 14 or 21

## Renewing a loan
To renew, call the renewal operation with the loan id; it returns the new due date.

## Rules
Members can hold at most 3 loans.
"""

EXTRACTED = {
    "tools": [
        {
            "name": "renew loan",
            "description": "Renew a loan; returns the new due date.",
            "access": "write",
            "parameters": [{"name": "loan_id", "type": "string", "required": True}],
        }
    ]
}


async def test_rules_then_llm_for_the_prose_section() -> None:
    client = LLMClient.scripted([EXTRACTED])
    docs = await extract_markdown(DOC, "library.md", client)
    assert [t.name for t in docs.tools] == ["get_book", "borrow_book", "renew_loan"]
    borrow = docs.tool("borrow_book")
    assert borrow.required == ["book_id", "member_id"]
    assert borrow.parameters["properties"]["days"] == {
        "type": "integer",
        "description": "loan length, one of 7, 14 or 21",
        "enum": [7, 14, 21],
    }
    assert docs.tool("get_book").access == "read"
    assert docs.tool("renew_loan").access == "write"
    assert docs.policy is not None and "at most 3 loans" in docs.policy
    (request,) = client.requests
    assert request.purpose == "tooldocs.markdown"
    sent = request.messages[-1]["content"]
    assert "Renewing a loan" in sent and "borrow_book" not in sent  # only what rules missed


async def test_without_a_model_the_rules_still_work() -> None:
    docs = await extract_markdown(DOC, "library.md", None)
    assert [t.name for t in docs.tools] == ["get_book", "borrow_book"]


async def test_no_tools_is_a_clear_error() -> None:
    with pytest.raises(DocParseError, match="no tools found"):
        await extract_markdown("# Notes\n\nNothing to see.\n", "notes.md", None)


def test_ingest_registry_picks_markdown_by_suffix(tmp_path: Path) -> None:
    path = tmp_path / "lib.md"
    path.write_text(DOC.split("## Renewing")[0])
    docs = load_docs([path])
    assert [t.name for t in docs.tools] == ["get_book", "borrow_book"]
    assert docs.tool("get_book").source is not None and docs.tool("get_book").source.line == 5


def test_load_docs_uses_the_callers_client_for_the_prose(tmp_path: Path) -> None:
    path = tmp_path / "lib.md"
    path.write_text(DOC)
    made: list[LLMClient] = []

    def factory() -> LLMClient:
        made.append(LLMClient.scripted([EXTRACTED]))
        return made[-1]

    docs = load_docs([path], llm=factory)
    assert [t.name for t in docs.tools] == ["get_book", "borrow_book", "renew_loan"]
    assert len(made) == 1 and made[0].requests[0].purpose == "tooldocs.markdown"


def test_without_a_client_no_model_is_built_behind_the_callers_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import autoforge.llm

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("an LLM client was built from the environment")

    monkeypatch.setattr(autoforge.llm, "get_client", forbidden)
    monkeypatch.setattr(autoforge.llm, "LLMClient", forbidden)
    path = tmp_path / "lib.md"
    path.write_text(DOC)
    docs = load_docs([path])
    assert [t.name for t in docs.tools] == ["get_book", "borrow_book"]
    assert docs.policy is not None and "renewal operation" in docs.policy


_LAYOUTS = """# Library API

Tools for a small public library: members borrow and return books.

## search_catalogue

Search books by title or author.

| parameter | type | required | description |
|---|---|---|---|
| title | string | no | part of the title |
| year | integer | yes | year published |

## renew_loan
Extend a loan by 14 days.

**Parameters**
* `loan_id` *(string)* — required — the loan to renew
* `note` *(string)* — optional — why

## close_ticket
Close a ticket.

Parameters: the ticket number, and optionally a note.
"""


def test_tables_headed_parameter_and_italic_flag_bullets_are_read(tmp_path: Path) -> None:
    """A table whose name column is headed "parameter", and bullets whose type is italic and
    whose flags lead the description, give their parameters; the intro that only speaks of
    returning books is not taken for an unread tool, and a tool whose section mentions
    parameters the rules cannot read is named in a warning."""
    path = tmp_path / "library.md"
    path.write_text(_LAYOUTS, encoding="utf-8")
    with pytest.warns(Warning) as caught:
        docs = load_docs([path])
    tools = {t.name: t for t in docs.tools}
    search = tools["search_catalogue"].parameters
    assert list(search["properties"]) == ["title", "year"]
    assert search["properties"]["year"]["type"] == "integer"
    assert search["required"] == ["year"]
    renew = tools["renew_loan"].parameters
    assert list(renew["properties"]) == ["loan_id", "note"]
    assert renew["required"] == ["loan_id"]
    assert renew["properties"]["loan_id"]["description"] == "the loan to renew"
    said = [str(w.message) for w in caught]
    assert any("'close_ticket' has no parameter" in m for m in said)
    assert not any("Library API" in m for m in said)


_MORE_LAYOUTS = """# Shop API

## get_order

Look up one order.

### Parameters

| name | type | required | description |
|---|---|---|---|
| order_id | string | yes | the order |
| include_items | `boolean` | no | list its items |

## refund_order

Refund an order.

**order_id** (string, required): the order to refund
**reason** (string, optional): why

## add_note
Add a note.

- _customer_id_ (string, required): the customer
- *condition* — string — optional.

## pay_fine
Pay a fine.

1. `loan_id` (string, required): the loan
2. `amount` (number, required): how much
"""


def test_part_headings_bold_lines_numbered_items_and_dash_flags_are_parameters(
    tmp_path: Path,
) -> None:
    """A "### Parameters" sub-heading belongs to the tool above it; bold or code names with
    bracketed flags, numbered items, underscore italics and "— string — optional" flags are
    read as parameters, with the type a table gives in code."""
    path = tmp_path / "shop.md"
    path.write_text(_MORE_LAYOUTS, encoding="utf-8")
    tools = {t.name: t.parameters for t in load_docs([path]).tools}
    assert list(tools) == ["get_order", "refund_order", "add_note", "pay_fine"]
    assert tools["get_order"]["properties"]["include_items"]["type"] == "boolean"
    assert tools["get_order"]["required"] == ["order_id"]
    assert list(tools["refund_order"]["properties"]) == ["order_id", "reason"]
    assert tools["refund_order"]["required"] == ["order_id"]
    assert list(tools["add_note"]["properties"]) == ["customer_id", "condition"]
    assert tools["add_note"]["required"] == ["customer_id"]
    assert tools["pay_fine"]["properties"]["amount"]["type"] == "number"


def test_a_model_reads_the_parameters_the_rules_could_not_and_invents_no_enum(
    tmp_path: Path,
) -> None:
    """A tool the rules read from its heading, whose prose mentions parameters, gets them from
    the model; an enum whose values the text does not state is dropped; a "tool" named like
    one of the parameters is a misread and is dropped too."""
    path = tmp_path / "tickets.md"
    path.write_text("## close_ticket\nClose a ticket.\n\nParameters: the ticket number.\n")
    answer = {"tools": [
        {"name": "close_ticket", "description": "Close a ticket.", "access": "write",
         "parameters": [{"name": "ticket_number", "type": "integer", "required": True,
                         "enum": ["1", "2", "3"]}]},
        {"name": "ticket_number", "description": "x", "parameters": []},
    ]}  # fmt: skip
    docs = load_docs([path], llm=lambda: LLMClient.scripted([answer]))
    (tool,) = docs.tools
    assert tool.name == "close_ticket" and tool.source is not None and tool.source.line == 1
    assert tool.parameters["properties"] == {"ticket_number": {"type": "integer"}}


@pytest.mark.llm
def test_a_real_small_model_reads_parameters_from_prose(
    embedded_small_config: Any, tmp_path: Path
) -> None:
    """The embedded 0.5B reads the parameter a tool's prose names ("the ticket number") where
    the rules found the tool by its heading but no parameter; it invents no enum."""
    path = tmp_path / "tickets.md"
    path.write_text(
        "# Help desk\n\n## get_item\n\nGet an item.\n\n## close_ticket\nClose a ticket.\n\n"
        "Parameters: the ticket number, and optionally a note.\n",
        encoding="utf-8",
    )
    docs = load_docs([path], llm=lambda: LLMClient(embedded_small_config, cache=False))
    params = docs.tool("close_ticket").parameters["properties"]
    assert any("ticket" in name for name in params), params
    assert not any("enum" in schema for schema in params.values())
