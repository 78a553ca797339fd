"""soc_file: a one-line file holding the SoC selected with --define soc=... (default Ascend910B1),
so tests and benchmarks can read it at run time without failing when the define is absent."""

load("//tools/bisheng:soc_table.bzl", "DEFAULT_SOC")

def _soc_file_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.write(out, ctx.var.get("soc", DEFAULT_SOC) + "\n")
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

soc_file = rule(implementation = _soc_file_impl)
