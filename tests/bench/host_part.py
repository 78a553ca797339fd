"""The host part of a `.asc` program: what a plain C++ compiler would have to compile if the
kernels lived elsewhere (the baseline of bisheng_compile_bench.py's whole-program table).

Rule (from the text alone, documented in tools/bisheng/README.md "Compile time"):
  - `#include "kernel_operator.h"` is dropped: host code needs no Ascend C;
  - every top-level declaration that is device code is dropped: it mentions `__global__`,
    `__aicore__`, `__vector__`, `__cube__` or `AscendC::` (kernels, their classes and helpers),
    or is `using namespace AscendC;`;
  - each launch `k<<<numBlocks, slot2, stream>>>(args...)` becomes the call CANN's separate
    host code makes, `aclrtlaunch_k(numBlocks, stream, args...)`, declared once at the top as
    `extern "C" uint32_t aclrtlaunch_k(uint32_t, void*, ...);`;
  - `GM_ADDR` (a kernel_operator.h type that host code may still spell) is `uint8_t*`.
Everything else (includes, helpers, constants, main) stays as written.
"""

import re

DEVICE_MARKERS = ("__global__", "__aicore__", "__vector__", "__cube__", "AscendC::")
_LAUNCH_RE = re.compile(r"\b([A-Za-z_]\w*)(\s*<[^<>;()]*>)?\s*<<<(.*?)>>>\s*\(", re.S)


def _top_level_chunks(text: str) -> list:
    """Splits a C++ file into top-level pieces (preprocessor lines, comments, declarations),
    keeping every character; braces, parentheses, strings and comments are tracked."""
    chunks, start, depth, i, n = [], 0, 0, 0, len(text)

    def close(end: int) -> None:
        nonlocal start
        if end > start:
            chunks.append(text[start:end])
        start = end

    while i < n:
        c = text[i]
        if text.startswith("//", i) or text.startswith("/*", i):
            end = text.find("\n", i) if c == "/" and text[i + 1] == "/" else text.find("*/", i) + 2
            end = n if end <= 0 else end
            if depth == 0 and not text[start:i].strip():
                close(i)
                close(end)
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "#" and depth == 0 and not text[start:i].strip():
            close(i)
            end = i
            while True:
                end = text.find("\n", end)
                if end < 0 or text[end - 1] != "\\":
                    break
                end += 1
            close(n if end < 0 else end + 1)
            i = start
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth == 0 and c == "}":
                head = text[start : text.find("{", start)]
                # a function or namespace body ends here; a class body or initialiser at its `;`
                if not re.search(r"\b(class|struct|union|enum)\b|=", head):
                    close(i + 1)
        elif c == ";" and depth == 0:
            close(i + 1)
        i += 1
    close(n)
    return chunks


def _is_device(chunk: str) -> bool:
    stripped = chunk.strip()
    if stripped.startswith("#"):
        return re.match(r'#\s*include\s*[<"]kernel_operator\.h[>"]', stripped) is not None
    if stripped.startswith(("//", "/*")):
        return False
    return any(m in chunk for m in DEVICE_MARKERS) or re.match(r"using\s+namespace\s+AscendC\s*;", stripped) is not None


def _split_top_commas(text: str) -> list:
    parts, depth, cur = [], 0, ""
    for c in text:
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    return parts + [cur.strip()]


def host_part(asc_text: str) -> str:
    chunks = [c for c in _top_level_chunks(asc_text) if not _is_device(c)]
    kernels = []

    def launch(m: re.Match) -> str:
        config = _split_top_commas(m.group(3))
        if len(config) != 3:
            raise ValueError(f"launch of '{m.group(1)}' with {len(config)} configuration values")
        if m.group(1) not in kernels:
            kernels.append(m.group(1))
        return f"aclrtlaunch_{m.group(1)}({config[0]}, {config[2]}, "

    body = "".join(c if c.lstrip().startswith(("//", "/*")) else _LAUNCH_RE.sub(launch, c) for c in chunks)
    head = "#include <cstdint>\ntypedef uint8_t* GM_ADDR;\n"
    head += "".join(f'extern "C" uint32_t aclrtlaunch_{k}(uint32_t, void*, ...);\n' for k in kernels)
    return head + body.replace(", )", ")")
