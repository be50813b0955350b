"""Descriptions written in HTML are read as plain text: paragraphs and list items apart,
``<code>`` as backticks, entities decoded; text without HTML is left as it is."""

from __future__ import annotations

import json

from autoforge.env import doc_sentences
from autoforge.tooldocs import parse_text
from autoforge.tooldocs.htmltext import holds_html, html_text

AWS_STYLE = (
    "<p>Updates a queue.</p> <important> <p>Only <code>ACTIVE</code> queues can be updated."
    "</p> </important> <ul> <li> <p>Submit a <a>GetQueue</a> request first</p> </li> <li>"
    "<p>Set the <code>If-Match</code> header &amp; send it</p></li></ul>"
)


def test_paragraphs_and_list_items_become_sentences_and_code_backticks() -> None:
    text = html_text(AWS_STYLE)
    assert "<" not in text and "&amp;" not in text
    assert doc_sentences(text) == [
        "Updates a queue.",
        "Only `ACTIVE` queues can be updated.",
        "Submit a GetQueue request first",
        "Set the `If-Match` header & send it",
    ]


def test_text_without_html_is_untouched() -> None:
    for text in ("Refused when a < b and c > d.", "Only `open` items.\n\n- one\n- two", ""):
        assert not holds_html(text)
        assert html_text(text) == text


def test_the_importer_reads_html_descriptions_of_tools_and_parameters() -> None:
    doc = {
        "swagger": "2.0",
        "info": {"title": "Queues", "version": "1", "description": "<p>Queues.</p>"},
        "paths": {
            "/queues/{QueueId}": {
                "put": {
                    "operationId": "UpdateQueue",
                    "description": AWS_STYLE,
                    "parameters": [
                        {"name": "QueueId", "in": "path", "required": True, "type": "string",
                         "description": "<p>The <code>QueueId</code> to update.</p>"},
                    ],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }  # fmt: skip
    docs = parse_text(json.dumps(doc), filename="queues.json")
    tool = docs.tools[0]
    assert "Only `ACTIVE` queues can be updated." in doc_sentences(tool.description)
    prop = tool.parameters["properties"]["QueueId"]
    assert prop["description"] == "The `QueueId` to update."
    assert docs.description.startswith("Queues")
