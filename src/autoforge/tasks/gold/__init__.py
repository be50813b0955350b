"""The gold run: a blueprint executed on S0 to S*, kept inside the docs' rules (preconditions,
plausible sequences, writes that change something) and behind the quality gates.

A room of :mod:`autoforge.tasks`: its modules are internal to the stage; other stages
import through ``autoforge.tasks``'s face.
"""
