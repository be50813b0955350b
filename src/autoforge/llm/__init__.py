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
    "TransportError",
    "UsageLedger",
    "build_config",
    "config_from_cli",
    "get_client",
    "print_usage",
    "usage_table",
]
