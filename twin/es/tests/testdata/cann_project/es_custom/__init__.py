"""The project's Python package of its ES API: the generated wrappers, as CANN's samples do."""

from es_custom_ops import *  # noqa: F401,F403
