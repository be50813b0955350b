"""The rules an environment carries (``rules.json``): one model, :class:`DocRule`, each with the
sentence of the docs, the policy or a parameter schema that states it.

The reading of those sentences is the lexicon's (:mod:`autoforge.lexicon.rules`: status,
range, enum and once-only rules). Synthesis writes the rules into the tools as guards and
records them here; task generation reads them to choose records a call may act on and requests
the policy refuses. An environment directory without ``rules.json`` (written by hand, like the
bundled bookstore) has no recorded rules; readers then extract them from its spec with the same
extractor.
"""

from __future__ import annotations

import math
from typing import Any, Final, Literal

from pydantic import BaseModel, Field

RuleKind = Literal["status", "range", "enum", "unique"]


#: Version of the ``rules.json`` artifact (:class:`RuleSet`); a reader refuses other versions.
RULES_VERSION: Final = 1


class DocRule(BaseModel):
    """One precondition and the sentence that states it."""

    tool: str
    kind: RuleKind
    param: str
    collection: str | None = None
    attribute: str | None = None
    allowed: list[Any] = []
    forbidden: list[Any] = []
    low: float | None = None
    high: float | None = None
    fields: list[str] = []
    sentence: str
    source: Literal["description", "policy", "parameter schema"]

    def describe(self) -> str:
        """The rule in words (for reports and error messages)."""
        if self.kind == "status":
            which = (
                f"one of {', '.join(map(str, self.allowed))}"
                if self.allowed
                else f"not {', '.join(map(str, self.forbidden))}"
            )
            return f"{self.collection}.{self.attribute} of {self.param} must be {which}"
        if self.kind == "unique":
            return f"one {self.collection} record per {' + '.join(self.fields)}"
        if self.kind == "range":
            return _range_text(self.param, self.low, self.high)
        return f"{self.param} must be one of {', '.join(map(str, self.allowed))}"


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def _range_text(param: str, low: float | None, high: float | None) -> str:
    """``x must be from 1 to 5`` / ``at least 0`` / ``at most 9``: no infinite bound written."""
    if _finite(low) and _finite(high):
        return f"{param} must be from {low:g} to {high:g}"
    if _finite(low):
        return f"{param} must be at least {low:g}"
    return f"{param} must be at most {high:g}"


class RuleSet(BaseModel):
    """The rules of an environment, as synthesis extracted them (``rules.json``).

    ``origin``: ``synthesis`` (recorded when the tools were written, the rules their guards
    enforce) or ``extracted`` (read from the spec at load time: no artifact was there).
    """

    version: Literal[1] = RULES_VERSION
    origin: Literal["synthesis", "extracted"] = "synthesis"
    rules: list[DocRule] = Field(default_factory=list)

    def for_tool(self, tool: str) -> list[DocRule]:
        """The rules of one tool, in the order they were stated."""
        return [r for r in self.rules if r.tool == tool]
