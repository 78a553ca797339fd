"""Where a compile's files go: the paths checked before it starts, the atomic publish of each
finished file, and the sweep of work directories that killed compiles left behind."""

import os
import shutil
import tempfile
import time

from .errors import BishengError
from .options import Options


def check_paths(opts: Options) -> None:
    if not os.path.exists(opts.source_path):
        raise BishengError(f"no such file: '{opts.source}'")
    if not os.path.isfile(opts.source_path):
        raise BishengError(f"not a regular file: '{opts.source}'")
    if not os.access(opts.source_path, os.R_OK):
        raise BishengError(f"cannot read '{opts.source}': permission denied")
    written = opts.publish_path
    out_dir = os.path.dirname(os.path.abspath(written))
    if not os.path.isdir(out_dir):
        raise BishengError(f"cannot write '{written}': directory '{out_dir}' does not exist")


def check_parent(path: str, what: str) -> None:
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise BishengError(f"cannot write {what} '{path}': no such directory")


def publish(src: str, dest: str) -> None:
    """Move a finished file into place atomically (temp file in dest's dir + rename)."""
    dest_dir = os.path.dirname(os.path.abspath(dest))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(dest)}.", suffix=".tmp", dir=dest_dir)
    try:
        with os.fdopen(fd, "wb") as out, open(src, "rb") as inp:
            shutil.copyfileobj(inp, out)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


WORKDIR_PREFIX = ".bisheng-"


def sweep_dead_workdirs(out_dir: str) -> None:
    """Removes work directories of compiles that were killed (their pid is gone, a minute old):
    a SIGKILL leaves no chance to clean up, and each holds about a megabyte."""
    try:
        names = os.listdir(out_dir)
    except OSError:
        return
    cutoff = time.time() - 60
    for name in names:
        if not name.startswith(WORKDIR_PREFIX):
            continue
        pid_text = name[len(WORKDIR_PREFIX) :].split("-", 1)[0]
        if not pid_text.isdigit():
            continue
        path = os.path.join(out_dir, name)
        try:
            if os.lstat(path).st_mtime > cutoff:
                continue
            os.kill(int(pid_text), 0)
            continue  # its compile is still running
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue
