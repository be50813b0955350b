"""Checks a candidate tool must pass before it is accepted: test states and arguments, the docs'
checkable claims, and why a tool was left out.

A room of :mod:`autoforge.synth`: its modules are internal to the stage; other stages
import through ``autoforge.synth``'s face.
"""
