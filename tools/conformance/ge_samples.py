"""Cases from hicann/ge's `examples/custom_op/`: one per sample folder (a folder with a README
whose subfolders have none of their own; a README over sample folders is an index).

A case is the README's run block as a user types it from the repository root: the fenced shell
block that runs the sample's `run.sh` (else the one that runs cmake and a program). Its
`source .../set_env.sh` line is what the runner already did, so it is dropped; a block that
starts with `cd examples/custom_op/...` begins at the root of the copied checkout. Success is
the run's status (a run.sh checks its own results and exits non-zero otherwise), the lines of
the README's output block that hold no placeholder (`...`, `xxx`), and the PASS line the run.sh
prints at its end. Samples that need an NPU-only framework (torch_npu, TensorFlow, Triton) are
listed, not run. `kind` is "Python" for a sample whose own Python sources use the `ge` package
(a Python custom op or graph), "C++" otherwise.
"""

import os
import re

from asc_examples import _FENCE, block_lines
from conformance_run import Case, classify_steps

SAMPLES_DIR = os.path.join("examples", "custom_op")

# What a sample's README or sources need that the twin cannot have: a framework on the NPU.
_NPU_ONLY = (
    ("torch_npu", re.compile(r"\btorch_npu\b")),
    ("TensorFlow", re.compile(r"\bimport\s+tensorflow\b|\btensorflow\b.*\b1\.15\b|build_tf\.sh")),
    ("Triton", re.compile(r"\bimport\s+triton\b|\btriton\.jit\b")),
)
_SOURCE_SUFFIXES = (".py", ".cc", ".cpp", ".h", ".asc", ".sh", ".md", ".txt")
_SET_ENV = re.compile(r"^(source|\.)\s+\S*set_env\.(sh|bash)\s*$")
_PLACEHOLDER = re.compile(r"\.\.\.|\bx{3}\b|0x\.\.\.|<[^>]+>")
_RUN_SH_PASS = re.compile(r"""^\s*(?:info|echo)\s+["']([^"'$`]*\bPASS\b[^"'$`]*)["']\s*$""", re.M)


def sample_folders(checkout: str):
    """Sample folders under examples/custom_op, sorted; index READMEs are descended, not listed."""
    base = os.path.join(checkout, SAMPLES_DIR)
    found = []
    for root, dirs, files in os.walk(base):
        dirs.sort()
        if root == base or "README.md" not in files:
            continue
        if any(os.path.isfile(os.path.join(root, d, "README.md")) for d in dirs):
            continue  # an index over samples of its own
        found.append(root)
        dirs[:] = []  # a sample's subfolders are part of it
    return found


def _read(path: str) -> str:
    with open(path, errors="replace") as f:
        return f.read()


def _sources(folder: str):
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(_SOURCE_SUFFIXES):
                yield os.path.join(root, name)


def npu_only_framework(folder: str) -> str:
    """The NPU-only frameworks the sample needs ("torch_npu, Triton"), or ""."""
    text = "\n".join(_read(p) for p in _sources(folder))
    return ", ".join(name for name, pattern in _NPU_ONLY if pattern.search(text))


def kind_of(folder: str) -> str:
    for path in _sources(folder):
        if path.endswith(".py") and re.search(r"^\s*(from|import)\s+ge(\.|\s)", _read(path), re.M):
            return "Python"
    return "C++"


def run_block(readme: str):
    """(lines, end offset in the README) of the block running the sample: `bash run.sh` first,
    else cmake plus a program."""
    blocks = [(block_lines(m.group(1)), m.end()) for m in _FENCE.finditer(readme)]
    for lines, end in blocks:
        if any(re.search(r"(^|\s)(bash|sh)\s+(\./)?run\.sh\b", line) for line in lines):
            return lines, end
    for lines, end in blocks:
        if any("cmake" in line for line in lines) and any(re.match(r"\./|\.\./|python3? ", line) for line in lines):
            return lines, end
    return None, 0


def output_markers(readme: str, after: int):
    """Placeholder-free lines of the first output block after the run block (not a folder tree,
    not a flow diagram, not another command block)."""
    for m in _FENCE.finditer(readme, after):
        fence_line = readme[m.start() : readme.index("\n", m.start())]
        body = m.group(1)
        if re.search(r"```\s*(bash|sh|shell)\s*$", fence_line):
            return []  # the next commands come before any output
        if re.search(r"[├└│]|->|─", body):
            continue
        return [line.strip() for line in body.splitlines() if line.strip() and not _PLACEHOLDER.search(line)]
    return []


def run_sh_markers(folder: str, lines):
    """The PASS line the run.sh the block calls prints at its end, if it prints one."""
    if not any(re.search(r"\brun\.sh\b", line) for line in lines):
        return []
    path = os.path.join(folder, "run.sh")
    if not os.path.isfile(path):
        return []
    found = _RUN_SH_PASS.findall(_read(path))
    return [found[-1]] if found else []


def _steps(lines, depth: int):
    """The README's lines as the runner runs them, from the sample folder of the copy."""
    kept = [line for line in lines if not _SET_ENV.match(line)]
    if kept and re.match(rf"cd\s+{re.escape(SAMPLES_DIR)}/", kept[0]):
        kept.insert(0, "cd " + "/".join([".."] * depth))  # the README starts at the repository root
    return classify_steps(kept)


def cases(checkout: str):
    out = []
    for folder in sample_folders(checkout):
        rel = os.path.relpath(folder, os.path.join(checkout, SAMPLES_DIR))
        common = dict(category=rel.split(os.sep)[0], kind=kind_of(folder), source_dir=folder, copy_root=checkout)
        framework = npu_only_framework(folder)
        if framework:
            out.append(Case(rel, steps=[], markers=[], skip_reason=f"needs {framework} (NPU only)", **common))
            continue
        readme = _read(os.path.join(folder, "README.md"))
        lines, end = run_block(readme)
        if not lines:
            out.append(Case(rel, steps=[], markers=[], skip_reason="README has no run block", **common))
            continue
        depth = len(os.path.relpath(folder, checkout).split(os.sep))
        markers = output_markers(readme, end) + run_sh_markers(folder, lines)
        out.append(Case(rel, steps=_steps(lines, depth), markers=markers, **common))
    return out
