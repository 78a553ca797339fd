"""Kernel-cache entries and manifests are held to the cache root's trust rule on every read:
an entry someone else could have written (or a symlink where an entry belongs) is never used."""

import os
import random

import pytest

from ascendc_jit import kernel_cache
from ascendc_jit.kernel_cache import CacheRequest, KernelCache, KeyedBuild

SEED = random.randrange(2**32)
print(f"seed {SEED}")
RNG = random.Random(SEED)


def _binary():
    return b"\x7fELF" + bytes(RNG.randrange(256) for _ in range(RNG.randrange(64, 4096)))


def _request():
    return CacheRequest(
        source=_binary(),
        source_path="/src/k.asc",
        identity="bisheng 1",
        flags=("--npu-arch=dav-2201",),
        soc="Ascend910B1",
        npu_arch="2201",
    )


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.delenv(kernel_cache.ALLOW_WRITABLE_ENV, raising=False)
    root = tmp_path / "kcache"
    root.mkdir(mode=0o700)
    return KernelCache(root)


def _stored(cache):
    request, binary = _request(), _binary()
    key = kernel_cache.hash_fields(["k", binary.hex()])
    cache.store(request, KeyedBuild(key, ()), binary)
    assert cache.lookup(request) == binary
    return request, key, binary


def test_a_world_writable_entry_is_not_used(cache, capfd):
    request, key, binary = _stored(cache)
    entry = cache.entry_path(key)
    # a planted payload with a self-consistent header: its own hash proves nothing
    poison = b"\x7fELF" + b"\xcc" * 64
    head = b" ".join([kernel_cache.ENTRY_MAGIC, kernel_cache._sha256(poison).encode(), str(len(poison)).encode()])
    entry.write_bytes(head + b"\n" + poison)
    os.chmod(entry, 0o666)
    assert cache.read_entry(key) is None and cache.lookup(request) is None
    err = capfd.readouterr().err
    assert f"kernel cache: {entry} is writable by group or others (mode 666); not used" in err
    cache.store(request, KeyedBuild(key, ()), binary)  # the compile that follows replaces it
    assert cache.lookup(request) == binary and (os.stat(entry).st_mode & 0o077) == 0


def test_a_group_writable_manifest_or_entry_folder_is_not_used(cache, capfd):
    request, key, _ = _stored(cache)
    manifest = cache._manifest_path(request.manifest_key())
    os.chmod(manifest, 0o620)
    assert cache.lookup(request) is None
    assert f"{manifest} is writable by group or others (mode 620)" in capfd.readouterr().err
    os.chmod(manifest, 0o600)
    folder = cache.entry_path(key).parent
    os.chmod(folder, 0o777)
    assert cache.read_entry(key) is None
    assert f"{folder} is writable by group or others (mode 777)" in capfd.readouterr().err
    os.chmod(folder, 0o700)
    assert cache.read_entry(key) is not None


def test_a_symlink_in_place_of_an_entry_is_not_followed(cache, tmp_path):
    request, key, binary = _stored(cache)
    outside = tmp_path / "elsewhere.aicore"
    outside.write_bytes(cache.entry_path(key).read_bytes())
    cache.entry_path(key).unlink()
    os.symlink(outside, cache.entry_path(key))
    assert cache.read_entry(key) is None


def test_the_opt_out_trusts_them(cache, monkeypatch):
    request, key, binary = _stored(cache)
    os.chmod(cache.entry_path(key), 0o666)
    monkeypatch.setenv(kernel_cache.ALLOW_WRITABLE_ENV, "1")
    assert cache.read_entry(key) == binary
