"""Repository rule `soc_facts`: the SoC table of the build, generated from twin/platform/*.ini,
the one source of SoC facts (the runtime's C++ table is generated from the same files).

Writes @soc_facts//:soc_facts.bzl with SOC_NPU_ARCH = {"<SoC>": <NpuArch>, ...}, read at analysis
time by tools/bisheng/soc_table.bzl. The table is written by twin/platform/ini/soc_ini.py, which
reads the files with the twin's one Python ini reader (ascend_ini), so Starlark parses no ini.
Each .ini and the reader are watched through their labels, so editing one re-runs the rule; a new
.ini file is picked up on the next `bazel sync --only=soc_facts` (or a fresh output base).
"""

def _soc_facts_impl(rctx):
    platform_dir = rctx.path(Label("//twin/platform:BUILD.bazel")).dirname
    script = rctx.path(Label("//twin/platform:ini/soc_ini.py"))
    rctx.path(Label("//twin/platform:ini/ascend_ini.py"))  # watched: the reader soc_ini.py imports
    for child in platform_dir.readdir():
        if child.basename.endswith(".ini"):
            rctx.path(Label("//twin/platform:" + child.basename))  # watched
    python = rctx.which("python3") or fail("soc_facts: no python3 on PATH to read twin/platform/*.ini")
    result = rctx.execute([python, "-B", script, platform_dir])
    if result.return_code != 0:
        fail("soc_facts: %s" % (result.stderr.strip() or "soc_ini.py exited with %d" % result.return_code))
    rctx.file("soc_facts.bzl", result.stdout)
    rctx.file("BUILD.bazel", 'exports_files(["soc_facts.bzl"])\n')

soc_facts = repository_rule(implementation = _soc_facts_impl, local = True)
