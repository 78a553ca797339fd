"""`atc --help`: the flags the CPU twin honours, in CANN's wording and grouping."""

import sys

HELP = """usage: atc <args>
generate offline model example:
atc --model=./model.air --framework=1 --output=./model --soc_version=Ascend910B1
display model info example:
atc --mode=6 --om=./model.om

===== Basic Functionality =====
[General]
  --h/help            Show this help message
  --mode              Run mode. 0(default): generate offline model; 6: display model info
                      (1, 3, 5, 7 and 30 exist in CANN and are refused by the CPU twin)

[Input]
  --model             Model file (AIR, the graph saved by ge::Graph::SaveToFile)
  --om                The OM file to display (--mode=6)
  --framework         Framework type. 0:Caffe; 1:MindSpore (AIR); 3:Tensorflow; 5:Onnx
                      (the CPU twin reads 1 only)
  --input_shape       Shape of input data, e.g. "input_name1:n1,c1,h1,w1;input_name2:n2,c2,h2,w2"
  --input_shape_range Shape range of input data, e.g. "input_name1:[n1~n2,c1,h1,w1];input_name2:[n2,c2,h2,w2]"
                      (the CPU twin applies both to the AIR's Data nodes; an input left dynamic
                      makes an OM that runs through Python, with the ranges checked per run)

[Output]
  --output            Output file path&name (without suffix); ".om" is appended

[Target]
  --soc_version       The SoC version, e.g. Ascend910B1 (a <SoC>.ini must exist in
                      $ASCEND_HOME_PATH/<arch>-linux/data/platform_config)
  --host_env_os       OS type of the target host: linux (must match this host)
  --host_env_cpu      CPU type of the target host: x86_64, aarch64 (must match this host)

[Debug]
  --log               Generate log with level. Support debug, info, warning, error, null (default)

Custom operators: ASCEND_CUSTOM_OPP_PATH lists OPP roots (C++ proto libraries) and Python plugin
directories/files, separated by ':'.
"""


def print_help() -> None:
    sys.stdout.write(HELP)
    sys.stdout.flush()
