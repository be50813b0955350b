"""The environment runtime: load an environment, run isolated episodes, call tools.

```python
env = Environment.load("envs/bookstore")
ep = env.episode()
obs = ep.call("get_order", {"order_id": "ORD-2"})   # never raises for agent mistakes
obs.ok, obs.content, obs.result, obs.error_kind
ep.state_hash(); ep.snapshot(); ep.diff(); ep.reset()
```

A tool call validates the arguments (compiled JSON Schema checks), copies them, runs the tool
under the sandbox's time limit against the episode's copy-on-write state as one transaction
(kept on success, dropped on any error), and serialises the result (strings as they are,
everything else as JSON).
"""

from __future__ import annotations

import decimal
import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from autoforge.env.artifact.files import TOOLS_FILE, read_parts
from autoforge.env.artifact.rules import RuleSet
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.env.calls.limits import (
    DEFAULT_MEMORY_LIMIT_MB,
    CallTimeout,
    ResourceLimit,
    call_limited,
)
from autoforge.env.calls.signatures import ToolBinding, bind_specs, bind_tools
from autoforge.env.errors import EnvLoadError, ToolError
from autoforge.env.isolation.boundary import Boundary
from autoforge.env.isolation.sandbox import check_source, exec_module
from autoforge.env.state.cow import CowState, StateView
from autoforge.env.state.hashing import BaseDigests
from autoforge.env.state.values import jcopy, json_encoder, json_loads_text, to_jsonable

ErrorKind = Literal[
    "unknown_tool", "invalid_arguments", "tool_error", "timeout", "sandbox", "crash"
]
Mode = Literal["inline", "contained", "isolated"]

DEFAULT_CALL_TIMEOUT_S = 2.0
DEFAULT_WORKER_MEMORY_MB = 1024
MAX_CONTENT_CHARS = 8_000_000
_BASE_IDS = itertools.count(1)
DERIVED_CACHE_SIZE = 8
_SCALARS = (str, int, float, bool, type(None))
#: the decimal context every tool call starts from (a copy: no flags set, default traps)
_DECIMAL = decimal.Context(
    prec=28,
    rounding=decimal.ROUND_HALF_EVEN,
    Emin=-999999,
    Emax=999999,
    capitals=1,
    clamp=0,
    flags=[],
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
)
_UNSET: Any = object()


class Observation:
    """What one tool call produced.

    ``content`` is what the agent sees: the returned string, the JSON of any other value, or
    ``Error: ...``. ``result`` is the returned value as plain JSON data (decoded lazily from
    ``content``, so it never aliases the episode state); None on error.
    """

    __slots__ = ("_result", "content", "error_kind", "ok", "tool")

    def __init__(
        self,
        tool: str,
        ok: bool,
        content: str,
        error_kind: ErrorKind | None = None,
        result: Any = _UNSET,
    ) -> None:
        self.tool = tool
        self.ok = ok
        self.content = content
        self.error_kind = error_kind
        self._result = result

    @property
    def result(self) -> Any:
        """The returned value (JSON data); None when the call failed."""
        if self._result is _UNSET:
            self._result = json_loads_text(self.content) if self.ok else None
        return self._result

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record of this observation."""
        return {
            "tool": self.tool,
            "ok": self.ok,
            "content": self.content,
            "error_kind": self.error_kind,
        }

    def __repr__(self) -> str:
        kind = "" if self.ok else f", error_kind={self.error_kind!r}"
        return f"Observation(tool={self.tool!r}, ok={self.ok}{kind}, content={self.content!r})"


def _fail(tool: str, kind: ErrorKind, message: str) -> Observation:
    return Observation(tool, False, f"Error: {message}", kind, None)


_dumps = json_encoder(default=to_jsonable)  # json.dumps(value, default=to_jsonable)


def classify_error(
    tool: str, timed_out: bool, error: BaseException | None, timeout_s: float
) -> Observation:
    """The error observation for a call that timed out or raised ``error``."""
    if timed_out or isinstance(error, CallTimeout):
        return _fail(tool, "timeout", f"{tool} timed out after {timeout_s:g} s")
    if isinstance(error, ToolError):
        return _fail(tool, "tool_error", str(error))
    if isinstance(error, (ResourceLimit, MemoryError)):
        detail = str(error) or "memory limit exceeded"
        return _fail(tool, "sandbox", f"{tool} exceeded a sandbox limit: {detail}")
    name = type(error).__name__
    return _fail(tool, "crash", f"{tool} failed: {name}: {error}")


def observation_for(tool: str, result: Any) -> tuple[Observation | None, str]:
    """``(error observation or None, content)`` for a returned value (size-checked)."""
    if type(result) is str:
        content = result
    else:
        try:
            content = _dumps(result)
        except (TypeError, ValueError, RecursionError) as exc:
            return _fail(tool, "crash", f"{tool} returned a value that is not JSON: {exc}"), ""
    if len(content) > MAX_CONTENT_CHARS:
        message = f"{tool} returned {len(content)} characters (limit {MAX_CONTENT_CHARS})"
        return _fail(tool, "sandbox", message), ""
    return None, content


def _call_and_serialise(
    tool: str, fn: Callable[..., Any], state: CowState, kwargs: dict[str, Any]
) -> Observation:
    """Run the tool and serialise its result, both inside the call's time limit."""
    result = fn(state, **kwargs)
    failed, content = observation_for(tool, result)
    if failed is not None:
        return failed
    return Observation(tool, True, content, None, _scalar_or_unset(result))


class Environment:
    """A loaded environment: spec, sandboxed tool functions, initial state.

    Build with :meth:`load` (a directory) or :meth:`from_parts` (in memory). Immutable after
    construction and safe to share between threads; each :meth:`episode` is independent.
    Each call may run ``call_timeout_s`` seconds and grow the process's resident memory by
    ``memory_limit_mb`` (None: no such limit; see ``docs/sandbox.md``).
    """

    def __init__(
        self,
        spec: EnvironmentSpec,
        tools_source: str,
        initial_state: Mapping[str, Any] | None = None,
        *,
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
        memory_limit_mb: float | None = DEFAULT_MEMORY_LIMIT_MB,
        filename: str = TOOLS_FILE,
        path: Path | None = None,
        trusted: bool = False,
        rules: RuleSet | None = None,
    ) -> None:
        self.spec = spec
        self._rules = rules
        self.tools_source = tools_source
        self.path = path
        self.filename = filename
        self.call_timeout_s = call_timeout_s
        self.memory_limit_mb = memory_limit_mb
        self.trusted = trusted
        self.initial_state: dict[str, Any] = _initial_state(spec, initial_state)
        self.base_id = next(_BASE_IDS)
        self._runtime: Any = None
        if trusted:
            namespace, defs = exec_module(tools_source, filename, {"ToolError": ToolError})
            self.tools: dict[str, ToolBinding] = bind_tools(spec, namespace, defs, filename)
        else:
            self.tools = self._contained()
        self._digests = BaseDigests(self.initial_state)
        self._derived: OrderedDict[int, tuple[Mapping[str, Any], Environment]] = OrderedDict()
        self._derived_lock = threading.Lock()

    def _contained(self) -> dict[str, ToolBinding]:
        """Check the code here (AST only, nothing runs), load it in a sandboxed worker."""
        from autoforge.env.isolation.contained import ContainedRuntime

        check_source(self.tools_source, self.filename)
        spec_tools = bind_specs(self.spec)
        memory = int(self.memory_limit_mb) if self.memory_limit_mb else DEFAULT_WORKER_MEMORY_MB
        self._runtime = ContainedRuntime(self, memory_mb=memory)
        return spec_tools

    @property
    def boundary(self) -> Boundary:
        """What separates this environment's tool code from the host (see ``docs/sandbox.md``)."""
        if self._runtime is None:
            return Boundary(
                "inline",
                ["AST allow-list", "guards", "watchdog"],
                {"process": "trusted=True: tool code runs in this process"},
            )
        boundary: Boundary = self._runtime.boundary
        return boundary

    @property
    def recorded_rules(self) -> RuleSet | None:
        """The rules synthesis recorded with the tools (``rules.json``), None when the directory
        has none; :func:`autoforge.lexicon.rules_of` extracts them from the spec then."""
        return self._rules

    def close(self) -> None:
        """Stop the sandbox worker (a later episode call starts a new one)."""
        if self._runtime is not None:
            self._runtime.close()

    @classmethod
    def load(
        cls,
        env_dir: str | Path,
        *,
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
        memory_limit_mb: float | None = DEFAULT_MEMORY_LIMIT_MB,
        trusted: bool = False,
    ) -> Environment:
        """Load ``environment.json``, ``tools.py`` and the optional ``initial_state.json`` and
        ``rules.json`` (:func:`autoforge.env.artifact.files.read_parts`).

        The tool code runs in a sandboxed worker process unless ``trusted=True`` (reviewed
        code only: it then runs in this process, see ``docs/sandbox.md``).
        """
        root = Path(env_dir)
        parts = read_parts(root)
        return cls(
            parts.spec,
            parts.tools_source,
            parts.initial_state,
            call_timeout_s=call_timeout_s,
            memory_limit_mb=memory_limit_mb,
            filename=str(parts.tools_path),
            path=root,
            trusted=trusted,
            rules=parts.rules,
        )

    @classmethod
    def from_parts(
        cls,
        spec: EnvironmentSpec,
        tools_source: str,
        initial_state: Mapping[str, Any] | None = None,
        *,
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
        memory_limit_mb: float | None = DEFAULT_MEMORY_LIMIT_MB,
        trusted: bool = False,
    ) -> Environment:
        """Build an environment in memory (synthesis); same checks as :meth:`load`."""
        return cls(
            spec,
            tools_source,
            initial_state,
            call_timeout_s=call_timeout_s,
            memory_limit_mb=memory_limit_mb,
            trusted=trusted,
        )

    def with_initial_state(self, state: Mapping[str, Any], *, owned: bool = False) -> Environment:
        """The same tools over another initial state (copied once; episodes share it).

        ``owned=True``: the caller hands over ``state``, plain JSON data that nothing changes
        afterwards (a state it just decoded or generated); its records are used as they are,
        not copied.
        """
        clone = object.__new__(Environment)
        clone.__dict__.update(self.__dict__)
        clone.initial_state = _initial_state(self.spec, state, copy=not owned)
        clone.base_id = next(_BASE_IDS)
        clone._digests = BaseDigests(clone.initial_state)
        clone._derived = OrderedDict()
        clone._derived_lock = threading.Lock()
        return clone

    def _for_state(self, state: Mapping[str, Any]) -> Environment:
        """A derived environment for ``state``, reused while the same object is passed again
        unchanged (``==`` its copy), so repeated ``episode(state=task_state)`` calls do not
        copy and rehash a large state every time."""
        key = id(state)
        with self._derived_lock:
            hit = self._derived.get(key)
            if hit is not None and hit[0] is state:
                self._derived.move_to_end(key)
        if hit is not None and hit[0] is state and state == hit[1].initial_state:
            return hit[1]
        derived = self.with_initial_state(state)
        with self._derived_lock:
            self._derived[key] = (state, derived)
            while len(self._derived) > DERIVED_CACHE_SIZE:
                self._derived.popitem(last=False)
        return derived

    @property
    def tool_names(self) -> list[str]:
        """The documented tools, in spec order."""
        return list(self.tools)

    def episode(
        self, state: Mapping[str, Any] | None = None, *, mode: Mode | None = None
    ) -> Episode:
        """A new isolated episode starting from ``state`` (a copy) or the initial state.

        Passing the same ``state`` object again reuses its copy and base hashes; the object
        is compared (``==``) with that copy first, so changing it in between is safe (it is
        then copied again).

        Untrusted environments (the default) run every call in the environment's sandboxed
        worker, whatever ``mode`` says except ``"isolated"``; ``mode="isolated"`` gives the
        episode a worker of its own. A ``trusted=True`` environment runs calls in the calling
        thread (``"inline"``).
        """
        env = self if state is None else self._for_state(state)
        if mode not in (None, "inline", "contained", "isolated"):
            raise ValueError(
                f"unknown episode mode {mode!r} (use 'inline', 'contained' or 'isolated')"
            )
        if mode == "isolated":
            from autoforge.env.isolation.isolated import IsolatedEpisode

            return IsolatedEpisode(env)
        if self._runtime is not None:
            from autoforge.env.isolation.contained import ContainedEpisode

            return ContainedEpisode(env, self._runtime)
        return Episode(env)

    def __repr__(self) -> str:
        return f"Environment({self.spec.name!r}, tools={len(self.tools)})"


class Episode:
    """One run of an environment: its own state, tool calls, hash and reset.

    Use from one thread at a time; separate episodes may run concurrently.
    """

    def __init__(self, env: Environment) -> None:
        self.env = env
        self._state = CowState(env.initial_state, env._digests)
        self.calls = 0

    @property
    def state(self) -> StateView:
        """The current state, read-only (records come back as copies)."""
        return self._state._view()

    def peek(self, name: str) -> Any:
        """The committed value of ``state[name]`` without copying: a collection as a plain
        dict whose records are the episode's own (KeyError when there is none).

        For read-heavy host-side callers (task generation's fact choice reads whole
        collections after each write): :attr:`state` deep-copies every record it returns.
        Read-only: committed records are shared with the episode and its base, and a caller
        that changed one would change the episode's state behind its hash.
        """
        child = self._state._collection_view(name)
        if child is not None:
            return {key: child._committed(key) for key in child}
        return self._state._committed(name)

    def call(self, tool: str, arguments: Mapping[str, Any] | str | None = None) -> Observation:
        """Call ``tool``; agent mistakes come back as error observations, never exceptions."""
        self.calls += 1
        binding = self.env.tools.get(tool)
        if binding is None:
            return self._unknown(tool)
        kwargs, problem = binding.prepare(arguments)
        if problem is not None:
            return _fail(tool, "invalid_arguments", f"invalid arguments for {tool}: {problem}")
        return self._run(tool, binding.fn, kwargs)

    def _run(self, tool: str, fn: Callable[..., Any], kwargs: dict[str, Any]) -> Observation:
        """One transaction: committed when the call and its serialisation succeeded, rolled
        back otherwise (in a ``finally``, so no exception can leave a half-done write behind
        for the next call to commit)."""
        state = self._state
        timeout = self.env.call_timeout_s
        limit = self.env.memory_limit_mb
        committed = False
        context = decimal.getcontext()
        decimal.setcontext(_DECIMAL.copy())  # no flags or traps left by an earlier call
        try:
            timed_out, outcome, error = call_limited(
                _call_and_serialise, (tool, fn, state, kwargs), {}, timeout, limit
            )
            if error is None and not timed_out:
                if outcome.ok:
                    problem = state._commit()
                    if problem is not None:
                        return _fail(tool, "crash", f"{tool} left {problem}")
                    committed = True
                return outcome
            if isinstance(error, KeyboardInterrupt):
                raise error
            return classify_error(tool, timed_out, error, timeout)
        finally:
            if not committed:
                state._abort()
            decimal.setcontext(context)  # the caller's, whatever the call did to the thread's

    def _unknown(self, tool: str) -> Observation:
        names = ", ".join(self.env.tools)
        return _fail(tool, "unknown_tool", f"unknown tool '{tool}'. Available tools: {names}")

    def snapshot(self) -> dict[str, Any]:
        """A plain, independent copy of the current state."""
        return self._state._snapshot()

    def state_hash(self) -> str:
        """The canonical hash of the current state (``== state_hash(self.snapshot())``)."""
        return self._state._state_hash()

    def diff(self) -> list[dict[str, Any]]:
        """``diff_states(initial state, current state)``, from the changed records only."""
        return self._state._diff()

    def reset(self) -> None:
        """Back to the episode's initial state."""
        self._state._reset()
        self.calls = 0

    def close(self) -> None:
        """Release resources (nothing to release in inline mode)."""

    def __enter__(self) -> Episode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _scalar_or_unset(result: Any) -> Any:
    return result if type(result) in _SCALARS else _UNSET


def _initial_state(
    spec: EnvironmentSpec, state: Mapping[str, Any] | None, copy: bool = True
) -> dict[str, Any]:
    """A private copy of ``state`` with every declared collection present (``copy=False``:
    only the top level is new, the collections are ``state``'s)."""
    if state is not None and not isinstance(state, Mapping):
        raise EnvLoadError("the initial state must be a JSON object of collections")
    out: dict[str, Any] = {}
    if state is not None:
        out = jcopy(dict(state)) if copy else dict(state)
    for coll in spec.state_schema.collections:
        out.setdefault(coll.name, {})
    return out
