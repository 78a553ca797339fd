"""soc_file: a one-line file holding the SoC this build targets (tools/bisheng/soc.bzl: the
build setting, else --define soc=..., else Ascend910B1), so tests and benchmarks can read it at
run time."""

load("//tools/bisheng:soc.bzl", "SOC_ATTRS", "selected_soc")

def _soc_file_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.write(out, selected_soc(ctx) + "\n")
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

soc_file = rule(implementation = _soc_file_impl, attrs = SOC_ATTRS)
