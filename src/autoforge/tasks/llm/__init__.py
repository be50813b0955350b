"""The model's hooks into task synthesis: the edge judge, the merge advisor and the scenario
writer, with their shared bridge and statistics.

A room of :mod:`autoforge.tasks`: its modules are internal to the stage; other stages
import through ``autoforge.tasks``'s face.
"""
