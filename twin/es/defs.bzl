"""es_generated_code: runs gen_esb (//twin/es:gen_esb) on an OPP proto library in a Bazel action.

    es_generated_code(
        name = "es_custom_code",
        proto_lib = "//ops/add_custom/proto:libcust_opapi.so",
        module = "custom",
        ops = ["PythonCompilableAddCustom"],     # the files gen_esb writes must be declared
    )

Outputs, under <package>/<out_dir>/ (out_dir defaults to name): es_<module>_ops{_c.h,.h,.py},
es_<Op>{_c.h,.cpp,.h,.py} per op and gen_esb's generated_code.flag, declared as
es_<module>_generated_code.flag so that two modules can share out_dir. The action stages the library as
<tmp>/opp/op_graph/lib/linux/<arch>/ and points ASCEND_CUSTOM_OPP_PATH there, as the CMake
package does. The action fails, naming both lists, when the files gen_esb wrote are not exactly
the declared ones (the library registers other ops than `ops`).
"""

def _generated_files(module, ops):
    files = ["es_%s_ops_c.h" % module, "es_%s_ops.h" % module, "es_%s_ops.py" % module, "generated_code.flag"]
    for op in ops:
        files += ["es_%s_c.h" % op, "es_%s.cpp" % op, "es_%s.h" % op, "es_%s.py" % op]
    return sorted(files)

def es_generated_code(name, proto_lib, module, ops, out_dir = None, exclude_ops = [], **kwargs):
    """Runs gen_esb over `proto_lib` for `ops`: the ES C, C++ and Python files of `module`."""
    out_dir = out_dir or name
    files = _generated_files(module, ops)
    flag = "es_%s_generated_code.flag" % module
    outs = [out_dir + "/" + (flag if f == "generated_code.flag" else f) for f in files]
    native.genrule(
        name = name,
        srcs = [proto_lib],
        outs = outs,
        cmd = " && ".join([
            "stage=$$(mktemp -d)",
            "trap 'rm -rf \"$$stage\"' EXIT",
            "lib=$$stage/opp/op_graph/lib/linux/$$(uname -m)",
            "mkdir -p $$lib",
            "cp $(location %s) $$lib/" % proto_lib,
            "gen=$$stage/out",
            "ASCEND_CUSTOM_OPP_PATH=$$stage/opp $(location //twin/es:gen_esb) " +
            "--output_dir=$$gen --module_name=%s%s >/dev/null" % (
                module,
                " --exclude_ops=" + ",".join(exclude_ops) if exclude_ops else "",
            ),
            "got=$$(cd $$gen && ls | LC_ALL=C sort | tr '\\n' ' ')",
            "if [ \"$$got\" != '%s ' ]; then echo \"es_generated_code: gen_esb wrote $$got; declared: %s\" >&2; exit 1; fi" % (
                " ".join(files),
                " ".join(files),
            ),
            "mv $$gen/generated_code.flag $$gen/%s" % flag,
            "cp $$gen/* $(RULEDIR)/%s/" % out_dir,
        ]),
        tools = ["//twin/es:gen_esb"],
        **kwargs
    )
