"""The SoC a build targets, read in one place.

    bazel build //offline:model --//tools/bisheng:soc=Ascend910B4    # the build setting
    bazel build //offline:model --config=910b4                       # the same, a .bazelrc preset
    bazel build //offline:model --define soc=Ascend910B4             # the seed's interface, still honoured

Precedence: a rule's own `soc` attribute, then the build setting (when set, e.g. by
`soc_transition`), then `--define soc=`, then DEFAULT_SOC. `selected_soc(ctx)` applies it for
every rule that needs a SoC (ascendc_kernel, atc_om, om_run, soc_file); they add `SOC_ATTRS`.
`for_socs` builds one target for several SoCs in one command through an outgoing transition.
"""

load(":soc_table.bzl", "DEFAULT_SOC", "SOC_NPU_ARCH")

SOC_SETTING = "//tools/bisheng:soc"

SocSettingInfo = provider(
    doc = "The value of the //tools/bisheng:soc build setting.",
    fields = {"value": "string: the build setting's value ('' = unset)"},
)

def _soc_flag_impl(ctx):
    return [SocSettingInfo(value = ctx.build_setting_value)]

soc_flag = rule(
    implementation = _soc_flag_impl,
    build_setting = config.string(flag = True),
    doc = "The SoC to build for (empty: --define soc=..., else %s)." % DEFAULT_SOC,
)

SOC_ATTRS = {
    "_soc_setting": attr.label(default = SOC_SETTING),
}

def selected_soc(ctx, what = None):
    """The SoC for this target; fails naming its source when the SoC is unknown."""
    setting = ctx.attr._soc_setting[SocSettingInfo].value
    if getattr(ctx.attr, "soc", ""):
        soc, source = ctx.attr.soc, "soc = ..."
    elif setting:
        soc, source = setting, "--%s=..." % SOC_SETTING
    elif "soc" in ctx.var:
        soc, source = ctx.var["soc"], "--define soc=..."
    else:
        soc, source = DEFAULT_SOC, "the default"
    if soc not in SOC_NPU_ARCH:
        fail("unknown SoC '%s' for %s (from %s); known: %s" % (
            soc,
            what or ctx.label,
            source,
            ", ".join(sorted(SOC_NPU_ARCH.keys())),
        ))
    return soc

def _soc_split_impl(_settings, attr):
    return {soc: {"//tools/bisheng:soc": soc} for soc in attr.socs}

soc_transition = transition(
    implementation = _soc_split_impl,
    inputs = [],
    outputs = ["//tools/bisheng:soc"],
)

def _for_socs_impl(ctx):
    files = [ctx.split_attr.target[soc][DefaultInfo].files for soc in ctx.attr.socs]
    return [DefaultInfo(files = depset(transitive = files))]

for_socs = rule(
    implementation = _for_socs_impl,
    doc = "`target` built once per SoC in `socs` (each in its own configuration), in one command.",
    attrs = {
        "target": attr.label(mandatory = True, cfg = soc_transition),
        "socs": attr.string_list(mandatory = True, allow_empty = False),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
