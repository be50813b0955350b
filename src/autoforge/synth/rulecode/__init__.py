"""Tool code derived without a model: the tool's class, templates, effects of transitions, guards
for stated rules, paging, the signed-in user's scope.

A room of :mod:`autoforge.synth`: its modules are internal to the stage; other stages
import through ``autoforge.synth``'s face.
"""
