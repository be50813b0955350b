"""The behaviour model of each tool: read from the docs' sentences, the policy and the data,
derived deterministically and compiled into tool code.

A room of :mod:`autoforge.synth`: its modules are internal to the stage; other stages
import through ``autoforge.synth``'s face.
"""
