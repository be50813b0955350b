"""The lexicon: the rule-based meaning of tool names and doc text, read without any model.

What a tool acts on (its class, collection, key and references: :mod:`.toolscope`), who is signed
in (:mod:`.session`), the rules sentences state (:mod:`.rules`, the one extractor of the
environment's :class:`~autoforge.env.DocRule`), the data flow between tools (which fields a tool
returns and needs: :mod:`.dataflow`), entities and attributes read from the docs' own schemas
(:mod:`.schema_entities`), which list parameters page or sort rather than filter
(:mod:`.paging`), where a documented reply puts the records (:mod:`.envelope`), and how a
person says a tool or a field (:mod:`.phrasing`, :mod:`.literals`), the day a data value
names (:mod:`.days`), counts written as words (:mod:`.numbers`), and the shape of a
collection's keys, from the data or the docs (:mod:`.idshape`). The word functions underneath
(``tokens``, ``singular``, ``plural``) are :mod:`autoforge.tooldocs`'s.

It imports only :mod:`autoforge.tooldocs` and the environment's artifact models, never the LLM
seam; the environment itself never imports it. Synthesis and task generation read docs through
it, so a word heuristic has one home.
"""

from __future__ import annotations

__all__ = [
    "API_VERBS",
    "CREATE_VERBS",
    "EVERYDAY",
    "FILLER",
    "NAME_FIELDS",
    "NUMBER_WORDS",
    "QUOTED_STOP",
    "READ_CLASSES",
    "SCOPE_NOTE",
    "SESSION",
    "SESSION_RECORD",
    "SPOKEN_VERBS",
    "TERMINAL_VERBS",
    "VERBS",
    "Derivation",
    "Envelope",
    "IdShape",
    "KeyRules",
    "Leaf",
    "Literals",
    "PagingRole",
    "ToolClass",
    "ToolScope",
    "acting_for",
    "add_session",
    "api_prefix",
    "assumed_returns",
    "collection_of_key",
    "count_of",
    "derive_state",
    "dir_rules",
    "doc_field_names",
    "docs_statuses",
    "documented",
    "documented_in",
    "entity_of",
    "enumerate_words",
    "envelope_of",
    "environment_rules",
    "extract_rules",
    "field_said",
    "fields_under",
    "find_user_collection",
    "fitting",
    "from_examples",
    "from_keys",
    "is_identifier_name",
    "is_scope",
    "iso_day",
    "key_param",
    "key_rules",
    "label",
    "listed_noun",
    "name_tokens",
    "name_verb",
    "names_record",
    "new_key_param",
    "noun_field",
    "number_words",
    "output_leaves",
    "owner_attribute",
    "paging_params",
    "paging_role",
    "param_leaves",
    "plain",
    "qualified_for",
    "quoted",
    "record_collection",
    "record_noun",
    "record_words",
    "refer_back",
    "request_on",
    "request_params",
    "rules_of",
    "same_as",
    "schema_leaves",
    "scope_params",
    "self_word_at",
    "sentences",
    "session_owner",
    "session_user",
    "sign_in",
    "signed_in",
    "singular",
    "split_path",
    "status_attribute",
    "status_rank",
    "status_values",
    "target_collection",
    "tool_access",
    "tool_scope",
    "unwrap",
    "updates",
    "user_collection",
    "verb_first",
    "whole_record",
    "with_preposition",
    "without_prefix",
    "words",
]

# --- the lazy face: each name is also in __all__ and in the TYPE_CHECKING imports;
# tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.lexicon.dataflow import NAME_FIELDS as NAME_FIELDS
    from autoforge.lexicon.dataflow import Leaf as Leaf
    from autoforge.lexicon.dataflow import assumed_returns as assumed_returns
    from autoforge.lexicon.dataflow import entity_of as entity_of
    from autoforge.lexicon.dataflow import is_identifier_name as is_identifier_name
    from autoforge.lexicon.dataflow import name_tokens as name_tokens
    from autoforge.lexicon.dataflow import names_record as names_record
    from autoforge.lexicon.dataflow import output_leaves as output_leaves
    from autoforge.lexicon.dataflow import param_leaves as param_leaves
    from autoforge.lexicon.dataflow import qualified_for as qualified_for
    from autoforge.lexicon.dataflow import record_collection as record_collection
    from autoforge.lexicon.dataflow import schema_leaves as schema_leaves
    from autoforge.lexicon.dataflow import singular as singular
    from autoforge.lexicon.dataflow import split_path as split_path
    from autoforge.lexicon.days import iso_day as iso_day
    from autoforge.lexicon.envelope import Envelope as Envelope
    from autoforge.lexicon.envelope import envelope_of as envelope_of
    from autoforge.lexicon.envelope import unwrap as unwrap
    from autoforge.lexicon.idshape import IdShape as IdShape
    from autoforge.lexicon.idshape import KeyRules as KeyRules
    from autoforge.lexicon.idshape import documented as documented
    from autoforge.lexicon.idshape import documented_in as documented_in
    from autoforge.lexicon.idshape import fitting as fitting
    from autoforge.lexicon.idshape import from_examples as from_examples
    from autoforge.lexicon.idshape import from_keys as from_keys
    from autoforge.lexicon.idshape import key_rules as key_rules
    from autoforge.lexicon.idshape import plain as plain
    from autoforge.lexicon.literals import Literals as Literals
    from autoforge.lexicon.numbers import NUMBER_WORDS as NUMBER_WORDS
    from autoforge.lexicon.numbers import count_of as count_of
    from autoforge.lexicon.numbers import number_words as number_words
    from autoforge.lexicon.paging import PagingRole as PagingRole
    from autoforge.lexicon.paging import paging_params as paging_params
    from autoforge.lexicon.paging import paging_role as paging_role
    from autoforge.lexicon.paging import request_params as request_params
    from autoforge.lexicon.phrasing import API_VERBS as API_VERBS
    from autoforge.lexicon.phrasing import CREATE_VERBS as CREATE_VERBS
    from autoforge.lexicon.phrasing import EVERYDAY as EVERYDAY
    from autoforge.lexicon.phrasing import QUOTED_STOP as QUOTED_STOP
    from autoforge.lexicon.phrasing import SPOKEN_VERBS as SPOKEN_VERBS
    from autoforge.lexicon.phrasing import api_prefix as api_prefix
    from autoforge.lexicon.phrasing import enumerate_words as enumerate_words
    from autoforge.lexicon.phrasing import field_said as field_said
    from autoforge.lexicon.phrasing import label as label
    from autoforge.lexicon.phrasing import listed_noun as listed_noun
    from autoforge.lexicon.phrasing import quoted as quoted
    from autoforge.lexicon.phrasing import record_noun as record_noun
    from autoforge.lexicon.phrasing import refer_back as refer_back
    from autoforge.lexicon.phrasing import request_on as request_on
    from autoforge.lexicon.phrasing import same_as as same_as
    from autoforge.lexicon.phrasing import updates as updates
    from autoforge.lexicon.phrasing import verb_first as verb_first
    from autoforge.lexicon.phrasing import with_preposition as with_preposition
    from autoforge.lexicon.phrasing import without_prefix as without_prefix
    from autoforge.lexicon.phrasing import words as words
    from autoforge.lexicon.rules import dir_rules as dir_rules
    from autoforge.lexicon.rules import docs_statuses as docs_statuses
    from autoforge.lexicon.rules import environment_rules as environment_rules
    from autoforge.lexicon.rules import extract_rules as extract_rules
    from autoforge.lexicon.rules import record_words as record_words
    from autoforge.lexicon.rules import rules_of as rules_of
    from autoforge.lexicon.rules import sentences as sentences
    from autoforge.lexicon.rules import status_attribute as status_attribute
    from autoforge.lexicon.rules import status_rank as status_rank
    from autoforge.lexicon.rules import status_values as status_values
    from autoforge.lexicon.schema_entities import Derivation as Derivation
    from autoforge.lexicon.schema_entities import derive_state as derive_state
    from autoforge.lexicon.schema_entities import doc_field_names as doc_field_names
    from autoforge.lexicon.schema_entities import fields_under as fields_under
    from autoforge.lexicon.session import SESSION as SESSION
    from autoforge.lexicon.session import SESSION_RECORD as SESSION_RECORD
    from autoforge.lexicon.session import acting_for as acting_for
    from autoforge.lexicon.session import add_session as add_session
    from autoforge.lexicon.session import find_user_collection as find_user_collection
    from autoforge.lexicon.session import owner_attribute as owner_attribute
    from autoforge.lexicon.session import self_word_at as self_word_at
    from autoforge.lexicon.session import session_owner as session_owner
    from autoforge.lexicon.session import session_user as session_user
    from autoforge.lexicon.session import sign_in as sign_in
    from autoforge.lexicon.session import signed_in as signed_in
    from autoforge.lexicon.session import user_collection as user_collection
    from autoforge.lexicon.toolscope import FILLER as FILLER
    from autoforge.lexicon.toolscope import READ_CLASSES as READ_CLASSES
    from autoforge.lexicon.toolscope import SCOPE_NOTE as SCOPE_NOTE
    from autoforge.lexicon.toolscope import TERMINAL_VERBS as TERMINAL_VERBS
    from autoforge.lexicon.toolscope import VERBS as VERBS
    from autoforge.lexicon.toolscope import ToolClass as ToolClass
    from autoforge.lexicon.toolscope import ToolScope as ToolScope
    from autoforge.lexicon.toolscope import collection_of_key as collection_of_key
    from autoforge.lexicon.toolscope import is_scope as is_scope
    from autoforge.lexicon.toolscope import key_param as key_param
    from autoforge.lexicon.toolscope import name_verb as name_verb
    from autoforge.lexicon.toolscope import new_key_param as new_key_param
    from autoforge.lexicon.toolscope import noun_field as noun_field
    from autoforge.lexicon.toolscope import scope_params as scope_params
    from autoforge.lexicon.toolscope import target_collection as target_collection
    from autoforge.lexicon.toolscope import tool_access as tool_access
    from autoforge.lexicon.toolscope import tool_scope as tool_scope
    from autoforge.lexicon.toolscope import whole_record as whole_record

_LAZY: dict[str, str] = {
    "iso_day": "autoforge.lexicon.days",
    "NUMBER_WORDS": "autoforge.lexicon.numbers",
    "count_of": "autoforge.lexicon.numbers",
    "number_words": "autoforge.lexicon.numbers",
    "IdShape": "autoforge.lexicon.idshape",
    "KeyRules": "autoforge.lexicon.idshape",
    "documented": "autoforge.lexicon.idshape",
    "documented_in": "autoforge.lexicon.idshape",
    "fitting": "autoforge.lexicon.idshape",
    "from_examples": "autoforge.lexicon.idshape",
    "from_keys": "autoforge.lexicon.idshape",
    "key_rules": "autoforge.lexicon.idshape",
    "plain": "autoforge.lexicon.idshape",
    "API_VERBS": "autoforge.lexicon.phrasing",
    "CREATE_VERBS": "autoforge.lexicon.phrasing",
    "Derivation": "autoforge.lexicon.schema_entities",
    "EVERYDAY": "autoforge.lexicon.phrasing",
    "Envelope": "autoforge.lexicon.envelope",
    "envelope_of": "autoforge.lexicon.envelope",
    "unwrap": "autoforge.lexicon.envelope",
    "FILLER": "autoforge.lexicon.toolscope",
    "Leaf": "autoforge.lexicon.dataflow",
    "Literals": "autoforge.lexicon.literals",
    "NAME_FIELDS": "autoforge.lexicon.dataflow",
    "QUOTED_STOP": "autoforge.lexicon.phrasing",
    "READ_CLASSES": "autoforge.lexicon.toolscope",
    "SESSION": "autoforge.lexicon.session",
    "SESSION_RECORD": "autoforge.lexicon.session",
    "SPOKEN_VERBS": "autoforge.lexicon.phrasing",
    "ToolClass": "autoforge.lexicon.toolscope",
    "ToolScope": "autoforge.lexicon.toolscope",
    "SCOPE_NOTE": "autoforge.lexicon.toolscope",
    "TERMINAL_VERBS": "autoforge.lexicon.toolscope",
    "is_scope": "autoforge.lexicon.toolscope",
    "new_key_param": "autoforge.lexicon.toolscope",
    "whole_record": "autoforge.lexicon.toolscope",
    "VERBS": "autoforge.lexicon.toolscope",
    "acting_for": "autoforge.lexicon.session",
    "add_session": "autoforge.lexicon.session",
    "api_prefix": "autoforge.lexicon.phrasing",
    "without_prefix": "autoforge.lexicon.phrasing",
    "assumed_returns": "autoforge.lexicon.dataflow",
    "collection_of_key": "autoforge.lexicon.toolscope",
    "noun_field": "autoforge.lexicon.toolscope",
    "scope_params": "autoforge.lexicon.toolscope",
    "derive_state": "autoforge.lexicon.schema_entities",
    "dir_rules": "autoforge.lexicon.rules",
    "doc_field_names": "autoforge.lexicon.schema_entities",
    "docs_statuses": "autoforge.lexicon.rules",
    "entity_of": "autoforge.lexicon.dataflow",
    "enumerate_words": "autoforge.lexicon.phrasing",
    "environment_rules": "autoforge.lexicon.rules",
    "extract_rules": "autoforge.lexicon.rules",
    "field_said": "autoforge.lexicon.phrasing",
    "fields_under": "autoforge.lexicon.schema_entities",
    "find_user_collection": "autoforge.lexicon.session",
    "is_identifier_name": "autoforge.lexicon.dataflow",
    "key_param": "autoforge.lexicon.toolscope",
    "label": "autoforge.lexicon.phrasing",
    "listed_noun": "autoforge.lexicon.phrasing",
    "name_tokens": "autoforge.lexicon.dataflow",
    "name_verb": "autoforge.lexicon.toolscope",
    "names_record": "autoforge.lexicon.dataflow",
    "output_leaves": "autoforge.lexicon.dataflow",
    "owner_attribute": "autoforge.lexicon.session",
    "PagingRole": "autoforge.lexicon.paging",
    "paging_params": "autoforge.lexicon.paging",
    "paging_role": "autoforge.lexicon.paging",
    "request_params": "autoforge.lexicon.paging",
    "param_leaves": "autoforge.lexicon.dataflow",
    "qualified_for": "autoforge.lexicon.dataflow",
    "quoted": "autoforge.lexicon.phrasing",
    "record_collection": "autoforge.lexicon.dataflow",
    "record_noun": "autoforge.lexicon.phrasing",
    "record_words": "autoforge.lexicon.rules",
    "refer_back": "autoforge.lexicon.phrasing",
    "request_on": "autoforge.lexicon.phrasing",
    "rules_of": "autoforge.lexicon.rules",
    "same_as": "autoforge.lexicon.phrasing",
    "schema_leaves": "autoforge.lexicon.dataflow",
    "self_word_at": "autoforge.lexicon.session",
    "sentences": "autoforge.lexicon.rules",
    "session_owner": "autoforge.lexicon.session",
    "session_user": "autoforge.lexicon.session",
    "sign_in": "autoforge.lexicon.session",
    "signed_in": "autoforge.lexicon.session",
    "singular": "autoforge.lexicon.dataflow",
    "split_path": "autoforge.lexicon.dataflow",
    "status_attribute": "autoforge.lexicon.rules",
    "status_rank": "autoforge.lexicon.rules",
    "status_values": "autoforge.lexicon.rules",
    "target_collection": "autoforge.lexicon.toolscope",
    "tool_access": "autoforge.lexicon.toolscope",
    "tool_scope": "autoforge.lexicon.toolscope",
    "updates": "autoforge.lexicon.phrasing",
    "user_collection": "autoforge.lexicon.session",
    "verb_first": "autoforge.lexicon.phrasing",
    "with_preposition": "autoforge.lexicon.phrasing",
    "words": "autoforge.lexicon.phrasing",
}


def __getattr__(name: str) -> _Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)
