"""Which tool a policy section speaks of when its heading does not give the tool's name.

Policies are written for people: rules sit under "### Booking", "### Cancelling", "### Parts".
A heading belongs to a write tool when a word of the heading shares its stem with the verb of
the tool's name or of its summary ("Booking" and a summary "Book a bike"; "Cancelling" and
``cancel_visit``), the nouns of the data's collections left out of the tool's words, and no
other write tool matches; failing that, when a one-word heading is a word of exactly one
write tool's name ("Parts" and ``add_part_to_ticket``). A first-level heading is the
document's title and belongs to no tool. The stems drop an "-ing" and a silent "e" and keep four
letters, so "Taking" and "Take" agree. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re

from autoforge.synth.behaviour.data import noun_forms

_HEADING = re.compile(r"^\s{0,3}(?P<level>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_SMALL = frozenset(
    {"a", "an", "the", "and", "or", "of", "in", "on", "to", "for", "up", "out", "no", "by"}
    | {"with", "at", "from", "into"}
)


def _stem(word: str) -> str:
    w = word.lower()
    w = w.removesuffix("ing") if len(w) > 5 else w
    return w.removesuffix("e")[:4]


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", text.lower()) if w not in _SMALL and len(w) > 2]


def heading_owners(
    policy: str, writes: list[tuple[str, str]], collections: list[str]
) -> dict[str, str]:
    """``{heading title: tool name}`` for the headings that belong to one of the write tools
    ``writes`` (``(name, summary)`` pairs)."""
    nouns = {n for c in collections for f in noun_forms(c) for n in f.split()}
    verbs: dict[str, set[str]] = {}
    names: dict[str, set[str]] = {}
    for name, summary in writes:
        own = [w for w in _words(name.replace("_", " ")) if w not in nouns]
        lead = [w for w in _words(summary)[:1] if w not in nouns]
        verbs[name] = {_stem(w) for w in own + lead}
        names[name] = {w.rstrip("s") for w in _words(name.replace("_", " "))}
    out: dict[str, str] = {}
    for line in policy.splitlines():
        head = _HEADING.match(line)
        if head is None or len(head.group("level")) == 1:  # a document's title covers all
            continue
        title = head.group("title")
        words = _words(title)
        by_verb = [t for t, v in verbs.items() if v & {_stem(w) for w in words}]
        one = {words[0].rstrip("s")} if len(words) == 1 else set()
        by_noun = [t for t, n in names.items() if n & one]
        chosen = by_verb if by_verb else by_noun
        if len(chosen) == 1:
            out[title] = chosen[0]
    return out
