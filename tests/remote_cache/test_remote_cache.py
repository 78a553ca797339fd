"""Remote cache shared by a team: a second user's clean build (another home, another clone
folder, another output base) is served entirely from an nginx WebDAV cache the first filled."""

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(os.path.realpath(__file__)).parent
WORKSPACE = HERE.parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NETWORK_TRACES = re.compile(
    r"Downloading|download from|fetch of repository|UnknownHost|Network is unreachable|"
    r"Connection refused|https?://(?!127\.0\.0\.1)",
    re.IGNORECASE,
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _targets() -> list[str]:
    lines = (HERE / "cacheable_targets.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


class Nginx:
    """A WebDAV-enabled nginx in a temp dir, serving Bazel's HTTP cache protocol."""

    def __init__(self, root: Path):
        self.root = root
        self.port = _free_port()
        (root / "cache").mkdir()
        (root / "tmp").mkdir()
        user = "root" if os.getuid() == 0 else None
        conf = f"""
{f"user {user};" if user else ""}
daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {root}/tmp;
    proxy_temp_path {root}/tmp;
    fastcgi_temp_path {root}/tmp;
    uwsgi_temp_path {root}/tmp;
    scgi_temp_path {root}/tmp;
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            root {root}/cache;
            dav_methods PUT;
            create_full_put_path on;
            client_max_body_size 0;
        }}
    }}
}}
"""
        (root / "nginx.conf").write_text(conf)
        self.proc = subprocess.Popen(
            [NGINX, "-c", str(root / "nginx.conf"), "-p", str(root)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        self._wait_ready()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _wait_ready(self):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.proc.stderr.read().decode()}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=1)
                return
            except urllib.error.HTTPError:
                return  # 403/404 on "/" means the server answers
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not start within 10 s")

    def stop(self):
        self.proc.send_signal(signal.SIGQUIT)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def cache_server():
    root = Path(tempfile.mkdtemp(prefix="remote-cache-", dir=os.environ.get("TEST_TMPDIR")))
    server = Nginx(root)
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def _process_summary(log: str) -> dict[str, int]:
    """Parses Bazel's 'N processes: a internal, b remote cache hit, c linux-sandbox.' line."""
    match = re.findall(r"INFO: (\d+) process(?:es)?: ([^\n]*)\.", log)
    assert match, "no process summary in Bazel output:\n" + log[-3000:]
    total, detail = match[-1]
    kinds = {"total": int(total)}
    for part in detail.split(","):
        count, _, kind = part.strip().partition(" ")
        kinds[kind] = int(count)
    return kinds


def _second_user_clone(tmp: Path) -> Path:
    """The workspace as another user has it: a copy in another folder (no build outputs)."""
    clone = tmp / "other-user" / "src" / "ascend-twin"
    shutil.copytree(
        WORKSPACE, clone, symlinks=True, ignore=shutil.ignore_patterns("bazel-*", ".git", "__pycache__", "user.bazelrc")
    )
    return clone


def _clean_build(tmp: Path, name: str, cache_url: str, workspace: Path = WORKSPACE, home: str = "") -> dict[str, int]:
    user_root = tmp / f"user_root_{name}"
    output_base = tmp / f"output_base_{name}"
    cmd = [
        "bazel",
        f"--output_user_root={user_root}",
        f"--output_base={output_base}",
        "build",
        "--config=remote-cache",
        f"--remote_cache={cache_url}",
        "--disk_cache=",
        "--color=no",
        "--curses=no",
        "--noshow_progress",
        # No bazel-* links: they would point the developer's workspace at this temp output base.
        "--symlink_prefix=/",
    ] + _targets()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "BAZEL_", "RUNFILES", "BUILD_"))}
    if home:
        env["HOME"] = home
    proc = subprocess.run(cmd, cwd=workspace, env=env, capture_output=True, text=True)
    subprocess.run(
        ["bazel", f"--output_user_root={user_root}", f"--output_base={output_base}", "shutdown"],
        cwd=workspace,
        env=env,
        capture_output=True,
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-4000:]
    # A fresh output base re-fetches every external repository: none may reach the network.
    network = [line for line in log.splitlines() if NETWORK_TRACES.search(line)]
    assert not network, "the build tried the network:\n" + "\n".join(network)
    return _process_summary(log)


def test_another_users_clean_build_is_all_remote_hits(cache_server, tmp_path):
    first = _clean_build(tmp_path, "first", cache_server.url)
    other_home = tmp_path / "other-user" / "home"
    other_home.mkdir(parents=True)
    second = _clean_build(
        tmp_path, "second", cache_server.url, workspace=_second_user_clone(tmp_path), home=str(other_home)
    )
    cacheable = second["total"] - second.get("internal", 0)
    hits = second.get("remote cache hit", 0)
    print(f"first build (this workspace): {first}")
    print(f"second build (another home and clone folder): {second}")
    print(f"remote cache hits/total cacheable actions: {hits}/{cacheable}")
    assert cacheable > 0, "nothing cacheable was built"
    assert hits == cacheable, f"only {hits}/{cacheable} actions were remote cache hits"
