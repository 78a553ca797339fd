"""atc_om: AIR -> OM with atc as a declared tool, for one SoC (re-exported by //offline:defs.bzl).

    atc_om(name, air, ops = [...])   runs atc -> <name>.om (+ <name>.atc.log); each of `ops`
                                     (OppInfo, e.g. ge_custom_op's <name>_opp) adds its OPP root and
                                     plugin dir to ASCEND_CUSTOM_OPP_PATH and seeds atc's kernel cache
                                     with its kernels; or, by hand: opp_root, plugin_dir,
                                     plugin_files, kernels

It lives with the operator model because ge_custom_op(offline = ge_op_offline(air)) declares one per operator. The
SoC is `soc` if given, else the build setting //tools/bisheng:soc, else `--define soc=...`, else
Ascend910B1 (tools/bisheng/soc.bzl).
"""

load("//tools/bisheng:defs.bzl", "AscendcKernelInfo")
load("//tools/bisheng:soc.bzl", "SOC_ATTRS", "selected_soc")
load("//tools/bisheng:soc_table.bzl", "DEFAULT_SOC")
load(":opp.bzl", "OppInfo")

# Runs in the action's execroot. Everything atc reads is a declared input; the kernel cache lives
# in a private temp dir so the action neither reads nor pollutes the user's cache. It is seeded
# with the kernels built for this SoC (`kernels`, and those of `ops`), so the holders' compile
# finds them there and each kernel is compiled once per SoC per build. $5 is the
# ASCEND_CUSTOM_OPP_PATH entries, execroot-relative and ':'-separated; arguments after the first
# eight are (cache_key, aicore) pairs.
_ATC_COMMAND = """
set -eu
atc="$1"; air="$2"; om="$3"; soc="$4"; entries="$5"; home="$6"; log="$7"; seed="$8"
shift 8
work=$(mktemp -d "${TMPDIR:-/tmp}/atc_om.XXXXXX")
trap 'rm -rf "$work"' EXIT
here=$(pwd)
opp_path=""
IFS=: read -r -a dirs <<< "$entries"
for d in "${dirs[@]}"; do opp_path="${opp_path:+$opp_path:}$here/$d"; done
while [ "$#" -ge 2 ]; do
  "$seed" "$1" "$2" --cache "$work/kernel_cache" >/dev/null
  shift 2
done
status=0
env ASCEND_HOME_PATH="$here/$home" \
    ASCEND_CUSTOM_OPP_PATH="$opp_path" \
    ASCEND_TWIN_KERNEL_CACHE="$work/kernel_cache" \
    PATH="$here/$home/bin:$here/$home/x86_64-linux/ccec_compiler/bin:/usr/bin:/bin" \
    HOME="$work" \
    "$atc" --model="$air" --framework=1 --output="${om%.om}" --soc_version="$soc" --log=error \
    >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ] || [ ! -f "$om" ]; then
  cat "$log" >&2
  echo "atc_om: atc exited with status $status for $air (soc $soc)" >&2
  exit 1
fi
"""

def _by_hand_entries(ctx):
    """The OPP root and plugin dir given without an OppInfo target ([] when none is given)."""
    if not ctx.attr.opp_root and not ctx.attr.plugin_dir and not ctx.attr.plugin_files:
        return [], []
    if not ctx.attr.opp_root or not ctx.attr.plugin_dir:
        fail("atc_om %s: opp_root and plugin_dir go together (or use ops = [<ge_custom_op>_opp])" % ctx.label)
    plugin_dir = ctx.attr.plugin_dir.strip("/")
    if ctx.attr.plugin_dir.startswith("/") or ".." in plugin_dir.split("/"):
        fail("plugin_dir '%s' of %s must be a workspace-relative directory" % (ctx.attr.plugin_dir, ctx.label))
    if not [f for f in ctx.files.plugin_files if f.short_path.rpartition("/")[0] == plugin_dir]:
        fail("plugin_dir '%s' of %s holds none of plugin_files" % (plugin_dir, ctx.label))
    return [ctx.file.opp_root.path, plugin_dir], [ctx.file.opp_root] + ctx.files.plugin_files

def _atc_om_impl(ctx):
    soc = selected_soc(ctx)
    om = ctx.outputs.om
    log = ctx.outputs.log
    entries, inputs = _by_hand_entries(ctx)
    kernels = [k[AscendcKernelInfo] for k in ctx.attr.kernels]
    for op in ctx.attr.ops:
        info = op[OppInfo]
        entries += [info.opp_root.path, info.plugin_dir]
        inputs += [info.opp_root] + info.plugin_files.to_list()
        kernels += info.kernels
    if not entries:
        fail("atc_om %s: no operator: set ops = [<ge_custom_op>_opp] (or opp_root + plugin_dir)" % ctx.label)
    seeds = []
    for info in kernels:
        if info.soc == soc:  # a kernel of another SoC would never be looked up
            seeds += [info.cache_key, info.aicore]
    ctx.actions.run_shell(
        outputs = [om, log],
        inputs = [ctx.file.air, ctx.file.cann_home] + inputs + seeds,
        tools = [ctx.attr.atc[DefaultInfo].files_to_run, ctx.attr._seed[DefaultInfo].files_to_run],
        command = _ATC_COMMAND,
        arguments = [
            ctx.executable.atc.path,
            ctx.file.air.path,
            om.path,
            soc,
            ":".join(entries),
            ctx.file.cann_home.path,
            log.path,
            ctx.executable._seed.path,
        ] + [f.path for f in seeds],
        mnemonic = "Atc",
        progress_message = "atc %s -> %s (%s)" % (ctx.file.air.short_path, om.short_path, soc),
    )
    return [DefaultInfo(files = depset([om, log]), runfiles = ctx.runfiles(files = [om, log]))]

atc_om = rule(
    implementation = _atc_om_impl,
    doc = "Compiles an AIR graph to an OM with atc for one SoC.",
    attrs = dict(SOC_ATTRS, **{
        "air": attr.label(allow_single_file = [".air"], mandatory = True),
        "soc": attr.string(doc = "SoC to build for; default: //tools/bisheng:soc, --define soc=..., else " + DEFAULT_SOC),
        "atc": attr.label(default = "//twin/atc:atc", executable = True, cfg = "exec"),
        "cann_home": attr.label(default = "//twin:cann_home", allow_single_file = True),
        "ops": attr.label_list(
            providers = [OppInfo],
            doc = "Custom operators (ge_custom_op's <name>_opp): OPP roots, plugin dirs and kernels",
        ),
        "opp_root": attr.label(allow_single_file = True, doc = "By hand, without `ops`: an opp_root"),
        "plugin_files": attr.label_list(allow_files = True, doc = "The Python plugin dir's files and what they read"),
        "plugin_dir": attr.string(doc = "Workspace-relative Python plugin directory (with opp_root)"),
        "kernels": attr.label_list(
            providers = [AscendcKernelInfo],
            doc = "ascendc_kernel targets whose binaries seed atc's kernel cache (used when built for this SoC)",
        ),
        "_seed": attr.label(default = "//tools/ascendc_jit:seed", executable = True, cfg = "exec"),
    }),
    # Predeclared, so other targets can name them (":<name>.om").
    outputs = {"om": "%{name}.om", "log": "%{name}.atc.log"},
)
