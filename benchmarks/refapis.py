"""Synthesize an environment for every reference API folder and score it against the reference.

For each folder (the format of ``refapis/SPEC.md``: ``openapi.yaml``, ``policy.md``, ``db.json``,
``ref_impl.py``, ``probes.py``) this runs ``autoforge synth env openapi.yaml --data db.json
--policy policy.md`` in a child process (synthesis reads those three files only), then scores the
written environment with ``autoforge.synth.score_refapi`` (the reference's own probes on both
sides). Printed per API: tools documented / present / partial, decision balanced accuracy and
write-effect agreement with the refuse-everything environment beside, synthesis wall and CPU
seconds (the child's CPU, children included) and the load average when it started; then means
and medians over the APIs, and one JSON summary line last. ``--no-data`` synthesizes from
``openapi.yaml`` and ``policy.md`` alone (what a user with only an API's documents has); the
probes still run on ``db.json``, so the score says how far the documents alone carry.

    python benchmarks/refapis.py                       # rules only, every default folder
    python benchmarks/refapis.py --llm-model small     # the embedded small model
    python benchmarks/refapis.py ../shared/refapis/kanban --out /tmp/envs --json summary.json
    python benchmarks/refapis.py --no-data            # documents and policy only, no data

Default folders: ``/work/shared/refapis/*`` and ``benchmarks/refapis_own/*`` (those with a
``ref_impl.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from bench_method import Load

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
DEFAULT_ROOTS = (Path("/work/shared/refapis"), HERE / "refapis_own")
FIGURES = ("decision_balanced_accuracy", "write_effect_agreement", "accepts_kept", "refusals_kept")


def default_folders() -> list[Path]:
    """Every reference API folder under the default roots, sorted by name within a root."""
    return [p for root in DEFAULT_ROOTS if root.is_dir() for p in sorted(root.iterdir())
            if (p / "ref_impl.py").is_file()]  # fmt: skip


def documented_tools(folder: Path) -> list[str]:
    """The operationIds of the folder's ``openapi.yaml``."""
    doc = yaml.safe_load((folder / "openapi.yaml").read_text(encoding="utf-8")) or {}
    return [op["operationId"] for item in (doc.get("paths") or {}).values()
            for op in item.values() if isinstance(op, dict) and "operationId" in op]  # fmt: skip


def _children_cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def synthesize(
    folder: Path, out: Path, llm: list[str], timeout_s: float, data: bool = True
) -> dict[str, Any]:
    """Run ``autoforge synth env`` on the folder's three input files (``data``: with
    ``db.json``); time it."""
    if out.exists():
        shutil.rmtree(out)
    given = ["--data", str(folder / "db.json")] if data else []
    argv = [sys.executable, "-m", "autoforge.cli.main", "synth", "env",
            str(folder / "openapi.yaml"), *given,
            "--policy", str(folder / "policy.md"), "-o", str(out), *llm]  # fmt: skip
    # the caller's PYTHONPATH first, so that "PYTHONPATH=<other checkout>/src" measures that
    # code (a baseline), as in the other benchmark scripts; this checkout's src otherwise
    caller = os.environ.get("PYTHONPATH", "")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (caller, str(SRC)) if p)}
    load1 = os.getloadavg()[0]
    cpu0, t0 = _children_cpu_s(), time.perf_counter()
    try:
        proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout_s)
        code, tail = proc.returncode, (proc.stderr or proc.stdout)[-400:]
    except subprocess.TimeoutExpired:
        code, tail = -1, f"timed out after {timeout_s:.0f} s"
    return {
        "synth_exit": code, "synth_wall_s": round(time.perf_counter() - t0, 2),
        "synth_cpu_s": round(_children_cpu_s() - cpu0, 2), "load_at_start": round(load1, 2),
        "synth_error": tail if code else "",
    }  # fmt: skip


def partial_tools(out: Path) -> int:
    """Tools the synthesis report lists as present but not accepted (a skeleton or partial)."""
    path = out / "synthesis_report.json"
    if not path.is_file():
        return 0
    tools = json.loads(path.read_text(encoding="utf-8")).get("tools") or []
    return sum(1 for t in tools if t.get("status") not in ("accepted", "failed"))


def run_one(
    folder: Path, out: Path, llm: list[str], n: int, seed: int, timeout_s: float, data: bool = True
) -> dict[str, Any]:
    """Synthesize and score one folder; a synthesis that wrote nothing scores as a missing env."""
    from autoforge.synth import score_refapi

    row: dict[str, Any] = {"api": folder.name, "folder": str(folder)}
    row.update(synthesize(folder, out, llm, timeout_s, data))
    report = score_refapi(out, folder, n=n, seed=seed)
    head = report.headline()
    documented = documented_tools(folder)
    row.update({
        "tools_documented": len(documented),
        "tools_present": len([t for t in documented if t not in report.missing_tools]),
        "tools_partial": partial_tools(out),
        **{k: head[k] for k in FIGURES}, "write_effect_when_both_accept":
            head["write_effect_when_both_accept"],
        "null_env": {k: head["null_env"][k] for k in FIGURES[:2]},
        "missing_tools": report.missing_tools, "load_error": report.load_error,
        "probes": report.probes,
    })  # fmt: skip
    return row


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Means and medians of the figures and times over the APIs."""
    keys = (*FIGURES, "synth_wall_s", "synth_cpu_s")
    out: dict[str, Any] = {"apis": len(rows)}
    for k in keys:
        vals = [float(r[k]) for r in rows]
        out[f"mean_{k}"] = round(statistics.fmean(vals), 3) if vals else 0.0
        out[f"median_{k}"] = round(statistics.median(vals), 3) if vals else 0.0
    out["tools_missing"] = sum(r["tools_documented"] - r["tools_present"] for r in rows)
    return out


def print_table(rows: list[dict[str, Any]], summary: dict[str, Any]) -> None:
    head = (f"{'API':12} {'tools doc/pres/part':>19} {'bal.acc':>7} {'(null)':>6} "
            f"{'effect':>6} {'(null)':>6} {'acc kept':>8} {'ref kept':>8} {'wall s':>7} "
            f"{'cpu s':>6} {'load':>5}")  # fmt: skip
    print(head)
    for r in rows:
        tools = f"{r['tools_documented']}/{r['tools_present']}/{r['tools_partial']}"
        print(f"{r['api']:12} {tools:>19} {r['decision_balanced_accuracy']:>7.3f} "
              f"{r['null_env']['decision_balanced_accuracy']:>6.2f} "
              f"{r['write_effect_agreement']:>6.3f} "
              f"{r['null_env']['write_effect_agreement']:>6.2f} {r['accepts_kept']:>8.3f} "
              f"{r['refusals_kept']:>8.3f} {r['synth_wall_s']:>7.1f} {r['synth_cpu_s']:>6.1f} "
              f"{r['load_at_start']:>5.2f}")  # fmt: skip
    for agg in ("mean", "median"):
        print(f"{agg:12} {'':>19} {summary[f'{agg}_decision_balanced_accuracy']:>7.3f} "
              f"{0.5:>6.2f} "
              f"{summary[f'{agg}_write_effect_agreement']:>6.3f} {0.0:>6.2f} "
              f"{summary[f'{agg}_accepts_kept']:>8.3f} {summary[f'{agg}_refusals_kept']:>8.3f} "
              f"{summary[f'{agg}_synth_wall_s']:>7.1f} "
              f"{summary[f'{agg}_synth_cpu_s']:>6.1f}")  # fmt: skip


def llm_args(a: argparse.Namespace) -> list[str]:
    """The model options passed through to ``autoforge synth env``."""
    out = ["--llm-model", a.llm_model] if a.llm_model else ["--llm", "none"]
    return out + (["--no-cache"] if a.no_cache else [])


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, help="Reference API folders (default: all).")
    ap.add_argument("--llm", choices=["none"], help="Rules only (the default).")
    ap.add_argument("--llm-model", help="Embedded model (small|default) or a model name.")
    ap.add_argument("--no-cache", action="store_true", help="Pass --no-cache to synthesis.")
    ap.add_argument("--out", type=Path, help="Environments go here (default: a temp dir).")
    ap.add_argument("--n", type=int, default=400, help="Probes per API.")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--timeout", type=float, default=1800.0, help="Synthesis timeout per API (s).")
    ap.add_argument("--json", type=Path, help="Also write the JSON summary (rows included) here.")
    ap.add_argument(
        "--no-data", action="store_true", help="Synthesize without db.json (probes still use it)."
    )
    a = ap.parse_args(argv)
    if a.llm and a.llm_model:
        ap.error("--llm none and --llm-model exclude each other")
    folders = a.folders or default_folders()
    bad = [str(f) for f in folders if not (f / "ref_impl.py").is_file()]
    if bad:
        ap.error(f"not reference API folders (no ref_impl.py): {', '.join(bad)}")
    sys.path.insert(0, str(SRC))
    load = Load()
    root = a.out or Path(tempfile.mkdtemp(prefix="refapis_"))
    data = not a.no_data
    rows = [run_one(f, root / f.name, llm_args(a), a.n, a.seed, a.timeout, data) for f in folders]
    summary = summarize(rows)
    load.finish()
    print_table(rows, summary)
    for line in load.lines():
        print(line)
    result = {"llm": llm_args(a), "data": data, "envs": str(root), **summary}
    result.update(load=load.as_json(), rows=rows)
    if a.json:
        a.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}))
    return result


if __name__ == "__main__":
    main()
