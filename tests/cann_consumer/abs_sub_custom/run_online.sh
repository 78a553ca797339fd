#!/usr/bin/env bash
# Online: build the proto library and the ES wrapper, then run src/run.py in a GE Session
# (Python) and src/session_run.cc (C++); GE calls the Python compile holder in src/ge.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="${ABS_SUB_BUILD_ROOT:-${SCRIPT_DIR}/build}/online"
OPP_ROOT="${BUILD_DIR}/custom_op_package"
OPP_LIB_DIR="${OPP_ROOT}/op_graph/lib/linux/$(uname -m)"
PY_PACKAGE_DIR="${BUILD_DIR}/python_package"
LOG_FILE="${BUILD_DIR}/online.log"

if [[ -z "${ASCEND_HOME_PATH:-}" || ! -d "${ASCEND_HOME_PATH}" ]]; then
  echo "[ERROR] ASCEND_HOME_PATH is not set: source <CANN toolkit>/set_env.sh first" >&2
  exit 1
fi
for tool in cmake python3 bisheng llvm-objcopy; do
  command -v "${tool}" >/dev/null || { echo "[ERROR] required command not found: ${tool}" >&2; exit 1; }
done

echo "[INFO] build the proto library, the ES package and the C++ session runner"
cmake -S "${SCRIPT_DIR}" -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release
cmake --build "${BUILD_DIR}" --target install_es_custom abs_sub_session_run -j"$(nproc)"
[[ -s "${BUILD_DIR}/es_output/lib64/libes_custom.so" ]] || { echo "[ERROR] libes_custom.so missing" >&2; exit 1; }

mkdir -p "${OPP_LIB_DIR}"
cp -f "${BUILD_DIR}/libabs_sub_custom_op_proto.so" "${OPP_LIB_DIR}/libcust_opapi.so"
rm -rf "${PY_PACKAGE_DIR}" && mkdir -p "${PY_PACKAGE_DIR}/es_custom"
cp "${SCRIPT_DIR}/python/es_custom/__init__.py" "${PY_PACKAGE_DIR}/es_custom/"
cp "${BUILD_DIR}/es_custom_build/generated_code/"*.py "${PY_PACKAGE_DIR}/es_custom/"

export PYTHONPATH="${PY_PACKAGE_DIR}${PYTHONPATH:+:${PYTHONPATH}}"
export LD_LIBRARY_PATH="${BUILD_DIR}/es_output/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
export ASCEND_CUSTOM_OPP_PATH="${OPP_ROOT}:${SCRIPT_DIR}/src/ge"
export ABS_SUB_CUSTOM_BUILD_DIR="${BUILD_DIR}/kernel"
export ABS_SUB_CUSTOM_MODE=online

echo "[INFO] run the graph in a Python GE Session"
python3 "${SCRIPT_DIR}/src/run.py" 2>&1 | tee "${LOG_FILE}"
echo "[INFO] run the graph in a C++ GE Session"
"${BUILD_DIR}/abs_sub_session_run" 2>&1 | tee -a "${LOG_FILE}"
for marker in "PY_COMPILE_MODULE_LOADED=1" "PY_COMPILE_CALLBACK_ENTER=1 mode=online" \
    "PY_COMPILE_ONLINE_NPU=PASS" "CPP_SESSION_RUN=PASS"; do
  grep -Fq "${marker}" "${LOG_FILE}" || { echo "[ERROR] missing ${marker}" >&2; exit 1; }
done
echo "[INFO] AbsSubCustom online PASS"
