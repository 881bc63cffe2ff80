"""Ops a kernel hands to NumPy itself: ``matmul``, ``norm``, ``cumsum``, ``eye``,
``np.array`` of scalars... called from the kernel in Numba's object mode
(``numba.objmode``), on the same arrays (same strides: the same BLAS or non-BLAS loop),
so the result is NumPy's own, bit for bit, and the rest of the graph still runs as
loop nests around it.

Numba's own ``np.dot`` calls the BLAS that SciPy bundles, not NumPy's, and has no
integer or strided path of NumPy's: its sums may differ in the last bit. A call
through NumPy costs about 4-5 us (Numba boxes the arguments, ``np.errstate``, unboxes
the result; 2-3 us of it the error state) against about 1 us for the plain call: the
race against tier 1 decides whether a graph full of them is worth it.

Which ops (``eligible``): those that only read their arguments (no random state, no
``out=``, no effect; random draws are called the same way with their state saved:
draws.py) and return a NumPy scalar or a *new* C-contiguous array of a
dtype the kernel computes with: ufuncs and the elementwise ops NumPy always copies
for, reductions and products (``node_facts.returns_fresh``), creation from constants
or lists (``np.arange``, ``np.eye``, ``np.array([a, b])``), the routines in
``_FRESH`` (each always returns a new array), and ``np.einsum``'s plain contractions
of two or three operands (einsums.py: other forms may return a view). Ops that report
through ``warnings.warn`` on some data (``nanmean`` of an all-NaN row, ``polyfit``'s
rank warning) stay out: the kernel could not report them at the user's line.
``mean``/``std``/``var``/``median``/``percentile``/``quantile`` only where the graph's
shapes rule their warnings out (shape_warnings.py: no empty slice, ``ddof`` below the
count).

A view (``x.T``, ``x.reshape(...)``, ``np.ravel``) whose every user is such a call is
not made at all: it becomes an expression the users' calls evaluate (``Deferred``),
so NumPy reads the base array through the view when eager does, at the user.

Warnings: NumPy's error state is the default one whenever tier 2 runs (``tier.py``);
the call runs under ``np.errstate(divide/over/invalid="raise")``, so where eager would
warn, the call raises ``FloatingPointError``: ``npcall`` then flags the kernel's call
and tier 1 reruns it (warning as eager). Any other exception (``LinAlgError``, an
index error) is flagged the same way, and so is a result whose type, dtype, shape or
layout is not the graph's metadata: tier 1 raises or answers as eager.

Example: ``r = A @ x`` (A (64, 64) float64, x (64,)) lowers to::

    with objmode(r3="float64[::1]", e3="boolean"):
        r3, e3 = _npcall(_np_ops.matmul, (p0, p1), {}, (64,), "float64")
    _nf |= e3
"""

from __future__ import annotations

import math

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops import impl_table
from dynamo.ops.node_facts import has_effect, returns_fresh
from dynamo.ops.registry import CREATION, REGISTRY, VIEW
from dynamo.symbolic import SymArg

from .draws import drawable
from .einsums import einsum_callable
from .emitter import SEQ_FLAG
from .ops import Unsupported, _meta
from .shape_warnings import MOMENTS, ORDER_STATS, quiet
from .strided import call_order, strides_for
from .values import Arr, Const, Lazy, Obj, Scal, Tup, View

# The kernel module's header when a kernel calls NumPy (appended to ops.PRELUDE).
CALL_PRELUDE = '''
from numba import objmode
from dynamo.backends.native.calls import NP_OPS as _np_ops, npcall as _npcall
'''

NP_OPS = impl_table("numpy")   # what eager and tier 1 call for each op

# Routines that always return a new array (never a view of an argument) and report
# only through NumPy's error state.
_FRESH = frozenset({
    "cumsum", "cumprod", "diff", "sort", "argsort", "convolve", "correlate", "hstack",
    "vstack", "stack", "column_stack", "concatenate", "inv", "solve", "det", "pad",
    "insert", "interp", "isin", "kron", "outer", "tile", "repeat", "cross", "trace",
    "polyval", "searchsorted", "tril", "triu", "roll", "median", "percentile", "quantile",
    # np.fft (pocketfft: Numba has no FFT; a new C-ordered array whatever the axis)
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn",
    "rfft2", "rfftn", "irfft2", "irfftn", "fftshift", "ifftshift",
})
# Reductions NumPy warns about through ``warnings.warn`` on some data (all-NaN slices,
# too few degrees of freedom, a rank-deficient fit).
_WARN = frozenset({
    "nanmean", "nanstd", "nanvar", "nanmedian", "nanpercentile", "nanquantile", "nanmax",
    "nanmin", "nanargmax", "nanargmin", "nansum", "nanprod", "average", "corrcoef", "cov",
    "polyfit",
})

_NUMBA = {"b": "boolean"}


def eligible(node: Node) -> bool:
    """``node`` can be called through NumPy from a kernel (module docstring)."""
    op = REGISTRY.get(node.target) if node.op == CALL else None
    if op is None or op.nout != 1 or has_effect(node) or node.target in _WARN:
        return False
    meta = node.meta.get("array")
    if meta is None or not hasattr(meta, "scalar"):
        return False
    if (node.target in MOMENTS or node.target in ORDER_STATS) and not quiet(node):
        return False    # it may warn through warnings.warn (shape_warnings.py)
    if node.target == "astype" and isinstance(node.args[0], Node):
        src = node.args[0].meta.get("array")
        if src is None or (src.dtype.kind == "c" and meta.dtype.kind != "c"):
            return False         # NumPy's ComplexWarning is a warnings.warn
    if meta.scalar:
        return True              # a NumPy scalar: a value, nothing to alias
    if op.kind == VIEW:
        return deferrable(node)
    if op.kind == CREATION:
        return op.same_object is None or not (node.args and isinstance(node.args[0], Node))
    if node.target == "einsum":   # may return a view: only its plain contractions
        return einsum_callable(node)
    return returns_fresh(node) or node.target in _FRESH


def deferrable(node: Node) -> bool:
    """A view whose users all call NumPy: made inside their calls (``Deferred``)."""
    op = REGISTRY.get(node.target) if node.op == CALL else None
    if op is None or op.kind != VIEW or has_effect(node) or not node.users:
        return False
    return all(u.op == CALL and u.target != "setitem" and (eligible(u) or drawable(u))
               for u in node.users)


class Deferred:
    """A view made where it is read: ``expr`` is its NumPy expression (object mode)."""

    def __init__(self, expr: str, shape: tuple, dtype: np.dtype):
        self.expr, self.shape, self.dtype = expr, shape, dtype


def numba_type(meta, laid_out: bool = False) -> str:
    """The objmode type of a result: ``"float64"``, ``"float64[:, ::1]"``, or
    ``"float64[:, :, :]"`` for one NumPy lays out other than C (strided.py)."""
    t = _NUMBA.get(meta.dtype.kind, meta.dtype.name)
    if meta.scalar:
        return t
    if laid_out:
        return f"{t}[{', '.join([':'] * meta.ndim)}]"
    return f"{t}[{', '.join([':'] * (meta.ndim - 1) + ['::1'])}]"


def npcall(fn, args, kwargs, shape, dtype, strides=None):
    """``fn(*args, **kwargs)`` as eager calls it, and whether the kernel must flag the
    call: NumPy would warn (``FloatingPointError`` under ``np.errstate(raise)``),
    raised, or returned something other than the metadata says (a NumPy scalar of
    ``dtype`` when ``shape`` is None, else a C-contiguous array, or one of ``strides``
    where the lowering predicted another layout: ``"bpw,wc->bpc"`` of ``x[:, idx]``).
    Runs in object mode."""
    try:
        with np.errstate(divide="raise", over="raise", invalid="raise"):
            r = fn(*args, **kwargs)
    except Exception:  # noqa: BLE001  (tier 1 reruns the call and raises as eager)
        r = None
    if shape is None:
        if isinstance(r, np.generic) and r.dtype == dtype:
            return r, False
        return np.dtype(dtype).type(0), True
    if type(r) is np.ndarray and r.dtype == dtype and r.shape == shape and (
            r.flags.c_contiguous if strides is None else r.strides == strides):
        return r, False
    return np.zeros(shape, dtype), True


def _float(v: float) -> str:
    return repr(v) if math.isfinite(v) else f"float({str(v)!r})"


class Calls:
    """Methods of ``_Block`` (block.py): ops called through NumPy."""

    def npcall(self, node: Node):
        """The node's value: a ``Deferred`` view, or the result of a NumPy call."""
        meta = _meta(node)
        if not meta.scalar and meta.ndim == 0:
            raise Unsupported(f"0-d {node.target}")
        dot = self.native_dot(node)   # ``w @ u`` of vectors: NumPy's ddot (dots.py)
        if dot is not None:
            return dot
        em = self.em
        binds: list[str] = []
        if not all(k.isidentifier() for k in node.kwargs):
            raise Unsupported("keyword names that are not identifiers")
        if REGISTRY[node.target].kind == VIEW and not meta.scalar:
            # a direct call (Numba's bytecode reader has no ``f(*a, **k)``)
            params = [self._source(a, binds) for a in node.args] + \
                [f"{k}={self._source(v, binds)}" for k, v in node.kwargs.items()]
            for b in binds:
                em.line(b)
            return Deferred(f"_np_ops.{node.target}({', '.join(params)})", meta.shape,
                            meta.dtype)
        args = self._source(tuple(node.args), binds)
        kwargs = self._source(dict(node.kwargs), binds)
        into = self._dead_operand(node)
        if into is not None:   # (``node.kwargs`` is empty: ``{}``)
            kwargs = f"{{'out': {self._source(into, binds)}}}"
        for b in binds:
            em.line(b)
        name, err = em.new("r"), em.new("e")
        em.uses_npcall = True
        # NumPy's layout of the result where it is not C (an einsum's: strided.py)
        order = None if meta.scalar else call_order(em.orders, node)
        strides = "" if order is None else \
            f", {strides_for(tuple(meta.shape), meta.dtype.itemsize, order)}"
        em.line(f'with objmode({name}="{numba_type(meta, order is not None)}", '
                f'{err}="boolean"):')
        shape = "None" if meta.scalar else repr(tuple(meta.shape))
        em.lines.append(f"{em.pad}    {name}, {err} = _npcall(_np_ops.{node.target}, "
                        f"{args}, {kwargs}, {shape}, {meta.dtype.name!r}{strides})")
        em.line(f"{SEQ_FLAG} |= {err}")
        if not node.users or (not meta.scalar and math.prod(meta.shape) == 0):
            # a result nothing reads (``data_check``'s), or with no element (its nests
            # run no trip and are not emitted): Numba refuses an objmode output that no
            # line after the block reads ("Invalid type annotation on non-outgoing
            # variables"); one read of it
            em.line(f"{name} = {name}")
        if meta.scalar:
            return Scal(name, meta.dtype)
        return Arr(name, meta.shape, meta.dtype, name, fresh=True)

    def _dead_operand(self, node: Node) -> Node | None:
        """An operand of the ufunc ``node`` whose array this kernel made and nothing
        reads after ``node``, of the result's shape and dtype: the call writes into it
        (``out=``) instead of a new array, as plain NumPy's temporary elision does for
        ``np.tanh(k * (x + c * x ** 3))`` (issue #15, peak memory: corpus 5's
        Black-Scholes made three 1.6 MB results of ``np.tanh`` per call beside the
        kernel's buffers, 1.40x plain NumPy's peak; Planck's ``np.expm1`` one 3.2 MB,
        1.32x). The values are NumPy's own either way (the same loop, in place); a
        call that raises is run again by tier 1 from the inputs.

            r43, e44 = _npcall(_np_ops.expm1, (v42,), {'out': v43}, (2000, 200), ...)
        """
        fn, meta = getattr(NP_OPS, node.target, None), _meta(node)
        if not isinstance(fn, np.ufunc) or fn.nout != 1 or node.kwargs or meta.scalar:
            return None
        for a in node.args:
            # (a call's value: a loop body's placeholder holds an array of every trip)
            v = self.env.get(a) if isinstance(a, Node) and a.op == CALL else None
            if isinstance(v, Arr) and v.fresh and v.input is None and v.save is None \
                    and tuple(v.shape) == tuple(meta.shape) and v.dtype == meta.dtype \
                    and all(u is node for u in a.users) and \
                    not any(n is not a and getattr(w, "key", None) == v.key
                            for n, w in self.env.items()):
                return a
        return None

    def _source(self, value, binds: list) -> str:
        """``value`` (a node argument) as object-mode source; the kernel values it reads
        are bound to fresh names first (``binds``): a loop may rebind the names they
        had, and a scalar expression becomes a variable."""
        if isinstance(value, Node):
            v = self.env[value]
            if isinstance(v, Lazy):
                v = self.force(value)
            return self._value_source(v, binds)
        if isinstance(value, tuple):
            items = [self._source(x, binds) for x in value]
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
        if isinstance(value, list):
            return f"[{', '.join(self._source(x, binds) for x in value)}]"
        if isinstance(value, dict):
            if not all(isinstance(k, str) for k in value):
                raise Unsupported("keyword names that are not strings")
            return "{" + ", ".join(f"{k!r}: {self._source(x, binds)}"
                                   for k, x in value.items()) + "}"
        if isinstance(value, SymArg):
            return self._size_source(value, binds)
        return _literal(value)

    def _size_source(self, value: SymArg, binds: list) -> str:
        """A symbolic argument (a ``SymArg``: an expression of the graph's int inputs
        or a loop's index, Adam's bias correction ``m / (1 - b1 ** t)`` passes
        ``(1 - (0.9 ** float((trip + 2))))``) as object-mode source that evaluates the
        same Python expression on Python ints, as eager does: ``(1 - (0.9 **
        float((int(v3) + 2))))`` (``int()``: a kernel int64 boxed as a NumPy int
        would change what NumPy promotes). Any other symbol (a float input): refused."""
        names = {}
        for sym, node in value.nodes.items():
            v = self.env.get(node)
            if isinstance(v, Const) and type(v.value) is int:
                names[sym] = repr(v.value)
            elif isinstance(v, Scal) and v.dtype.kind in "iu":
                name = self.em.new("v")
                binds.append(f"{name} = {v.name}")
                names[sym] = f"int({name})"
            else:
                raise Unsupported("a symbolic argument of a value that is not an int")
        return f"({value.sym.render(names)})"

    def _value_source(self, v, binds: list) -> str:
        if isinstance(v, Deferred):
            return v.expr
        if isinstance(v, Const):
            return _literal(v.value)
        if isinstance(v, Tup):
            items = [self._value_source(x, binds) for x in v.items]
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
        if isinstance(v, Scal):
            name = self.em.new("v")
            binds.append(f"{name} = {v.name}")
            t = "bool_" if v.dtype.kind == "b" else v.dtype.name
            return f"np.{t}({name})"    # Numba boxes a float64 as a Python float
        if isinstance(v, Arr):
            name = self.em.new("v")
            binds.append(f"{name} = {v.name}")
            return name
        if isinstance(v, View):
            name = self.em.new("v")
            binds.append(f"{name} = {v.base.name}")
            return f"{name}[{_index(v)}]"
        if isinstance(v, Obj):   # a Generator (draws.py): Numba boxes it back as itself
            return v.name
        raise Unsupported(f"a {type(v).__name__} passed to NumPy")


def _index(view: View) -> str:
    """The NumPy index of ``view`` into its base: ``1:-1`` as ``1:5:1``..."""
    out, k = [], 0
    for part in view.parts:
        if part[0] == "int":
            out.append(part[1])
            continue
        if part[0] == "new":
            out.append("None")
            k += 1
            continue
        _, start, step = part
        if isinstance(start, str):   # a run-time start (sym_slices.py): never negative
            stop = f"{start} + {view.shape[k] * step}"
            if step < 0:   # (``x[n - 4:n][::-1]``: a stop of -1 is None)
                stop = f"({stop} if {stop} >= 0 else None)"
            out.append(f"{start}:{stop}:{step}")
            k += 1
            continue
        stop = start + view.shape[k] * step
        k += 1
        out.append(f"{start}::{step}" if stop < 0 else f"{start}:{stop}:{step}")
    return ", ".join(out) + ("," if len(out) == 1 else "")


def _literal(value) -> str:
    """A constant argument as source (object mode: NumPy's own types)."""
    if value is None or value is Ellipsis or isinstance(value, (bool, str)):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, complex):
        return f"complex({_float(value.real)}, {_float(value.imag)})"
    if isinstance(value, np.generic) and value.dtype.kind in "biufc" \
            and getattr(np, value.dtype.name, None) is type(value):
        return f"np.{value.dtype.name}({_literal(value.item())})"
    if isinstance(value, np.dtype) and value.kind in "biufc":
        return f"np.dtype({value.name!r})"
    if isinstance(value, type) and value in (bool, int, float, complex):
        return value.__name__
    if isinstance(value, type) and issubclass(value, np.generic) \
            and getattr(np, value.__name__, None) is value:
        return f"np.{value.__name__}"
    if isinstance(value, slice):
        return f"slice({_literal(value.start)}, {_literal(value.stop)}, {_literal(value.step)})"
    if isinstance(value, tuple):
        items = [_literal(x) for x in value]
        return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    if isinstance(value, list):
        return f"[{', '.join(_literal(x) for x in value)}]"
    raise Unsupported(f"a {type(value).__name__} constant passed to NumPy")
