"""Wrap a real value from outside the trace into a Variable, and guard what it is.

``wrap(tx, value, source)`` is the only place where real objects enter the trace.
It installs the guards that make the trace valid for this value (array meta, type
and value of constants, identity of functions and modules, length of sequences...),
and returns the same Variable for the same source every time. An array, list, dict
or user object reached through two sources is one Variable too (guarded ``is``, see
``OutputGraph.input_alias``), so a write through one name is seen through the other.

Example::

    >>> wrap(tx, np.zeros((3, 4), "f4"), LocalSource("x"))
    ArrayVariable(placeholder x, float32[3, 4])     # guard: L['x'] ndarray float32[3, 4]
"""

from __future__ import annotations

import collections
import functools
import logging
import types
from typing import Any

import numpy as np

from dynamo.guards import (
    CONSTANT,
    DICT_KEYS,
    EXPR,
    ID,
    LENGTH,
    TYPE,
    AsArraySource,
    AttrSource,
    ClosureSource,
    GlobalSource,
    Guard,
    IndexedItemSource,
    ItemSource,
    LocalSource,
    Source,
    StoredItemSource,
)
from dynamo.guards.type_slots import (
    is_builtin_class,
    name_of,
    qualname_of,
    type_module,
)

from .. import ops
from ..exc import Unsupported
from .base import Variable
from .changing_ranges import changing_range, is_long_range
from .constant import BuiltinVariable, ConstantVariable, NumericInfoVariable, is_pure_constant
from .dask_arrays import is_dask_array, wrap_dask_array
from .data_tuples import data_tuple
from .deques import DequeVariable
from .dicts import DefaultDictVariable, DictVariable
from .functions import (
    CompiledFunctionVariable,
    PartialVariable,
    UserFunctionVariable,
    UserMethodVariable,
)
from .library_calls import LibraryFunctionVariable
from .lifetimes import visible_ends_held
from .list_windows import WindowSource, WindowVariable, window_of
from .loggers import LoggerVariable
from .named_tuples import NamedTupleVariable, is_namedtuple_class
from .objects import (
    ClassVariable,
    ModuleVariable,
    ObjectVariable,
    TypeSource,
)
from .opaque import OpaqueVariable
from .polynomials import Poly1dVariable
from .random_objects import RandomObjectVariable
from .scalar_inputs import check_scalar_input
from .sequences import ListVariable, TupleVariable
from .sets import spelled_key
from .stacked_lists import stacked_rows_input
from .text_items import check_text_item, iterated_text, note_text_list
from .text_iterators import ChangingTextVariable
from .unread_dicts import UnreadDefaultDictVariable, UnreadDictVariable
from .unread_ordered_dicts import UnreadOrderedDictVariable
from .unread_sets import UnreadSetVariable
from .value_kinds import (
    bound_builtin_method,
    compiled_function,
    comprehension_of_this_frame,
    is_plain_object,
    own_getattribute,
)


def is_array(value: Any) -> bool:
    if isinstance(value, np.ndarray | np.generic):
        return True
    return type_module(value).startswith("cupy") and name_of(type(value)) == "ndarray"


# How deep inside an input (items of items, attributes of attributes) values are traced
MAX_SOURCE_DEPTH = 64


def wrap(tx, value: Any, source: Source | None) -> Variable:
    """The Variable for ``value`` read from ``source``, guarded; one per source, and one
    per runtime object for arrays and mutable values."""
    out = tx.output
    if source is not None:
        if source.depth() > MAX_SOURCE_DEPTH:
            # (a tuple nested 2000 deep: wrapping it item by item would exhaust the
            # recursion limit inside dynamo; the rest of the frame runs as it is)
            raise Unsupported(f"a value nested more than {MAX_SOURCE_DEPTH} reads deep "
                              f"({source.name()[:80]}...)", cause="unsupported_value")
        known = out.input_vars.get(source)
        if known is not None:
            return known
        out.input_objects[source] = value
        # the same array, list, dict or user object under two names (f(l, l), an
        # argument that is also a global): one Variable, guarded `is`
        alias = out.input_alias(value, source)
        if alias is not None:
            out.input_vars[source] = alias
            return alias
    var = _wrap(tx, value, source)
    if source is not None:
        out.input_vars[source] = var
        out.register_input(value, var, source)
        if _is_nan(value):
            _guard_nan_identity(out, value, source)
    return var


def _is_nan(value: Any) -> bool:
    return type(value) in (float, complex) and value != value


def _guard_nan_identity(out, value: Any, source: Source) -> None:
    """A NaN is found in a list, a tuple or a dict only by identity (``k in [NAN]`` is
    True for that very object, False for any other NaN), and its value guard admits
    every NaN: guard it the same object as, or distinct from, each NaN input before it.

    Example: ``f(x, [NAN], NAN)`` then ``f(x, [NAN], float("nan"))``: the entry of the
    first call holds ``L['k'] is L['items'][0]``, so the second traces its own."""
    for other_source, other in out.input_objects.items():
        if other_source == source or not _is_nan(other):
            continue
        expr = f"{source.expr()} is {other_source.expr()}"
        on = source if source.depth() >= other_source.depth() else other_source
        same = other is value
        out.guards.add(Guard(on, EXPR, expr if same else f"not ({expr})",
                             note="one NaN under two names" if same else "distinct NaNs"))


def _guard(tx, source, kind, expected):
    """Guard ``source``; a value, length or key-set guard (a specialization) notes the
    line that read the value, which the recompile log names when the guard fails (a
    cache dict that gets its first key: ``L['self'].cache keys: expected [], got ['W']
    (read at adam.py:12: C = self.cache)``)."""
    if source is not None:
        where = tx.output.location() if kind in (CONSTANT, LENGTH, DICT_KEYS) else ""
        tx.output.guards.add(Guard(source, kind, expected,
                                   note=f"read at {where}" if where else ""))


def _symbolic_int(out, value: int, source: Source) -> Variable:
    """An int argument whose value changed between calls, as a symbol: guarded by type
    and to int64, a graph input where an op uses it, its runtime value where the glue
    rebuilds it, pinned (and guarded by value) where the trace needs it as a plain int.
    Used only as a value (arithmetic, an operand of an elementwise op) it has no other
    guard, so a counter from 0 serves every count from its second call on; used as a
    size it is guarded ``>= 2`` as sizes are (0 and 1 stay specialized: see
    ``ShapeEnv.new_symbol``). Float arithmetic on it (``0.9 ** t``) is a ``SymFloat``
    (see ``dynamo.symbolic.scalars``).

    Arguments, their items and attributes, and globals (``_rebuildable``)."""
    out.guards.add(Guard(source, TYPE, int))
    # NumPy types a Python int by its size (np.full(3, k), np.array([k]), np.asarray(k):
    # int64, then uint64 from 2**63, then object from 2**64; an int64 array + k raises
    # OverflowError): the trace typed k as int64, so the entry serves int64 values only
    out.guards.add(Guard(source, EXPR, f"{-_INT64_END} <= {source.expr()} < {_INT64_END}",
                         note="a dynamic int (NumPy types a larger int otherwise)"))
    return ConstantVariable(out.shape_env.new_symbol(source, value, "a dynamic int",
                                                     number=True), source)


_INT64_END = 2 ** 63


def _rebuildable(source: Source | None) -> bool:
    """Whether generated code may read a changing number from ``source`` when the call
    runs: the dispatcher's guards, the graph's inputs and the glue that rebuilds it (to
    return it, or pass it on) all read it again there. That holds for an argument of the
    frame, an item of its list or tuple, an attribute of either (``self.t``,
    ``self.lr``), a global of the function's module and an attribute of one
    (``config.LR``), and a closure cell of the compiled function (``nonlocal count``,
    read as ``___closure[i].cell_contents``): the glue computes every value it returns
    or writes before its first write back (``GlueCodegen.side_effects``), so
    ``self.t += 1``, ``STEP += 1`` or ``count += 1`` in the trace reads the value as it
    was when the frame started, as the trace did; so is a class attribute read through
    an instance's type (``type(self).n += 1``, ``class_writes``). A resume function's
    passed cells and library modules' attributes stay specialized."""
    while isinstance(source, ItemSource | AttrSource | IndexedItemSource | TypeSource |
                     WindowSource):
        source = source.base
    return isinstance(source, LocalSource | GlobalSource | ClosureSource)


def _item_at(tx, value: list, source: Source, changing: bool, index) -> Variable | None:
    """``lst[i]`` of a list the trace has not read, at a changing int ``i`` (a SymInt
    over sources of the frame): the item read from ``L['self'].lrs[L['self'].i]``
    alone, guarded as any value read there (a float that changes is a number), with
    the bounds ``-len(lst) <= i < len(lst)`` as decisions. A schedule kept as a list
    of floats and indexed by a step counter keeps one entry, not one per step. None
    (the items read, ``i`` pinned) out of bounds or for an index only the data
    decides."""
    env = tx.output.shape_env
    sym = index.sym
    if not sym.symbols or any(name not in env.symbols for name in sym.symbols):
        return None
    n = env.new_length(source, len(value)) if changing else len(value)
    if not (bool(index >= -n) and bool(index < n)):
        return None
    bases = [env.symbols[name] for name in sym.symbols]
    item = IndexedItemSource(source, sym.runtime(),
                             sym.render({name: env.symbols[name].name() for name in sym.symbols}),
                             max(b.depth() for b in bases))
    return wrap(tx, value[int.__int__(index)], item)


def _number_data(value: list | tuple, least: int = 2) -> bool:
    """A list (or tuple) NumPy reads as a 1-d int64 or float64 array of at least two items (0 and
    1 items stay specialized, as sizes do): all Python ints, or all Python floats (a
    fresh list of floats each call is one input, not one guarded symbol per item).
    ``least=1``: one item too (a window of a growing list, ``list_windows``: its one
    held item is joined to the appended ones, so its length need not be pinned)."""
    if len(value) < least:
        return False
    kind = type(value[0])
    return kind in (int, float) and all(type(v) is kind for v in value)


# What NumPy makes of a list of Python ints (one past 64 bits: not int64) or floats.
_DATA_DTYPES = (np.dtype(np.int64), np.dtype(np.float64))


def _list_data(tx, value: list, source: Source, least: int = 2):
    """A list of Python ints (or floats) whose length or items changed between calls, as
    the array data NumPy makes of it (``np.asarray(ids)``, one dimension of symbolic
    length): what an op that reads the list as array data takes (``wte[ids]``,
    ``np.array(ids)``; see ``OutputGraph.call_op``), so the entry serves every length and
    every item. None when NumPy would not make an int64 (float64) array of it (an int
    past 64 bits). ``least=1``: a length of 1 is symbolic too, for a reader that
    cannot broadcast it (``list_windows.appended_data`` joins it to the appended
    items)."""
    out = tx.output
    array_source = AsArraySource(source)
    known = out.input_vars.get(array_source)
    if known is not None:
        return known
    array = np.asarray(value)
    if array.dtype not in _DATA_DTYPES or array.ndim != 1:
        return None
    var = out.add_input(array, array_source, dynamic_dims=(0,), least=least)
    out.input_vars[array_source] = var
    return var


# How many items of an input's tuple or list are traced one by one, each its own input
# with its own guards; past it a tuple of numbers is one input (_long_tuple)
MAX_TRACED_ITEMS = 1_000
_PLAIN = frozenset({int, float, bool, complex, str, bytes, type(None)})


def _long_tuple(tx, value: tuple, source: Source) -> Variable:
    """A tuple of more than ``MAX_TRACED_ITEMS`` items, as one input: a tuple of Python
    numbers (or strings, None...) is guarded by one CONSTANT guard on the whole value
    (exact: each item's type and value, ``guards.render``), its items constants of the
    trace; any other raises ``Unsupported`` (the frame runs as it is, with a log line).

    Wrapped item by item, each item was an input with a guard or two: 100,000 items
    made 100,005 guards, 4.2 s of CPU for the first call and 10 ms a cached call, and
    each new entry as long again (issue #17); as one input, 4 guards, 0.11 s and 2 ms
    (``scripts/bench_long_tuples.py``).

        f(x, tuple(range(100_000)))    # one guard: L['t'] == (0, 1, ..., 99999)
    """
    if not all(type(v) in _PLAIN for v in value):
        raise Unsupported(f"a tuple of {len(value)} items (more than {MAX_TRACED_ITEMS}, "
                          f"not all Python numbers: traced item by item it is too slow)",
                          cause="unsupported_value")
    _guard(tx, source, CONSTANT, value)
    return TupleVariable([ConstantVariable(v) for v in value], source)


def _unread_list(tx, value: list, source: Source, changing: bool,
                 cls: type = ListVariable) -> ListVariable:
    """A list from outside the trace, unread (see ``ListVariable``); ``changing``: its
    length changed between calls (a window of one, ``list_windows``: always)."""
    out = tx.output
    note_text_list(out.shape_env.dynamic, value, source)   # (words: text_items.py)

    def read() -> list[Variable]:   # on the trace's first look at the items
        if len(value) > MAX_TRACED_ITEMS:   # (a list is written in place: no constants)
            raise Unsupported(f"the items of a list of {len(value)} items (more than "
                              f"{MAX_TRACED_ITEMS}: traced item by item it is too slow)",
                              cause="unsupported_value")
        _guard(tx, source, LENGTH, len(value))
        if changing or out.shape_env.dynamic.items_changed(source, value):  # (buffers, fresh)
            out.shape_env.dynamic.changed_tuples.add(source)
        return [wrap(tx, v, ItemSource(source, i)) for i, v in enumerate(value)]
    var = cls.unread(source, read)
    var.numbers_only = _number_data(value, 1)   # (no array in it: reach_arrays)
    window = cls is not ListVariable
    if window and _number_data(value, 1) and _rebuildable(source):
        # (one item held: data only where joined to appended items, list_windows)
        var.held_data = functools.partial(_list_data, tx, value, source, least=1)
    if _number_data(value) and _rebuildable(source) and \
            (window or out.shape_env.dynamic.is_dynamic_sequence(source, value)):
        var.data = functools.partial(_list_data, tx, value, source)
    if changing and (var.data is None or window):
        var.length = functools.cache(functools.partial(
            out.shape_env.new_length, source, len(value)))
        if value and all(type(v) is np.ndarray for v in value):
            var.rows = functools.partial(stacked_rows_input, tx, value, source)
    if changing or var.data is not None:   # (``sum(losses)``: see float_windows)
        var.live = value
    if _rebuildable(source):    # (``lrs[i]``: one item, see ListVariable.getitem)
        var.item_at = functools.partial(_item_at, tx, value, source, changing)
        var.visible_ends = functools.cache(functools.partial(_visible_ends, value, changing))
    if _rebuildable(source) and not changing:   # (``buf[pos] = t``: ``_set_unread``)
        var.fixed_length = functools.cache(functools.partial(_fixed_length, tx, value, source))
        if value and all(type(v) is np.ndarray for v in value):   # (``ring_rows``)
            var.ring_rows = functools.partial(stacked_rows_input, tx, value, source)
    if changing:    # (``tokens[-1]``: the last item alone, see ListVariable._from_end)
        var.held_length = functools.cache(functools.partial(
            out.shape_env.new_length, source, len(value)))
        var.item_from_end = functools.cache(
            lambda k: wrap(tx, value[k], ItemSource(source, k)))
        # (``window_of`` gets the list at the call, ``self.window(self, ...)``: a partial
        # holding ``var`` would be a cycle, and the real list would live until the cyclic
        # GC after the trace, its items' ``__del__`` late)
        var.window = functools.partial(window_of, functools.partial(_window, tx, value, source))
    return var


def _fixed_length(tx, value: list, source: Source) -> int:
    """The length of the list at ``source``, which did not change between calls,
    guarded (``LENGTH``): the bounds of an item set at an index (``_set_unread``)
    without reading, and guarding, its items."""
    _guard(tx, source, LENGTH, len(value))
    return len(value)


def _visible_ends(value: list, changing: bool = False) -> bool:
    """Does an item of ``value`` have an end the program sees now (a ``__del__``, a weak
    reference; held directly or in a tuple)? Then an item set at an index reads the
    items (``_set_unread``), so that the store is checked by ``break_at_drop``: the
    glue's store would drop it after the graph, not where the program's store does.
    A list of fixed length past ``MAX_TRACED_ITEMS`` counts as one that has; one whose
    length changed (a replay buffer of 10,000 transitions) is looked through, once
    per trace. (Not guarded: such an object put in later by code outside the trace is
    not seen.)

        >>> class Noisy:
        ...     def __del__(self): print("freed")
        >>> _visible_ends([1, (2, Noisy())]), _visible_ends([None] * 4)
        (True, False)
    """
    if len(value) > MAX_TRACED_ITEMS and not changing:
        return True
    return any(visible_ends_held(v) for v in value)


def _window(tx, value: list, source: Source, keep: int, step: int = 1) -> ListVariable:
    """The last ``keep`` items of the list ``value`` at ``source`` (every ``step``-th of
    them), as a list of its own, unread, of changing length (``list_windows``)."""
    held = WindowSource(source, keep, step)
    var = _unread_list(tx, value[-keep:][::step], held, True, WindowVariable)
    var.source, var.held_source = None, held
    return var


def _wrap(tx, value: Any, source: Source | None) -> Variable:
    out = tx.output
    if own_getattribute(value):
        # isinstance(value, C) would read value.__class__ through its __getattribute__
        # (code the program sees run): nothing below may look at it but by its type
        if source is None:
            raise Unsupported(f"an object of {qualname_of(type(value))}, which defines "
                              f"__getattribute__", cause="unsupported_value")
        _guard(tx, source, TYPE, type(value))
        return OpaqueVariable(value, source)
    if is_dask_array(value):     # a lazy array: a graph input too (see dask_arrays)
        return wrap_dask_array(tx, value, source)
    if is_array(value):
        if source is None:
            raise Unsupported("an array with no source (a constant array)")
        if isinstance(value, np.ndarray) and value.dtype.hasobject:
            raise Unsupported("arrays of Python objects are not traced")
        if isinstance(value, np.ndarray) and type(value) is not np.ndarray:
            raise Unsupported(f"ndarray subclass {qualname_of(type(value))}")
        check_scalar_input(value)   # (a subclass of a NumPy scalar, a record: see there)
        return out.add_input(value, source)
    if type(value) is np.poly1d and source is not None:
        # its coefficients are the input: an identity guard (a callable's) would miss
        # on every call of a program that makes a new polynomial each time
        _guard(tx, source, TYPE, np.poly1d)
        _guard(tx, AttrSource(source, "variable"), CONSTANT, value.variable)
        coeffs = wrap(tx, value.coeffs, AttrSource(source, "coeffs"))
        return Poly1dVariable(coeffs, value.variable, source)
    if type(value) is int and _rebuildable(source) and -_INT64_END <= value < _INT64_END and \
            out.shape_env.dynamic.is_dynamic_number(source, value):
        return _symbolic_int(out, value, source)
    if type(value) is float and _rebuildable(source) and \
            out.shape_env.dynamic.is_dynamic_number(source, value):
        out.guards.add(Guard(source, TYPE, float))
        return ConstantVariable(out.shape_env.new_number(source, value), source)
    if type(value) is str:   # (a string item that changed: text, read at a break)
        check_text_item(tx, value, source)
        if (why := iterated_text(tx, value, source)) is not None:   # (``for ch in text``)
            _guard(tx, source, TYPE, str)
            return ChangingTextVariable(value, source, why)
    if type(value) in (int, float, bool, str, type(None), complex, bytes) or \
            value is Ellipsis or value is NotImplemented:
        _guard(tx, source, CONSTANT, value)
        return ConstantVariable(value, source)
    if type(value) is range and _rebuildable(source) and is_long_range(tx, value, source) and \
            out.shape_env.dynamic.is_dynamic_number(source, value):
        return changing_range(out, value, source)   # (its bounds changed: changing ints)
    if isinstance(value, np.dtype | range | slice):
        _guard(tx, source, CONSTANT, value)
        return ConstantVariable(value, source)
    if isinstance(value, tuple) and type(value) is tuple:
        if source is not None and len(value) > MAX_TRACED_ITEMS:
            return _long_tuple(tx, value, source)
        _guard(tx, source, TYPE, tuple)
        if source is not None and _number_data(value) and _rebuildable(source) and \
                out.shape_env.dynamic.is_dynamic_sequence(source, value):
            return data_tuple(tx, value, source, wrap, _list_data)
        _guard(tx, source, LENGTH, len(value))
        if source is not None and _number_data(value) and _rebuildable(source):
            out.shape_env.dynamic.note_tuple(source, value)
        return TupleVariable([wrap(tx, v, ItemSource(source, i) if source else None)
                              for i, v in enumerate(value)], source)
    if is_namedtuple_class(type(value)):   # its class fixes the length and the fields
        _guard(tx, source, TYPE, type(value))
        return NamedTupleVariable([wrap(tx, v, ItemSource(source, i) if source else None)
                                   for i, v in enumerate(value)], type(value), source)
    if type(value) is list:
        _guard(tx, source, TYPE, list)
        if source is None:
            return ListVariable([wrap(tx, v, None) for v in value])
        return _unread_list(tx, value, source, _rebuildable(source) and
                            out.shape_env.dynamic.is_changing_length(source, value))
    if type(value) is collections.deque and source is not None:   # (see deques.py)
        return DequeVariable.wrap(tx, value, source, lambda v, at: wrap(tx, v, at),
                                  _rebuildable(source))
    if type(value) in (set, frozenset) and source is not None and _rebuildable(source) and \
            all(is_pure_constant(k) and spelled_key(k) for k in value):
        # read by the elements the trace touches, written back by the glue (unread_sets)
        _guard(tx, source, TYPE, type(value))
        return UnreadSetVariable(tx, value, source)
    if type(value) is dict:
        if not all(is_pure_constant(k) for k in value):
            raise Unsupported("a dict with non-constant keys")
        if source is not None and not all(spelled_key(k) for k in value):
            raise Unsupported("a dict key that generated code cannot write (nan, inf, a "
                              "NumPy scalar...)")
        _guard(tx, source, TYPE, dict)
        if source is not None and _rebuildable(source):   # (read by key: unread_dicts)
            return UnreadDictVariable(tx, value, source, wrap)
        _guard(tx, source, DICT_KEYS, tuple(value))
        return DictVariable({k: wrap(tx, v, ItemSource(source, k) if source else None)
                             for k, v in value.items()}, source)
    if type(value) is collections.OrderedDict and source is not None and \
            _rebuildable(source) and all(is_pure_constant(k) and spelled_key(k) for k in value):
        _guard(tx, source, TYPE, collections.OrderedDict)   # (by its keys: unread_ordered_dicts)
        return UnreadOrderedDictVariable(tx, value, source, wrap)
    if type(value) is collections.defaultdict:
        return _default_dict(tx, value, source)
    if type(value) is functools.partial:
        _guard(tx, source, TYPE, functools.partial)
        fn = wrap(tx, value.func, AttrSource(source, "func") if source else None)
        args = wrap(tx, value.args, AttrSource(source, "args") if source else None)
        kw = wrap(tx, value.keywords, AttrSource(source, "keywords") if source else None)
        return PartialVariable(fn, list(args.items), dict(kw.items), source)
    if isinstance(value, types.ModuleType):
        _guard(tx, source, ID, value)
        return ModuleVariable(value, source)
    if callable(value) and ops.lookup_function(value) is not None:
        _guard(tx, source, ID, value)  # dynamo.register_op(fn): one graph node, not inlined
        return LibraryFunctionVariable(value, source)
    if isinstance(value, types.FunctionType):
        if source is not None and comprehension_of_this_frame(tx, value):
            # a new function object on every call (3.11's list comprehensions, every
            # version's generator expressions), carried over a break: an identity
            # guard would miss on every call. Its code, globals and cells decide it
            _guard(tx, source, TYPE, types.FunctionType)
            tx.guard_identity(AttrSource(source, "__code__"), value.__code__)
            tx.guard_identity(AttrSource(source, "__globals__"), value.__globals__)
            return UserFunctionVariable(value, source, made_per_call=True)
        _guard(tx, source, ID, value)
        return UserFunctionVariable(value, source)
    if compiled_function(value) is not None:   # dynamo.compile(g) called from compiled code
        _guard(tx, source, ID, value)
        return CompiledFunctionVariable(value, source)
    if isinstance(value, types.MethodType) and isinstance(value.__func__, types.FunctionType):
        _guard(tx, source, TYPE, types.MethodType)
        fn_source = AttrSource(source, "__func__") if source else None
        self_source = AttrSource(source, "__self__") if source else None
        fn = wrap(tx, value.__func__, fn_source)
        return UserMethodVariable(fn, wrap(tx, value.__self__, self_source), source)
    if isinstance(value, type):
        _guard(tx, source, ID, value)
        if is_builtin_class(value) and not issubclass(value, BaseException):
            return BuiltinVariable(value, source=source)  # range, int, zip, list, ...
        return ClassVariable(value, source)
    if bound_builtin_method(value) and source is not None:
        # ``hist.append`` carried over a graph break (a resume function's input): a new
        # object every time it is read, so not guarded by identity; it is its object's
        # method, read as that object's attribute (the object guarded as any input)
        _guard(tx, source, TYPE, type(value))
        owner = wrap(tx, value.__self__, AttrSource(source, "__self__"))
        try:
            return tx.getattr(owner, value.__name__)
        except Unsupported:
            # an object the trace does not model (a deque): the method of whatever
            # object of that type the call brings, called as it is (a break)
            _guard(tx, AttrSource(source, "__name__"), CONSTANT, value.__name__)
            return BuiltinVariable(value, source=source)
    if isinstance(value, types.BuiltinFunctionType) and \
            not ops.is_array_library_object(value):
        _guard(tx, source, ID, value)
        return BuiltinVariable(value, source=source)
    if ops.is_array_library_object(value) and callable(value):
        _guard(tx, source, ID, value)
        return LibraryFunctionVariable(value, source)
    if ops.is_random_object(value) and source is not None:
        # a graph input: its methods are graph ops that take it first; any object of
        # the type serves (a fresh default_rng(seed) per call is one cache entry)
        _guard(tx, source, TYPE, type(value))
        return RandomObjectVariable(value, source)
    if isinstance(value, logging.Logger) and source is not None:
        _guard(tx, source, ID, value)   # its calls below the level vanish (see loggers)
        return LoggerVariable(value, source)
    if is_plain_object(value):
        _guard(tx, source, TYPE, type(value))
        return ObjectVariable(value, source)
    if type(value) in _NUMERIC_INFO and source is not None:
        # np.finfo / np.iinfo passed in: its attributes (eps, max, tiny, bits) are fixed
        # by its dtype, as for np.finfo(x.dtype) made in the trace: the same constant,
        # guarded by the object's exact type and its dtype (np.iinfo makes a new object
        # per call, so no identity guard: that would trace again on every call), and
        # each attribute read by its value (the program may write one: fi.eps = 0.5)
        _guard(tx, source, TYPE, type(value))
        _guard(tx, AttrSource(source, "dtype"), CONSTANT, value.dtype)
        return NumericInfoVariable(value, source)
    if source is None:
        raise Unsupported(f"values of type {qualname_of(type(value))} are not traced",
                          cause="unsupported_value")
    _guard(tx, source, TYPE, type(value))
    return OpaqueVariable(value, source)


# Objects NumPy makes per dtype whose attributes are the dtype's numbers (fi.eps, ii.max)
_NUMERIC_INFO = (np.finfo, np.iinfo)


def _default_dict(tx, value: collections.defaultdict, source: Source | None) -> Variable:
    """A ``collections.defaultdict``: guarded as a dict is (type; its keys as the trace
    touches them, ``unread_dicts``, or in order where not rebuildable), its
    items read as stored (``StoredItemSource``: ``d.get(k)``, so that no check runs the
    factory), and its ``default_factory`` wrapped, guarded by identity, only when the
    trace reads a missing key (``DefaultDictVariable``)."""
    if not all(is_pure_constant(k) for k in value):
        raise Unsupported("a defaultdict with non-constant keys")
    if source is not None and not all(spelled_key(k) for k in value):
        raise Unsupported("a dict key that generated code cannot write (nan, inf, a "
                          "NumPy scalar...)")
    _guard(tx, source, TYPE, collections.defaultdict)
    factory_source = AttrSource(source, "default_factory") if source else None
    if source is not None and _rebuildable(source):   # (read by key: unread_dicts)
        return UnreadDefaultDictVariable(
            tx, value, source, wrap, lambda: wrap(tx, value.default_factory, factory_source))
    _guard(tx, source, DICT_KEYS, tuple(value))
    return DefaultDictVariable(
        {k: wrap(tx, v, StoredItemSource(source, k) if source else None)
         for k, v in value.items()},
        lambda: wrap(tx, value.default_factory, factory_source), source)


__all__ = ["is_array", "wrap"]

