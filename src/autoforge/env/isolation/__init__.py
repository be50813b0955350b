"""Untrusted tool code contained: the AST sandbox and size guards, the operating-system boundary,
the fork server and its workers, and the host side of contained episodes.

A room of :mod:`autoforge.env`: its modules are internal to the stage; other stages
import through ``autoforge.env``'s face.
"""
