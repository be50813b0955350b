"""What the simulated user knows and says: identity, known facts, everyday phrasing of tools and
fields, the question and persona.

A room of :mod:`autoforge.tasks`: its modules are internal to the stage; other stages
import through ``autoforge.tasks``'s face.
"""
