"""The clean CANN-like environment for this package together with ops/add_custom (the three-
backend graph needs both): both OPP roots and plugin directories in ASCEND_CUSTOM_OPP_PATH, both
ES directories on PYTHONPATH (ge_op_testing.clean_env for one operator, extended)."""

from pathlib import Path
from typing import Dict, Optional, Tuple

import ge_op_testing as t


def three_ops_env(
    kernel_cache: Optional[Path] = None, extra: Optional[Dict[str, str]] = None
) -> Tuple["t.OpPaths", Dict[str, str]]:
    mine = t.op_paths("ops/add_n_scaled_custom", "add_n_scaled_custom")
    add = t.op_paths("ops/add_custom", "add_custom")
    opp = ":".join(str(p) for p in (add.opp_root, add.plugin_dir, mine.opp_root, mine.plugin_dir))
    env = t.clean_env(mine, opp_path=opp, kernel_cache=kernel_cache, extra=extra)
    env["PYTHONPATH"] += f":{add.es_dir}"
    return mine, env
