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
    "Attribute",
    "Boundary",
    "CheckItem",
    "CheckReport",
    "CollectionSchema",
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
    "SandboxViolation",
    "StateSchema",
    "ToolError",
    "canonical_json",
    "check_directory",
    "check_environment",
    "check_source",
    "diff_states",
    "probe_boundary",
    "python_param_name",
    "state_hash",
]
