"""Who is signed in: the session user the docs show, and the one state record that says so.

Some APIs act for whoever is signed in: a read without parameters that speaks of the user
(VitaBench's ``get_user_all_orders()``, "Get all order information for user"), a parameter
described as the current/logged-in user. Both the environment and the tasks need to know it:

* synthesis gives the state a singleton ``session`` collection (key ``session_id``, one record
  ``"session"``) whose one attribute references the user collection
  (:func:`session_collection`), and the argument-less reads of the user's records filter by
  it, as the writes that name no user act on that user's records only (:func:`acting_for`,
  :func:`owner_attribute`) -- the environment stays pure state, so replay and state hashing
  need nothing new;
* task generation puts the signed-in user into that record of S0 (:func:`sign_in`) and hands
  the same key to the agent as episode context (``Task.session``).

The rule (:func:`session_user`) reads the docs only; :func:`user_collection` says which
collection identifies the user. This module is their one owner: both stages import it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from autoforge.env import Attribute, CollectionSchema, StateSchema
from autoforge.lexicon.toolscope import collection_of_key, tool_access
from autoforge.tooldocs import ToolSpec, singular, tokens

#: The singleton collection, its key and the key of its one record.
SESSION = "session"
SESSION_KEY = "session_id"
SESSION_RECORD = "session"

_USER_ATTRS = ("email", "phone", "username", "user_name", "login")
#: Nouns of a person who holds an account: break a tie between equally referenced collections
#: (orders reference both their store and their user once).
_PERSON_NOUNS = ("user", "customer", "client", "member", "account", "person", "patient", "guest")
#: Name words of an argument-less tool that acts for the signed-in user (``get_my_orders``).
_SELF_WORDS = {"me", "my", "mine", "self", "current", "account", "profile"}
#: A parameter description that names the signed-in user ("ID of the logged-in user").
_SESSION_TEXT = re.compile(
    r"\b(current(ly)?|logged[- ]?in|signed[- ]?in|authenticated|session)\b", re.IGNORECASE
)

_USER_CACHE: dict[int, tuple[StateSchema, str | None]] = {}


def user_collection(schema: StateSchema) -> str | None:
    """The collection that identifies the user (:func:`find_user_collection`), memoised per
    schema object: for a finished schema, not one still being designed."""
    cached = _USER_CACHE.get(id(schema))
    if cached is not None and cached[0] is schema:
        return cached[1]
    found = find_user_collection(schema)
    if len(_USER_CACHE) > 256:
        _USER_CACHE.clear()
    _USER_CACHE[id(schema)] = (schema, found)
    return found


def find_user_collection(schema: StateSchema) -> str | None:
    """The collection that identifies the user: referenced by most others, with a login field.

    Collections with an email/phone/username attribute win; among those (or all, if none has
    one) the one referenced by the most attributes of other collections. A collection that is
    neither (no login field, not named as a person or an account) is the user's only as a
    bare account the others sit in: nothing but its key, referenced from two or more other
    collections (a subscription). None otherwise: an API of streams or queries has records
    but no user among them, and a request saying "remove my" for the user's stream is none.
    """
    refs = {c.name: 0 for c in schema.collections}
    for coll in schema.collections:
        for attr in coll.attributes:
            if attr.references in refs and attr.references != coll.name:
                refs[attr.references] += 1

    def login(name: str) -> bool:
        coll = schema.collection(name)
        return coll is not None and any(coll.attribute(a) for a in _USER_ATTRS)

    def person(name: str) -> bool:
        return singular(name.lower().split("_")[-1]) in _PERSON_NOUNS

    def account(name: str) -> bool:
        coll = schema.collection(name)
        bare = coll is not None and all(a.name == coll.primary_key for a in coll.attributes)
        holders = {c.name for c in schema.collections for a in c.attributes
                   if a.references == name and c.name != name}  # fmt: skip
        return bare and len(holders) >= 2

    ranked = sorted(refs, key=lambda n: (login(n), refs[n], person(n)), reverse=True)
    ranked = [n for n in ranked if login(n) or person(n) or account(n)]
    if not ranked or (refs[ranked[0]] == 0 and not login(ranked[0])):
        return None
    return ranked[0]


def self_word_at(tool: ToolSpec, noun: str) -> int | None:
    """Where in its name words a read without parameters says it acts for the signed-in user
    (the user's ``noun`` or a self word: ``get_user_all_orders``, ``get_my_loans``), when its
    description speaks of the user too; else None."""
    if tool_access(tool) != "read" or tool.parameters.get("properties"):
        return None
    words = tokens(tool.name)
    said = set(re.findall(r"[a-z]+", (tool.description or "").lower()))
    if not said & ({noun} | _SELF_WORDS):
        return None
    return next((i for i, w in enumerate(words) if w == noun or w in _SELF_WORDS), None)


def session_user(tools: Sequence[ToolSpec], schema: StateSchema, user: str | None) -> str | None:
    """Why the docs show a session user, or None: the first read tool without parameters
    whose name holds the user's noun or a self word (``me``, ``current``...) and whose
    description speaks of the user, else the first parameter named as the user's key and
    described as the current/logged-in user."""
    coll = schema.collection(user) if user else None
    if coll is None:
        return None
    noun = singular(coll.name).lower()
    for tool in tools:
        if self_word_at(tool, noun) is not None:
            return f"{tool.name}() acts for the signed-in {noun}"
    for tool in tools:
        prop = tool.parameters.get("properties", {}).get(coll.primary_key)
        if isinstance(prop, dict) and _SESSION_TEXT.search(str(prop.get("description", ""))):
            return f"{tool.name}'s {coll.primary_key} is described as {prop['description']!r}"
    return None


def session_collection(user: CollectionSchema, reason: str) -> CollectionSchema:
    """The singleton collection saying who is signed in: one attribute, named as the user
    collection's key, referencing it."""
    return CollectionSchema(
        name=SESSION,
        primary_key=SESSION_KEY,
        description=f"who is signed in (one record {SESSION_RECORD!r}): {reason}",
        attributes=[
            Attribute(name=SESSION_KEY, type="id"),
            Attribute(name=user.primary_key, type="id", references=user.name,
                      description=f"the signed-in {singular(user.name)}"),
        ],
    )  # fmt: skip


def add_session(schema: StateSchema, tools: Sequence[ToolSpec]) -> str | None:
    """Give ``schema`` the session collection when the docs show a session user (in place);
    the reason, or None (no session user, or a collection of that name already there)."""
    if schema.collection(SESSION) is not None:
        return None
    user = user_collection(schema)
    reason = session_user(tools, schema, user)
    ucoll = schema.collection(user) if user else None
    if reason is None or ucoll is None:
        return None
    schema.collections.append(session_collection(ucoll, reason))
    return reason


def session_owner(schema: StateSchema) -> tuple[str, str] | None:
    """``(user collection, attribute of the session record holding its key)`` when the
    schema has the session collection, else None."""
    coll = schema.collection(SESSION)
    if coll is None or coll.primary_key != SESSION_KEY:
        return None
    ref = next((a for a in coll.attributes if a.references and a.name != SESSION_KEY), None)
    return (ref.references, ref.name) if ref is not None and ref.references else None


def owner_attribute(coll: CollectionSchema, user: str) -> str | None:
    """The attribute by which ``coll``'s records belong to a user: the key itself for the
    user collection, else the one attribute referencing it (None: none, or several)."""
    if coll.name == user:
        return coll.primary_key
    refs = [a.name for a in coll.attributes if a.references == user and a.type != "array"]
    return refs[0] if len(refs) == 1 else None


def acting_for(
    spec: ToolSpec, coll: CollectionSchema | None, schema: StateSchema
) -> tuple[str, str, str] | None:
    """``(user collection, session attribute, owner attribute of coll)`` when ``spec`` acts on
    records of ``coll`` for the signed-in user: the schema says who is signed in, ``coll`` is
    another collection whose records belong to a user (:func:`owner_attribute`), and no
    parameter names a user (the owner attribute, a key of the user collection, a login field of
    it such as ``email``). Else None: the tool says whose records it means, or they belong to
    nobody."""
    owner = session_owner(schema)
    if owner is None or coll is None or coll.name == owner[0]:
        return None
    user, attr = owner
    by = owner_attribute(coll, user)
    ucoll = schema.collection(user)
    if by is None or ucoll is None:
        return None
    for param in spec.param_names:
        ref = collection_of_key(param, schema)
        login = param in _USER_ATTRS and ucoll.attribute(param) is not None
        if param == by or login or (ref is not None and ref.name == user):
            return None
    return user, attr, by


def signed_in(state: Mapping[str, Any], schema: StateSchema) -> str | None:
    """The key of the signed-in user in ``state``, or None (no session, nobody signed in)."""
    owner = session_owner(schema)
    sessions = state.get(SESSION) if owner is not None else None
    record = sessions.get(SESSION_RECORD) if isinstance(sessions, Mapping) else None
    key = record.get(owner[1]) if owner is not None and isinstance(record, Mapping) else None
    return str(key) if key is not None else None


def sign_in(state: dict[str, Any], schema: StateSchema, key: str | None) -> None:
    """Make ``key`` (a record of the user collection) the signed-in user of ``state``, in
    place; nothing when the schema has no session collection."""
    owner = session_owner(schema)
    if owner is not None:
        record = {SESSION_KEY: SESSION_RECORD, owner[1]: key}
        state[SESSION] = {SESSION_RECORD: record}


__all__ = [
    "SESSION",
    "SESSION_KEY",
    "SESSION_RECORD",
    "acting_for",
    "add_session",
    "find_user_collection",
    "owner_attribute",
    "self_word_at",
    "session_collection",
    "session_owner",
    "session_user",
    "sign_in",
    "signed_in",
    "user_collection",
]
