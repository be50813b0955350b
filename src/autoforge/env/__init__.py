"""Environments: the artifact (spec), the runtime (episodes, tool calls) and the sandbox.

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
``isolation`` (sandbox, OS boundary, workers). The conformance check that runs an
environment (``autoforge check``) is synthesis's (:mod:`autoforge.synth.check`); the reading of
doc text is the lexicon's (:mod:`autoforge.lexicon`).
"""

from __future__ import annotations

from autoforge.env.artifact.envdir import EnvDir
from autoforge.env.artifact.files import EnvParts
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.env.calls.signatures import python_param_name
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
    "RULES_FILE",
    "Attribute",
    "AttributeType",
    "BehaviourModel",
    "Boundary",
    "Check",
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
    "Mode",
    "Observation",
    "ObservationLike",
    "ParamInfo",
    "Reply",
    "RuleSet",
    "SandboxViolation",
    "StateSchema",
    "ToolBehaviour",
    "ToolError",
    "ToolKind",
    "Value",
    "ValueSource",
    "canonical_json",
    "check_source",
    "describe_boundary",
    "diff_states",
    "doc_sentences",
    "json_encoder",
    "probe_boundary",
    "python_param_name",
    "refusal_alternatives",
    "rule_words",
    "state_hash",
    "states_rule",
    "unenforced_sentences",
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
    from autoforge.env.artifact.behaviour import refusal_alternatives as refusal_alternatives
    from autoforge.env.artifact.behaviour import rule_words as rule_words
    from autoforge.env.artifact.behaviour import states_rule as states_rule
    from autoforge.env.artifact.behaviour import unenforced_sentences as unenforced_sentences
    from autoforge.env.artifact.envdir import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP
    from autoforge.env.artifact.files import RULES_FILE as RULES_FILE
    from autoforge.env.artifact.rules import DocRule as DocRule
    from autoforge.env.artifact.rules import RuleSet as RuleSet
    from autoforge.env.artifact.spec import AttributeType as AttributeType
    from autoforge.env.isolation.boundary import describe_boundary as describe_boundary
    from autoforge.env.isolation.contained import ContainedEpisode as ContainedEpisode
    from autoforge.env.isolation.contained import ContainedRuntime as ContainedRuntime
    from autoforge.env.isolation.sandbox import ALLOWED_MODULES as ALLOWED_MODULES
    from autoforge.env.runtime import Mode as Mode
    from autoforge.env.state.values import json_encoder as json_encoder

_LAZY: dict[str, str] = {
    "describe_boundary": "autoforge.env.isolation.boundary",
    "Mode": "autoforge.env.runtime",
    "RULES_FILE": "autoforge.env.artifact.files",
    "ALLOWED_MODULES": "autoforge.env.isolation.sandbox",
    "AttributeType": "autoforge.env.artifact.spec",
    "BehaviourModel": "autoforge.env.artifact.behaviour",
    "Check": "autoforge.env.artifact.behaviour",
    "ContainedEpisode": "autoforge.env.isolation.contained",
    "ContainedRuntime": "autoforge.env.isolation.contained",
    "DocRule": "autoforge.env.artifact.rules",
    "ENTRY_POINT_GROUP": "autoforge.env.artifact.envdir",
    "Effect": "autoforge.env.artifact.behaviour",
    "ParamInfo": "autoforge.env.artifact.behaviour",
    "Reply": "autoforge.env.artifact.behaviour",
    "RuleSet": "autoforge.env.artifact.rules",
    "ToolBehaviour": "autoforge.env.artifact.behaviour",
    "ToolKind": "autoforge.env.artifact.behaviour",
    "Value": "autoforge.env.artifact.behaviour",
    "ValueSource": "autoforge.env.artifact.behaviour",
    "doc_sentences": "autoforge.env.artifact.behaviour",
    "refusal_alternatives": "autoforge.env.artifact.behaviour",
    "json_encoder": "autoforge.env.state.values",
    "rule_words": "autoforge.env.artifact.behaviour",
    "states_rule": "autoforge.env.artifact.behaviour",
    "unenforced_sentences": "autoforge.env.artifact.behaviour",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
