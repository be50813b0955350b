"""Task validity against hand-written references: do the forged tasks' gold calls obey the docs?

For each API folder in the reference format (``openapi.yaml``, ``policy.md``, ``db.json``,
``ref_impl.py``; see ``SPEC.md`` beside the folders) this script forges tasks as a user would
(``autoforge forge openapi.yaml --data db.json --policy policy.md --llm none``, rules only) and
replays every task's gold calls, in order, on the hand-written reference (``ref_impl.invoke``)
started from the task's own S0 (plus the data's ``meta``, where the reference reads "today").
The reference is the scorer here only; synthesis never reads it.

Figures per folder:

- ``tasks``: tasks forged (of ``--tasks`` asked);
- ``ref_valid``: share of tasks whose every gold call the reference accepts;
- ``calls_accepted``: share of gold calls the reference accepts (calls after a refusal still
  run on the state as it then is);
- ``s0_from_data``: share of S0 records whose key and content are records of ``db.json``
  (a key of the data with other content counts as not from the data), and ``s0_keys_in_data``:
  share of S0 keys that are keys of ``db.json``;
- ``refusals``: the reference's refusals by first words of the message (what rule was broken);
- ``arg_verbatim``, ``id_verbatim``, ``selection_share``, ``out_of_domain``: as in
  ``benchmarks/task_quality.py`` (same functions);
- language (:func:`language`): shares of tasks whose user text speaks a tool name, a field
  name of several words, a key of an S0 record, a secret word, and of tasks repeating one
  write call with the same arguments.

``--example bookstore`` forges the bundled example instead and replays on its hand-written
tools (the bundled environment), with the same figures (no ``s0_*`` shares: it has no db.json).

Run: ``python benchmarks/task_validity.py /work/shared/refapis/kanban /work/shared/refapis/parcels
--example bookstore --seed 0 --tasks 30``. Last line: one JSON object ``{"apis": {name: figures}}``.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from task_quality import forged_set, load_run, user_text


def load_reference(ref_dir: Path) -> ModuleType:
    """The folder's ``ref_impl`` module (scorer only)."""
    spec = importlib.util.spec_from_file_location(f"_ref_{ref_dir.name}", ref_dir / "ref_impl.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"{ref_dir}: no ref_impl.py to score with")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ref_dir))
    spec.loader.exec_module(module)
    return module


def forge(ref_dir: Path, out: Path, tasks: int, seed: int, difficulty: str) -> None:
    """Forge the folder's docs + data + policy, rules only, into a fresh ``out`` (code on
    PYTHONPATH; an earlier run there would be resumed, not measured)."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "autoforge.cli.main", "forge", str(ref_dir / "openapi.yaml"),
           "--data", str(ref_dir / "db.json"), "--policy", str(ref_dir / "policy.md"),
           "--llm", "none", "--tasks", str(tasks), "--seed", str(seed), "--difficulty",
           difficulty, "--out", str(out), "--no-exports"]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    if not (out / "tasks.jsonl").is_file():
        raise SystemExit(f"forge of {ref_dir} wrote no tasks.jsonl:\n{done.stderr[-2000:]}")


def _reason(exc: object) -> str:
    """The first words of a refusal, ids (tokens with a digit) blanked so reasons group."""
    words = ["#" if any(ch.isdigit() for ch in w) else w for w in str(exc).split()]
    return " ".join(words[:7]) or type(exc).__name__


def replay(ref: ModuleType, data: dict[str, Any], task: Any) -> tuple[int, int, list[str]]:
    """(gold calls accepted, gold calls, refusal reasons) of one task on the reference."""
    db = copy.deepcopy(task.initial_state)
    if "meta" in data and "meta" not in db:
        db["meta"] = copy.deepcopy(data["meta"])
    accepted, reasons = 0, []
    for call in task.gold_calls:
        try:
            ref.invoke(db, call.name, copy.deepcopy(call.arguments))
            accepted += 1
        except ref.RefError as exc:
            reasons.append(f"{call.name}: {_reason(exc)}")
        except Exception as exc:  # the reference crashed on what the task gave it
            reasons.append(f"{call.name}: crash {type(exc).__name__}: {_reason(exc)}")
    return accepted, len(task.gold_calls), reasons


_SECRET = re.compile(r"\b(pin|password|passcode|passphrase|cvv|cvc|otp)\b", re.IGNORECASE)


def _phrase(name: str) -> re.Pattern[str]:
    """A tool or field name as its words, in a row, in text ("transition task" says
    ``transition_task``; "cancel my order" does not say ``cancel_order``)."""
    parts = [re.escape(w) for w in re.split(r"[_\W]+", name.lower()) if w]
    return re.compile(r"\b" + r"\s+".join(parts) + r"\b")


def language(env: Any, tasks: list[Any]) -> dict[str, Any]:
    """Shares of tasks whose user text speaks a tool name (its words in order), a field name
    of two or more words (``created on``), a key of an S0 record (an internal id), a secret
    word; and of tasks with one write call repeated with the same arguments."""
    tools = [_phrase(t.name) for t in env.spec.tools if "_" in t.name]
    fields = {a.name for c in env.spec.state_schema.collections for a in c.attributes
              if "_" in a.name and not a.name.endswith(("_id", "_ids"))}  # fmt: skip
    field_res = [_phrase(f) for f in sorted(fields)]
    counts = Counter[str]()
    for task in tasks:
        text = user_text(task).lower()
        keys = {str(k) for recs in task.initial_state.values() if isinstance(recs, dict)
                for k in recs if len(str(k)) >= 3}  # fmt: skip
        writes = [json.dumps([c.name, c.arguments], sort_keys=True) for c in task.gold_calls
                  if c.writes]  # fmt: skip
        counts["tool_words"] += any(r.search(text) for r in tools)
        counts["field_words"] += any(r.search(text) for r in field_res)
        counts["ids_spoken"] += any(re.search(rf"(?<![\w-]){re.escape(k.lower())}(?![\w-])", text)
                                    for k in keys)  # fmt: skip
        counts["secrets"] += bool(_SECRET.search(text))
        counts["repeated_writes"] += len(writes) != len(set(writes))
    n = len(tasks) or 1
    return {k: round(counts[k] / n, 3) for k in
            ("tool_words", "field_words", "ids_spoken", "secrets", "repeated_writes")}  # fmt: skip


def data_shares(data: dict[str, Any], tasks: list[Any]) -> tuple[float | None, float | None]:
    """(share of S0 records equal to a data record, share of S0 keys that are data keys)."""
    same = keys = total = 0
    for task in tasks:
        for coll, records in task.initial_state.items():
            if not isinstance(records, dict) or not isinstance(data.get(coll), dict):
                continue
            for key, record in records.items():
                total += 1
                keys += key in data[coll]
                same += data[coll].get(key) == record
    if not total:
        return None, None
    return round(same / total, 3), round(keys / total, 3)


def measure(ref_dir: Path, work: Path, tasks: int, seed: int, difficulty: str) -> dict[str, Any]:
    """Forge one folder and score its tasks."""
    out = work / ref_dir.name
    forge(ref_dir, out, tasks, seed, difficulty)
    env, forged = load_run(out)
    ref = load_reference(ref_dir)
    data = json.loads((ref_dir / "db.json").read_text())
    valid = calls_ok = calls = 0
    reasons: Counter[str] = Counter()
    for task in forged:
        ok, n, why = replay(ref, data, task)
        valid += ok == n
        calls_ok += ok
        calls += n
        reasons.update(why)
    figs = forged_set(out, env, forged)
    from_data, keys_in = data_shares(data, forged)
    return {
        "tasks": len(forged),
        "ref_valid": round(valid / len(forged), 3) if forged else None,
        "calls_accepted": round(calls_ok / calls, 3) if calls else None,
        "s0_from_data": from_data, "s0_keys_in_data": keys_in,
        "arg_verbatim": figs["arg_verbatim"], "id_verbatim": figs["id_verbatim"],
        "selection_share": figs["selection_share"], "out_of_domain": figs["out_of_domain"],
        **language(env, forged),
        "refusals": dict(reasons.most_common(8)), "env_tools": len(env.spec.tools),
        "write_tools_used": sorted(set(figs.get("writes_unused", [])) ^ _writes(env)),
        "run": str(out),
    }  # fmt: skip


def measure_example(
    name: str, work: Path, tasks: int, seed: int, difficulty: str
) -> dict[str, Any]:
    """Forge a bundled example (``forge --example NAME``) and replay its gold calls on the
    example's hand-written tools (its bundled environment), as the reference."""
    from autoforge.env import Environment
    from autoforge.examples import example_path

    out = work / f"example-{name}"
    shutil.rmtree(out, ignore_errors=True)  # measured fresh, not resumed
    cmd = [sys.executable, "-m", "autoforge.cli.main", "forge", "--example", name, "--llm", "none",
           "--tasks", str(tasks), "--seed", str(seed), "--difficulty", difficulty,
           "--out", str(out), "--no-exports"]  # fmt: skip
    subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    env, forged = load_run(out)
    bundled = Environment.load(example_path(name))
    valid = calls_ok = calls = 0
    reasons: Counter[str] = Counter()
    for task in forged:
        episode = bundled.episode(state=task.initial_state)
        ok = 0
        for call in task.gold_calls:
            obs = episode.call(call.name, dict(call.arguments))
            ok += obs.ok
            if not obs.ok:
                reasons[f"{call.name}: {_reason(obs.content)}"] += 1
        valid += ok == len(task.gold_calls)
        calls_ok += ok
        calls += len(task.gold_calls)
    figs = forged_set(out, env, forged)
    return {
        "tasks": len(forged),
        "ref_valid": round(valid / len(forged), 3) if forged else None,
        "calls_accepted": round(calls_ok / calls, 3) if calls else None,
        "arg_verbatim": figs["arg_verbatim"], "id_verbatim": figs["id_verbatim"],
        "selection_share": figs["selection_share"], "out_of_domain": figs["out_of_domain"],
        **language(env, forged),
        "refusals": dict(reasons.most_common(8)), "run": str(out),
    }  # fmt: skip


def _writes(env: Any) -> set[str]:
    from autoforge.lexicon import tool_access

    return {t.name for t in env.spec.tools if tool_access(t) == "write"}


def main(argv: list[str] | None = None) -> int:
    """Forge and score every folder; print one line per folder and the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("refs", nargs="*", type=Path, help="reference API folders")
    parser.add_argument(
        "--example",
        nargs="*",
        default=[],
        metavar="NAME",
        help="bundled examples, scored on their hand-written tools",
    )
    parser.add_argument("--tasks", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--work", type=Path, default=Path("/tmp/task_validity"))
    args = parser.parse_args(argv)
    apis: dict[str, dict[str, Any]] = {}
    runs = [
        (
            p.name,
            lambda p=p: measure(p.resolve(), args.work, args.tasks, args.seed, args.difficulty),
        )
        for p in args.refs
    ]
    runs += [
        (
            f"example:{n}",
            lambda n=n: measure_example(n, args.work, args.tasks, args.seed, args.difficulty),
        )
        for n in args.example
    ]
    for name, run in runs:
        figs = run()
        apis[name] = figs
        short = {k: v for k, v in figs.items() if k not in ("refusals", "run")}
        print(f"{name}: {short}", file=sys.stderr)
        for reason, n in figs["refusals"].items():
            print(f"    {n:3d}  {reason}", file=sys.stderr)
    print(json.dumps({"apis": apis, "seed": args.seed, "load_average":
                      round(os.getloadavg()[0], 2)}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
