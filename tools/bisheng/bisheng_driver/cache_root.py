"""bisheng's cache directory, the PCH cache's: `$BISHENG_PCH_CACHE` (`off` disables it), else
`$XDG_CACHE_HOME/ascend-twin/bisheng-pch`, else `~/.cache/ascend-twin/bisheng-pch`. The PCH
entries, the device and object caches and the driver's memos (file digests, tool facts, linker
lines) live under it."""

import os
import sys
from typing import Optional

from .cache_support import untrusted_reason

CACHE_ENV = "BISHENG_PCH_CACHE"


def cache_dir() -> Optional[str]:
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        if configured.strip().lower() in ("", "off", "0", "no"):
            return None
        base = configured
    elif os.environ.get("XDG_CACHE_HOME"):
        base = os.path.join(os.environ["XDG_CACHE_HOME"], "ascend-twin", "bisheng-pch")
    elif os.environ.get("HOME"):
        base = os.path.join(os.environ["HOME"], ".cache", "ascend-twin", "bisheng-pch")
    else:
        return None
    reason = untrusted_reason(base)
    if reason:
        print(f"bisheng: note: PCH cache '{base}' {reason}; compiling without it", file=sys.stderr)
        return None
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return base
