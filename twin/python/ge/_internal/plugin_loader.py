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
"""

import importlib
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


def _refused(path: Path, plugin_kind: str) -> bool:
    """True (after one ERROR line through the twin's logger) if `path` or the directory holding it is not trusted."""
    for candidate, holds_plugin in ((path, False), (path.parent, True)):
        reason = untrusted_reason(candidate, holds_plugin=holds_plugin)
        if reason is not None:
            ascend_log.error("GE", f"{plugin_kind} {path} refused: {candidate} {reason}; a plugin path must not be "
                             f"world-writable: run `chmod o-w {candidate}` (or set {ALLOW_WRITABLE_ENV}=1 to trust it anyway)")
            return True
    return False


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
    spec = importlib.util.spec_from_file_location(name, path)
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
