"""``report.html`` of a forge run: one self-contained page built from the run's artifacts.

Sections: overview (headline figures), stages (status, time, tokens), environment (state schema,
tools with their synthesis status, conformance check), the tool graph (SVG), tasks (difficulty
histograms, rejection reasons) and a gallery of tasks (blueprint DAG, question, gold calls,
reasoning steps, required outputs, verification). Every artifact is optional, so the page also
renders for a run stopped early (``--until``) or one that failed half-way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoforge.env import Attribute, EnvironmentSpec, RuleSet
from autoforge.errors import AutoforgeError
from autoforge.forge.layout import STAGE_HELP, STAGES, RunLayout
from autoforge.forge.manifest import RunManifest, load_manifest, read_json, write_atomic
from autoforge.forge.summary import (
    checks_cell,
    failed_tools,
    rejection_text,
    run_failure,
    task_shortfall,
)
from autoforge.forge.verify import VerifyReport
from autoforge.lexicon import dir_rules, tool_access
from autoforge.report import (
    Cell,
    Markup,
    adjacency_table,
    badge,
    bars,
    card,
    code_json,
    details,
    esc,
    gallery,
    hbars,
    histogram,
    join,
    page,
    section,
    table,
    tag,
    tool_graph_svg,
)
from autoforge.tasks import Task, TaskSet, ToolGraph

#: How many tasks the gallery shows (the rest are counted, not drawn, to keep the page light).
GALLERY_LIMIT = 40
HIST_METRICS = ("tool_calls", "reasoning_nodes", "distinct_tools", "write_calls", "depth")


@dataclass
class RunData:
    """The artifacts of a run directory, each None/empty when absent."""

    layout: RunLayout
    manifest: RunManifest
    spec: EnvironmentSpec | None = None
    synthesis: dict[str, Any] | None = None
    check: dict[str, Any] | None = None
    graph: ToolGraph | None = None
    tasks: list[Task] = field(default_factory=list)
    generation: dict[str, Any] | None = None
    verify: VerifyReport | None = None
    rules: RuleSet | None = None


def _writes(spec: EnvironmentSpec | None) -> int | None:
    """The environment's write tools, None without an environment."""
    return sum(tool_access(t) == "write" for t in spec.tools) if spec is not None else None


def run_shortfall(run_dir: Path, manifest: RunManifest) -> list[str]:
    """:func:`task_shortfall` of the run in ``run_dir``, from the files it wrote."""
    layout = RunLayout(run_dir)
    try:
        spec: EnvironmentSpec | None = layout.env_dir.read_spec()
    except Exception:  # no environment written: its write tools are not known
        spec = None
    synthesis, generation = read_json(layout.env_dir.report_path), read_json(layout.generation)
    return task_shortfall(manifest, synthesis, generation, _writes(spec))


def load_run(run_dir: Path, manifest: RunManifest | None = None) -> RunData:
    """Read whatever artifacts ``run_dir`` holds."""
    layout = RunLayout(run_dir)
    data = RunData(layout=layout, manifest=manifest or load_manifest(run_dir))
    spec = read_json(layout.env_dir.spec_path)
    data.spec = EnvironmentSpec.model_validate(spec) if spec else None
    data.synthesis = read_json(layout.env_dir.report_path)
    data.check = read_json(layout.check)
    graph = read_json(layout.graph)
    data.graph = ToolGraph.model_validate(graph) if graph else None
    data.tasks = TaskSet(layout.tasks).load()
    data.generation = read_json(layout.generation)
    verify = read_json(layout.verify)
    data.verify = VerifyReport.model_validate(verify) if verify else None
    data.rules = _read_rules(layout) if data.spec is not None else None
    return data


def _read_rules(layout: RunLayout) -> RuleSet | None:
    """The environment's rules (``rules.json``, else extracted from its spec); None when the
    environment directory cannot be read (the report then says so instead of failing)."""
    try:
        return dir_rules(layout.env_dir)
    except (AutoforgeError, OSError, ValueError):
        return None


# -------------------------------------------------------------------------------- overview


def _overview(d: RunData) -> Markup:
    m = d.manifest
    tokens = m.tokens
    gen = d.generation or {}
    tasks_note = f"asked {m.options.get('tasks', '?')}, {m.options.get('difficulty', '')}"
    cards = [
        card("tools", str(len(d.spec.tools)) if d.spec else "-", d.spec.name if d.spec else ""),
        card("tasks", str(len(d.tasks)), tasks_note),
        card("accept rate", f"{100 * gen.get('accept_rate', 0):.0f}%" if gen else "-",
             f"{gen.get('attempts', 0)} attempts" if gen else ""),
    ]  # fmt: skip
    if d.check:
        empty = d.spec is not None and not d.spec.tools  # nothing ran: no check passed
        ok = bool(d.check.get("ok")) and not empty
        errors = len(d.check.get("errors") or [])
        note = (
            "no tool to check"
            if empty
            else (f"{errors} errors, {len(d.check.get('warnings') or [])} warnings")
        )
        cards.append(card("env check", "passed" if ok else "failed", note,
                          "ok" if ok else "bad"))  # fmt: skip
    if d.verify is not None:
        ok = d.verify.verified == d.verify.total
        cards.append(card("verified", f"{d.verify.verified}/{d.verify.total}",
                          "gold calls replay to S*", "ok" if ok else "bad"))  # fmt: skip
    cards += [
        card("time", _duration(m.seconds), f"{m.sessions} session(s)"),
        card(
            "LLM tokens",
            f"{tokens.total_tokens:,}",
            f"{tokens.calls} calls"
            + (f" ({tokens.cache_hits} from the cache)" if tokens.cache_hits else "")
            + f", model {m.model or '-'}",
        ),
    ]
    inputs = {k: v for k, v in m.options.items() if v not in (None, [], False)}
    body = [_failures(d), _rules_only_note(d), _samples(d.tasks),
            tag("div", join(cards), cls="cards"), _knowledge(d),
            details("options of the last run", code_json(inputs))]  # fmt: skip
    return join(body)


def _readings(d: RunData) -> Markup | str:
    """What the model read into the behaviour model, and what was kept (with a model only)."""
    rec = d.manifest.stages.get("environment")
    line = rec.detail.get("model_readings") if rec is not None else None
    if not line:
        return ""
    asked = [r for r in (d.synthesis or {}).get("model_readings", []) if isinstance(r, dict)]
    rows: list[list[Cell]] = [
        [r.get("tool", ""), r.get("kind", ""), r.get("text", ""),
         badge("kept", "ok") if r.get("kept") else "not grounded, dropped"]
        for r in asked
    ]  # fmt: skip
    grid = table(["tool", "kind", "sentence or amount", "reading"], rows)
    head = tag("p", join([tag("strong", "Model: "), str(line)]))
    return join([head, details("what the model was asked to read", grid)])


def _description(spec: EnvironmentSpec) -> str:
    """The environment's description without the policy text it may carry (a document whose
    description holds its policy): the policy has its own section below."""
    text, policy = spec.description or "", (spec.policy or "").strip()
    return " ".join(text.replace(policy, "").split()) if policy else text


def _failures(d: RunData) -> Markup | str:
    """What failed and why, first on the page: the run's verdict, the tools that did not
    become code, and why fewer tasks than asked were made."""
    lines = [f"tool {name} failed: {why}" for name, why in failed_tools(d.synthesis)]
    shortfall = task_shortfall(d.manifest, d.synthesis, d.generation, _writes(d.spec))
    lines += [x for x in shortfall if not x.startswith("tool ")]
    verdict = run_failure(d.manifest)
    if not lines and verdict is None:
        return ""
    head = badge("run failed", "bad") if verdict else badge("incomplete", "warn")
    title = join([head, " ", verdict or "what did not work"])
    return tag("div", join([tag("p", title), tag("ul", join(tag("li", x) for x in lines))]),
               cls="failures")  # fmt: skip


#: How many sample requests the first screen shows.
SAMPLES = 5


def sample_tasks(tasks: list[Task], limit: int = SAMPLES) -> list[Task]:
    """A handful of tasks to show first: round-robin over difficulty levels, in file order."""
    levels: dict[str, list[Task]] = {}
    for task in tasks:
        levels.setdefault(str(task.meta.get("difficulty", "")), []).append(task)
    picked: list[Task] = []
    while len(picked) < limit and any(levels.values()):
        for queue in levels.values():
            if queue and len(picked) < limit:
                picked.append(queue.pop(0))
    return picked


def _knowledge(d: RunData) -> Markup:
    """Per attribute: does the simulated user hold it, or must the agent find it (and why)."""
    rows = (d.generation or {}).get("knowledge") or []
    if not rows:
        return join([])
    cells: list[list[Cell]] = [
        [f"{r['collection']}.{r['attribute']}", "user" if r["held"] else "internal", r["reason"]]
        for r in rows
    ]
    return details("what the user knows, per attribute",
                   table(["attribute", "held by", "why (from the docs)"], cells))  # fmt: skip


def _samples(tasks: list[Task]) -> Markup:
    """What the tasks look like: the user's request of a few tasks, before anything else."""
    picked = sample_tasks(tasks)
    if not picked:
        return join([])
    items = [
        tag("li", join([badge(str(t.meta.get("difficulty", "task")), "info"), " ",
                        esc(t.scenario.question)]))
        for t in picked
    ]  # fmt: skip
    return join([tag("h3", "Sample requests"), tag("ul", join(items), cls="samples")])


def rules_only(d: RunData) -> bool:
    """Whether the run used no model (``--llm none``): synthesis report or manifest says so."""
    return bool((d.synthesis or {}).get("rules_only")) or d.manifest.model.startswith("none")


def _rules_only_note(d: RunData) -> Markup | str:
    if not rules_only(d):
        return ""
    text = ("Rules only (--llm none): no LLM was used. Tools come from code templates and "
            "rule skeletons, the state schema from naming rules, tool-graph edges from rules "
            "and scenarios from templates.")  # fmt: skip
    return tag("p", join([tag("span", "rules only", cls="badge warn"), " ", text]))


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f}s"
    return f"{int(seconds // 60)}m {int(seconds % 60):02d}s"


_STATUS_KIND = {
    "done": "ok",
    "partial": "warn",
    "failed": "bad",
    "running": "warn",
    "interrupted": "warn",
}


def _stages(d: RunData) -> Markup:
    rows: list[list[Cell]] = []
    for name in STAGES:
        rec = d.manifest.stages.get(name)
        if rec is None:
            rows.append([name, badge("pending"), "", "", "", "", "", STAGE_HELP[name]])
            continue
        status = badge(rec.status, _STATUS_KIND.get(rec.status, "neutral"))
        if name == "report" and rec.status == "running":
            status = badge("this page", "info")
        if rec.skipped_last:
            status = join([status, " ", badge("skipped on rerun", "info")])
        text = rec.error or str(rec.detail.get("summary", "")) or STAGE_HELP[name]
        rows.append([name, status, rec.sessions, rec.seconds, rec.tokens.calls,
                     rec.tokens.prompt_tokens, rec.tokens.completion_tokens, text])  # fmt: skip
    headers = ["stage", "status", "sessions", "seconds", "LLM calls", "prompt tok",
               "completion tok", "result"]  # fmt: skip
    out = [table(headers, rows, numeric=(2, 3, 4, 5, 6))]
    sub = (d.generation or {}).get("stage_seconds") or {}
    if sub:
        out.append(table(["task-generation step", "seconds"],
                         [[k, float(v)] for k, v in sub.items()], numeric=(1,),
                         caption="inside the tasks stage (last session)"))  # fmt: skip
    return join(out)


# ----------------------------------------------------------------------------- environment


def _type_text(a: Attribute) -> str:
    text: str = a.type
    if a.references:
        text += f" → {a.references}"
    if a.enum:
        text += ": " + " | ".join(a.enum)
    return text + (" (nullable)" if a.nullable else "")


def _schema(spec: EnvironmentSpec, provenance: dict[str, dict[str, str]]) -> Markup:
    """The state schema, with where each attribute came from (docs, data, model or rules)."""
    out = []
    for coll in spec.state_schema.collections:
        origins = provenance.get(coll.name, {})
        rows = [
            [tag("code", a.name), _type_text(a), origins.get(a.name, "?"), a.description]
            for a in coll.attributes
        ]
        caption = f"{coll.name} (key: {coll.primary_key}) {coll.description}".strip()
        out.append(table(["attribute", "type", "from", "description"], rows, caption=caption))
    return tag("div", join(out), cls="tables") if out else tag("p", "no collections", cls="muted")


_TOOL_KIND = {"accepted": "ok", "fallback": "warn", "failed": "bad"}


def _access(d: RunData, name: str) -> str:
    """read/write from the docs, else from the tool graph's classification."""
    assert d.spec is not None
    documented = next((t.access for t in d.spec.tools if t.name == name), None)
    if documented:
        return documented
    node = next((n for n in d.graph.nodes if n.name == name), None) if d.graph else None
    return f"{node.access} (inferred)" if node else ""


def _tools(d: RunData) -> Markup:
    assert d.spec is not None
    synth = {t["name"]: t for t in (d.synthesis or {}).get("tools", [])}
    kept = {t.name for t in d.spec.tools}
    names = list(synth) or [t.name for t in d.spec.tools]
    rows: list[list[Cell]] = []
    for name in names:
        t = synth.get(name)
        in_env = name in kept
        access = _access(d, name)
        if t is None:
            rows.append([tag("code", name), access, "given", "", badge("given", "info"),
                         "", "", "", ""])  # fmt: skip
            continue
        usage = t.get("usage") or {}
        status = badge(t["status"], _TOOL_KIND.get(t["status"], "neutral"))
        if not in_env:
            status = join([status, " ", badge("left out", "bad")])
        rows.append([tag("code", name), access, t.get("cls", ""), t.get("source", ""),
                     status, _why(t, in_env), t.get("attempts", 0), checks_cell(t),
                     usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0),
                     float(t.get("wall_s", 0.0))])  # fmt: skip
    headers = ["tool", "access", "class", "code source", "status", "why", "attempts", "checks",
               "tokens", "seconds"]  # fmt: skip
    return join([table(headers, rows, numeric=(6, 8, 9)), _tool_errors(synth)])


def _why(t: dict[str, Any], in_env: bool) -> str:
    """Why a tool is failed, partial or left out (its recorded reason, else its first error)."""
    if t.get("status") == "accepted" and in_env:
        return ""
    why = str(t.get("reason") or next(iter(t.get("errors") or []), ""))
    if not why and not in_env:
        why = "left out by the environment's conformance check"
    return why


def _tool_errors(synth: dict[str, dict[str, Any]]) -> Markup:
    """Why the tools that were not accepted failed, attempt by attempt."""
    blocks = []
    for name, t in synth.items():
        if t.get("status") == "accepted" or not t.get("errors"):
            continue
        items = join(tag("li", tag("code", e)) for e in t["errors"][:6])
        what = "failed" if t["status"] == "failed" else "fell back to the rule skeleton"
        blocks.append(details(f"why {name} {what}", tag("ul", items)))
    return join(blocks)


def _conformance(check: dict[str, Any] | None) -> Markup:
    if not check:
        return tag("p", "no conformance check recorded", cls="muted")
    ran = int(check.get("calls", 0) or 0)
    ok = bool(check.get("ok")) and ran > 0  # no call ran: nothing was checked
    verdict = badge("passed", "ok") if ok else badge("failed", "bad")
    what = f" ({ran} calls)" if ran else " (no call ran: no tool to check)"
    parts = [tag("p", join(["conformance check: ", verdict, what]))]
    for key, kind in (("errors", "bad"), ("warnings", "warn")):
        items = check.get(key) or []
        if items:
            lis = join(tag("li", x) for x in items[:30])
            parts.append(details(join([badge(f"{len(items)} {key}", kind)]), tag("ul", lis)))
    if check.get("error"):
        parts.append(tag("p", str(check["error"]), cls="muted"))
    return join(parts)


def _rules(rules: RuleSet | None) -> Markup:
    """Each precondition read from the docs, the policy or the parameter schemas, with the
    sentence it came from: what the tools enforce and what task generation respects."""
    if rules is None:
        return tag("p", "the environment's rules could not be read", cls="muted")
    if not rules.rules:
        return tag("p", "no rule stated in the docs or the policy was found", cls="muted")
    origin = ("recorded by synthesis (rules.json)" if rules.origin == "synthesis" else
              "extracted from the environment's docs and policy (no rules.json)")  # fmt: skip
    rows: list[list[Cell]] = [
        [tag("code", r.tool), r.describe(), r.source, r.sentence] for r in rules.rules
    ]
    return join([tag("p", f"{len(rules.rules)} rules, {origin}", cls="muted"),
                 table(["tool", "rule", "from", "sentence"], rows)])  # fmt: skip


def _provenance(d: RunData) -> dict[str, dict[str, str]]:
    state = (d.synthesis or {}).get("state") or {}
    prov = state.get("provenance") if isinstance(state, dict) else None
    return prov if isinstance(prov, dict) else {}


def _environment(d: RunData) -> Markup:
    if d.spec is None:
        return tag("p", "the environment stage has not finished", cls="muted")
    spec = d.spec
    mode = (d.synthesis or {}).get("mode")
    origin = f"synthesized ({mode} mode) by {d.synthesis.get('model', '?')}" if d.synthesis else (
        "given (--env)")  # fmt: skip
    if d.synthesis and d.synthesis.get("rules_only"):
        origin = f"synthesized ({mode} mode) by rules only: templates and skeletons, no LLM"
    parts = [
        tag("p", join([tag("strong", spec.name), f" · {len(spec.tools)} tools · ",
                       f"{len(spec.state_schema.collections)} collections · {origin}"])),
        tag("p", _description(spec), cls="muted") if _description(spec) else "",
        _readings(d),
        details("policy", tag("pre", spec.policy or "(none)", cls="json")),
        tag("h3", "State schema"), _schema(spec, _provenance(d)),
        tag("h3", "Tools"), _tools(d),
        tag("h3", "Rules the docs state"), _rules(d.rules),
        tag("h3", "Checks"), _conformance(d.check),
    ]  # fmt: skip
    return join(parts)


# ----------------------------------------------------------------------------------- graph


def _graph(d: RunData) -> Markup:
    if d.graph is None:
        return tag("p", "the graph stage has not finished", cls="muted")
    g = d.graph
    legend = tag("p", join([
        tag("span", join([tag("span", "", cls="swatch", style="background:#dbeafe"), "read"])),
        tag("span", join([tag("span", "", cls="swatch", style="background:#fde3c8"), "write"])),
        f" · {len(g.nodes)} tools, {len(g.edges)} edges (an output of the source can supply an "
        f"input of the target), {len(g.rejected)} rejected candidates, judge: {g.judge}. "
        "Hover an edge for its field mappings.",
    ]), cls="legend")  # fmt: skip
    rows = [[e.source, e.target, "; ".join(f"{m.output} → {m.param}" for m in e.mappings),
             e.confirmed_by] for e in g.edges]  # fmt: skip
    edges = details(f"all {len(g.edges)} edges with their field mappings",
                    table(["from", "to", "mappings", "by"], rows))  # fmt: skip
    matrix = details("adjacency matrix", adjacency_table(g))
    return join([legend, tag("div", tool_graph_svg(g), cls="figure"), matrix, edges])


# ----------------------------------------------------------------------------------- tasks


def _distribution(d: RunData) -> Markup:
    if not d.tasks:
        return tag("p", "no tasks yet", cls="muted")
    levels = [t.difficulty.level() for t in d.tasks]
    charts = [bars([(name, levels.count(name)) for name in ("easy", "medium", "hard", "any")],
                   "difficulty level (hardest preset met)", color="#8b5cf6")]  # fmt: skip
    charts += [histogram([getattr(t.difficulty, m) for t in d.tasks], m.replace("_", " "))
               for m in HIST_METRICS]  # fmt: skip
    return tag("div", join(tag("div", c) for c in charts), cls="charts")


def _rejections(d: RunData) -> Markup:
    gen = d.generation
    if not gen:
        return tag("p", "no generation statistics yet", cls="muted")
    rejected = gen.get("rejected") or {}
    data = sorted(rejected.items(), key=lambda kv: -kv[1])
    text = (f"{gen.get('attempts', 0)} attempts, {gen.get('accepted', 0)} accepted "
            f"({100 * gen.get('accept_rate', 0):.1f}%), {sum(rejected.values())} rejected; "
            f"{gen.get('instantiation_runs', 0)} gold runs during instantiation")  # fmt: skip
    rows = [[tag("code", k), v, rejection_text(k)] for k, v in data]
    return join([
        tag("p", text),
        tag("div", hbars(data, "rejections by reason"), cls="figure"),
        table(["reason", "count", "meaning"], rows, numeric=(1,)),
    ])  # fmt: skip


def render_forge_report(run_dir: Path, manifest: RunManifest | None = None) -> str:
    """The HTML text of the report of ``run_dir``."""
    d = load_run(run_dir, manifest)
    failed = {v.task_id for v in d.verify.failed} if d.verify else set()
    checked = {v.task_id for v in d.verify.verdicts} if d.verify else set()
    sections = [
        section("Overview", _overview(d), anchor="overview"),
        section("Stages", _stages(d), anchor="stages"),
        section("Environment", _environment(d), anchor="environment"),
        section("Tool graph", _graph(d), anchor="graph"),
        section("Difficulty", _distribution(d), anchor="difficulty"),
        section("Rejections", _rejections(d), anchor="rejections"),
        section("Tasks", gallery(d.tasks, failed, checked, GALLERY_LIMIT), anchor="tasks"),
    ]
    nav = [("overview", "Overview"), ("stages", "Stages"), ("environment", "Environment"),
           ("graph", "Tool graph"), ("difficulty", "Difficulty"), ("rejections", "Rejections"),
           ("tasks", "Tasks")]  # fmt: skip
    name = d.spec.name if d.spec else run_dir.name
    subtitle = (f"{run_dir.resolve()} · created {d.manifest.created_at} · "
                f"updated {d.manifest.updated_at}")  # fmt: skip
    return page(f"autoforge run: {name}", subtitle, nav, join(sections))


def write_forge_report(run_dir: Path, manifest: RunManifest | None = None) -> Path:
    """Write ``RUN_DIR/report.html`` and return its path."""
    layout = RunLayout(run_dir)
    return write_atomic(layout.report, render_forge_report(run_dir, manifest))


__all__ = ["RunData", "esc", "load_run", "render_forge_report", "write_forge_report"]
