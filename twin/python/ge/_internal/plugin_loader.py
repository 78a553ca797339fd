"""Import Python plugins listed in an environment variable (``ASCEND_CUSTOM_OPP_PATH``, §1.10).

Entries are ``:``-separated. A ``.py`` file is imported under a synthetic, per-process module
name; a directory contributes its top-level ``*.py`` files and packages (sorted by name, names
starting with ``_`` skipped). Other content of a directory — C++ OPP trees such as ``op_proto/``
or ``op_graph/`` — is not Python and is ignored here.

Trust: a plugin file, package or directory writable by others (world-writable), or held in a
world-writable directory without the sticky bit (where others could swap it), is refused — not
imported — with one ERROR line naming it, the cause and the fix (chmod o-w), written by the
twin's logger (ascend_log: the plog file, or stdout with ASCEND_SLOG_PRINT_TO_STDOUT=1).
Group-writable paths are accepted, as a checkout under umask 002 (mode 775) has them: CANN's
own loader checks no permissions at all, and the group is the user's to choose.
ASCEND_TWIN_ALLOW_WRITABLE_PATHS=1 opts out.

One checked importer: the rule holds for everything a plugin imports from its plugin folders,
not only the entries listed. A finder placed first on ``sys.meta_path`` (``_PluginFinder``)
answers every import whose file lies under a plugin folder — a package's submodules, a sibling
imported by name, an import made later at run time — with the same check (a refused module
raises ImportError after the same ERROR line), and loads Python source only: ``__pycache__`` is
never read or written for plugin code (an unchecked-hash ``.pyc`` there would otherwise run
instead of the checked source), and a compiled-only module (``.pyc`` with no source) is refused.
"""

import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import stat
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, List

import ascend_log

# canonical file path -> module name it was imported as (survives until sys.modules forgets it)
_imported: Dict[Path, str] = {}


ALLOW_WRITABLE_ENV = "ASCEND_TWIN_ALLOW_WRITABLE_PATHS"


def untrusted_reason(path: Path, *, holds_plugin: bool = False):
    """Why `path` may not be trusted as code (or, with ``holds_plugin``, as the directory a
    plugin sits in), or None."""
    if os.environ.get(ALLOW_WRITABLE_ENV) == "1":
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None  # missing paths are reported by the caller
    if not info.st_mode & stat.S_IWOTH:
        return None
    if holds_plugin and stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX:
        return None  # sticky (as /tmp): others may add entries but not replace this user's
    return f"is writable by others (mode {stat.S_IMODE(info.st_mode):o})"


def _refusal(path: Path, plugin_kind: str):
    """The ERROR line (already logged through the twin's logger) if `path` or the directory
    holding it is not trusted, else None."""
    for candidate, holds_plugin in ((path, False), (path.parent, True)):
        reason = untrusted_reason(candidate, holds_plugin=holds_plugin)
        if reason is not None:
            line = (
                f"{plugin_kind} {path} refused: {candidate} {reason}; a plugin path must not be "
                f"world-writable: run `chmod o-w {candidate}` (or set {ALLOW_WRITABLE_ENV}=1 to trust it anyway)"
            )
            ascend_log.error("GE", line)
            return line
    return None


def _refused(path: Path, plugin_kind: str) -> bool:
    return _refusal(path, plugin_kind) is not None


class _SourceLoader(importlib.machinery.SourceFileLoader):
    """Runs a plugin module from its checked source file: never from, nor into, __pycache__."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


@functools.lru_cache(maxsize=4096)
def _resolved(location):
    # sys.path entries are resolved once: the finder sees every import of the process
    try:
        return Path(location).resolve()
    except (OSError, TypeError, ValueError):
        return None


class _PluginFinder(importlib.abc.MetaPathFinder):
    """Answers imports of files under plugin folders with the plugin trust check (see the module
    docstring); any other import is left to Python's own finders."""

    def __init__(self):
        self.roots: Dict[Path, str] = {}  # plugin folder -> plugin kind named in refusals

    def _root_of(self, location) -> "Path | None":
        where = _resolved(location)
        if where is None:
            return None
        for root in self.roots:
            if where == root or root in where.parents:
                return root
        return None

    def find_spec(self, fullname, path=None, target=None):
        search = list(path) if path is not None else list(sys.path)
        if not self.roots or not any(self._root_of(p) for p in search if isinstance(p, str)):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, search)
        if spec is None or not spec.has_location or spec.origin is None:
            return None
        root = self._root_of(spec.origin)
        if root is None:
            return None
        origin, kind = Path(spec.origin), self.roots[root]
        refusal = _refusal(origin, kind)
        if refusal is None and spec.submodule_search_locations:
            refusal = _refusal(origin.parent, kind)  # the package folder holds its submodules
        if refusal is not None:
            raise ImportError(refusal, name=fullname, path=str(origin))
        if isinstance(spec.loader, importlib.machinery.SourcelessFileLoader):
            raise ImportError(
                f"{kind} {origin} refused: compiled-only module (no .py source); plugins load from source",
                name=fullname,
                path=str(origin),
            )
        if isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            spec = importlib.util.spec_from_file_location(
                fullname,
                origin,
                loader=_SourceLoader(fullname, str(origin)),
                submodule_search_locations=spec.submodule_search_locations,
            )
        return spec


_finder = _PluginFinder()


def _guard(folder: Path, plugin_kind: str) -> None:
    """Puts `folder` under the checked importer (installed first on sys.meta_path once)."""
    _finder.roots.setdefault(folder.resolve(), plugin_kind)
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def split_path_list(value: str) -> List[str]:
    return [item.strip() for item in (value or "").split(os.pathsep) if item.strip()]


def _already_imported(path: Path):
    name = _imported.get(path)
    if name is None:
        return None
    module = sys.modules.get(name)
    if module is None:
        del _imported[path]
    return module


def import_file(path: Path, *, module_prefix: str, plugin_kind: str) -> ModuleType:
    path = path.resolve()
    module = _already_imported(path)
    if module is not None:
        return module
    name = f"{module_prefix}{path.stem}_{abs(hash(str(path)))}"
    if name in sys.modules:
        return sys.modules[name]
    _guard(path.parent, plugin_kind)
    spec = importlib.util.spec_from_file_location(name, path, loader=_SourceLoader(name, str(path)))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {plugin_kind} file: {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)  # never leave a half-initialized plugin behind
        raise
    _imported[path] = name
    return module


def _import_package(directory: Path) -> ModuleType:
    init = (directory / "__init__.py").resolve()
    module = _already_imported(init)
    if module is None:
        module = importlib.import_module(directory.name)
        _imported[init] = module.__name__
    return module


def import_entry(entry: str, *, module_prefix: str, plugin_kind: str) -> List[ModuleType]:
    path = Path(entry).resolve()
    if not path.exists():
        raise FileNotFoundError(f"{plugin_kind} path does not exist: {path}")
    if path.is_file():
        if path.suffix != ".py":
            raise ValueError(f"{plugin_kind} file must end with .py: {path}")
        if _refused(path, plugin_kind):
            return []
        return [import_file(path, module_prefix=module_prefix, plugin_kind=plugin_kind)]
    if _refused(path, plugin_kind):
        return []
    _guard(path, plugin_kind)
    modules: List[ModuleType] = []
    directory = str(path)
    added = directory not in sys.path
    if added:
        sys.path.insert(0, directory)  # packages import by bare name from here
    try:
        for child in sorted(path.iterdir(), key=lambda p: p.name):
            if child.name.startswith("_"):
                continue
            if child.is_file() and child.suffix == ".py":
                if not _refused(child, plugin_kind):
                    modules.append(import_file(child, module_prefix=module_prefix, plugin_kind=plugin_kind))
            elif child.is_dir() and (child / "__init__.py").exists():
                if not _refused(child / "__init__.py", plugin_kind):
                    modules.append(_import_package(child))
    finally:
        if added:
            sys.path.remove(directory)
    return modules


def load_plugins_from_env(env_name: str, *, module_prefix: str, plugin_kind: str) -> List[ModuleType]:
    loaded: List[ModuleType] = []
    seen = set()
    for entry in split_path_list(os.environ.get(env_name, "")):
        for module in import_entry(entry, module_prefix=module_prefix, plugin_kind=plugin_kind):
            if module.__name__ not in seen:  # first occurrence wins
                seen.add(module.__name__)
                loaded.append(module)
    return loaded


def has_python_entries(value: str) -> bool:
    """CANN's C++ gate: load Python only if some entry is a .py file or a directory holding a
    non-underscore .py file or package one level down."""
    for entry in split_path_list(value):
        path = Path(entry)
        if entry.endswith(".py"):
            return True
        if path.is_dir():
            for child in path.iterdir():
                if child.name.startswith("_"):
                    continue
                if (child.is_file() and child.suffix == ".py") or (child / "__init__.py").is_file():
                    return True
    return False
