"""The sample's ES package: the wrappers gen_esb generated for its proto library (module custom)."""

from es_custom_ops import *  # noqa: F401,F403
