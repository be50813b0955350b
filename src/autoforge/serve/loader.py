"""Load what to serve: the environment ``ENV_OR_RUN_DIR`` names and the tasks beside it.

``ENV_OR_RUN_DIR`` is resolved by :meth:`autoforge.env.EnvDir.resolve` (an environment
directory, a run directory holding one and usually a ``tasks.jsonl``, a bundled example, or an
installed environment package).
"""

from __future__ import annotations

from pathlib import Path

from autoforge.env import EnvDir, Environment
from autoforge.errors import UserError
from autoforge.serve.service import EnvService, Limits
from autoforge.tasks import Task, read_tasks


def load_service(
    path: str | Path,
    tasks: str | Path | None = None,
    *,
    limits: Limits | None = None,
    call_timeout_s: float | None = None,
    isolated: bool = False,
) -> EnvService:
    """Load the environment (sandbox-checked by the runtime) and its tasks into a service.

    ``call_timeout_s``: the runtime's per-call time limit (its default when None);
    ``isolated``: run tool code in a subprocess per episode (the runtime's hard boundary).
    """
    target = EnvDir.resolve(path, tasks)
    env: Environment = target.load(call_timeout_s=call_timeout_s)
    served: list[Task] = read_tasks(target.tasks_file) if target.tasks_file else []
    wrong = sorted({t.env_id for t in served} - {env.spec.name})
    if wrong:
        raise UserError(
            f"{target.tasks_file} has tasks of environment(s) {', '.join(wrong)}, but "
            f"{target.root} is {env.spec.name!r}"
        )
    return EnvService(env, served, limits=limits, isolated=isolated)
