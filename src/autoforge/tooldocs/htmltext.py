"""Descriptions written in HTML, read as the plain text the rest of the pipeline expects.

Real API documents often write their prose in HTML ("<p>Only <code>Deployed</code>
distributions can be updated.</p> <ul> <li> <p>Submit ...</p></li>"). Everything that reads a
description splits it into sentences at paragraph breaks, list items and full stops, and
reads names in backticks; HTML hides all of these, so one "sentence" ran over a whole list and
the words inside tags were read as words. Here paragraphs, headings and table rows become
blank-line breaks, list items "- " lines, ``<br>`` a line break, ``<code>`` backticks; other
tags are dropped and entities decoded (the standard library's parser, which tolerates the
unclosed and unknown tags real documents hold). Text without an HTML element is returned as
it is, so Markdown and plain prose ("a < b") are never touched.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = {
    "p", "div", "ul", "ol", "dl", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6",
    "pre", "blockquote", "section", "important", "note", "hr",
}  # fmt: skip
_CODE = {"code", "tt", "kbd", "samp", "var"}
_KNOWN = _BLOCKS | _CODE | {"li", "dt", "dd", "br", "a", "b", "i", "em", "strong", "span", "td"}
_ELEMENT = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)(?:\s[^<>]*)?/?>")


def holds_html(text: str) -> bool:
    """Whether ``text`` holds at least one element of HTML's common prose tags."""
    return any(m.group(1).lower() in _KNOWN for m in _ELEMENT.finditer(text))


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:
            self.parts.append("\n\n")
        elif tag in ("li", "dt", "dd"):
            self.parts.append("\n- ")
        elif tag == "br":
            self.parts.append("\n")
        elif tag in _CODE:
            self.code += 1
            if self.code == 1:
                self.parts.append("`")

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCKS or tag in ("li", "dt", "dd"):
            self.parts.append("\n\n" if tag in _BLOCKS else "\n")
        elif tag in _CODE and self.code:
            self.code -= 1
            if self.code == 0:
                self.parts.append("`")

    def handle_data(self, data: str) -> None:
        self.parts.append(" ".join(data.split()) if self.code else data)


def html_text(text: str) -> str:
    """``text`` as plain text when it holds HTML (see the module), else ``text`` itself."""
    if not holds_html(text):
        return text
    parser = _Text()
    parser.feed(text)
    parser.close()
    flat = "".join(parser.parts)
    flat = re.sub(r"[ \t]+", " ", flat)
    flat = re.sub(r" *\n *", "\n", flat)
    flat = re.sub(r"\n(?:- *\n)+", "\n", flat)  # a list item with nothing in it
    return re.sub(r"\n{3,}", "\n\n", flat).strip()
