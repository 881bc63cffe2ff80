"""Indexing with integers, constant slices, loop indices, ``None`` (a new axis) and
``...``: ``getitem`` is a view (a
stencil's ``A[1:-1, :-2]`` reads ``A[1 + i, j]``, no copy), ``setitem`` a nest that
stores into the base array, also through a view (``row = A[2]; row[1:] = 0`` stores
``A[2, 1 + j]``: the view's index composed with the store's)."""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node

from .const_rows import constant_element, is_sequence
from .gathers import has_array_index
from .ops import Unsupported, _cast, _meta
from .run_stores import RunPart
from .saves import Store, save_before_store
from .sym_slices import has_symbolic_slice
from .values import Arr, Const, Lazy, Scal, Tup, View, _compose


class Stencils:
    """Methods of ``_Block`` (block.py): views (getitem) and stores (setitem)."""

    def index_parts(self, base_shape: tuple, index) -> tuple[list, tuple]:
        """``index`` (ints, constant slices, loop-index expressions) as view parts."""
        items = index if isinstance(index, tuple) else (index,)
        real = sum(item is not None and item is not Ellipsis for item in items)
        if real > len(base_shape) or sum(item is Ellipsis for item in items) > 1:
            raise Unsupported("too many indices")
        if any(item is Ellipsis for item in items):   # ``x[..., 0]``: the slices it
            at = next(k for k, item in enumerate(items) if item is Ellipsis)   # stands for
            items = items[:at] + (slice(None),) * (len(base_shape) - real) + items[at + 1:]
        items = items + (slice(None),) * (len(base_shape) - sum(i is not None for i in items))
        parts, shape = [], []
        d = 0
        for item in items:
            if item is None:   # ``x[:, None]``: a new axis of length 1 (read at any index)
                parts.append(("new",))
                shape.append(1)
                continue
            n = base_shape[d]
            d += 1
            if isinstance(item, bool) or isinstance(item, np.bool_):
                raise Unsupported("boolean index")
            if isinstance(item, (int, np.integer)):
                i = int(item)
                if not -n <= i < n:
                    raise Unsupported("index out of bounds")
                parts.append(("int", str(i % n)))
            elif isinstance(item, slice):
                if not all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                           for v in (item.start, item.stop, item.step)):
                    raise Unsupported("slice with non-constant bounds")
                start, _, step = item.indices(n)
                count = len(range(*item.indices(n)))
                parts.append(("slice", start, step))
                shape.append(count)
            elif hasattr(item, "sym") and hasattr(item, "nodes"):
                parts.append(("int", f"({self.sym(item)})"))
            else:
                raise Unsupported(f"index {type(item).__name__}")
        return parts, tuple(shape)

    def sym(self, arg) -> str:
        names = {}
        for s, node in arg.nodes.items():
            v = self.env.get(node)
            if not isinstance(v, Scal) or v.dtype.kind not in "iu":
                raise Unsupported("a symbolic index that is not the loop's")
            names[s] = v.name
        return arg.sym.render(names)

    def getitem(self, node: Node):
        base, index = node.args
        if has_array_index(index):   # ``x[idx]``: a gather into a new array (gathers.py)
            return self.gather(node)
        if has_symbolic_slice(index):   # ``x[k:k + n]``: a copy (sym_slices.py)
            return self.symbolic_slice(node)
        if node.kwargs:
            raise Unsupported("getitem with keywords")
        v = self.val(base)
        if isinstance(v, Tup):
            if not isinstance(index, int):
                raise Unsupported("tuple index")
            return v.items[index]
        meta = _meta(node)
        if isinstance(v, Lazy):
            v = self.force(base)
        if isinstance(v, Scal) and index == () and meta.scalar and v.dtype == meta.dtype:
            return v   # ``z[()]`` of a 0-d value held as a scalar (nests.materialize)
        if isinstance(v, Arr):
            parts, shape = self.index_parts(v.shape, index)
            view = View(v, parts, shape, v.dtype)
        elif isinstance(v, View):
            parts, shape = self.index_parts(v.shape, index)
            inner = View(v.base, v.parts, v.shape, v.dtype)
            view = _compose(inner, parts, shape)
        else:
            raise Unsupported("getitem of a non-array")
        if shape != meta.shape or v.dtype != meta.dtype:
            raise Unsupported("getitem result differs from its metadata")
        if meta.scalar:   # x[i, j]: NumPy copies the element out
            name = self.em.new("s")
            self.em.read_line(f"{name} = {view.read([])}", {view.base.name})
            return Scal(name, meta.dtype)
        if not shape:
            raise Unsupported("0-d view")
        return view

    def setitem(self, node: Node):
        base, index, value = node.args
        if has_array_index(index):   # ``x[idx] = v``: a sequential scatter (scatters.py)
            return self.scatter(node)
        if isinstance(value, Node) and isinstance(self.env.get(value), RunPart):
            return self.run_store(node)   # run-time length (run_stores.py)
        target = self.val(base)
        if isinstance(target, Lazy):   # ``y = x + 1; y[0] = 0``: y is a new array
            target = self.force(base)
        view = None
        if isinstance(target, View):   # ``row = A[i]; row[1:] = 0``: a store into the base
            view, target = target, target.base
            if any(p[0] == "new" for p in view.parts):
                raise Unsupported("setitem into a view with a new axis")
        if not isinstance(target, Arr):
            raise Unsupported("setitem into a non-array")
        parts, shape = self.index_parts((view or target).shape, index)
        if any(p[0] == "new" for p in parts):
            raise Unsupported("setitem with a new axis")
        # (a view's index composed with the store's: one part per base dimension)
        dest = View(target, parts, shape, target.dtype) if view is None else \
            _compose(View(target, view.parts, view.shape, view.dtype), parts, shape)
        self.written(target.key)
        if isinstance(value, Node):
            v = self.val(value)
            keys = self._keys(value)
            if target.key in keys and not (isinstance(v, Scal)):
                # the value reads what this writes: eager computes it whole first
                v = self.env[value] = self.materialize_copy(value, v)
        else:
            v = Const(value)
        if 0 in shape and isinstance(v, Lazy):
            # a store of no element: its nest never runs the inlined value, which eager
            # computes whole anyway (and warns when it makes a NaN: ``x[0:0] =
            # np.sqrt(y - 10.0)``); computed now, its flag set as eager warns
            v = self.force(value)
        if isinstance(v, Const):
            src = None
        else:
            src = v.dtype
            _cast("x", src, target.dtype)   # raises for casts a kernel cannot do
            if src.kind in "fc" and target.dtype.itemsize < src.itemsize and \
                    target.dtype.kind in "fc":
                raise Unsupported("narrowing float assignment")
            if isinstance(v, Scal) and target.dtype.kind in "iu" and \
                    not np.can_cast(src, target.dtype, "safe"):
                # ``out[i] = a[i].sum()`` (int64 into int8): NumPy stores a scalar by a
                # basic index through Python's int and raises OverflowError out of the
                # target's range (ValueError for a NaN), where the kernel's cast wraps
                raise Unsupported(f"a scalar of {src} stored into an array of "
                                  f"{target.dtype} by a basic index (NumPy raises out of "
                                  "its range)")
            vshape = v.shape if isinstance(v, (Arr, View, Lazy)) else ()
            if len(vshape) > len(shape) or any(
                    a not in (1, b) for a, b in zip(vshape[::-1], shape[::-1])):
                raise Unsupported("value does not broadcast to the target")

        def body(idx, stmts, flag):
            if isinstance(v, Const) and is_sequence(v.value):   # ``pop[0] = 10.0, 5.0``
                expr = constant_element(v.value, shape, target.dtype, self.em, idx)
            elif isinstance(v, Const):
                expr = self.em.const(v.value, target.dtype)
            else:
                e, dt = self.element(v, idx, shape, stmts, flag)
                self.settle(e, stmts, flag)
                expr = _cast(e, dt, target.dtype)
            stmts.append(f"{dest.read(idx)} = {expr}")
        self.nest(shape, body, save=self.saving(target, dest, shape))
        return target if view is None else view

    def saving(self, target: Arr, dest: View, shape: tuple):
        """What ``nest`` runs to back up the part of an input that a store into
        ``dest`` overwrites (saves.py); None for a new array."""
        saver = target.save
        if saver is None:
            return None
        if any(p[0] == "slice" and isinstance(p[1], str) for p in dest.parts):
            raise Unsupported("a store into an input's view with run-time bounds")
        self.em.stores.append(Store(   # (saves.free_inputs)
            None if target.input is None else frozenset({target.input}), target.name,
            tuple(dest.parts), shape, target.shape, bool(self.em.loops)))
        loop = self.em.loops[-1] if self.em.loops else None
        return lambda idx: save_before_store(saver, target.name, dest, shape, idx,
                                             self.em.new, loop)
