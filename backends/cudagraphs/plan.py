"""Capture planning: can this graph's GPU work be recorded once and replayed?

``plan_capture(graph)`` is a pure function of the graph. It returns a
``CapturePlan``: ``capturable`` and, when not, every ``Reason`` with the node, its
source line and what to do. A replay re-launches the recorded kernels on the same
addresses with the same launch parameters; nothing on the host runs. So a graph
cannot be captured when its result depends on something a replay would not redo:

==================  ==================================================================
code                why a replay would be wrong or the capture would fail
==================  ==================================================================
dynamic_shape       a size the plan cannot read (not an int or a ``SymInt``)
unknown_shape       a node without a known shape (cannot prove sizes are fixed)
data_dependent      the result's size depends on the data (boolean masks, ``place``)
host_data           host values are copied to the GPU while recording (NumPy arrays,
                    lists as indices, ``asarray(list)``, CuPy's pointer table for more
                    than 8 concatenated arrays): a replay re-reads freed host memory
random              draws random numbers: a replay repeats the same numbers
cublas              calls cuBLAS or cuSOLVER through CuPy, which refuses stream
                    capture (only ``matmul``/``dot``/``@`` have a capture-safe GEMM)
host_sync           synchronizes the stream (Thrust sorts), illegal while recording
matmul_dtype        a matmul whose result dtype has no capture-safe path (int8, bf16)
input_mutation      writes into a graph input in place: the graph works on copies
user_op             a ``dynamo.register_op`` function: its Python side effects would
                    not run on replay (option ``capture_user_ops=True`` allows it)
unknown_op          not in the op registry
no_device_work      only views: there is nothing to replay
==================  ==================================================================

Symbolic sizes (``dynamo.symbolic.SymInt``, from dynamic shapes) are not a reason:
``plan.dynamic`` is set and the backend keeps one recording per concrete size
(:class:`~.runner.PerShapeRunner`), since one recording holds one set of sizes.

The plan is conservative on purpose: a graph it passes can still fail to capture
(the runner then runs it uncaptured and logs why), and every captured graph is
audited for host copies before its first replay (see :mod:`.audit`).

Example::

    >>> plan = plan_capture(graph)
    >>> plan.capturable, [r.code for r in plan.reasons]
    (False, ['host_data'])
    >>> print(plan.reasons[0])
    getitem_2 (getitem) at model.py:14 `y = x[[0, 2]]`: index holds a list ...
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynamo.graph import CALL, CONSTANT, PLACEHOLDER, Graph, Node, map_nodes
from dynamo.ops import MATMUL, MUTATION, REGISTRY, VIEW
from dynamo.tree import tree_leaves

# ops whose CuPy implementation reaches cuBLAS/cuSOLVER through CuPy's own handle
_CUBLAS_OPS = {"tensordot", "einsum"}
# matmul-kind ops that CuPy runs as plain kernels (no cuBLAS)
_KERNEL_MATMULS = {"outer", "trace", "vdot"}
# ops that synchronize or read device values on the host inside CuPy
_HOST_SYNC_OPS = {"sort", "argsort", "sort_inplace", "median", "nanmedian"}
# ops whose result size depends on data
_DATA_DEPENDENT_OPS = {"nonzero", "argwhere", "flatnonzero", "unique", "bincount", "compress",
                       "extract", "place"}
# ops that turn Python data in these operands (position, keyword) into device arrays
_HOST_OPERANDS = {"take": ((1, "indices"),), "take_along_axis": ((1, "indices"),),
                  "choose": ((0, "a"), (1, "choices")), "searchsorted": ((1, "v"), (3, "sorter")),
                  "select": ((0, "condlist"), (1, "choicelist")), "put": ((1, "ind"), (2, "v"))}
_FROM_HOST_OPS = {"array", "asarray"}
_CONCAT_OPS = {"concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"}
_CONCAT_TABLE_LIMIT = 8   # CuPy copies a pointer table to the GPU above this many arrays
_GEMM_DTYPES = set("efdFD?bBhHiIlLqQ") - {"b"}   # 'b' (int8) goes to cuBLAS's IMMA path
_NORM_KERNEL_ORDS = (None, "fro")
_LIBRARY_MODULES = ("numpy", "cupy", "cupyx", "dynamo", "operator", "_operator",
                    "builtins", "math")


@dataclass(frozen=True)
class Reason:
    code: str                 # stable key, see the table in the module docstring
    message: str              # what happens and what to do
    node: str | None = None   # the graph node
    op: str | None = None
    loc: str | None = None    # file:line of the user's code
    source_line: str | None = None

    def __str__(self) -> str:
        where = ""
        if self.node is not None:
            where = f"{self.node} ({self.op})"
            if self.loc:
                where += f" at {self.loc}"
            if self.source_line:
                where += f" `{self.source_line.strip()}`"
            where += ": "
        return f"{where}{self.message}"


@dataclass(frozen=True)
class CapturePlan:
    capturable: bool
    reasons: tuple[Reason, ...] = ()
    gemms: tuple[str, ...] = ()          # nodes that need the capture-safe GEMM
    kernels: int = 0                     # call nodes that launch device work (estimate)
    dynamic: bool = False                # symbolic sizes: record once per concrete size

    def summary(self) -> str:
        if self.capturable:
            sizes = ", one recording per size" if self.dynamic else ""
            return f"capturable: {self.kernels} ops, {len(self.gemms)} GEMMs{sizes}"
        return "not capturable: " + "; ".join(str(r) for r in self.reasons)


def plan_capture(graph: Graph, capture_user_ops: bool = False) -> CapturePlan:
    """Decide whether ``graph`` can be captured; pure (reads the graph, changes nothing)."""
    reasons: list[Reason] = []
    gemms: list[str] = []
    kernels = 0
    inputs = {n for n in graph.nodes if n.op == PLACEHOLDER}
    for node in graph.nodes:
        if node.op == CONSTANT:
            if _holds_host_array(node.args):
                reasons.append(_reason(node, "host_data", "a NumPy array constant is copied "
                                       "to the GPU while recording; pass it as a CuPy array"))
            continue
        if node.op != CALL:
            continue
        found = _check_call(node, inputs, capture_user_ops)
        reasons.extend(found)
        op = REGISTRY.get(node.target)
        if op is not None and op.kind != VIEW:
            kernels += 1
        if node.target in ("matmul", "dot") and not found:
            gemms.append(node.name)
    if kernels == 0 and not reasons:
        reasons.append(Reason("no_device_work", "the graph only makes views of its inputs: "
                              "there is nothing to replay"))
    return CapturePlan(not reasons, tuple(reasons), tuple(gemms), kernels, _is_dynamic(graph))


def _is_dynamic(graph: Graph) -> bool:
    """Symbolic sizes anywhere: a size input, or a ``SymInt`` in a shape."""
    for node in graph.nodes:
        if node.op == PLACEHOLDER and "symbol" in node.meta:
            return True
        meta = node.meta.get("array")
        for m in meta if isinstance(meta, tuple) else (meta,):
            if any(_is_symint(d) for d in getattr(m, "shape", ())):
                return True
    return False


def _is_symint(d) -> bool:
    return hasattr(d, "sym") and isinstance(d, int)


# --------------------------------------------------------------------------- one node

def _check_call(node: Node, inputs: set, capture_user_ops: bool) -> list[Reason]:
    name = node.target
    op = REGISTRY.get(name)
    if op is None:
        return [_reason(node, "unknown_op", f"op {name!r} is not in the op registry")]
    found = []
    found += _check_shapes(node)
    if op.random:
        found.append(_reason(node, "random", "draws random numbers: a replay would repeat "
                             "the numbers drawn while recording"))
    if not capture_user_ops and _is_user_op(op):
        found.append(_reason(node, "user_op", "a function registered with "
                             "dynamo.register_op: a replay skips its Python code; pass "
                             "options={'capture_user_ops': True} if it only computes arrays"))
    found += _check_host_data(node, name)
    found += _check_library_calls(node, name, op)
    for root in _written_roots(node, op):
        if root in inputs:
            found.append(_reason(node, "input_mutation", f"writes into graph input "
                                 f"{root.name!r} in place; the captured graph works on "
                                 "copies of its inputs, so this graph runs uncaptured"))
            break
    return found


def _check_shapes(node: Node) -> list[Reason]:
    meta = node.meta.get("array")
    if meta is None:
        return [_reason(node, "unknown_shape", "the result's shape is not known, so it "
                        "cannot be proved fixed across calls")]
    for m in meta if isinstance(meta, tuple) else (meta,):
        if not all(isinstance(d, (int, np.integer)) for d in getattr(m, "shape", ())):
            return [_reason(node, "dynamic_shape", f"shape {m.shape} holds a size the plan "
                            "cannot read; compile with dynamic=False to record one graph "
                            "per shape")]
    return []


def _check_host_data(node: Node, name: str) -> list[Reason]:
    if _holds_host_array((node.args, node.kwargs)):
        return [_reason(node, "host_data", "a NumPy array argument is copied to the GPU "
                        "while recording; a replay would re-read that freed host memory. "
                        "Pass a CuPy array instead")]
    if name in ("getitem", "setitem"):
        index = node.args[1] if len(node.args) > 1 else None
        if _holds_list(index) or (name == "setitem" and len(node.args) > 2
                                  and _holds_list(node.args[2])):
            return [_reason(node, "host_data", "index holds a list, which CuPy copies to "
                            "the GPU while recording; use a CuPy index array")]
        if _has_bool_index(index):
            return [_reason(node, "data_dependent", "a boolean mask index: the number of "
                            "selected elements is read on the host")]
    if name in _HOST_OPERANDS and any(_is_host_operand(a) for a in _operands(node, name)):
        return [_reason(node, "host_data", f"np.{name} gets indices or values as Python "
                        "data, which CuPy copies to the GPU while recording")]
    if name in _FROM_HOST_OPS and node.args and not _is_node(node.args[0]):
        return [_reason(node, "host_data", f"np.{name} of Python data copies it to the GPU "
                        "while recording; create the array outside the compiled function")]
    if name in _CONCAT_OPS:
        arrays = node.args[0] if node.args else ()
        if isinstance(arrays, (list, tuple)) and len(arrays) > _CONCAT_TABLE_LIMIT:
            return [_reason(node, "host_data", f"np.{name} of {len(arrays)} arrays: CuPy "
                            "copies a table of their addresses from the host while recording")]
    return []


def _check_library_calls(node: Node, name: str, op) -> list[Reason]:
    if name in _DATA_DEPENDENT_OPS:
        return [_reason(node, "data_dependent", f"np.{name}: the result's size depends on "
                        "the data")]
    if name in _HOST_SYNC_OPS:
        return [_reason(node, "host_sync", f"np.{name}: CuPy runs it through Thrust or "
                        "a host-side step that synchronizes the stream")]
    if name == "norm" and _norm_ord(node) not in _NORM_KERNEL_ORDS:
        return [_reason(node, "cublas", "np.linalg.norm with this ord may run an SVD "
                        "through cuSOLVER")]
    if _is_linalg(op) or name in _CUBLAS_OPS or (
            op.kind == MATMUL and name not in _KERNEL_MATMULS | {"matmul", "dot", "inner"}):
        return [_reason(node, "cublas", f"np.{name} calls cuBLAS/cuSOLVER through CuPy, "
                        "which refuses stream capture; only matmul, dot and @ have a "
                        "capture-safe GEMM here")]
    if name == "inner" and any(_ndim(a) > 1 for a in node.args[:2]):
        return [_reason(node, "cublas", "np.inner of matrices calls cuBLAS through CuPy, "
                        "which refuses stream capture; write it as a @ b.T")]
    if name in ("matmul", "dot"):
        return _check_gemm(node, name)
    return []


def _check_gemm(node: Node, name: str) -> list[Reason]:
    meta = node.meta.get("array")
    dtype = getattr(meta, "dtype", None)
    if dtype is None or dtype.char not in _GEMM_DTYPES:
        return [_reason(node, "matmul_dtype", f"np.{name} with result dtype {dtype}: no "
                        "capture-safe path (CuPy sends it to cuBLAS through its own handle)")]
    if name == "dot" and any(_ndim(a) > 2 for a in node.args[:2]):
        return [_reason(node, "cublas", "np.dot of arrays with more than 2 dimensions "
                        "is a tensordot through cuBLAS; use matmul (@) if that is meant")]
    return []


# --------------------------------------------------------------------------- helpers

def _reason(node: Node, code: str, message: str) -> Reason:
    return Reason(code, message, node.name, str(node.target), node.meta.get("loc"),
                  node.meta.get("source_line"))


def _is_node(value) -> bool:
    return isinstance(value, Node)


def _ndim(value) -> int:
    meta = value.meta.get("array") if isinstance(value, Node) else None
    return getattr(meta, "ndim", 0) if meta is not None and not isinstance(meta, tuple) else 0


def _holds_host_array(value) -> bool:
    return any(isinstance(v, np.ndarray) for v in tree_leaves(value))


def _holds_list(value) -> bool:
    """A list anywhere in ``value`` (not looking into the lists themselves)."""
    is_list = lambda v: isinstance(v, list)  # noqa: E731
    return any(is_list(v) for v in tree_leaves(value, is_leaf=is_list))


def _has_bool_index(index) -> bool:
    nodes: list[Node] = []
    map_nodes(index, nodes.append)
    for n in nodes:
        meta = n.meta.get("array")
        if meta is not None and not isinstance(meta, tuple) and meta.dtype == np.bool_:
            return True
    return False


def _operands(node: Node, name: str) -> list:
    """The arguments of ``node`` that CuPy converts to device arrays."""
    found = []
    for pos, key in _HOST_OPERANDS[name]:
        if key in node.kwargs:
            found.append(node.kwargs[key])
        elif pos < len(node.args):
            found.append(node.args[pos])
    return found


def _is_host_operand(value) -> bool:
    if isinstance(value, Node):
        return False
    if isinstance(value, (list, tuple)):
        return any(_is_host_operand(v) for v in value) or not value
    return value is not None


def _written_roots(node: Node, op) -> list:
    """The buffers ``node`` writes into: its ``out=`` arrays, or a mutation's target."""
    targets: list[Node] = []
    if "out" in node.kwargs:
        map_nodes(node.kwargs["out"], targets.append)
    elif op.kind == MUTATION and node.args:
        map_nodes(node.args[0], targets.append)
    return [_buffer_root(t) for t in targets]


def _buffer_root(value) -> Node | None:
    """The node owning the buffer ``value`` views: follow view ops to their first array."""
    while isinstance(value, Node) and value.op == CALL:
        op = REGISTRY.get(value.target)
        if op is None or op.kind not in (VIEW, MUTATION) or not value.args:
            return value
        value = value.args[0]
    return value if isinstance(value, Node) else None


def _norm_ord(node: Node):
    if "ord" in node.kwargs:
        return node.kwargs["ord"]
    return node.args[1] if len(node.args) > 1 else None


def _is_linalg(op) -> bool:
    """An op of np.linalg other than norm: CuPy runs those through cuBLAS/cuSOLVER."""
    mod = getattr(op.impl, "__module__", None) or ""
    return "linalg" in mod and op.name != "norm"


def _is_user_op(op) -> bool:
    mod = getattr(op.impl, "__module__", None) or ""
    return bool(mod) and mod.split(".")[0] not in _LIBRARY_MODULES
