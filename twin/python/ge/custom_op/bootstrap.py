"""Loading of Python custom-op plugins (``ASCEND_CUSTOM_OPP_PATH``)."""

from typing import List

from ge._internal.plugin_loader import load_plugins_from_env

from . import proto, registry

ENV_NAME = "ASCEND_CUSTOM_OPP_PATH"
MODULE_PREFIX = "_ge_py_custom_op_"


def load_custom_op_plugins() -> list:
    return load_plugins_from_env(ENV_NAME, module_prefix=MODULE_PREFIX, plugin_kind="python custom op")


def get_registered_op_impls() -> List[dict]:
    """Dicts (as CANN's bootstrap returns), not descriptors."""
    return registry.get_registered_op_impl_dicts()


def get_registered_op_protos() -> List[dict]:
    return proto.get_registered_op_proto_dicts()
