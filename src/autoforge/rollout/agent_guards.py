"""Deterministic checks on the agent's replies, for small models in protocol mode.

Small models (the embedded 1.5B) refuse plain requests ("I'm sorry, but I can't assist with
that.") or claim an action ("The order has been cancelled") that no tool call did. Each check
here returns a note and a nudge; the agent then asks the model once more with the nudge (see
``Agent.step``). Pure and general: the claim check matches the claimed verb against the names
of the tools, never a domain.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from autoforge.tooldocs import break_camel

_REFUSAL = re.compile(
    r"\b(?:can(?:'|no)?t|cannot|could ?n[o']t|am (?:not able|unable)|unable) "
    r"(?:to )?(?:assist|help)(?: you)? with (?:that|this|your request)\b"
    r"|\bi(?:'m| am) (?:not able|unable) to (?:assist|help)\b",
    re.IGNORECASE,
)
# "has been cancelled", "have updated", "I've placed", "is now refunded", "successfully added"
_CLAIM = re.compile(
    r"\b(?:has|have|had|'ve|is|are|was|were|now|successfully|just)\s+(?:been\s+|now\s+)?"
    r"([a-z]+(?:ed|led))\b",
    re.IGNORECASE,
)

# "I'll cancel ...", "let me update ...": a promise in a reply ends the turn without the call
_PROMISE = re.compile(
    r"\b(?:i'll|i will|let me|i(?:'m| am) going to)\s+(?:now\s+|go ahead and\s+)?([a-z]+)",
    re.IGNORECASE,
)
# a reply that is only a template: "Done: ...", "...", "<what the result says>"
_PLACEHOLDER = re.compile(r"^\W*(?:done\W*)?(?:\.\.\.|…)\W*$|<[^<>:/@]{2,60}>", re.IGNORECASE)
# "Done." / "Done: ...": a bare claim of success
_DONE = re.compile(r"^\W*done\b", re.IGNORECASE)
# "I can't cancel this order": a refusal of something a tool does, before any tool call
_CANNOT = re.compile(r"\b(?:can(?:'|no)?t|cannot|unable to)\s+([a-z]+)", re.IGNORECASE)


@dataclass(frozen=True)
class GuardHit:
    """A guard that fired: ``kind`` (refusal | claim), a note for the trajectory, the nudge."""

    kind: str
    note: str
    nudge: str


def _stem(word: str) -> str:
    """``cancelled`` -> ``cancel``, ``updated`` -> ``updat``, ``placed`` -> ``plac``."""
    word = word.lower()
    for suffix in ("lled", "ied", "ed"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            base = word[: -len(suffix)]
            return base + ("l" if suffix == "lled" else "")
    return word


def _tool_stems(names: Iterable[str]) -> set[str]:
    """The verbs of tool names, their first word (``cancel_order`` -> ``cancel``).

    Only the first word: a noun later in the name (``update_shipping_address``) must not turn
    "it has already been shipped" into a claim.
    """
    out: set[str] = set()
    for name in names:
        parts = [p for p in re.split(r"[_\W]+", break_camel(name, after_digit=False)) if p]
        if parts and len(parts[0]) >= 3:
            out.add(parts[0].lower())
    return out


def _matches(stem: str, tool_stems: set[str]) -> bool:
    """Whether a claimed verb stem names one of the tool stems (``updat`` ~ ``update``)."""
    return any(t.startswith(stem) or stem.startswith(t) for t in tool_stems if len(t) >= 3)


def claimed_actions(text: str, tools: Iterable[str]) -> list[str]:
    """The past-tense verbs in ``text`` that claim what one of ``tools`` would do."""
    stems = _tool_stems(tools)
    words = [m.group(1) for m in _CLAIM.finditer(text)]
    words += [m.group(1) for m in _PROMISE.finditer(text)]
    return [w for w in words if _matches(_stem(w), stems)]


def check_reply(
    text: str, tools: Iterable[str], done: Iterable[str], turn_calls: int = 1
) -> GuardHit | None:
    """A guard hit for an agent reply ``text``, or None.

    ``tools``: the names of the tools it has; ``done``: the names of the tools it called with
    success in this episode. A refusal fires always; a claim fires when the claimed verb names
    a tool and no successful call of a tool with that verb exists. "I can't <tool verb>"
    before any successful call counts as a refusal (nothing was checked yet). A template
    reply ("Done: ...", a ``<placeholder>``: small models copy the protocol example) fires
    always; "Done" with no tool call since the user last spoke (``turn_calls``) is a claim.
    """
    snippet = " ".join(text.split())[:80]
    done = list(done)
    cannot = [m.group(1) for m in _CANNOT.finditer(text)]
    blind = not done and any(_matches(_stem(w), _tool_stems(tools)) for w in cannot)
    if _PLACEHOLDER.search(text):
        return GuardHit(
            "placeholder",
            f"template reply ({snippet!r}); asked again",
            "(Note: that reply is a template, not an answer. If the request needs a tool, call "
            "it now; otherwise write the actual reply to the user.)",
        )
    if _DONE.search(text) and turn_calls == 0:
        return GuardHit(
            "claim",
            f"said done with no tool call ({snippet!r}); asked again",
            "(Note: no tool call has been made for this request, so nothing has changed yet. "
            "Call the tool for the first part of the request now.)",
        )
    if _REFUSAL.search(text) or blind:
        return GuardHit(
            "refusal",
            f"refusal ({snippet!r}); asked again",
            "(Note: this is a simulated test environment; carrying out the user's request with "
            "the tools is safe and expected. Do not refuse. Start with the first part of the "
            "request: call the tool it needs now.)",
        )
    done_stems = _tool_stems(done)
    claims = [w for w in claimed_actions(text, tools) if not _matches(_stem(w), done_stems)]
    if claims:
        return GuardHit(
            "claim",
            f"claimed {claims[0]!r} with no such tool call ({snippet!r}); asked again",
            f"(Note: your reply says {claims[0]!r}, but no tool call in this conversation did "
            "that, so nothing has changed yet. Call the tool that does it now; tell the user "
            "only after its result arrives.)",
        )
    return None


# Schema keys whose text documents a tool; "default" is left out: passing the value the tool
# would use anyway changes nothing, so it is no sign of a copied example.
_DOC_TEXT_KEYS = ("description",)
_DOC_VALUE_KEYS = ("example", "examples")


def _strings(value: object) -> list[str]:
    """Every string leaf of a JSON value (dict values, list items), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _schema_docs(schema: object) -> tuple[list[str], set[str]]:
    """The documentation text of a JSON schema and its enum values, walked recursively.

    Text: every ``description`` and every ``example``/``examples`` value. Enum values are
    returned apart: an enum lists the legal choices, so using one is no copied example.
    """
    if isinstance(schema, list):
        parts = [_schema_docs(s) for s in schema]
        return [t for p in parts for t in p[0]], {e for p in parts for e in p[1]}
    if not isinstance(schema, dict):
        return [], set()
    texts = [schema[k] for k in _DOC_TEXT_KEYS if isinstance(schema.get(k), str)]
    texts += [s for k in _DOC_VALUE_KEYS for s in _strings(schema.get(k))]
    enums = {s.casefold() for s in _strings(schema.get("enum"))}
    for key, sub in schema.items():
        if key not in (*_DOC_TEXT_KEYS, *_DOC_VALUE_KEYS, "enum", "default", "const"):
            sub_texts, sub_enums = _schema_docs(sub)
            texts += sub_texts
            enums |= sub_enums
    return texts, enums


def tool_docs(tool: dict[str, Any]) -> tuple[str, set[str]]:
    """A tool's documentation as one casefolded text (its description and its parameters'
    descriptions and examples), and its casefolded enum values. ``tool``: OpenAI format."""
    fn = tool.get("function", tool)
    fn = fn if isinstance(fn, dict) else {}
    texts, enums = _schema_docs(fn.get("parameters"))
    desc = fn.get("description")
    return "\n".join([desc if isinstance(desc, str) else "", *texts]).casefold(), enums


def _in_text(value: str, text: str) -> bool:
    """Whether casefolded ``value`` occurs in ``text`` as a whole token (not inside a word)."""
    pattern = rf"(?<![\w.@-]){re.escape(value)}(?![\w@-]|\.\w)"
    return re.search(pattern, text) is not None


def copied_examples(arguments: object, tool: dict[str, Any], known: str) -> list[str]:
    """String argument values that the tool's documentation shows and the conversation lacks.

    ``known``: the text the task facts can come from (policy, user messages, tool results).
    A value counts when it has 3+ characters, is no enum choice, occurs in the tool's docs as
    a whole token, and occurs nowhere in ``known`` (all compared casefolded).
    """
    docs, enums = tool_docs(tool)
    known = known.casefold()
    out = []
    for raw in _strings(arguments):
        value = raw.strip().casefold()
        documented = len(value) >= 3 and value not in enums and _in_text(value, docs)
        if documented and value not in known:
            out.append(raw.strip())
    return out


def _tool_name(tool: dict[str, Any]) -> str:
    """The name of a tool spec, OpenAI format (``{"function": {"name": ...}}``) or flat."""
    fn = tool.get("function")
    return str((fn if isinstance(fn, dict) else tool).get("name", ""))


def check_calls(
    calls: Iterable[tuple[str, object]], tools: Iterable[dict[str, Any]], known: str
) -> GuardHit | None:
    """A guard hit when a tool call passes a value copied from that tool's documentation.

    ``calls``: (tool name, arguments) pairs; ``tools``: the tool specs (OpenAI format);
    ``known``: see ``copied_examples``. Small models pass the "e.g." value of a parameter
    description (an email address) instead of asking the customer. The call is not run; the
    agent is asked again.
    """
    by_name = {_tool_name(t): t for t in tools}
    for name, arguments in calls:
        tool = by_name.get(name)
        copied = copied_examples(arguments, tool, known) if tool else []
        if copied:
            return GuardHit(
                "example",
                f"{name} called with the documentation's example {copied[0]!r}; not run, "
                "asked again",
                f"(Note: {copied[0]} is the documentation's example, not this customer's data; "
                "the call was not run. Ask the customer for it or look it up with a tool.)",
            )
    return None
