"""The NumPy reference executor: runs a fusion plan on the CPU, kernel IR and all.

``reference_device(codes)`` gives the host code (:mod:`.host`) NumPy in place of CuPy:
``empty`` is ``np.empty``, plain steps call NumPy, and every kernel launch is a
``ReferenceLaunch`` that evaluates the kernel's IR with NumPy: loads through the
kernel's own coalesced strides (``as_strided`` on the argument arrays), each
instruction with its :mod:`.scalar_ops` reference in its declared dtypes, row
reductions along the last axis, and stores into the preallocated outputs. It also
checks what the GPU would silently get wrong: that every instruction's result has
the dtype the IR declares, that inputs have the layout the kernel was generated for,
that vectorized variants get 16-byte aligned arrays, and that a row kernel's launch
covers every row and column. A kernel of a symbolic graph gets its sizes, counts
and strides as trailing arguments (``Kernel.params()``), as the CUDA kernel does;
the executor evaluates the IR with those values, so a wrong value computed by the
host code shows here.

So partition, lowering, layout and host-code bugs fail the differential tests on
the CPU; only the CUDA text of each op (:mod:`.scalar_ops`) needs the GPU tests.

Example::

    >>> fn = compile_graph(graph, [x], device="reference").fn
    >>> fn(x)              # NumPy arrays in and out, computed through the plan
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from dynamo.ops import impl_table

from .host import Device
from .ir import ELEM, POINTWISE, REDUCTIONS, ROWSPACE, Const, Kernel, const_value
from .launch import Launch, grid_at
from .scalar_ops import SCALAR_OPS
from .sizes import is_static

_REDUCE = {"reduce_sum": np.add, "reduce_max": np.maximum, "reduce_min": np.minimum}


def address(a) -> int:
    return a.__array_interface__["data"][0]


class ReferenceLaunch:
    """Stands in for one compiled kernel variant: ``launch(grid, block, args)``."""

    def __init__(self, kernel: Kernel, launch: Launch):
        self.kernel, self.launch = kernel, launch
        self.calls = 0

    def __call__(self, grid, block, args) -> None:
        k, launch = self.kernel, self.launch
        params = k.params()
        n_arrays = len(k.inputs) + len(k.outputs)
        inputs, outputs = args[:len(k.inputs)], args[len(k.inputs):n_arrays]
        assert len(args) == n_arrays + len(params), "argument count"
        values = dict(zip(params, (int(a) for a in args[n_arrays:])))
        value = lambda v: v if is_static(v) else values[v]  # noqa: E731
        dims = tuple(value(d) for d in k.dims)
        rows, cols = int(np.prod(dims[:-1], dtype=np.int64)), dims[-1]
        want_grid = launch.grid if launch.grid is not None else grid_at(launch, value(launch.work))
        assert tuple(grid) == want_grid and tuple(block) == launch.block, "launch shape"
        for i in launch.aligned:
            assert address(args[i]) % 16 == 0, f"{launch.name}: argument {i} misaligned"
        for v, m in launch.requires:
            assert value(v) % m == 0, f"{launch.name}: {v} = {value(v)} not a multiple of {m}"
        if k.kind != POINTWISE:
            assert grid[0] == rows, f"{launch.name}: {grid[0]} blocks for {rows} rows"
            assert not launch.per_thread or \
                block[0] * launch.per_thread * launch.vec >= cols, "row not covered"
        for spec, arr in zip(k.inputs, inputs):
            item = spec.dtype.itemsize
            planned = [(s, a) for s, a, d in zip(spec.strides, arr.strides, arr.shape)
                       if d > 1 and is_static(s)]
            assert arr.dtype == spec.dtype and all(s * item == a for s, a in planned), \
                f"{launch.name}: input {spec.node.name} laid out {arr.strides}, planned " \
                f"{spec.strides}"
        for spec, arr in zip(k.outputs, outputs):
            count = rows if spec.space != ELEM and k.kind != POINTWISE else rows * cols
            assert arr.dtype == spec.dtype and arr.ndim == len(spec.shape) and all(
                a == d for a, d in zip(arr.shape, spec.shape) if is_static(d)) and \
                arr.size == count and arr.flags.c_contiguous, \
                f"{launch.name}: output {spec.node.name}"
        with np.errstate(all="ignore"):
            evaluate(k, inputs, outputs, value)
        self.calls += 1


def evaluate(k: Kernel, inputs, outputs, resolve=lambda v: v) -> None:
    """Run the IR; ``resolve`` gives a symbolic size, count or stride its run-time value."""
    full = tuple(resolve(d) for d in k.dims)
    row_shape = full[:-1] + (1,)
    env: dict[str, np.ndarray] = {}
    for ld in k.loads:
        arr = inputs[ld.input]
        shape, strides = full, tuple(resolve(s) for s in ld.strides)
        if k.kind != POINTWISE and ld.space == ROWSPACE:
            shape, strides = row_shape, strides[:-1] + (0,)
        env[ld.name] = as_strided(arr, shape=shape, strides=[s * arr.itemsize for s in strides],
                                  writeable=False)
    for ins in k.body:
        if ins.op in REDUCTIONS:
            value = _REDUCE[ins.op].reduce(env[ins.args[0]], axis=-1, keepdims=True)
        elif ins.op == "cast":
            value = env[ins.args[0]].astype(ins.dtype)
        else:
            op = SCALAR_OPS[ins.op]
            args = [_const(a, op.python_consts, resolve) if isinstance(a, Const) else env[a]
                    for a in ins.args]
            for a, d in zip(args, ins.in_dtypes):
                assert not isinstance(a, np.ndarray) or a.dtype == d, \
                    f"{ins.name}: operand {a.dtype}, IR says {d}"
            value = np.asarray(op.ref(*args))
        assert value.dtype == ins.dtype, f"{ins.name} = {ins.op}: NumPy gives {value.dtype}, " \
                                         f"the IR says {ins.dtype}"
        env[ins.name] = value
    for out, arr in zip(k.outputs, outputs):
        shape = full if out.space == ELEM or k.kind == POINTWISE else row_shape
        view = arr.reshape(shape)
        np.copyto(view, np.broadcast_to(env[out.value], shape), casting="no")


def _const(c: Const, python: bool, resolve):
    v = c.value if const_value(c) is not None else max(resolve(c.value), 0)
    return v if python else np.asarray(v).astype(c.dtype)


def reference_device(codes) -> Device:
    """A Device that runs the plan with NumPy; ``device.mismatches`` lists fallbacks."""
    kernels = {launch.name: ReferenceLaunch(c.kernel, launch)
               for c in codes for launch in c.launches.values()}
    mismatches: list[str] = []
    device = Device(ops=impl_table("numpy"), empty=np.empty, ptr=address, kernels=kernels,
                    mismatch=mismatches.append)
    device.mismatches = mismatches
    return device
