"""The tool dependency graph and the walks on it: which outputs feed which inputs, seeded random
walks, merged walks, the graph as SVG.

A room of :mod:`autoforge.tasks`: its modules are internal to the stage; other stages
import through ``autoforge.tasks``'s face.
"""
