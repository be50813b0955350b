"""The Markdown/plain-text importer: rules for common layouts, the LLM for prose."""

from __future__ import annotations

from pathlib import Path

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
