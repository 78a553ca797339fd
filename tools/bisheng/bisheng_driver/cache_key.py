"""The kernel cache key (twin extension `--twin-cache-key`, see README "Kernel cache key").

One definition for every producer of device binaries: the `ascendc_kernel` Bazel rule and the
just-in-time builds of compile holders both ask bisheng for it, so a binary built by either can
serve the other. The key must not depend on where files live (Bazel sandbox, runfiles, an
installed CANN tree, a temp dir), only on what determines the bytes:

  sha256 over length-prefixed fields:
    "asc-twin-kernel-key/1"
    compiler  the driver's identity (driver code digest, clang and lld versions)
    flags     the normalized flags that change code: --npu-arch, legacy core macro, -std,
              -O level, -g level, -D/-U in order, -include <logical name>
              (not: include dirs, -o, depfile options, warnings, -v, -x, accepted no-ops)
    soc, npu_arch
    source    sha256 of the source content (not its path)
    headers   sorted "<logical name> <sha256>" of every header the compile read (clang -MD,
              system headers included, plus the twin entry/ABI headers the device pass adds)

A header's logical name is its path relative to the most specific include root holding it
(the source's directory, -iquote/-I/-isystem/-idirafter dirs, the twin resource dirs, clang's
resource dir) — "kernel_operator.h", "asc_twin/aicore_abi.h" — else its canonical absolute
path (libstdc++ and libc headers under /usr). Names keep two headers that swap contents apart.
"""

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence

from . import tool_facts
from .cache_support import hash_fields, sha256_file
from .errors import BishengError
from .options import Options, check_soc
from .toolchain import ABI_HEADER, ENTRY_HEADER, ResourceDirs, Tools

SCHEME = "asc-twin-kernel-key/1"
# Spellings clang treats as the same standard / debug level: one key for both.
STD_ALIASES = {"c++1z": "c++17", "c++2a": "c++20", "gnu++1z": "gnu++17", "gnu++2a": "gnu++20"}
DEBUG_ALIASES = {"-g": "-g2"}


@dataclass(frozen=True)
class HeaderDigest:
    name: str  # logical name (see module docstring)
    sha256: str
    path: str  # where this compile read it: relative to the cwd when under it, else absolute


def driver_digest() -> str:
    """sha256 over this driver package's sources (name + content): changes with any driver edit,
    identical wherever the package is installed."""
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    for name in sorted(n for n in os.listdir(here) if n.endswith(".py")):
        with open(os.path.join(here, name), "rb") as f:
            content = f.read()
        digest.update(f"{name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def compiler_identity(tools: Tools) -> str:
    return (
        f"bisheng-driver {driver_digest()}; "
        f"{tool_facts.first_line([tools.clang, '--version'])}; {tool_facts.first_line([tools.lld, '--version'])}"
    )


def clang_resource_dir(tools: Tools) -> Optional[str]:
    return _resource_dir_of(tools.clang)


@functools.lru_cache(maxsize=None)
def _resource_dir_of(clang: str) -> Optional[str]:  # one `clang -print-resource-dir` per process
    path = tool_facts.first_line([clang, "-print-resource-dir"])
    return path if os.path.isdir(path) else None


def include_roots(opts: Options, res: ResourceDirs, clang_resource: Optional[str]) -> List[str]:
    roots = [os.path.dirname(os.path.abspath(opts.source_path))]
    flags = opts.preprocessor_flags
    for option, value in zip(flags[::2], flags[1::2]):
        if option in ("-I", "-isystem", "-iquote", "-idirafter"):
            roots.append(os.path.abspath(value))
    roots += [res.asc_include, res.abi_include]
    if clang_resource:
        roots.append(os.path.realpath(os.path.join(clang_resource, "include")))
    return [_lexical_absolute(r) or os.path.realpath(r) for r in roots]


def _lexical_absolute(path: str) -> Optional[str]:
    """The absolute spelling of path, or None when it climbs with `..`: resolving those lexically
    is wrong across symlinks (clang found via /bin on a merged-/usr system reports
    /bin/../lib/gcc/...; lexically that is /lib/gcc/..., really /usr/lib/gcc/...)."""
    if ".." in path.split(os.sep):
        return None
    return os.path.normpath(os.path.join(os.getcwd(), path))


def logical_name(path: str, roots: Sequence[str]) -> str:
    """Path relative to the most specific root holding it, else its canonical absolute path.
    Roots are matched as spelled first, then (symlinked trees) with links resolved."""
    real = os.path.realpath(path)
    for candidate, bases in ((_lexical_absolute(path), roots), (real, [os.path.realpath(r) for r in roots])):
        if candidate is None:
            continue
        holding = [b for b in bases if candidate.startswith(b.rstrip("/") + "/")]
        if holding:
            return os.path.relpath(candidate, max(holding, key=len))
    return real


def _reported_path(path: str) -> str:
    """Where the file was read, for tools that re-check it (the JIT's direct mode): relative
    when under the cwd, so that a Bazel action's report does not name its sandbox; else the
    canonical absolute path."""
    absolute = _lexical_absolute(path)
    cwd = os.getcwd()
    if absolute is not None and absolute.startswith(cwd.rstrip("/") + "/"):
        return os.path.relpath(absolute, cwd)
    return os.path.realpath(path)


def normalized_flags(opts: Options, roots: Sequence[str]) -> List[str]:
    flags = [f"--npu-arch={opts.npu_arch.flag}"]
    if opts.core_macro:
        flags.append(f"-D{opts.core_macro}=1")
    flags += [
        f"-std={STD_ALIASES.get(opts.std, opts.std)}",
        opts.opt_level,
        DEBUG_ALIASES.get(opts.debug_flag or "-g0", opts.debug_flag or "-g0"),
    ]
    pre = opts.preprocessor_flags
    for option, value in zip(pre[::2], pre[1::2]):
        if option in ("-D", "-U"):
            flags.append(option + value)
        elif option == "-include":
            flags += [option, logical_name(value, roots) if os.path.exists(value) else value]
    return flags


def header_digests(deps: Iterable[str], opts: Options, res: ResourceDirs, roots: Sequence[str]) -> List[HeaderDigest]:
    """Digests of the headers in a depfile's prerequisites (the source itself left out), plus the
    two twin headers the device pass includes after the source."""
    source = os.path.realpath(opts.source_path)
    paths = [d for d in deps if os.path.realpath(d) != source]
    paths += [os.path.join(res.asc_include, ENTRY_HEADER), os.path.join(res.abi_include, ABI_HEADER)]
    seen, out = set(), []
    for path in paths:
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        try:
            sha = sha256_file(path)
        except OSError as e:
            raise BishengError(f"cannot read header '{path}' for the cache key: {e.strerror}")
        out.append(HeaderDigest(logical_name(path, roots), sha, _reported_path(path)))
    return sorted(out, key=lambda h: (h.name, h.sha256, h.path))


def compute_key(
    identity: str, flags: Sequence[str], soc: str, npu_arch: int, source_sha256: str, headers: Sequence[HeaderDigest]
) -> str:
    fields = [
        SCHEME,
        "compiler",
        identity,
        "flags",
        str(len(flags)),
        *flags,
        "soc",
        soc,
        "npu_arch",
        str(npu_arch),
        "source",
        source_sha256,
        "headers",
        str(len(headers)),
    ]
    fields += [f"{h.name} {h.sha256}" for h in sorted(headers, key=lambda h: (h.name, h.sha256))]
    return hash_fields(fields)


def key_report(opts: Options, tools: Tools, res: ResourceDirs, deps: Iterable[str]) -> str:
    """The JSON report written to --twin-cache-key=FILE: the key and what went into it."""
    soc = check_soc(opts.twin_soc)
    roots = include_roots(opts, res, clang_resource_dir(tools))
    identity = compiler_identity(tools)
    flags = normalized_flags(opts, roots)
    source_sha = sha256_file(opts.source_path)
    headers = header_digests(deps, opts, res, roots)
    key = compute_key(identity, flags, soc, opts.npu_arch.number, source_sha, headers)
    report = {
        "scheme": SCHEME,
        "key": key,
        "compiler": identity,
        "flags": flags,
        "soc": soc,
        "npu_arch": opts.npu_arch.number,
        "source_sha256": source_sha,
        "headers": [{"name": h.name, "sha256": h.sha256, "path": h.path} for h in headers],
    }
    return json.dumps(report, indent=1, sort_keys=True) + "\n"
