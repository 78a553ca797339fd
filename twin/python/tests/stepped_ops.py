"""Test operators for the stepped executor, registered in-process (Python prototypes):

- KAdd  : kernel node — declare_launch_args publishes vadd_f32 of the runtime's test kernels
          (twin/runtime/model/tests/kernels), compile records the shapes it was called for;
- EAxpy : device execute — y = alpha * x (+ bias if the optional input is present), computed by
          moving device memory through aclrtMemcpy after synchronizing the stream it was given;
- HSum  : host execute — y = sum of a dynamic list of inputs, read and written in host memory;
- ERef  : device execute whose output is its input (make_output_ref_input);
- Tile  : host execute, y[rows, n * times] = x[n] tiled (register_tile), its inference counted.
"""

import os
from typing import List, Optional

import numpy as np
from op_test_support import declare_vadd_f32, host_floats, same_desc

import acl
from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
from ge.graph import DataType
from ge.runtime import Tensor, TensorDesc

D2H, H2D = 2, 1


def _device_array(tensor: Tensor, stream: int) -> np.ndarray:
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    out = np.empty(tensor.storage_shape.dims, dtype=np.float32)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, tensor.addr, out.nbytes, D2H) == 0
    return out


def register_all(calls: dict) -> None:
    @register_op(op_type="KAdd")
    def k_add(x1: TensorDesc, x2: TensorDesc) -> TensorDesc:
        return same_desc(x1)

    @register_op(op_type="EAxpy")
    def e_axpy(x: TensorDesc, bias: Optional[TensorDesc], *, alpha: float) -> TensorDesc:
        return same_desc(x)

    @register_op(op_type="HSum")
    def h_sum(xs: List[TensorDesc]) -> TensorDesc:
        return same_desc(xs[0])

    @register_op(op_type="ERef")
    def e_ref(x: TensorDesc) -> TensorDesc:
        return same_desc(x)

    with open(os.environ["MODEL_KERNELS_2201"], "rb") as f:
        binary = f.read()

    @register_op_impl(op_type="KAdd")
    class KAdd:
        def compile(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
            calls.setdefault("KAdd.compile", []).append(tuple(x1.storage_shape.dims))

        def declare_launch_args(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
            declare_vadd_f32(binary, x1, x2, y)

    @register_op_impl(op_type="EAxpy")
    class EAxpy:
        def compile(self, x: Tensor, bias: Optional[Tensor], y: Tensor, *, alpha: float) -> None:
            calls.setdefault("EAxpy.compile", []).append(tuple(x.storage_shape.dims))

        def execute(self, x: Tensor, bias: Optional[Tensor], *, alpha: float) -> None:
            ctx = get_execute_ctx()
            stream = ctx.get_stream()
            assert ctx.get_input_num() == (1 if bias is None else 2)
            assert ctx.get_attrs().get_float(0) == alpha
            assert ctx.get_input_tensor(0).addr == x.addr == ctx.get_required_input_tensor(0).addr
            assert (ctx.get_optional_input_tensor(1) is None) == (bias is None)
            value = alpha * _device_array(x, stream)
            if bias is not None:
                value = value + _device_array(bias, stream)
            value = value.astype(np.float32)
            ctx.malloc_workspace(256)  # exercised: device memory the op may use while it runs
            y = ctx.malloc_output_tensor(0, x.shape, x.format, x.data_type)
            assert acl.rt.memcpy(y.addr, value.nbytes, value.ctypes.data, value.nbytes, H2D) == 0
            calls.setdefault("EAxpy.execute", []).append(bias is not None)

    @register_op_impl(op_type="HSum")
    class HSum:
        @register_kernel(backend=OpBackend.HOST)
        def execute(self, xs: List[Tensor]) -> None:
            ctx = get_execute_ctx()
            assert type(ctx).__name__ == "HostCpuOpExecutionContext"
            assert ctx.get_dynamic_input_num(0) == len(xs) == ctx.get_input_num()
            total = sum(host_floats(ctx.get_dynamic_input_tensor(0, i)) for i in range(len(xs)))
            y = ctx.malloc_output_tensor(0, xs[0].shape, xs[0].format, xs[0].data_type)
            host_floats(y)[...] = total
            calls.setdefault("HSum.execute", []).append(len(xs))

    @register_op_impl(op_type="ERef")
    class ERef:
        def execute(self, x: Tensor) -> None:
            y = get_execute_ctx().make_output_ref_input(0, 0)
            assert y.addr == x.addr


# Attribute values the Multi op checks inside execute (all twelve IR attr types).
MULTI_ATTRS = dict(
    i=3,
    f=0.25,
    b=True,
    s="four",
    dt=DataType.DT_FLOAT16,
    li=[1, 2],
    lf=[0.5, 1.5],
    lb=[True, False],
    ls=["a", "bc"],
    ldt=[DataType.DT_INT8, DataType.DT_FLOAT],
    lli=[[1], [2, 3]],
)
MULTI_TENSOR = np.array([1.5, -2.0, 4.0], dtype=np.float32)


def register_multi(calls: dict) -> None:
    """Multi(x, opt?) -> (y0, [y1a, y1b]) with every attr type: y0 = f * x + i (+ opt),
    y1a = x + len(s), y1b = x * sum(t) (t: the tensor attr, read from host memory)."""
    from typing import Tuple

    @register_op(op_type="Multi")
    def multi(
        x: TensorDesc,
        opt: Optional[TensorDesc],
        *,
        i: int,
        f: float,
        b: bool,
        s: str,
        dt: DataType,
        t: Tensor,
        li: List[int],
        lf: List[float],
        lb: List[bool],
        ls: List[str],
        ldt: List[DataType],
        lli: List[List[int]],
    ) -> Tuple[TensorDesc, List[TensorDesc]]:
        assert list(t.storage_shape.dims) == [3]
        return same_desc(x), [same_desc(x), same_desc(x)]

    @register_op_impl(op_type="Multi")
    class Multi:
        def execute(
            self,
            x: Tensor,
            opt: Optional[Tensor],
            *,
            i: int,
            f: float,
            b: bool,
            s: str,
            dt: DataType,
            t: Tensor,
            li: List[int],
            lf: List[float],
            lb: List[bool],
            ls: List[str],
            ldt: List[DataType],
            lli: List[List[int]],
        ) -> None:
            got = dict(i=i, f=f, b=b, s=s, dt=dt, li=li, lf=lf, lb=lb, ls=ls, ldt=ldt, lli=lli)
            assert got == MULTI_ATTRS, got
            assert type(dt) is DataType and all(type(v) is DataType for v in ldt)
            tensor_attr = host_floats(t)
            np.testing.assert_array_equal(tensor_attr, MULTI_TENSOR)
            ctx = get_execute_ctx()
            stream = ctx.get_stream()
            value = _device_array(x, stream)
            y0 = f * value + i + (_device_array(opt, stream) if opt is not None else 0)
            results = [y0, value + len(s), value * float(tensor_attr.sum())]
            for index, result in enumerate(results):
                out = ctx.malloc_output_tensor(index, x.shape, x.format, x.data_type)
                data = result.astype(np.float32)
                assert acl.rt.memcpy(out.addr, data.nbytes, data.ctypes.data, data.nbytes, H2D) == 0
            calls.setdefault("Multi.execute", []).append(opt is not None)


# What the Tile op's inference reads besides its input: its attribute and, for the stale-cache
# tests, an outside value (as an op whose output size depends on data the graph does not show).
TILE_EXTRA = {"rows": 1}


def register_tile() -> dict:
    """Tile(x[n], times) -> y[rows, n * times]: inference (counted and printed as TILE_INFER),
    compile (the shapes it saw) and a host execute; returns the record of calls."""
    from ge.runtime import StorageShape

    found = {"infer": [], "compile": [], "execute": []}

    @register_op(op_type="Tile")
    def tile(x: TensorDesc, *, times: int) -> TensorDesc:
        if TILE_EXTRA["rows"] < 0:
            raise ValueError(f"Tile needs rows >= 0, got {TILE_EXTRA['rows']}")
        dims = [TILE_EXTRA["rows"], x.shape.storage_shape.dims[0] * times]
        found["infer"].append((list(x.shape.storage_shape.dims), times, TILE_EXTRA["rows"]))
        print(f"TILE_INFER x={list(x.shape.storage_shape.dims)} times={times} -> {dims}", flush=True)
        return TensorDesc(dims, x.data_type)

    @register_op_impl(op_type="Tile")
    class Tile:
        def compile(self, x: Tensor, y: Tensor, *, times: int) -> None:
            found["compile"].append((list(x.storage_shape.dims), list(y.storage_shape.dims)))

        @register_kernel(backend=OpBackend.HOST)
        def execute(self, x: Tensor, *, times: int) -> None:
            rows = TILE_EXTRA["rows"]
            dims = [rows, x.storage_shape.dims[0] * times]
            y = get_execute_ctx().malloc_output_tensor(0, StorageShape(dims, dims), x.format, x.data_type)
            host_floats(y)[...] = np.tile(host_floats(x), (rows, times))
            found["execute"].append(dims)

    return found
