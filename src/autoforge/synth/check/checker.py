"""The conformance checker: does an environment behave like a verifiable RL environment?

``check_environment(env) -> CheckReport`` (pure apart from running the tools) checks:

* ``load``: the spec parses, every schema is valid, every tool has exactly one implementation
  with the documented signature, the code passes the sandbox (done by loading; a directory that
  does not load gives a report with one failed ``load`` item via :func:`check_directory`);
* ``no_crash``: calls with arguments sampled from the initial state end in a result or a
  ``ToolError``, never a crash, timeout or sandbox limit (results are JSON by construction);
* ``read_only``: tools documented with ``access="read"`` leave the state hash unchanged;
* ``unknown_id``: a made-up value for an id parameter gives a ``ToolError`` observation (an
  accepted unknown id is a warning: creating tools may legitimately take new ids);
* ``deterministic``: replaying the same call sequence twice gives the same observations and
  the same final hash;
* ``reset``: ``reset()`` brings the initial hash back;
* ``data``: records sit under their own primary key (warnings);
* ``roundtrip``, ``paging``, ``secret``: what the tools of one collection promise each other
  (create then get finds it, update then get shows the change and nothing else, delete then
  get refuses, a page size pages, a sign-in returns no secret:
  :mod:`autoforge.synth.check.roundtrip`).

Call sequences come from ``sequences.json`` (a list of lists of ``{"tool", "arguments"}``)
when given, else from the sampled calls. By default everything runs in an isolated episode
(a worker subprocess), because the code under check is not trusted yet.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from autoforge.env import (
    Environment,
    EnvLoadError,
    Episode,
    Mode,
    Observation,
    SandboxViolation,
    describe_boundary,
    probe_boundary,
)
from autoforge.synth.check.roundtrip import round_trip_findings
from autoforge.synth.check.stated import CHECK_NAME, stated_rules
from autoforge.tooldocs import ToolSpec

CHECK_SCHEMA_VERSION = 1
UNKNOWN_ID = "zz-unknown-0000"
STATED = CHECK_NAME
MAX_SAMPLES = 3
_BROKEN = ("crash", "timeout", "sandbox")

Severity = Literal["error", "warning"]
Call = dict[str, Any]


class CheckItem(BaseModel):
    """One finding (or one passed check)."""

    check: str
    ok: bool
    tool: str | None = None
    severity: Severity = "error"
    detail: str = ""


class CheckReport(BaseModel):
    """The outcome of checking one environment."""

    schema_version: int = CHECK_SCHEMA_VERSION
    env_name: str
    ok: bool
    items: list[CheckItem] = Field(default_factory=list)
    calls: int = 0
    elapsed_s: float = 0.0
    boundary: str = Field(default="", description="what separated the tool code from the host")

    @property
    def failures(self) -> list[CheckItem]:
        """Failed items that are errors."""
        return [i for i in self.items if not i.ok and i.severity == "error"]

    @property
    def warnings(self) -> list[CheckItem]:
        """Failed items that are only warnings."""
        return [i for i in self.items if not i.ok and i.severity == "warning"]


# -- argument sampling -----------------------------------------------------------------------


def value_index(state: Mapping[str, Any], limit: int = MAX_SAMPLES) -> dict[str, list[Any]]:
    """Up to ``limit`` distinct scalar values per attribute name, over every record.

    Keys of a collection are indexed under the names of the attributes that hold them, so
    ``order_id`` finds the keys of ``orders`` even when records do not repeat their key.
    """
    index: dict[str, list[Any]] = {}

    def add(name: str, value: Any) -> None:
        values = index.setdefault(name, [])
        if len(values) < limit and value not in values:
            values.append(value)

    for collection in state.values():
        if not isinstance(collection, Mapping):
            continue
        for key, record in collection.items():
            if not isinstance(record, Mapping):
                continue
            for name, value in record.items():
                if isinstance(value, (str, int, float, bool)) and value == key:
                    add(str(name), key)
                elif isinstance(value, (str, int, float, bool)):
                    add(str(name), value)
    return index


def dummy_value(schema: Mapping[str, Any]) -> Any:
    """A schema-valid placeholder for a parameter no state attribute matches."""
    if schema.get("enum"):
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "array":
        items = schema.get("items")
        return [dummy_value(items)] if isinstance(items, Mapping) else []
    if kind == "object":
        props = schema.get("properties", {})
        return {p: dummy_value(props[p]) for p in schema.get("required", []) if p in props}
    minimum = schema.get("minimum", 1)
    defaults: dict[str, Any] = {
        "integer": int(minimum),
        "number": float(minimum),
        "boolean": False,
        "null": None,
    }
    return defaults.get(str(kind), "x")


def sample_calls(tool: ToolSpec, index: Mapping[str, list[Any]]) -> list[dict[str, Any]]:
    """Up to :data:`MAX_SAMPLES` argument sets: required parameters, then all parameters."""
    props: dict[str, Any] = tool.parameters.get("properties", {})
    required = [p for p in tool.param_names if p in tool.required]
    out: list[dict[str, Any]] = []
    for i in range(MAX_SAMPLES):
        names = required if i == 0 or len(required) == len(props) else list(props)
        args = {}
        for name in names:
            values = [v for v in index.get(name, []) if _fits(v, props.get(name, {}))]
            args[name] = values[i % len(values)] if values else dummy_value(props.get(name, {}))
        if args not in out:
            out.append(args)
    return out


def _fits(value: Any, schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    tests = {
        "string": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
    }
    if "enum" in schema and value not in schema["enum"]:
        return False
    return tests.get(kind, True) if isinstance(kind, str) else True


def id_parameters(env: Environment, tool: ToolSpec) -> list[str]:
    """Parameters that hold a record id (a primary-key name or an ``id``-typed attribute)."""
    keys = {c.primary_key for c in env.spec.state_schema.collections}
    id_attrs = {
        a.name
        for c in env.spec.state_schema.collections
        for a in c.attributes
        if a.type == "id" or a.references
    }
    props = tool.parameters.get("properties", {})
    return [
        p
        for p in tool.param_names
        if (p in keys or p in id_attrs or p.endswith("_id"))
        and props.get(p, {}).get("type", "string") == "string"
        and "enum" not in props.get(p, {})
    ]


# -- the checks ------------------------------------------------------------------------------


class _Probe:
    """Runs calls on one (reused) episode and records every observation."""

    def __init__(self, env: Environment, mode: Mode) -> None:
        self.episode: Episode = env.episode(mode=mode)
        self.initial_hash = self.episode.state_hash()
        self.calls = 0

    def run(self, sequence: Sequence[Call]) -> tuple[list[Observation], str]:
        self.episode.reset()
        observations = []
        for call in sequence:
            observations.append(self.episode.call(call["tool"], call.get("arguments", {})))
            self.calls += 1
        return observations, self.episode.state_hash()


def _broken(obs: Observation, call: Call) -> CheckItem | None:
    if obs.error_kind in _BROKEN:
        detail = f"{call['tool']}({call.get('arguments', {})}) -> {obs.content[:300]}"
        return CheckItem(check="no_crash", ok=False, tool=call["tool"], detail=detail)
    return None


def _check_tool(env: Environment, probe: _Probe, tool: ToolSpec, index: Any) -> list[CheckItem]:
    items: list[CheckItem] = []
    for args in sample_calls(tool, index):
        call = {"tool": tool.name, "arguments": args}
        (obs,), after = probe.run([call])
        broken = _broken(obs, call)
        if broken is not None:
            items.append(broken)
        elif tool.access == "read" and after != probe.initial_hash:
            detail = f"{tool.name}({args}) changed the state but the tool is documented as read"
            items.append(CheckItem(check="read_only", ok=False, tool=tool.name, detail=detail))
    for param in id_parameters(env, tool):
        args = {p: v for p, v in sample_calls(tool, index)[0].items()}
        args[param] = UNKNOWN_ID
        (obs,), _ = probe.run([{"tool": tool.name, "arguments": args}])
        if obs.error_kind in _BROKEN:
            detail = f"{tool.name} with unknown {param}={UNKNOWN_ID!r}: {obs.content[:300]}"
            items.append(CheckItem(check="unknown_id", ok=False, tool=tool.name, detail=detail))
        elif obs.ok:
            detail = f"{tool.name} accepted an unknown {param}={UNKNOWN_ID!r}"
            items.append(
                CheckItem(
                    check="unknown_id", ok=False, tool=tool.name, severity="warning", detail=detail
                )
            )
    if not items:
        items.append(CheckItem(check="tool", ok=True, tool=tool.name))
    return items


def _check_round_trips(env: Environment, probe: _Probe, index: Any) -> list[CheckItem]:
    """The round trips the docs imply (:mod:`autoforge.synth.check.roundtrip`)."""

    def run(calls: Sequence[Call]) -> list[Observation]:
        return probe.run(calls)[0]

    found = round_trip_findings(env.spec, run, lambda tool: sample_calls(tool, index))
    if not found:
        return [CheckItem(check="roundtrip", ok=True)]
    return [CheckItem(check=c, ok=False, tool=t, detail=d) for c, t, d in found]


def _check_sequences(probe: _Probe, sequences: Sequence[Sequence[Call]]) -> list[CheckItem]:
    items: list[CheckItem] = []
    for n, sequence in enumerate(sequences):
        first, hash1 = probe.run(sequence)
        second, hash2 = probe.run(sequence)
        items += [b for o, c in zip(first, sequence, strict=True) if (b := _broken(o, c))]
        same = [o.content for o in first] == [o.content for o in second] and hash1 == hash2
        detail = "" if same else f"sequence {n}: two replays gave different observations/states"
        items.append(CheckItem(check="deterministic", ok=same, detail=detail))
        probe.episode.reset()
        back = probe.episode.state_hash() == probe.initial_hash
        detail = "" if back else f"sequence {n}: reset() did not restore the initial hash"
        items.append(CheckItem(check="reset", ok=back, detail=detail))
    return items


def _check_data(env: Environment) -> list[CheckItem]:
    items = []
    for coll in env.spec.state_schema.collections:
        records = env.initial_state.get(coll.name, {})
        if not isinstance(records, Mapping):
            detail = f"collection '{coll.name}' is not an object keyed by {coll.primary_key}"
            items.append(CheckItem(check="data", ok=False, detail=detail))
            continue
        wrong = [
            k
            for k, r in records.items()
            if isinstance(r, Mapping)
            and coll.primary_key in r
            and r[coll.primary_key] != coll.key_value(k)
        ]
        if wrong:
            detail = f"{coll.name}: records {wrong[:3]} are not keyed by their {coll.primary_key}"
            items.append(CheckItem(check="data", ok=False, severity="warning", detail=detail))
    return items


def check_environment(
    env: Environment,
    sequences: Sequence[Sequence[Call]] | None = None,
    *,
    mode: Mode = "isolated",
) -> CheckReport:
    """Check ``env`` (see the module doc); ``sequences`` default to the sampled calls."""
    start = time.monotonic()
    index = value_index(env.initial_state)
    items = [CheckItem(check="load", ok=True, detail=f"{len(env.tools)} tools")]
    probe = _Probe(env, mode)
    try:
        for tool in env.spec.tools:
            items += _check_tool(env, probe, tool, index)
        if sequences is None:
            sequences = [
                [
                    {"tool": t.name, "arguments": a}
                    for t in env.spec.tools
                    for a in sample_calls(t, index)
                ]
            ]
        items += _check_sequences(probe, sequences)
        items += _check_round_trips(env, probe, index)
    finally:
        probe.episode.close()
    items += _check_data(env)
    ok = not any(not i.ok and i.severity == "error" for i in items)
    return CheckReport(
        env_name=env.spec.name,
        ok=ok,
        items=items,
        calls=probe.calls,
        elapsed_s=round(time.monotonic() - start, 3),
        boundary=describe_boundary(env.boundary),
    )


def read_sequences(path: Path) -> list[list[Call]]:
    """Call sequences from a JSON file: a list of lists of ``{"tool", "arguments"}``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise EnvLoadError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    ok = isinstance(data, list) and all(
        isinstance(seq, list)
        and all(isinstance(c, dict) and isinstance(c.get("tool"), str) for c in seq)
        for seq in data
    )
    if not ok:
        raise EnvLoadError(
            f'{path}: expected a list of lists of {{"tool": ..., "arguments": {{...}}}}'
        )
    return data


def check_directory(
    env_dir: str | Path,
    sequences_file: str | Path | None = None,
    *,
    mode: Mode = "isolated",
) -> CheckReport:
    """Load and check an environment directory; a load failure is a failed ``load`` item.

    Sequences come from ``sequences_file``, else from ``sequences.json`` in the directory
    when present, else from sampled calls.
    """
    root = Path(env_dir)
    start = time.monotonic()
    try:  # --inline means the code was reviewed: it may then run in this process
        env = Environment.load(root, trusted=mode == "inline")
    except (EnvLoadError, SandboxViolation) as exc:
        item = CheckItem(check="load", ok=False, detail=f"{type(exc).__name__}: {exc}")
        elapsed = round(time.monotonic() - start, 3)
        where = "inline (trusted)" if mode == "inline" else describe_boundary(probe_boundary())
        return CheckReport(
            env_name=root.name, ok=False, items=[item], elapsed_s=elapsed, boundary=where
        )
    path = Path(sequences_file) if sequences_file else root / "sequences.json"
    sequences = read_sequences(path) if sequences_file or path.is_file() else None
    report = check_environment(env, sequences, mode=mode)
    report.items += _stated_items(root, env)
    report.ok = report.ok and not any(
        i.check == STATED and not i.ok and i.severity == "error" for i in report.items
    )
    return report


def _stated_items(root: Path, env: Environment) -> list[CheckItem]:
    """The stated-rules check (:mod:`autoforge.synth.check.stated`): per tool, one item listing the
    enforced sentences, and one error per rule its description states that nothing carries."""
    verdicts = stated_rules(root, env.spec)
    items: list[CheckItem] = []
    for v in verdicts or []:
        shown = " | ".join(v.enforced) or "none"
        items.append(CheckItem(check=STATED, ok=True, tool=v.tool, detail=f"enforced: {shown}"))
        for s in v.unenforced:
            if v.compiled:
                detail = f"stated but not enforced by any guard or effect: {s!r}"
                items.append(CheckItem(check=STATED, ok=False, tool=v.tool, detail=detail))
            else:  # code another stage wrote: its own guards are not modelled
                detail = f"stated, not in the behaviour model (its code may enforce it): {s!r}"
                items.append(
                    CheckItem(
                        check=STATED, ok=False, tool=v.tool, severity="warning", detail=detail
                    )
                )
    return items
