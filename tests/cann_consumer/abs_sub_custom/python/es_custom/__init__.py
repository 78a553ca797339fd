"""The ES wrapper package of this project: re-exports what gen_esb generated for module "custom"."""

from .es_custom_ops import *  # noqa: F401,F403


def get_module():
    """Entry point of group ge.es.plugins: this module."""
    import sys

    return sys.modules[__name__]
