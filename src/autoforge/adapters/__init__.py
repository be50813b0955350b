"""Forged environments handed to other ecosystems: OpenEnv, verifiers, installable packages.

Every adapter serves the same thing, a forged run directory (``env/`` + ``tasks.jsonl``), through
the one serving core (:class:`autoforge.serve.service.EnvService`): episodes start from a task's
S0, tool calls run in the sandboxed runtime, and the reward is the rollout's own
(:func:`autoforge.rollout.reward.compute_reward`: final state hash == S* hash and every required
output said). The adapters only translate protocols.

- :mod:`autoforge.adapters.forged`: a run directory (or installed package) as a served env;
- :mod:`autoforge.adapters.openenv`: an OpenEnv ``MCPEnvironment`` (``openenv-core``), its
  server app and client, and a TRL ``environment_factory`` class;
- :mod:`autoforge.adapters.verifiers`: a verifiers ``MultiTurnEnv`` (tools, simulated user as
  the responder, exact-state rubric);
- :mod:`autoforge.adapters.package`: ``autoforge export verifiers``: an installable package
  (optionally a wheel) holding the environment and its tasks, with entry points.

The third-party libraries are imported only by the module that needs them.
"""
