"""Does a synthesized environment behave like the real one: replay of a benchmark's ground truth,
differential probes against a reference API, the environment directory checked against its own
docs.

A room of :mod:`autoforge.synth`: its modules are internal to the stage; other stages
import through ``autoforge.synth``'s face.
"""
