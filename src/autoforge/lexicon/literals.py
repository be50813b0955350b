"""Search a text for any of several literal strings, as the regex ``a|b|...`` of them would.

Why not that regex: each task's request has its own set of phrases to look for, so every
task compiled a new alternation (about 150 us, more than the searches it served) and pushed
other patterns out of ``re``'s cache.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Found:
    """One match, read as a regex match is (``group()``, ``start()``, ``end()``)."""

    text: str
    at: int

    def group(self) -> str:
        return self.text

    def start(self) -> int:
        return self.at

    def end(self) -> int:
        return self.at + len(self.text)


class Literals:
    """``finditer`` of the regex ``re.escape(a)|re.escape(b)|...``: matches left to right,
    without overlap, at each place the first option listed that matches there."""

    def __init__(self, options: list[str]) -> None:
        self.options = list(options)
        # an empty option matches everywhere, with the regex's own rules for empty matches
        self._regex = re.compile("|".join(map(re.escape, options))) if "" in options else None

    def finditer(self, text: str, pos: int = 0) -> Iterator[Found]:
        """The matches in ``text`` from ``pos`` on."""
        if self._regex is not None:
            for match in self._regex.finditer(text, pos):
                yield Found(match.group(), match.start())
            return
        while True:
            best: Found | None = None
            for option in self.options:
                at = text.find(option, pos)
                if at >= 0 and (best is None or at < best.at):
                    best = Found(option, at)
            if best is None:
                return
            yield best
            pos = best.end()


__all__ = ["Found", "Literals"]
