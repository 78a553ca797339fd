"""CPU twin of CANN GraphEngine's Python package ``ge``.

Submodules are imported on demand (``ge.custom_op``, ``ge.runtime``, ``ge.graph``, ``ge.es``,
``ge.session``, ``ge.ge_global``, ``ge.error``); see twin/python/README.md for the module map.
"""
