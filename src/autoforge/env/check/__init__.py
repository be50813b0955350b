"""The conformance check of ``autoforge check``: does an environment behave like a verifiable RL
environment and do what its docs say (round trips, stated rules).

A room of :mod:`autoforge.env`: its modules are internal to the stage; other stages
import through ``autoforge.env``'s face.
"""
