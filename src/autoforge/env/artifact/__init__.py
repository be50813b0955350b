"""The environment artifact: the spec E = (S, F), its directory and files, the rules and behaviour
model it carries, what a tool acts on and who is signed in.

A room of :mod:`autoforge.env`: its modules are internal to the stage; other stages
import through ``autoforge.env``'s face.
"""
