"""es_generated_code: runs gen_esb (//twin/es:gen_esb) on an OPP proto library in a Bazel action.

    es_generated_code(
        name = "es_custom_code",
        proto_lib = "//ops/add_custom/proto:libcust_opapi.so",
        module = "custom",
        ops = ["PythonCompilableAddCustom"],     # the files gen_esb writes must be declared
    )

Outputs, under <package>/<out_dir>/ (out_dir defaults to name): es_<module>_ops{_c.h,.h,.py},
es_<Op>{_c.h,.cpp,.h,.py} per op and generated_code.flag. The action stages the library as
<tmp>/opp/op_graph/lib/linux/<arch>/ and points ASCEND_CUSTOM_OPP_PATH there, as the CMake
package does; gen_esb fails if the library registers an op missing from `ops` or vice versa
(Bazel reports undeclared or missing outputs).
"""

def es_generated_files(module, ops, out_dir):
    files = ["es_%s_ops_c.h" % module, "es_%s_ops.h" % module, "es_%s_ops.py" % module, "generated_code.flag"]
    for op in ops:
        files += ["es_%s_c.h" % op, "es_%s.cpp" % op, "es_%s.h" % op, "es_%s.py" % op]
    return [out_dir + "/" + f for f in files]

def es_generated_code(name, proto_lib, module, ops, out_dir = None, exclude_ops = [], **kwargs):
    out_dir = out_dir or name
    outs = es_generated_files(module, ops, out_dir)
    native.genrule(
        name = name,
        srcs = [proto_lib],
        outs = outs,
        cmd = " && ".join([
            "stage=$$(mktemp -d)",
            "lib=$$stage/opp/op_graph/lib/linux/$$(uname -m)",
            "mkdir -p $$lib",
            "cp $(location %s) $$lib/" % proto_lib,
            "gen=$$stage/out",
            "ASCEND_CUSTOM_OPP_PATH=$$stage/opp ASCEND_GLOBAL_LOG_LEVEL=3 $(location //twin/es:gen_esb) " +
            "--output_dir=$$gen --module_name=%s%s >/dev/null" % (
                module,
                " --exclude_ops=" + ",".join(exclude_ops) if exclude_ops else "",
            ),
            "cp $$gen/* $(RULEDIR)/%s/" % out_dir,
            "rm -rf $$stage",
        ]),
        tools = ["//twin/es:gen_esb"],
        **kwargs
    )
