"""Tool code the model writes: the draft it completes, its fills of open steps, whole functions,
prompts, few-shot examples and repair hints.

A room of :mod:`autoforge.synth`: its modules are internal to the stage; other stages
import through ``autoforge.synth``'s face.
"""
