"""Markdown without a model: a section that looks like a tool but did not become one is named."""

from __future__ import annotations

import warnings
from pathlib import Path

from autoforge.tooldocs import DocWarning, load_docs

DOC = """# Shop

## get_item
Look up an item.
- `item_id` (string, required): the item

## Ordering
Call order_item with the item id and a quantity; it returns the order.

## Opening hours
We are open on weekdays.
"""


def test_a_tool_like_section_the_rules_cannot_read_is_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "shop.md"
    path.write_text(DOC, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DocWarning)
        docs = load_docs([path])
    assert [t.name for t in docs.tools] == ["get_item"]
    messages = [str(w.message) for w in caught if issubclass(w.category, DocWarning)]
    assert len(messages) == 1, messages  # the opening hours are policy, not a lost tool
    assert "section 'Ordering'" in messages[0] and "did not become a tool" in messages[0]
    assert "shop.md:7" in messages[0] and "--llm-model" in messages[0]
