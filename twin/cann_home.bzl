"""cann_home: lays built files out as a CANN-like install tree (one directory artifact).

    cann_home(
        name = "cann_home",
        layout = {
            "//twin/runtime:libascendcl.so": "lib64",
            "//twin/asc:headers": "asc/include|twin/asc/include",
        },
    )

Each `layout` value is `DEST` (files land in DEST under their basename), `DEST|STRIP`
(files keep their path below the workspace-relative prefix STRIP) or `DEST|` (files keep their
whole workspace-relative path, e.g. generated Python modules imported by package path) or
`=PATH` (the target's single file lands exactly at PATH, e.g. a script renamed to bin/NAME). Executables keep their
mode. The tree is what `source <tree>/set_env.sh` expects, so tests point ASCEND_HOME_PATH
at it and `//twin:install` copies it to a prefix.
"""

def _dest_path(f, spec):
    if spec.startswith("="):
        return spec[1:]
    dest, keep_path, strip = spec.partition("|")
    path = f.short_path
    if keep_path and not strip:
        rel = path
    elif strip:
        prefix = strip.rstrip("/") + "/"
        if not path.startswith(prefix):
            fail("%s is not under %s" % (path, strip))
        rel = path[len(prefix):]
    else:
        rel = f.basename
    return (dest.rstrip("/") + "/" + rel) if dest else rel

def _cann_home_impl(ctx):
    out = ctx.actions.declare_directory(ctx.label.name)
    entries = []
    inputs = []
    seen = {}
    for target, spec in ctx.attr.layout.items():
        files = target[DefaultInfo].files.to_list()
        if spec.startswith("=") and len(files) != 1:
            fail("%s must be a single file to be placed at %s" % (target.label, spec[1:]))
        for f in files:
            dest = _dest_path(f, spec)
            if dest in seen and seen[dest] != f.path:
                fail("two files map to %s: %s and %s" % (dest, seen[dest], f.path))
            seen[dest] = f.path
            entries.append("%s\t%s" % (f.path, dest))
            inputs.append(f)
    manifest = ctx.actions.declare_file(ctx.label.name + ".manifest")
    ctx.actions.write(manifest, "\n".join(sorted(entries)) + "\n")
    ctx.actions.run_shell(
        outputs = [out],
        inputs = inputs + [manifest],
        command = """
set -eu
out="$1"
while IFS="$(printf '\\t')" read -r src dest; do
  [ -n "$src" ] || continue
  mkdir -p "$out/$(dirname "$dest")"
  cp -L "$src" "$out/$dest"
  chmod u+w "$out/$dest"
done < "$2"
""",
        arguments = [out.path, manifest.path],
        mnemonic = "CannHome",
        progress_message = "Laying out CANN-like tree %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

cann_home = rule(
    implementation = _cann_home_impl,
    attrs = {
        "layout": attr.label_keyed_string_dict(allow_files = True),
    },
)
