"""Who the simulated user is: the identifying attributes of the user record a task is about.

A customer knows their own email and name even when the request does not mention them. Easy
cancel tasks ("cancel order ORD-3") gave the simulated user no email, while the bookstore
policy makes the agent authenticate by email first, so no agent could succeed. The identity is
found from the records in play (the gold calls' arguments): a user key itself, or a record that
references the user collection (an order's ``customer_id``). It goes to the user-known facts
(``Task.user_identity``), never into the request text.

A task is about one user: a request that reads another user's key off a record and then acts
on "my account" would be unsolvable as written; :func:`several_users` finds such call lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from autoforge.env import StateSchema
from autoforge.lexicon import entity_of
from autoforge.tasks.graph.merge import user_collection
from autoforge.tasks.model import GoldCall

IDENTITY_ATTRS = (
    "name", "full_name", "first_name", "last_name", "email", "username", "user_name", "login",
)  # fmt: skip


def _keyed(value: Any, name: str = "") -> Iterator[tuple[str, Any]]:
    """Every ``(field name, scalar value)`` in call arguments, nested objects included."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _keyed(item, str(key))
    elif isinstance(value, list):
        for item in value:
            yield from _keyed(item, name)
    elif isinstance(value, str | int) and not isinstance(value, bool) and name:
        yield name, value


def _user_keys(
    schema: StateSchema, state: Mapping[str, Any], calls: Iterable[GoldCall], user: str
) -> list[str]:
    """The distinct user keys the calls touch: directly, or via a referencing record."""
    users = state.get(user) or {}
    found: dict[str, None] = {}
    for call in calls:
        for name, value in _keyed(call.arguments):
            coll = entity_of(name, None, schema)
            if coll is None:
                continue
            if coll == user and str(value) in users:
                found[str(value)] = None
                continue
            record = (state.get(coll) or {}).get(str(value))
            spec = schema.collection(coll)
            if not isinstance(record, dict) or spec is None:
                continue
            for attr in spec.attributes:
                ref = record.get(attr.name)
                if attr.references == user and isinstance(ref, str) and ref in users:
                    found[ref] = None
    return list(found)


def user_identity(
    schema: StateSchema, state: Mapping[str, Any], calls: Iterable[GoldCall]
) -> dict[str, Any]:
    """``{"email": ..., "name": ...}`` of the one user record the calls are about, else ``{}``.

    Empty when the schema has no user collection, or the calls touch no user or several
    (then who the user is would be a guess).
    """
    user = user_collection(schema)
    if user is None:
        return {}
    keys = _user_keys(schema, state, calls, user)
    if len(keys) != 1:
        return {}
    record = state[user][keys[0]]
    return {a: record[a] for a in IDENTITY_ATTRS if record.get(a) not in (None, "", [], {})}


def several_users(schema: StateSchema, calls: Iterable[GoldCall]) -> bool:
    """Whether the calls pass more than one distinct key of the user collection (a user id
    read off another user's record and used as if it were the requester's own)."""
    user = user_collection(schema)
    if user is None:
        return False
    keys = {str(value) for call in calls for name, value in _keyed(call.arguments)
            if entity_of(name, None, schema) == user}  # fmt: skip
    return len(keys) > 1
