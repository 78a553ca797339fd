"""Reads the kernel cache key report bisheng (ascend-twin) writes for `--twin-cache-key=FILE`
(JSON: scheme, key, soc, npu_arch, source_sha256, headers [{name, sha256, path}], ...).
Bazel's ascendc_kernel writes the same report as `<name>.cache_key`."""

import json
from pathlib import Path
from typing import Optional

from .kernel_cache import KEY_PATTERN, KeyedBuild

SCHEME = "asc-twin-kernel-key/1"


class KeyReportError(ValueError):
    """The report is missing, unreadable or not of the known scheme."""


def read_key_report(path: Path, cwd: Optional[Path] = None) -> dict:
    """The parsed report; header paths made absolute (relative ones are from bisheng's cwd)."""
    try:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise KeyReportError(f"cannot read kernel cache key report {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise KeyReportError(f"kernel cache key report {path} is not JSON: {exc}") from None
    if not isinstance(report, dict) or report.get("scheme") != SCHEME:
        found = report.get("scheme") if isinstance(report, dict) else type(report).__name__
        raise KeyReportError(f"kernel cache key report {path} has scheme {found!r}, expected {SCHEME!r}")
    key = report.get("key")
    if not isinstance(key, str) or not KEY_PATTERN.match(key):
        raise KeyReportError(f"kernel cache key report {path} has no valid key")
    headers = report.get("headers")
    if not isinstance(headers, list) or not all(isinstance(h, dict) and "path" in h and "sha256" in h for h in headers):
        raise KeyReportError(f"kernel cache key report {path} has no valid header list")
    base = Path(cwd) if cwd is not None else Path(path).parent
    for header in headers:
        header["path"] = str(base / header["path"])  # absolute paths stay as they are
    return report


def keyed_build(report: dict) -> KeyedBuild:
    return KeyedBuild(report["key"], tuple((h["path"], h["sha256"]) for h in report["headers"]))
