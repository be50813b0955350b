"""Task quality, side by side: forged task sets and benchmark task files in one table.

What a task teaches depends on what the user says and what the agent must work out. For each
task set this script measures:

- ``arg_verbatim``: share of gold-call argument values (scalars, nested ones included) that the
  user-visible text states verbatim (question, known info, intent); ``id_verbatim``: the same
  for identifier arguments (``*_id``, ``*_ids``, ``code``, ``number``, ...);
- ``session_args``: share of gold-call argument values the episode hands the agent as session
  context (``Task.session``: the logged-in user's key, where the docs show a session user) and
  the user's text does not state; shown beside the verbatim shares, never folded into them;
  ``verbatim_by_arg`` gives ``[stated, total]`` per ``tool.argument`` (the ones stated at all);
- ``selection_share``: share of tasks with a selection or aggregation (argmax/argmin, filter,
  count, sum, average, compare/branch, first/last) whose result feeds a state-changing call's
  argument or a required output (a filter on the record's own name, "the book whose title is
  X", names the record and selects nothing). Forged tasks: read from the blueprint. Benchmark
  files have no blueprint: the share of tasks whose instruction states a criterion (cheapest,
  most recent, if ..., bigger, ...), marked ``text`` in the table;
- ``out_of_domain``: distinct values in the tasks' S0 outside the domain of their attribute
  (the schema enum; for string attributes the example/initial data shows as categorical, the
  observed values);
- ``tool_coverage``: write tools used by some task / write tools of the environment;
- tool calls and reasoning nodes per task (median and mean);
- ``do_nothing``: share of tasks a do-nothing agent passes (no state change, nothing to tell);
- ``verified``: share of forged tasks whose gold calls replay from S0 to the S* hash.

Inputs: forge run directories (``RUN_DIR/tasks.jsonl`` + ``RUN_DIR/env/``), ``--generate
ENV_DIR[:DIFFICULTY[:N]]`` to generate a task set with the code on ``PYTHONPATH`` (no LLM;
``example:bookstore`` names the bundled example), and ``--tau2 TASKS.json`` (tau2-bench task files;
the domain's ``tools.json``/``tools_meta.json`` beside it give the write tools). The do-nothing
baseline is a column of the same table. Last line: one JSON object, ``{"sets": {name: figures}}``.

Run: ``python benchmarks/task_quality.py --generate example:bookstore:medium:50
--tau2 ../shared/benchmarks/tau2-bench/retail/tasks.json
../shared/benchmarks/tau2-bench/airline/tasks.json``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

SELECT_OPS = {"argmax", "argmin", "filter", "count", "sum", "average", "compare", "branch"}
_ID_TOKENS = {"id", "ids", "uuid", "sku", "key", "code", "codes", "number", "numbers"}
_CRITERIA = re.compile(
    r"\b(cheapest|most expensive|least expensive|highest|lowest|largest|smallest|biggest|"
    r"most recent|latest|oldest|newest|earliest|first one|last one|only one|bigger|smaller|"
    r"cheaper|more expensive|longer|shorter|how many|total|sum|average|compare|if |unless|"
    r"instead|prefer|rather|whichever|the one)",
    re.IGNORECASE,
)


def is_identifier_arg(name: str) -> bool:
    """Whether an argument name holds an identifier (``order_id``, ``item_ids``, ``code``)."""
    token = name.lower().replace("-", "_").split("_")[-1]
    return token in _ID_TOKENS or name.lower().endswith("id")


def scalars(value: Any, name: str = "") -> Iterator[tuple[str, Any]]:
    """``(argument name, scalar)`` for every non-boolean scalar inside call arguments."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from scalars(item, str(key))
    elif isinstance(value, list):
        for item in value:
            yield from scalars(item, name)
    elif isinstance(value, str | int | float) and not isinstance(value, bool) and value != "":
        yield name, value


def renderings(value: Any) -> list[str]:
    """How a value may be written in text (``19.9`` also as ``19.90``; a ``snake_case`` word
    value also in words, as the template writer says it: ``ordered by mistake``)."""
    if isinstance(value, float):
        return sorted({f"{value:.2f}", f"{value:g}", str(value)})
    text = str(value)
    if isinstance(value, str) and re.fullmatch(r"[a-z]+(_[a-z]+)+", value):
        return [text, text.replace("_", " ")]
    return [text]


def stated(value: Any, text: str) -> bool:
    """Whether ``text`` states ``value`` as a whole token (``1`` is not stated by ``ORD-10``)."""
    for form in renderings(value):
        pattern = r"(?<![\w.])" + re.escape(form.lower()) + r"(?![\w])"
        if re.search(pattern, text):
            return True
    return False


def verbatim(
    calls: list[tuple[str, dict[str, Any]]], text: str, by_arg: dict[str, list[int]] | None = None
) -> tuple[int, int, int, int]:
    """(args stated, args, id args stated, id args) over the calls' scalar arguments;
    ``by_arg`` (when given) counts ``[stated, total]`` per ``tool.argument``."""
    text = text.lower()
    hits = total = id_hits = id_total = 0
    for tool, arguments in calls:
        for name, value in scalars(arguments):
            found = stated(value, text)
            total += 1
            hits += found
            if by_arg is not None:
                row = by_arg.setdefault(f"{tool}.{name}", [0, 0])
                row[0] += found
                row[1] += 1
            if is_identifier_arg(name):
                id_total += 1
                id_hits += found
    return hits, total, id_hits, id_total


def session_given(
    calls: list[tuple[str, dict[str, Any]]], text: str, session: dict[str, Any]
) -> int:
    """How many of the calls' scalar arguments the episode's session context gives the agent
    (the logged-in user's key, ``Task.session``) and the user's text does not state: values
    the agent is handed like a login, counted apart from both verbatim and looked-up ones."""
    given = {str(v) for _, v in scalars(session)}
    text = text.lower()
    return sum(1 for _, arguments in calls for _, value in scalars(arguments)
               if str(value) in given and not stated(value, text))  # fmt: skip


def _median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else 0.0


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def summarize(rows: list[dict[str, Any]], writes: set[str], kind: str) -> dict[str, Any]:
    """Figures of one task set from per-task rows."""
    n = len(rows)
    args = sum(r["args"] for r in rows)
    ids = sum(r["ids"] for r in rows)
    used = set().union(*(r["write_tools"] for r in rows)) if rows else set()
    return {
        "kind": kind,
        "tasks": n,
        "arg_verbatim": round(sum(r["args_stated"] for r in rows) / args, 3) if args else None,
        "id_verbatim": round(sum(r["ids_stated"] for r in rows) / ids, 3) if ids else None,
        "selection_share": round(sum(r["selection"] for r in rows) / n, 3) if n else None,
        "tool_coverage": round(len(used & writes) / len(writes), 3) if writes else None,
        "writes_unused": sorted(writes - used),
        "calls_per_task": _median([r["calls"] for r in rows]),
        "calls_mean": _mean([r["calls"] for r in rows]),
        "reasoning_per_task": (
            _median([r["reasoning"] for r in rows]) if kind == "forged" else None
        ),
        "do_nothing": round(sum(r["do_nothing"] for r in rows) / n, 3) if n else None,
    }


# -- forged task sets -----------------------------------------------------------------------


def _feeds(bp: Any, node_id: str, targets: set[str]) -> bool:
    import networkx as nx

    return bool(nx.descendants(bp.dag(), node_id) & targets)


def has_selection(task: Any, write_tools: set[str]) -> bool:
    """Whether a selection/aggregation node feeds a write argument or a required output."""
    from autoforge.lexicon import names_record

    bp = task.blueprint
    write_ids = {c.id for c in bp.calls if c.tool in write_tools}
    outputs = {o.node for o in task.required_outputs}
    for node in bp.reasoning:
        op = node.spec.op
        positional = op == "lookup" and node.spec.field and isinstance(node.spec.field[0], int)
        if (op not in SELECT_OPS and not positional) or node.spec.take == "named":
            continue  # a record named by description ("the water bottle") selects nothing
        if op == "filter" and node.spec.field and names_record(str(node.spec.field[-1])):
            continue  # "the book whose title is X among ...": named by its own name
        if node.id in outputs or _feeds(bp, node.id, write_ids | outputs):
            return True
    return False


def user_text(task: Any) -> str:
    """Everything the simulated user is given to say (the identity is held, not written)."""
    sc = task.scenario
    return "\n".join(x for x in (sc.question, sc.known_info, sc.intent) if x)


def categorical_domains(env: Any) -> dict[tuple[str, str], set[Any]]:
    """The domain of each attribute that has one: the schema enum, else the values of a
    string attribute the initial data shows as categorical (>= 4 values, <= 8 distinct, fewer
    distinct values than half the records)."""
    domains: dict[tuple[str, str], set[Any]] = {}
    data = env.initial_state or {}
    for coll in env.spec.state_schema.collections:
        records = [r for r in (data.get(coll.name) or {}).values() if isinstance(r, dict)]
        for attr in coll.attributes:
            if attr.enum:
                domains[(coll.name, attr.name)] = set(attr.enum)
                continue
            if attr.type != "string" or attr.references:
                continue
            seen = [r.get(attr.name) for r in records if isinstance(r.get(attr.name), str)]
            distinct = set(seen)
            if len(seen) >= 4 and len(distinct) <= 8 and len(distinct) * 2 <= len(seen):
                domains[(coll.name, attr.name)] = distinct
    return domains


def out_of_domain(tasks: list[Any], domains: dict[tuple[str, str], set[Any]]) -> list[str]:
    """Distinct ``collection.attribute=value`` in the tasks' S0 outside their domain."""
    bad: set[str] = set()
    for task in tasks:
        for (coll, attr), domain in domains.items():
            for record in (task.initial_state.get(coll) or {}).values():
                value = record.get(attr) if isinstance(record, dict) else None
                if value is not None and value not in domain:
                    bad.add(f"{coll}.{attr}={value!r}")
    return sorted(bad)


def forged_set(run_dir: Path, env: Any, tasks: list[Any]) -> dict[str, Any]:
    """Figures of one forged task set (tasks of ``env``)."""
    from autoforge.forge import verify_task
    from autoforge.lexicon import tool_access

    writes = {t.name for t in env.spec.tools if tool_access(t) == "write"}
    rows: list[dict[str, Any]] = []
    verified = 0
    by_arg: dict[str, list[int]] = {}
    for task in tasks:
        calls = [(c.name, c.arguments) for c in task.gold_calls]
        text = user_text(task)
        hits, total, id_hits, id_total = verbatim(calls, text, by_arg)
        rows.append({
            "args_stated": hits, "args": total, "ids_stated": id_hits, "ids": id_total,
            "args_session": session_given(calls, text, getattr(task, "session", None) or {}),
            "selection": has_selection(task, writes), "calls": len(task.gold_calls),
            "reasoning": len(task.blueprint.reasoning),
            "write_tools": {c.name for c in task.gold_calls if c.name in writes},
            "do_nothing": task.final_state_hash == task.initial_state_hash
            and not any(o.text for o in task.required_outputs),
        })  # fmt: skip
        verified += verify_task(env, task).ok
    out = summarize(rows, writes, "forged")
    args = sum(r["args"] for r in rows)
    out["session_args"] = round(sum(r["args_session"] for r in rows) / args, 3) if args else None
    out["verbatim_by_arg"] = {k: v for k, v in sorted(by_arg.items(), key=lambda kv: -kv[1][0])
                              if v[0]}  # fmt: skip
    bad = out_of_domain(tasks, categorical_domains(env))
    out["out_of_domain"] = len(bad)
    out["out_of_domain_examples"] = bad[:5]
    out["verified"] = round(verified / len(tasks), 3) if tasks else None
    levels: dict[str, list[bool]] = {}
    for task, row in zip(tasks, rows, strict=True):
        levels.setdefault(str(task.meta.get("difficulty", "?")), []).append(bool(row["selection"]))
    out["selection_by_level"] = {k: round(sum(v) / len(v), 3) for k, v in sorted(levels.items())}
    out["source"] = str(run_dir)
    return out


def load_run(run_dir: Path) -> tuple[Any, list[Any]]:
    """The environment and tasks of a forge run directory."""
    from autoforge.env import Environment
    from autoforge.tasks import TaskSet

    env_dir = run_dir / "env" if (run_dir / "env").is_dir() else run_dir
    return Environment.load(env_dir), TaskSet(run_dir / "tasks.jsonl").load()


def generate_set(target: str, seed: int) -> tuple[str, Any, list[Any], float]:
    """``ENV_DIR[:DIFFICULTY[:N]]`` -> (name, env, tasks, CPU s), generated with the code on
    the path."""
    from autoforge.env import Environment
    from autoforge.examples import example_path
    from autoforge.tasks import generate_tasks

    parts = target.split(":")
    if parts[0] == "example":
        parts = [str(example_path(parts[1])), *parts[2:]]
    env_dir, difficulty, n = parts[0], (parts[1:2] or ["medium"])[0], int((parts[2:3] or ["50"])[0])
    env = Environment.load(Path(env_dir))
    cpu = time.process_time()
    tasks, _ = generate_tasks(env, n, difficulty, seed=seed)
    path = Path(env_dir)
    name = path.parent.name if path.name == "env" else path.name  # RUN_DIR/env: the run's name
    return f"{name}:{difficulty}", env, tasks, time.process_time() - cpu


# -- benchmark task files -------------------------------------------------------------------


def _tau2_writes(domain: Path) -> set[str]:
    meta = domain / "tools_meta.json"
    if meta.is_file():
        data = json.loads(meta.read_text())
        items = data.items() if isinstance(data, dict) else []
        found = {name for name, m in items if isinstance(m, dict) and m.get("access") == "write"}
        if found:
            return found
    from autoforge.lexicon import tool_access
    from autoforge.tooldocs import load_docs

    docs = load_docs([domain / "tools.json"])
    return {t.name for t in docs.tools if tool_access(t) == "write"}


def _tau2_text(task: dict[str, Any]) -> str:
    scenario = task.get("user_scenario") or {}
    inst = scenario.get("instructions") or {}
    if isinstance(inst, str):
        return inst
    return "\n".join(str(v) for v in inst.values() if v)


def tau2_set(path: Path) -> dict[str, Any]:
    """Figures of a tau2-bench ``tasks.json`` (gold = ``evaluation_criteria.actions``)."""
    tasks = json.loads(path.read_text())
    writes = _tau2_writes(path.parent)
    rows = []
    for task in tasks:
        actions = (task.get("evaluation_criteria") or {}).get("actions") or []
        calls = [(a["name"], a.get("arguments") or {}) for a in actions]
        text = _tau2_text(task)
        hits, total, id_hits, id_total = verbatim(calls, text)
        criteria = task.get("evaluation_criteria") or {}
        told = criteria.get("communicate_info") or criteria.get("nl_assertions")
        wrote = {name for name, _ in calls if name in writes}
        rows.append({
            "args_stated": hits, "args": total, "ids_stated": id_hits, "ids": id_total,
            "selection": bool(_CRITERIA.search(text)), "calls": len(calls), "reasoning": 0,
            "write_tools": wrote, "do_nothing": not wrote and not told,
        })  # fmt: skip
    out = summarize(rows, writes, "benchmark")
    out.update({"out_of_domain": None, "verified": None, "selection_by_level": {},
                "selection_note": "text", "source": str(path)})  # fmt: skip
    return out


# -- report ---------------------------------------------------------------------------------


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def show(sets: dict[str, dict[str, Any]], console: Console) -> None:
    """The side-by-side table."""
    cols = ["tasks", "arg_verbatim", "id_verbatim", "session_args", "selection_share",
            "out_of_domain", "tool_coverage", "calls_per_task", "reasoning_per_task",
            "do_nothing", "verified"]  # fmt: skip
    table = Table(title="task quality (do_nothing = share a do-nothing agent passes; session "
                  "args = argument values the agent is given as session context, the "
                  "logged-in user's key: context, not user text, counted in neither verbatim "
                  "share)")  # fmt: skip
    table.add_column("set")
    for col in cols:
        table.add_column(col.replace("_", " "), justify="right")
    for name, figs in sets.items():
        cells = [_fmt(figs.get(c)) for c in cols]
        if figs.get("selection_note"):
            cells[cols.index("selection_share")] += " (text)"
        table.add_row(name, *cells)
    console.print(table)
    for name, figs in sets.items():
        if figs.get("writes_unused"):
            console.print(f"{name}: write tools never used: {', '.join(figs['writes_unused'])}")
        if figs.get("out_of_domain_examples"):
            console.print(f"{name}: out of domain, e.g. {figs['out_of_domain_examples']}")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, measure every set, print the table and the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="*", type=Path, help="forge run directories")
    parser.add_argument("--generate", nargs="*", default=[], metavar="ENV[:DIFF[:N]]",
                        help="generate a task set with the code on PYTHONPATH")  # fmt: skip
    parser.add_argument("--tau2", nargs="*", default=[], type=Path, metavar="TASKS.json")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    console = Console(stderr=True, width=200)
    started, cpu = time.perf_counter(), time.process_time()
    sets: dict[str, dict[str, Any]] = {}
    for target in args.generate:
        name, env, tasks, spent = generate_set(target, args.seed)
        sets[name] = forged_set(Path(target), env, tasks)
        sets[name]["generation_cpu_s"] = round(spent, 2)
    for run_dir in args.runs:
        env, tasks = load_run(run_dir)
        sets[run_dir.name] = forged_set(run_dir, env, tasks)
    for path in args.tau2:
        sets[f"tau2:{path.parent.name}"] = tau2_set(path)
    show(sets, console)
    wall, spent = time.perf_counter() - started, time.process_time() - cpu
    console.print(f"wall {wall:.1f} s, CPU {spent:.1f} s,"
                  f" load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(json.dumps({"sets": sets, "load_average": round(os.getloadavg()[0], 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
