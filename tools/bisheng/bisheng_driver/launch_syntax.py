"""Detect CUDA-style `kernel<<<blocks, ubuf, stream>>>(...)` host launches.

Real bisheng splits such a file into host and device parts; this driver builds
device code only, so it names the first launch instead of letting clang report
a confusing parse error.
"""

import re
from typing import Optional

# Comments, string and character literals (so a `<<<` inside them is ignored).
_SKIP_RE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
_LAUNCH_RE = re.compile(r"\b(\w+)\s*<<<")


def find_host_launch(text: str) -> Optional[tuple]:
    """(line, kernel name) of the first `name<<<` outside comments and literals."""
    blanked = _SKIP_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    m = _LAUNCH_RE.search(blanked)
    if m is None or m.group(1) == "operator":
        return None
    return blanked.count("\n", 0, m.start()) + 1, m.group(1)
