"""The name helpers synthesis uses; their owner is :mod:`autoforge.tooldocs.naming`."""

from __future__ import annotations

from autoforge.tooldocs import (
    EMAIL_LIKE,
    ID_SUFFIXES,
    NAME_LIKE,
    PHONE_LIKE,
    id_base,
    identifier,
    is_entity_param,
    is_id_like,
    plural,
    singular,
    snake,
    tokens,
)

__all__ = [
    "EMAIL_LIKE",
    "ID_SUFFIXES",
    "NAME_LIKE",
    "PHONE_LIKE",
    "id_base",
    "identifier",
    "is_entity_param",
    "is_id_like",
    "plural",
    "singular",
    "snake",
    "tokens",
]
