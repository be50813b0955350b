"""Environments: the artifact (spec), the runtime (episodes, tool calls), sandbox and checker.

```python
from autoforge.env import Environment, state_hash, diff_states
env = Environment.load("path/to/env")          # or EnvDir.resolve("example:bookstore").load()
ep = env.episode()
obs = ep.call("get_order", {"order_id": "o1"})
```
Tool code runs in a sandboxed worker process unless the environment is built with
``trusted=True``; ``env.boundary`` says what separates it from the host. See
``docs/architecture.md`` (contract) and ``docs/sandbox.md`` (what the sandbox guarantees).
"""

from __future__ import annotations

from autoforge.env.boundary import Boundary
from autoforge.env.checker import CheckItem, CheckReport, check_directory, check_environment
from autoforge.env.contained import probe_boundary
from autoforge.env.diff import diff_states
from autoforge.env.envdir import EnvDir
from autoforge.env.errors import EnvLoadError, SandboxViolation, ToolError
from autoforge.env.files import EnvParts
from autoforge.env.hashing import state_hash
from autoforge.env.protocols import EnvironmentLike, EpisodeLike, ObservationLike
from autoforge.env.runtime import Environment, Episode, ErrorKind, Observation
from autoforge.env.sandbox import check_source
from autoforge.env.signatures import python_param_name
from autoforge.env.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.env.values import canonical_json

__all__ = [
    "ALLOWED_MODULES",
    "ENTRY_POINT_GROUP",
    "FILLER",
    "READ_CLASSES",
    "SESSION",
    "SESSION_RECORD",
    "VERBS",
    "Attribute",
    "AttributeType",
    "BehaviourModel",
    "Boundary",
    "Check",
    "CheckItem",
    "CheckReport",
    "CollectionSchema",
    "ContainedEpisode",
    "ContainedRuntime",
    "DocRule",
    "Effect",
    "EnvDir",
    "EnvLoadError",
    "EnvParts",
    "Environment",
    "EnvironmentLike",
    "EnvironmentSpec",
    "Episode",
    "EpisodeLike",
    "ErrorKind",
    "Observation",
    "ObservationLike",
    "ParamInfo",
    "Reply",
    "RuleSet",
    "SandboxViolation",
    "StateSchema",
    "ToolBehaviour",
    "ToolClass",
    "ToolError",
    "ToolKind",
    "ToolScope",
    "Value",
    "ValueSource",
    "acting_for",
    "add_session",
    "canonical_json",
    "check_directory",
    "check_environment",
    "check_source",
    "collection_of_key",
    "diff_states",
    "doc_sentences",
    "docs_statuses",
    "environment_rules",
    "extract_rules",
    "find_user_collection",
    "json_encoder",
    "key_param",
    "name_verb",
    "owner_attribute",
    "probe_boundary",
    "python_param_name",
    "self_word_at",
    "sentences",
    "session_owner",
    "session_user",
    "sign_in",
    "signed_in",
    "state_hash",
    "status_values",
    "target_collection",
    "tool_access",
    "tool_scope",
    "unenforced_sentences",
    "user_collection",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.env.behaviour import BehaviourModel as BehaviourModel
    from autoforge.env.behaviour import Check as Check
    from autoforge.env.behaviour import Effect as Effect
    from autoforge.env.behaviour import ParamInfo as ParamInfo
    from autoforge.env.behaviour import Reply as Reply
    from autoforge.env.behaviour import ToolBehaviour as ToolBehaviour
    from autoforge.env.behaviour import ToolKind as ToolKind
    from autoforge.env.behaviour import Value as Value
    from autoforge.env.behaviour import ValueSource as ValueSource
    from autoforge.env.behaviour import doc_sentences as doc_sentences
    from autoforge.env.behaviour import unenforced_sentences as unenforced_sentences
    from autoforge.env.contained import ContainedEpisode as ContainedEpisode
    from autoforge.env.contained import ContainedRuntime as ContainedRuntime
    from autoforge.env.envdir import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP
    from autoforge.env.rules import DocRule as DocRule
    from autoforge.env.rules import RuleSet as RuleSet
    from autoforge.env.rules import docs_statuses as docs_statuses
    from autoforge.env.rules import environment_rules as environment_rules
    from autoforge.env.rules import extract_rules as extract_rules
    from autoforge.env.rules import sentences as sentences
    from autoforge.env.rules import status_values as status_values
    from autoforge.env.sandbox import ALLOWED_MODULES as ALLOWED_MODULES
    from autoforge.env.session import SESSION as SESSION
    from autoforge.env.session import SESSION_RECORD as SESSION_RECORD
    from autoforge.env.session import acting_for as acting_for
    from autoforge.env.session import add_session as add_session
    from autoforge.env.session import find_user_collection as find_user_collection
    from autoforge.env.session import owner_attribute as owner_attribute
    from autoforge.env.session import self_word_at as self_word_at
    from autoforge.env.session import session_owner as session_owner
    from autoforge.env.session import session_user as session_user
    from autoforge.env.session import sign_in as sign_in
    from autoforge.env.session import signed_in as signed_in
    from autoforge.env.session import user_collection as user_collection
    from autoforge.env.spec import AttributeType as AttributeType
    from autoforge.env.toolscope import FILLER as FILLER
    from autoforge.env.toolscope import READ_CLASSES as READ_CLASSES
    from autoforge.env.toolscope import VERBS as VERBS
    from autoforge.env.toolscope import ToolClass as ToolClass
    from autoforge.env.toolscope import ToolScope as ToolScope
    from autoforge.env.toolscope import collection_of_key as collection_of_key
    from autoforge.env.toolscope import key_param as key_param
    from autoforge.env.toolscope import name_verb as name_verb
    from autoforge.env.toolscope import target_collection as target_collection
    from autoforge.env.toolscope import tool_access as tool_access
    from autoforge.env.toolscope import tool_scope as tool_scope
    from autoforge.env.values import json_encoder as json_encoder

_LAZY: dict[str, str] = {
    "ALLOWED_MODULES": "autoforge.env.sandbox",
    "AttributeType": "autoforge.env.spec",
    "BehaviourModel": "autoforge.env.behaviour",
    "Check": "autoforge.env.behaviour",
    "ContainedEpisode": "autoforge.env.contained",
    "ContainedRuntime": "autoforge.env.contained",
    "DocRule": "autoforge.env.rules",
    "ENTRY_POINT_GROUP": "autoforge.env.envdir",
    "Effect": "autoforge.env.behaviour",
    "FILLER": "autoforge.env.toolscope",
    "ParamInfo": "autoforge.env.behaviour",
    "READ_CLASSES": "autoforge.env.toolscope",
    "Reply": "autoforge.env.behaviour",
    "RuleSet": "autoforge.env.rules",
    "SESSION": "autoforge.env.session",
    "SESSION_RECORD": "autoforge.env.session",
    "ToolBehaviour": "autoforge.env.behaviour",
    "ToolClass": "autoforge.env.toolscope",
    "ToolKind": "autoforge.env.behaviour",
    "ToolScope": "autoforge.env.toolscope",
    "VERBS": "autoforge.env.toolscope",
    "Value": "autoforge.env.behaviour",
    "ValueSource": "autoforge.env.behaviour",
    "acting_for": "autoforge.env.session",
    "add_session": "autoforge.env.session",
    "collection_of_key": "autoforge.env.toolscope",
    "doc_sentences": "autoforge.env.behaviour",
    "docs_statuses": "autoforge.env.rules",
    "environment_rules": "autoforge.env.rules",
    "extract_rules": "autoforge.env.rules",
    "find_user_collection": "autoforge.env.session",
    "json_encoder": "autoforge.env.values",
    "key_param": "autoforge.env.toolscope",
    "name_verb": "autoforge.env.toolscope",
    "owner_attribute": "autoforge.env.session",
    "self_word_at": "autoforge.env.session",
    "sentences": "autoforge.env.rules",
    "session_owner": "autoforge.env.session",
    "session_user": "autoforge.env.session",
    "sign_in": "autoforge.env.session",
    "signed_in": "autoforge.env.session",
    "status_values": "autoforge.env.rules",
    "target_collection": "autoforge.env.toolscope",
    "tool_access": "autoforge.env.toolscope",
    "tool_scope": "autoforge.env.toolscope",
    "unenforced_sentences": "autoforge.env.behaviour",
    "user_collection": "autoforge.env.session",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
