"""The one LLM seam of autoforge: roles, structured output, tool calling, cache, accounting.

```python
from autoforge.llm import get_client, LLMClient, LLMFailure
client = get_client()                               # config file < env < CLI; embedded default
resp = await client.chat(messages, role="agent", purpose="rollout.agent", tools=tools)
obj = await client.structured(messages, MyModel, role="synthesizer", purpose="synth.state")
fake = LLMClient.scripted(["hello", {"field": 1}])  # same code path, canned answers
```

No module outside ``autoforge.llm`` imports ``openai`` or ``xllamacpp``.
"""

from autoforge.llm.accounting import UsageLedger, print_usage, usage_table
from autoforge.llm.client import LLMClient, get_client
from autoforge.llm.config import (
    EmbeddedConfig,
    Endpoint,
    LLMConfig,
    RoleConfig,
    build_config,
    config_from_cli,
)
from autoforge.llm.transport import RecordedRequest
from autoforge.llm.types import (
    ROLES,
    ChatResponse,
    LLMFailure,
    Message,
    Role,
    ScriptExhausted,
    TokenUsage,
    TransportError,
)

__all__ = [
    "DEFAULT_REMOTE_CONCURRENCY",
    "EMBEDDED_NAMES",
    "NO_MODEL",
    "ROLES",
    "ChatResponse",
    "EmbeddedConfig",
    "Endpoint",
    "LLMClient",
    "LLMConfig",
    "LLMFailure",
    "Message",
    "RecordedRequest",
    "Role",
    "RoleConfig",
    "ScriptExhausted",
    "TokenUsage",
    "ToolMode",
    "TransportError",
    "UsageLedger",
    "assemble",
    "build_config",
    "cache_dir",
    "calls_from_text",
    "config_from_cli",
    "ensure_server",
    "get_client",
    "model_spec",
    "print_usage",
    "probe_reasoning",
    "resolve_endpoint",
    "shutdown_all",
    "usage_table",
    "with_text_calls",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.llm.config import DEFAULT_REMOTE_CONCURRENCY as DEFAULT_REMOTE_CONCURRENCY
    from autoforge.llm.config import EMBEDDED_NAMES as EMBEDDED_NAMES
    from autoforge.llm.config import NO_MODEL as NO_MODEL
    from autoforge.llm.config import cache_dir as cache_dir
    from autoforge.llm.config import resolve_endpoint as resolve_endpoint
    from autoforge.llm.embedded import assemble as assemble
    from autoforge.llm.embedded import ensure_server as ensure_server
    from autoforge.llm.embedded import model_spec as model_spec
    from autoforge.llm.embedded import shutdown_all as shutdown_all
    from autoforge.llm.textcalls import calls_from_text as calls_from_text
    from autoforge.llm.textcalls import with_text_calls as with_text_calls
    from autoforge.llm.thinking import probe_reasoning as probe_reasoning
    from autoforge.llm.types import ToolMode as ToolMode

_LAZY: dict[str, str] = {
    "DEFAULT_REMOTE_CONCURRENCY": "autoforge.llm.config",
    "EMBEDDED_NAMES": "autoforge.llm.config",
    "NO_MODEL": "autoforge.llm.config",
    "ToolMode": "autoforge.llm.types",
    "assemble": "autoforge.llm.embedded",
    "calls_from_text": "autoforge.llm.textcalls",
    "cache_dir": "autoforge.llm.config",
    "ensure_server": "autoforge.llm.embedded",
    "model_spec": "autoforge.llm.embedded",
    "probe_reasoning": "autoforge.llm.thinking",
    "resolve_endpoint": "autoforge.llm.config",
    "shutdown_all": "autoforge.llm.embedded",
    "with_text_calls": "autoforge.llm.textcalls",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
