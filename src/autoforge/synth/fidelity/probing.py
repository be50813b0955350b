"""Differential probing: does a synthesized environment behave like a reference implementation?

``autoforge fidelity ENV --against REF`` with REF a Python module of reference tool functions
``f(state, **arguments)`` over the same state (the bookstore example's hand-written
``tools.py``), or a live HTTP API described by an OpenAPI document (``http://host:port`` plus
``--openapi FILE``). Probes are generated from the environment's docs and data:

* **valid** calls on one record in every status the data shows (the tool's key parameter names
  it; the other arguments are valid sample values);
* **precondition** violations for each rule :mod:`autoforge.synth.rulecode.doc_rules` extracts (a
value
  past a documented range, one outside a documented list);
* **unknown id**: the key parameter names no record;
* **wrong type**: a parameter gets a value of another JSON type.

Each probe runs from the same initial state on both sides. Agreement is reported per tool on
acceptance/refusal, on the returned value (both accepted, compared after
:func:`autoforge.synth.fidelity.agreement.normalize_result`) and on the state change (not available
for
HTTP references, whose state is not visible), with the disagreeing probes listed; every figure
is also computed for the null environment (accepts everything, returns nothing, changes
nothing) by the same code.
"""

from __future__ import annotations

import ast
import copy
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from autoforge.env import EnvDir, Environment, EnvironmentSpec, RuleSet
from autoforge.errors import AutoforgeError, UserError
from autoforge.lexicon import environment_rules
from autoforge.synth.checking.teststate import happy_arguments
from autoforge.synth.fidelity.agreement import results_equal
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.rulecode.doc_rules import status_values
from autoforge.synth.rulecode.effects import tool_entry_flags

PROBE_SCHEMA_VERSION = 1
UNKNOWN_ID = "UNKNOWN-404"


@dataclass
class Probe:
    """One call to make on both sides."""

    tool: str
    kind: str
    arguments: dict[str, Any]


@dataclass
class Outcome:
    """What one side did with a probe. ``state`` is None when the side's state is not visible."""

    ok: bool
    result: Any
    state: Any = None
    message: str = ""


class Side(Protocol):
    """An implementation that can run one probe from the initial state."""

    def run(self, probe: Probe) -> Outcome: ...


# -- sides -------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


class EnvSide:
    """A synthesized environment (any :class:`autoforge.env.Environment`)."""

    def __init__(self, env: Environment) -> None:
        self.env = env

    def run(self, probe: Probe) -> Outcome:
        ep = self.env.episode()
        obs = ep.call(probe.tool, probe.arguments)
        return Outcome(
            ok=obs.ok, result=obs.content if obs.ok else None, state=ep.snapshot(),
            message="" if obs.ok else obs.content,
        )  # fmt: skip


class NullSide:
    """The do-nothing baseline: accepts every call, returns nothing, changes nothing."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.state = _plain(state)

    def run(self, probe: Probe) -> Outcome:
        return Outcome(ok=True, result=None, state=self.state)


class PythonSide:
    """Reference tool functions ``f(state, **arguments)`` loaded from a Python file.

    The file runs behind the same containment boundary as synthesized tools (a reference may
    itself be another forged environment's ``tools.py``): it is loaded as an environment over
    ``spec``'s tools that it defines, and every probe is one call of a fresh episode from
    ``state``. Arguments that break the documented schema, and anything the function raises,
    are refusals, as the API in front of such functions would answer.
    """

    def __init__(self, path: Path, state: Mapping[str, Any], spec: EnvironmentSpec) -> None:
        if not path.is_file():
            raise UserError(f"--against {path}: no such Python file")
        source = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(source, str(path))
        except SyntaxError as exc:
            raise UserError(f"--against {path}: cannot load ({exc})") from None
        self.functions = {
            n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name[:1] != "_"
        }
        tools = [t for t in spec.tools if t.name in self.functions]
        ref_spec = spec.model_copy(update={"tools": tools})
        # tools the environment lacks are only reported (missing_tools), never probed: their
        # definitions are left out so the file loads against the documented tools it shares
        keep = {t.name for t in tools}
        tree.body = [
            n
            for n in tree.body
            if not (isinstance(n, ast.FunctionDef) and n.name in self.functions - keep)
        ]
        source = ast.unparse(tree)
        try:
            self.env = Environment.from_parts(ref_spec, source, initial_state=dict(state))
        except AutoforgeError as exc:
            raise UserError(f"--against {path}: cannot load ({exc})") from None
        self.state = _plain(state)

    def run(self, probe: Probe) -> Outcome:
        if probe.tool not in self.functions:
            state = copy.deepcopy(self.state)
            return Outcome(ok=False, result=None, state=state, message="no such reference tool")
        episode = self.env.episode()
        obs = episode.call(probe.tool, probe.arguments)
        state = _plain(episode.snapshot())
        if not obs.ok:
            return Outcome(ok=False, result=None, state=state, message=obs.content)
        return Outcome(ok=True, result=_plain(obs.result), state=state)


class HttpSide:
    """A live HTTP API: each tool is the OpenAPI operation with that ``operationId``.

    Path parameters go into the path, ``in: query`` ones into the query string, the rest into a
    JSON body. A 2xx answer is an acceptance (its JSON body the result), anything else a
    refusal. ``reset`` (a path) is POSTed before every probe when given, so each probe starts
    from the server's initial state.
    """

    def __init__(self, base_url: str, openapi: Mapping[str, Any], reset: str | None = None):
        try:
            import httpx
        except ImportError:  # pragma: no cover - httpx comes with the [serve] extra
            raise UserError(
                "probing an HTTP API needs httpx: pip install 'autoforge[serve]'"
            ) from None
        self.client = httpx.Client(base_url=base_url.rstrip("/"), timeout=10.0)
        self.operations = operations(openapi)
        self.reset = reset

    def run(self, probe: Probe) -> Outcome:
        if self.reset:
            self.client.post(self.reset)
        op = self.operations.get(probe.tool)
        if op is None:
            return Outcome(ok=False, result=None, message="no operation with this operationId")
        method, path, in_path, in_query = op
        args = dict(probe.arguments)
        for name in in_path:
            path = path.replace("{" + name + "}", str(args.pop(name, "")))
        query = {k: args.pop(k) for k in list(args) if k in in_query}
        query = {k: json.dumps(v) if isinstance(v, dict | list) else v for k, v in query.items()}
        body = args if method not in ("get", "delete") else None
        resp = self.client.request(method.upper(), path, params=query, json=body)
        try:
            payload = resp.json()
        except ValueError:
            payload = resp.text
        ok = 200 <= resp.status_code < 300
        return Outcome(ok=ok, result=payload if ok else None, message="" if ok else resp.text)


def operations(openapi: Mapping[str, Any]) -> dict[str, tuple[str, str, set[str], set[str]]]:
    """``operationId -> (method, path, path parameter names, query parameter names)``."""
    out: dict[str, tuple[str, str, set[str], set[str]]] = {}
    for path, item in (openapi.get("paths") or {}).items():
        for method, op in (item or {}).items():
            if not isinstance(op, dict) or "operationId" not in op:
                continue
            params = [*(item.get("parameters") or []), *(op.get("parameters") or [])]
            in_path = {p["name"] for p in params if isinstance(p, dict) and p.get("in") == "path"}
            in_query = {p["name"] for p in params if isinstance(p, dict) and p.get("in") == "query"}
            out[str(op["operationId"])] = (method.lower(), str(path), in_path, in_query)
    return out


# -- probes ------------------------------------------------------------------------------------

_WRONG_TYPE: dict[str, Any] = {
    "string": 12345,
    "integer": "not a number",
    "number": "not a number",
    "boolean": "not a boolean",
    "array": "not a list",
    "object": "not an object",
}


def make_probes(
    spec: Any, state: Mapping[str, Any], max_per_kind: int = 6, rules: RuleSet | None = None
) -> list[Probe]:
    """The probes for every tool of the environment spec ``spec`` over ``state``, violating
    each of ``rules`` (the environment's ``rules.json``, :meth:`EnvDir.read_rules`; without
    it, the rules extracted from the spec now by the same extractor)."""
    schema = spec.state_schema
    rules = rules if rules is not None else environment_rules(spec, state)
    probes: list[Probe] = []
    for tool in spec.tools:
        c = classify_tool(tool, schema)
        flags = tool_entry_flags(tool, spec.policy, schema)
        base = happy_arguments(tool, c, schema, dict(state), flags)
        coll = schema.collection(c.collection) if c.collection else None
        found: list[Probe] = [Probe(tool.name, "valid", dict(base))]
        if coll is not None and c.key_param is not None:
            found += _status_probes(tool.name, base, c.key_param, coll, state)
            found.append(Probe(tool.name, "unknown id", {**base, c.key_param: UNKNOWN_ID}))
        found += _rule_probes(tool.name, base, rules.for_tool(tool.name))
        found += _type_probes(tool, base)
        probes += _cap(found, max_per_kind)
    return probes


def _status_probes(
    tool: str,
    base: dict[str, Any],
    key: str,
    coll: Any,
    state: Mapping[str, Any],
) -> list[Probe]:
    """One valid call per status the data shows, on a record in that status."""
    found = status_values(coll, state)
    if found is None:
        return []
    attr, values = found
    records = state.get(coll.name) or {}
    out: list[Probe] = []
    for value in values:
        pk = next(
            (k for k, r in records.items() if isinstance(r, dict) and r.get(attr) == value), None
        )
        if pk is not None and pk != base.get(key):
            out.append(Probe(tool, f"valid, {attr}={value}", {**base, key: pk}))
    return out


def _rule_probes(tool: str, base: dict[str, Any], rules: list[Any]) -> list[Probe]:
    out: list[Probe] = []
    for rule in rules:
        if rule.kind == "range" and rule.high is not None and rule.high != float("inf"):
            value = rule.high + 1
            out.append(
                Probe(tool, f"violates: {rule.describe()}", {**base, rule.param: int(value)})
            )
        elif rule.kind == "range" and rule.low is not None and rule.low != float("-inf"):
            out.append(
                Probe(tool, f"violates: {rule.describe()}", {**base, rule.param: int(rule.low - 1)})
            )
        elif rule.kind == "enum":
            out.append(
                Probe(tool, f"violates: {rule.describe()}", {**base, rule.param: "not_listed"})
            )
    return out


def _type_probes(tool: Any, base: dict[str, Any]) -> list[Probe]:
    props = tool.parameters.get("properties", {})
    out: list[Probe] = []
    for param in tool.required or list(props)[:1]:
        typ = (props.get(param) or {}).get("type")
        if isinstance(typ, str) and typ in _WRONG_TYPE:
            out.append(Probe(tool.name, f"wrong type: {param}", {**base, param: _WRONG_TYPE[typ]}))
    return out[:2]


def _cap(probes: list[Probe], n: int) -> list[Probe]:
    """At most ``n`` probes of each kind prefix, in order (a tool with 30 statuses stays small)."""
    seen: dict[str, int] = {}
    out = []
    for p in probes:
        prefix = p.kind.split(",")[0].split(":")[0]
        seen[prefix] = seen.get(prefix, 0) + 1
        if seen[prefix] <= n:
            out.append(p)
    return out


# -- comparison and report ---------------------------------------------------------------------


class ToolProbes(BaseModel):
    """Agreement of one tool over its probes."""

    probes: int = 0
    acceptance_agree: int = 0
    both_accepted: int = 0
    result_agree: int = 0
    state_compared: int = 0
    state_agree: int = 0


class ProbeFigures(BaseModel):
    """Shares over all probes: acceptance/refusal, result (where both accepted), state."""

    probes: int = 0
    refusal_agreement: float = 0.0
    result_agreement: float = 0.0
    state_agreement: float | None = None
    reference_refusals: int = 0
    refusals_matched: int = 0

    def rounded(self) -> dict[str, Any]:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in self.model_dump().items()}


class Disagreement(BaseModel):
    """One probe on which the environment and the reference differ."""

    tool: str
    kind: str
    arguments: dict[str, Any]
    what: list[str]
    ours: str
    reference: str


class ProbeReport(BaseModel):
    """What ``autoforge fidelity ENV --against REF`` writes for a module or HTTP reference."""

    schema_version: int = PROBE_SCHEMA_VERSION
    env: str
    against: str
    figures: ProbeFigures = Field(default_factory=ProbeFigures)
    null: ProbeFigures = Field(default_factory=ProbeFigures)
    per_tool: dict[str, ToolProbes] = Field(default_factory=dict)
    missing_tools: list[str] = Field(
        default_factory=list, description="reference tools the environment lacks (not probed)"
    )
    disagreements: list[Disagreement] = Field(default_factory=list)
    wall_s: float = 0.0

    def headline(self) -> dict[str, Any]:
        """The JSON the CLI or a benchmark prints."""
        return {
            **self.figures.rounded(),
            "null": self.null.rounded(),
            "per_tool": {
                k: {
                    "probes": t.probes,
                    "acceptance": f"{t.acceptance_agree}/{t.probes}",
                    "results": f"{t.result_agree}/{t.both_accepted}",
                    "state": f"{t.state_agree}/{t.state_compared}",
                }
                for k, t in sorted(self.per_tool.items())
            },
            "missing_tools": self.missing_tools,
            "disagreements": len(self.disagreements),
        }


def _state_equal(a: Any, b: Any) -> bool:
    from autoforge.synth.fidelity.bench import normalize

    return json.dumps(normalize(a), sort_keys=True) == json.dumps(normalize(b), sort_keys=True)


def _short(out: Outcome) -> str:
    if not out.ok:
        return f"refused: {out.message[:160]}"
    text = out.result if isinstance(out.result, str) else json.dumps(out.result, default=str)
    return f"accepted: {text[:160]}"


def compare(
    probes: list[Probe], ours: Side, ref: Side
) -> tuple[ProbeFigures, dict[str, ToolProbes], list[Disagreement]]:
    """Run every probe on both sides; per-tool counts, overall figures, disagreements."""
    per_tool: dict[str, ToolProbes] = {}
    issues: list[Disagreement] = []
    fig = ProbeFigures(probes=len(probes))
    for probe in probes:
        a, b = ours.run(probe), ref.run(probe)
        t = per_tool.setdefault(probe.tool, ToolProbes())
        t.probes += 1
        what: list[str] = []
        if a.ok == b.ok:
            t.acceptance_agree += 1
        else:
            what.append("acceptance")
        fig.reference_refusals += not b.ok
        fig.refusals_matched += (not b.ok) and not a.ok
        if a.ok and b.ok:
            t.both_accepted += 1
            if results_equal(a.result, b.result):
                t.result_agree += 1
            else:
                what.append("result")
        if a.state is not None and b.state is not None:
            t.state_compared += 1
            if _state_equal(a.state, b.state):
                t.state_agree += 1
            else:
                what.append("state")
        if what:
            issues.append(
                Disagreement(tool=probe.tool, kind=probe.kind, arguments=probe.arguments,
                             what=what, ours=_short(a), reference=_short(b))
            )  # fmt: skip
    tools = per_tool.values()
    if probes:
        fig.refusal_agreement = sum(t.acceptance_agree for t in tools) / len(probes)
    both = sum(t.both_accepted for t in tools)
    fig.result_agreement = sum(t.result_agree for t in tools) / both if both else 0.0
    compared = sum(t.state_compared for t in tools)
    fig.state_agreement = sum(t.state_agree for t in tools) / compared if compared else None
    return fig, per_tool, issues


def load_openapi(path: Path) -> dict[str, Any]:
    """An OpenAPI document (JSON or YAML) as a dict."""
    import yaml

    if not path.is_file():
        raise UserError(f"--openapi {path}: no such file")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "paths" not in data:
        raise UserError(f"--openapi {path}: not an OpenAPI document (no 'paths')")
    return data


def run_probes(
    env_dir: Path,
    against: str,
    *,
    openapi: Path | None = None,
    reset: str | None = None,
) -> ProbeReport:
    """Probe the environment at ``env_dir`` against a Python reference file or an HTTP API."""
    start = time.monotonic()
    env = Environment.load(env_dir)
    state = env.episode().snapshot()
    ref: Side
    if against.startswith(("http://", "https://")):
        if openapi is None:
            raise UserError(f"--against {against}: an HTTP reference needs --openapi FILE")
        ref = HttpSide(against, load_openapi(openapi), reset)
    else:
        ref = PythonSide(Path(against), state, env.spec)
    probes = make_probes(env.spec, state, rules=EnvDir(Path(env_dir)).read_rules())
    report = ProbeReport(env=str(env_dir), against=against)
    report.figures, report.per_tool, report.disagreements = compare(probes, EnvSide(env), ref)
    report.null, _, _ = compare(probes, NullSide(state), ref)
    known = {t.name for t in env.spec.tools}
    if isinstance(ref, HttpSide):
        report.figures.state_agreement = report.null.state_agreement = None
        report.missing_tools = sorted(set(ref.operations) - known)
    else:
        report.missing_tools = sorted(set(ref.functions) - known)
    report.wall_s = round(time.monotonic() - start, 2)
    return report
