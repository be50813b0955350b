"""Gold replay of benchmark tasks without their environments: trajectories built from the
recorded gold outcome, and a do-nothing baseline, both scored by the ordinary reward.

There is no hand-written tau environment here, so the replay uses what ``gt_replay.json``
recorded: the gold ``db_diff`` applied to ``db.json`` and hashed by the benchmark's own method
(when hashing ``db.json`` reproduces the recorded initial hash; otherwise, e.g. telecom tasks
whose initial state comes from initialisation actions, the recorded hashes), the gold actions
with their recorded observations (ACTION), and a final agent message that says the required
outputs, numbers written with thousands separators (COMMUNICATE, exercising the comma rule).

Environment assertions can only be answered for states whose outcome was recorded:
:class:`RecordedAssertions` returns the recorded value in the live-replay final state and
``None`` (not evaluable) anywhere else.
"""

from __future__ import annotations

import json
import re
from typing import Any

from autoforge.adapters.tau.domain import BenchDomain, ReplayRecord
from autoforge.adapters.tau.statehash import apply_diff
from autoforge.rollout import EndReason, ToolCallRecord, Trajectory
from autoforge.tasks import EnvAssertion, GoldCall, Task

_NUMBER = re.compile(r"^-?\d{4,}(\.\d+)?$")
NOOP_REPLY = "I'm sorry, I cannot help with that."


def say_output(output: str) -> str:
    """How the gold agent says an output: ``23553`` -> ``23,553`` (tau's rule strips commas)."""
    if _NUMBER.match(output):
        whole, _, frac = output.partition(".")
        return f"{int(whole):,}" + (f".{frac}" if frac else "")
    return output


class GoldReplayer:
    """Builds gold and do-nothing trajectories for the tasks of one loaded domain."""

    def __init__(self, domain: BenchDomain) -> None:
        self.domain = domain
        self.base_hash = domain.hasher.hash(domain.db)
        self.base_user_hash = (
            domain.hasher.hash(domain.user_db) if domain.user_db is not None else None
        )

    def reproducible(self, record: ReplayRecord) -> bool:
        """Whether ``db.json`` (+ ``user_db.json``) is this task's initial state, by hash."""
        if record.initial_hash != self.base_hash:
            return False
        return record.initial_user_hash is None or record.initial_user_hash == self.base_user_hash

    def final_hashes(self, record: ReplayRecord) -> tuple[str, str | None, str]:
        """Hashes after the gold: computed from the diffs when possible, else recorded."""
        if not self.reproducible(record):
            return record.replay_hash, record.replay_user_hash, "recorded"
        final = self.domain.hasher.hash(apply_diff(self.domain.db, record.db_diff))
        user = None
        if self.domain.user_db is not None and record.initial_user_hash is not None:
            user_state = apply_diff(self.domain.user_db, record.user_db_diff)
            user = self.domain.hasher.hash(user_state)
        return final, user, "computed"

    def _trajectory(self, task: Task, record: ReplayRecord) -> Trajectory:
        return Trajectory(
            task_id=task.id,
            env_id=task.env_id,
            domain=task.domain,
            messages=[
                {"role": "system", "content": self.domain.policy},
                {"role": "user", "content": task.scenario.as_text()},
            ],
            end_reason=EndReason.USER_STOP,
            meta={"replay_of": record.task_id},
        )

    def gold(self, task_id: str) -> Trajectory:
        """The recorded gold outcome of ``task_id`` as a trajectory."""
        task, record = self.domain.task(task_id), self.domain.replay[task_id]
        traj = self._trajectory(task, record)
        final, user, source = self.final_hashes(record)
        traj.final_state_hash, traj.final_user_state_hash = final, user
        traj.meta["hash_source"] = source
        actions = task.gold_calls
        for step, result in enumerate(record.action_results):
            call = _tool_call(step, result, _gold_action(actions, step, result))
            traj.tool_calls.append(call)
            traj.messages.extend(_call_messages(call))
        said = [say_output(o.text) for o in task.required_outputs]
        closing = "Done." + ("" if not said else " To confirm: " + "; ".join(said) + ".")
        traj.messages.append({"role": "assistant", "content": closing})
        return traj

    def noop(self, task_id: str) -> Trajectory:
        """An agent that calls no tool and helps with nothing."""
        task, record = self.domain.task(task_id), self.domain.replay[task_id]
        traj = self._trajectory(task, record)
        if self.reproducible(record):
            traj.final_state_hash, traj.final_user_state_hash = (
                self.base_hash,
                (self.base_user_hash if record.initial_user_hash is not None else None),
            )
        else:
            traj.final_state_hash = record.initial_hash
            traj.final_user_state_hash = record.initial_user_hash
        traj.messages.append({"role": "assistant", "content": NOOP_REPLY})
        return traj


def _gold_action(actions: list[GoldCall], step: int, result: dict[str, Any]) -> GoldCall | None:
    action_id = result.get("action_id")
    if action_id is not None:
        return next((a for a in actions if a.action_id == action_id), None)
    if step < len(actions) and actions[step].name == result.get("name"):
        return actions[step]
    return None


def _tool_call(step: int, result: dict[str, Any], action: GoldCall | None) -> ToolCallRecord:
    return ToolCallRecord(
        step=step,
        call_id=f"gold_{step}",
        name=str(result["name"]),
        arguments=dict(action.arguments) if action else {},
        requestor=str(result.get("requestor") or "assistant"),
        ok=not result.get("error", False),
        observation=str(result.get("observation", "")),
    )


def _call_messages(call: ToolCallRecord) -> list[dict[str, Any]]:
    assistant = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call.call_id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
            }
        ],
    }
    tool = {"role": "tool", "tool_call_id": call.call_id, "content": call.observation}
    return [assistant, tool]


class RecordedAssertions:
    """Environment assertions answered from ``gt_replay.json``, and nowhere else.

    In the live-replay final state (both hashes equal the recorded ones) the recorded outcome
    is returned; in any other state the assertion cannot be evaluated without the benchmark's
    environment code, so the answer is ``None``.
    """

    def __init__(self, domain: BenchDomain) -> None:
        self.domain = domain

    def __call__(self, assertion: EnvAssertion, traj: Trajectory) -> bool | None:
        record = self.domain.replay.get(traj.task_id)
        if record is None:
            return None
        if (traj.final_state_hash, traj.final_user_state_hash) != (
            record.replay_hash,
            record.replay_user_hash,
        ):
            return None
        for rec in record.assertions_after_replay:
            if (
                rec["func_name"] == assertion.func_name
                and rec.get("env_type", "assistant") == assertion.env_type
                and rec.get("arguments", {}) == assertion.arguments
            ):
                passed = bool(rec["passes_after_live_replay"])
                return assertion.assert_value if passed else not assertion.assert_value
        return None
