"""GeApi: GE initialization and finalization (reference §3.4)."""

import os

from ge import _state
from ge.error import make_ge_error


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class GeApi:
    @classmethod
    def ge_initialize(cls, config: dict) -> int:
        """Initialize GE with string options; loads Python custom-op plugins and checks the SoC."""
        if not isinstance(config, dict) or not config:
            raise TypeError("config must be a non-empty dict")
        for key, value in config.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise TypeError("config keys and values must be strings")
        with _state.lock:
            try:
                soc = config.get("ge.socVersion")
                if soc is not None:
                    from ge import _platform

                    _platform.load_platform(soc)
                from ge._internal.plugin_loader import has_python_entries
                from ge.custom_op import bootstrap

                if has_python_entries(os.environ.get(bootstrap.ENV_NAME, "")):
                    bootstrap.load_custom_op_plugins()
            except Exception as exc:
                raise make_ge_error("GEInitialize", _describe(exc)) from exc
            _state.global_options = dict(config)
            _state.initialized = True
        return 0

    @classmethod
    def ge_finalize(cls) -> int:
        """Finalize GE: drop holders, plugin modules and registries (CANN's bridge reset)."""
        with _state.lock:
            if not _state.initialized:
                return 0  # GEFinalize without GEInitialize is a no-op in GE
            try:
                from ge.custom_op import _bridge, proto, registry

                _bridge.clear_op_impl_holders()
                _bridge.clear_loaded_op_impl_modules()
                registry.clear_registered_op_impls()
                proto.clear_registered_op_protos()
            except Exception as exc:
                raise make_ge_error("GEFinalize", _describe(exc)) from exc
            _state.global_options = {}
            _state.initialized = False
        return 0
