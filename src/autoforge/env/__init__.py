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

Rooms: ``artifact`` (the spec, its directory, rules and behaviour model), ``state`` (copy-on-write
episode state, hashes, diffs), ``calls`` (argument validation and binding, time limits),
``isolation`` (sandbox, OS boundary, workers), ``check`` (the conformance check).
"""

from __future__ import annotations

from autoforge.env.artifact.envdir import EnvDir
from autoforge.env.artifact.files import EnvParts
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.env.calls.signatures import python_param_name
from autoforge.env.check.checker import CheckItem, CheckReport, check_directory, check_environment
from autoforge.env.errors import EnvLoadError, SandboxViolation, ToolError
from autoforge.env.isolation.boundary import Boundary
from autoforge.env.isolation.contained import probe_boundary
from autoforge.env.isolation.sandbox import check_source
from autoforge.env.protocols import EnvironmentLike, EpisodeLike, ObservationLike
from autoforge.env.runtime import Environment, Episode, ErrorKind, Observation
from autoforge.env.state.diff import diff_states
from autoforge.env.state.hashing import state_hash
from autoforge.env.state.values import canonical_json

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
    from autoforge.env.artifact.behaviour import BehaviourModel as BehaviourModel
    from autoforge.env.artifact.behaviour import Check as Check
    from autoforge.env.artifact.behaviour import Effect as Effect
    from autoforge.env.artifact.behaviour import ParamInfo as ParamInfo
    from autoforge.env.artifact.behaviour import Reply as Reply
    from autoforge.env.artifact.behaviour import ToolBehaviour as ToolBehaviour
    from autoforge.env.artifact.behaviour import ToolKind as ToolKind
    from autoforge.env.artifact.behaviour import Value as Value
    from autoforge.env.artifact.behaviour import ValueSource as ValueSource
    from autoforge.env.artifact.behaviour import doc_sentences as doc_sentences
    from autoforge.env.artifact.behaviour import unenforced_sentences as unenforced_sentences
    from autoforge.env.artifact.envdir import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP
    from autoforge.env.artifact.rules import DocRule as DocRule
    from autoforge.env.artifact.rules import RuleSet as RuleSet
    from autoforge.env.artifact.rules import docs_statuses as docs_statuses
    from autoforge.env.artifact.rules import environment_rules as environment_rules
    from autoforge.env.artifact.rules import extract_rules as extract_rules
    from autoforge.env.artifact.rules import sentences as sentences
    from autoforge.env.artifact.rules import status_values as status_values
    from autoforge.env.artifact.session import SESSION as SESSION
    from autoforge.env.artifact.session import SESSION_RECORD as SESSION_RECORD
    from autoforge.env.artifact.session import acting_for as acting_for
    from autoforge.env.artifact.session import add_session as add_session
    from autoforge.env.artifact.session import find_user_collection as find_user_collection
    from autoforge.env.artifact.session import owner_attribute as owner_attribute
    from autoforge.env.artifact.session import self_word_at as self_word_at
    from autoforge.env.artifact.session import session_owner as session_owner
    from autoforge.env.artifact.session import session_user as session_user
    from autoforge.env.artifact.session import sign_in as sign_in
    from autoforge.env.artifact.session import signed_in as signed_in
    from autoforge.env.artifact.session import user_collection as user_collection
    from autoforge.env.artifact.spec import AttributeType as AttributeType
    from autoforge.env.artifact.toolscope import FILLER as FILLER
    from autoforge.env.artifact.toolscope import READ_CLASSES as READ_CLASSES
    from autoforge.env.artifact.toolscope import VERBS as VERBS
    from autoforge.env.artifact.toolscope import ToolClass as ToolClass
    from autoforge.env.artifact.toolscope import ToolScope as ToolScope
    from autoforge.env.artifact.toolscope import collection_of_key as collection_of_key
    from autoforge.env.artifact.toolscope import key_param as key_param
    from autoforge.env.artifact.toolscope import name_verb as name_verb
    from autoforge.env.artifact.toolscope import target_collection as target_collection
    from autoforge.env.artifact.toolscope import tool_access as tool_access
    from autoforge.env.artifact.toolscope import tool_scope as tool_scope
    from autoforge.env.isolation.contained import ContainedEpisode as ContainedEpisode
    from autoforge.env.isolation.contained import ContainedRuntime as ContainedRuntime
    from autoforge.env.isolation.sandbox import ALLOWED_MODULES as ALLOWED_MODULES
    from autoforge.env.state.values import json_encoder as json_encoder

_LAZY: dict[str, str] = {
    "ALLOWED_MODULES": "autoforge.env.isolation.sandbox",
    "AttributeType": "autoforge.env.artifact.spec",
    "BehaviourModel": "autoforge.env.artifact.behaviour",
    "Check": "autoforge.env.artifact.behaviour",
    "ContainedEpisode": "autoforge.env.isolation.contained",
    "ContainedRuntime": "autoforge.env.isolation.contained",
    "DocRule": "autoforge.env.artifact.rules",
    "ENTRY_POINT_GROUP": "autoforge.env.artifact.envdir",
    "Effect": "autoforge.env.artifact.behaviour",
    "FILLER": "autoforge.env.artifact.toolscope",
    "ParamInfo": "autoforge.env.artifact.behaviour",
    "READ_CLASSES": "autoforge.env.artifact.toolscope",
    "Reply": "autoforge.env.artifact.behaviour",
    "RuleSet": "autoforge.env.artifact.rules",
    "SESSION": "autoforge.env.artifact.session",
    "SESSION_RECORD": "autoforge.env.artifact.session",
    "ToolBehaviour": "autoforge.env.artifact.behaviour",
    "ToolClass": "autoforge.env.artifact.toolscope",
    "ToolKind": "autoforge.env.artifact.behaviour",
    "ToolScope": "autoforge.env.artifact.toolscope",
    "VERBS": "autoforge.env.artifact.toolscope",
    "Value": "autoforge.env.artifact.behaviour",
    "ValueSource": "autoforge.env.artifact.behaviour",
    "acting_for": "autoforge.env.artifact.session",
    "add_session": "autoforge.env.artifact.session",
    "collection_of_key": "autoforge.env.artifact.toolscope",
    "doc_sentences": "autoforge.env.artifact.behaviour",
    "docs_statuses": "autoforge.env.artifact.rules",
    "environment_rules": "autoforge.env.artifact.rules",
    "extract_rules": "autoforge.env.artifact.rules",
    "find_user_collection": "autoforge.env.artifact.session",
    "json_encoder": "autoforge.env.state.values",
    "key_param": "autoforge.env.artifact.toolscope",
    "name_verb": "autoforge.env.artifact.toolscope",
    "owner_attribute": "autoforge.env.artifact.session",
    "self_word_at": "autoforge.env.artifact.session",
    "sentences": "autoforge.env.artifact.rules",
    "session_owner": "autoforge.env.artifact.session",
    "session_user": "autoforge.env.artifact.session",
    "sign_in": "autoforge.env.artifact.session",
    "signed_in": "autoforge.env.artifact.session",
    "status_values": "autoforge.env.artifact.rules",
    "target_collection": "autoforge.env.artifact.toolscope",
    "tool_access": "autoforge.env.artifact.toolscope",
    "tool_scope": "autoforge.env.artifact.toolscope",
    "unenforced_sentences": "autoforge.env.artifact.behaviour",
    "user_collection": "autoforge.env.artifact.session",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
