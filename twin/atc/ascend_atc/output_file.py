"""Writes a file atomically: a temp file in the target directory, fsync, then rename.

A failure at any step removes the temp file, so the target is either absent/unchanged or whole.
"""

import os
import tempfile

from .errors import AtcError, invalid_value


def check_output_dir(flag: str, output: str) -> None:
    directory = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(directory):
        raise invalid_value(flag, output, f"the directory {directory} does not exist.")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise invalid_value(flag, output, f"the directory {directory} is not writable.")


def write_atomically(path: str, payload: bytes) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise AtcError(
            "E19999", f"Internal Error! cannot create a temporary file in {directory}: {exc.strerror}"
        ) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; an OM is an ordinary output file
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise AtcError("E19999", f"Internal Error! cannot write {path}: {exc.strerror}") from None
        raise
