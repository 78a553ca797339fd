"""ge_samples.cases on a small synthetic examples/custom_op tree laid out as hicann/ge's is:
which folders become cases, their steps and phases, their markers, kinds and skip reasons; and
one case run for real by the runner against a fake prefix."""

import os
import textwrap

import ge_samples
from conformance_run import PASS, RUN, SETUP, WRONG, run_all

PY_README = """# python sample

## 运行

```bash
source ${ASCEND_HOME_PATH}/set_env.sh
cd examples/custom_op/widget_custom/python
bash run.sh
```

成功时可以看到类似输出：

```text
[Sample] graph added, graph_id=0
[Op] x shape=[16], addr=0x...
[Op] kernel ret=0
[Sample] done
```

## 目录

```text
python
├── run.sh
└── src
```
"""

PY_RUN_SH = """#!/usr/bin/env bash
set -euo pipefail
info() {
  echo "[INFO] $*"
}
info "Step 1/1: run"
python3 src/run.py
info "Widget Python pipeline PASS"
"""

CPP_README = """# cpp sample

```text
a -> b
```

```bash
source ${ASCEND_HOME_PATH}/set_env.sh
bash run.sh
```

```text
[Perf] iters: 100
[Perf] speedup: xxx x
```

Manual steps:

```bash
cmake -S . -B build
cmake --build build
cd build
./widget_run
```
"""

TORCH_README = """# torch sample

```bash
mkdir -p build && cd build
cmake ..
make -j
python3 ../script/test.py
```
"""


def _write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    os.chmod(path, mode)


def _tree(root, run_py="print('[Sample] graph added, graph_id=0'); print('[Op] kernel ret=0'); print('[Sample] done')"):
    base = os.path.join(root, "examples", "custom_op")
    _write(os.path.join(base, "README.md"), "# custom op samples\n")
    # an index README over two samples of its own
    _write(os.path.join(base, "widget_custom", "README.md"), "# widget: see python/ and cpp/\n")
    py = os.path.join(base, "widget_custom", "python")
    _write(os.path.join(py, "README.md"), PY_README)
    _write(os.path.join(py, "run.sh"), PY_RUN_SH, 0o755)
    _write(os.path.join(py, "src", "run.py"), f"import ge  # noqa\n{run_py}\n")
    _write(os.path.join(py, "src", "ge", "widget.py"), "from ge.custom_op import register_op_impl\n")
    cpp = os.path.join(base, "widget_custom", "cpp")
    _write(os.path.join(cpp, "README.md"), CPP_README)
    _write(os.path.join(cpp, "run.sh"), "echo '[Perf] iters: 100'\n", 0o755)
    _write(os.path.join(cpp, "ge", "op.cpp"), "int x;\n")
    # a sample without README of its own folder level: found one level down
    torch = os.path.join(base, "torch_custom")
    _write(os.path.join(torch, "README.md"), TORCH_README)
    _write(os.path.join(torch, "script", "test.py"), "import torch_npu\n")
    _write(os.path.join(base, "no_block_custom", "README.md"), "# nothing to run\n")
    return base


def _by_id(cases):
    return {c.case_id: c for c in cases}


def test_discovery_steps_markers_kinds_and_skips(tmp_path):
    _tree(str(tmp_path))
    cases = _by_id(ge_samples.cases(str(tmp_path)))
    assert sorted(cases) == ["no_block_custom", "torch_custom", "widget_custom/cpp", "widget_custom/python"]

    py = cases["widget_custom/python"]
    assert py.kind == "Python" and py.category == "widget_custom" and not py.skip_reason
    # set_env.sh is sourced by the runner; the README starts at the repository root
    assert [(s.phase, s.line) for s in py.steps] == [
        (SETUP, "cd ../../../.."),
        (SETUP, "cd examples/custom_op/widget_custom/python"),
        (RUN, "bash run.sh"),
    ]
    assert py.markers == [
        "[Sample] graph added, graph_id=0",
        "[Op] kernel ret=0",
        "[Sample] done",
        "Widget Python pipeline PASS",
    ]

    cpp = cases["widget_custom/cpp"]
    assert cpp.kind == "C++"
    assert [(s.phase, s.line) for s in cpp.steps] == [(RUN, "bash run.sh")]  # the run.sh block comes first
    assert cpp.markers == ["[Perf] iters: 100"]  # the flow diagram and the xxx line are not markers

    assert cases["torch_custom"].skip_reason == "needs torch_npu (NPU only)" and not cases["torch_custom"].steps
    assert cases["no_block_custom"].skip_reason == "README has no run block"


def _prefix(tmp_path):
    prefix = tmp_path / "prefix"
    _write(str(prefix / "set_env.sh"), "export ASCEND_HOME_PATH=%s\n" % prefix)
    return str(prefix)


def test_a_case_runs_from_the_repository_root_of_its_copy(tmp_path):
    checkout = tmp_path / "checkout"
    _tree(str(checkout))
    prefix = _prefix(tmp_path)
    case = _by_id(ge_samples.cases(str(checkout)))["widget_custom/python"]
    # run.py imports ge: give the fake prefix a `ge` module so the sample runs in the clean shell
    _write(os.path.join(prefix, "python", "ge.py"), "")
    with open(os.path.join(prefix, "set_env.sh"), "a") as f:
        f.write(f"export PYTHONPATH={prefix}/python\n")
    (result,) = run_all([case], prefix, str(tmp_path / "scratch"), 1, 60)
    assert (result.verdict, result.cause) == (PASS, "")
    assert not os.path.exists(os.path.join(case.source_dir, "build"))  # the checkout is never written


def test_a_missing_readme_line_is_wrong(tmp_path):
    checkout = tmp_path / "checkout"
    _tree(str(checkout), run_py="print('[Sample] graph added, graph_id=0'); print('[Sample] done')")
    prefix = _prefix(tmp_path)
    _write(os.path.join(prefix, "python", "ge.py"), "")
    with open(os.path.join(prefix, "set_env.sh"), "a") as f:
        f.write(f"export PYTHONPATH={prefix}/python\n")
    case = _by_id(ge_samples.cases(str(checkout)))["widget_custom/python"]
    (result,) = run_all([case], prefix, str(tmp_path / "scratch"), 1, 60)
    assert result.verdict == WRONG and "no '[Op] kernel ret=0' in the output" in result.cause
