#!/usr/bin/env python3
"""gen_esb: generate eager-style (ES) Python wrappers for registered op prototypes (§3.3).

Input: a JSON list of prototypes — either ``[...]`` or ``{"protos": [...]}`` — each
    {"op_type": "AddCustom",
     "inputs":  [{"name": "x1", "kind": "required" | "optional" | "dynamic" | 0 | 1 | 2}],
     "outputs": [{"name": "y",  "kind": "required" | "dynamic" | 0 | 1}],
     "attrs":   [{"name": "alpha", "type": "VT_FLOAT", "required": false, "default": 1.0}]}
(the shape the graph library's C ABI and ge.custom_op.proto's ``to_bridge_dict`` produce).

Output: one importable module ``es_<module>.py`` with a function named exactly ``<OpType>`` per
prototype, building a node through ``GraphBuilder._add_op_node``.

    python3 gen_esb.py --protos protos.json --output_dir out/ [--module custom]
"""

import argparse
import json
import keyword
import os
import sys
import tempfile
from typing import Dict, List, Tuple

_INPUT_KINDS = {"required": "required", "optional": "optional", "dynamic": "dynamic",
                0: "required", 1: "optional", 2: "dynamic"}
_OUTPUT_KINDS = {"required": "required", "dynamic": "dynamic", 0: "required", 1: "dynamic"}
_ATTR_TYPES = ("VT_INT", "VT_FLOAT", "VT_BOOL", "VT_STRING", "VT_DATA_TYPE", "VT_TENSOR", "VT_LIST_INT",
               "VT_LIST_FLOAT", "VT_LIST_BOOL", "VT_LIST_STRING", "VT_LIST_DATA_TYPE", "VT_LIST_LIST_INT")
_ATTR_ANNOTATIONS = {"VT_INT": "int", "VT_FLOAT": "float", "VT_BOOL": "bool", "VT_STRING": "str",
                     "VT_DATA_TYPE": "DataType", "VT_TENSOR": "object", "VT_LIST_INT": "List[int]",
                     "VT_LIST_FLOAT": "List[float]", "VT_LIST_BOOL": "List[bool]", "VT_LIST_STRING": "List[str]",
                     "VT_LIST_DATA_TYPE": "List[DataType]", "VT_LIST_LIST_INT": "List[List[int]]"}


class ProtoError(ValueError):
    pass


def _identifier(name, what: str) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        raise ProtoError(f"{what} name {name!r} is not a valid identifier")
    return name


def _normalize(proto: dict) -> dict:
    if not isinstance(proto, dict):
        raise ProtoError(f"prototype must be an object, got {type(proto).__name__}")
    op_type = _identifier(proto.get("op_type"), "op_type")
    try:
        inputs = [(_identifier(i["name"], f"{op_type} input"), _INPUT_KINDS[i.get("kind", "required")])
                  for i in proto.get("inputs", [])]
        outputs = [(_identifier(o["name"], f"{op_type} output"), _OUTPUT_KINDS[o.get("kind", "required")])
                   for o in proto.get("outputs", [])]
    except KeyError as exc:
        raise ProtoError(f"{op_type}: bad input/output entry ({exc})") from None
    attrs = []
    for attr in proto.get("attrs", []):
        name = _identifier(attr.get("name"), f"{op_type} attr")
        vt = attr.get("type")
        if vt not in _ATTR_TYPES:
            raise ProtoError(f"{op_type}: attr {name} has unsupported type {vt!r}")
        required = bool(attr.get("required", "default" not in attr))
        attrs.append((name, vt, required, attr.get("default")))
    return {"op_type": op_type, "inputs": inputs, "outputs": outputs, "attrs": attrs}


def _python_names(proto: dict) -> Tuple[Dict[str, str], Dict[str, str], Dict[str, str]]:
    """Parameter names: keywords get in_/out_/attr_; outputs/attrs clashing with inputs get
    ref_/attr_ (as CANN's generator does)."""
    inputs = {n: (f"in_{n}" if keyword.iskeyword(n) else n) for n, _ in proto["inputs"]}
    outputs, attrs = {}, {}
    for name, _ in proto["outputs"]:
        outputs[name] = f"ref_{name}" if name in inputs else (f"out_{name}" if keyword.iskeyword(name) else name)
    for name, *_ in proto["attrs"]:
        attrs[name] = f"attr_{name}" if (name in inputs or keyword.iskeyword(name)) else name
    return inputs, outputs, attrs


def _data_type_literal(value) -> str:
    try:  # readable member names when the ge package is importable (it is for the generated code)
        from ge.graph.types import DataType
        return f"DataType.{DataType(int(value)).name}"
    except (ImportError, ValueError):
        return f"DataType({int(value)})"


def _literal(vt: str, value) -> str:
    if vt == "VT_DATA_TYPE":
        return _data_type_literal(value)
    if vt == "VT_LIST_DATA_TYPE":
        return "[" + ", ".join(_data_type_literal(v) for v in value) + "]"
    if vt == "VT_FLOAT":
        return repr(float(value))
    return repr(value)


def _function(proto: dict) -> List[str]:
    op = proto["op_type"]
    in_names, out_names, attr_names = _python_names(proto)
    inputs, outputs = proto["inputs"], proto["outputs"]
    all_optional = bool(inputs) and all(k == "optional" for _, k in inputs)
    tensor_like = len(inputs) > 1 or all_optional
    holder_type = "TensorLike" if tensor_like else "TensorHolder"

    positional: List[Tuple[str, str, bool]] = []  # (param, annotation, may default to None)
    if not inputs:
        positional.append(("owner_graph_builder", "GraphBuilder", False))
    for name, kind in inputs:
        annotation = {"required": holder_type, "optional": f"Optional[{holder_type}]",
                      "dynamic": f"List[{holder_type}]"}[kind]
        positional.append((in_names[name], annotation, kind == "optional"))
    if all_optional:
        positional.append(("owner_builder", "Optional[GraphBuilder]", True))
    for name, kind in outputs:
        if kind == "dynamic":
            positional.append((f"{out_names[name]}_num", "int", False))
    # a parameter can default to None only if every later positional parameter has a default too
    params, defaults_allowed = [], True
    for param, annotation, may_default in reversed(positional):
        defaults_allowed = defaults_allowed and may_default
        params.append(f"{param}: {annotation}" + (" = None" if defaults_allowed else ""))
    params.reverse()
    ordered_attrs = [a for a in proto["attrs"] if a[2]] + [a for a in proto["attrs"] if not a[2]]
    if ordered_attrs:
        params.append("*")
        for name, vt, required, default in ordered_attrs:
            text = f"{attr_names[name]}: {_ATTR_ANNOTATIONS[vt]}"
            if not required:
                text += " = " + ("None" if default is None else _literal(vt, default))
            params.append(text)

    single = len(outputs) == 1
    returns = "None" if not outputs else (
        "TensorHolder" if single and outputs[0][1] == "required" else
        "List[TensorHolder]" if single else f"_{op}Outputs")
    body = [f"def {op}({', '.join(params)}) -> {returns}:",
            f'    """Add one {op} node to the graph of its inputs\' GraphBuilder."""']
    owner = "owner_graph_builder" if not inputs else ("owner_builder" if all_optional else "None")
    values = ", ".join(in_names[n] for n, _ in inputs)
    names = [n for n, _ in inputs]
    body.append(f"    builder = _support.resolve_builder({op!r}, [{values}], {owner}, {names!r}, {tensor_like})")
    for name, kind in inputs:
        param = in_names[name]
        helper = "as_dynamic_input" if kind == "dynamic" else "as_input"
        body.append(f"    {param} = _support.{helper}(builder, {param}, {op!r}, {name!r}, {tensor_like})")
    input_specs = ", ".join(f"({n!r}, {k!r}, {in_names[n]})" for n, k in inputs)
    attr_specs = ", ".join(f"({n!r}, _support.typed_attr({op!r}, {n!r}, {vt!r}, {attr_names[n]}))"
                           for n, vt, _, _ in proto["attrs"])
    output_specs = ", ".join(f"({n!r}, {k!r}, " + (f"{out_names[n]}_num" if k == "dynamic" else "1") + ")"
                             for n, k in outputs)
    body.append(f"    groups = builder._add_op_node({op!r}, inputs=[{input_specs}], attrs=[{attr_specs}], "
                f"outputs=[{output_specs}])")
    if not outputs:
        body.append("    return None")
    elif single:
        body.append("    return groups[0][0]" if outputs[0][1] == "required" else "    return groups[0]")
    else:
        items = ", ".join(f"groups[{i}][0]" if k == "required" else f"groups[{i}]" for i, (_, k) in enumerate(outputs))
        body.append(f"    return _{op}Outputs({items})")
    lines = []
    if outputs and not single:
        fields = ", ".join(repr(out_names[n]) for n, _ in outputs)
        lines.append(f"_{op}Outputs = collections.namedtuple('{op}Outputs', [{fields}])")
        lines.append("")
        lines.append("")
    return lines + body


def generate_module(protos: list, module: str) -> str:
    normalized = sorted((_normalize(p) for p in protos), key=lambda p: p["op_type"])
    seen = set()
    for proto in normalized:
        if proto["op_type"] in seen:
            raise ProtoError(f"duplicate op_type {proto['op_type']}")
        seen.add(proto["op_type"])
    lines = [f'"""ES wrappers of module {module!r}, generated by ge/es/gen_esb.py. Do not edit."""',
             "", "import collections", "from typing import List, Optional, Union", "",
             "from ge.es import _wrapper_support as _support",
             "from ge.es.graph_builder import GraphBuilder",
             "from ge.es.tensor_holder import TensorHolder",
             "from ge.graph.types import DataType", "",
             "TensorLike = Union[TensorHolder, int, float, list]", "",
             "__all__ = [" + ", ".join(repr(p["op_type"]) for p in normalized) + "]", ""]
    for proto in normalized:
        lines.append("")
        lines.extend(_function(proto))
        lines.append("")
    lines.extend(["", "def get_module():", "    import sys", "    return sys.modules[__name__]", ""])
    return "\n".join(lines)


def load_protos(path: str) -> list:
    with open(path, encoding="utf-8") as src:
        data = json.load(src)
    if isinstance(data, dict):
        data = data.get("protos")
    if not isinstance(data, list):
        raise ProtoError(f"{path}: expected a JSON list of prototypes or {{\"protos\": [...]}}")
    return data


def write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".es-", suffix=".py", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--protos", required=True, help="JSON file listing op prototypes")
    parser.add_argument("--module", default="custom", help="module name: writes es_<module>.py")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--output_dir", help="directory for es_<module>.py")
    target.add_argument("--output", help="exact output file path")
    args = parser.parse_args(argv)
    if not args.module.isidentifier():
        print(f"gen_esb: error: --module {args.module!r} is not a valid identifier", file=sys.stderr)
        return 2
    try:
        text = generate_module(load_protos(args.protos), args.module)
        compile(text, f"es_{args.module}.py", "exec")  # never write a module that cannot import
    except (OSError, ValueError, SyntaxError) as exc:
        print(f"gen_esb: error: {exc}", file=sys.stderr)
        return 1
    path = args.output or os.path.join(args.output_dir, f"es_{args.module}.py")
    write_atomically(path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
