"""Environment synthesis with the embedded model: cost per accepted tool and acceptance shares.

One run of ``autoforge.synth.synthesize`` on a preset (or given docs/data), then per tool: class,
where the code came from (template / LLM / skeleton), attempts, LLM calls, tokens, wall time.
Headline figures: the share of tools accepted on the first attempt (templates counted apart),
after repair, as the rule-based fallback, and never; medians of tokens, calls and seconds per
accepted LLM-written tool.

Baselines measured in the same run:

* ``rules_only``: the same synthesis with a model that never answers (templates + skeleton
  fallback only; no LLM), i.e. what the deterministic scaffolding gives on its own;
* ``no_repair``: tools accepted without any repair round (the first attempt's outcome is the
  same prompt at temperature 0, so it is read off the full run).

With ``--fidelity`` the result is also replayed against the preset's benchmark (``autoforge
fidelity``, on ``--split``), every figure beside the null environment's, and so is the
rules-only environment. Benchmark presets (``BENCH_PRESETS``) are the suite's: tau2/tau retail
and airline (default split ``test``), and the held-out domains ``tau2-mock``, ``tau2-telecom``
(agent side) and ``acebench-agent`` (every task), each from the same docs + policy + data and
replayed the same way as its ``--suite`` row.

``--suite`` measures fidelity over every preset without any model (rules only: templates,
skeletons, doc-derived guards), once with the generic profile and once with the opt-in ``tau``
convention profile, side by side: development domains (tau2 retail/airline, train split),
generalisation (tau2 retail/airline test split; held-out domains: tau2 mock, tau2 telecom's
agent side, ACEBench agent; and the bookstore environment synthesized from its docs and data,
probed against its hand-written ``tools.py``). Only the generic column is a generalisation
figure. Beside each replayed preset it prints the **derivability ceiling**
(:mod:`lab.ceiling`): the share of the same replayable tasks whose recorded outcome
the domain's docs, policy and data state, ``ceiling - null`` against the issue's target, the
items that make tasks non-derivable (with task counts), the derivable tasks the generic
environment still fails (what synthesis could still close) and agreeing tasks that are not
derivable (a profile using knowledge the domain does not state).

Run: ``python benchmarks/synthesis.py --suite`` (a few minutes on 2 shared cores), or
``python benchmarks/synthesis.py --preset tau2-retail --fidelity`` for one run with the embedded
model (long: start it in the background with a log). Prints tables and, last, one JSON line with
the headline figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from autoforge.examples import example_path
from autoforge.llm import LLMClient, config_from_cli, print_usage
from autoforge.synth.modelcode.fill import fill_summary
from autoforge.synth.pipeline import SynthOptions, report_table, synthesize
from autoforge.synth.report import SynthesisReport
from autoforge.tooldocs import load_docs

#: ``$AUTOFORGE_BENCH_ROOT``, else ``../shared/benchmarks`` beside the checkout.
BENCH_ROOT = Path(
    os.environ.get("AUTOFORGE_BENCH_ROOT")
    or Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks"
)


@dataclass(frozen=True)
class BenchPreset:
    """A preset replayed against a benchmark: its directory under ``../shared/benchmarks``, the
    split the suite scores it on, and whether only the agent's side is replayed."""

    domain: str
    split: str | None = None  # None: ``test`` where splits.json has one (``split_ids``)
    agent_side: bool = False


# dev domains and their held-out tasks (test split by default), and the held-out domains, scored
# on every task as in the suite
BENCH_PRESETS: dict[str, BenchPreset] = {
    "tau2-retail": BenchPreset("tau2-bench/retail"),
    "tau2-airline": BenchPreset("tau2-bench/airline"),
    "tau-retail": BenchPreset("tau-bench/retail"),
    "tau-airline": BenchPreset("tau-bench/airline"),
    "tau2-mock": BenchPreset("tau2-bench/mock", split="all"),
    "tau2-telecom": BenchPreset("tau2-bench/telecom", split="all", agent_side=True),
    "acebench-agent": BenchPreset("acebench/agent", split="all"),
}


def _preset(name: str) -> dict[str, Any]:
    """Inputs of a preset: docs, policy (``None``: the docs' own), data and, for a benchmark
    preset, its directory, split and replay side. A benchmark directory's docs carry its
    ``policy.md``, so every preset is synthesized from docs + policy + data, as in the suite."""
    if name in ("bookstore", "todo"):
        root = example_path(name)
        return {"docs": [root / "tools.openai.json"], "policy": root / "policy.md", "data": None}
    if name in BENCH_PRESETS:
        bp = BENCH_PRESETS[name]
        d = BENCH_ROOT / bp.domain
        return {
            "docs": [d], "policy": None, "data": d / "db.json", "bench": d,
            "split": bp.split, "agent_side": bp.agent_side,
        }  # fmt: skip
    known = ", ".join(["bookstore", "todo", *BENCH_PRESETS])
    raise SystemExit(f"unknown preset {name!r}: use one of {known}")


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 2) if values else 0.0


def _shares(report: SynthesisReport) -> dict[str, float]:
    n = len(report.tools) or 1
    return {k: round(v / n, 3) for k, v in report.counts().items()}


def _design(report: SynthesisReport, key: str) -> float:
    usage = report.state.get("usage") or {}
    if key == "tokens":
        return int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))
    return usage.get(key, 0)


def _tool_table(report: SynthesisReport) -> Table:
    table = Table(title="per tool (LLM-written and repaired tools)")
    cols = ("tool", "class", "source", "status", "attempts", "fills ok/rej (untriggered)",
            "calls", "tokens")  # fmt: skip
    for col in (*cols, "wall s"):
        table.add_column(col, justify="left" if col in ("tool", "class") else "right")
    for t in report.tools:
        fills = fill_summary(t)
        table.add_row(
            t.name, t.cls, t.source, t.status, str(t.attempts),
            f"{fills['accepted']}/{fills['rejected']} ({fills['untriggered']})" if t.fills else "-",
            str(t.usage.calls),
            str(t.usage.total_tokens), f"{t.wall_s:.1f}",
        )  # fmt: skip
    return table


def _causes_table(ours: dict[str, int], rules: dict[str, int]) -> Table:
    """Disagreeing tasks by cause (first disagreeing action, or missing effects)."""
    table = Table(title="fidelity: disagreeing tasks by cause (first disagreeing action)")
    for col in ("cause", "tasks", "rules-only tasks"):
        table.add_column(col, justify="left" if col == "cause" else "right")
    for cause in sorted(set(ours) | set(rules), key=lambda c: -ours.get(c, 0)):
        table.add_row(cause, str(ours.get(cause, 0)), str(rules.get(cause, 0)))
    return table


async def _run(
    docs: Any, out: Path, client: LLMClient, data: Any, opts: SynthOptions
) -> SynthesisReport:
    return await synthesize(docs, out, client, data=data, options=opts)


def _refusing_client() -> LLMClient:
    def refuse(_: Any) -> str:
        return "no answer"

    return LLMClient.scripted([refuse] * 10_000)


def _fid_headline(fid: Any) -> dict[str, Any]:
    """The fidelity figures a run reports, each beside the null environment's."""
    return {
        "split": fid.split,
        **fid.figures.rounded(),
        "null": fid.null.rounded(),
        "task_agreement_minus_null": round(fid.figures.task_agreement - fid.null.task_agreement, 4),
        "wall_s": fid.wall_s,
        "failed_task_causes": fid.causes(),
    }


# -- the rules-only suite ------------------------------------------------------------------------

SUITE: list[tuple[str, str, str, str]] = [
    # (label, preset of BENCH_PRESETS, split, role)
    ("tau2-retail train", "tau2-retail", "train", "dev"),
    ("tau2-airline train", "tau2-airline", "train", "dev"),
    ("tau2-retail test", "tau2-retail", "test", "generalisation (held-out tasks)"),
    ("tau2-airline test", "tau2-airline", "test", "held-out tasks of a dev domain"),
    ("tau2-mock", "tau2-mock", "all", "generalisation (held-out domain)"),
    ("tau2-telecom agent side", "tau2-telecom", "all", "generalisation (held-out domain)"),
    ("acebench-agent", "acebench-agent", "all", "generalisation (held-out domain)"),
]
NOT_MEASURED: dict[str, str] = {}


def _inputs(preset: dict[str, Any]) -> tuple[Any, Any, str | None]:
    """Docs, data and policy text of a preset (the same for the suite and a single run)."""
    docs = load_docs(preset["docs"])
    data = json.loads(Path(preset["data"]).read_text()) if preset.get("data") else None
    policy = Path(preset["policy"]).read_text() if preset.get("policy") else None
    return docs, data, policy


def _bench_fidelity(env: Path, preset: dict[str, Any], split: str | None) -> Any:
    """Replay ``env`` against the preset's benchmark on ``split`` (the preset's own when
    ``None``), on the side the suite replays."""
    from autoforge.adapters.tau import bench_fidelity

    split = split if split is not None else preset.get("split")
    return bench_fidelity(env, preset["bench"], split=split, agent_side=preset["agent_side"])


def _fid_row(fid: Any) -> dict[str, Any]:
    """A fidelity report's headline plus what the replay left out."""
    return {
        **_fid_headline(fid),
        "skipped_tasks": fid.skipped_tasks,
        "dropped_user_actions": fid.dropped_user_actions,
        "missing_tools": len(fid.missing_tools),
    }


def _rules_env(
    docs: Any, data: Any, out: Path, conventions: str, policy: str | None
) -> tuple[SynthesisReport, Path]:
    """The rules-only synthesis into ``out`` (templates, skeletons, doc-derived guards; a model
    that never answers, no repairs): the baseline of the suite and of every single run."""
    opts = SynthOptions(max_repairs=0, conventions=conventions, policy=policy, llm_tests=False)
    return asyncio.run(_run(docs, out, _refusing_client(), data, opts)), out


# the targets for task agreement minus null (default profile), per generalisation row
TARGETS: dict[str, float] = {
    "tau2-retail test": 0.4, "tau2-mock": 0.3, "tau2-telecom agent side": 0.3,
    "acebench-agent": 0.3,
}  # fmt: skip


def _ceilings(preset: dict[str, Any], split: str, docs: Any, data: Any, policy: str | None) -> Any:
    """The derivability ceiling of a preset's split in the headline phrase mode, the exact one
    and the loose one (same replayable tasks as the fidelity replay)."""
    from lab.ceiling import bench_ceiling, vocabulary

    from autoforge.adapters.tau import load_bench

    bench = load_bench(preset["bench"], split, agent_side=preset["agent_side"])
    dump = docs.model_dump(mode="json", exclude={"tools": {"__all__": {"source"}}})
    vocab = vocabulary(data, dump, [policy] if policy else [])
    vocab.add_data(bench.state)
    return tuple(bench_ceiling(bench, vocab, m) for m in ("phrase", "exact", "sentence"))


def _ceiling_row(label: str, row: dict[str, Any], ceils: Any, fids: dict[str, Any]) -> None:
    """Add the ceiling figures to a suite row: the ceiling beside the null baseline and the
    target, why tasks are not derivable, the derivable tasks the generic environment still
    fails (what synthesis could still close) and agreeing tasks that are not derivable."""
    phrase, exact, sentence = ceils
    null = row["generic"]["null"]["task_agreement"]
    derivable = phrase.derivable_ids()
    agree = {c: {r.id for r in f.task_results if r.agree} for c, f in fids.items()}
    causes = {r.id: r.cause for r in fids["generic"].task_results if not r.agree}
    row["ceiling"] = phrase.ceiling
    row["ceiling_exact"] = exact.ceiling
    row["ceiling_loose"] = sentence.ceiling
    row["ceiling_minus_null"] = round(phrase.ceiling - null, 4)
    row["ceiling_without_result_values"] = phrase.ceiling_without_result_values
    row["ceiling_target"] = TARGETS.get(label)
    row["ceiling_tasks"] = f"{phrase.derivable_tasks}/{phrase.tasks}"
    row["ceiling_actions"] = f"{phrase.derivable_actions}/{phrase.actions}"
    row["non_derivable_top"] = phrase.top_gaps
    row["non_derivable_sole"] = phrase.sole_gaps
    row["non_derivable_top_loose"] = sentence.top_gaps
    row["derivable_generic_fails"] = {i: causes[i] for i in sorted(derivable) if i in causes}
    row["agree_not_derivable"] = {c: sorted(a - derivable) for c, a in agree.items()}


def _suite_fidelity(tmp: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, name, split, role in SUITE:
        preset = _preset(name)
        docs, data, policy = _inputs(preset)
        row: dict[str, Any] = {"role": role, "split": split}
        fids: dict[str, Any] = {}
        for conv in ("generic", "tau"):
            env = tmp / f"{name}-{conv}"
            if not env.exists():
                _rules_env(docs, data, env, conv, policy)
            fids[conv] = _bench_fidelity(env, preset, split)
            row[conv] = _fid_row(fids[conv])
        _ceiling_row(label, row, _ceilings(preset, split, docs, data, policy), fids)
        out[label] = row
    return out


def _ceiling_table(results: dict[str, Any]) -> Table:
    table = Table(
        title="derivability ceiling (share of replayable tasks whose recorded outcome the "
        "domain's docs, policy and data state) beside null, generic and tau task agreement"
    )
    cols = ("preset", "ceiling (exact / loose)", "null", "generic", "tau", "ceiling - null",
            "target", "derivable, gen. fails", "agree, not deriv. (gen/tau)")  # fmt: skip
    for col in cols:
        table.add_column(col, justify="left" if col == "preset" else "right")
    for label, row in results.items():
        if "ceiling" not in row:
            continue
        g, t, target = row["generic"], row["tau"], row["ceiling_target"]
        table.add_row(
            label,
            f"{row['ceiling']:.3f} ({row['ceiling_exact']:.3f} / {row['ceiling_loose']:.3f})",
            f"{g['null']['task_agreement']:.3f}", f"{g['task_agreement']:.3f}",
            f"{t['task_agreement']:.3f}", f"{row['ceiling_minus_null']:.3f}",
            "-" if target is None else f">= {target}",
            str(len(row["derivable_generic_fails"])),
            "/".join(str(len(v)) for v in row["agree_not_derivable"].values()),
        )  # fmt: skip
    return table


def _print_ceiling_details(console: Console, results: dict[str, Any]) -> None:
    """Why tasks are not derivable, and which derivable tasks the generic env fails."""
    for label, row in results.items():
        if "ceiling" not in row:
            continue
        top = ", ".join(f"{k} ({n})" for k, n in row["non_derivable_top"].items()) or "none"
        console.print(f"{label} non-derivable (tasks): {top}", highlight=False)
        sole = ", ".join(f"{k} ({n})" for k, n in row["non_derivable_sole"].items()) or "none"
        console.print(f"  {label} the only non-derivable item of (tasks): {sole}", highlight=False)
        console.print(
            f"  {label} ceiling if returned string values were not compared: "
            f"{row['ceiling_without_result_values']:.3f}",
            highlight=False,
        )
        for tid, cause in row["derivable_generic_fails"].items():
            console.print(f"  {label} derivable, generic fails: {tid}: {cause}", highlight=False)


def _suite_probes(tmp: Path) -> dict[str, Any]:
    from autoforge.synth.fidelity.probing import run_probes

    root = example_path("bookstore")
    docs = load_docs([root / "tools.openai.json"])
    data = json.loads((root / "initial_state.json").read_text())
    policy = (root / "policy.md").read_text()
    row: dict[str, Any] = {"role": "generalisation (probes against hand-written tools.py)"}
    for conv in ("generic", "tau"):
        _, env = _rules_env(docs, data, tmp / f"bookstore-{conv}", conv, policy)
        rep = run_probes(env, str(root / "tools.py"))
        row[conv] = {
            **rep.figures.rounded(),
            "null": rep.null.rounded(),
            "missing_tools": rep.missing_tools,
            "disagreements": [
                f"{d.tool} [{d.kind}] {', '.join(d.what)}" for d in rep.disagreements
            ],
        }
    return row


def _suite_table(results: dict[str, Any]) -> Table:
    table = Table(
        title="fidelity, rules only (no LLM): generic profile vs tau profile; null beside"
    )
    cols = ("preset", "role", "task agr. (null)", "non-trivial agree", "result agr. (null)",
            "refusal agr. (null)", "tau: task / result")  # fmt: skip
    for col in cols:
        table.add_column(col, justify="left" if col in ("preset", "role") else "right")
    for label, row in results.items():
        g, t = row["generic"], row["tau"]
        if "task_agreement" in g:
            table.add_row(
                label, row["role"],
                f"{g['task_agreement']:.3f} ({g['null']['task_agreement']:.3f})",
                f"{g['nontrivial_agree']}/{g['state_changing_tasks']}",
                f"{g['result_agreement']:.3f} ({g['null']['result_agreement']:.3f})",
                f"{g['refusal_agreement']:.3f} ({g['null']['refusal_agreement']:.3f})",
                f"{t['task_agreement']:.3f} / {t['result_agreement']:.3f}",
            )  # fmt: skip
        else:
            table.add_row(
                label, row["role"], "-", f"{g['probes']} probes",
                f"{g['result_agreement']:.3f} ({g['null']['result_agreement']:.3f})",
                f"{g['refusal_agreement']:.3f} ({g['null']['refusal_agreement']:.3f})",
                f"- / {t['result_agreement']:.3f}",
            )  # fmt: skip
    return table


def suite() -> int:
    """Rules-only fidelity over every preset, generic and tau profiles side by side."""
    console = Console(width=160)
    start, cpu0 = time.monotonic(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="synth-suite-") as tmp:
        results = _suite_fidelity(Path(tmp))
        results["bookstore probes"] = _suite_probes(Path(tmp))
    console.print(_suite_table(results))
    console.print(_ceiling_table(results))
    _print_ceiling_details(console, results)
    for label, row in results.items():
        for d in row["generic"].get("disagreements", []):
            console.print(f"  {label} disagreement: {d}", highlight=False)
    headline = {
        "mode": "rules only (no LLM)",
        "presets": results,
        "not_measured": NOT_MEASURED,
        "wall_s": round(time.monotonic() - start, 1),
        "cpu_s": round(time.process_time() - cpu0, 1),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(headline))
    return 0


def _headline(
    args: argparse.Namespace,
    report: SynthesisReport,
    baseline: SynthesisReport,
    shares: dict[str, float],
    out: Path,
    times: tuple[float, float],
) -> dict[str, Any]:
    """The run's figures for the last JSON line: acceptance shares, cost per model-written
    tool, totals (resumed tools and state design included), the rules-only and no-repair
    baselines; ``times`` is this run's (wall, CPU) seconds."""
    llm_ok = [t for t in report.tools if t.status == "accepted" and t.source == "llm"]
    first = [t for t in report.tools if t.status == "accepted" and (t.accepted_attempt or 0) <= 1]
    return {
        "preset": args.preset,
        "conventions": args.conventions,
        "fill": args.fill,
        "model": report.model,
        "tools": len(report.tools),
        "share_template": shares["template"],
        "share_first_attempt": shares["first_attempt"],
        "share_after_repair": shares["after_repair"],
        "share_fallback": shares["fallback"],
        "share_never": shares["failed"],
        "median_tokens_per_llm_tool": _median([t.usage.total_tokens for t in llm_ok]),
        "median_calls_per_llm_tool": _median([t.usage.calls for t in llm_ok]),
        "median_wall_s_per_llm_tool": _median([t.wall_s for t in llm_ok]),
        # over every tool, resumed ones included (their stored usage), plus state design
        "total_tokens": sum(t.usage.total_tokens for t in report.tools) + _design(report, "tokens"),
        "total_llm_calls": sum(t.usage.calls for t in report.tools) + _design(report, "calls"),
        "tools_wall_s": round(sum(t.wall_s for t in report.tools), 1),
        "state_design_wall_s": _design(report, "wall_s"),
        "this_run_wall_s": round(times[0], 1),
        "this_run_cpu_s": round(times[1], 1),
        "resumed_tools": len(report.resumed),
        # per-TODO fills (the model writes one step of the rule draft at a time)
        "fills_accepted": sum(fill_summary(t)["accepted"] for t in report.tools),
        "fills_rejected": sum(fill_summary(t)["rejected"] for t in report.tools),
        "fills_untriggered": sum(fill_summary(t)["untriggered"] for t in report.tools),
        "conformance_ok": bool((report.conformance or {}).get("ok")),
        "baseline_rules_only_accepted_share": round(
            sum(t.status == "accepted" for t in baseline.tools) / max(len(baseline.tools), 1), 3
        ),
        "baseline_rules_only_kept_share": round(
            sum(t.status != "failed" for t in baseline.tools) / max(len(baseline.tools), 1), 3
        ),
        "baseline_no_repair_accepted_share": round(len(first) / max(len(report.tools), 1), 3),
        "env_dir": str(out),
    }


def _parser() -> argparse.ArgumentParser:
    """The command line of a single run or the suite."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="bookstore")
    ap.add_argument("--out", type=Path, default=None, help="env dir (default: a temp dir)")
    ap.add_argument("--model", default="default", help="embedded model: default|small")
    ap.add_argument("--max-repairs", type=int, default=3)
    ap.add_argument("--no-cache", action="store_true", help="do not reuse cached LLM answers")
    ap.add_argument("--keep", action="store_true", help="resume from --out instead of wiping it")
    ap.add_argument("--fidelity", action="store_true", help="also replay the preset's benchmark")
    ap.add_argument(
        "--split", default=None,
        help="splits.json split for --fidelity (default: the suite's, test or all)",
    )  # fmt: skip
    ap.add_argument("--conventions", default="generic", help="convention profile: generic|tau")
    ap.add_argument("--suite", action="store_true", help="rules-only fidelity, every preset")
    ap.add_argument(
        "--fill", default="todo", choices=("todo", "function"),
        help="the model fills the draft's TODO steps one at a time, or writes whole functions",
    )  # fmt: skip
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.suite:
        return suite()
    preset = _preset(args.preset)
    docs, data, policy = _inputs(preset)
    opts = SynthOptions(
        max_repairs=args.max_repairs, policy=policy, name=args.preset,
        conventions=args.conventions, fill=args.fill,
    )  # fmt: skip
    console = Console(width=140)

    rules_dir = Path(tempfile.mkdtemp(prefix="synth-rules-")) / "env"
    baseline, rules_env = _rules_env(docs, data, rules_dir, args.conventions, policy)
    out = args.out or Path(tempfile.mkdtemp(prefix="synth-bench-")) / args.preset
    if out.exists() and not args.keep:
        shutil.rmtree(out)
    client = LLMClient(config_from_cli(model=args.model, no_cache=args.no_cache))
    start, cpu0 = time.monotonic(), time.process_time()
    report = asyncio.run(_run(docs, out, client, data, opts))
    wall, cpu = time.monotonic() - start, time.process_time() - cpu0

    console.print(report_table(report))
    console.print(_tool_table(report))
    print_usage(client.usage, console)
    shares = _shares(report)
    headline = _headline(args, report, baseline, shares, out, (wall, cpu))
    if args.fidelity and preset.get("bench"):
        try:
            fid = _bench_fidelity(out, preset, args.split)
            headline["fidelity"] = _fid_row(fid)
            base = _bench_fidelity(rules_env, preset, args.split)
            headline["fidelity_rules_only"] = _fid_row(base)
            console.print(_causes_table(fid.causes(), base.causes()))
        except Exception as exc:  # report, do not lose the synthesis figures
            headline["fidelity"] = {"error": f"{type(exc).__name__}: {exc}"}
    console.print(
        f"accepted: {shares['template']:.0%} template, {shares['first_attempt']:.0%} first "
        f"attempt, {shares['after_repair']:.0%} after repair; {shares['fallback']:.0%} fallback; "
        f"{shares['failed']:.0%} never. Rules-only baseline accepts "
        f"{headline['baseline_rules_only_accepted_share']:.0%}.",
        highlight=False,
    )
    headline["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(headline))
    return 0


if __name__ == "__main__":
    sys.exit(main())
