"""Hand-labelled real transcripts: the simulated user and its MEU judge measured on episodes
that no rule of the judge built.

The set lives in ``benchmarks/transcripts/`` (how it was made and the labelling rubric:
``benchmarks/transcripts/README.md``):

- ``episodes.jsonl.gz``: episodes played by ``autoforge eval`` with the embedded models, one row
  each (the trajectory without its system prompt, the players, the split);
- ``tasks.jsonl.gz``: the tasks those episodes played;
- ``labels.jsonl``: what a reader found wrong in each episode's user turns, written before any
  rule was tuned on it.

The split is fixed by the episode's id alone (:func:`split_of`): half ``dev`` (read while
developing the user and the judge), half ``held`` (only ever scored).

Subcommands:

- ``collect EVAL_DIR ...``: add the episodes of finished evals to the set;
- ``render [--split S] [--ids ID ...]``: the episodes as text for a labeller (scenario, numbered
  user turns, the agent's lines and tool calls, how the episode ended);
- ``disagree``: the dev episodes where the code rules and the label differ, both shown;
- ``agree LABELS``: a second reader's labels of some episodes against the set's (Cohen's kappa);
- ``score [--split S] [--llm MODEL]``: precision and recall of the judge per fault kind against
  the labels, the code rules and (with ``--llm``) the LLM part alone and both together, with
  never-flag and always-flag beside; plus the share of episodes whose user conveyed every goal.
  Last line: one JSON object.

Run: ``python benchmarks/transcripts.py score --split held``.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import json
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from autoforge.rollout.judge import JudgeVerdict, code_verdict, judge_user
from autoforge.rollout.meu import RULE_FAULTS, code_hits
from autoforge.rollout.trajectory import Trajectory
from autoforge.tasks import Task

DATA = Path(__file__).resolve().parent / "transcripts"
EPISODES = DATA / "episodes.jsonl.gz"
TASKS = DATA / "tasks.jsonl.gz"
LABELS = DATA / "labels.jsonl"

#: The kinds of user error a label names (``other``: an error of none of these kinds).
LABEL_KINDS: tuple[str, ...] = (
    "change_fact",
    "invent_fact",
    "stop_early",
    "drop_goal",
    "role_confusion",
    "other",
)
SCORED_KINDS: tuple[str, ...] = (*LABEL_KINDS, "any")
_TEXT_CAP = 600


def episode_id(traj: Trajectory, tag: str = "") -> str:
    """``env:task:trial`` (``tag/env:task:trial`` for a tagged collection, e.g. the same tasks
    replayed by a later user loop): unique in the set and stable across collections."""
    return f"{tag + '/' if tag else ''}{traj.env_id}:{traj.task_id}:{traj.trial}"


def split_of(episode: str) -> str:
    """``held`` or ``dev``, from a hash of the episode id alone (fixed before labelling)."""
    return "held" if hashlib.sha256(episode.encode()).digest()[0] % 2 else "dev"


# --------------------------------------------------------------------------- storage


def _read_gz(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        return
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _write_gz(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, sort_keys=True) + "\n")


def load_episodes(split: str = "all") -> list[dict[str, Any]]:
    """The stored episodes of one split (``dev``, ``held`` or ``all``), in id order."""
    rows = sorted(_read_gz(EPISODES), key=lambda r: r["episode"])
    return [r for r in rows if split == "all" or r["split"] == split]


def load_tasks() -> dict[str, Task]:
    """The stored tasks by ``env:task`` id."""
    tasks = (Task.model_validate(row) for row in _read_gz(TASKS))
    return {f"{t.env_id}:{t.id}": t for t in tasks}


def load_labels() -> dict[str, dict[str, Any]]:
    """The labels by episode id (the last line for an id wins)."""
    if not LABELS.is_file():
        return {}
    out: dict[str, dict[str, Any]] = {}
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["episode"]] = row
    return out


def collect(eval_dirs: list[Path], tag: str = "") -> int:
    """Add the episodes of finished evals (their tasks too), ids tagged with ``tag``; returns
    how many were new."""
    episodes = {r["episode"]: r for r in _read_gz(EPISODES)}
    tasks = {f"{t['env_id']}:{t['id']}": t for t in _read_gz(TASKS)}
    added = 0
    for folder in eval_dirs:
        config = json.loads((folder / "eval_config.json").read_text(encoding="utf-8"))
        used = _eval_tasks(folder, config)
        for line in (folder / "trajectories.jsonl").read_text(encoding="utf-8").splitlines():
            traj = Trajectory.model_validate_json(line)
            if traj.infra_error:
                continue
            eid = episode_id(traj, tag)
            if eid in episodes:
                continue
            row = traj.model_dump(mode="json")
            row["messages"] = [m for m in row["messages"] if m.get("role") != "system"]
            episodes[eid] = {
                "episode": eid,
                "split": split_of(eid),
                "players": config.get("labels", {}),
                "tag": tag,
                "trajectory": row,
            }
            tasks[f"{traj.env_id}:{traj.task_id}"] = used[traj.task_id]
            added += 1
    _write_gz(EPISODES, (episodes[k] for k in sorted(episodes)))
    _write_gz(TASKS, (tasks[k] for k in sorted(tasks)))
    return added


def _eval_tasks(folder: Path, config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The tasks an eval played, as JSON rows by id (the run dir's ``tasks.jsonl``)."""
    env_dir = Path(config["env_dir"])
    for candidate in (env_dir.parent / "tasks.jsonl", env_dir / "tasks.jsonl"):
        if candidate.is_file():
            rows = [json.loads(x) for x in candidate.read_text(encoding="utf-8").splitlines() if x]
            return {r["id"]: r for r in rows}
    raise SystemExit(f"{folder}: no tasks.jsonl beside {env_dir}")


# --------------------------------------------------------------------------- rendering


def _short(value: object, cap: int = _TEXT_CAP) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    text = " ".join(str(text).split())
    return text if len(text) <= cap else text[:cap] + " [...]"


def render(row: dict[str, Any], task: Task) -> str:
    """One episode as a labeller reads it: what the user was told, then the chat."""
    traj = row["trajectory"]
    sc = task.scenario
    lines = [
        f"=== episode {row['episode']}  (split {row['split']})",
        "--- what the simulated user was given",
        f"intent: {sc.intent}",
        f"opening request: {sc.question}",
        f"known info: {sc.known_info}",
        f"unknown info: {sc.unknown_info}",
        f"facts: {_short(task.user_facts)}",
        f"identity: {_short(task.user_identity)}",
        f"the agent's job (gold calls): {_short([c.name for c in task.gold_calls])}",
        "--- the chat (U<n>: the n-th user turn)",
    ]
    turn = 0
    for msg in traj["messages"]:
        role = msg.get("role")
        if role == "user":
            turn += 1
            lines.append(f"U{turn}: {_short(msg.get('content') or '', 2000)}")
        elif role == "assistant":
            if msg.get("content"):
                lines.append(f"AGENT: {_short(msg['content'], 1200)}")
            for call in msg.get("tool_calls") or []:
                fn = call.get("function", {})
                lines.append(f"AGENT calls {fn.get('name')}({_short(fn.get('arguments'), 300)})")
        elif role == "tool":
            lines.append(f"  tool result: {_short(msg.get('content') or '', 300)}")
    lines.append(f"--- ended: {traj['end_reason']} after {traj['n_user_turns']} user turns")
    if traj.get("user_notes"):
        lines.append("--- loop notes (text the loop cut or re-asked; rejected drafts not kept):")
        lines.extend(f"  - {_short(n, 300)}" for n in traj["user_notes"])
    return "\n".join(lines)


# --------------------------------------------------------------------------- scoring


def label_kinds(label: dict[str, Any]) -> set[str]:
    """The kinds of error a label names (empty: a faithful user)."""
    return {e["kind"] for e in label.get("errors", [])}


def verdict_kinds(verdict: JudgeVerdict) -> set[str]:
    """The kinds a verdict flags, through the rule -> kind map of the judge."""
    return {RULE_FAULTS.get(rule, "other") for rule in verdict.rules}


def confusion(pairs: list[tuple[set[str], set[str]]], kind: str) -> dict[str, Any]:
    """tp/fp/fn/tn, precision and recall of one kind (``any``: some error vs some flag)."""
    tp = fp = fn = tn = 0
    for truth, flags in pairs:
        t = bool(truth) if kind == "any" else kind in truth
        f = bool(flags) if kind == "any" else kind in flags
        tp, fp = tp + (t and f), fp + (f and not t)
        fn, tn = fn + (t and not f), tn + (not t and not f)
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "precision": round(tp / (tp + fp), 3) if tp + fp else None,
        "recall": round(tp / (tp + fn), 3) if tp + fn else None,
    }


def table(name: str, pairs: list[tuple[set[str], set[str]]]) -> dict[str, Any]:
    """Per kind confusion of one judge, printed and returned."""
    rows = {k: confusion(pairs, k) for k in SCORED_KINDS}
    print(f"\n{name} ({len(pairs)} episodes)")
    print(f"  {'kind':15} {'tp':>4} {'fp':>4} {'fn':>4} {'tn':>4}  precision  recall")
    for kind, r in rows.items():
        p = "-" if r["precision"] is None else f"{r['precision']:.2f}"
        rc = "-" if r["recall"] is None else f"{r['recall']:.2f}"
        print(f"  {kind:15} {r['tp']:4} {r['fp']:4} {r['fn']:4} {r['tn']:4}  {p:>9}  {rc:>6}")
    return rows


async def _llm_flags(
    model: str, items: list[tuple[Task, Trajectory]], max_tokens: int
) -> list[set[str] | None]:
    from autoforge.llm import LLMClient
    from autoforge.llm.config import build_config

    config = build_config(environ={}, overrides={"embedded": {"model": model, "ctx_size": 8192}})
    client = LLMClient(config)
    out: list[set[str] | None] = []
    try:
        for i, (task, traj) in enumerate(items, 1):
            t0 = time.perf_counter()
            try:
                verdict = await judge_user(
                    _Capped(client, max_tokens), task, traj, apply=False, code=False
                )
                out.append(verdict_kinds(verdict))
            except Exception as exc:  # a failed judge call: counted apart, not as a flag
                print(f"  llm judge failed on {traj.task_id}: {exc}", file=sys.stderr)
                out.append(None)
            print(f"  llm {i}/{len(items)} {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    finally:
        await client.aclose()
    return out


class _Capped:
    """The client with the judge's answers capped (a small model can ramble for minutes)."""

    def __init__(self, client: Any, max_tokens: int) -> None:
        self.client, self.max_tokens = client, max_tokens

    async def structured(self, messages: list[dict[str, Any]], output: Any, **kw: Any) -> Any:
        return await self.client.structured(
            messages, output, **{**kw, "max_tokens": self.max_tokens}
        )


def score(split: str, llm: str | None, max_tokens: int) -> dict[str, Any]:
    """The judge against the labels of one split; the faithful-user shares beside."""
    labels, tasks = load_labels(), load_tasks()
    rows = [r for r in load_episodes(split) if r["episode"] in labels]
    items = [
        (tasks[f"{r['trajectory']['env_id']}:{r['trajectory']['task_id']}"],
         Trajectory.model_validate(r["trajectory"]))
        for r in rows
    ]  # fmt: skip
    truth = [label_kinds(labels[r["episode"]]) for r in rows]
    code = [
        verdict_kinds(code_verdict(t, tr.model_copy(deep=True), apply=False)) for t, tr in items
    ]
    figures: dict[str, Any] = {
        "episodes": len(rows),
        "unlabelled": len(load_episodes(split)) - len(rows),
        "never-flag": table("never-flag", [(t, set()) for t in truth]),
        "always-flag": table("always-flag", [(t, set(LABEL_KINDS)) for t in truth]),
        "code": table("code rules", list(zip(truth, code, strict=True))),
    }
    if llm:
        llm_flags = asyncio.run(_llm_flags(llm, items, max_tokens))
        answered = [i for i, f in enumerate(llm_flags) if f is not None]
        figures["llm_failed"] = len(rows) - len(answered)
        figures[f"llm-{llm}"] = table(
            f"LLM part alone ({llm})", [(truth[i], llm_flags[i] or set()) for i in answered]
        )
        figures[f"code+llm-{llm}"] = table(
            f"code rules + LLM part ({llm})",
            [(truth[i], code[i] | (llm_flags[i] or set())) for i in answered],
        )
    figures["per_domain"] = _per_domain(rows, truth, labels)
    return figures


def _per_domain(
    rows: list[dict[str, Any]], truth: list[set[str]], labels: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """Per environment: episodes, share with a user error, share whose user conveyed every goal."""
    out: dict[str, dict[str, Any]] = {}
    for row, kinds in zip(rows, truth, strict=True):
        env = row["trajectory"]["env_id"] + (f" ({row['tag']})" if row.get("tag") else "")
        d = out.setdefault(env, {"episodes": 0, "user_error": 0, "goals_conveyed": 0})
        d["episodes"] += 1
        d["user_error"] += bool(kinds)
        d["goals_conveyed"] += bool(labels[row["episode"]].get("goals_conveyed"))
    for d in out.values():
        n = d["episodes"]
        d["user_error_share"] = round(d["user_error"] / n, 3)
        d["goals_conveyed_share"] = round(d["goals_conveyed"] / n, 3)
    print("\nper environment: episodes, user-error share, every-goal-conveyed share")
    for env, d in sorted(out.items()):
        error, conveyed = d["user_error_share"], d["goals_conveyed_share"]
        print(f"  {env:24} {d['episodes']:4}  {error:.2f}  {conveyed:.2f}")
    return out


def disagreements() -> None:
    """Per dev episode where the code rules and the label disagree: both sides, then the text
    (the held half is never printed)."""
    labels, tasks = load_labels(), load_tasks()
    for row in load_episodes("dev"):
        label = labels.get(row["episode"])
        if label is None:
            continue
        task = tasks[f"{row['trajectory']['env_id']}:{row['trajectory']['task_id']}"]
        traj = Trajectory.model_validate(row["trajectory"])
        hits = code_hits(task, traj)
        if {RULE_FAULTS.get(h.rule, "other") for h in hits} == label_kinds(label):
            continue
        print(render(row, task))
        print("--- label: " + json.dumps(label.get("errors", [])))
        print("--- code rules: " + json.dumps([h.model_dump() for h in hits]) + "\n")


def agreement(second: Path) -> dict[str, Any]:
    """How far a second reader's labels (``second``, same schema) agree with the set's, on the
    episodes both labelled: per kind and for "any error", the share of equal answers and
    Cohen's kappa (agreement beyond what the two readers' rates give by chance)."""
    first = load_labels()
    other = {
        row["episode"]: row
        for row in map(json.loads, second.read_text(encoding="utf-8").splitlines())
        if row
    }
    common = sorted(set(first) & set(other))
    out: dict[str, Any] = {"episodes": len(common)}
    for kind in SCORED_KINDS:
        a = [_has(first[e], kind) for e in common]
        b = [_has(other[e], kind) for e in common]
        out[kind] = {"agree": _share(a, b), "kappa": _kappa(a, b)}
    print(json.dumps(out, sort_keys=True))
    return out


def _has(label: dict[str, Any], kind: str) -> bool:
    kinds = label_kinds(label)
    return bool(kinds) if kind == "any" else kind in kinds


def _share(a: list[bool], b: list[bool]) -> float | None:
    return round(sum(x == y for x, y in zip(a, b, strict=True)) / len(a), 3) if a else None


def _kappa(a: list[bool], b: list[bool]) -> float | None:
    if not a:
        return None
    seen = sum(x == y for x, y in zip(a, b, strict=True)) / len(a)
    pa, pb = sum(a) / len(a), sum(b) / len(b)
    chance = pa * pb + (1 - pa) * (1 - pb)
    return round((seen - chance) / (1 - chance), 3) if chance < 1 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    col = sub.add_parser("collect", help="add finished evals' episodes to the set")
    col.add_argument("eval_dirs", nargs="+", type=Path)
    col.add_argument("--tag", default="", help="prefix of the episode ids (a later user loop)")
    ren = sub.add_parser("render", help="print episodes as text for labelling")
    ren.add_argument("--split", default="all", choices=["dev", "held", "all"])
    ren.add_argument("--ids", nargs="*", default=None, help="only these episode ids")
    ren.add_argument("--unlabelled", action="store_true", help="only episodes with no label")
    sub.add_parser("disagree", help="dev episodes where the code rules and the label differ")
    agr = sub.add_parser("agree", help="a second reader's labels vs the set's (kappa)")
    agr.add_argument("labels", type=Path, help="the second reader's labels.jsonl")
    sco = sub.add_parser("score", help="judge vs labels, per fault kind")
    sco.add_argument("--split", default="held", choices=["dev", "held", "all"])
    sco.add_argument("--llm", default=None, help="also the LLM part: default (1.5B) or small")
    sco.add_argument("--judge-max-tokens", type=int, default=384)
    args = parser.parse_args()
    if args.cmd == "collect":
        added = collect(args.eval_dirs, args.tag)
        print(f"added {added} episodes; the set has {len(load_episodes())}")
    elif args.cmd == "render":
        tasks, labels = load_tasks(), load_labels()
        for row in load_episodes(args.split):
            if args.ids is not None and row["episode"] not in args.ids:
                continue
            if args.unlabelled and row["episode"] in labels:
                continue
            key = f"{row['trajectory']['env_id']}:{row['trajectory']['task_id']}"
            print(render(row, tasks[key]) + "\n")
    elif args.cmd == "agree":
        agreement(args.labels)
    elif args.cmd == "disagree":
        disagreements()
    else:
        started = time.perf_counter()
        figures = score(args.split, args.llm, args.judge_max_tokens)
        figures["split"] = args.split
        figures["wall_s"] = round(time.perf_counter() - started, 1)
        print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
