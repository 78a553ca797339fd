#!/usr/bin/env python3
"""Conformance run: public CANN examples, unchanged, against an installed twin.

    python3 tools/conformance/conformance.py asc --checkout /tmp/asc-devkit \\
        [--prefix /opt/ascend-twin] [--only SUBSTRING] [--jobs 2] [--out CONFORMANCE.md]

It fetches nothing: `--checkout` is a local clone of the public repository. Every case runs in
a scratch copy (the checkout is never written), in a clean environment with only
`source PREFIX/set_env.sh`, and its row goes into the suite's section of CONFORMANCE.md (the
other suites' sections are kept). The file is written to a temp file and renamed.
"""

import argparse
import collections
import datetime
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import asc_examples  # noqa: E402
from conformance_run import NOT_RUN, PASS, VERDICTS, run_all  # noqa: E402

SUITES = {
    "asc": ("Ascend C examples (asc-devkit `examples/`)", "cannmirror/asc-devkit", asc_examples.cases),
}


def _suite_cases(name, checkout):
    if name == "ge":
        import ge_samples  # the GE custom-op samples, when that suite is present

        return ge_samples.cases(checkout)
    return SUITES[name][2](checkout)


def _revision(checkout):
    try:
        return subprocess.run(
            ["git", "-C", checkout, "log", "-1", "--format=%h %cs"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown revision"


def _totals(results, key):
    table = collections.OrderedDict()
    for r in results:
        table.setdefault(key(r), collections.Counter())[r.verdict] += 1
    return table


def _totals_table(title, table):
    lines = [f"| {title} | " + " | ".join(VERDICTS) + " | total |", "|---" * (len(VERDICTS) + 2) + "|"]
    grand = collections.Counter()
    for name, counts in table.items():
        grand.update(counts)
        lines.append(f"| {name} | " + " | ".join(str(counts[v]) for v in VERDICTS) + f" | {sum(counts.values())} |")
    lines.append("| **all** | " + " | ".join(f"**{grand[v]}**" for v in VERDICTS) + f" | **{sum(grand.values())}** |")
    return lines


def section(name, title, repo, checkout, prefix, results, only, python_env=""):
    ran = [r for r in results if r.verdict != NOT_RUN]
    passed = sum(r.verdict == PASS for r in ran)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"<!-- suite:{name} -->",
        f"## {title}",
        "",
        f"`{repo}` at {_revision(checkout)}, installed tree `{prefix}`, {stamp}"
        + (f", examples' Python prerequisites from `{python_env}`" if python_env else "")
        + (f", cases matching `{only}`" if only else "")
        + ".",
        "",
        f"**{passed} of {len(ran)} run cases pass** ({len(results)} cases in all; "
        f"{len(results) - len(ran)} not run, with the reason in the table).",
        "",
    ]
    lines += _totals_table("by kind", _totals(results, lambda r: r.case.kind)) + [""]
    lines += _totals_table("by category", _totals(results, lambda r: r.case.category)) + [""]
    lines += ["| case | kind | verdict | first cause | s |", "|---|---|---|---|---:|"]
    for r in results:
        lines.append(f"| {r.case.case_id} | {r.case.kind} | {r.verdict} | {r.cause} | {r.seconds:.0f} |")
    lines += ["", f"<!-- /suite:{name} -->", ""]
    return "\n".join(lines)


HEADER = """# Conformance: CANN's public examples on the twin

Written by `tools/conformance/conformance.py` (see tools/conformance/README.md); do not edit by
hand. Each case is a public example run unchanged, with its own build files and its README's
commands, from a clean shell after only `source PREFIX/set_env.sh`, and judged by its own check
(its verify script's status and the success line its README shows).

Verdicts: **pass**; **wrong** (ran, but its check failed); **build error** (cmake/make/bisheng
failed); **run error** (the program or a setup step failed or crashed); **not run** (the example
does not target dav-2201, or has no runnable README block).

"""


def merge(existing, name, text):
    start, end = f"<!-- suite:{name} -->", f"<!-- /suite:{name} -->"
    if not existing.startswith("# Conformance"):
        existing = HEADER
    if start in existing and end in existing:
        a = existing.index(start)
        b = existing.index(end) + len(end)
        return existing[:a] + text.rstrip("\n") + existing[b:]
    return existing.rstrip("\n") + "\n\n" + text


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".conformance.", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", choices=sorted(list(SUITES) + ["ge"]))
    parser.add_argument("--checkout", required=True, help="local clone of the public repository")
    parser.add_argument("--prefix", default="/opt/ascend-twin", help="the installed twin tree")
    parser.add_argument("--only", default="", help="run only cases whose id contains this")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900, help="seconds per case")
    parser.add_argument("--scratch", default="", help="where cases are copied and built (default: a temp dir)")
    parser.add_argument(
        "--python-env",
        default="",
        help="venv with the examples' Python prerequisites "
        "(tools/conformance/setup_python_env.sh makes one), first on PATH in each case's shell",
    )
    parser.add_argument("--out", default="", help="CONFORMANCE.md to update (default: print only)")
    args = parser.parse_args(argv)
    if not os.path.isfile(os.path.join(args.prefix, "set_env.sh")):
        parser.error(
            f"--prefix {args.prefix}: no set_env.sh there; install with bazel run //twin:install -- {args.prefix}"
        )
    if not os.path.isdir(args.checkout):
        parser.error(f"--checkout {args.checkout}: not a directory")
    if args.python_env and not os.access(os.path.join(args.python_env, "bin", "python3"), os.X_OK):
        parser.error(
            f"--python-env {args.python_env}: no bin/python3 there; "
            f"make it with tools/conformance/setup_python_env.sh {args.python_env}"
        )
    checkout = os.path.abspath(args.checkout)
    cases = [c for c in _suite_cases(args.suite, checkout) if args.only in c.case_id]
    scratch = args.scratch or tempfile.mkdtemp(prefix="conformance.")

    def progress(r):
        print(f"{r.verdict:12} {r.case.case_id}  {r.cause[:150]}", flush=True)

    results = run_all(
        cases,
        os.path.abspath(args.prefix),
        scratch,
        args.jobs,
        args.timeout,
        progress,
        os.path.abspath(args.python_env) if args.python_env else "",
    )
    title, repo = (
        SUITES[args.suite][:2]
        if args.suite in SUITES
        else ("GE custom-op samples (hicann/ge `examples/custom_op/`)", "hicann/ge")
    )
    text = section(args.suite, title, repo, checkout, args.prefix, results, args.only, args.python_env)
    counts = collections.Counter(r.verdict for r in results)
    print("\n" + ", ".join(f"{counts[v]} {v}" for v in VERDICTS))
    if args.out:
        old = open(args.out).read() if os.path.exists(args.out) else ""
        write_atomically(args.out, merge(old, args.suite, text))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
