"""A gymnasium-style client for a served environment (sync, over httpx).

```python
with EnvClient("http://127.0.0.1:8000", token=None) as env:
    obs, info = env.reset(task_id="t-001")          # obs: {"role": "user", "content": question}
    obs, reward, terminated, truncated, info = env.step(
        {"name": "get_order", "arguments": {"order_id": "ORD-2"}})
    obs, reward, terminated, truncated, info = env.step(
        {"final": True, "messages": [{"role": "assistant", "content": "Done: 19.90"}]})
```

A tool action returns the observation ``{"ok", "content", "error_kind"}`` (also for an unknown
tool or bad arguments: the agent sees the error, as in a local rollout) with reward 0. A final
action asks the server for the reward and terminates the episode; ``truncated`` becomes true once
``max_steps`` tool calls were made. Infrastructure failures (server down, unknown episode,
wrong token) raise :class:`EnvClientError`.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import httpx

from autoforge.errors import AutoforgeError

Obs = dict[str, Any]
StepResult = tuple[Obs, float, bool, bool, dict[str, Any]]


class EnvClientError(AutoforgeError, RuntimeError):
    """The server refused a request for a reason that is not the agent's (HTTP status kept)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class EnvClient:
    """One episode at a time against ``base_url``; ``reset`` opens a new one (closing the last)."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        timeout_s: float = 30.0,
        max_steps: int | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(
            base_url=base_url, headers=headers, timeout=timeout_s, transport=transport
        )
        self.max_steps = max_steps
        self.episode_id: str | None = None
        self.tools: list[dict[str, Any]] = []
        self.policy = ""
        self.steps = 0
        self.terminated = False

    def reset(
        self, task_id: str | None = None, *, seed: int | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Open a fresh episode; returns the user's opening message and the episode's info."""
        self.close_episode()
        start = self._request("POST", "/episodes", json={"task_id": task_id, "seed": seed})
        self.episode_id = start["episode_id"]
        self.tools = start["tools"]
        self.policy = start["policy"]
        self.steps = 0
        self.terminated = False
        obs = {"role": "user", "content": start.get("question") or ""}
        return obs, start

    def step(self, action: dict[str, Any]) -> StepResult:
        """Apply a tool call ``{"name", "arguments"}`` or a final ``{"final": True, ...}``."""
        episode = self._open_episode()
        if action.get("final"):
            reward = self._request(
                "POST", f"/episodes/{episode}/reward", json={"messages": action.get("messages", [])}
            )
            self.terminated = True
            value = reward["reward"]
            return {"content": reward["reason"]}, float(value or 0.0), True, False, reward
        name = action.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(
                "an action is {'name': ..., 'arguments': {...}} or {'final': True, ...}"
            )
        obs = self._call(episode, name, action.get("arguments") or {})
        self.steps += 1
        truncated = self.max_steps is not None and self.steps >= self.max_steps
        return obs, 0.0, False, truncated, {"step": self.steps}

    def state_hash(self) -> str:
        """The current state hash of the open episode (for checks, not for the agent)."""
        return str(self._request("GET", f"/episodes/{self._open_episode()}")["state_hash"])

    def close_episode(self) -> None:
        """Close the open episode on the server (frees its slot); no-op when none is open."""
        if self.episode_id is not None:
            episode, self.episode_id = self.episode_id, None
            response = self._http.delete(f"/episodes/{episode}")
            if response.status_code not in (200, 404):
                self._raise(response)

    def close(self) -> None:
        """Close the episode and the HTTP connection pool."""
        try:
            self.close_episode()
        finally:
            self._http.close()

    def __enter__(self) -> EnvClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _open_episode(self) -> str:
        if self.episode_id is None:
            raise RuntimeError("no open episode: call reset() first")
        if self.terminated:
            raise RuntimeError("the episode has terminated: call reset() for a new one")
        return self.episode_id

    def _call(self, episode: str, name: str, arguments: Any) -> Obs:
        response = self._http.post(f"/episodes/{episode}/tools/{name}", json=arguments)
        body = _body(response)
        if response.status_code == 200:
            return body
        if response.status_code in (404, 422) and isinstance(body.get("observation"), dict):
            return dict(body["observation"])  # the agent's mistake: it sees the error
        return self._raise(response)

    def _request(self, method: str, url: str, **kwargs: Any) -> dict[str, Any]:
        response = self._http.request(method, url, **kwargs)
        if response.status_code >= 400:
            self._raise(response)
        return _body(response)

    @staticmethod
    def _raise(response: httpx.Response) -> Any:
        body = _body(response)
        raise EnvClientError(
            response.status_code, str(body.get("error", "http_error")), str(body.get("message", ""))
        )


def _body(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {"message": response.text}
    return body if isinstance(body, dict) else {"value": body}
