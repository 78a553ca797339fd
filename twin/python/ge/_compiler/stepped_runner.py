"""Running a graph step by step (see stepped_plan.py): kernel segments through aclmdlExecuteAsync
on the model's stream, Python ``execute`` callbacks with their contexts, device<->host copies.

One ``SteppedModel`` per Session graph. Each new input-shape signature is compiled once (holders'
``compile`` per new shape; segment OMs loaded once) and kept: a shape seen before runs without
compiling. A graph with dynamic inputs is inferred at every run, as GE's dynamic-shape runtime
runs InferShape per run; a result seen before reuses its plan, a new one gets a plan of its own.
Memory per plan: graph inputs and constants have their own buffers; segment outputs and
device/host copies share one region per side, placed by lifetime;
``malloc_output_tensor``/``malloc_workspace`` of an execute callback are served by a per-node
caching allocator, so the n-th allocation of a node reuses the n-th block of the previous run
when it is large enough.
"""

import copy
import threading
from typing import Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from ge.custom_op import _bridge
from ge.custom_op._execute_ctx import EagerOpExecutionContext
from ge.custom_op._host_ctx import HostCpuOpExecutionContext
from ge.graph import _dtype
from ge.graph._ir import Endpoint, GraphIR

from .acl_runner import _acl, _check, ensure_runtime
from .custom_optimizer import _one_line, _where
from .errors import GraphCompileError, ModelRunError
from .infer import RunInference
from .memory import FirstFit
from .memory_size import tensor_bytes
from .node_spec import node_spec, output_slots
from .op_catalog import OpCatalog
from .options import compile_options, resolve_target
from .placement import is_dynamic
from .stepped_plan import DEVICE, HOST, CopyStep, ExecuteStep, KernelSegment, StepPlan, build_plan, with_input_shapes
from .topo import topological_order

ACL_MEM_MALLOC_NORMAL_ONLY = 2
MEMCPY_KINDS = {(HOST, HOST): 0, (HOST, DEVICE): 1, (DEVICE, HOST): 2, (DEVICE, DEVICE): 3}


def _fits(declared: List[int], shape) -> bool:
    """A run shape against a graph input's dims: -2 takes any shape, -1 any size of its dim."""
    return declared == [-2] or (len(declared) == len(shape) and all(d < 0 or d == s for d, s in zip(declared, shape)))


class _Memory:
    """Device (aclrtMalloc) and host (aclrtMallocHost) blocks, all freed by ``release``."""

    def __init__(self, acl) -> None:
        self.acl = acl
        self.blocks: List[Tuple[int, str]] = []  # (pointer, memory side)

    def alloc(self, size: int, side: str) -> int:
        if side == DEVICE:
            ptr, ret = self.acl.rt.malloc(max(size, 1), ACL_MEM_MALLOC_NORMAL_ONLY)
            _check(self.acl, ret, f"aclrtMalloc({size})")
        else:
            ptr, ret = self.acl.rt.malloc_host(max(size, 1))
            _check(self.acl, ret, f"aclrtMallocHost({size})")
        self.blocks.append((ptr, side))
        return ptr

    def release(self) -> None:
        for ptr, side in self.blocks:
            (self.acl.rt.free if side == DEVICE else self.acl.rt.free_host)(ptr)
        self.blocks = []


class _NodeAllocator:
    """What an execute callback's malloc_* calls get: the node's blocks of the last run, reused
    in call order when large enough."""

    def __init__(self, memory: _Memory, side: str) -> None:
        self.memory, self.side, self.cursor = memory, side, 0
        self.blocks: List[Tuple[int, int]] = []  # (pointer, size)

    def start_run(self) -> None:
        self.cursor = 0

    def malloc(self, size: int) -> int:
        if self.cursor < len(self.blocks) and self.blocks[self.cursor][1] >= size:
            ptr = self.blocks[self.cursor][0]
        else:
            ptr = self.memory.alloc(size, self.side)
            block = (ptr, max(size, 1))
            if self.cursor < len(self.blocks):
                self.blocks[self.cursor] = block
            else:
                self.blocks.append(block)
        self.cursor += 1
        return ptr


class _LoadedPlan:
    """A StepPlan with its segment OMs loaded and its fixed buffers allocated."""

    def __init__(self, acl, plan: StepPlan) -> None:
        self.acl, self.plan = acl, plan
        self.memory = _Memory(acl)
        self.model_ids: Dict[int, int] = {}
        self.buffers: Dict[Tuple[Endpoint, str], int] = {}
        self.allocators: Dict[str, _NodeAllocator] = {}
        self.datasets: Dict[int, _SegmentDatasets] = {}  # by step index, over the plan's buffers
        self.sizes: Dict[Endpoint, int] = {}
        try:
            self._load()
            self._prepare_runs()
        except BaseException:
            self.close()
            raise

    def _prepare_runs(self) -> None:
        """What every run of this plan needs, computed once: tensor keys with their sizes, output
        dtypes and shapes, the segments' datasets over the plan's own buffers."""
        plan = self.plan
        # tensors move between runs only when an execute places its outputs (its allocator) or
        # a device run binds the caller's input buffers: segments re-point their datasets then
        self.has_execute = any(isinstance(step, ExecuteStep) for step in plan.steps)
        self.datasets_moved = False
        self.input_args = [((ep, DEVICE), self.size(ep)) for ep in plan.inputs]
        # a run-time shaped output (plan.runtime_shaped) has size and shape None: the run gives them
        self.output_args = [
            (
                (ep, side),
                None if ep in plan.runtime_shaped else self.size(ep),
                None if ep in plan.runtime_shaped else list(plan.descs[ep].shape),
                np.dtype(_dtype.numpy_dtype(plan.descs[ep].data_type)),
                MEMCPY_KINDS[(side, HOST)],
            )
            for ep, side in plan.outputs
        ]
        self.segment_args: Dict[int, List[Tuple[Tuple[Endpoint, str], int]]] = {}
        for index, step in enumerate(plan.steps):
            if isinstance(step, KernelSegment):
                args = self.segment_args[index] = [
                    ((ep, DEVICE), self.size(ep)) for ep in (*step.inputs, *step.outputs)
                ]
                # an execute's output has no address yet (0): runs of such plans point them
                self.datasets[index] = _SegmentDatasets(
                    self.acl, [(self.buffers.get(key, 0), size) for key, size in args], len(step.inputs)
                )

    def size(self, ep: Endpoint) -> int:
        """Bytes of a tensor at this signature (computed once)."""
        size = self.sizes.get(ep)
        if size is None:
            size = self.sizes[ep] = tensor_bytes(self.plan.descs[ep], f"tensor {ep.node}:{ep.index}")
        return size

    def _own_buffer(self, ep: Endpoint, side: str) -> int:
        size = self.size(ep)
        self.buffers[(ep, side)] = self.memory.alloc(size, side)
        return self.buffers[(ep, side)]

    def _load(self) -> None:
        acl, plan = self.acl, self.plan
        for ep in plan.inputs:
            self._own_buffer(ep, DEVICE)
        for ep, data in plan.constants.items():
            ptr = self._own_buffer(ep, DEVICE)
            if data:
                _check(
                    acl,
                    acl.rt.memcpy(ptr, len(data), acl.util.bytes_to_ptr(data), len(data), MEMCPY_KINDS[(HOST, DEVICE)]),
                    f"constant {ep.node}",
                )
        for index, step in enumerate(plan.steps):
            if isinstance(step, KernelSegment):
                model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(step.om), len(step.om))
                _check(acl, ret, f"aclmdlLoadFromMem of segment {step.description.name}")
                self.model_ids[index] = model_id
            elif isinstance(step, ExecuteStep):
                side = step.side
                self.allocators[step.custom.node.name] = _NodeAllocator(self.memory, side)
        self._place_step_tensors()

    def _place_step_tensors(self) -> None:
        """Segment outputs and copies share one region per side, reused once a tensor's last
        reader has run (first fit, as the compiler plans a feature map)."""
        steps, last_use = self.plan.steps, {}
        produced: List[List[Tuple[Endpoint, str]]] = [[] for _ in steps]
        for index, step in enumerate(steps):
            if isinstance(step, KernelSegment):
                produced[index] = [(ep, DEVICE) for ep in step.outputs]
                reads = [(ep, DEVICE) for ep in step.inputs]
            elif isinstance(step, CopyStep):
                produced[index] = [(step.source, step.to_side)]
                reads = [(step.source, HOST if step.to_side == DEVICE else DEVICE)]
            else:
                side = step.side
                reads = [(src, side) for src in step.custom.node.inputs if src is not None]
            for key in reads:
                last_use[key] = index
        for key in self.plan.outputs:
            last_use[key] = len(steps)
        # an execute output may be its input (make_output_ref_input): the input lives as long as
        # the node's outputs (reverse order carries this through chains of such nodes)
        for index in range(len(steps) - 1, -1, -1):
            step = steps[index]
            if isinstance(step, ExecuteStep):
                side = step.side
                node = step.custom.node
                outputs_end = max(
                    [last_use.get((Endpoint(node.name, i), side), index) for i in range(len(node.output_descs))]
                    + [index]
                )
                for src in node.inputs:
                    if src is not None:
                        last_use[(src, side)] = max(last_use.get((src, side), index), outputs_end)
        heaps = {DEVICE: FirstFit(), HOST: FirstFit()}
        offsets = {}
        for index, keys in enumerate(produced):
            for ep, side in keys:
                size = self.size(ep)
                offsets[(ep, side)] = (heaps[side].alloc(size), size)
            for key, (offset, size) in offsets.items():
                if last_use.get(key, index) == index:
                    heaps[key[1]].release(offset, size)
                    last_use[key] = -1  # released
        bases = {side: self.memory.alloc(heap.top, side) for side, heap in heaps.items() if heap.top}
        for (ep, side), (offset, _) in offsets.items():
            self.buffers[(ep, side)] = bases[side] + offset
        self.region_sizes = {side: heap.top for side, heap in heaps.items()}

    def close(self) -> None:
        for datasets in self.datasets.values():
            datasets.release()
        self.datasets = {}
        for model_id in self.model_ids.values():
            self.acl.mdl.unload(model_id)
        self.model_ids = {}
        self.memory.release()


class _SegmentDatasets:
    """A segment's input and output datasets, made on its first run and kept: later runs only
    re-point the buffers whose tensor moved (an execute output from another block)."""

    def __init__(self, acl, addresses: List[Tuple[int, int]], input_count: int) -> None:
        self.acl, self.input_count = acl, input_count
        self.datasets = [acl.mdl.create_dataset(), acl.mdl.create_dataset()]
        self.buffers: List[int] = []
        self.addresses: List[int] = []
        try:
            for i, (ptr, size) in enumerate(addresses):
                buffer = acl.create_data_buffer(ptr, size)
                self.buffers.append(buffer)
                self.addresses.append(ptr)
                _, ret = acl.mdl.add_dataset_buffer(self.datasets[i >= input_count], buffer)
                _check(acl, ret, f"aclmdlAddDatasetBuffer for segment {'output' if i >= input_count else 'input'}")
        except BaseException:
            self.release()
            raise

    def point(self, addresses: List[Tuple[int, int]]) -> None:
        for i, (ptr, size) in enumerate(addresses):
            if self.addresses[i] != ptr:
                _check(self.acl, self.acl.update_data_buffer(self.buffers[i], ptr, size), "aclUpdateDataBuffer")
                self.addresses[i] = ptr

    def release(self) -> None:
        for buffer in self.buffers:
            self.acl.destroy_data_buffer(buffer)
        for dataset in self.datasets:
            self.acl.mdl.destroy_dataset(dataset)
        self.buffers, self.datasets = [], []


class _ShapeSignature:
    """One input-shape signature of a graph with dynamic inputs: the graph at those shapes, whose
    ops are inferred again at every run, and the plans of the inference results seen."""

    def __init__(self, graph: GraphIR, shapes: List[tuple], catalog: OpCatalog) -> None:
        self.graph = with_input_shapes(graph, [list(s) for s in shapes])
        self.inference = RunInference(self.graph, topological_order(self.graph), catalog)
        self.plans: Dict[tuple, _LoadedPlan] = {}


class SteppedModel:
    """Session backend model for graphs with execute nodes or dynamic input shapes; also the
    executor of an OM that runs through Python (ge._runtime.python_model), which passes
    ``own_runtime=False``: the caller's aclInit and current context are used as they are."""

    def __init__(self, graph: GraphIR, options: Mapping[str, str], device_id: int, own_runtime: bool = True) -> None:
        self.graph = graph
        self.options = compile_options(options, "online")
        self.target = resolve_target(self.options)
        if own_runtime:
            ensure_runtime(device_id)
        self.acl = _acl()
        self._lock = threading.Lock()
        self._plans: Dict[tuple, _LoadedPlan] = {}  # static graphs: the one plan
        self._signatures: Dict[tuple, _ShapeSignature] = {}  # dynamic graphs: per input shapes
        self._catalog = OpCatalog()
        self._input_descs = [node.output_descs[0] for node in graph.input_nodes()]
        self._input_dtypes = [np.dtype(_dtype.numpy_dtype(desc.data_type)) for desc in self._input_descs]
        stream, ret = self.acl.rt.create_stream()
        _check(self.acl, ret, "aclrtCreateStream")
        self.stream = stream
        self.output_data_types = None  # dtypes are known per signature; numpy's suffice
        self.compiled_signatures = 0  # how many plans were built (tests, benchmarks)
        self.dynamic = any(is_dynamic(desc) for desc in self._input_descs)
        if not self.dynamic:
            try:
                static = self._plan([tuple(desc.shape) for desc in self._input_descs])  # compile now, as GE does
            except BaseException:
                self.close()
                raise
            self.output_data_types = [static.plan.descs[ep].data_type for ep, _ in static.plan.outputs]

    # -- shapes -----------------------------------------------------------------------------------
    def _signature(self, arrays) -> List[tuple]:
        if len(arrays) != len(self._input_descs):
            raise ModelRunError(f"graph {self.graph.name} takes {len(self._input_descs)} inputs, got {len(arrays)}")
        shapes = []
        for i, (array, desc, expected) in enumerate(zip(arrays, self._input_descs, self._input_dtypes)):
            if array.dtype != expected:
                raise ModelRunError(f"input {i} must be {desc.data_type.name}, got {array.dtype}")
            if not _fits(desc.shape, array.shape):
                raise ModelRunError(f"input {i} has shape {list(array.shape)}, the graph input accepts {desc.shape}")
            shapes.append(tuple(int(s) for s in array.shape))
        return shapes

    def _device_signature(self, dims: List[List[int]]) -> List[tuple]:
        if len(dims) != len(self._input_descs):
            raise ModelRunError(f"graph {self.graph.name} takes {len(self._input_descs)} inputs, got {len(dims)}")
        for i, (shape, desc) in enumerate(zip(dims, self._input_descs)):
            if not _fits(desc.shape, shape) or any(s < 0 for s in shape):
                raise ModelRunError(f"input {i} has shape {list(shape)}, the graph input accepts {desc.shape}")
        return [tuple(int(s) for s in shape) for shape in dims]

    def _plan(self, shapes: List[tuple]) -> _LoadedPlan:
        """The plan of this run: static graphs keep the one inferred at compile time; dynamic ones
        are inferred now, and a (shapes, inference result) seen before reuses its plan."""
        key = tuple(shapes)
        if not self.dynamic:
            loaded = self._plans.get(key)
            if loaded is None:
                loaded = self._plans[key] = self._load(
                    with_input_shapes(self.graph, [list(s) for s in shapes]), shapes, inferred=False
                )
            return loaded
        signature = self._signatures.get(key)
        try:
            if signature is None:
                signature = self._signatures[key] = _ShapeSignature(self.graph, shapes, self._catalog)
            result = signature.inference.run()
        except GraphCompileError as exc:
            raise GraphCompileError(f"at input shapes {[list(s) for s in shapes]}: {exc}") from exc
        loaded = signature.plans.get(result)
        if loaded is None:
            loaded = signature.plans[result] = self._load(copy.deepcopy(signature.graph), shapes, inferred=True)
        return loaded

    def _load(self, graph: GraphIR, shapes: List[tuple], inferred: bool) -> _LoadedPlan:
        try:
            plan = build_plan(graph, self.options, self.target, self._catalog, inferred=inferred)
        except GraphCompileError as exc:
            raise GraphCompileError(f"at input shapes {[list(s) for s in shapes]}: {exc}") from exc
        loaded = _LoadedPlan(self.acl, plan)
        self.compiled_signatures += 1
        return loaded

    def _loaded_plans(self) -> List[_LoadedPlan]:
        return [*self._plans.values(), *(p for s in self._signatures.values() for p in s.plans.values())]

    # -- running ----------------------------------------------------------------------------------
    def run(self, arrays: List[np.ndarray]) -> List[np.ndarray]:
        return self.run_on_stream(arrays, self.stream)

    def run_on_stream(self, arrays: List[np.ndarray], stream: int) -> List[np.ndarray]:
        """Queues the kernels on ``stream`` (after whatever it holds); returns when they ran."""
        with self._lock:
            shapes = self._signature(arrays)
            loaded = self._plan(shapes)
            return _Run(self.acl, loaded, stream, synchronous=stream == self.stream).execute(arrays)

    def run_device(self, inputs: List[Tuple[int, int, List[int]]]) -> List[Tuple[int, int, List[int]]]:
        """Runs on device buffers: ``inputs`` are (address, bytes, shape) of the caller's device
        memory; returns (address, bytes, shape) of each output, in this model's own memory (valid
        until the next run; the stream has been synchronized)."""
        with self._lock:
            shapes = self._device_signature([dims for _, _, dims in inputs])
            loaded = self._plan(shapes)
            return _Run(self.acl, loaded, self.stream, synchronous=True).execute_device(
                [(addr, size) for addr, size, _ in inputs]
            )

    def close(self) -> None:
        with self._lock:
            for loaded in self._loaded_plans():
                loaded.close()
            self._plans, self._signatures = {}, {}
            if self.stream is not None:
                self.acl.rt.destroy_stream(self.stream)
                self.stream = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the runtime may already be gone
            pass


class _Run:
    """One execution of a loaded plan: the address of every tensor, step by step.

    ``synchronous`` (the model's own stream, which holds nothing else): segments run with
    aclmdlExecute, which returns when they ran, and the stream is synchronized only after an
    ``execute`` queued work on it — a stream round trip fewer per segment. Otherwise (a caller's
    stream) segments are queued with aclmdlExecuteAsync behind what the stream holds."""

    def __init__(self, acl, loaded: _LoadedPlan, stream: int, synchronous: bool = False) -> None:
        self.acl, self.loaded, self.plan, self.stream = acl, loaded, loaded.plan, stream
        self.synchronous, self.queued = synchronous, False  # queued: work on the stream not yet waited for
        # the plan's own addresses unless this run moves tensors (then a copy it may change)
        self.moved = loaded.has_execute or loaded.datasets_moved
        self.addrs: Dict[Tuple[Endpoint, str], int] = dict(loaded.buffers) if self.moved else loaded.buffers
        self.run_shapes: Dict[Endpoint, List[int]] = {}  # what execute gave plan.runtime_shaped outputs

    def _copy(self, dst: int, src: int, size: int, kind: Tuple[str, str], what: str) -> None:
        if size:
            _check(self.acl, self.acl.rt.memcpy(dst, size, src, size, MEMCPY_KINDS[kind]), f"aclrtMemcpy of {what}")

    def _sync(self) -> None:
        _check(self.acl, self.acl.rt.synchronize_stream(self.stream), "aclrtSynchronizeStream")
        self.queued = False

    def _wait(self) -> None:
        """The stream's queued work is complete after this."""
        if self.queued:
            self._sync()

    def execute(self, arrays: List[np.ndarray]) -> List[np.ndarray]:
        """Host arrays in (shapes and dtypes checked by the signature), host arrays out."""
        memcpy, addrs, h2d = self.acl.rt.memcpy, self.addrs, MEMCPY_KINDS[(HOST, DEVICE)]
        for i, ((key, size), array) in enumerate(zip(self.loaded.input_args, arrays)):
            if size:
                array = np.ascontiguousarray(array)
                _check(self.acl, memcpy(addrs[key], size, array.ctypes.data, size, h2d), f"aclrtMemcpy of input {i}")
        self._steps()
        results = []
        for j, (key, planned_size, planned_shape, dtype, kind) in enumerate(self.loaded.output_args):
            shape, size = self._output_layout(key[0], planned_size, planned_shape, dtype)
            out = np.empty(shape, dtype=dtype)
            if size:
                _check(self.acl, memcpy(out.ctypes.data, size, addrs[key], size, kind), f"aclrtMemcpy of output {j}")
            results.append(out)
        return results

    def execute_device(self, inputs: List[Tuple[int, int]]) -> List[Tuple[int, int, List[int]]]:
        """The caller's device buffers are the graph inputs (bound, not copied: GE's zero-copy
        inputs); outputs are (address, bytes, shape) in this model's memory."""
        if not self.moved:
            self.addrs, self.moved = dict(self.addrs), True
        self.loaded.datasets_moved = True  # later runs point the datasets back where they run
        for i, ((key, need), (addr, size)) in enumerate(zip(self.loaded.input_args, inputs)):
            if size < need:
                raise ModelRunError(f"input {i} buffer holds {size} bytes, its shape needs {need}")
            if need:
                self.addrs[key] = addr
        self._steps()
        results = []
        for key, planned_size, planned_shape, dtype, _ in self.loaded.output_args:
            shape, size = self._output_layout(key[0], planned_size, planned_shape, dtype)
            results.append((self.addrs[key], size, list(shape)))
        return results

    def _output_layout(
        self, ep: Endpoint, size: Optional[int], shape: Optional[List[int]], dtype: np.dtype
    ) -> Tuple[List[int], int]:
        """An output's shape and bytes: the plan's, or the run's for a run-time shaped output (the
        plan has None for both)."""
        if shape is None or size is None:
            return self._run_shaped(ep, dtype)
        return shape, size

    def _run_shaped(self, ep: Endpoint, dtype: np.dtype) -> Tuple[List[int], int]:
        shape = self.run_shapes[ep]
        return shape, int(np.prod(shape, dtype=np.int64)) * dtype.itemsize

    def _steps(self) -> None:
        """Every step in order, then waits for the stream."""
        for allocator in self.loaded.allocators.values():
            allocator.start_run()
        for index, step in enumerate(self.plan.steps):
            if isinstance(step, KernelSegment):
                self._segment(index, step)
            elif isinstance(step, ExecuteStep):
                self._execute(step)
            else:
                self._transfer(step)
        if self.queued or not self.synchronous:
            self._sync()

    def _segment(self, index: int, step: KernelSegment) -> None:
        acl, loaded = self.acl, self.loaded
        datasets = loaded.datasets[index]
        if self.moved:  # point the datasets at this run's addresses (those of the plan otherwise)
            addrs = self.addrs
            datasets.point([(addrs[key], size) for key, size in loaded.segment_args[index]])
        if self.synchronous:
            self._wait()  # an execute's kernels on the stream come first
            _check(
                acl,
                acl.mdl.execute(loaded.model_ids[index], *datasets.datasets),
                f"aclmdlExecute of segment {step.description.name}",
            )
            return
        # the queued run copies the addresses, so the buffers may be re-pointed by the next run
        _check(
            acl,
            acl.mdl.execute_async(loaded.model_ids[index], *datasets.datasets, self.stream),
            f"aclmdlExecuteAsync of segment {step.description.name}",
        )
        self.queued = True

    def _transfer(self, step: CopyStep) -> None:
        source_side = HOST if step.to_side == DEVICE else DEVICE
        # D2H: the device tensor is complete only when the stream has run. H2D: queued kernels may
        # still read the region's previous tensor (aclrtMemcpy is not ordered with the stream).
        self._wait()
        self._copy(
            self.addrs[(step.source, step.to_side)],
            self.addrs[(step.source, source_side)],
            self.loaded.size(step.source),
            (source_side, step.to_side),
            f"{step.source.node}:{step.source.index} to the {step.to_side}",
        )

    def _execute(self, step: ExecuteStep) -> None:
        custom = step.custom
        node, ir_meta = custom.node, custom.info.ir_meta
        side = step.side
        host = side == HOST
        in_addrs = [self.addrs[(src, side)] if src is not None else 0 for src in node.inputs]
        spec = node_spec(node, ir_meta, in_addrs)
        allocator = self.loaded.allocators[node.name]
        ctx: Union[HostCpuOpExecutionContext, EagerOpExecutionContext]
        if host:
            ctx = HostCpuOpExecutionContext._create(spec, allocator=allocator)
        else:
            ctx = EagerOpExecutionContext._create(spec, stream=self.stream, allocator=allocator)
        try:
            _bridge.call_execute(custom.instance_id, custom.info.registered_ir, ctx, step.backend)
        except Exception as exc:
            raise ModelRunError(f"{_where(node)}: execute failed: {_one_line(exc)}") from exc
        self.queued = self.queued or not host  # a device execute may have launched on the stream
        produced = ctx._take_outputs()
        for position, slot in enumerate(output_slots(node, ir_meta)):
            meta = produced[position] if position < len(produced) else None
            name = node.output_names[slot]
            if meta is None:
                raise ModelRunError(
                    f"{_where(node)}: execute did not produce output {name} "
                    "(malloc_output_tensor or make_output_ref_input)"
                )
            desc = node.output_descs[slot]
            ep = Endpoint(node.name, slot)
            if (
                ep in self.plan.runtime_shaped
                and _fits(desc.shape, meta.storage_dims)
                and meta.data_type == desc.data_type
            ):
                self.run_shapes[ep] = [int(d) for d in meta.storage_dims]
            elif list(meta.storage_dims) != list(desc.shape) or meta.data_type != desc.data_type:
                raise ModelRunError(
                    f"{_where(node)}: execute produced output {name} as "
                    f"{meta.data_type.name} {list(meta.storage_dims)}, shape inference says "
                    f"{desc.data_type.name} {list(desc.shape)}"
                )
            self.addrs[(Endpoint(node.name, slot), side)] = meta.addr
