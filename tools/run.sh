#!/usr/bin/env bash
# The main job: bootstrap, then both pipelines end to end on the CPU twin.
#   online : bazel run //ops/add_custom:online   (GraphBuilder -> GE Session compiles and runs)
#   offline: bazel run //offline:om               (graph_build -> AIR -> atc -> OM -> model_exec)
# SOC=Ascend910B4 tools/run.sh picks the device (any SoC in twin/platform).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tools/bootstrap.sh"
cd "$root"
soc=${SOC:-Ascend910B1}
bazel build --define "soc=$soc" //ops/add_custom:online //offline:om
echo "== online: Session on the CPU twin ($soc) =="
bazel run --define "soc=$soc" //ops/add_custom:online
echo "== offline: AIR -> atc -> OM -> model_exec ($soc) =="
bazel run --define "soc=$soc" //offline:om
