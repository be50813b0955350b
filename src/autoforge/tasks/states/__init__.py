"""Start states S0: drawn from the real records, or generated from the schema's value domains, and
repaired when a business rule refuses a gold call.

A room of :mod:`autoforge.tasks`: its modules are internal to the stage; other stages
import through ``autoforge.tasks``'s face.
"""
