"""One tool call: arguments validated against the documented schema (in linear time), bound to the
Python signature, under a time limit.

A room of :mod:`autoforge.env`: its modules are internal to the stage; other stages
import through ``autoforge.env``'s face.
"""
