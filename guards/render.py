"""Render a list of guards as one boolean Python expression, plus the names it uses.

The expression has two parts, because that is what keeps a check within a couple
of microseconds in pure Python (see ``docs/guards.md`` for the measurements):

1. identity tests chained with ``and`` (``type(x) is ___c1``, ``n is None``,
   ``'len' not in ___G``) and the first array's shape: each costs one compare and
   stops the check early;
2. one tuple of the current values that need ``==`` (shapes, dtypes, lengths,
   constants), compared with one stored tuple: a single C-level comparison
   instead of one Python-level compare per guard.

Guards arrive ordered so that a source is only read after the guards on its bases
(``type(self) is M`` before ``self.w.shape``); a read that fails (a missing
attribute or key) raises, and the check function turns that into False.

Example::

    >>> expr, names = render([Guard(LocalSource("x"), ARRAY, spec),
    ...                       Guard(LocalSource("n"), CONSTANT, 3)], fn_globals, ["x", "n"])
    >>> print(expr)
    type(x) is ___c1 and
    x.shape == ___c2 and
    type(n) is int and
    (x.dtype, n,) == ___expected
    >>> names["___expected"]
    (dtype('float32'), 3)

Attributes of library modules (``np.tanh``, ``math.pi``: ``ModuleAttrSource``) are
tested last, by identity against the module's ``__dict__``, each under a comment that
says what it expects (see ``_Builder.module_tests``).

``prefix`` renames the bound names (``___e0_c1``, ``___e0_expected``) so that the
checks of several cache entries can be inlined into one dispatcher function.
"""

from __future__ import annotations

import builtins
import re
import sys
from typing import Any

from . import guards as G
from .guards import ARRAY, CONSTANT, DICT_KEYS, EXPR, ID, LENGTH, NOT_PRESENT, TYPE, Guard
from .hoisted_reads import hoisted
from .sources import ModuleAttrSource, computed_reads

_SINGLETONS = {None: "None", True: "True", False: "False", Ellipsis: "..."}
# Builtins the generated code calls. A parameter of the same name (``def f(x, len)``)
# would shadow one, so generated code then uses a ``___`` alias instead.
_BUILTINS = ("type", "len", "tuple", "map", "int", "str", "bytes", "float", "Exception",
             "frozenset")


def builtin_names(params) -> dict[str, str]:
    """How generated code with these parameters spells each builtin it uses."""
    taken = set(params)
    return {b: f"___{b}" if b in taken else b for b in _BUILTINS}


def shared_names(fn_globals: dict) -> dict[str, Any]:
    """Names every rendered expression may use, the same for all entries of a function."""
    names = {"___G": fn_globals, "___builtins": builtins, "___modules": sys.modules,
             "___typed": G.typed}
    names.update((f"___{b}", getattr(builtins, b)) for b in _BUILTINS)
    return names


class _Builder:
    def __init__(self, prefix: str, params, indent: str = ""):
        self.b = builtin_names(params)
        self.prefix = prefix
        self.indent = indent
        self.module_attrs: dict[Any, list[Guard]] = {}   # module -> its ID guards
        self.names: dict[str, Any] = {}
        self.chain: list[str] = []
        self.lhs: list[str] = []
        self.rhs: list[Any] = []
        self.dtype_reads: set[str] = set()   # the ``lhs`` that read an array's dtype
        self.shape_in_chain = False

    def bind(self, value: Any) -> str:
        """A name for ``value`` in generated code (a weakref call for user objects)."""
        suffix, ref = G.reference(value)
        key = f"{self.prefix}c{len(self.names) + 1}"
        self.names[key] = ref
        return key + suffix

    def compare(self, expr: str, expected: Any) -> None:
        self.lhs.append(expr)
        self.rhs.append(expected)

    # one method per guard kind ------------------------------------------------------
    def ID_MATCH(self, e: str, g: Guard) -> None:
        if isinstance(g.source, ModuleAttrSource):   # grouped per module: module_tests
            self.module_attrs.setdefault(g.source.module, []).append(g)
            return
        self.chain.append(f"{e} is {self.bind(g.expected)}")

    def TYPE_MATCH(self, e: str, g: Guard) -> None:
        self.chain.append(f"{self.b['type']}({e}) is {self.bind(g.expected)}")

    def NOT_PRESENT(self, e: str, g: Guard) -> None:
        self.chain.append(f"{g.source.builtin!r} not in ___G")

    def EXPR(self, e: str, g: Guard) -> None:
        self.chain.append(f"({g.expected})")

    def LENGTH_MATCH(self, e: str, g: Guard) -> None:
        self.compare(f"{self.b['len']}({e})", g.expected)

    def DICT_KEYS(self, e: str, g: Guard) -> None:
        keys = tuple(g.expected)
        tup, b = self.b["tuple"], self.b
        if any(type(k) in (float, complex, tuple) for k in keys):
            # 0.0 and -0.0 are one key to ==, and so are (1,) and (1.0,): every part's
            # type and value
            self.compare(f"___typed({tup}({e}))", G.typed(keys))
            return
        self.compare(f"{tup}({e})", keys)
        if not all(type(k) is str for k in keys):  # 1, 1.0 and True are one key to ==
            self.compare(f"{tup}({b['map']}({b['type']}, {e}))", tuple(type(k) for k in keys))

    def CONSTANT_MATCH(self, e: str, g: Guard) -> None:
        value, b = g.expected, self.b
        t = type(value)
        if t in (type(None), bool, type(Ellipsis)):
            self.chain.append(f"{e} is {_SINGLETONS[value]}")
        elif t in (int, str, bytes) or (t is float and value == value and value != 0.0):
            self.chain.append(f"{b['type']}({e}) is {b[t.__name__]}")
            self.compare(e, value)
        elif t is float and value != value:
            self.chain.append(f"{b['type']}({e}) is {b['float']} and {e} != {e}")
        elif t is tuple and len(value) > _TYPED_ITEMS and G.plain_numbers(value):
            # a long tuple of ints (or of nonzero, non-NaN floats): its items' types, then
            # ``==``, in C loops (``typed`` is a Python call an item: 100,000 items, 40 ms)
            kinds = frozenset({G.plain_numbers(value)})
            self.chain.append(f"{b['type']}({e}) is {b['tuple']} and "
                              f"{b['frozenset']}({b['map']}({b['type']}, {e})) == "
                              f"{self.bind(kinds)} and {e} == {self.bind(value)}")
        elif t in (float, complex, tuple, range, slice) or G.equal_is_not_same(value):
            # 0.0 and -0.0, and containers of constants: every part's type and value
            self.compare(f"___typed({e})", G.typed(value))
        else:  # np.dtype and other library constants: exact type, then ==
            self.chain.append(f"{b['type']}({e}) is {self.bind(t)}")
            self.compare(e, value)

    def ARRAY_MATCH(self, e: str, g: Guard) -> None:
        spec: G.ArraySpec = g.expected
        self.chain.append(f"{self.b['type']}({e}) is {self.bind(spec.cls)}")
        if None in spec.shape:
            self.compare(f"{e}.ndim", len(spec.shape))
            for i, d in enumerate(spec.shape):
                if d is not None:
                    self.compare(f"{e}.shape[{i}]", d)
        elif not self.shape_in_chain:
            # The first static shape is tested on its own, early: shapes are what
            # changes between calls, so a miss usually costs one shape read instead of
            # building the whole tuple (a hit pays one more compare, ~30 ns).
            self.shape_in_chain = True
            self.chain.append(f"{e}.shape == {self.bind(tuple(spec.shape))}")
        else:
            self.compare(f"{e}.shape", tuple(spec.shape))
        self.compare(f"{e}.dtype", spec.dtype)
        self.dtype_reads.add(f"{e}.dtype")
        if spec.strides is not None:
            self.compare(f"{e}.strides", tuple(spec.strides))
        if spec.contiguity is not None:
            self.compare(f"{e}.flags.c_contiguous", spec.contiguity[0])
            self.compare(f"{e}.flags.f_contiguous", spec.contiguity[1])
        if spec.writeable is not None:
            # the bit, not ``flags.writeable``: reading that of a view np.broadcast_arrays
            # (or np.meshgrid(copy=False)) made warns FutureWarning, at every call
            self.compare(f"{e}.flags.num & 1024", 1024 if spec.writeable else 0)
        if spec.device is not None:
            self.compare(f"{e}.device.id", spec.device)

    def module_tests(self) -> list[str]:
        """The attributes of each library module the trace read, each still the object
        it saw: ``___c4['tanh'] is ___c5``, ``___c4`` being the module's ``__dict__``.

        Identity, not ``==``: an object that merely compares equal (``np.float64(pi)``
        for ``np.pi``, ``np.dtype('f4')`` for ``np.float32``, a class whose ``__eq__``
        says yes) must not pass. A model reads tens of these and a hit checks them all;
        this chain was the cheapest exact form measured (``docs/guards.md``): a batched
        ``all(map(operator.is_, itemgetter(*names)(d), values))`` costs more (measured
        up to 30 names), and a batched tuple ``==`` is cheaper but not exact. A comment
        above each test says what it expects, in the words of ``Guard.describe``
        (``# numpy.pi is 3.141592653589793``), for people reading the check.
        """
        out = []
        for module, guards in self.module_attrs.items():
            d = self.bind(vars(module))
            for g in guards:
                words = " ".join(g.describe().split())   # one line, whatever names hold
                out.append(f"# {words}\n{self.indent}"
                           f"{d}[{g.source.attr!r}] is {self.bind(g.expected)}")
        return out


_KINDS = {ID, TYPE, NOT_PRESENT, EXPR, LENGTH, DICT_KEYS, CONSTANT, ARRAY}
# from how many items a CONSTANT tuple of plain numbers is compared by ``==`` after its
# items' types (``G.plain_numbers``) rather than by ``typed``
_TYPED_ITEMS = 32


def render(guards: list[Guard], fn_globals: dict, params=(), prefix: str = "___",
           indent: str = "", hoist: bool = True) -> tuple[str, dict[str, Any]]:
    """(expression, names): the guards as one boolean expression (see module doc).

    ``params`` are the parameter names of the function the expression goes into.
    With ``hoist``, a read that recurs is made once (``hoisted_reads``): what the
    dispatcher inlines. The check's own function, called on misses only, leaves it
    out (parsing the parts that share a read costs about 15 us each, once per text)."""
    b = _Builder(prefix, params, indent)
    for g in _without_implied(guards):
        if g.kind not in _KINDS:
            raise ValueError(f"unknown guard kind {g.kind!r} on {g.source.name()}")
        source = g.source.expr() if g.kind not in (NOT_PRESENT, EXPR) else ""
        getattr(b, g.kind)(source, g)
    parts = list(b.chain)
    # library module attributes last: they rarely change, and a miss should stop earlier
    module_tests = b.module_tests()
    names = {**shared_names(fn_globals), **b.names}
    if b.lhs:
        names[f"{prefix}expected"] = tuple(b.rhs)
        parts.append(_compare(b, prefix, names))
    parts += module_tests
    parts = _read_once(parts, [g.source for g in guards], prefix)
    # (the bindings of computed reads stay as written: ``bound_reads`` finds them so)
    if hoist:
        computed = {i for i, p in enumerate(parts) if _BOUND.fullmatch(p)}
        parts = hoisted(parts, prefix, computed)
    return (f" and\n{indent}".join(parts) if parts else "True"), names


def _without_implied(guards: list[Guard]) -> list[Guard]:
    """``guards`` less each size bound ``s >= k`` that a pin ``s == n`` (``n >= k``)
    of the same source also checks: where the pin holds, so does the bound. A pinned
    size has both (``new_symbol``'s ``>= 2``, then ``== 64`` where it was used as a
    plain int), and each costs a read of the size at every call::

        (a.shape[0] >= 2) and (a.shape[0] == 64)   ->   (a.shape[0] == 64)

    Both read the same source by the same text, so a value that breaks the bound
    breaks the pin too. Only the rendered expression leaves the bound out: the
    check's guards (``failures``, the recompile log) keep it."""
    pins: dict[Any, int] = {}
    for g in guards:
        n = _int_relation(g, "==")
        if n is not None:
            pins[g.source] = max(pins.get(g.source, n), n)
    if not pins:
        return list(guards)
    return [g for g in guards if not (g.source in pins and
                                      (k := _int_relation(g, ">=")) is not None and
                                      pins[g.source] >= k)]


def _int_relation(g: Guard, op: str) -> int | None:
    """``n`` where ``g`` is the EXPR guard ``<its source> <op> n`` (an int literal)."""
    if g.kind != EXPR or not isinstance(g.expected, str):
        return None
    head = f"{g.source.expr()} {op} "
    if not g.expected.startswith(head):
        return None
    rest = g.expected[len(head):]
    return int(rest) if rest.isdigit() else None


def _compare(b: _Builder, prefix: str, names: dict[str, Any]) -> str:
    """The values that need ``==``, as one tuple compared with the stored one.

    A lone array dtype (a function of one array: ``(x.dtype,) == ___expected``) is
    tested by identity first, read once::

        ((___v := x.dtype) is ___dtype or (___v,) == ___expected)

    An array's dtype is nearly always the very object the trace saw (NumPy's builtin
    dtypes are singletons), and ``is`` costs about 260 instructions less per call than
    building the tuple and comparing it (callgrind, CPython 3.11); an equal dtype that
    is another object still passes, through the same tuple compare as before. With
    several values the tuple compare stays: one C-level compare for all of them."""
    if len(b.lhs) == 1 and b.lhs[0] in b.dtype_reads:
        names[f"{prefix}dtype"] = b.rhs[0]
        v = f"{prefix}v"
        return f"(({v} := {b.lhs[0]}) is {prefix}dtype or ({v},) == {prefix}expected)"
    return f"({', '.join(b.lhs)},) == {prefix}expected"


def _read_once(parts: list[str], sources, prefix: str) -> list[str]:
    """The ``and``-chained ``parts`` with each computed source (``np.asarray(ids)``:
    several microseconds, and read by three or four guards) evaluated once: bound to
    ``<prefix>a<i>`` by a test of its own just before the first part that reads it,
    where the chain would first have evaluated it, and read by that name from there on.
    (Its own test, not the first occurrence inside that part: a part may
    short-circuit.) ``bound_reads`` says which names an expression binds."""
    parts = list(parts)
    for i, source in enumerate(computed_reads(sources)):
        text, name = source.expr(), f"{prefix}a{i}"
        first = next((k for k, p in enumerate(parts) if text in p), None)
        if first is None:
            continue
        rest = [p.replace(text, name) for p in parts[first:]]
        parts[first:] = [_binding(name, text), *rest]
    return parts


def _binding(name: str, text: str) -> str:
    return f"({name} := {text}) is not None"


_BOUND = re.compile(r"\(\w+a\d+ := .*\) is not None", re.S)   # a ``_binding`` part


def bound_reads(guards: list[Guard], expr: str, prefix: str) -> dict:
    """``{source: name}``: the computed sources that ``expr`` (``render(guards, ...,
    prefix)``'s expression) binds to names, each holding its value once the whole
    expression was true. The hook's dispatcher hands them to the entry's glue, which
    then need not compute them again."""
    found = computed_reads([g.source for g in guards])
    return {source: f"{prefix}a{i}" for i, source in enumerate(found)
            if _binding(f"{prefix}a{i}", source.expr()) in expr}


def ordered(guards) -> list[Guard]:
    """Bases before what is read through them, then cheapest and most selective first,
    less each TYPE guard that an ARRAY guard of the same source already checks.

    A traced array is guarded by type where it was first wrapped or passed on (a
    helper's argument, a value a break hands over) and by an ARRAY guard (class, dtype,
    shape) where it was used; the two keys differ, so both were kept and the check
    tested ``type(x) is ___c2 and type(x) is ___c3``, and explain listed the type
    twice. The ARRAY guard tests the very class first."""
    guards = list(guards)
    arrays = {g.source: g.expected.cls for g in guards if g.kind == ARRAY}
    guards = [g for g in guards if not (g.kind == TYPE and g.source in arrays and
                                        arrays[g.source] is g.expected)]
    return sorted(guards, key=lambda g: (g.source.depth(), G.ORDER[g.kind]))
