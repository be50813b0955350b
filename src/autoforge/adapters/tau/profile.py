"""The tau profile: what the generic stages take from this adapter (see :mod:`autoforge.profiles`).

Imported by name by the stages that ask, so it imports only the importer (tooldocs level); the
export is imported when it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autoforge.adapters.tau import importer

IMPORTERS: list[dict[str, Any]] = [
    {
        "name": "bench",
        "detect": importer.detect,
        "load": importer.load,
        "priority": 50,
        "normalizes": True,
        "description": "benchmark domain directory: tools.json + policy.md + tools_meta.json",
    }
]

#: tau's hand-off tool: a successful call ends the episode as a transfer to a human agent
TRANSFER_TOOLS: tuple[str, ...] = ("transfer_to_human_agents",)


def write_tau2(tasks: Sequence[Any], spec: Any, out_dir: Path) -> list[Path]:
    """The forge export ``exports/tau2/``; returns the files worth listing."""
    from autoforge.adapters.tau.export import export_tau2

    out = export_tau2(tasks, spec, out_dir)
    return [out / "tasks.json", out / "db.json"]


TASK_EXPORTERS = {"tau2": write_tau2}
