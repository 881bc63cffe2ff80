"""Python builtins, modelled one by one: ``len``, ``isinstance``, ``range``, ``zip``...

Each handler takes the translator and the call's Variables and returns a Variable.
A builtin without a handler runs at trace time when it is pure and every argument
is a constant (``math.sqrt(2.0)``, ``"a,b".split(",")``); otherwise it is a graph break.

Example::

    >>> call_builtin(tx, BuiltinVariable(len), [TupleVariable([a, b])], {}).value
    2
"""

from __future__ import annotations

import abc
import collections
import functools
import math
import operator
import sys
import types
from contextlib import nullcontext
from dataclasses import dataclass

from dynamo.guards import CONSTANT, Guard, Source
from dynamo.guards.type_slots import dict_of, mro_of, qualname_of

from .. import hash_order, ops
from ..exc import Unsupported
from ..symbolic import SymInt
from ..symbolic.math_calls import round_call
from . import combinatoric, conversions, made_deques  # noqa: F401 (their handlers: itertools, int, deque)
from .arrays import ArrayVariable, DeferredNumberVariable
from .base import BoundBuiltinMethod, Variable
from .builtin_call_breaks import next_of_untraced, unmodelled_call
from .constant import (
    BuiltinVariable,
    ConstantVariable,
    check_size,
    compares_in_c,
    constant_len,
    raw,
    symbolic_math,
    symbolic_number,
    symbolic_range,
)
from .deques import DequeVariable
from .dicts import DefaultDictVariable, DictVariable, DictViewVariable
from .formatted import join_texts
from .formatted_calls import format_method, formatted_builtin
from .functions import BaseFunctionVariable, PartialVariable, fold
from .graph_numbers import as_graph_number
from .iteration import HANDLERS, handles, iterate
from .iterators import (
    EnumerateVariable,
    IteratorVariable,
    ZipVariable,
    get_iterator,
    reversed_iterator,
    take,
)
from .objects import (
    ClassVariable,
    ExceptionVariable,
    ObjectVariable,
    TypeSource,
)
from .polynomials import Poly1dVariable
from .sequences import ListVariable, SequenceVariable, TupleVariable, wrap_constant
from .sets import SetVariable, merged_operand, operand_recipe, set_elements
from .size_values import size_abs

# HANDLERS: one table with iteration.py's (map, filter, sum, max, min, any, all), which
# ``handles`` fills


# Builtins that are pure on constant arguments.
_PURE = {abs, all, any, ascii, bin, bool, callable, chr, complex, divmod, float, format, hash,
         hex, int, len, max, min, oct, ord, pow, repr, round, sorted, str, sum, tuple,
         frozenset, slice, range}
_PURE_MODULES = ("math", "operator", "cmath")

# The cause of the break at a call that returns a frame of the running code: the rest
# of the frame runs eagerly in that same frame (an island, see translator/frames.py),
# so its f_locals and f_lineno are the program's own, as in plain Python.
FRAME_CAPTURE = "frame_capture"

_CAUSES = {print: ("print", "print() writes output, which must happen when the program "
                   "runs, in order", "it runs eagerly at a graph break; move it out of "
                   "hot code to keep one graph"),
           sys._getframe: (FRAME_CAPTURE, "The frame object it returns shows the running "
                           "frame's locals and line, which only the program's own frame "
                           "has.", "the rest of the function runs uncompiled; read what "
                           "you need from the frame outside the compiled function"),
           vars: ("unsupported_call", "vars(obj) is the object's own __dict__, live: the "
                  "translator does not model it as a dict (a write through it, or to the "
                  "object, must reach the other)", "read the attributes by name (self.W, "
                  "self.b), or keep the arrays in a dict attribute (self.params = "
                  "{'W': ...}) and read that; or accept the graph break")}


# Builtins that turn a value into text: of an array, the text needs its data.
_FORMATTERS = (str, repr, ascii, format)


def call_builtin(tx, var: BuiltinVariable, args: list[Variable], kwargs: dict) -> Variable:
    fn = var.fn
    handler = HANDLERS.get(fn)
    if handler is not None:
        return handler(tx, *args, **kwargs)
    if fn in (str, repr) and len(args) == 1 and not kwargs and \
            isinstance(args[0], ExceptionVariable):
        return args[0].text(fn)   # `except ValueError as e: msg = str(e)`
    if fn in (str, repr) and len(args) == 1 and not kwargs and \
            isinstance(args[0], ObjectVariable):
        return args[0].text(tx, fn)   # the class's own __str__ / __repr__, inlined
    if _is_text_join(fn) and len(args) == 1 and not kwargs and \
            isinstance(args[0], IteratorVariable):
        args = [_drained(tx, args[0])]
    if _is_text_join(fn) and type(fn.__self__) is str and len(args) == 1 and not kwargs \
            and isinstance(args[0], SequenceVariable):   # rows of formatted texts
        text = join_texts(fn.__self__, args[0].items)
        if text is not None:
            return text
    constant_args = all(_constant_like(a) for a in [*args, *kwargs.values()])
    pure = var.pure_method or fn in _PURE or getattr(fn, "__module__", None) in _PURE_MODULES
    if pure and constant_args:
        number = None if kwargs else symbolic_math(tx, fn, args)
        return fold(fn, args, kwargs) if number is None else number
    if _is_str_format(fn):   # "{:8.3f}".format(v) of a traced v: formatted by the glue
        text = format_method(tx, fn.__self__, args, kwargs)
        if text is not None:
            return text
    if fn in _CAUSES:
        cause, why, hint = _CAUSES[fn]
        error = Unsupported(f"call to {fn.__name__}()", why, hint, cause=cause)
        if fn is print and tx.config.defer_prints and hasattr(tx, "defer_print"):
            # replayed by the glue after the graph, or ``error``
            return tx.defer_print(args, kwargs, error)
        raise error
    if fn in _FORMATTERS and any(isinstance(a, ArrayVariable) for a in args):
        text = formatted_builtin(tx, fn, args, kwargs)
        if text is not None:
            return text   # str(v), format(v, ".2f"): made by the glue, as f"{v}" is
        raise Unsupported(f"{fn.__name__}() of an array formats array data",
                          "The text depends on array values, known only when the program "
                          "runs.", hint="format the result after the compiled call, or "
                          "accept the graph break", cause="array_to_python")
    raise unmodelled_call(fn, args)   # (its reason and hint fit the call)


def _is_str_format(fn) -> bool:
    """``fmt.format`` of a str constant (a bound builtin method)."""
    return getattr(fn, "__name__", None) == "format" and \
        type(getattr(fn, "__self__", None)) is str


def _is_text_join(fn) -> bool:
    """``sep.join`` of a str or bytes separator (a bound builtin method)."""
    return getattr(fn, "__name__", None) == "join" and \
        type(getattr(fn, "__self__", None)) in (str, bytes)


def _drained(tx, iterator: IteratorVariable) -> ListVariable:
    """The items of an iterator (a generator expression, ``map``), taken in order.

    ``"x".join(str(s) for s in x.shape)``: CPython's ``str.join`` first makes a list of
    its whole argument (``PySequence_Fast``), then checks and joins the items, so taking
    every item before the fold runs the generator's code in the same order and just as
    often; a non-str item then raises join's own TypeError in the fold.
    """
    return ListVariable(list(iterate(tx, iterator)))


def _constant_like(v: Variable, _open: frozenset = frozenset()) -> bool:
    """A constant, or a list/tuple of constants (a pure call gets a fresh copy of it),
    that a builtin can take at trace time: comparing or hashing it runs no user code.
    A list that holds itself (``log.append(log)``) is not one: ``_open``, the lists
    looked into, ends the walk there (it recursed without end: a RecursionError)."""
    if v.is_constant():
        return compares_in_c(raw(v))
    if not isinstance(v, SequenceVariable) or id(v) in _open:
        return False
    return all(_constant_like(i, _open | {id(v)}) for i in v.items)


def _type_of(tx, v: Variable) -> type:
    return v.python_type()


@handles(range)
def _range(tx, *args, **kw):
    """A range of symbolic ints stays symbolic until something reads it (see
    ``SymRangeVariable``); any other range is folded."""
    result = None if kw else symbolic_range(list(args))
    return result if result is not None else fold(range, list(args), kw)


@handles(len)
def _len(tx, obj, **kw):
    n = obj.symbolic_len() if isinstance(obj, ListVariable) else None
    if n is not None:   # a list of ints that changes between calls: its symbolic length
        return ConstantVariable(n)
    if isinstance(obj, DequeVariable):   # (its length alone: items stay unread)
        return ConstantVariable(obj.length())
    if isinstance(obj, (DictVariable, SetVariable)) and (n := obj.length(tx)) is not None:
        return ConstantVariable(n)       # (keys unread: unread_dicts, unread_sets)
    if isinstance(obj, (SequenceVariable, DictVariable, SetVariable)):
        return ConstantVariable(len(obj.items))
    if isinstance(obj, DictViewVariable):
        return ConstantVariable(len(obj.dict.items))
    if isinstance(obj, IteratorVariable):
        raise TypeError(f"object of type '{obj.python_type().__name__}' has no len()")
    if isinstance(obj, Poly1dVariable):   # NumPy's __len__ is the order
        order = obj.order()
        if type(order) is int and order < 0:   # (``p._coeffs`` rebound to an empty array)
            raise ValueError("__len__() should return >= 0")
        return ConstantVariable(order)
    if isinstance(obj, ArrayVariable):
        if obj.meta.ndim == 0:
            raise Unsupported("len() of a 0-d array (raises TypeError)")
        return ConstantVariable(obj.meta.shape[0])
    if obj.is_constant():
        return ConstantVariable(len(obj.as_python_constant()))
    if isinstance(obj, DeferredNumberVariable):   # len(f"{m:.3f}"): the text's own break
        raise obj.needed()
    return ConstantVariable(len(tx.unpack_iterable(obj)))


@dataclass(frozen=True)
class AbcTokenSource(Source):
    """``abc.get_cache_token()``: changes whenever any ABC registers a class."""

    def name(self) -> str:
        return "abc.get_cache_token()"

    def expr(self) -> str:
        return "___modules['abc'].get_cache_token()"


def _guard_class_check(tx, classes) -> None:
    """Make an isinstance/issubclass answer about ``classes`` hold while it is cached.

    A plain class answers by its MRO, which the object's type guard pins. An ABC
    answers by its registry too (``ABC.register(C)`` later): guard the ABC cache token,
    which every registration changes. Any other metaclass runs its own
    ``__instancecheck__``/``__subclasscheck__``: that is a break."""
    for cls in _class_operands(classes):
        meta = type(cls)
        if meta.__instancecheck__ is type.__instancecheck__ and \
                meta.__subclasscheck__ is type.__subclasscheck__:
            continue   # type, EnumType, and other metaclasses that keep type's checks
        if isinstance(cls, abc.ABCMeta) and \
                meta.__instancecheck__ is abc.ABCMeta.__instancecheck__ and \
                meta.__subclasscheck__ is abc.ABCMeta.__subclasscheck__:
            tx.output.guards.add(Guard(AbcTokenSource(), CONSTANT, abc.get_cache_token()))
            continue
        raise Unsupported(f"isinstance/issubclass against {cls!r} (metaclass "
                          f"{qualname_of(meta)})")


def _class_operands(classes) -> list:
    """The classes of an isinstance/issubclass second argument (tuples, ``A | B``)."""
    if isinstance(classes, tuple | types.UnionType):
        args = classes if isinstance(classes, tuple) else classes.__args__
        return [c for item in args for c in _class_operands(item)]
    return [classes]


@handles(isinstance)
def _isinstance(tx, obj, classes):
    cls = classes.as_python_constant()
    _guard_class_check(tx, cls)
    kind = _type_of(tx, obj)
    result = issubclass(kind, cls)
    if _class_read_runs_code(kind) and not (result and isinstance(cls, type) and
                                            type(cls) is type):
        # Python asks ``obj.__class__`` where the type alone does not decide (and an
        # ABC always): a ``__class__`` of the class's own (a property that says another
        # class) or its ``__getattribute__`` answers, and may run code (issue #17)
        raise Unsupported(f"isinstance of an object whose class defines __class__ or "
                          f"__getattribute__ ({qualname_of(kind)})")
    return ConstantVariable(result)


def _class_read_runs_code(kind: type) -> bool:
    """Whether ``o.__class__`` of a ``kind`` object may be other than ``kind`` or run
    the program's code: a class of its MRO (a class statement's) defines
    ``__class__`` or ``__getattribute__``. Read without the metaclass's help.

        >>> class Liar:
        ...     __class__ = property(lambda self: int)
        >>> _class_read_runs_code(Liar), _class_read_runs_code(float)
        (True, False)
    """
    for k in mro_of(kind):
        if type.__dict__["__flags__"].__get__(k) & _HEAP_TYPE:
            own = dict_of(k)
            if "__class__" in own or "__getattribute__" in own:
                return True
    return False


_HEAP_TYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class made by a class statement or type()


@handles(issubclass)
def _issubclass(tx, a, b):
    cls = b.as_python_constant()
    _guard_class_check(tx, cls)
    return ConstantVariable(issubclass(a.as_python_constant(), cls))


@handles(type)
def _type(tx, obj, *rest):
    if rest:
        raise Unsupported("type() with three arguments creates a class")
    t = _type_of(tx, obj)
    class_source = getattr(obj, "class_source", None)
    if class_source is not None:
        # ``type(o).calls``: read (and guarded) through ``type(o)``, so a later write to
        # the class is seen; the object's TYPE guard already pins which class it is
        # (an object built in the trace: through the class it was built from, as an
        # exception ``E("boom")`` or a named tuple ``P(1, 2)`` is, round 22)
        return ClassVariable(t, class_source)
    source = getattr(obj, "source", None)
    if source is not None and type.__dict__["__flags__"].__get__(t) & _HEAP_TYPE:
        # any other value the program passed in (held opaque because its class defines
        # __getattribute__, a named tuple...) of a program's class: ``type(o).reads`` is
        # read and guarded through ``type(o)`` too, else a class attribute the program
        # changes between calls stays the value the trace saw (round 22, issue #17)
        return ClassVariable(t, TypeSource(source))
    return ClassVariable.of(t)


@handles(tuple)
def _tuple(tx, it=None):
    if type(it) is TupleVariable or (isinstance(it, ConstantVariable)
                                     and type(it.value) is tuple):
        return it   # tuple(t) is t for an exact tuple
    return TupleVariable([] if it is None else tx.unpack_iterable(it))


@handles(frozenset)
def _frozenset(tx, it=None):
    if isinstance(it, ConstantVariable) and isinstance(it.value, (str, bytes, tuple, range)):
        check_size(constant_len(it.value), "a frozenset")   # frozenset(range(10**9))
    if it is not None and not _constant_like(it):
        raise Unsupported("frozenset() of non-constants (hashing needs their values)")
    return fold(frozenset, [] if it is None else [it], {})


@handles(list)
def _list(tx, it=None):
    return ListVariable([] if it is None else tx.unpack_iterable(it))


@handles(set)
def _set(tx, it=None):
    # set(s) of a set or an exact dict merges the whole table, resized first (an
    # iterable's elements are added one by one): the same call makes it (sets.py)
    real = None if it is None else merged_operand(tx, it)
    if real is not None:
        with hash_order.order_free():   # (in no order of its own: the recipe makes it)
            items = tx.unpack_iterable(it)
        return SetVariable(items, ("call", set, (operand_recipe(it, real),)))
    return SetVariable([] if it is None else tx.unpack_iterable(it))


@handles(dict)
def _dict(tx, *args, **kwargs):
    if len(args) > 1:   # Python's TypeError, raised by the call itself after the break
        raise Unsupported(f"dict() of {len(args)} positional arguments (it takes at most 1)")
    items = tx.dict_items(args[0]) if args else {}
    items.update(kwargs)
    return DictVariable(items)


@handles(collections.defaultdict)
def _defaultdict(tx, *args, **kwargs):
    """``collections.defaultdict(factory, items, **kw)``: the factory is positional only
    (a ``default_factory=`` keyword is an item, as in Python), the rest is ``dict()``'s.
    A factory the trace cannot tell is callable or None (Python's ``TypeError``) breaks.

    Example: ``d = defaultdict(list); d[k].append(x)`` builds a ``DefaultDictVariable``
    whose missing key calls ``list()`` in the trace."""
    factory = args[0] if args else ConstantVariable(None)
    if len(args) > 2 or not (
            isinstance(factory, (BuiltinVariable, ClassVariable, BaseFunctionVariable,
                                 PartialVariable)) or
            factory.is_constant() and factory.as_python_constant() is None):
        raise Unsupported("defaultdict() of these arguments (a factory that may not be "
                          "callable, or more than two)")
    items = tx.dict_items(args[1]) if len(args) > 1 else {}
    items.update(kwargs)
    return DefaultDictVariable(items, lambda: factory)


@handles(iter)
def _iter(tx, it, *sentinel):
    if sentinel:
        raise Unsupported("iter(callable, sentinel)")
    return get_iterator(tx, it)


@handles(next)
def _next(tx, it, *default):
    if not isinstance(it, IteratorVariable):
        raise next_of_untraced(it)
    first = getattr(it, "take_first", None)   # (a dict's first key, its keys unread)
    item = first(tx) if first is not None else None
    item = take(tx, it) if item is None else item
    if item is None:
        if default:
            return default[0]
        raise Unsupported("next() of an exhausted iterator (raises StopIteration)")
    return item


@handles(zip)
def _zip(tx, *its, strict=None):
    rows = tx.zip_data_trips(its)    # (a loop node over a count: data_trips)
    if rows is not None:
        return rows
    iterators = [get_iterator(tx, i) for i in its]   # iter() of each, in order, as zip does
    return ZipVariable(iterators, strict is not None and strict.truth(tx))


@handles(enumerate)
def _enumerate(tx, iterable, start=None):
    first = 0 if start is None else operator.index(start.as_python_constant())
    rows = tx.enumerate_data_trips(iterable, int(first))   # (a loop node over a count)
    return rows if rows is not None else EnumerateVariable(get_iterator(tx, iterable),
                                                           int(first))


@handles(reversed)
def _reversed(tx, seq):
    return reversed_iterator(tx, seq)


@handles(abs)
def _abs(tx, x):
    if isinstance(x, ArrayVariable):   # abs(np scalar): NumPy's scalar path (operator_op)
        return tx.output.call_op(ops.operator_op("absolute", x.meta.scalar), [x], {})
    number = symbolic_number(tx, abs, [x])
    if number is None:
        number = size_abs(tx, x)   # abs(len(kept) - 3): computed by the graph
    if number is None and isinstance(x, ConstantVariable) and isinstance(x.value, SymInt):
        # abs(i - j) of sizes or loop indices: SymInt.__abs__ (the sign a comparison,
        # which a split loop decides per segment: a band, translator/index_splits.py)
        number = ConstantVariable(abs(x.value))
    return fold(abs, [x], {}) if number is None else number


@handles(round)
def _round(tx, x, ndigits=None):
    if isinstance(x, ArrayVariable):  # ndarray has no __round__; scalars round to Python
        raise Unsupported("round() of an array or NumPy scalar", "NumPy arrays raise "
                          "TypeError and NumPy scalars return Python numbers; it runs "
                          "eagerly.", hint="use np.round(x, n)", cause="array_to_python")
    x = as_graph_number(tx, x)   # round(float(col.mean()), 3): rounded by the graph
    if isinstance(x, ConstantVariable) and ndigits is not None and ndigits.is_constant():
        rounded = round_call(x.value, ndigits.as_python_constant())
        if rounded is not None:
            return ConstantVariable(rounded)
    return fold(round, [x] if ndigits is None else [x, ndigits], {})


@handles(pow)
def _pow(tx, base, exp, mod=None):
    if mod is not None:
        return fold(pow, [base, exp, mod], {})
    return tx.binary_op("pow", base, exp)


@handles(getattr)
def _getattr(tx, obj, name, *default):
    try:
        return tx.getattr(obj, name.as_python_constant())
    except AttributeError:
        if default:
            return default[0]
        raise


@handles(hasattr)
def _hasattr(tx, obj, name):
    try:
        tx.getattr(obj, name.as_python_constant())
    except AttributeError:
        return ConstantVariable(False)
    return ConstantVariable(True)


@handles(setattr)
def _setattr(tx, obj, name, value):
    tx.setattr(obj, name.as_python_constant(), value)
    return ConstantVariable(None)


@handles(callable)
def _callable(tx, obj):
    """Whether ``obj``'s type has ``__call__`` (as PyCallable_Check asks it). Callables
    the translator makes itself (a partial, a bound method of a container) are."""
    if obj.is_constant():
        return ConstantVariable(callable(obj.as_python_constant()))
    if isinstance(obj, (PartialVariable, BoundBuiltinMethod)):
        return ConstantVariable(True)
    cls = obj.python_type()
    return ConstantVariable(any("__call__" in dict_of(k) for k in mro_of(cls)))


def _given(var) -> bool:
    """An optional argument that was passed and is not None."""
    return var is not None and not (var.is_constant() and var.as_python_constant() is None)


@handles(sorted)
def _sorted(tx, it, key=None, reverse=None):
    alike = not _given(key) and hash_order.sorts_alike(set_elements(it))
    with hash_order.order_free() if alike else nullcontext():   # (a set of strings)
        items = tx.unpack_iterable(it)
    if _given(key) or not all(_constant_like(i) for i in items):
        raise Unsupported("sorted() of non-constants or with key=")
    rev = reverse.as_python_constant() if reverse is not None else False
    return ListVariable([wrap_constant(v) for v in
                         sorted((i.as_python_constant() for i in items), reverse=rev)])


@handles(functools.partial)
def _partial(tx, fn, *args, **kwargs):
    return PartialVariable(fn, list(args), dict(kwargs))


@handles(operator.getitem)
def _op_getitem(tx, obj, index):
    return tx.getitem(obj, index)


def _operator_binary(name):
    return lambda tx, a, b: tx.binary_op(name, a, b)


def _operator_compare(name):
    return lambda tx, a, b: tx.compare(name, a, b)


for _fn, _name in [(operator.add, "add"), (operator.sub, "subtract"), (operator.mul, "multiply"),
                   (operator.truediv, "divide"), (operator.floordiv, "floor_divide"),
                   (operator.mod, "remainder"), (operator.pow, "pow"),
                   (operator.matmul, "matmul"), (operator.and_, "bitwise_and"),
                   (operator.or_, "bitwise_or"), (operator.xor, "bitwise_xor"),
                   (operator.lshift, "left_shift"), (operator.rshift, "right_shift")]:
    HANDLERS[_fn] = _operator_binary(_name)
for _fn, _name in [(operator.lt, "less"), (operator.le, "less_equal"), (operator.eq, "equal"),
                   (operator.ne, "not_equal"), (operator.gt, "greater"),
                   (operator.ge, "greater_equal")]:
    HANDLERS[_fn] = _operator_compare(_name)
# The exception being handled: the translator keeps it (translator/exceptions.py)
HANDLERS[sys.exc_info] = lambda tx: tx.exc_info()
HANDLERS[sys.exception] = lambda tx: tx.handled_exception()
HANDLERS[operator.neg] = lambda tx, a: tx.unary_op("negative", a)
HANDLERS[operator.pos] = lambda tx, a: tx.unary_op("positive", a)
HANDLERS[operator.invert] = lambda tx, a: tx.unary_op("invert", a)
HANDLERS[operator.abs] = lambda tx, a: _abs(tx, a)


@handles(functools.reduce)
def _reduce(tx, fn, it, *initial):
    items = tx.unpack_iterable(it)
    if not items and not initial:
        raise Unsupported("reduce() of an empty sequence with no initial value (TypeError)")
    acc, rest = (initial[0], items) if initial else (items[0], items[1:])
    for item in rest:
        acc = tx.call_function(fn, [acc, item], {})
    return acc


@handles(math.prod)
def _prod(tx, it, start=None):
    items = tx.unpack_iterable(it)
    if all(i.is_constant() for i in items):
        return wrap_constant(math.prod((i.as_python_constant() for i in items),
                                       start=1 if start is None else start.value))
    raise Unsupported("math.prod of non-constants")



@handles(super)
def _super(tx, *args):
    from .super_lookup import SuperVariable
    if len(args) == 2:
        return SuperVariable(args[0].as_python_constant(), args[1])
    if args or "__class__" not in tx.code.co_freevars or tx.code.co_argcount == 0:
        raise Unsupported("super() outside a method")
    cls = tx.cell("__class__").get(tx).as_python_constant()
    return SuperVariable(cls, tx.load_local(tx.code.co_varnames[0]))
