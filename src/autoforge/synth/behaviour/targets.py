"""The status a write leaves its record in, read from its description ("starts in X", "sets
status X", "moves ... to X", "becomes X", "closes a `x` stay as `y`"), else from the verb of
its name ("cancel" -> `cancelled`); and a status that depends on how the call leaves the
record ("becomes `X` when ..., otherwise `Y`"), which is none of them (see :mod:`outcomes`).
Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import doc_sentences
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.text import _CONDITION, _RELATIVE, _word

if TYPE_CHECKING:
    from autoforge.tooldocs import ToolSpec


def target_status(
    spec: ToolSpec, coll: str, values: list[str], policy: str, *, create: bool
) -> tuple[str, str] | None:
    """The status a tool leaves its record in, with the sentence saying so: "starts in X",
    "sets status X", "moves ... to X", "becomes X", "creates an X <noun>"."""
    if not values:
        return None
    texts = doc_sentences(spec.description) + doc_sentences(spec.description.split("\n")[0])
    for quoted in (True, False):  # a value written as code ("becomes `x`") first
        found = _said_status(texts, coll, values, create=create, quoted=quoted)
        if found is not None:
            return found
    return _status_by_verb(spec, coll, values, policy, create=create)


def conditional_outcome(s: str, values: list[str]) -> tuple[str, str] | None:
    """``(X, Y)`` of "becomes `X` ... when/if/once ..., otherwise `Y`" (two of ``values``):
    the status a record takes depends on how the call leaves it (see :mod:`outcomes`)."""
    vals = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    if not vals:
        return None
    becomes = r"(?:becomes?|is\s+set\s+to|moves?\s+to|turns?|goes\s+to)"
    m = re.search(
        rf"\b{becomes}\s+`({vals})`[^.;]*?\b(?:when|if|once)\b[^.;]*?\botherwise\s+`({vals})`",
        s,
        re.I,
    )
    return (m.group(1), m.group(2)) if m and m.group(1) != m.group(2) else None


def _said_status(
    texts: list[str], coll: str, values: list[str], *, create: bool, quoted: bool
) -> tuple[str, str] | None:
    nouns = noun_forms(coll)
    nouns_re = "|".join(re.escape(n) for n in nouns)
    texts = [s for s in texts if conditional_outcome(s, values) is None]  # not one status
    for s in texts:
        for v in values:
            w = rf"(?<![\w-])`{re.escape(v)}`(?![\w-])" if quoted else _word(v)
            cues = [
                rf"\b(starts?|started|created|stored|is|are)\s+(in\s+|as\s+)?(status\s+)?{w}",
                rf"\bin status\s+{w}",
                rf"\b(sets?|setting)\s+(the\s+)?`?(status|state)`?\s+(to\s+)?{w}",
                rf"\b(moves?|moving)\b.*\bto\s+{w}",
                rf"\b(becomes?|marks?)\b[\w\s]*?\s{w}",
                rf"\bhas status\s+{w}",
                rf"\b(gets?|receives?|takes?)\s+(the\s+)?(status|state)\s+{w}",
                rf"\bas\s+{w}[.\s]*$",
                # "closes a `checked_in` stay as `checked_out` with ...": what the verb makes it
                rf"\b[a-z]+s\s+(?:an?|the|this)\s+(?:`[\w-]+`\s+)?(?:{nouns_re})\s+as\s+{w}",
                # "Sets the booking `cancelled` with ...": the record, then its new status
                rf"\b(sets?|setting)\s+(the\s+|this\s+)?(?:{nouns_re})\s+(to\s+)?{w}",
            ]
            if len(re.findall(r"->|\u2192", s)) == 1:  # "pending -> active": one move, its end
                cues.append(rf"[\w`-]+`?\s*(?:->|\u2192)\s*{w}")
            if create:
                cues.append(
                    rf"\b(creates?|new)\s+(an?\s+)?{w}\s+({'|'.join(map(re.escape, nouns))})"
                )  # "creates an empty draft (no lines ...)": the status as the noun
                cues.append(rf"\bcreates?\s+(an?\s+)?(\w+\s+)?{w}(?=\s*[(,.;]|\s*$)")
            states = cues[:2] + cues[5:6]  # say what status a record is in, not what is done
            for c in cues:
                m = re.search(c, s, re.I)
                if m is None:
                    continue
                before = s[: m.start()]
                if (
                    not create
                    and c in states
                    and (
                        _CONDITION.search(before)
                        or _RELATIVE.search(before)
                        or re.match(r"`?\s*only\b", s[m.end() :], re.I)
                    )
                ):  # "only in status X", "a unit that is X", "in status X only": a precondition
                    continue  # it leaves
                return v, s
    return None


def _status_by_verb(
    spec: ToolSpec, coll: str, values: list[str], policy: str, *, create: bool
) -> tuple[str, str] | None:
    """The status the tool's verb names ("cancel": cancelled), or for a create the one a
    policy sentence on new records gives."""
    nouns = noun_forms(coll)
    words = spec.name.lower().split("_")
    verb = words[0]
    stem = verb[:-1] if verb.endswith("e") else verb
    # "activate": "active"; "validate": "valid"
    stems = [stem] + ([verb[:-3]] if verb.endswith("ate") and len(verb) >= 7 else [])
    if not create and len(stem) >= 3:
        rest = "_".join(words[1:])
        for v in values:  # "mark_no_show": the name's remainder is the status itself
            if rest and v.lower() == rest:
                return v, ""
        phrasal = _phrasal_status(words, values)
        if phrasal is not None:
            return phrasal, ""
        for v in values:  # "void": the verb is the status's own word
            if v.lower() == verb:
                return v, ""
        for st in stems:
            for v in values:
                if v.lower().startswith(st) and 0 < len(v) - len(st) <= 4:
                    return v, ""
    if not create and len(words) == 2 and words[1] not in nouns:
        noun = _noun_status(words[1], values)  # "record_delivery": ``delivered``
        if noun is not None:
            return noun, ""
    if create:
        for s in doc_sentences(policy):
            low = s.lower()
            if not any(n in low for n in nouns) or not re.search(r"\b(created|new|starts?)\b", low):
                continue
            for v in values:
                start = r"starts?(\s+(life|out|off))?(\s+(in|as))?(\s+an?)?"
                if re.search(rf"\b(created|{start}|status)\s+\**{_word(v)}", s):
                    return v, s
    return None


_PARTICLES = {"in", "out", "up", "off", "down", "over", "back", "away", "on"}


def _phrasal_status(words: list[str], values: list[str]) -> str | None:
    """The status a two-word verb names in its past form ("check_in": ``checked_in``,
    "pick_up": ``picked_up``, "sign_off": ``signed_off``)."""
    if len(words) < 2 or words[1] not in _PARTICLES:
        return None
    verb = words[0]
    forms = {verb + "ed", verb + "d", verb[:-1] + "ied", verb + verb[-1] + "ed"}
    for v in values:
        head, _, tail = v.lower().partition("_")
        if tail == words[1] and head in forms:
            return v
    return None


def _noun_status(noun: str, values: list[str]) -> str | None:
    """The status a name's object noun makes in the past form ("record_delivery":
    ``delivered``, "log_arrival": ``arrived``, "confirm_completion": ``completed``)."""
    stems = {noun} | {noun[: -len(end)] for end in ("y", "ion", "ment", "al", "ance", "ence")
                      if noun.endswith(end) and len(noun) - len(end) >= 4}  # fmt: skip
    forms = {st + end for st in stems for end in ("ed", "d")}
    hits = [v for v in values if v.lower() in forms]
    return hits[0] if len(hits) == 1 else None
