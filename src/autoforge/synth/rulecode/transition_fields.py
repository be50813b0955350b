"""What a transition writes besides its parameters: the status it sets (from the enum, the
docs' words or the verb's participle) and where a parameter with no attribute of its own is
stored. Used by the code templates and the rule checks of completed drafts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from autoforge.env import CollectionSchema
from autoforge.lexicon import status_attribute
from autoforge.synth.rulecode.conventions import GENERIC, Conventions
from autoforge.tooldocs import ToolSpec, plural, snake, stated_statuses, tokens

_PARTICIPLE = {
    "cancel": "cancelled",
    "approve": "approved",
    "reject": "rejected",
    "complete": "completed",
    "close": "closed",
    "archive": "archived",
    "activate": "active",
    "deactivate": "inactive",
    "confirm": "confirmed",
    "return": "returned",
    "exchange": "exchanged",
    "refund": "refunded",
    "ship": "shipped",
    "deliver": "delivered",
    "suspend": "suspended",
    "resume": "active",
    "renew": "renewed",
    "borrow": "borrowed",
    "lend": "lent",
    "pay": "paid",
    "checkout": "checked_out",
    "process": "processed",
    "accept": "accepted",
    "decline": "declined",
    "issue": "issued",
    "revoke": "revoked",
    "lock": "locked",
    "unlock": "unlocked",
    "enable": "enabled",
    "disable": "disabled",
    "start": "started",
    "stop": "stopped",
    "finish": "finished",
    "send": "sent",
    "redeem": "redeemed",
    "apply": "applied",
    "restore": "restored",
}


_QUOTED = "['\"`]([^'\"`]{2,30})['\"`]"
_STATUS_TEXT = (
    re.compile(r"status (?:will be |is )?(?:changed |set |updated )?to " + _QUOTED, re.I),
    re.compile(r"\b(?:to|as) " + _QUOTED, re.I),
    re.compile(r"\bmark(?:s|ed)? (?:\w+ ){0,3}as (\w+)", re.I),
)


def target_status(
    verb: str,
    coll: CollectionSchema,
    description: str = "",
    policy: str = "",
    conv: Conventions = GENERIC,
) -> tuple[str, str] | None:
    """The status attribute and value a transition sets.

    An enum value of the status attribute that starts like the verb wins (``cancel`` ->
    ``cancelled``); then a status the docs state (``status will be changed to 'return
    requested'``, ``mark ... as done``) -- one naming the verb first, from the description, then
    the policy; then the verb's participle. A collection without any status attribute gets
    none: nothing in the docs or data names the field. The ``tau`` profile
    (``status_on_statusless``) writes ``status`` = the participle there.
    """
    status = status_attribute(coll)
    if status is None:
        if conv.status_on_statusless and verb in _PARTICIPLE:
            return "status", _PARTICIPLE[verb]
        return None
    value = _PARTICIPLE.get(verb, f"{verb}ed")
    for option in status.enum or []:
        if option.lower().startswith(verb[:4]) or option.lower() == value:
            return status.name, option
    stated = [
        m.group(1).strip()
        for text in (description, policy)
        for pattern in _STATUS_TEXT
        for m in pattern.finditer(text)
    ]
    naming = [x for x in stated if verb[:5] and verb[:5] in x.lower()]
    from_description = [
        m.group(1).strip() for pattern in _STATUS_TEXT for m in pattern.finditer(description)
    ]
    if naming:
        return status.name, naming[0]
    if from_description:
        return status.name, from_description[0]
    return status.name, value


def stored_name(verb: str, param: str, conv: Conventions = GENERIC) -> str:
    """Where a transition stores a parameter with no attribute: under its documented name;
    with the ``tau`` profile ``<verb>_<plural noun>`` (``return`` + ``item_ids`` ->
    ``return_items``, ``cancel`` + ``reason`` -> ``cancel_reason``)."""
    if not conv.verb_plural_names:
        return param
    toks = tokens(param)
    if len(toks) >= 2 and toks[-1] == "ids":
        return f"{verb}_{'_'.join([*toks[:-2], plural(toks[-2])])}"
    return f"{verb}_{param}"


#: Words that make a parameter the new value of an attribute: ``new_date`` is ``date``.
_MODIFIERS = frozenset({"new", "updated", "changed", "revised", "modified"})


def modified_field(coll: CollectionSchema, param: str) -> str | None:
    """The attribute a parameter replaces: ``new_date``, ``date_new`` or ``updated_date`` of a
    record that has a ``date`` -> ``date`` (the record's own key never). Why: a change of
    date is the record's date changed; stored beside it under ``new_date`` the record kept
    two dates and the old one went on saying when it takes place. Names compare in snake case
    (``NewReplicationFactor`` -> ``ReplicationFactor``)."""
    toks = tokens(param)
    if len(toks) < 2:
        return None
    if toks[0] in _MODIFIERS:
        base = "_".join(toks[1:])
    elif toks[-1] in _MODIFIERS:
        base = "_".join(toks[:-1])
    else:
        return None
    attr = next((a for a in coll.attributes if snake(a.name) == base), None)  # camelCase too
    if attr is None or base == snake(param) or attr.name == coll.primary_key:
        return None
    return attr.name


def existing_field(spec: ToolSpec, coll: CollectionSchema, param: str) -> str | None:
    """An attribute the data already has for a parameter without a field of its own: one named
    ``<words of the tool's name>_<param>`` (``cancel_order(reason)`` -> ``cancel_reason`` when
    orders have that attribute; ``update_shipping_address(address)`` -> ``shipping_address``;
    an id list ``item_ids`` also matches ``<words>_items``)."""
    toks = tokens(param)
    bases = [param]
    if len(toks) >= 2 and toks[-1] == "ids":
        bases.append("_".join([*toks[:-2], plural(toks[-2])]))
    stems = {t[:4] for t in tokens(spec.name)}
    for attr in coll.attributes:
        for base in bases:
            if attr.name == base or not attr.name.endswith("_" + base):
                continue
            prefix = tokens(attr.name[: -len(base) - 1])
            if prefix and all(t[:4] in stems for t in prefix):
                return attr.name
    return None


def starting_status(
    coll: CollectionSchema, texts: Iterable[str], targets: Iterable[str]
) -> tuple[str, str] | None:
    """The status attribute and value a new record of ``coll`` starts with: a status the docs
    (``texts``) state that negates one a transition sets (``targets``): "order status changes
    to unpaid" where paying sets ``paid`` -> ``unpaid``, the state no payment has ended yet.
    None without such a statement: a status the docs do not name is not guessed."""
    status = status_attribute(coll)
    if status is None or status.enum:
        return None
    ends = {t.lower().replace(" ", "_") for t in targets}
    for text in texts:
        for word in stated_statuses(text):
            low = word.lower().replace("-", "_")
            if any(low in (f"un{end}", f"not_{end}") for end in ends):
                return status.name, word
    return None
