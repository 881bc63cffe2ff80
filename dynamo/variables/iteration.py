"""Builtins that consume or wrap an iterable: ``map``, ``filter``, ``sum``, ``max``,
``min``, ``any``, ``all``.

They take the items one at a time, as CPython does, so a generator's effects and a
user ``__gt__`` happen in Python's order. :mod:`dynamo.variables.builtins` adds
``HANDLERS`` here to its own.

``max``/``min`` of NumPy scalars compare array data: which object Python returns is
only known when the program runs. When both candidates are NumPy scalars of one dtype
(immutable, so only the value can be observed) the choice is a graph select, exactly
Python's rule ``b if b > a else a``. A Python number and a NumPy scalar
(``min(1.0, clip / norm)``) is a ``ChosenNumberVariable``: the glue makes the choice
when it is returned or stored, a select stands for it beside an array where both
candidates compute the same, and any other use breaks there. Anything else is a graph
break that says why.

Example::

    >>> HANDLERS[max](tx, a, b)    # a, b: np.float32 scalars in the graph
    array float32scalar[]          # where(greater(b, a), b, a)[()]
"""

from __future__ import annotations

import copy
import warnings

import numpy as np

from .. import ops, pyversion
from ..exc import Unsupported
from ..symbolic import Symbolic
from ..symbolic.scalars import SymFloat, choose, total
from .arrays import ArrayVariable, DeferredNumberVariable
from .base import Variable
from .constant import BINARY, ConstantVariable, check_size
from .float_windows import reduced
from .graph_numbers import as_graph_number
from .int_choices import changing_choice
from .iterators import IteratorVariable, take
from .sequences import SequenceVariable
from .size_values import SizeTruthVariable, size_choice

HANDLERS: dict = {}


def handles(*fns):
    def register(handler):
        for fn in fns:
            HANDLERS[fn] = handler
        return handler
    return register


def iterate(tx, iterable: Variable):
    """The items of ``iterable``, taken one at a time, as Python's builtins take them: a
    generator runs up to its next ``yield`` only when its next item is needed."""
    it = tx.get_iter(iterable)
    taken = 0
    while (item := take(tx, it)) is not None:
        taken += 1
        check_size(taken, f"a {it.describe()}")   # all(range(10**9)) runs eagerly
        yield item


class MapVariable(IteratorVariable):
    """``map(fn, *iterables)``, lazy as in Python: each ``next()`` takes one item of each
    iterator, in order, and only then calls ``fn`` (inlined), so ``fn``'s side effects and
    the iterators' happen in Python's order; after a graph break the glue rebuilds it as
    ``map(fn, *iterators)`` over what is left of them."""

    def __init__(self, fn: Variable, iterators: list[IteratorVariable]):
        self.fn, self.iterators = fn, iterators

    def describe(self) -> str:
        return "map object"

    def python_type(self) -> type:
        return map

    def next(self, tx) -> Variable | None:
        args = []
        for it in self.iterators:
            item = take(tx, it)
            if item is None:
                return None
            args.append(item)
        return tx.call_function(self.fn, args, {})

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: f"{cg.const(map)}({cg.value(v.fn)}, "
                          + ", ".join(cg.value(i) for i in v.iterators) + ")")


class FilterVariable(IteratorVariable):
    """``filter(fn, iterable)``, lazy as in Python (see ``MapVariable``)."""

    def __init__(self, fn: Variable, iterator: IteratorVariable):
        self.fn, self.iterator = fn, iterator

    def describe(self) -> str:
        return "filter object"

    def python_type(self) -> type:
        return filter

    def next(self, tx) -> Variable | None:
        while (item := take(tx, self.iterator)) is not None:
            keep = item if is_none(self.fn) else tx.call_function(self.fn, [item], {})
            if keep.truth(tx):
                return item
        return None

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: f"{cg.const(filter)}({cg.value(v.fn)}, "
                          f"{cg.value(v.iterator)})")


def is_none(var: Variable) -> bool:
    return isinstance(var, ConstantVariable) and var.value is None


@handles(map)
def _map(tx, fn, *its):
    if not its:
        raise TypeError("map() must have at least two arguments.")
    return MapVariable(fn, [tx.get_iter(i) for i in its])   # iter() of each, in order


@handles(filter)
def _filter(tx, fn, it):
    return FilterVariable(fn, tx.get_iter(it))


@handles(sum)
def _sum(tx, it, start=None):
    """Each item added as it comes, as CPython's ``sum`` does: a generator's next item
    is made only after the previous one was added (``sum(np.roll(x, i) for i in ...)``
    holds one array at a time, and user ``__add__`` methods run in Python's order).

    CPython adds a front run of Python numbers in C (from 3.12 with compensated float
    rounding) and only the items from the first of another type on with ``+``. So a
    front run of constant numbers is summed by the builtin itself, here
    (``sum((0.1 for _ in range(10)), 0.0)`` is 1.0 on 3.12, not 0.9999999999999999),
    and a changing number in a float run breaks (``_compensated``)."""
    window = reduced(tx, sum, it) if start is None else None
    if window is not None:      # (a window of floats: the call sums it, see float_windows)
        return window
    numbers = _number_total(it, start)
    if numbers is not None:
        return numbers
    total = ConstantVariable(0) if start is None else start
    front = [] if _number(total) else None    # the front run, not added yet
    for item in iterate(tx, it):
        if front is not None:
            if _number(item):
                front.append(item.value)
                continue
            _compensated(item, [total.value, *front])
            total, front = ConstantVariable(sum(front, total.value)), None
        total = tx.binary_op("add", total, item)
    return total if front is None else ConstantVariable(sum(front, total.value))


def _number(var) -> bool:
    """A constant Python number (not a changing one): the builtin adds it exactly as
    the running program's ``sum`` would."""
    return isinstance(var, ConstantVariable) and type(var.value) in (int, float, bool, complex)


def _compensated(item, front: list) -> None:
    """Break where ``item``, a number that changes between calls, joins a run that
    holds a float: from 3.12 CPython's ``sum`` adds it with compensated rounding,
    which adding one at a time would miss in the last bit."""
    changing = isinstance(item, ConstantVariable) and isinstance(item.value, Symbolic) \
        or isinstance(item, SizeTruthVariable)   # (len(seg) > 0: an int the graph makes)
    floats = isinstance(getattr(item, "value", None), SymFloat)
    if pyversion.SUM_COMPENSATES and changing and \
            (floats or any(type(v) is float for v in front)):
        raise Unsupported("sum() of floats where one changes between calls (Python adds "
                          "them with compensated rounding)")


def _number_total(it, start) -> ConstantVariable | None:
    """``sum`` of a list or tuple of Python numbers (no start): the builtin's own sum,
    which from 3.12 compensates float rounding, so adding one by one would differ in
    the last bit (``sum([0.1] * 10)`` is 1.0 there). Folded for constants; for changing
    floats a changing float whose expression is ``sum((...))`` (``scalars.total``)."""
    if start is not None or not isinstance(it, SequenceVariable):
        return None
    items = it.items
    if not all(isinstance(v, ConstantVariable) for v in items):
        return None
    values = [v.value for v in items]
    if all(type(v) in (int, float, bool) for v in values):
        return ConstantVariable(sum(values)) if any(type(v) is float for v in values) \
            else None
    value = total(values)
    return None if value is None else ConstantVariable(value)


def _minmax(name, op):
    """``max``/``min`` as CPython's min_max: items taken one at a time, each (or its
    ``key``) compared with the best so far by ``>`` (``<`` for min), the first of equal
    items kept. The comparisons are rich comparisons (user methods are inlined)."""
    def handler(tx, *args, key=None, default=None):
        if not args or (default is not None and len(args) > 1):
            raise Unsupported(f"{name}() with these arguments (raises TypeError)")
        if len(args) > 1:   # max(float(loss), 1.0): chosen when the graph runs
            args = tuple(as_graph_number(tx, a) for a in args)
        chosen = None
        if key is None and default is None:   # max(seg.size, 1): picked by the graph
            chosen = size_choice(tx, max if name == "max" else min, list(args))
        if chosen is None and key is None and default is None:   # (min(n, 7), n changing)
            chosen = changing_choice(tx, max if name == "max" else min, list(args))
        if chosen is None:
            chosen = _symbolic_choice(name, args, key, default)
        if chosen is None and len(args) == 1 and key is None and default is None:
            chosen = reduced(tx, max if name == "max" else min, args[0])
        if chosen is not None:
            return chosen
        items = iterate(tx, args[0]) if len(args) == 1 else iter(args)
        best = best_key = None
        for item in items:
            if isinstance(item, ArrayVariable) or isinstance(best, ArrayVariable):
                best = best_key = _select(tx, name, op, item, best, key)
                continue
            item_key = item if key is None or is_none(key) else \
                tx.call_function(key, [item], {})
            if best is None or tx.compare(op, item_key, best_key).truth(tx):
                best, best_key = item, item_key
        if best is None:
            if default is not None:
                return default
            raise Unsupported(f"{name}() of an empty sequence (raises ValueError)")
        return best
    return handler


def _symbolic_choice(name, args, key, default) -> ConstantVariable | None:
    """``min(a, b, ...)`` / ``max`` of Python floats, one of them a changing number (a
    SymFloat, ``scalars.choose``): a changing float too, chosen when the graph runs,
    instead of a comparison that would pin the number to this call's value
    (``lr = base * min(1.0, (step + 1) / warmup)``: one entry for every step)."""
    if len(args) < 2 or default is not None or not (key is None or is_none(key)):
        return None
    if not all(isinstance(a, ConstantVariable) for a in args):
        return None
    value = choose(min if name == "min" else max, [a.value for a in args])
    return None if value is None else ConstantVariable(value)


HANDLERS[max] = _minmax("max", "greater")
HANDLERS[min] = _minmax("min", "less")


def _select(tx, name: str, op: str, item: Variable, best: Variable | None,
            key: Variable | None) -> Variable:
    """One step of ``max``/``min`` where an array is involved: Python keeps ``best``
    unless ``item > best`` (``<`` for min), a test on array data. As a graph op it is
    ``where(item > best, item, best)``, which equals Python's answer in value, dtype and
    type only for NumPy scalars of one dtype (NaN, -0.0 and ties included); for
    anything else (a 0-d array, whose identity the program may observe; a Python
    number; another dtype) it is a graph break."""
    if best is None and (key is None or is_none(key)):
        return item                  # the first item: nothing to compare yet
    why = _not_selectable(item, best, key)
    if why is not None:
        ufunc = "maximum" if name == "max" else "minimum"
        error = Unsupported(f"{name}() of arrays compares array data: {why}",
                            f"Which argument Python's {name}() returns depends on array "
                            "values, known only when the program runs.",
                            hint=f"use np.{ufunc}(a, b) (or np.f{ufunc[:3]} to skip NaN)",
                            cause="data_dependent")
        if ChosenNumberVariable.applies(item, best, key):
            return ChosenNumberVariable(name, op, best, item, error,
                                        _taken_now(tx, op, item, best, error))
        raise error
    return _where(tx, op, item, best)


def _taken_now(tx, op: str, item: Variable, best: Variable,
               error: Unsupported) -> Variable | None:
    """``item > best`` (``<`` for min) in the graph, where a candidate is a 0-d array:
    its memory may be written later in the graph (``z = u[..., 0]; m = max(z, 0.5);
    u[0] = 100``), and Python chose by the value it had at the call. None for a NumPy
    scalar, whose value cannot change (the glue compares it after the graph)."""
    if all(not isinstance(v, ArrayVariable) or v.meta.scalar for v in (item, best)):
        return None
    try:
        return tx.compare(op, item, best)
    except Unsupported:
        raise error from None


def _where(tx, op: str, item: Variable, best: Variable) -> ArrayVariable:
    """``where(item > best, item, best)[()]`` (``<`` for min) in the graph."""
    take_item = tx.compare(op, item, best)
    chosen = tx.output.call_op(ops.get("where"), [take_item, item, best], {})
    return tx.getitem(chosen, ConstantVariable(()))   # the 0-d result as a NumPy scalar


class ChosenNumberVariable(DeferredNumberVariable):
    """``min(c, s)`` / ``max(c, s)`` of a Python number ``c`` and a NumPy scalar ``s``
    (or a 0-d array, issue #19; either order): Python returns ``c`` itself or ``s``
    itself, as the data decides, so the result's *type* is data:
    ``min(1.0, clip / norm)`` is a float or an ``np.float64``. No graph value can be
    both, but two uses need no break:

    - returned or stored, the glue makes Python's own choice after the graph has run,
      ``b if b < a else a`` (``>`` for max; ``a`` the first argument), on ``c`` and the
      graph's ``s``: the very object, exactly;
    - as an operand of an arithmetic operator whose other operand is a NumPy array or
      scalar, when that operation gives one result dtype and type for ``c`` (a weak
      Python number) and for ``s``'s dtype, and ``c`` converts to that dtype exactly:
      ``g * min(1.0, r)`` for a float64 ``g``, ``x.sum(0) / max(cnt, 1)``. The
      operand is then the graph's select ``where(b < a, b, a)[()]`` (``resolve``), which
      holds the chosen value in ``s``'s dtype, so the operation computes the same;
    - as an operand of a comparison whose other operand is a NumPy array or scalar of
      ``s``'s own dtype (the running best of an unrolled loop, ``best = -1.0``, then
      ``if acc > best: best = acc`` with ``acc`` an ``np.float64``, trip after trip):
      NumPy compares the weak ``c`` in that dtype, where it is exact, so the select
      compares the same and gives the same ``np.bool_`` (issue #19). Another dtype
      (``np.float32(x) < best``) could compare ``c`` rounded: a break.

    Any other use (a branch, formatting, an array op's argument, a float32 array times
    a float) needs the choice while tracing: it breaks there, with the reason of
    ``min()`` itself (``needed``).

    Example: ``g * min(1.0, clip / (np.linalg.norm(g) + 1e-12))`` of a float64 ``g``
    is one graph: ``multiply(g, where(less(r, 1.0), r, 1.0)[()])``.
    """

    def __init__(self, name: str, op: str, first: Variable, second: Variable,
                 error: Unsupported, taken: Variable | None = None):
        scalar = first if isinstance(first, ArrayVariable) else second
        super().__init__(None, scalar)
        self.name, self.op, self.first, self.second, self.error = \
            name, op, first, second, error
        # ``second > first`` as the graph computed it at the call (a 0-d array
        # candidate, ``_taken_now``), or None: the glue compares after the graph
        self.taken = taken

    @staticmethod
    def applies(item: Variable, best: Variable | None, key: Variable | None) -> bool:
        """Two candidates, one a Python int or float (not a bool), the other a NumPy
        scalar or 0-d NumPy array of a number dtype, no ``key``. (For a 0-d array the
        glue's choice returns that very array; ``resolve`` never stands in for it.)"""
        if best is None or (key is not None and not is_none(key)):
            return False
        pair = (item, best)
        scalar = [v for v in pair if isinstance(v, ArrayVariable)]
        number = [v for v in pair if isinstance(v, ConstantVariable)]
        return len(scalar) == 1 and len(number) == 1 and _selectable(scalar[0], zero_d=True) \
            and scalar[0].meta.dtype.kind in "iuf" and \
            type(number[0].as_python_constant()) in (int, float)

    def describe(self) -> str:
        return f"the result of {self.name}() of a Python number and a NumPy scalar"

    def python_type(self) -> type:
        raise self.needed()

    def needed(self) -> Unsupported:
        again = copy.copy(self.error)     # min()'s own break, raised where it is used
        again.location = None
        return again

    def reconstruct(self, cg) -> str:
        a, b = cg.value(self.first), cg.value(self.second)
        if self.taken is not None:
            return f"({b} if {cg.value(self.taken)} else {a})"
        test = "<" if self.name == "min" else ">"
        return f"({b} if {b} {test} {a} else {a})"

    def resolve(self, tx, name: str, other: ArrayVariable, self_first: bool):
        """The graph's select standing for this choice as an operand of ``name`` with
        ``other``, or None when the two candidates would compute differently there."""
        fn = _ARITHMETIC.get(name) or _COMPARED.get(name)
        if not self.snapshot.meta.scalar:
            return None   # a 0-d array candidate: only Python's own choice, after the graph
        if fn is None or other.meta.kind != ops.NUMPY or other.meta.dtype.kind not in "biuf":
            return None
        number = (self.first if isinstance(self.first, ConstantVariable)
                  else self.second).as_python_constant()
        dtype = self.snapshot.meta.dtype
        if name in _COMPARED and other.meta.dtype != dtype:
            return None   # (c would be compared in the other dtype, maybe rounded)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                if np.array(number, dtype=dtype).item() != number:
                    return None       # c is not exactly a value of s's dtype
                if np.where(True, dtype.type(number), number).dtype != dtype:
                    return None       # the select promotes (np.bool_ and 1: int64)
                probe = other.meta.dtype.type(1) if other.meta.scalar else \
                    np.ones(1, other.meta.dtype)
                weak, strong = ((fn(c, probe) if self_first else fn(probe, c))
                                for c in (number, dtype.type(number)))
            except Exception:  # noqa: BLE001 (NumPy refuses one of them: break)
                return None
        if type(weak) is not type(strong) or np.asarray(weak).dtype != \
                np.asarray(strong).dtype:
            return None
        return self._select(tx)

    def _select(self, tx) -> ArrayVariable:
        """The graph's select of the two candidates, as a NumPy scalar."""
        return _where(tx, self.op, self.second, self.first)

    def integer_index(self, tx) -> ArrayVariable | None:
        """The graph's select standing for this choice as an array index, or None.
        ``X[min(idx, n - 1)]`` of an ``np.intp`` ``idx`` and a Python int: NumPy indexes
        with either the same way (a basic index: the same view, element and
        ``IndexError``), so the select, an integer NumPy scalar holding the chosen
        value, stands for the object Python picks. Only a Python int that is exactly
        a value of the scalar's integer dtype (not a float, not a bool)."""
        number = self.first if isinstance(self.first, ConstantVariable) else self.second
        dtype = self.snapshot.meta.dtype
        value = number.as_python_constant() if isinstance(number, ConstantVariable) else None
        if type(value) is not int or dtype.kind not in "iu" or not self.snapshot.meta.scalar:
            return None
        info = np.iinfo(dtype)
        return self._select(tx) if info.min <= value <= info.max else None


class BranchChoiceVariable(ChosenNumberVariable):
    """The value an ``if`` on array data joins from a NumPy scalar one way and a Python
    number (or ``None``) the other (``translator/branch_selects.py``): ``p = tp / d if d
    > 0 else 0.0`` is an ``np.float64`` or the float ``0.0`` as the data decides, so its
    type is data, as for ``min(1.0, r)`` (the base class). Returned or stored, the glue
    picks after the graph, ``(s if flag else c)``: the very object the program's own
    ``if`` gives. Beside an array, where both candidates compute the same, the graph's
    ``where(flag, s, c)[()]`` stands for it (``resolve``); any other use breaks there
    with the ``if``'s reason, ``v is None`` too where ``c`` is None (``may_be_none``).

    Example::

        >>> v = BranchChoiceVariable(greater, divide, ConstantVariable(0.0), error)
        >>> v.reconstruct(cg)
        '(___o1 if ___o0 else 0.0)'
    """

    def __init__(self, flag: ArrayVariable, if_true: Variable, if_false: Variable,
                 error: Unsupported):
        super().__init__("if", "", if_false, if_true, error, taken=flag)
        self.may_be_none = any(is_none(v) for v in (if_true, if_false))

    @staticmethod
    def joins(a: Variable, b: Variable) -> bool:
        """A NumPy scalar of a number or bool dtype and a Python int, float or ``None``
        (not a bool: ``x.any() if n else False`` is rarely a number), either order."""
        scalar = [v for v in (a, b) if isinstance(v, ArrayVariable)]
        other = [v for v in (a, b) if isinstance(v, ConstantVariable)]
        if len(scalar) != 1 or len(other) != 1 or \
                not isinstance(scalar[0].meta, ops.ArrayMeta):
            return False
        m = scalar[0].meta
        return m.scalar and m.kind == ops.NUMPY and m.dtype.kind in "biufc" and \
            type(other[0].value) in (int, float, type(None))

    def describe(self) -> str:
        return "the value an `if` on array data chose from a NumPy scalar and a Python value"

    def resolve(self, tx, name: str, other: ArrayVariable, self_first: bool):
        number = self.first if isinstance(self.first, ConstantVariable) else self.second
        if type(number.value) not in (int, float):
            return None   # None: Python's TypeError on the way that holds it
        return super().resolve(tx, name, other, self_first)

    def _select(self, tx) -> ArrayVariable:
        chosen = tx.output.call_op(ops.get("where"), [self.taken, self.second, self.first],
                                   {})
        return tx.getitem(chosen, ConstantVariable(()))


# The binary operators whose operand may be a ChosenNumberVariable's select.
_ARITHMETIC = {name: BINARY[name] for name in
               ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow")}
# The comparisons whose operand may be one (of the select's own dtype only: ``resolve``).
_COMPARED = {name: BINARY[name] for name in
             ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal")}


def resolve_chosen(tx, name: str, a: Variable, b: Variable) -> tuple[Variable, Variable]:
    """``a``, ``b`` with a ``ChosenNumberVariable`` beside an array replaced by its
    select where that computes exactly what Python's choice would (see the class);
    unchanged otherwise (the later use then breaks with min()'s reason)."""
    if isinstance(a, ChosenNumberVariable) and isinstance(b, ArrayVariable):
        a = a.resolve(tx, name, b, self_first=True) or a
    elif isinstance(b, ChosenNumberVariable) and isinstance(a, ArrayVariable):
        b = b.resolve(tx, name, a, self_first=False) or b
    return a, b


def _selectable(var: Variable, zero_d: bool = False) -> bool:
    """A NumPy scalar (or, with ``zero_d``, a 0-d NumPy array: ``ChosenNumberVariable``
    returns the very object) of a numeric or bool dtype."""
    return isinstance(var, ArrayVariable) and \
        (var.meta.scalar or (zero_d and var.meta.shape == ())) and \
        var.meta.kind == ops.NUMPY and var.meta.dtype.kind in "biuf"


def _not_selectable(item: Variable, best: Variable | None, key: Variable | None):
    """Why ``where`` cannot stand for Python's choice between ``item`` and ``best``, or
    None when it can."""
    if key is not None and not is_none(key):
        return "with key="
    for v in (best, item):
        if isinstance(v, ArrayVariable) and not v.meta.scalar:
            return "an array (not a NumPy scalar) is returned as itself"
    if not (isinstance(item, ArrayVariable) and isinstance(best, ArrayVariable)):
        return f"{best.describe()} and {item.describe()} have different types"
    if not (_selectable(item) and _selectable(best)):
        return "only NumPy scalars of numbers are selected in the graph"
    if item.meta.dtype != best.meta.dtype:
        return (f"the candidates have different dtypes ({best.meta.dtype}, "
                f"{item.meta.dtype})")
    return None


@handles(any)
def _any(tx, it):
    # stops at the first true item: a generator's later items (and effects) never happen
    return ConstantVariable(any(v.truth(tx) for v in iterate(tx, it)))


@handles(all)
def _all(tx, it):
    return ConstantVariable(all(v.truth(tx) for v in iterate(tx, it)))
