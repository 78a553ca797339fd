"""The caches' publishing and sweeping rule (cache_support.py) and the bound on remembered
facts (pch.remembered), in-process: no compiler runs."""

import os
import subprocess
import time

from bisheng_driver import cache_support, pch


def dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid  # reaped: no process has it (until the pid is reused, far later)


def test_publish_leaves_the_entry_or_nothing(tmp_path):
    target = tmp_path / "entry.pch"
    assert cache_support.publish(str(target), lambda tmp: open(tmp, "wb").write(b"pch") > 0)
    assert target.read_bytes() == b"pch"
    assert not cache_support.publish(str(tmp_path / "failed.pch"), lambda tmp: False)
    try:
        cache_support.publish(str(tmp_path / "raised.pch"), lambda tmp: 1 / 0)
    except ZeroDivisionError:
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry.pch"]


def test_sweep_removes_only_old_temporaries_of_gone_writers(tmp_path):
    now = time.time()
    gone = dead_pid()
    files = {
        f".a.pch.{gone}-x1y2.tmp": (now - 120, False),  # killed writer, a minute old
        f".a.pch.{gone}-x1y2.tmp-0a1b2c3d.tmp": (now - 120, False),  # clang's own temporary of it
        f".b.json.{gone}-k9.tmp": (now - 10, True),  # killed, but too recent
        f".c.so.{os.getpid()}-q7.tmp": (now - 3600, True),  # a writer still running
        f".d.so.{os.getpid()}-q8.tmp": (now - 2 * 86400, False),  # older than a day: any writer
        "old_naming.x8k.pch.tmp": (now - 2 * 86400, False),  # before this rule, by age alone
        "e.pch": (now - 2 * 86400, True),  # an entry, not a temporary
    }
    for name, (stamp, _) in files.items():
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, (stamp, stamp))
    removed = cache_support.sweep_temporaries(str(tmp_path), now)
    assert removed == sum(1 for _, kept in files.values() if not kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(n for n, (_, kept) in files.items() if kept)


def test_remembered_facts_of_one_name_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("BISHENG_PCH_CACHE", str(tmp_path))
    tmp_path.chmod(0o700)
    for i in range(pch.REMEMBERED_PER_NAME + 5):
        assert pch.remembered("header-names", [str(i)], lambda: [i]) == [i]
        time.sleep(0.01)  # distinct mtimes: the eviction keeps the most recent
    assert pch.remembered("other-fact", ["x"], lambda: 1) == 1
    names = [p.name for p in tmp_path.iterdir()]
    assert sum(n.startswith("header-names-") for n in names) == pch.REMEMBERED_PER_NAME
    assert sum(n.startswith("other-fact-") for n in names) == 1
    assert pch.remembered("header-names", ["0"], lambda: "computed again") == "computed again"  # evicted
