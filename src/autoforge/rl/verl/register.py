"""Register autoforge's verl plugins in a process: the ``erpo`` estimator, the
``autoforge_erpo`` trainer mode and the ``autoforge_agent`` agent loop.

verl builds its trainer and agent-loop workers in Ray actors, so registering in the launching
process is not enough: the emitted launch script sets Ray's
``runtime_env.worker_process_setup_hook`` to :func:`setup`, which every Ray worker runs at start.
"""

from __future__ import annotations


def setup() -> None:
    """Import the plugin modules (their import registers them); idempotent."""
    from autoforge.rl.verl import agent_loop, trainer  # noqa: F401
    from autoforge.rl.verl.estimator import register

    register()
