#!/usr/bin/env bash
# The main job: bootstrap, then both pipelines end to end on the CPU twin.
#   online : //ops/add_custom:online_npu   (GE Session compiles and runs the graph)
#   offline: //offline:om                  (graph_build -> AIR -> atc -> OM -> model_exec)
# Set SOC=Ascend910B4 (or any SoC in twin/platform) to choose the device.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tools/bootstrap.sh"
cd "$root"
soc=${SOC:-Ascend910B1}
targets=()
[[ -f ops/add_custom/BUILD.bazel ]] && targets+=(//ops/add_custom:online_npu)
if ((${#targets[@]})); then
  bazel test --define "soc=$soc" --test_output=all "${targets[@]}"
fi
if [[ -f offline/BUILD.bazel ]]; then
  bazel run --define "soc=$soc" //offline:om
fi
if ((${#targets[@]} == 0)) && [[ ! -f offline/BUILD.bazel ]]; then
  # Until the pipelines land, the main job is the build itself.
  bazel build //...
fi
