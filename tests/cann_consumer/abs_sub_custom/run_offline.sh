#!/usr/bin/env bash
# Offline: graph_build writes AIR, atc compiles it (calling the Python holder), model_exec runs
# the OM with ACL alone; ir_build compiles the same graph through aclgrphBuildModel.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="${ABS_SUB_BUILD_ROOT:-${SCRIPT_DIR}/build}/offline"
OUTPUT_DIR="${BUILD_DIR}/output"
OPP_ROOT="${BUILD_DIR}/custom_op_package"
OPP_LIB_DIR="${OPP_ROOT}/op_graph/lib/linux/$(uname -m)"
SOC_VERSION="${ABS_SUB_SOC_VERSION:-Ascend910B1}"
LOG_FILE="${BUILD_DIR}/offline.log"

if [[ -z "${ASCEND_HOME_PATH:-}" || ! -d "${ASCEND_HOME_PATH}" ]]; then
  echo "[ERROR] ASCEND_HOME_PATH is not set: source <CANN toolkit>/set_env.sh first" >&2
  exit 1
fi
for tool in cmake python3 bisheng llvm-objcopy atc; do
  command -v "${tool}" >/dev/null || { echo "[ERROR] required command not found: ${tool}" >&2; exit 1; }
done

echo "[INFO] build the proto library and the offline tools"
cmake -S "${SCRIPT_DIR}" -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release -DABS_SUB_BUILD_ES=OFF
cmake --build "${BUILD_DIR}" --target abs_sub_custom_op_proto abs_sub_graph_build abs_sub_ir_build \
  abs_sub_model_exec -j"$(nproc)"
mkdir -p "${OPP_LIB_DIR}" "${OUTPUT_DIR}"
cp -f "${BUILD_DIR}/libabs_sub_custom_op_proto.so" "${OPP_LIB_DIR}/libcust_opapi.so"

export ASCEND_CUSTOM_OPP_PATH="${OPP_ROOT}:${SCRIPT_DIR}/src/ge"
export ABS_SUB_CUSTOM_BUILD_DIR="${BUILD_DIR}/kernel"
export ABS_SUB_CUSTOM_MODE=offline
rm -f "${OUTPUT_DIR}"/*.air "${OUTPUT_DIR}"/*.om

echo "[INFO] AIR -> atc -> OM"
(cd "${OUTPUT_DIR}" && "${BUILD_DIR}/abs_sub_graph_build") 2>&1 | tee "${LOG_FILE}"
atc --model="${OUTPUT_DIR}/abs_sub.air" --framework=1 --output="${OUTPUT_DIR}/abs_sub" \
  --soc_version="${SOC_VERSION}" 2>&1 | tee -a "${LOG_FILE}"
echo "[INFO] graph -> aclgrphBuildModel -> OM"
(cd "${OUTPUT_DIR}" && "${BUILD_DIR}/abs_sub_ir_build" "${SOC_VERSION}") 2>&1 | tee -a "${LOG_FILE}"
cmp "${OUTPUT_DIR}/abs_sub.om" "${OUTPUT_DIR}/abs_sub_ir.om" \
  || { echo "[ERROR] atc and aclgrphBuildModel produced different OMs" >&2; exit 1; }

echo "[INFO] run the OM with ACL, without the Python plugin"
export ASCEND_CUSTOM_OPP_PATH="${OPP_ROOT}"
unset ABS_SUB_CUSTOM_MODE
"${BUILD_DIR}/abs_sub_model_exec" "${OUTPUT_DIR}/abs_sub.om" 2>&1 | tee -a "${LOG_FILE}"
for marker in "PY_COMPILE_MODULE_LOADED=1" "PY_COMPILE_CALLBACK_ENTER=1 mode=offline" \
    "PY_COMPILE_AIR_BUILD=PASS" "ATC run success" "IR_BUILD_OM=PASS" "PY_COMPILE_OFFLINE_OM=PASS"; do
  grep -Fq "${marker}" "${LOG_FILE}" || { echo "[ERROR] missing ${marker}" >&2; exit 1; }
done
echo "[INFO] AbsSubCustom offline PASS"
