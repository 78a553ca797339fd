"""The compiler entry behind aclgrphBuildModel and the C++ Session (libge_compiler.so,
libge_runner.so): ``python -m ascend_atc.ir_build --air=X --om=Y --error_file=E --soc_version=S``.

It compiles the AIR exactly as ``atc --framework=1 --soc_version=S`` does (same loader, same
compiler call, same options), so the OM bytes are atc's. Unlike atc it prints no console banner:
stdout carries only what plugins print (their markers reach the C++ caller's stdout), stderr the
detail log of ``--log`` and compiler diagnostics. The reason of a failure goes to --error_file
(first line: the cause; later lines: diagnostics), where the C++ side reads it.

Exit status: 0 OM written, 1 the graph did not compile, 2 an option value was rejected.
"""

import argparse
import sys
from typing import List, Optional

from . import compiler_bridge, console, flags, input_shapes
from .errors import AtcError
from .output_file import write_atomically

EXIT_COMPILE_FAILED = 1
EXIT_BAD_OPTION = 2


class BadOption(Exception):
    pass


def _check_shape_range(text: str) -> None:
    """``[1~20,3];[...]`` or ``name:[1~20,3];name2:[...]``: dims are integers, -1 or n1~n2."""
    try:
        input_shapes.validate_range_text(text)
    except AtcError as exc:
        raise BadOption(f"input_shape_range {exc.message.split('Reason: ')[-1]}") from None


def _write_error(path: str, message: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(message.rstrip("\n") + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ascend_atc.ir_build")
    parser.add_argument("--air", required=True)
    parser.add_argument("--om", required=True)
    parser.add_argument("--error_file", required=True)
    parser.add_argument("--soc_version", required=True)
    parser.add_argument("--log", default="null")
    parser.add_argument("--input_shape")
    parser.add_argument("--input_shape_range")
    args = parser.parse_args(argv)
    from ge._compiler import GraphCompileError

    try:
        if args.log not in flags.LOG_LEVELS:
            raise BadOption(
                f"build option log={args.log!r} is invalid; the value must be any of " + ", ".join(flags.LOG_LEVELS)
            )
        console.set_log_level(args.log)
        if args.input_shape is not None:
            try:
                flags.parse_input_shape(args.input_shape)  # validated here, applied after the AIR loads
            except AtcError as exc:
                raise BadOption(
                    f"build option input_shape={args.input_shape!r} is invalid: {exc.message.split('Reason: ')[-1]}"
                ) from None
        if args.input_shape_range is not None:
            _check_shape_range(args.input_shape_range)
        try:
            compiler_bridge.load_platform(args.soc_version)
        except AtcError:
            raise BadOption(f"ge.socVersion={args.soc_version!r} is not a known SoC") from None
    except BadOption as exc:
        _write_error(args.error_file, str(exc))
        return EXIT_BAD_OPTION
    try:
        try:
            graph_ir = compiler_bridge.load_air(args.air)
        except AtcError as exc:  # atc's wording names --model, which a C++ caller never gave
            raise GraphCompileError(
                f"the graph's AIR {args.air} does not load: {exc.message.split('Reason: ')[-1]}"
            ) from None
        try:
            dynamic = input_shapes.apply(graph_ir, args.input_shape, args.input_shape_range)
        except AtcError as exc:
            _write_error(args.error_file, exc.message.split("Reason: ")[-1])
            return EXIT_BAD_OPTION
        console.log("info", f"compiling graph {graph_ir.name} ({len(graph_ir.nodes)} nodes) for {args.soc_version}")
        payload = compiler_bridge.compile_om_bytes(graph_ir, args.soc_version, {}, dynamic)
        write_atomically(args.om, payload)
    except GraphCompileError as exc:
        _write_error(args.error_file, str(exc))
        return EXIT_COMPILE_FAILED
    except AtcError as exc:
        _write_error(args.error_file, exc.message)
        return EXIT_COMPILE_FAILED
    except SystemExit as exc:  # a plugin called sys.exit() while imported or compiling
        _write_error(args.error_file, f"a plugin called sys.exit({exc.code!r}) during the compile")
        return EXIT_COMPILE_FAILED
    except Exception as exc:  # anything unforeseen is still one line, never a bare traceback
        _write_error(args.error_file, f"{type(exc).__name__}: {exc}")
        return EXIT_COMPILE_FAILED
    console.log("info", f"wrote {args.om} ({len(payload)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
