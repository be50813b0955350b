"""Adapter for tau-bench and tau2-bench domains: their tasks as autoforge ``Task``s, their data and
gold-replay records, with the benchmark's own hash reproduced.

A domain directory (``tau-bench/retail``, ``tau2-bench/airline``, ...) holds ``tasks.json``,
``db.json`` (tau2 may add ``user_db.json``), ``policy.md``, ``tools.json`` and
``gt_replay.json`` (per task: the db diff the gold solution makes, the hashes before and after,
and the observations of its actions). tau2 hashes ``db.model_dump()``, which adds the model's
defaulted fields that ``db.json`` omits; :func:`tau2_normalise` adds them so that hashing
``db.json`` reproduces the recorded ``initial_db_hash``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from autoforge.adapters.tau.statehash import CachedStateHasher, HashKind
from autoforge.errors import UserError
from autoforge.tasks import (
    EnvAssertion,
    EvaluationCriteria,
    GoldCall,
    RequiredOutput,
    Task,
    UserScenario,
)

Family = Literal["tau-bench", "tau2-bench"]

#: Fields tau2's pydantic models default to None that ``db.json`` leaves out.
TAU2_MODEL_DEFAULTS: dict[str, dict[str, dict[str, Any]]] = {
    "airline": {"reservations": {"status": None}},
    "retail": {
        "orders": {
            "cancel_reason": None,
            "exchange_items": None,
            "exchange_new_items": None,
            "exchange_payment_method_id": None,
            "exchange_price_difference": None,
            "return_items": None,
            "return_payment_method_id": None,
        }
    },
}


def tau2_normalise(domain: str, db: dict[str, Any]) -> dict[str, Any]:
    """``db`` as tau2's ``model_dump()`` has it: defaulted fields filled in (in place)."""
    for coll, defaults in TAU2_MODEL_DEFAULTS.get(domain, {}).items():
        for record in db.get(coll, {}).values():
            for name, value in defaults.items():
                record.setdefault(name, value)
    return db


@dataclass
class ReplayRecord:
    """One task of ``gt_replay.json``: what replaying its gold solution did."""

    task_id: str
    db_diff: list[dict[str, Any]]
    user_db_diff: list[dict[str, Any]]
    initial_hash: str | None
    initial_user_hash: str | None
    gold_hash: str
    gold_user_hash: str | None
    replay_hash: str
    replay_user_hash: str | None
    changed: bool
    action_results: list[dict[str, Any]]
    assertions_after_replay: list[dict[str, Any]]


@dataclass
class BenchDomain:
    """A loaded benchmark domain."""

    family: Family
    name: str
    root: Path
    hash_kind: HashKind
    db: dict[str, Any]
    user_db: dict[str, Any] | None
    policy: str
    tools: list[dict[str, Any]]
    tasks: list[Task] = field(default_factory=list)
    raw_tasks: dict[str, dict[str, Any]] = field(default_factory=dict)
    replay: dict[str, ReplayRecord] = field(default_factory=dict)
    hasher: CachedStateHasher = field(init=False)

    def __post_init__(self) -> None:
        self.hasher = CachedStateHasher(self.hash_kind)

    @property
    def env_id(self) -> str:
        """``family/name``, e.g. ``tau2-bench/retail``."""
        return f"{self.family}/{self.name}"

    def task(self, task_id: str) -> Task:
        """The task with this id; ``KeyError`` otherwise."""
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(task_id)


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise UserError(f"{path}: file not found (is this a tau-bench / tau2-bench domain dir?)")
    return json.loads(path.read_text(encoding="utf-8"))


def _facts_from_lines(text: str | None) -> dict[str, str]:
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    return {f"fact_{i + 1}": line for i, line in enumerate(lines)}


def _tau2_scenario(raw: dict[str, Any]) -> tuple[str, dict[str, str]]:
    instructions = (raw.get("user_scenario") or {}).get("instructions")
    if not isinstance(instructions, dict):
        return str(instructions or raw.get("user_instruction") or ""), {}
    parts = [instructions.get("reason_for_call"), instructions.get("task_instructions")]
    unknown = instructions.get("unknown_info")
    if unknown:
        parts.append(f"You do not know: {unknown}")
    scenario = "\n\n".join(str(p) for p in parts if p)
    return scenario, _facts_from_lines(instructions.get("known_info"))


def tau_task(domain: str, raw: dict[str, Any], record: ReplayRecord | None) -> Task:
    """A tau-bench task as a :class:`Task` (reward: DB hash + outputs)."""
    actions = [GoldCall(name=a["name"], arguments=a.get("arguments") or {}) for a in raw["actions"]]
    return Task(
        id=str(raw["id"]),
        env_id=f"tau-bench/{domain}",
        domain=domain,
        scenario=UserScenario(text=str(raw.get("user_instruction", ""))),
        user_facts={"user_id": str(raw["user_id"])} if raw.get("user_id") else {},
        final_state_hash=record.gold_hash if record else None,
        gold_calls=actions,
        required_outputs=[RequiredOutput(text=str(o)) for o in raw.get("outputs") or []],
        criteria=EvaluationCriteria(reward_basis=["DB", "COMMUNICATE"]),
    )


def tau2_task(domain: str, raw: dict[str, Any], record: ReplayRecord | None) -> Task:
    """A tau2-bench task as a :class:`Task`, keeping its ``reward_basis``."""
    crit = raw.get("evaluation_criteria") or {}
    scenario, facts = _tau2_scenario(raw)
    criteria = EvaluationCriteria(
        reward_basis=list(crit.get("reward_basis") or raw.get("reward_basis") or ["DB"]),
        env_assertions=[EnvAssertion.model_validate(a) for a in crit.get("env_assertions") or []],
        nl_assertions=[str(a) for a in crit.get("nl_assertions") or []],
        gold_user_state_hash=record.gold_user_hash if record else None,
    )
    return Task(
        id=str(raw["id"]),
        env_id=f"tau2-bench/{domain}",
        domain=domain,
        scenario=UserScenario(text=scenario),
        user_facts=facts,
        final_state_hash=record.gold_hash if record else None,
        gold_calls=[GoldCall.model_validate(a) for a in crit.get("actions") or []],
        required_outputs=[RequiredOutput(text=str(o)) for o in crit.get("communicate_info") or []],
        criteria=criteria,
    )


def _record(family: Family, raw: dict[str, Any], initial: str | None) -> ReplayRecord:
    if family == "tau-bench":
        return ReplayRecord(
            task_id=str(raw["id"]),
            db_diff=raw["db_diff"],
            user_db_diff=[],
            initial_hash=initial,
            initial_user_hash=None,
            gold_hash=raw["gt_data_hash"],
            gold_user_hash=None,
            replay_hash=raw["gt_data_hash"],
            replay_user_hash=None,
            changed=bool(raw["db_changed"]),
            action_results=raw.get("action_results") or [],
            assertions_after_replay=[],
        )
    return ReplayRecord(
        task_id=str(raw["id"]),
        db_diff=raw["db_diff"],
        user_db_diff=raw.get("user_db_diff") or [],
        initial_hash=raw["initial_db_hash"],
        initial_user_hash=raw.get("initial_user_db_hash"),
        gold_hash=raw["gold_db_hash"],
        gold_user_hash=raw.get("gold_user_db_hash"),
        replay_hash=raw["live_replay_db_hash"],
        replay_user_hash=raw.get("live_replay_user_db_hash"),
        changed=bool(raw["db_changed"] or raw.get("user_db_changed")),
        action_results=raw.get("action_results") or [],
        assertions_after_replay=raw.get("env_assertions_after_live_replay") or [],
    )


def _load_tools(root: Path) -> list[dict[str, Any]]:
    path = root / "tools.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
    return list(data) if isinstance(data, list) else []


def load_domain(root: str | Path, *, with_replay: bool = True) -> BenchDomain:
    """Load a tau-bench or tau2-bench domain directory (family told by its tasks' shape)."""
    root = Path(root)
    raw_tasks = _read_json(root / "tasks.json")
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise UserError(f"{root / 'tasks.json'}: expected a non-empty list of tasks")
    family: Family = "tau2-bench" if "user_scenario" in raw_tasks[0] else "tau-bench"
    name = root.name
    db = _read_json(root / "db.json")
    user_db = _read_json(root / "user_db.json") if (root / "user_db.json").is_file() else None
    if family == "tau2-bench":
        tau2_normalise(name, db)
    policy_path = root / "policy.md"
    domain = BenchDomain(
        family=family,
        name=name,
        root=root,
        hash_kind="tau" if family == "tau-bench" else "tau2",
        db=db,
        user_db=user_db,
        policy=policy_path.read_text(encoding="utf-8") if policy_path.is_file() else "",
        tools=_load_tools(root),
    )
    replay_raw = _read_json(root / "gt_replay.json") if with_replay else {"tasks": []}
    initial = replay_raw.get("initial_data_hash")
    domain.replay = {str(r["id"]): _record(family, r, initial) for r in replay_raw["tasks"]}
    make = tau_task if family == "tau-bench" else tau2_task
    for raw in raw_tasks:
        record = domain.replay.get(str(raw["id"]))
        domain.raw_tasks[str(raw["id"])] = raw
        domain.tasks.append(make(name, raw, record))
    return domain
