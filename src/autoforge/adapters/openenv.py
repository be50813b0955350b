"""A forged environment as an OpenEnv environment (the ``openenv-core`` package).

- :class:`ForgedEnvironment` is an OpenEnv ``MCPEnvironment``: the environment's tools are MCP
  tools (FastMCP, with the tools' own JSON schemas), ``reset(task_id=...)`` opens an episode at
  the task's S0, ``step(CallToolAction(...))`` runs a tool call in the sandboxed runtime, and
  calling the :data:`~autoforge.adapters.forged.FINISH_TOOL` tool with the agent's final message
  ends the episode with the rollout's exact-state reward (``done=True``, ``reward`` 1/0).
- :func:`create_openenv_app` is the OpenEnv server (WebSocket ``/ws``, HTTP ``/reset``,
  ``/step``, ``/state``, ``/mcp``): one :class:`ForgedEnvironment` per session, all sharing one
  :class:`~autoforge.serve.service.EnvService` (its session bound applies).
- :class:`ForgedEnvClient` is OpenEnv's ``MCPToolClient`` that also keeps the reset fields
  (task id, question, policy) the stock client drops.
- :func:`trl_environment_class` builds the class TRL's ``GRPOTrainer(environment_factory=...)``
  wants: one method per tool (signature and docstring from the tool's schema), ``reset`` and
  ``get_reward``, each talking to an OpenEnv server through :class:`ForgedEnvClient`.

Every call into the shared service happens on the server's event loop (``reset_async`` and
``step_async`` are overridden), which the service relies on instead of locks.
"""

from __future__ import annotations

import contextlib
import inspect
import json
from collections.abc import Callable, Collection
from typing import Any

from fastmcp import FastMCP
from fastmcp.tools import Tool as FastMCPTool
from fastmcp.tools.base import ToolResult
from mcp.types import TextContent, ToolAnnotations
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.mcp_environment import MCPEnvironment
from openenv.core.env_server.mcp_types import (
    CallToolAction,
    CallToolObservation,
    ToolError,
    ToolErrorType,
)
from openenv.core.env_server.types import Action, Observation, State
from openenv.core.mcp_client import MCPToolClient
from pydantic import ConfigDict, PrivateAttr

from autoforge.adapters.forged import FINISH_DESCRIPTION, FINISH_TOOL, finish_tool_name
from autoforge.errors import UserError
from autoforge.serve import EnvService, ServeError

FINISH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"message": {"type": "string", "description": "Your final message to the user."}},
    "required": ["message"],
}


class ForgedResetObservation(Observation):
    """What ``reset`` returns: the task, the user's request and the environment's policy."""

    env_id: str
    task_id: str | None = None
    question: str | None = None
    policy: str = ""


class ForgedState(State):
    """``state()``: the episode, its task, whether it ended, and its reward once it has."""

    task_id: str | None = None
    done: bool = False
    reward: float | None = None


class _EpisodeTool(FastMCPTool):
    """One environment tool as a FastMCP tool: runs in the owning session's episode."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    _run_call: Callable[[str, dict[str, Any]], tuple[str, bool]] = PrivateAttr()

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        content, ok = self._run_call(self.name, arguments)
        return ToolResult(content=[TextContent(type="text", text=content)], is_error=not ok)


def _episode_tool(
    name: str,
    description: str,
    parameters: dict[str, Any],
    run_call: Callable[[str, dict[str, Any]], tuple[str, bool]],
    read_only: bool | None = None,
) -> _EpisodeTool:
    annotations = None if read_only is None else ToolAnnotations(read_only_hint=read_only)
    tool = _EpisodeTool(
        name=name, description=description, parameters=parameters, annotations=annotations
    )
    tool._run_call = run_call
    return tool


class ForgedEnvironment(MCPEnvironment):
    """One OpenEnv session over a forged environment: one episode at a time."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, service: EnvService) -> None:
        self.service = service
        self.finish_tool = finish_tool_name(service)
        self._episode: str | None = None
        self._said: list[str] = []
        self._state = ForgedState()
        mcp = FastMCP(f"autoforge-{service.env_id}", instructions=service.policy or None)
        for spec in service.env.spec.tools:
            read_only = None if spec.access is None else spec.access == "read"
            mcp.add_tool(
                _episode_tool(spec.name, spec.description, spec.parameters, self._call, read_only)
            )
        mcp.add_tool(_episode_tool(self.finish_tool, FINISH_DESCRIPTION, FINISH_SCHEMA, self._call))
        super().__init__(mcp)

    # -- OpenEnv API ---------------------------------------------------------------------------

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task_id: str | None = None,
        **kwargs: Any,
    ) -> ForgedResetObservation:
        """Open an episode at task ``task_id``'s S0 (or the task ``seed`` picks)."""
        self._close_episode()
        if task_id is None and seed is None:
            seed = 0
        opened = self.service.open_episode(task_id, seed)
        self._episode = opened["episode_id"]
        self._said = []
        self._state = ForgedState(
            episode_id=episode_id or opened["episode_id"], task_id=opened["task_id"]
        )
        return ForgedResetObservation(
            env_id=self.service.env_id,
            task_id=opened["task_id"],
            question=opened["question"],
            policy=opened["policy"] or "",
        )

    async def reset_async(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task_id: str | None = None,
        **kwargs: Any,
    ) -> ForgedResetObservation:
        """:meth:`reset` on the server's event loop (the service is not shared across threads)."""
        return self.reset(seed=seed, episode_id=episode_id, task_id=task_id)

    def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        self._state.step_count += 1
        return super().step(action, timeout_s=timeout_s, **kwargs)

    async def step_async(
        self, action: Action, timeout_s: float | None = None, **kwargs: Any
    ) -> Observation:
        self._state.step_count += 1
        return await super().step_async(action, timeout_s=timeout_s, **kwargs)

    async def _async_handle_call_tool(
        self, action: CallToolAction, timeout_s: float | None = None
    ) -> CallToolObservation:
        refusal = self._refusal(action.tool_name)
        if refusal is not None:
            return refusal
        if action.tool_name == self.finish_tool:
            return self._finish(action.arguments)
        return await super()._async_handle_call_tool(action, timeout_s=timeout_s)

    def _step_impl(
        self, action: Action, timeout_s: float | None = None, **kwargs: Any
    ) -> Observation:
        return Observation(
            metadata={"error": f"unknown action {type(action).__name__}: send call_tool/list_tools"}
        )

    @property
    def state(self) -> ForgedState:
        return self._state

    def close(self) -> None:
        self._close_episode()
        super().close()

    # -- internals -----------------------------------------------------------------------------

    def _refusal(self, tool_name: str) -> CallToolObservation | None:
        if self._episode is None:
            why = "the episode has ended" if self._state.done else "no episode is open"
            return CallToolObservation(
                tool_name=tool_name,
                done=self._state.done,
                error=ToolError(
                    error_type=ToolErrorType.EXECUTION_ERROR,
                    message=f"{why}: call reset(task_id=...) first",
                ),
            )
        return None

    def _call(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Run one tool call in this session's episode: (what the agent sees, ok)."""
        if self._episode is None:
            return "no episode is open: call reset(task_id=...) first", False
        try:
            obs = self.service.call(self._episode, name, arguments)
        except ServeError as exc:  # unknown tool / invalid arguments: the agent's mistake
            return exc.message, False
        return obs["content"], bool(obs["ok"])

    def _finish(self, arguments: dict[str, Any]) -> CallToolObservation:
        """End the episode: the rollout's reward on the final state and the agent's messages."""
        assert self._episode is not None
        message = arguments.get("message")
        if isinstance(message, str) and message:
            self._said.append(message)
        info = self.service.reward(self._episode, self._said)
        self._close_episode()
        reward = float(info["reward"]) if info["reward"] is not None else None
        self._state.done, self._state.reward = True, reward
        result = {k: info[k] for k in ("reward", "reason", "state_hash", "gold_state_hash")}
        return CallToolObservation(
            tool_name=self.finish_tool, result=result, done=True, reward=reward
        )

    def _close_episode(self) -> None:
        if self._episode is not None:
            episode, self._episode = self._episode, None
            with contextlib.suppress(ServeError):  # already evicted for idleness
                self.service.close(episode)


def create_openenv_app(service: EnvService) -> Any:
    """The OpenEnv server app (FastAPI): one :class:`ForgedEnvironment` per session."""
    return create_app(
        lambda: ForgedEnvironment(service),
        CallToolAction,
        CallToolObservation,
        env_name=f"autoforge-{service.env_id}",
        max_concurrent_envs=service.limits.max_sessions,
    )


class ForgedEnvClient(MCPToolClient):
    """OpenEnv's MCP tool client, keeping the reset observation's task fields in ``metadata``."""

    def _parse_result(self, payload: dict[str, Any]) -> Any:
        result = super()._parse_result(payload)
        obs = payload.get("observation", {})
        if "env_id" in obs:  # a ForgedResetObservation
            keep = ("env_id", "task_id", "question", "policy")
            result.observation.metadata.update({k: obs.get(k) for k in keep})
        return result


def tool_text(observation: Any) -> str:
    """The text an agent sees for a ``CallToolObservation`` (result content, or the error)."""
    if observation.error is not None:
        return f"Error: {observation.error.message}"
    result = observation.result
    if isinstance(result, dict) and isinstance(result.get("content"), list):
        texts = [c.get("text", "") for c in result["content"] if isinstance(c, dict)]
        return "\n".join(texts)
    return result if isinstance(result, str) else json.dumps(result)


# -- TRL environment_factory ------------------------------------------------------------------

_JSON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "array": list,
    "object": dict,
}


def _python_type(schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    return _JSON_TYPES.get(str(kind), str)


def _docstring(description: str, schema: dict[str, Any]) -> str:
    """A Google-style docstring (what transformers' ``get_json_schema`` parses)."""
    lines = [" ".join(description.split()) or "A tool of the environment.", "", "Args:"]
    for name, prop in schema.get("properties", {}).items():
        text = " ".join(str(prop.get("description") or name).split())
        if isinstance(prop.get("enum"), list):
            text += f" (choices: {json.dumps(prop['enum'])})"
        lines.append(f"    {name}: {text}")
    if len(lines) == 3:
        lines = lines[:1]
    return "\n".join(lines)


def _tool_method(name: str, description: str, schema: dict[str, Any]) -> Callable[..., str]:
    """A method ``name(self, **arguments) -> str`` with a signature and docstring TRL can read."""
    required = set(schema.get("required", []))
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {"return": str}
    ordered = sorted(schema.get("properties", {}).items(), key=lambda kv: kv[0] not in required)
    for pname, prop in ordered:
        hint = _python_type(prop)
        default = inspect.Parameter.empty if pname in required else None
        annotations[pname] = hint_of = hint if pname in required else hint | None
        params.append(
            inspect.Parameter(
                pname, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint_of
            )
        )

    def method(self: Any, **arguments: Any) -> str:
        args = {k: v for k, v in arguments.items() if v is not None}
        return str(self._call(name, args))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = _docstring(description, schema)
    method.__annotations__ = annotations
    method.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    return method


class _TrlEnvironmentBase:
    """What every TRL environment class shares: the OpenEnv connection and the reward."""

    base_url: str = ""

    def __init__(self) -> None:
        self._client = ForgedEnvClient(base_url=self.base_url).sync()
        self._client.connect()
        self._reward: float = 0.0
        self._done = False
        self.task_id: str | None = None

    def reset(self, task_id: str | None = None, **kwargs: Any) -> str | None:
        """Open an episode at the dataset row's task (TRL passes the row's columns)."""
        result = self._client.reset(task_id=task_id)
        self.task_id = result.observation.metadata.get("task_id")
        self._reward, self._done = 0.0, False
        return None

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self._done:
            return "The episode has ended."
        result = self._client.step(CallToolAction(tool_name=name, arguments=arguments))
        if result.done:
            self._done = True
            self._reward = float(result.reward or 0.0)
        return tool_text(result.observation)

    def get_reward(self) -> float:
        """The exact-state reward; an episode the model never finished is finished here."""
        if not self._done:
            self._call(FINISH_TOOL, {"message": ""})
        return self._reward

    def _close(self) -> None:  # private: TRL exposes every public method as a tool
        self._client.close()


def trl_environment_class(base_url: str, tools: Collection[str] | None = None) -> type:
    """A class for ``GRPOTrainer(environment_factory=cls)`` over the OpenEnv server at ``base_url``.

    One public method per tool of the served environment (plus the finish tool), built from the
    tools' MCP schemas; ``tools`` keeps only those (every tool's schema is in every prompt, so
    a smaller set means shorter prompts). ``reset(task_id=...)`` takes the dataset row's
    ``task_id`` column; ``get_reward()`` is the exact-state reward of the episode.
    """
    probe = ForgedEnvClient(base_url=base_url).sync()
    with probe:
        probe.reset()
        listed = probe.list_tools()
    namespace: dict[str, Any] = {"base_url": base_url}
    unknown = set(tools or ()) - {t.name for t in listed}
    if unknown:
        raise UserError(f"no tool(s) {', '.join(sorted(unknown))} on {base_url}")
    for tool in listed:
        if tool.name.startswith("_") or tool.name in ("reset", "get_reward"):
            continue
        if tools is not None and tool.name not in tools and tool.name != FINISH_TOOL:
            continue
        namespace[tool.name] = _tool_method(tool.name, tool.description, tool.input_schema)
    return type("ForgedTrlEnvironment", (_TrlEnvironmentBase,), namespace)
