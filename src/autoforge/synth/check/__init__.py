"""The conformance check of ``autoforge check``: does an environment behave like a verifiable RL
environment (deterministic, hashable, resettable) and do what its docs say (round trips the
docs imply, every stated rule carried by a check or an effect).

A room of :mod:`autoforge.synth`: it reads tool names through :mod:`autoforge.lexicon`, which
the environment stage may not import. Other stages import it through ``autoforge.synth``'s face.
"""
