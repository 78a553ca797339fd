"""bazel test //ops/rms_norm_custom:holder_test — the holder's ctypes contract with the operator's
liboptiling.so (the 136-byte RmsNormCustomTiling, the block dim, the workspace) and its one-line
errors when the toolkit's libregister.so or the tiling library is missing; each case runs the
holder module in a clean environment, as GE would load it."""

import json
import struct

import ge_op_testing as t

PROBE = """
import json, struct, sys
import rms_norm_custom_holder as h
try:
    tiling, blocks, workspace = h.host_tiling(sys.argv[1], (3, 1001, 77), 2, 1e-5)
except Exception as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
else:
    print(json.dumps({"tiling": tiling.hex(), "blocks": blocks, "workspace": workspace}))
"""


def _probe(extra=None):
    paths = t.op_paths("ops/rms_norm_custom", "rms_norm_custom")
    env = t.clean_env(paths, extra=extra)
    env["PYTHONPATH"] += f":{paths.plugin_dir}"
    proc = t.run_python(["-c", PROBE, paths.soc], env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_host_tiling_returns_the_kernels_struct_block_dim_and_workspace():
    got = _probe()
    tiling = bytes.fromhex(got["tiling"])
    assert len(tiling) == 136 and len(tiling) % 8 == 0  # 17 launch slots
    total_rows, block_num, block_rows, tile_rows, tail_rows, h, h_aligned, tmp_bytes, epsilon, _ = struct.unpack_from(
        "<8If I", tiling, 0
    )
    assert (total_rows, h, h_aligned) == (3 * 1001, 77, 80)
    assert block_num == got["blocks"] and 1 < block_num and block_rows % tile_rows == 0
    assert (block_num - 1) * block_rows < total_rows <= block_num * block_rows
    assert 1 <= tail_rows <= tile_rows and tmp_bytes > 0
    assert abs(epsilon - 1e-5) < 1e-12
    # mainTiling (12 fields from byte 40): bLength 1, sLength tileRows, hLength hAligned, originalHLength H
    assert struct.unpack_from("<4I", tiling, 40) == (1, tile_rows, h_aligned, h)
    assert struct.unpack_from("<4I", tiling, 88) == (1, tail_rows, h_aligned, h)  # tailTiling
    assert got["workspace"] > 0


def test_missing_register_library_is_one_line(tmp_path):
    got = _probe({"ASCEND_HOME_PATH": str(tmp_path)})
    assert (
        got["error"] == f"RuntimeError: RmsNormCustom: {tmp_path}/lib64/libregister.so is missing "
        "(ASCEND_HOME_PATH must name the toolkit)"
    )


def test_opp_path_without_the_tiling_library_is_one_line(tmp_path):
    got = _probe({"ASCEND_CUSTOM_OPP_PATH": str(tmp_path)})
    assert (
        got["error"] == "RuntimeError: RmsNormCustom: no liboptiling.so in ASCEND_CUSTOM_OPP_PATH exports "
        "RmsNormCustomHostTiling"
    )
