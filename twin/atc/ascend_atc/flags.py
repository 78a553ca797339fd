"""ATC's command line: CANN's flag names, gflags-style syntax and value validation.

Accepted forms: ``--name=value``, ``--name value`` and single-dash ``-name=value`` (gflags).
Flags that CANN's ATC has but that change nothing for the CPU twin are accepted and validated
where their values are enumerated, so command lines written for CANN run unchanged.
"""

import platform
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .errors import AtcError, invalid_value, missing_framework, missing_value

FRAMEWORKS = {"0": "Caffe", "1": "MindSpore", "3": "TensorFlow", "5": "Onnx"}
SUPPORTED_FRAMEWORK = "1"  # AIR, the only graph format the twin reads
LOG_LEVELS = ("debug", "info", "warning", "error", "null")
MODES = {
    "0": "generate OM",
    "1": "model to json",
    "3": "pre-check",
    "5": "pbtxt to json",
    "6": "display OM info",
    "7": "generate OM2",
    "30": "nano exe-om",
}
SUPPORTED_MODES = ("0", "6")
# --input_format's values (CANN lists them per framework; an AIR takes any and uses NCHW) and
# --output_type's (a network-wide type, or node:index:type items with --out_nodes).
INPUT_FORMATS = ("NCHW", "NHWC", "ND", "NCDHW", "NDHWC")
OUTPUT_TYPES = (
    "FP32",
    "FP16",
    "UINT8",
    "INT8",
    "UINT16",
    "INT16",
    "UINT32",
    "INT32",
    "UINT64",
    "INT64",
    "DOUBLE",
    "HIF8",
    "FP8E5M2",
    "FP8E4M3FN",
)
HOST_OSES = ("linux", "windows")
HOST_CPUS = ("x86_64", "aarch64")

# Every flag ATC knows (reference §7); the value is True for boolean-ish flags that may be given bare.
KNOWN_FLAGS = {
    "model": False,
    "output": False,
    "framework": False,
    "soc_version": False,
    "weight": False,
    "mode": False,
    "om": False,
    "input_shape": False,
    "input_shape_range": False,
    "input_format": False,
    "input_hint_shape": False,
    "out_nodes": False,
    "output_type": False,
    "log": False,
    "host_env_os": False,
    "host_env_cpu": False,
    "jit_compile": False,
    "precision_mode": False,
    "precision_mode_v2": False,
    "op_select_implmode": False,
    "core_type": False,
    "aicore_num": False,
    "virtual_type": False,
    "external_weight": False,
    "deterministic": False,
    "op_compiler_cache_dir": False,
    "op_compiler_cache_mode": False,
    "debug_dir": False,
    "dump_mode": False,
    "display_model_info": False,
    "raw_ge_options": False,
    "oo_level": False,
    "singleop": False,
    "help": True,
    "h": True,
}


@dataclass
class AtcOptions:
    values: Dict[str, str] = field(default_factory=dict)
    help: bool = False

    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        return self.values.get(name, default)

    @property
    def mode(self) -> str:
        return self.values.get("mode", "0")

    @property
    def log_level(self) -> str:
        return self.values.get("log", "null")


def parse(argv: List[str]) -> AtcOptions:
    """Split argv into flag values; raises AtcError for unknown or malformed flags."""
    options = AtcOptions()
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("-") or arg in ("-", "--"):
            raise AtcError(
                "E10001",
                f"Value [{arg}] is invalid. Reason: positional arguments are not "
                "accepted; flags are written --name=value.",
            )
        body = arg[2:] if arg.startswith("--") else arg[1:]
        name, has_value, value = body.partition("=")
        if name not in KNOWN_FLAGS:
            raise AtcError("E10001", f"Parameter [--{name}] is invalid. Reason: ATC has no such parameter.")
        if KNOWN_FLAGS[name]:
            if name in ("help", "h"):
                options.help = has_value is False or value.lower() not in ("false", "0")
            i += 1
            continue
        if not has_value:
            if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                raise missing_value(name)
            value = argv[i + 1]
            i += 1
        options.values[name] = value
        i += 1
    return options


def _host_cpu() -> str:
    machine = platform.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)


def validate(options: AtcOptions) -> None:
    """Checks required flags and enumerated values; raises the first AtcError found."""
    mode = options.mode
    if mode not in MODES:
        raise invalid_value(
            "mode", mode, "The value must be any of " + ", ".join(f"{k}({v})" for k, v in MODES.items()) + "."
        )
    if mode not in SUPPORTED_MODES:
        raise invalid_value(
            "mode",
            mode,
            f"mode {mode} ({MODES[mode]}) is not supported by the CPU twin; "
            "supported: 0 (generate OM), 6 (display OM info).",
        )
    log = options.log_level
    if log not in LOG_LEVELS:
        raise invalid_value("log", log, "The value must be any of " + ", ".join(LOG_LEVELS) + ".")
    if mode == "6":
        if not options.get("om"):
            raise missing_value("om")
        return
    _validate_generate(options)


def _validate_generate(options: AtcOptions) -> None:
    framework = options.get("framework")
    if framework is None or framework == "":
        raise missing_framework()
    if framework not in FRAMEWORKS:
        raise invalid_value(
            "framework", framework, "The value must be any of 0(Caffe), 1(MindSpore), 3(TensorFlow), 5(Onnx)."
        )
    if framework != SUPPORTED_FRAMEWORK:
        raise invalid_value(
            "framework",
            framework,
            f"framework {framework} ({FRAMEWORKS[framework]}) is not "
            "supported by the CPU twin; only 1 (MindSpore/AIR) is.",
        )
    for required in ("model", "output", "soc_version"):
        if not options.get(required):
            raise missing_value(required)
    host_os = options.get("host_env_os")
    host_cpu = options.get("host_env_cpu")
    if (host_os is None) != (host_cpu is None):
        given, absent = ("host_env_os", "host_env_cpu") if host_os is not None else ("host_env_cpu", "host_env_os")
        raise invalid_value(given, options.get(given), f"--{given} must be used together with --{absent}.")
    if host_os is not None:
        if host_os not in HOST_OSES:
            raise invalid_value("host_env_os", host_os, "The value must be any of " + ", ".join(HOST_OSES) + ".")
        if host_cpu not in HOST_CPUS:
            raise invalid_value("host_env_cpu", host_cpu, "The value must be any of " + ", ".join(HOST_CPUS) + ".")
        if host_os != "linux" or host_cpu != _host_cpu():
            raise invalid_value(
                "host_env_cpu" if host_os == "linux" else "host_env_os",
                host_cpu if host_os == "linux" else host_os,
                f"cross-compiling is not supported by the CPU twin; the host is linux/{_host_cpu()}.",
            )
    if options.get("input_shape") is not None:
        parse_input_shape(options.get("input_shape"))
    input_format = options.get("input_format")
    if input_format is not None and input_format not in INPUT_FORMATS:
        raise invalid_value("input_format", input_format, "The value must be any of " + ", ".join(INPUT_FORMATS) + ".")
    if options.get("output_type") is not None:
        parse_output_type(options.get("output_type"), options.get("out_nodes"))


def parse_output_type(text: str, out_nodes: Optional[str]) -> Dict[str, str]:
    """``FP16`` (every network output) -> {"": "FP16"}; ``node:0:FP16;node2:1:FP32`` (needs
    --out_nodes) -> {"node:0": "FP16", ...}. Validated; the compiler applies it."""
    allowed = "The value must be any of " + ", ".join(OUTPUT_TYPES) + ", or node:index:type items separated by ';'."
    if ":" not in text:
        if text not in OUTPUT_TYPES:
            raise invalid_value("output_type", text, allowed)
        return {"": text}
    if not out_nodes:
        raise invalid_value("output_type", text, "an output type per node (node:index:type) needs --out_nodes.")
    types: Dict[str, str] = {}
    for item in filter(None, text.split(";")):
        node, index, dtype = (item.rsplit(":", 2) + ["", ""])[:3] if item.count(":") >= 2 else ("", "", "")
        if not node or not index.isdigit() or dtype not in OUTPUT_TYPES:
            raise invalid_value("output_type", text, f"item [{item}] is not node:index:type. " + allowed)
        types[f"{node}:{index}"] = dtype
    return types


def parse_input_shape(text: str) -> Dict[str, List[str]]:
    """``name:d0,d1;name2:d0`` (dims may be -1 or n1~n2 ranges). Validated; unused for AIR, as in CANN."""
    shapes: Dict[str, List[str]] = {}
    for item in filter(None, text.split(";")):
        name, sep, dims = item.rpartition(":")
        if not sep or not name:
            raise invalid_value("input_shape", text, f"item [{item}] is not of the form name:d0,d1,...")
        parsed = dims.split(",") if dims else []
        for dim in parsed:
            low, tilde, high = dim.partition("~")
            ok = low.lstrip("-").isdigit() and (not tilde or high.isdigit())
            if not ok:
                raise invalid_value("input_shape", text, f"dimension [{dim}] of [{name}] is not an integer or range.")
        shapes[name] = parsed
    return shapes
