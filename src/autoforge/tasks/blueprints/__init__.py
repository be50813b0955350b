"""From a walk to a blueprint: the DAG of tool calls and reasoning nodes, every argument bound,
records chosen by how they differ, fact values chosen.

A room of :mod:`autoforge.tasks`: its modules are internal to the stage; other stages
import through ``autoforge.tasks``'s face.
"""
