"""Real-world corpus: ingest -> environment -> tasks over every doc set of a directory.

Two steps:

* ``python benchmarks/corpus.py sample SRC --to DIR --n 60 --seed 15`` draws a seeded random
  sample of API descriptions (JSON/YAML files under SRC, e.g. a checkout of a public API
  directory) with ``--min-ops``..``--max-ops`` operations, and writes each as
  ``DIR/<name>/<file>`` plus ``DIR.sample.json`` (source files, operation counts, seed);
* ``python benchmarks/corpus.py run DIR --out RUNS`` forges every doc set of DIR with
  :func:`autoforge.forge.batch.forge_many` (stages up to ``verify``, no exports; ``--llm none``
  by default so it runs on CPU in minutes) and reports per stage the success share with the
  failure causes grouped, tools per API, verified medium tasks per API, wall and CPU time per
  API (medians), the load average, and beside them the do-nothing baseline of this corpus: the
  share the OpenAPI-3-only importer ingests (what ``autoforge ingest`` did before Swagger 2.0
  support). Per-item runs are resumable (rerun the same command). The last line printed is one
  JSON object.

Stage success: *ingest* = the docs import; *environment* = an environment was synthesized and
passed its conformance check; *tasks* = at least ``--min-verified`` (10) generated tasks of the
asked ``--difficulty`` (medium) replay to their S* hash.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import resource
import shutil
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from statistics import median
from typing import Any

from bench_method import Load, finish

from autoforge.cli.llm import llm_config_from_options
from autoforge.forge import ForgeOptions
from autoforge.forge.batch import DocSet, ItemResult, discover, forge_many, safe_dir_name
from autoforge.llm.config import NO_MODEL
from autoforge.tooldocs import DocParseError, load_doc
from autoforge.tooldocs.source import parse_structured

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SPEC_SUFFIXES = (".json", ".yaml", ".yml")


# ------------------------------------------------------------------------------- sampling


def operation_count(path: Path) -> int | None:
    """Operations of an OpenAPI / Swagger document (None when it is not one)."""
    try:
        data = parse_structured(path.read_text(encoding="utf-8"), str(path), path.suffix)
    except (DocParseError, UnicodeDecodeError, OSError):
        return None
    if not isinstance(data, dict) or not ({"swagger", "openapi"} & set(data)):
        return None
    paths = data.get("paths")
    if not isinstance(paths, dict):
        return 0
    return sum(1 for item in paths.values() if isinstance(item, dict) for m in METHODS if m in item)


def _name(src: Path, path: Path) -> str:
    """``provider__api__version`` from the path below SRC."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    parts = [p for p in parts if p not in ("specs", "APIs", "swagger", "openapi")]
    return safe_dir_name("__".join(parts))


def sample(src: Path, to: Path, n: int, seed: int, min_ops: int, max_ops: int) -> dict[str, Any]:
    """Copy a seeded random sample of eligible documents into ``to``; return the record."""
    files = sorted(p for p in src.rglob("*") if p.suffix.lower() in SPEC_SUFFIXES and p.is_file())
    eligible = []
    for path in files:
        ops = operation_count(path)
        if ops is not None and min_ops <= ops <= max_ops:
            eligible.append((path, ops))
    if len(eligible) < n:
        raise SystemExit(f"only {len(eligible)} documents with {min_ops}-{max_ops} operations")
    picked = sorted(random.Random(seed).sample(eligible, n), key=lambda e: str(e[0]))
    to.mkdir(parents=True, exist_ok=True)
    items = []
    for path, ops in picked:
        name = _name(src, path)
        (to / name).mkdir(exist_ok=True)
        shutil.copyfile(path, to / name / f"swagger{path.suffix.lower()}")
        items.append({"name": name, "source": str(path.relative_to(src)), "operations": ops})
    record = {
        "source_dir": str(src), "seed": seed, "n": n, "min_ops": min_ops, "max_ops": max_ops,
        "documents": len(files), "eligible": len(eligible), "items": items,
    }  # fmt: skip
    record_file = to.with_name(to.name + ".sample.json")  # beside DIR: not a doc set
    record_file.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return record


# ------------------------------------------------------------------------------ measuring


def baseline_ingest(items: list[DocSet]) -> float:
    """Share of doc sets the OpenAPI-3-only importer reads (the behaviour before Swagger 2.0)."""
    ok = 0
    for item in items:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for doc in item.docs:
                    load_doc(doc, format="openapi")
            ok += 1
        except DocParseError:
            pass
    return ok / len(items) if items else 0.0


_NOISE = [
    (re.compile(r"(/[\w.~{}\-]+)+(\.(json|yaml|yml))?(#\S*)?"), "<path>"),
    (re.compile(r"'[^']*'|\"[^\"]*\""), "<name>"),
    (re.compile(r"\d+"), "N"),
]


def cause(text: str) -> str:
    """A failure message reduced to its kind (paths, names and numbers blanked)."""
    text = text.split(" (fix:")[0].split(" (fix it and rerun")[0]
    text = re.sub(r"^stage \w+ failed: ", "", text)
    for pattern, repl in _NOISE:
        text = pattern.sub(repl, text)
    return text.strip()[:120]


_LEVELS = {"easy": ("easy", "medium", "hard"), "medium": ("medium", "hard"), "hard": ("hard",)}


def _verified(run_dir: Path, difficulty: str) -> int:
    """Verified tasks of the run that meet the asked difficulty preset."""
    from autoforge.forge.verify import VerifyReport
    from autoforge.tasks.model import TaskSet

    verify = run_dir / "verify.json"
    tasks_file = run_dir / "tasks.jsonl"
    if not verify.is_file() or not tasks_file.is_file():
        return 0
    report = VerifyReport.model_validate_json(verify.read_text(encoding="utf-8"))
    ok = {v.task_id for v in report.verdicts if v.ok}
    tasks = TaskSet(tasks_file).load()
    levels = _LEVELS.get(difficulty)
    return sum(t.id in ok and (levels is None or t.difficulty.level() in levels) for t in tasks)


def _task_cause(r: ItemResult, run_dir: Path) -> str:
    if r.status == "failed":
        return cause(r.error or "failed")
    gen_file = run_dir / "generation.json"
    gen = json.loads(gen_file.read_text()) if gen_file.is_file() else {}
    if gen.get("note"):
        return cause(str(gen["note"]))
    rejected = gen.get("rejected") or {}
    top = max(rejected, key=rejected.get) if rejected else "none"
    return f"too few tasks (most rejections: {top})"


def stage_figures(results: list[ItemResult], min_verified: int, difficulty: str) -> dict[str, Any]:
    """Per stage: success share and grouped failure causes."""
    n = len(results)
    ingest_fail: Counter[str] = Counter()
    env_fail: Counter[str] = Counter()
    task_fail: Counter[str] = Counter()
    medium: dict[str, int] = {}
    for r in results:
        run_dir = Path(r.run_dir)
        medium[r.name] = _verified(run_dir, difficulty)
        if r.stages.get("ingest") != "done":
            ingest_fail[cause(r.error or "not run")] += 1
            continue
        if r.stages.get("environment") != "done" or not r.check_ok:
            why = r.error if r.stages.get("environment") != "done" else None
            env_fail[cause(why) if why else _check_cause(run_dir)] += 1
            continue
        if medium[r.name] < min_verified:
            task_fail[_task_cause(r, run_dir)] += 1
    ok_ingest = n - sum(ingest_fail.values())
    ok_env = ok_ingest - sum(env_fail.values())
    ok_tasks = ok_env - sum(task_fail.values())
    share = lambda k: round(k / n, 4) if n else 0.0  # noqa: E731
    return {
        "ingest": {"ok": ok_ingest, "share": share(ok_ingest), "causes": dict(ingest_fail)},
        "environment": {"ok": ok_env, "share": share(ok_env), "causes": dict(env_fail)},
        "tasks": {"ok": ok_tasks, "share": share(ok_tasks), "causes": dict(task_fail)},
        "medium_verified": medium,
    }


def _check_cause(run_dir: Path) -> str:
    check_file = run_dir / "check.json"
    check = json.loads(check_file.read_text()) if check_file.is_file() else {}
    errors = check.get("errors") or [check.get("error") or "conformance check failed"]
    return "check: " + cause(str(errors[0]).split(":")[0] + ": " + str(errors[0]).split(":", 1)[-1])


def _print_causes(title: str, causes: dict[str, int]) -> None:
    for text, count in sorted(causes.items(), key=lambda kv: -kv[1])[:8]:
        print(f"    {count:3d} x {text}")


def _cpu() -> float:
    """CPU seconds of this process and its finished children (isolated episodes, checks)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _medians(results: list[ItemResult], figures: dict[str, Any]) -> dict[str, Any]:
    """Per API medians: documented tools, environment tools, verified tasks, forge seconds
    (0 where there is nothing to take the median of)."""
    ingested = [r for r in results if r.stages.get("ingest") == "done"]
    tools = [r.tools_documented for r in ingested]
    env_tools = [r.tools for r in ingested if r.tools]
    medium = list(figures["medium_verified"].values())
    times = [r.forge_seconds for r in results]
    return {
        "tools": median(tools) if tools else 0,
        "env_tools": median(env_tools) if env_tools else 0,
        "verified": median(medium) if medium else 0,
        "seconds": median(times) if times else 0,
    }


def tool_figures(run_dirs: list[Path]) -> dict[str, Any]:
    """Over the runs: documented and kept tools per API (medians, APIs without an environment
    count as 0 kept), documented write tools kept, and tools left out by kind of reason."""
    from autoforge.forge import tool_outcomes
    from autoforge.tooldocs import load_doc

    documented, kept, writes, writes_kept = [], [], 0, 0
    not_accepted = unexplained = 0
    reasons: Counter[str] = Counter()
    for run_dir in run_dirs:
        try:
            n = len(load_doc(run_dir / "tools.json").tools)
        except Exception:  # not ingested: no tools to count
            continue
        left, (w, wk) = tool_outcomes(run_dir)
        partial, silent = _unexplained(run_dir)
        not_accepted, unexplained = not_accepted + partial, unexplained + silent
        documented.append(n)
        kept.append(n - sum(left.values()))
        writes, writes_kept = writes + w, writes_kept + wk
        reasons.update(left)
    return {
        "documented_tools_median": median(documented) if documented else 0,
        "kept_tools_median": median(kept) if kept else 0,
        "kept_tools": sum(kept),
        "documented_tools": sum(documented),
        "write_tools_documented": writes,
        "write_tools_kept": writes_kept,
        "write_tools_kept_share": round(writes_kept / writes, 4) if writes else 0.0,
        "left_out_by_reason": dict(reasons.most_common(12)),
        "failed_or_partial_tools": not_accepted,
        "failed_or_partial_without_reason": unexplained,
    }


def _unexplained(run_dir: Path) -> tuple[int, int]:
    """Tools synthesis failed or kept only as a skeleton, and how many of them carry neither
    a reason nor an error."""
    report = run_dir / "env" / "synthesis_report.json"
    try:
        tools = json.loads(report.read_text(encoding="utf-8")).get("tools", [])
    except (OSError, ValueError):
        return 0, 0
    partial = [t for t in tools if isinstance(t, dict) and t.get("status") != "accepted"]
    return len(partial), sum(not (t.get("reason") or t.get("errors")) for t in partial)


def _print_summary(
    args: argparse.Namespace,
    n: int,
    figures: dict[str, Any],
    baseline: float,
    medians: dict[str, Any],
    wall: float,
    cpu_used: float,
) -> None:
    """The run's figures as text, the baseline first."""
    print(f"\n{n} doc sets from {args.dir}, LLM: {args.llm}, seed {args.seed}, "
          f"{args.tasks} {args.difficulty} tasks asked per API")  # fmt: skip
    print(f"baseline (OpenAPI-3-only importer, before Swagger 2.0): ingest {100 * baseline:.1f}%")
    for stage in ("ingest", "environment", "tasks"):
        f = figures[stage]
        print(f"  {stage:12s} {f['ok']:3d}/{n} = {100 * f['share']:.1f}%")
        _print_causes(stage, f["causes"])
    print(f"documented tools per API: median {medians['tools']}, "
          f"env tools median {medians['env_tools']}; verified {args.difficulty} "
          f"tasks per "
          f"API: median {medians['verified']}")  # fmt: skip
    print(f"time per API: median {medians['seconds']:.1f}s forge; total wall "
          f"{wall:.0f}s, CPU {cpu_used:.0f}s")  # fmt: skip


def _print_tools(tools: dict[str, Any]) -> None:
    share = 100 * tools["write_tools_kept_share"]
    print(f"tools per API (median): {tools['documented_tools_median']} documented -> "
          f"{tools['kept_tools_median']} kept; write tools kept {tools['write_tools_kept']}/"
          f"{tools['write_tools_documented']} = {share:.1f}%; failed or partial tools "
          f"{tools['failed_or_partial_tools']}, {tools['failed_or_partial_without_reason']} "
          "of them without a reason")  # fmt: skip
    _print_causes("left out", tools["left_out_by_reason"])


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Forge every doc set of ``args.dir``; print the figures; return the JSON summary."""
    items = discover(args.dir)
    if args.limit:
        items = items[: args.limit]
    config = llm_config_from_options(llm_model=args.llm)
    base = ForgeOptions(
        out=args.out, tasks=args.tasks, difficulty=args.difficulty, seed=args.seed, until="verify",
        exports=False, rules_only=args.llm == NO_MODEL, max_attempts=args.max_attempts,
    )  # fmt: skip
    start, cpu = time.monotonic(), _cpu()
    load = Load()
    print("\n".join(load.lines()), flush=True)

    def line(r: ItemResult) -> None:
        print(f"  {r.name}: {r.status} {r.failed_stage or ''} tools={r.tools} tasks={r.tasks} "
              f"verified={r.verified} {r.forge_seconds:.0f}s", flush=True)  # fmt: skip

    report = asyncio.run(forge_many(items, base, args.out, config, on_item=line))
    wall, cpu_used = time.monotonic() - start, _cpu() - cpu
    results = report.items
    figures = stage_figures(results, args.min_verified, args.difficulty)
    baseline = baseline_ingest(items)
    medians = _medians(results, figures)
    load.finish()
    _print_summary(args, len(results), figures, baseline, medians, wall, cpu_used)
    tools = tool_figures([Path(r.run_dir) for r in results])
    _print_tools(tools)
    summary = {
        "apis": len(results),
        "llm": args.llm,
        "seed": args.seed,
        "tasks_asked": args.tasks,
        "difficulty": args.difficulty,
        "baseline_ingest_share": round(baseline, 4),
        "ingest_share": figures["ingest"]["share"],
        "environment_checked_share": figures["environment"]["share"],
        "tasks_ge_min_share": figures["tasks"]["share"],
        "min_verified": args.min_verified,
        "failure_causes": {s: figures[s]["causes"] for s in ("ingest", "environment", "tasks")},
        "tools_per_api_median": medians["tools"],
        "env_tools_per_api_median": medians["env_tools"],
        "verified_tasks_per_api_median": medians["verified"],
        "seconds_per_api_median": round(medians["seconds"], 2) if results else 0,
        "tools": tools,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu_used, 1),
        "load": load.as_json(),
    }
    (args.out / "corpus.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="draw a seeded sample of API descriptions")
    s.add_argument("src", type=Path)
    s.add_argument("--to", type=Path, required=True)
    s.add_argument("--n", type=int, default=60)
    s.add_argument("--seed", type=int, default=15)
    s.add_argument("--min-ops", type=int, default=3)
    s.add_argument("--max-ops", type=int, default=30)
    r = sub.add_parser("run", help="forge every doc set and report per stage")
    r.add_argument("dir", type=Path)
    r.add_argument("--out", type=Path, default=Path("runs/corpus"))
    r.add_argument("--tasks", type=int, default=10, help="tasks asked per API")
    r.add_argument("--difficulty", default="medium", help="asked difficulty (medium)")
    r.add_argument("--min-verified", type=int, default=10)
    r.add_argument("--max-attempts", type=int, default=None)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--limit", type=int, default=0, help="only the first N doc sets")
    r.add_argument("--llm", default=NO_MODEL, help="none (rules only), small, default, or a model")
    f = sub.add_parser("figures", help="tool figures of a finished run directory (any code)")
    f.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "figures":
        runs = sorted(p for p in args.out.iterdir() if (p / "run.json").is_file())
        tools = tool_figures(runs)
        _print_tools(tools)
        print(json.dumps(tools))
        return 0
    if args.command == "sample":
        record = sample(args.src, args.to, args.n, args.seed, args.min_ops, args.max_ops)
        print(f"{record['n']} of {record['eligible']} eligible ({record['documents']} documents)")
        print(json.dumps({k: v for k, v in record.items() if k != "items"}))
        return 0
    summary = run(args)
    load = Load(**{k: summary["load"][k] for k in ("start", "end", "cores")})
    finish({k: v for k, v in summary.items() if k != "load"}, load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
