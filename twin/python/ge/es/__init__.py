"""ge.es: eager-style graph building.

``ge.es.<m>`` is an alias of the generated wrapper module ``es_<m>``: entry points of group
``ge.es.plugins`` (CANN's wheels) are honoured, and otherwise any importable ``es_<m>`` module
(for example a package over what ``gen_esb`` wrote into a directory on ``sys.path``) is found on demand,
so ``from ge.es.custom import AddCustom`` works either way.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

_PREFIX = __name__ + "."
_OWN_SUBMODULES = {"graph_builder", "tensor_holder", "_wrapper_support"}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self._target = target

    def create_module(self, spec):
        return importlib.import_module(self._target)

    def exec_module(self, module) -> None:
        pass  # the target module is already executed


class _EsAliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_PREFIX):
            return None
        short = fullname[len(_PREFIX) :]
        if "." in short or short in _OWN_SUBMODULES:
            return None
        target_name = _entry_point_modules().get(short, f"es_{short}")
        if importlib.util.find_spec(target_name) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(target_name))


def _entry_point_modules() -> dict:
    try:
        from importlib.metadata import entry_points

        return {ep.name: ep.value.split(":")[0] for ep in entry_points(group="ge.es.plugins")}
    except Exception:  # broken distribution metadata must not break graph building
        return {}


if not any(isinstance(f, _EsAliasFinder) for f in sys.meta_path):
    sys.meta_path.append(_EsAliasFinder())


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return importlib.import_module(_PREFIX + name)
    except ModuleNotFoundError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
