import sys
import textwrap

import pytest

from ge.custom_op import _bridge, get_registered_op_impls
from ge.custom_op.bootstrap import MODULE_PREFIX, load_custom_op_plugins

PLUGIN = textwrap.dedent("""
    from ge.custom_op import register_op_impl

    @register_op_impl(op_type="{op}")
    class Impl:
        def compile(self) -> None:
            pass
""")


def _plugin(path, op):
    path.write_text(PLUGIN.format(op=op))
    return path


def _loaded_types():
    return [d.op_type for d in get_registered_op_impls()]


def test_nonexistent_path_is_fatal(monkeypatch, tmp_path):
    missing = tmp_path / "nope"
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", f"{missing}")
    with pytest.raises(FileNotFoundError, match=f"^python custom op path does not exist: {missing}$"):
        load_custom_op_plugins()


def test_file_must_be_py(monkeypatch, tmp_path):
    other = tmp_path / "plugin.txt"
    other.write_text("x = 1\n")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(other))
    with pytest.raises(ValueError, match="^python custom op file must end with .py: "):
        load_custom_op_plugins()


def test_file_and_directory_entries_sorted_with_underscore_skip_and_packages(monkeypatch, tmp_path):
    single = _plugin(tmp_path / "single.py", "Single")
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    _plugin(plugins / "b_op.py", "B")
    _plugin(plugins / "a_op.py", "A")
    _plugin(plugins / "_private.py", "Private")
    (plugins / "notes.txt").write_text("ignored")
    package = plugins / "pkg_ops"
    package.mkdir()
    _plugin(package / "__init__.py", "Pkg")
    deep = plugins / "op_proto"  # C++ OPP layout directories are not Python packages
    deep.mkdir()
    _plugin(deep / "hidden.py", "Hidden")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", f" {single} :: {plugins}:{single}")
    modules = load_custom_op_plugins()
    assert _loaded_types() == ["Single", "A", "B", "Pkg"]
    assert [m.__name__ for m in modules][:3] == [
        f"{MODULE_PREFIX}single_{abs(hash(str(single.resolve())))}",
        f"{MODULE_PREFIX}a_op_{abs(hash(str((plugins / 'a_op.py').resolve())))}",
        f"{MODULE_PREFIX}b_op_{abs(hash(str((plugins / 'b_op.py').resolve())))}",
    ]
    assert modules[3].__name__ == "pkg_ops"
    assert str(plugins) not in sys.path
    load_custom_op_plugins()  # idempotent: nothing is imported (and registered) twice
    assert _loaded_types() == ["Single", "A", "B", "Pkg"]
    key = get_registered_op_impls()[0].descriptor_key
    assert key.startswith(f"{MODULE_PREFIX}single_") and key.endswith(":Impl:Single")
    sys.modules.pop("pkg_ops", None)


def test_syntax_error_propagates_and_module_is_removed(monkeypatch, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def oops(:\n")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(broken))
    with pytest.raises(SyntaxError):
        load_custom_op_plugins()
    assert not [name for name in sys.modules if name.startswith(f"{MODULE_PREFIX}broken_")]


def test_failing_plugin_is_retried_after_fix(monkeypatch, tmp_path):
    plugin = tmp_path / "flaky.py"
    plugin.write_text("raise RuntimeError('plugin exploded')\n")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(plugin))
    with pytest.raises(RuntimeError, match="plugin exploded"):
        load_custom_op_plugins()
    _plugin(plugin, "Flaky")
    load_custom_op_plugins()
    assert _loaded_types() == ["Flaky"]


def test_bridge_load_returns_protos_and_impls(monkeypatch, tmp_path):
    _plugin(tmp_path / "one.py", "One")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(tmp_path))
    descriptors = _bridge.load_and_get_op_descriptors()
    assert descriptors["protos"] == [] and [d["op_type"] for d in descriptors["impls"]] == ["One"]
    _bridge.clear_loaded_op_impl_modules()
    assert not [n for n in sys.modules if n.startswith(MODULE_PREFIX)]


def test_cpp_only_roots_do_not_trigger_python_loading(tmp_path):
    from ge._internal.plugin_loader import has_python_entries

    root = tmp_path / "opp"
    (root / "op_proto" / "custom").mkdir(parents=True)
    (root / "op_proto" / "custom" / "libcust_opapi.so").write_bytes(b"\x7fELF")
    (root / "_private.py").write_text("")
    assert has_python_entries(str(root)) is False
    assert has_python_entries(f"{root}:{tmp_path / 'x.py'}") is True
    _plugin(root / "op.py", "Op")
    assert has_python_entries(str(root)) is True


def test_world_writable_plugins_are_refused_with_the_fix(monkeypatch, tmp_path, capsys):
    import os

    monkeypatch.delenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS", raising=False)
    shared = tmp_path / "shared"
    shared.mkdir()
    _plugin(shared / "planted.py", "TwinTrustPlanted")
    os.chmod(shared, 0o777)
    private = tmp_path / "private"
    private.mkdir(mode=0o755)
    writable_file = _plugin(private / "writable.py", "TwinTrustWritableFile")
    os.chmod(writable_file, 0o666)
    _plugin(private / "fine.py", "TwinTrustFine")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", f"{shared}:{private}")
    logs = tmp_path / "logs"
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(logs))
    monkeypatch.delenv("ASCEND_SLOG_PRINT_TO_STDOUT", raising=False)
    load_custom_op_plugins()
    loaded = _loaded_types()
    # The refusal is an ERROR line in this process's plog (CANN's place for it), not on a console.
    plogs = list((logs / "debug" / "plog").glob(f"plog-{os.getpid()}_*.log"))
    assert len(plogs) == 1, plogs
    err = plogs[0].read_text()
    assert err.startswith("[ERROR] GE(")
    assert "TwinTrustPlanted" not in loaded and "TwinTrustWritableFile" not in loaded
    assert "TwinTrustFine" in loaded
    assert (
        f"{shared} is writable by others (mode 777); a plugin path must not be world-writable: run "
        f"`chmod o-w {shared}`" in err
    )
    assert f"{writable_file} is writable by others (mode 666)" in err
    assert "ASCEND_TWIN_ALLOW_WRITABLE_PATHS=1" in err
    monkeypatch.setenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS", "1")  # the opt-out
    load_custom_op_plugins()
    assert "TwinTrustPlanted" in _loaded_types()


def test_group_writable_checkout_loads(monkeypatch, tmp_path, capsys):
    """Regression: a clone made under umask 002 has 775 directories and 664 files; the sample's
    src/ge plugin directory was refused. CANN checks no permissions, so group-writable is fine."""
    import os

    monkeypatch.delenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS", raising=False)
    old_umask = os.umask(0o002)
    try:
        plugin_dir = tmp_path / "sample" / "src" / "ge"
        plugin_dir.mkdir(parents=True)
        _plugin(plugin_dir / "add_custom.py", "TwinTrustGroupWritable")
    finally:
        os.umask(old_umask)
    assert oct(plugin_dir.stat().st_mode & 0o777) == "0o775"
    assert oct((plugin_dir / "add_custom.py").stat().st_mode & 0o777) == "0o664"
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(plugin_dir))
    load_custom_op_plugins()
    assert "TwinTrustGroupWritable" in _loaded_types()
    assert "refused" not in capsys.readouterr().err


def test_a_plugin_file_in_a_sticky_world_writable_directory_loads(monkeypatch, tmp_path, capsys):
    """As in /tmp (mode 1777): others cannot replace this user's file there, so the file loads;
    the same directory as a plugin directory (others could add plugins to it) is refused."""
    import os

    monkeypatch.delenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS", raising=False)
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    plugin = _plugin(sticky / "own.py", "TwinTrustSticky")
    os.chmod(sticky, 0o1777)
    monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")  # the refusal line on stdout
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(plugin))
    load_custom_op_plugins()
    assert "TwinTrustSticky" in _loaded_types()
    _bridge.clear_loaded_op_impl_modules()
    from ge.custom_op import clear_registered_op_impls

    clear_registered_op_impls()
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(sticky))
    load_custom_op_plugins()
    assert "TwinTrustSticky" not in _loaded_types()
    assert f"{sticky} is writable by others (mode 1777)" in capsys.readouterr().out


# --- one checked importer: what a plugin imports is held to the same rule -------------------


def _trusting_nothing_writable(monkeypatch, tmp_path):
    monkeypatch.delenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS", raising=False)
    monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")


def test_a_planted_unchecked_pyc_in_pycache_never_runs(monkeypatch, tmp_path, capsys):
    """A world-writable __pycache__ beside a trusted plugin holds an unchecked-hash .pyc built
    from other code; Python's own loader would run it without reading the source."""
    import importlib.util
    import os
    import py_compile

    _trusting_nothing_writable(monkeypatch, tmp_path)
    root = tmp_path / "plugins"
    pkg = root / "twin_pyc_pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import helper\n")
    (pkg / "helper.py").write_text(PLUGIN.format(op="TwinPycSource"))
    evil = tmp_path / "evil_helper.py"
    evil.write_text(PLUGIN.format(op="TwinPycPlanted"))
    cache = pkg / "__pycache__"
    cache.mkdir()
    py_compile.compile(
        str(evil),
        cfile=importlib.util.cache_from_source(str(pkg / "helper.py")),
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    os.chmod(cache, 0o777)
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(root))
    load_custom_op_plugins()
    types = _loaded_types()
    assert "TwinPycSource" in types and "TwinPycPlanted" not in types
    assert sorted(p.name for p in cache.iterdir()) == ["helper.cpython-%d%d.pyc" % sys.version_info[:2]]


def test_a_trusted_package_cannot_import_its_world_writable_submodule(monkeypatch, tmp_path, capsys):
    import os

    _trusting_nothing_writable(monkeypatch, tmp_path)
    root = tmp_path / "plugins"
    pkg = root / "twin_sub_pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import loose\n")
    loose = _plugin(pkg / "loose.py", "TwinLooseSubmodule")
    os.chmod(loose, 0o666)
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(root))
    with pytest.raises(ImportError, match=f"python custom op {loose} refused: {loose} is writable by others"):
        load_custom_op_plugins()
    assert "TwinLooseSubmodule" not in _loaded_types()
    assert f"{loose} is writable by others (mode 666)" in capsys.readouterr().out
    assert "twin_sub_pkg" not in sys.modules and "twin_sub_pkg.loose" not in sys.modules


def test_a_refused_file_cannot_be_imported_by_name_from_a_trusted_plugin(monkeypatch, tmp_path, capsys):
    """The loader refuses `twin_refused_sibling.py` (0666) as an entry; the trusted `user.py`
    beside it then imports it by name — and gets the same refusal."""
    import os

    _trusting_nothing_writable(monkeypatch, tmp_path)
    root = tmp_path / "plugins"
    root.mkdir()
    sibling = _plugin(root / "twin_refused_sibling.py", "TwinRefusedSibling")
    os.chmod(sibling, 0o666)
    (root / "user.py").write_text("import twin_refused_sibling\n" + PLUGIN.format(op="TwinSiblingUser"))
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(root))
    with pytest.raises(ImportError, match="twin_refused_sibling.py refused"):
        load_custom_op_plugins()
    types = _loaded_types()
    assert "TwinRefusedSibling" not in types and "TwinSiblingUser" not in types
    # a later import by name (at run time, with the folder on sys.path) is refused the same way
    monkeypatch.syspath_prepend(str(root))
    with pytest.raises(ImportError, match="is writable by others"):
        __import__("twin_refused_sibling")


def test_a_compiled_only_module_under_a_plugin_folder_is_refused(monkeypatch, tmp_path):
    import py_compile

    _trusting_nothing_writable(monkeypatch, tmp_path)
    root = tmp_path / "plugins"
    root.mkdir()
    src = tmp_path / "twin_sourceless.py"
    src.write_text("VALUE = 1\n")
    py_compile.compile(str(src), cfile=str(root / "twin_sourceless.pyc"))
    (root / "user.py").write_text("import twin_sourceless\n")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(root))
    with pytest.raises(ImportError, match="twin_sourceless.pyc refused: compiled-only module"):
        load_custom_op_plugins()


def test_ordinary_imports_are_untouched_by_the_checked_importer(monkeypatch, tmp_path):
    """With plugin folders guarded, a module outside them still loads (and caches) as usual."""
    import os

    root = tmp_path / "plugins"
    root.mkdir()
    _plugin(root / "plain.py", "TwinPlainGuarded")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(root))
    load_custom_op_plugins()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "twin_unrelated_mod.py").write_text("VALUE = 7\n")
    os.chmod(elsewhere / "twin_unrelated_mod.py", 0o666)  # not a plugin folder: not our rule
    monkeypatch.syspath_prepend(str(elsewhere))
    assert __import__("twin_unrelated_mod").VALUE == 7
