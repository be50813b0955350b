"""The state schema: designed from the docs by rules and the model, or inferred from the data;
settings the docs state; entities read from schemas.

A room of :mod:`autoforge.synth`: its modules are internal to the stage; other stages
import through ``autoforge.synth``'s face.
"""
