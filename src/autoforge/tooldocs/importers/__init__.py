"""The built-in importers, one module per format; :mod:`autoforge.tooldocs.registry` wires them."""
