#!/usr/bin/env python3
"""Lists the operator prototypes one OPP proto library registers, in gen_esb's input format.

    list_opp_protos.py --graph_lib libgraph.so --opp_lib libcust_opapi.so --out protos.json

Loads the graph library (C ABI), notes the protos it already knows (built-ins), loads the OPP
library as an OPP root (<dir>/libcust_opapi.so, CANN's "new .so delivery" layout) and writes the
protos that appeared: the ones that library registers.
"""

import argparse
import json
import os
import sys
import tempfile

_KINDS = {"REQUIRED": "required", "OPTIONAL": "optional", "DYNAMIC": "dynamic"}


def _gen_esb_proto(op: dict) -> dict:
    attrs = []
    for attr in op["attrs"]:
        item = {"name": attr["name"], "type": attr["value_type"], "required": bool(attr["required"])}
        if "default" in attr:
            item["default"] = attr["default"]
        attrs.append(item)
    return {"op_type": op["op_type"],
            "inputs": [{"name": i["name"], "kind": _KINDS[i["kind"]]} for i in op["inputs"]],
            "outputs": [{"name": o["name"], "kind": _KINDS[o["kind"]]} for o in op["outputs"]],
            "attrs": attrs}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph_lib", required=True)
    parser.add_argument("--opp_lib", required=True, help="an OPP proto library named libcust_opapi.so")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if os.path.basename(args.opp_lib) != "libcust_opapi.so":
        print(f"list_opp_protos: {args.opp_lib} must be named libcust_opapi.so (an OPP root's library)",
              file=sys.stderr)
        return 2
    os.environ["ASCEND_TWIN_GRAPH_LIB"] = os.path.abspath(args.graph_lib)
    from ge._compiler import opp_lib
    try:
        before = set(opp_lib.load_opp_protos(""))
        after = opp_lib.load_opp_protos(os.path.dirname(os.path.abspath(args.opp_lib)))
        listing = opp_lib.list_raw_protos()
    except opp_lib.OppLibError as exc:
        print(f"list_opp_protos: {exc}", file=sys.stderr)
        return 1
    added = sorted(set(after) - before)
    if not added:
        print(f"list_opp_protos: {args.opp_lib} registers no operator prototype", file=sys.stderr)
        return 1
    protos = [_gen_esb_proto(op) for op in listing if op["op_type"] in added]
    directory = os.path.dirname(os.path.abspath(args.out))
    fd, tmp = tempfile.mkstemp(prefix=".protos-", dir=directory)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"protos": protos}, out, indent=1)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
