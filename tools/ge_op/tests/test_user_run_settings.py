"""user_run_settings: a `bazel run` target's environment uses the kernel cache the holders use by
default (ascendc_jit.default_cache_dir: $ASCEND_TWIN_KERNEL_CACHE, else under HOME) and the
user's HOME, and clean_env passes both on."""

from pathlib import Path

import ge_op_testing as t


def _paths(tmp_path):
    return t.OpPaths(tmp_path, tmp_path / "cann", tmp_path / "opp", tmp_path / "plugin", tmp_path / "es", "Ascend910B1")


def test_the_users_cache_under_home(monkeypatch, tmp_path):
    monkeypatch.delenv("ASCEND_TWIN_KERNEL_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    settings = t.user_run_settings()
    assert settings == {
        "kernel_cache": tmp_path / "user" / ".cache" / "ascend-twin" / "kernels",
        "extra": {"HOME": str(tmp_path / "user")},
    }
    env = t.clean_env(_paths(tmp_path), **settings)
    assert env["ASCEND_TWIN_KERNEL_CACHE"] == str(tmp_path / "user" / ".cache" / "ascend-twin" / "kernels")
    assert env["HOME"] == str(tmp_path / "user")


def test_a_configured_cache_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_TWIN_KERNEL_CACHE", str(tmp_path / "mine"))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    env = t.clean_env(_paths(tmp_path), **t.user_run_settings())
    assert Path(env["ASCEND_TWIN_KERNEL_CACHE"]) == tmp_path / "mine"
