"""Episode state: copy-on-write overlays on a shared base, plain JSON values, canonical hashes,
diffs and base deltas.

A room of :mod:`autoforge.env`: its modules are internal to the stage; other stages
import through ``autoforge.env``'s face.
"""
