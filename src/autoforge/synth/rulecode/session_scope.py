"""Tools that act for the signed-in user: scoped by the session record.

When the docs show a session user (:mod:`autoforge.lexicon.session`), the state holds who is
signed
in, and a read that takes no parameter (``get_user_all_orders()``, ``get_my_profile()``) returns
that user's records only, as the API it describes does for whoever is logged in:

* over the user collection itself: the signed-in user's record (in a one-element list for a
  list tool, the shape the class promises);
* over a collection whose records reference the user collection: the records whose reference
  is the signed-in user (a lookup: the first such record, or a ``ToolError``);
* nobody signed in (no session record) is a ``ToolError``, never every user's records.

A write on the user collection that takes no key of it (``update_user_email(email)`` where
the docs show a session user) acts on the signed-in user's record: :func:`session_key_lines`
gives the draft its record key (:func:`autoforge.synth.rulecode.templates.render_skeleton`).

A write on a collection whose records belong to a user (one attribute references the user
collection) that takes no parameter naming a user acts for the signed-in user too
(:func:`~autoforge.lexicon.session.acting_for`), as the API does for whoever holds the session:

* a create (``add_address(street, city)``) attaches the new record to that user
  (:func:`create_owner_lines`);
* a write on one record by its key (``cancel_order(order_id)``) refuses a record of another
  user (:func:`owned_record_lines`), as it refuses when nobody is signed in.

Any other tool (a read with parameters, a collection the user does not own) is left to the
other templates. The code reads only the state, so replay and state hashing are unchanged.
"""

from __future__ import annotations

from autoforge.env import CollectionSchema, StateSchema
from autoforge.lexicon import SESSION, SESSION_RECORD, acting_for, owner_attribute, session_owner
from autoforge.synth.rulecode.classify import Classification
from autoforge.synth.rulecode.headers import head, signature
from autoforge.tooldocs import ToolSpec, singular


def session_read(
    spec: ToolSpec, c: Classification, coll: CollectionSchema | None, schema: StateSchema | None
) -> str | None:
    """The code of an argument-less read scoped to the signed-in user, or None when the tool
    is not one (see the module docstring)."""
    owner = session_owner(schema) if schema is not None else None
    if owner is None or coll is None or spec.param_names or c.cls not in ("lookup", "list"):
        return None
    user, attr = owner
    by = owner_attribute(coll, user)
    if by is None:
        return None
    top, _ = head(spec)
    noun = singular(coll.name).replace("_", " ")
    lines = [*top, *_me_lines(user, attr)]
    if coll.name == user:
        lines += [
            f"    record = state.get({user!r}, {{}}).get(str(me))",
            "    if record is None:",
            f'        raise ToolError(f"{noun} not found: {{me}}")',
            "    return [record]" if c.cls == "list" else "    return record",
        ]
        return "\n".join(lines)
    lines += [
        f"    mine = [record for record in state.get({coll.name!r}, {{}}).values()",
        f"            if str(record.get({by!r})) == str(me)]",
    ]
    if c.cls == "list":
        return "\n".join([*lines, "    return mine"])
    lines += [
        "    if not mine:",
        f'        raise ToolError(f"no {noun} of {{me}}")',
        "    return mine[0]",
    ]
    return "\n".join(lines)


#: The name a draft binds the signed-in user's key to (no documented parameter has it: the
#: classification's key parameter points at it).
SESSION_PARAM = "<signed-in user>"


def _me_lines(user: str, attr: str) -> list[str]:
    """``me = <the signed-in user's key>``, refusing when nobody is signed in."""
    return [
        f"    me = (state.get({SESSION!r}, {{}}).get({SESSION_RECORD!r}) or {{}}).get({attr!r})",
        "    if me is None:",
        f'        raise ToolError("no {singular(user)} is signed in")',
    ]


def session_key_lines(
    c: Classification, coll: CollectionSchema | None, schema: StateSchema | None
) -> list[str] | None:
    """For a write on the user collection without its key parameter, when the schema says
    who is signed in: the lines binding ``me`` to that user's key (the draft then loads the
    record by it, as by a key parameter); else None."""
    owner = session_owner(schema) if schema is not None else None
    if owner is None or coll is None or c.key_param is not None or coll.name != owner[0]:
        return None
    if c.cls not in ("update", "transition"):
        return None
    return _me_lines(*owner)


def _acting(
    spec: ToolSpec, coll: CollectionSchema | None, schema: StateSchema | None
) -> tuple[str, str, str] | None:
    """:func:`~autoforge.lexicon.session.acting_for`, unless a parameter's Python name is
    ``me``
    (the name the generated code binds the signed-in user's key to)."""
    if schema is None or "me" in signature(spec)[1].values():
        return None
    return acting_for(spec, coll, schema)


def owned_record_lines(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema | None,
    schema: StateSchema | None,
    key_expr: str,
) -> list[str]:
    """For a write on one record (loaded as ``record`` by ``key_expr``) that acts for the
    signed-in user (:func:`~autoforge.lexicon.session.acting_for`): the lines refusing when
    nobody is signed in or the record belongs to another user; else no lines."""
    writes = c.cls in ("update", "transition", "delete")
    found = _acting(spec, coll, schema) if writes else None
    if found is None or coll is None:
        return []
    user, attr, by = found
    noun = singular(coll.name).replace("_", " ")
    return [
        *_me_lines(user, attr),
        f"    if str(record.get({by!r})) != str(me):",
        f'        raise ToolError(f"{noun} {{{key_expr}}} does not belong to the signed-in '
        f'{singular(user)}")',
    ]


def create_owner_lines(
    spec: ToolSpec, c: Classification, coll: CollectionSchema | None, schema: StateSchema | None
) -> tuple[list[str], list[str]]:
    """For a create that acts for the signed-in user
    (:func:`~autoforge.lexicon.session.acting_for`): ``(lines binding me, refusing when nobody
    is
    signed in; lines attaching the new ``record`` to me)``; two empty lists for any other
    tool."""
    found = _acting(spec, coll, schema) if c.cls == "create" else None
    if found is None:
        return [], []
    user, attr, by = found
    return _me_lines(user, attr), [f"    record[{by!r}] = me"]


__all__ = [
    "SESSION_PARAM",
    "create_owner_lines",
    "owned_record_lines",
    "session_key_lines",
    "session_read",
]
