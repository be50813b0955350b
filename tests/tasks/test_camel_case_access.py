"""Without an access hint, the verb of a camel-case tool name decides read or write."""

from __future__ import annotations

from autoforge.lexicon import tool_access
from autoforge.tooldocs.spec import ToolSpec


def test_camel_case_verb_without_access_hint() -> None:
    assert tool_access(ToolSpec(name="DescribeBudgets")) == "read"
    assert tool_access(ToolSpec(name="getNamedQuery")) == "read"
    assert tool_access(ToolSpec(name="CreateBudget")) == "write"
    assert tool_access(ToolSpec(name="list_orders")) == "read"
    assert tool_access(ToolSpec(name="ListOrders", access="write")) == "write"  # hint wins
