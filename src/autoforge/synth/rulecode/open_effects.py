"""Which effects and rules a tool's docs state, and which of them a draft still leaves open.

:func:`effect_sentences` picks the doc sentences that state an effect or a rule the code must
implement; :func:`open_clauses` tells whether a sentence still needs code once the draft's own
effects and the guards are counted and clauses about nothing the state holds are set aside;
:func:`effect_todos` writes what is left as the TODO lines of a skeleton
(:func:`autoforge.synth.rulecode.templates.render_skeleton`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from autoforge.env import StateSchema
from autoforge.tooldocs import tokens

_CLAUSE = re.compile(r";\s*|,?\s+and\s+(?=(?:the|its|their|a|an)\b)", re.IGNORECASE)


def schema_stems(schema: StateSchema) -> set[str]:
    """4-letter stems of every name the state has: collections, attributes, entry keys."""
    names = [c.name for c in schema.collections]
    for coll in schema.collections:
        for attr in coll.attributes:
            names.append(attr.name)
            if ":" in attr.description and "keys" in attr.description:
                names += [k.strip() for k in attr.description.split(":", 1)[1].split(",")]
    return {t[:4] for name in names for t in tokens(name) if len(t) >= 3}


def unmodelled(clause: str, schema: StateSchema) -> bool:
    """Whether a clause names nothing the state holds ("the payment is refunded to the original
    payment method" where no collection or attribute is about payments or refunds): no code
    can carry it out, so it is no TODO."""
    words = re.findall(r"[a-z]{4,}", clause.lower())
    stems = schema_stems(schema)
    return bool(words) and not any(w[:4] in stems for w in words)


def open_clauses(
    sentence: str,
    done: Sequence[str],
    covered: Callable[[str], bool] | None,
    schema: StateSchema | None,
) -> bool:
    """Whether some clause of a doc sentence is still to be implemented: not carried out by an
    effect of the draft (``done``), not enforced by a guard (``covered``), and about something
    the state holds (:func:`unmodelled`)."""
    if covered is not None and covered(sentence):
        return False
    for clause in (c.strip() for c in _CLAUSE.split(sentence)):
        if not clause or any(d and d.lower() in clause.lower() for d in done):
            continue
        if covered is not None and covered(clause):
            continue
        if schema is not None and unmodelled(clause, schema):
            continue
        return True
    return False


_EFFECT = re.compile(
    r"\b(refund\w*|balance|deduct\w*|charg\w*|price difference|added|subtract\w*|increase\w*|"
    r"decrease\w*|stock|append\w*|recorded|becomes?|set to|changed to|total|amount|only if|"
    r"must|cannot|can only|fails? if)\b",
    re.IGNORECASE,
)
_CONFIRMED = re.compile(
    r"^(if the user confirms|after (the )?user confirmation|once confirmed)[,;:]?\s*", re.I
)
_NOT_EFFECT = re.compile(r"\b(agent|explain|email|transfer|ask)\b", re.IGNORECASE)


def effect_sentences(text: str, limit: int = 5) -> list[str]:
    """Sentences of the docs that state an effect or a rule the code must implement.

    ``"The refund will be added to the user's gift card balance immediately if the payment was
    made using a gift card"`` becomes a TODO line of the skeleton: a small model completes a
    list of stated requirements far more reliably than a bare "apply the other effects".
    """
    body = re.sub(r"^\s*#.*$", "", text.replace("**", ""), flags=re.MULTILINE)
    paras: list[str] = []
    for para in re.split(r"\n\s*\n", body):
        if paras and not paras[-1].rstrip().endswith((".", "!", "?", ":")):
            paras[-1] += " " + para  # a sentence broken by a blank line
        else:
            paras.append(para)
    sentences = [
        sentence
        for para in paras
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z'\"])", re.sub(r"\s+", " ", para))
    ]
    out: list[str] = []
    for sentence in sentences:
        # the agent confirmed with the user before calling: that part is not for the code
        sentence = _CONFIRMED.sub("", sentence.strip(" -#"))
        sentence = sentence[:1].upper() + sentence[1:]
        if not _EFFECT.search(sentence) or _NOT_EFFECT.search(sentence):
            continue
        short = sentence if len(sentence) <= 220 else sentence[:217] + "..."
        if short not in out:
            out.append(short)
        if len(out) >= limit:
            break
    return out


def effect_todos(
    text: str,
    done: list[str],
    covered: Callable[[str], bool] | None,
    schema: StateSchema | None,
) -> list[str]:
    """TODO lines for the effects ``text`` states that the draft leaves open (not ``done``,
    not ``covered`` by the guards)."""
    effects = [e for e in effect_sentences(text) if open_clauses(e, done, covered, schema)]
    if not effects:
        return []
    return [
        "    # TODO: apply the other effects the docs state (checks, amounts, ...):",
        *(f"    #   - {e}" for e in effects),
    ]
