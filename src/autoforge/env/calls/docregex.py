"""A document's regular expressions (a schema's ``pattern``, ``patternProperties``), run in the
host without catastrophic backtracking.

Argument validation runs in the host process, and Python's ``re`` backtracks: ``^(a+)+$``
against 27 characters holds the GIL for seconds and freezes ``/health`` of ``autoforge serve``.
A document is untrusted input, so its patterns run on RE2 (google-re2), whose time is linear in
the text. RE2 also follows JSON Schema's own dialect (ECMA-262) more closely than ``re``:
``\\d`` is ASCII and ``$`` is the end of the text.

RE2 lacks look-around and backreferences. A pattern that needs them runs on the ``regex``
module, which releases the GIL while it matches (the event loop keeps answering) and stops at
``timeout_s``; a match that runs out of time counts as "not checked", and the validator refuses
the value with a message that says so, instead of waiting.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

import re2
import regex

from autoforge.errors import AutoforgeError

#: The most a fallback (non-RE2) match may run before the value is refused.
FALLBACK_TIMEOUT_S = 0.1

Engine = Literal["re2", "regex"]


class PatternTimeout(AutoforgeError):
    """A fallback match did not finish within its time limit (the validators turn it into an
    "invalid arguments" message; it never reaches a caller)."""


def _re2_options() -> re2.Options:
    options = re2.Options()
    options.log_errors = False  # an unsupported pattern is expected: it goes to the fallback
    return options


_OPTIONS = _re2_options()


class DocRegex:
    """One document pattern, compiled once: ``search(text)`` in linear time (RE2) or, for
    syntax RE2 lacks, with a time limit and the GIL released (``regex``)."""

    __slots__ = ("_fallback", "_re2", "_set", "source", "timeout_s")

    def __init__(self, source: str, *, timeout_s: float = FALLBACK_TIMEOUT_S) -> None:
        re.compile(source)  # the syntax check documents have always had (raises re.error)
        self.source = source
        self.timeout_s = timeout_s
        self._re2: re2._Regexp | None = None
        self._set: re2.Set | None = None
        self._fallback: regex.Pattern[str] | None = None
        try:
            self._re2 = re2.compile(source, _OPTIONS)
            self._set = _match_set(source)
        except re2.error:
            try:
                self._fallback = regex.compile(source)
            except regex.error as exc:
                raise re.error(f"{exc} (pattern {source!r})") from None

    @property
    def engine(self) -> Engine:
        """Which engine runs this pattern."""
        return "re2" if self._re2 is not None else "regex"

    def search(self, text: str) -> bool:
        """Whether the pattern matches anywhere in ``text``; :class:`PatternTimeout` when the
        fallback engine ran out of time."""
        if self._re2 is not None:
            if self._set is not None and self._set.Match(text):
                return True
            # no match (the error path), or no set: the full engine, which also answers when
            # the set's DFA ran out of memory (a set then reports "no match")
            return self._re2.search(text) is not None
        assert self._fallback is not None
        try:
            return self._fallback.search(text, timeout=self.timeout_s) is not None
        except TimeoutError:
            raise PatternTimeout(
                f"the pattern {self.source!r} could not be checked within "
                f"{self.timeout_s:g} s (it backtracks too much on this value)"
            ) from None


def _match_set(source: str) -> re2.Set | None:
    """A one-pattern RE2 set: a yes/no answer in ~2 us, where ``search`` builds a match object
    (~18 us); None when RE2 will not take the pattern into a set."""
    found = re2.Set.SearchSet(_OPTIONS)
    try:
        found.Add(source)
        found.Compile()
    except re2.error:
        return None
    return found


@lru_cache(maxsize=1024)
def doc_regex(source: str) -> DocRegex:
    """The compiled :class:`DocRegex` of ``source`` (cached: schemas repeat their patterns)."""
    return DocRegex(source)
