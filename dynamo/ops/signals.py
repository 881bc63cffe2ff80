"""What running an op may signal besides its result: an exception, a warning, or a
floating-point condition the caller's ``np.seterr`` settings turn into one.

Eager NumPy runs every op of a program, so an op whose result nobody reads still
raises (``np.linalg.inv`` of a singular matrix, ``x[i]`` out of bounds) and still
reports its floating-point conditions (``1 / x`` with a zero: a RuntimeWarning by
default, an exception under ``np.errstate(divide="raise")``, a call of the
``np.seterrcall`` function, a printed line...). The passes ask two questions:

- ``may_signal(node)``: could running the node raise, warn, or report a
  floating-point condition? Only nodes for which the answer is certainly no may be
  dropped (``dce``) or computed once for two calls (``cse``, in graphs with effects).
  The answer is conservative: no is given only for views and creation calls with
  static arguments (their shapes were checked while tracing; a creation call only up
  to 1 GiB, as a larger one may fail to allocate) and for integer and
  boolean ufuncs that have no error cases (``a + b``, ``a < b``, ``a & b``; not
  division, remainder or power, and not NumPy scalar arithmetic, which warns on
  overflow).
- ``fp_signals_only(node)``: are floating-point conditions all it may signal, apart
  from exceptions that depend on shapes and dtypes only (ufuncs, ufunc reductions,
  matrix products)? Two such calls on the same values signal the same conditions.
- ``reports_fp(node)``: may it report a floating-point condition (what ``np.errstate``
  controls)? Narrower than ``may_signal``: indexing, comparisons of reals, safe casts
  and ``branch_select`` may raise but report none. The glue runs a graph that may be
  rerun under its floating-point guard only where some node may (``dynamo.raising``).
- ``warns_beyond_fp(node)``: may it warn of something that is not a floating-point
  condition ("Mean of empty slice", a ComplexWarning)? The backend's guard does not
  see those, so such a node runs by itself, outside fused code (``barrier``).

``rerun_on_signal(graph)`` says whether the ``numpy`` backend runs the graph under its
floating-point guard as a whole (no effects, no ``barrier``; see ``runtime.guard``
in ``backends/numpy_backend/runtime.py``): any condition the caller's settings make
visible then reruns the original graph op by op, so passes may change which op
reports a condition (``x / 4`` -> ``x * 0.25`` names ``multiply``) or how often
(``cse`` of ``x - mu``), marking the node ``REPORTS_DIFFER``, but never drop one.

Example::

    >>> may_signal(node_of("np.linalg.inv(a)")), may_signal(node_of("x.T"))
    (True, False)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from dynamo.graph import CALL, CONSTANT, Graph, Node
from dynamo.symbolic.sizes import Sym, is_unbacked
from dynamo.tree import tree_leaves

from . import registry as ops
from .node_facts import array_meta, has_effect, reduction_info, reduction_params, stacked_meta
from .quiet_ops import QUIET_IN_NUMPY2, quiet_in_numpy2
from .quiet_sym_ints import quiet_sym_int
from .registry import CREATION, ELEMENTWISE, MATMUL, REDUCTION, VIEW

# Meta key of a node that reports floating-point conditions otherwise than the ops it
# stands for (``x / 4`` as ``multiply``, one ``np.log(x)`` for two): the backend runs
# it under its guard, so that a condition reruns the original graph.
REPORTS_DIFFER = "reports_differ"

# Ufuncs with no error case on integer and boolean arrays: no division, no shift
# count check, no negative powers. (Integer array arithmetic wraps silently; NumPy
# scalar arithmetic warns on overflow, so scalars are excluded separately.)
_INTEGER_QUIET = frozenset({
    "add", "subtract", "multiply", "negative", "positive", "absolute", "sign", "square",
    "maximum", "minimum", "fmax", "fmin", "bitwise_and", "bitwise_or", "bitwise_xor",
    "invert", "logical_and", "logical_or", "logical_xor", "logical_not", "equal",
    "not_equal", "less", "less_equal", "greater", "greater_equal", "conjugate", "isnan",
    "isinf", "isfinite", "signbit", "bitwise_count",
})
# Ufuncs that never touch the floating-point status flags on real floats either.
_FLOAT_QUIET = frozenset({"isnan", "isinf", "isfinite", "signbit", "negative", "positive",
                          "conjugate", "copysign"})
# Creation calls whose only failure is a bad shape or dtype (checked while tracing).
_QUIET_CREATION = frozenset({"zeros", "ones", "empty", "zeros_like", "ones_like",
                             "empty_like", "identity", "eye", "tri"})
# Reductions that are one ufunc's reduce: they signal what their ufunc signals.
_UFUNC_REDUCTIONS = frozenset({"sum", "prod", "max", "min", "any", "all"})


def _static_args(node: Node, skip: int) -> bool:
    """No argument after the first ``skip`` positional ones is a graph value."""
    rest = (node.args[skip:], node.kwargs)
    return not any(isinstance(v, Node) for v in tree_leaves(rest))


# Creation calls this large may fail to allocate (``np.empty(2**62)``: "array is too
# big", a MemoryError): they are kept, as eager runs them, even when unused.
_QUIET_CREATION_BYTES = 1 << 30


def _small(node: Node) -> bool:
    """The array ``node`` makes has a known size of at most ``_QUIET_CREATION_BYTES``."""
    meta = array_meta(node)
    try:
        return meta is not None and meta.size * meta.dtype.itemsize <= _QUIET_CREATION_BYTES
    except TypeError:   # a size that is no number
        return False


def _kinds(node: Node) -> set[str] | None:
    """Dtype kinds of the node's array arguments and result (None: something unknown)."""
    metas = [array_meta(n) for n in node.inputs()] + [array_meta(node)]
    if any(m is None for m in metas):
        return None
    return {m.dtype.kind for m in metas}


def _quiet_ufunc(node: Node) -> bool:
    op = ops.REGISTRY.get(node.target)
    meta = array_meta(node)
    if op is None or not isinstance(op.impl, np.ufunc) or meta is None or meta.scalar:
        return False
    if node.kwargs or len(node.args) != op.impl.nin:
        return False   # dtype=, casting=, where=: casts that may warn or fail
    kinds = _kinds(node)
    if kinds is None:
        return False
    dtypes = [array_meta(a).dtype for a in node.args if isinstance(a, Node)]
    if not all(_converts_silently(a, dtypes) for a in node.args if not isinstance(a, Node)):
        return False   # (np.copysign(x32, 1e300): "overflow encountered in cast")
    if kinds <= set("biu"):
        return node.target in _INTEGER_QUIET
    return kinds <= set("biuf") and node.target in _FLOAT_QUIET


def _converts_silently(value, dtypes: list) -> bool:
    """The Python constant ``value``, an operand of a ufunc with array operands of
    ``dtypes``, converts to the dtype NumPy casts it to (NEP 50: the arrays' own,
    ``np.result_type(np.float32, 1e300)`` is float32) without a floating-point report
    or an exception: ``1e300`` into a float32 overflows ("overflow encountered in
    cast"), ``300`` into an int8 raises ``OverflowError``. A changing number (its
    value unknown) or anything but a bool, int or float: no.

        >>> _converts_silently(1e300, [np.dtype(np.float32)]), _converts_silently(2.0, [])
        (False, True)
    """
    return type(value) in (bool, int, float) and _silent_cast(value, tuple(dtypes))


@lru_cache(maxsize=4096, typed=True)
def _silent_cast(value, dtypes: tuple) -> bool:
    """``_converts_silently``'s answer, once per constant and dtypes (the passes ask
    ``may_signal`` of every node several times)."""
    try:
        with np.errstate(all="raise"):
            np.asarray(value, dtype=np.result_type(*dtypes, value))
    except Exception:  # noqa: BLE001 (an overflow, an invalid value: it signals)
        return False
    return True


def may_signal(node: Node) -> bool:
    """Running ``node`` may raise, warn, or report a floating-point condition."""
    if node.op == CONSTANT:
        return False
    if node.op != CALL:
        return False   # placeholders, the output
    if has_effect(node) or node.meta.get("may_raise"):
        return True   # (may_raise: x[i] with a changing int i, bounds checked at run time)
    if quiet_sym_int(node):
        return False  # (i // 2 of ints: Python's int ops, no zero divisor; quiet_sym_ints.py)
    kind = node.meta.get("kind")
    if kind == VIEW:
        # x.T, x.reshape(2, -1), x[1:3]: shapes are static, so these cannot fail at
        # run time when nothing but the array comes from the graph. x[i], x[idx]
        # with i, idx graph values may be out of bounds.
        return not _static_args(node, 1)
    if kind == CREATION:
        if node.target not in _QUIET_CREATION or not _small(node):
            return True
        return not _static_args(node, 1 if node.target.endswith("_like") else 0)
    if kind == ELEMENTWISE:
        return not _quiet_ufunc(node)
    if kind == REDUCTION and node.target in _UFUNC_REDUCTIONS:
        src, meta = array_meta(node.args[0]) if node.args else None, array_meta(node)
        return not (src is not None and meta is not None and not src.scalar
                    and src.size > 0 and _static_args(node, 1)
                    and {src.dtype.kind, meta.dtype.kind} <= set("biu"))
    return True


def _python_operator(op) -> bool:
    """The op calls one of Python's operators (``**``: ``pow``; ``+`` on NumPy scalars:
    ``scalar_add``...): NumPy's power or scalar math, which report floating-point
    conditions and raise, but warn of nothing else."""
    return getattr(op.impl, "__module__", None) in ("_operator", "operator")


def fp_signals_only(node: Node) -> bool:
    """``node`` may report floating-point conditions but nothing else that depends on
    its values: a ufunc without casting arguments (or ``**``), a ufunc reduction, a
    matrix product.
    (NumPy-level warnings such as "Mean of empty slice" or a ComplexWarning from
    ``casting="unsafe"`` are not floating-point conditions.)"""
    if node.op != CALL or has_effect(node):
        return False
    op = ops.REGISTRY.get(node.target)
    if op is None:
        return False
    kinds = _kinds(node)
    if kinds is None or not kinds <= set("biufc"):
        return False   # object arrays call Python code element by element
    kind = node.meta.get("kind")
    if kind == ELEMENTWISE:
        return (isinstance(op.impl, np.ufunc) or _python_operator(op)) and \
            not (set(node.kwargs) & {"casting", "dtype"})
    if kind == REDUCTION:
        info = reduction_info(node)
        return node.target in _UFUNC_REDUCTIONS and info is not None and info.dtype is None
    return kind == MATMUL and node.target in ("matmul", "dot")



def signals_for_values(node: Node) -> bool:
    """Running ``node`` may signal something for its values: ``may_signal``, less the
    nodes whose only signals are floating-point conditions (``fp_signals_only``) and
    that report none (``reports_fp``), with no changing number among their arguments
    (``x8 + n`` of a changing ``n`` may raise ``OverflowError``). What is left out (a
    comparison of floats, ``x < 0.5``; an integer add) signals the same for every value
    of its inputs: nothing, or a shape error the trace already checked. Where such ops
    run (another order, per block) is no condition the backend's floating-point guard
    must keep eager's (``backends/numpy_backend/statements.needs_guard``).

        >>> signals_for_values(node_of("x < 0.5")), signals_for_values(node_of("x / y"))
        (False, True)                                 # x, y: float64 arrays
    """
    if not may_signal(node):
        return False
    if has_effect(node) or node.meta.get("may_raise") or reports_fp(node):
        return True
    # (``np.where(c, a, b)`` picks: no value of ``c``, ``a`` or ``b`` makes it raise)
    select = node.target == "where" and len(node.args) == 3 and not node.kwargs
    if not (select or fp_signals_only(node)):
        return True
    return any(not (isinstance(a, Node) or type(a) in (bool, int, float))
               for a in tree_leaves((node.args, node.kwargs)))

# Ops that may raise or report floating-point conditions, but never warn otherwise.
_NO_OTHER_WARNINGS = frozenset({
    "sum", "prod", "max", "min", "any", "all", "argmax", "argmin", "ptp", "count_nonzero",
    "norm", "cumsum", "cumprod", "nancumsum", "nancumprod", "diff", "ufunc_accumulate",
    "ufunc_outer", "ufunc_reduce", "sort", "argsort", "searchsorted", "take",
    "take_along_axis", "choose", "select", "repeat", "tile", "roll", "pad", "concatenate",
    "stack", "hstack", "vstack", "dstack", "column_stack", "tril", "triu", "flatten",
    "flat_getitem", "meshgrid", "interp", "convolve", "correlate", "polyval", "inv",
    "cholesky", "det", "slogdet", "solve", "qr", "eigh", "eigvalsh", "svd", "pinv",
    "matrix_power", "clip", "round", "around", "where", "copy", "nan_to_num", "fix",
    "isposinf", "isneginf", "isclose", "angle", "sinc", "isreal", "iscomplex", "i0",
    "einsum", "tensordot", "inner", "outer", "vdot", "trace", "matmul", "dot",
    "conj_method", "copy_method", "nansum", "nanprod", "nanargmax", "nanargmin",
})


def warns_beyond_fp(node: Node) -> bool:
    """Running ``node`` may emit a Python warning that is not a floating-point
    condition: a ComplexWarning (``astype`` of complex to real), "Degrees of freedom
    <= 0" (``var`` with ``ddof`` >= the count), "Mean of empty slice", "All-NaN slice
    encountered" (``nanmax``...), a RankWarning (``polyfit``). The ``numpy`` backend
    runs such a node by itself, once, outside fused code (``barrier``): its guard
    sees floating-point conditions only, so a stretch run again after one would
    repeat the other warnings."""
    if not may_signal(node) or has_effect(node):
        return False
    kind = node.meta.get("kind")
    if kind in (VIEW, CREATION):
        return False
    op = ops.REGISTRY.get(node.target)
    if isinstance(getattr(op, "impl", None), np.ufunc):   # casting="unsafe" may discard
        return node.kwargs.get("casting") == "unsafe"     # imaginary parts
    if op is not None and _python_operator(op):
        return False
    if node.target == "astype":
        src, meta = array_meta(node.args[0]) if node.args else None, array_meta(node)
        return src is None or meta is None or (src.dtype.kind == "c" and meta.dtype.kind != "c")
    if set(node.kwargs) & {"casting", "dtype"} and kind != REDUCTION:
        return True
    if kind == REDUCTION and node.target in ("any", "all"):
        return False   # (a truth per element: nothing to warn of, even of a 0-d array)
    if node.target == "mean" and len(node.args) == 1 and not node.kwargs and \
            _python_numbers(node.args[0]):
        return False   # np.mean([l0, l1]) of a window of floats: at least one, so no
                       # "Mean of empty slice" (an overflow is a floating-point condition)
    if kind == REDUCTION and node.target in _UFUNC_REDUCTIONS | {"mean", "var", "std"}:
        info, src = reduction_info(node), array_meta(node.args[0]) if node.args else None
        if src is None and node.args and not has_effect(node):
            # np.mean(list_of_arrays, axis=0): NumPy stacks the list first, so its
            # count is the stacked array's (a list of one static shape)
            src = stacked_meta(node.args[0])
            info = reduction_params(node, src) if src is not None else None
        if info is None or src is None:
            return True
        if info.dtype is not None and src.dtype.kind == "c" and \
                np.dtype(info.dtype).kind != "c":
            return True   # a ComplexWarning
        if not all(type(d) is int for d in src.shape):
            # a mean over symbolic sizes that are never 0 (a window of stacked rows,
            # ``variables.deques``) warns of nothing: its count is at least 1; a var
            # or std warns "Degrees of freedom <= 0" where the count is at most
            # ``ddof``: quiet where the least count (1 per such size) exceeds it
            if not all(_never_zero(src.shape[a]) for a in info.axes):
                return True
            if node.target == "mean":
                return False
            ddof = info.ddof or 0
            if node.target not in ("var", "std") or type(ddof) not in (int, float):
                return True
            least = int(np.prod([src.shape[a] if type(src.shape[a]) is int else 1
                                 for a in info.axes]))
            return least - ddof <= 0
        count = int(np.prod([src.shape[a] for a in info.axes]))
        if node.target == "mean":
            return count == 0                        # "Mean of empty slice"
        if node.target in ("var", "std"):
            return count - (info.ddof or 0) <= 0     # "Degrees of freedom <= 0"
        return False
    if node.target == "scalar_cast" and node.args and not isinstance(node.args[0], Node):
        # np.float32(self.n), np.float64(len(kept)) of a Python number: a float type
        # overflows to inf with a floating-point warning ("overflow encountered in
        # cast"); an int type is made only of ints it holds (a count, or a changing int
        # whose range the entry guards: variables/number_casts.py)
        return False
    if node.target in QUIET_IN_NUMPY2:
        return not quiet_in_numpy2(node)
    return node.target not in _NO_OTHER_WARNINGS


def _python_numbers(value) -> bool:
    """A nonempty list or tuple of Python floats and int64-sized ints, constants or
    changing numbers (``SymArg``): NumPy makes a 1-d int64 or float64 array of it.

        >>> _python_numbers([0.5, 1.5]), _python_numbers([]), _python_numbers([x_node])
        (True, False, False)
    """
    from dynamo.symbolic.graph_args import SymArg

    return isinstance(value, (list, tuple)) and bool(value) and all(
        type(v) is float or isinstance(v, SymArg) or
        (type(v) is int and -2 ** 63 <= v < 2 ** 63) for v in value)


def _never_zero(size) -> bool:
    """Is the dimension ``size`` at least 1 for every size its entry serves? An int by
    its value; a symbolic size (``dynamo.symbolic.SymInt``, an affine form over
    symbols) where its constant and coefficients are nonnegative, it reads no unbacked
    symbol (``u0``: only the data decides it, and it may be 0) and it is at least 1
    now: each symbol it reads is guarded ``>= 1`` (``>= 2`` for most) or pinned at its
    value, so the form is at least 1 wherever it is now::

        >>> _never_zero(SymInt(4, Sym.symbol("s0", "x.shape[0]") + Sym((), 1)))
        True
    """
    if type(size) is int:
        return size >= 1
    sym = getattr(size, "sym", None)
    if sym is None or sym.const < 0:
        return False
    return all(c > 0 and not is_unbacked(name) for name, c in sym.terms) and \
        int.__int__(size) >= 1


def warns_in_python(node: Node) -> bool:
    """``warns_beyond_fp``, exact where that one is cautious for the backend's sake: a
    sum or product (``x[m].sum()``) warns of nothing at Python level whatever its
    sizes, also where they are symbolic or only the data knows them. The translator
    asks this one (``WriteGuard.check_warns``: may a graph holding the node run
    again?); the numpy backend keeps running such a node by itself (``barrier``).
    So does ``max``/``min`` (``s.max()`` of a stacked KV cache's scores): an empty one
    *raises*, never warns, and where a symbolic size may be 0 the op's fitted rule
    marks the node ``may_raise`` (``OutputGraph.call_op``), which ``raising`` sees."""
    if node.meta.get("kind") == REDUCTION and node.target in ("sum", "prod", "max", "min") \
            and not has_effect(node):
        info, src = reduction_info(node), array_meta(node.args[0]) if node.args else None
        if info is not None and src is not None and not (
                info.dtype is not None and src.dtype.kind == "c" and
                np.dtype(info.dtype).kind != "c"):
            return False
    return warns_beyond_fp(node)


def barrier(node: Node) -> bool:
    """A node the ``numpy`` backend runs by itself, in program order, outside fused
    code and outside its floating-point guard: an effect (``has_effect``) or a node
    that may warn beyond floating-point conditions (``warns_beyond_fp``)."""
    return has_effect(node) or warns_beyond_fp(node)


def rerun_on_signal(graph: Graph) -> bool:
    """The ``numpy`` backend reruns this graph op by op, as eager, whenever a
    floating-point condition the caller would see occurs: it has no effects (writes,
    random draws, ``np.errstate`` blocks), so running it twice is unobservable, and
    no op that may warn otherwise (which would warn twice)."""
    return not any(barrier(n) for n in graph.nodes)


# ------------------------------------------------- floating-point reports (np.errstate)

# Comparisons of real numbers: NumPy 2 compares without touching the floating-point
# status, NaN and infinities included (not complex: its ordering reports "invalid" on a
# NaN; tests/ops/test_fp_reports.py runs each under np.errstate(all="raise")).
_COMPARISONS = frozenset({"less", "less_equal", "greater", "greater_equal", "equal",
                          "not_equal"})
# NumPy scalar operators of ints and bools that cannot overflow (``+`` can: it warns).
_SCALAR_BITWISE = frozenset({"bitwise_and", "bitwise_or", "bitwise_xor", "invert"})
# Ops that pick or pass on values they are given, or read a 0-d value as a Python
# number (``int(x)``, ``float(x)``: Python's conversions, outside NumPy's error state).
_PICKS = frozenset({"branch_select", "after_loop", "sym_number", "sym_int", "sym_truth",
                    "getitem", "flat_getitem"})
_STORES = frozenset({"setitem", "flat_setitem"})
_LOOP_NODES = frozenset({"fori_loop", "while_loop"})
# Views that never convert: ``x.view(dtype)`` reinterprets the bytes.
_REINTERPRETING = frozenset({"view", "real", "imag"})


def reports_fp(node: Node) -> bool:
    """Running ``node`` may report a floating-point condition: a warning or error that
    ``np.errstate`` controls ("divide by zero encountered in divide", "overflow
    encountered in cast", a ``FloatingPointError`` under ``errstate(all="raise")``).

    Not ``may_signal``: an op that can only raise (``x[i]`` out of bounds, ``int(x)``
    of a NaN, a Python int too large for an int8) reports none, and neither does a
    comparison of floats. The glue's floating-point guard is worth its cost only for a
    graph that holds a node that may (``dynamo.raising``). Conservative: yes for any op
    not known here. A loop node reports what its body does.

        >>> # best = d[0]; for i ...: if d[i] < best: best = d[i]; arg = i
        >>> [reports_fp(n) for n in body.call_nodes()]   # getitem, scalar_less, ...
        [False, False, False, False, False, False]
        >>> reports_fp(node_of("x / y")), reports_fp(node_of("x.astype(np.float32)"))
        (True, True)                                        # x: float64
    """
    if node.op != CALL:
        return False
    target = node.target
    if target in _LOOP_NODES:
        return any(reports_fp(n) for body in node.args if isinstance(body, Graph)
                   for n in body.call_nodes())
    if target in _PICKS:
        return False
    meta = array_meta(node)
    if target in _STORES:
        xm = array_meta(node.args[0]) if node.args else None
        return len(node.args) != 3 or xm is None or not _casts_quietly(node.args[2], xm.dtype)
    kind = node.meta.get("kind")
    if kind == VIEW:
        src = array_meta(node.args[0]) if node.args else None
        return not (target in _REINTERPRETING or
                    (src is not None and meta is not None and src.dtype == meta.dtype))
    if kind == CREATION:
        return _creation_reports(node, meta)
    if kind == ELEMENTWISE:
        return _elementwise_reports(node, meta)
    return True


def _creation_reports(node: Node, meta) -> bool:
    """``np.zeros(n)``, ``np.empty_like(x)``: no value converted; ``np.asarray(v,
    dtype=np.int64)``: the cast of ``v``."""
    if node.target in _QUIET_CREATION:
        return False
    if node.target in ("asarray", "array") and meta is not None and node.args and \
            set(node.kwargs) <= {"dtype"}:
        return not _casts_quietly(node.args[0], meta.dtype)
    return True


def _elementwise_reports(node: Node, meta) -> bool:
    """A ufunc or operator that cannot report (integer ``a + b`` of arrays, ``isnan``,
    a comparison of reals), ``np.where(c, a, b)`` or a cast whose values convert
    safely: no."""
    target = node.target
    if meta is None or node.kwargs:
        return True
    if target == "scalar_cast" or target == "astype":
        if len(node.args) != 2:
            return True
        try:
            dtype = np.dtype(node.args[1])
        except TypeError:
            return True
        return not _casts_quietly(node.args[0], dtype)
    inputs = [array_meta(a) for a in node.args if isinstance(a, Node)]
    if any(m is None for m in inputs):
        return True
    dtypes = [m.dtype for m in inputs]
    if not {d.kind for d in dtypes} | {meta.dtype.kind} <= set("biuf"):
        return True
    constants = [a for a in node.args if not isinstance(a, Node)]
    if target == "where":
        return len(node.args) != 3 or not all(
            _casts_quietly(v, meta.dtype) for v in node.args[1:])
    name = target.removeprefix("scalar_")
    if name in _COMPARISONS and len(node.args) == 2:
        quiet = True
    elif target.startswith("scalar_"):
        # (``no_overflow``: a picked counter's ``count + 1``, whose bounds the graph
        # computes before its loop, as int64, raising OverflowError if they overflow:
        # translator/picked_numbers.picked_binary)
        quiet = {d.kind for d in dtypes} <= set("biu") and (
            name in _SCALAR_BITWISE or
            name in ("add", "subtract") and node.meta.get("no_overflow", False))
    else:
        quiet = _quiet_ufunc(node)
    return not (quiet and all(_casts_quietly(c, d) for c in constants for d in dtypes))


def _casts_quietly(value, dtype: np.dtype) -> bool:
    """Converting ``value`` (a graph value, a Python number, a changing number, or a
    tuple or list of them) to ``dtype`` reports no floating-point condition: a graph
    value whose dtype casts safely; a Python int into an int, a bool or a float64
    (one out of range raises ``OverflowError``: no report); a Python float into a
    float64. (``np.float32(1e300)``, a float into an int: "overflow", "invalid value
    encountered in cast".)

        >>> _casts_quietly(1, np.dtype(np.int8)), _casts_quietly(0.5, np.dtype(np.float32))
        (True, False)
    """
    from dynamo.symbolic.graph_args import SymArg

    wide = dtype.kind in "fc" and np.finfo(dtype).bits >= 64
    for leaf in tree_leaves(value):
        if isinstance(leaf, Node):
            m = array_meta(leaf)
            if m is None or not np.can_cast(m.dtype, dtype, "safe"):
                return False
        elif type(leaf) in (bool, int) or isinstance(leaf, SymArg) and _int_expr(leaf.sym):
            if not (dtype.kind in "biu" or wide):
                return False
        elif not (type(leaf) is float or isinstance(leaf, SymArg)) or not wide:
            return False   # (a SymArg of other Python numbers: floats)
    return True


def _int_expr(sym) -> bool:
    """A changing number's expression that is an int: a size's affine form (``trip +
    2``), or an int read from the data (``symbolic.scalars.Expr`` of op ``"int"``)."""
    return isinstance(sym, Sym) or getattr(sym, "op", None) == "int"
