"""autoforge: tool documentation in, verifiable RL environments, tasks and trained agents out.

The pipeline, one package per stage:

``tooldocs`` (ingest) -> ``synth`` (environment synthesis) -> ``env`` (runtime, sandbox, checker)
-> ``tasks`` (task synthesis) -> ``rollout`` (episodes, reward, judge) -> ``rl`` (ERPO) ->
``bench`` (evaluation). ``llm`` is the one seam every LLM call goes through; ``cli`` wires it up.
"""

__version__ = "0.1.0"
