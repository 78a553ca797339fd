"""OpCompileContext and CompilePlatformInfo (§1.5, §1.6)."""

from typing import Callable, Dict, Mapping, Optional, Union

from ge._lease import NATIVE_EXPIRED, Lease
from ge._platform import PlatformConfig

from ._ctx_base import SchemaTensorAccess
from ._node import NodeSpec

PlatformSource = Union[PlatformConfig, Callable[[], PlatformConfig], None]


def _check_key(value, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string")
    if not value:
        raise ValueError(f"{name} must not be empty")
    return value


class _PlatformSnapshot:
    """Resolves the platform source once per context; a failure is remembered."""

    __slots__ = ("_source", "_config", "_failed")

    def __init__(self, source: PlatformSource) -> None:
        self._source, self._failed = source, False
        self._config: Optional[PlatformConfig] = None

    def get(self) -> PlatformConfig:
        if self._config is not None:
            return self._config
        if not self._failed:
            try:
                config = self._source() if callable(self._source) else self._source
            except Exception:  # the C++ side reports only a status, so does the twin
                config = None
            if isinstance(config, PlatformConfig):
                self._config = config
                return config
            self._failed = True
        raise RuntimeError("Failed to get platform infos")


class CompilePlatformInfo:
    """Borrowed view of the compile-time platform (ini sections of the session's SoC)."""

    __slots__ = ("_snapshot", "_lease")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _snapshot: _PlatformSnapshot
    _lease: Lease

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("ge.custom_op.CompilePlatformInfo: No constructor defined!")

    @classmethod
    def _borrow(cls, snapshot: _PlatformSnapshot, lease: Lease) -> "CompilePlatformInfo":
        view = object.__new__(cls)
        view._snapshot, view._lease = snapshot, lease
        return view

    def _config(self) -> PlatformConfig:
        self._lease.check(NATIVE_EXPIRED)
        return self._snapshot.get()

    def get_platform_resource(self, group: str, key: str) -> str:
        self._lease.check(NATIVE_EXPIRED)
        _check_key(group, "group")
        _check_key(key, "key")
        section = self._config().sections.get(group)
        if section is None or key not in section:
            raise KeyError(f"{group}:{key}")
        return section[key]

    def get_platform_resource_group(self, group: str) -> Dict[str, str]:
        self._lease.check(NATIVE_EXPIRED)
        _check_key(group, "group")
        section = self._config().sections.get(group)
        if section is None:
            raise KeyError(group)
        return dict(section)

    def get_core_num(self, core_type: Optional[str] = None) -> int:
        self._lease.check(NATIVE_EXPIRED)
        if core_type is not None:
            _check_key(core_type, "core_type")
        return self._config().core_num(core_type)

    def get_soc_version(self) -> str:
        return self._config().soc_version

    def get_ai_core_num(self) -> int:
        return self._config().ai_core_num


class OpCompileContext(SchemaTensorAccess):
    """Borrowed context of one ``compile`` callback."""

    __slots__ = ("_options", "_platform")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _options: Dict[str, str]
    _platform: _PlatformSnapshot

    @classmethod
    def _create(
        cls, node: NodeSpec, *, options: Optional[Mapping[str, str]] = None, platform: PlatformSource = None
    ) -> "OpCompileContext":
        ctx = object.__new__(cls)
        ctx._init_borrowed(node)
        ctx._options = dict(options or {})
        ctx._platform = _PlatformSnapshot(platform)
        return ctx

    def get_option(self, option_key: str) -> str:
        self._alive()
        if not isinstance(option_key, str):
            raise TypeError("option_key must be a string")
        if not option_key:
            raise ValueError("option_key must not be empty")
        if option_key not in self._options:
            raise KeyError(option_key)
        return str(self._options[option_key])

    def _get_platform_info(self) -> CompilePlatformInfo:
        self._alive()
        return CompilePlatformInfo._borrow(self._platform, self._lease)
