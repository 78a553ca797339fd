"""Runs public CANN examples unchanged against an installed twin and classifies each run.

A *case* is one example (and scenario) as its own README tells a user to run it: a list of shell
lines executed one by one in the example's own folder, in a clean environment (`env -i`, then
only `source PREFIX/set_env.sh`), with the markers its README shows for success. This module
knows nothing of where cases come from (asc_examples.py, ge_samples.py build them); it runs
them and says pass / wrong / build error / run error, with the first cause.
"""

import dataclasses
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from concurrent import futures

PASS, WRONG, BUILD_ERROR, RUN_ERROR, NOT_RUN = "pass", "wrong", "build error", "run error", "not run"
VERDICTS = (PASS, WRONG, BUILD_ERROR, RUN_ERROR, NOT_RUN)

BUILD, SETUP, RUN, CHECK = "build", "setup", "run", "check"


@dataclasses.dataclass(frozen=True)
class Step:
    """One shell line of the example's commands, with the phase it belongs to."""

    line: str
    phase: str


@dataclasses.dataclass
class Case:
    case_id: str  # "03_basic_api/01_memory_vector_compute/brcb" (+ " #2" for scenario 2)
    category: str  # grouping for the totals
    kind: str  # what the example needs: vector, advanced API, cube, ...
    source_dir: str  # the example folder in the checkout (never modified)
    copy_root: str  # the checkout: its other folders are linked beside the copy, so
    # paths such as ../../common still resolve
    steps: list  # [Step]
    markers: list  # lines the README shows on success; all must appear in the output
    skip_reason: str = ""  # non-empty: not run, and why
    other_target: str = ""  # a regex: a build failure whose output matches it says the example
    # (or scenario) is for another target, so the case is not run


@dataclasses.dataclass
class Result:
    case: Case
    verdict: str
    cause: str
    seconds: float


def classify_steps(lines):
    """Phases by position: everything before the first compile is setup, cmake/make/bisheng
    lines build, the first line running a built program starts the run, and what follows the
    run checks it (verify scripts)."""
    steps, seen_run = [], False
    for line in lines:
        head = line.split()[0] if line.split() else ""
        if seen_run:
            phase = CHECK
        elif re.search(r"(^|[;&|\s])(cmake|make|bisheng|bash\s+build\.sh|ninja)(\s|;|$)", line):
            phase = BUILD
        elif head.startswith("./") or re.match(r"(bash|sh)\s+\S*run\S*\.sh", line):
            phase, seen_run = RUN, True
        else:
            phase = SETUP
        steps.append(Step(line, phase))
    return steps


_ERROR_LINE = re.compile(
    r"(error[:\]]|Error \d|\berror\b.*:|fatal|FAILED|Traceback|Segmentation fault|core dumped|"
    r"Aborted|not found|undefined reference|No such file|failed|\[ERROR\]|test fail|ret\s*=\s*[1-9])",
    re.IGNORECASE,
)
_NOISE = re.compile(r"^(make(\[\d+\])?: \*\*\*|gmake|-- |CMake Error at .*CMakeLists|Call Stack)")


def first_cause(output: str, limit: int = 220) -> str:
    """The first line that says what went wrong; compiler diagnostics first."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    # A Python traceback's cause is its exception line, the first unindented one after it.
    raw = output.splitlines()
    for i, line in enumerate(raw):
        if line.startswith("Traceback (most recent call last):"):
            for after in raw[i + 1 :]:
                if after.strip() and not after.startswith((" ", "\t")):
                    return _clip(after.strip(), limit)
    for pattern in (re.compile(r":\d+:\d+: (fatal )?error: "), re.compile(r"CMake Error"), _ERROR_LINE):
        for i, line in enumerate(lines):
            if pattern.search(line) and not _NOISE.match(line):
                if line.startswith("CMake Error") and i + 1 < len(lines):
                    line = line + " " + lines[i + 1]
                return _clip(line, limit)
    return _clip(lines[-1], limit) if lines else "(no output)"


def _clip(text: str, limit: int) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _session_script(prefix: str, cwd: str, steps) -> str:
    """The README's lines as one shell session runs them (a `cd build` or a variable carries over
    to the next line), each framed by markers so its output and status can be told apart."""
    out = [f"source {shlex.quote(os.path.join(prefix, 'set_env.sh'))} || exit 97", f"cd {shlex.quote(cwd)} || exit 97"]
    for i, step in enumerate(steps):
        out += [
            f"printf '\\n{_MARK} step {i}\\n'",
            step.line,
            f"__rc=$?; printf '\\n{_MARK} rc {i} %d\\n' $__rc; [ $__rc = 0 ] || exit $__rc",
        ]
    return "\n".join(out) + "\n"


_MARK = "@@conformance@@"
_FRAME = re.compile(rf"^{_MARK} (step|rc) (\d+)(?: (-?\d+))?$", re.M)


def _split_frames(output: str):
    """{step index: (its output, its status or None when it never finished)}."""
    frames, last, pos = {}, None, 0
    for m in _FRAME.finditer(output):
        if last is not None:
            frames[last] = (output[pos : m.start()], frames.get(last, ("", None))[1])
        kind, i = m.group(1), int(m.group(2))
        if kind == "step":
            last, pos = i, m.end()
            frames[i] = ("", None)
        else:
            frames[i] = (frames.get(i, ("", None))[0], int(m.group(3)))
            last, pos = None, m.end()
    if last is not None:
        frames[last] = (output[pos:], None)
    return frames


def clean_env(home: str, python_env: str = "") -> dict:
    """What `env -i HOME=... PATH=/usr/bin:/bin` leaves: nothing from the caller's shell. A
    python_env (a venv holding the examples' own stated Python prerequisites, e.g. ml_dtypes)
    goes first on PATH, as a user's `pip install` would put those packages under `python3`."""
    path = "/usr/bin:/bin" if not python_env else os.path.join(python_env, "bin") + ":/usr/bin:/bin"
    return {"HOME": home, "PATH": path, "LANG": "C.UTF-8", "TERM": "dumb"}


def _verdict_of(phase: str) -> str:
    return {BUILD: BUILD_ERROR, CHECK: WRONG}.get(phase, RUN_ERROR)


def _stage(root: str, folder: str, dest: str) -> str:
    """Copies `folder` to the same place under `dest` and links every other entry of its
    ancestors up to `root`, so the copy sees the checkout as the original does, and builds in
    it change nothing in the checkout."""
    rel = os.path.relpath(folder, root)
    parts = [] if rel == "." else rel.split(os.sep)
    src, dst = root, dest
    os.makedirs(dst)
    for part in parts:
        for entry in os.listdir(src):
            if entry != part:
                os.symlink(os.path.join(src, entry), os.path.join(dst, entry))
        src, dst = os.path.join(src, part), os.path.join(dst, part)
        os.mkdir(dst)
    os.rmdir(dst)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def run_case(case: Case, prefix: str, scratch: str, timeout: float, python_env: str = "") -> Result:
    if case.skip_reason:
        return Result(case, NOT_RUN, case.skip_reason, 0.0)
    start = time.monotonic()
    work = tempfile.mkdtemp(prefix="case.", dir=scratch)
    try:
        cwd = _stage(case.copy_root, case.source_dir, os.path.join(work, "tree"))
        home = os.path.join(work, "home")
        os.mkdir(home)
        script = _session_script(prefix, cwd, case.steps)
        timed_out = False
        proc = subprocess.Popen(
            ["bash", "--noprofile", "--norc", "-c", script],
            env=clean_env(home, python_env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            raw, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, 9)
            raw, _ = proc.communicate()
        # Causes name files as the checkout does, not by the scratch copy's path.
        output = (
            raw.decode("utf-8", "replace").replace(cwd + os.sep, "").replace(os.path.join(work, "tree") + os.sep, "")
        )
        seconds = time.monotonic() - start
        if proc.returncode == 97 and not _FRAME.search(output):
            return Result(case, RUN_ERROR, "set_env.sh: " + first_cause(output), seconds)
        frames = _split_frames(output)
        for i, step in enumerate(case.steps):
            text, rc = frames.get(i, ("", None))
            if rc == 0:
                continue
            where = f"`{_clip(step.line, 60)}`"
            if rc is None and timed_out:
                return Result(case, _verdict_of(step.phase), f"{where} timed out after {timeout:.0f} s", seconds)
            if step.phase == BUILD and case.other_target:
                hit = re.search(case.other_target, text)
                if hit:
                    line = text[text.rfind("\n", 0, hit.start()) + 1 :].split("\n", 1)[0].strip()
                    return Result(
                        case, NOT_RUN, "its build says it is for another target: " + _clip(line, 120), seconds
                    )
            cause = first_cause(text)
            if rc is None or rc < 0 or rc >= 128:
                cause = f"status {rc}: {cause}"
            return Result(case, _verdict_of(step.phase), f"{where}: {cause}", seconds)
        missing = [m for m in case.markers if m not in output]
        if missing:
            return Result(case, WRONG, f"no '{_clip(missing[0], 60)}' in the output; {first_cause(output)}", seconds)
        return Result(case, PASS, "", seconds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_all(cases, prefix, scratch, jobs, timeout, progress=None, python_env=""):
    os.makedirs(scratch, exist_ok=True)
    results = [None] * len(cases)
    with futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        pending = {pool.submit(run_case, c, prefix, scratch, timeout, python_env): i for i, c in enumerate(cases)}
        for done in futures.as_completed(pending):
            i = pending[done]
            results[i] = done.result()
            if progress:
                progress(results[i])
    return results
