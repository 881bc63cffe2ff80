"""Random loop programs from a small grammar, run plainly and compiled (issue #17).

``program(seed)`` writes the source of ``def prog(x, y, t)``: one or two nested
``for``/``while`` loops over ranges with constant, size-derived or index-derived bounds
(``range(1, n - 1)``, ``range(i)``, ``range(i, n, 2)``, ``while i < n and ...``) whose
bodies mix what loop nodes are made of: ``if``/``elif``/``else`` on data or on the
indices (``x[i] > t``, ``j < i``, ``-1.0 <= x[i] < 0.5``, ``and``/``or``), element
reads and writes with offsets (stencils), picked numbers (``best``/``arg``), counters,
carried Python floats and ints, ``break``/``continue`` on data, accumulations into
scalars and arrays, writes into an input. ``inputs(seed, dtype)`` draws the 2-3 calls'
arguments: float64/float32/int64/int8/bool arrays with NaN, inf and -0.0 among the
values, sizes 0, 1, 2, 7 and 33 changing from call to call.

``differences(source, calls, backend)`` runs the program plainly and compiled by one
backend (``settings``: ``dynamo.config`` values meanwhile, ``{"loop_unroll_limit": 2,
"outline_min_elements": 0}`` makes loop nodes of short loops and outlines the loops
that break) (``"eager"``, ``"numpy"`` or ``"native"``: tier 2 forced, each call made twice
so that the second runs the kernel) and lists every difference: the result's values
bit for bit, dtypes and Python types, the inputs after the call, the exception's type
and message, the warnings. Example::

    >>> src = program(3)
    >>> print(src)                                        # doctest: +SKIP
    def prog(x, y, t):
        n = len(x)
        s = 0.0
        ...
    >>> differences(src, inputs(3, "float64"), "numpy")
    []

The search over thousands of seeds, and the shrinking of each failure to a minimal
program, is ``scripts/loop_program_search.py``; tests/translator/test_random_loop_programs.py
runs a bounded number of seeds.
"""

from __future__ import annotations

import logging
import math
import random
import warnings

import numpy as np

import dynamo

DTYPES = ["float64", "float32", "int64", "int8", "bool"]
SIZES = [0, 1, 2, 7, 33]


class _Writer:
    """The grammar: one random program, a statement at a time."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.lines: list[str] = []
        # half the programs keep their ``if``s' ways to what a loop node may select
        # (no write into an input, no break, no inner ``if``): more loop nodes
        self.friendly = random.Random(seed * 31 + 7).random() < 0.5
        self.in_way = 0

    def pick(self, *options):
        return self.r.choice(options)

    # ------------------------------------------------------------------ expressions

    def read(self, idx: list[str], margin: tuple[int, int]) -> str:
        """An element read at one loop index, with an offset the loop's bounds allow
        (``x[i - 1]`` where the range starts at 1 or more)."""
        i = self.r.choice(idx)
        arr = self.pick("x", "x", "y", "out")
        lo, hi = margin if i == idx[0] else (0, 0)
        offsets = [0] + [-k for k in range(1, lo + 1)] + list(range(1, hi + 1))
        k = self.r.choice(offsets)
        return f"{arr}[{i}]" if k == 0 else f"{arr}[{i} {'+' if k > 0 else '-'} {abs(k)}]"

    def value(self, idx, margin, depth: int = 0) -> str:
        """A scalar expression: reads, carried scalars, the index, constants."""
        kind = self.r.randrange(10 if depth < 2 else 5)
        if kind <= 2:
            return self.read(idx, margin)
        if kind == 3:
            return self.pick("s", "best", "t", "acc")
        if kind == 4:
            return self.pick("0.5", "2.0", "1", "-1.0", idx[-1], "c")
        a, b = self.value(idx, margin, depth + 1), self.value(idx, margin, depth + 1)
        top, low = ("np.maximum", "np.minimum") if self.friendly else ("max", "min")
        return self.pick(f"({a} + {b})", f"({a} - {b})", f"({a} * {b})", f"({a} * 0.5)",
                         f"{top}({a}, {b})", f"{low}({a}, {b})", f"abs({a})", f"(-{a})",
                         f"({a} / {b})")

    def cond(self, idx, margin, depth: int = 0) -> str:
        """A test on the data, on the indices, or both (``and``/``or``/``not``)."""
        kind = self.r.randrange(9 if depth < 1 else 6)
        i = self.r.choice(idx)
        if kind == 0:
            return f"{self.read(idx, margin)} > t"
        if kind == 1:
            return f"{self.read(idx, margin)} < {self.value(idx, margin, 1)}"
        if kind == 2:
            lo, hi = self.pick(("-1.0", "0.5"), ("0", "2"), ("t", "1.0"))
            return f"{lo} <= {self.read(idx, margin)} < {hi}"
        if kind == 3:
            return self.pick(f"{idx[-1]} < {idx[0]}", f"{i} % 2 == 0", f"{i} == 3",
                             f"{i} < n // 2", f"{i} > 0") if len(idx) > 1 else \
                self.pick(f"{i} % 2 == 0", f"{i} == 3", f"{i} < n // 2", f"{i} > 0")
        if kind == 4:
            r = self.read(idx, margin)
            return self.pick(f"{r} != {r}", f"{r} == 0", f"{r} >= best", "c > 2")
        if kind == 5:
            return self.pick("s > t", f"{self.read(idx, margin)} > s", "acc < 0")
        a, b = self.cond(idx, margin, depth + 1), self.cond(idx, margin, depth + 1)
        if kind == 8:
            return f"not ({a})"
        return f"({a}) {'and' if kind == 6 else 'or'} ({b})"

    # ------------------------------------------------------------------ statements

    def simple(self, pad: str, idx, margin, in_for: bool) -> None:
        """One statement that is not a loop."""
        i = idx[0]
        kind = self.r.randrange(13)
        if self.friendly and self.in_way and kind in (6, 7, 10):
            kind = self.pick(0, 3, 4, 8)
        v = self.value(idx, margin)
        if kind == 0:
            self.lines.append(f"{pad}s += {v}")
        elif kind == 1:
            self.lines.append(f"{pad}s = s * 0.5 + {v}")
        elif kind == 2:
            self.lines.append(f"{pad}c += {self.pick('1', i, '2')}")
        elif kind == 3:                                  # a picked number
            r = self.read(idx, margin)
            op = self.pick(">", ">=", "<")
            self.lines += [f"{pad}if {r} {op} best:", f"{pad}    best = {r}",
                           f"{pad}    arg = {idx[0] if self.friendly else idx[-1]}"]
        elif kind == 4:
            self.lines.append(f"{pad}out[{i}] = {v}")
        elif kind == 5:
            self.lines.append(f"{pad}out[{i}] += {v}")
        elif kind == 6:
            self.lines.append(f"{pad}x[{i}] = {v}")        # a write into an input
        elif kind == 7:
            self.lines.append(f"{pad}y[{self.r.choice(idx)}] = {v}")
        elif kind == 8:
            self.lines.append(f"{pad}acc = acc + {v}")
        elif kind == 9:
            self.lines.append(f"{pad}acc = {'np.maximum' if self.friendly else 'max'}(acc, {v})")
        elif kind == 10:
            word = self.pick("break", "continue") if in_for else "break"
            self.lines += [f"{pad}if {self.cond(idx, margin)}:", f"{pad}    {word}"]
        elif kind == 11:
            self.lines.append(f"{pad}last = {self.r.choice(idx)}")
        else:
            self.lines.append(f"{pad}s = {v}")

    def block(self, pad: str, idx, margin, in_for: bool, depth: int, count: int,
              nest: bool) -> None:
        for _ in range(count):
            kind = self.r.randrange(10)
            if kind <= 1 and depth < 2 and not (self.friendly and self.in_way):
                self.branch(pad, idx, margin, in_for, depth)
            elif kind == 2 and nest:
                self.loop(pad, idx, margin, depth + 1)
                nest = False
            else:
                self.simple(pad, idx, margin, in_for)

    def branch(self, pad, idx, margin, in_for, depth) -> None:
        """``if``, with an ``elif`` and an ``else`` or not."""
        self.in_way += 1
        self.lines.append(f"{pad}if {self.cond(idx, margin)}:")
        self.block(pad + "    ", idx, margin, in_for, depth + 1, self.r.randint(1, 2), False)
        if self.r.random() < 0.4:
            self.lines.append(f"{pad}elif {self.cond(idx, margin)}:")
            self.block(pad + "    ", idx, margin, in_for, depth + 1, 1, False)
        if self.r.random() < 0.5:
            self.lines.append(f"{pad}else:")
            self.block(pad + "    ", idx, margin, in_for, depth + 1, self.r.randint(1, 2),
                       False)
        self.in_way -= 1

    def loop(self, pad: str, outer: list[str], outer_margin, depth: int) -> None:
        """A ``for`` over a range or a ``while``; an inner loop's bounds may follow the
        outer index (``range(i)``, ``range(i, n, 2)``)."""
        name = "ij"[len(outer)]
        lo, hi = self.r.choice([(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)])
        if outer:
            o = outer[0]
            ranges = [(f"range({o})", (0, 0)), (f"range({o}, n, 2)", (0, 0)),
                      (f"range({o} + 1, n)", (0, 0)), ("range(n)", (0, 0)),
                      ("range(3)", (0, 0)), (f"range({o}, -1, -1)", (0, 0))]
        else:
            stop = f"n - {hi}" if hi else "n"
            ranges = [(f"range({lo}, {stop})" if lo or hi else "range(n)", (lo, hi))] * 3 + [
                (f"range({stop} - 1, {lo - 1}, -1)", (lo, hi)),
                (f"range({lo}, {stop}, 2)", (lo, hi)), ("range(9)", (0, 0))]
        rng, margin = self.r.choice(ranges)
        idx = [name] + outer
        body_count = self.r.randint(1, 4)
        if self.r.random() < 0.25:                       # a while loop
            start, stop = (self.pick("0", outer[0]), "n") if outer else \
                (str(margin[0]), f"n - {margin[1]}" if margin[1] else "n")
            test = f"{name} < {stop}"
            if self.r.random() < 0.4:
                test += f" and {self.read([name], (0, 0))} {self.pick('>', '<', '!=')} t"
            self.lines += [f"{pad}{name} = {start}", f"{pad}while {test}:"]
            self.block(pad + "    ", idx, margin, False, depth, body_count, depth < 1)
            self.lines.append(f"{pad}    {name} += {self.pick('1', '1', '2')}")
        else:
            self.lines.append(f"{pad}for {name} in {rng}:")
            self.block(pad + "    ", idx, margin, True, depth, body_count, depth < 1)

    def program(self) -> str:
        out = self.pick("np.zeros(n)", "np.zeros_like(x)", "x.copy()",
                        "np.zeros(n, np.int64)")
        init = [
            "n = len(x)",
            f"s = {self.pick('0.0', '0', '1.5', '-0.0')}",
            "c = 0",
            f"best = {self.pick('-1e300', '-np.inf', '0', 'x[0] if n else 0.0')}",
            "arg = -1",
            f"acc = {self.pick('0.0', 'np.float32(0.0)', '0', 'np.float64(1.0)')}",
            "last = -1",
            f"out = {out}",
        ]
        if self.friendly:     # (NumPy scalars of x's float64 from the start: a value
            init[1] = "s = x[0] * 0.0 if n else np.float64(0.0)"   # whose type a trip
            init[3] = "best = x[0] if n else np.float64(0.0)"      # changes is no loop
            init[5] = "acc = np.float64(0.0)"                      # node's carry)
        self.lines = ["    " + line for line in init]
        self.loop("    ", [], (0, 0), 0)
        if self.r.random() < 0.3:
            self.loop("    ", [], (0, 0), 0)
        self.lines.append("    return s, c, best, arg, acc, last, out")
        return "def prog(x, y, t):\n" + "\n".join(self.lines) + "\n"


def program(seed: int) -> str:
    """The source of a random ``def prog(x, y, t)`` (the same for the same seed)."""
    return _Writer(seed).program()


def _array(r: random.Random, dtype: str, n: int) -> np.ndarray:
    if dtype == "bool":
        return np.array([r.random() < 0.5 for _ in range(n)], dtype=bool)
    if dtype.startswith("int"):
        info = np.iinfo(dtype)
        pool = [0, 1, -1, 2, 3, -5, 7, info.max, info.min]
        return np.array([r.choice(pool) for _ in range(n)], dtype=dtype)
    pool = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 0.25, 7.5, math.nan, math.inf, -math.inf]
    weights = [3, 1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1]
    return np.array(r.choices(pool, weights, k=n), dtype=dtype)


def inputs(seed: int, dtype: str | None = None) -> list[tuple]:
    """2-3 calls' ``(x, y, t)``: sizes drawn from ``SIZES`` (changing), ``y`` of x's
    size and a dtype of its own, ``t`` a Python number."""
    r = random.Random(seed * 7919 + 1)
    xdt = dtype or r.choice(DTYPES)
    ydt = r.choice(["float64", xdt])
    if dtype is None and _Writer(seed).friendly and r.random() < 0.7:
        xdt = ydt = "float64"     # (most of the programs written for loop nodes)
    calls = []
    for _ in range(r.choice([2, 3, 3])):
        n = r.choices(SIZES, [1, 1, 1, 2, 5])[0]      # (loop nodes from 9 trips on)
        calls.append((_array(r, xdt, n), _array(r, ydt, n), r.choice([0.0, 0.5, -1.0, 1, 2.5])))
    return calls


# ------------------------------------------------------------------------ comparison

def same(a, b) -> str | None:
    """None when ``a`` and ``b`` are the same (type, dtype, shape, every bit but NaN
    payloads; Python floats by their bits too), else what differs."""
    if type(a) is not type(b):
        return f"type {type(a).__name__} != {type(b).__name__} ({a!r} vs {b!r})"
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return f"length {len(a)} != {len(b)} ({a!r} vs {b!r})"[:600]
        for k, (x, y) in enumerate(zip(a, b)):
            d = same(x, y)
            if d:
                return f"[{k}]: {d}"
        return None
    if isinstance(a, float):
        ok = (math.isnan(a) and math.isnan(b)) or \
            (a == b and math.copysign(1, a) == math.copysign(1, b))
        return None if ok else f"{a!r} != {b!r}"
    if not isinstance(a, (np.ndarray, np.generic)):
        return None if a == b else f"{a!r} != {b!r}"
    if a.dtype != b.dtype:
        return f"dtype {a.dtype} != {b.dtype}"
    if np.shape(a) != np.shape(b):
        return f"shape {np.shape(a)} != {np.shape(b)}"
    x, y = np.atleast_1d(a), np.atleast_1d(b)
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        if not (nan == np.isnan(y)).all():
            return f"NaN at other places: {a!r} vs {b!r}"
        x, y = x[~nan], y[~nan]
        if x.size and not (x.view(np.uint8) == y.view(np.uint8)).all():
            return f"bits {a!r} != {b!r}"
        return None
    return None if (x == y).all() else f"{a!r} != {b!r}"


def observe(fn, args) -> tuple:
    """(result, or ("raised", type name, message); the inputs after the call;
    the warnings, in order) of one call on copies of ``args``."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001 (plain Python's exception is the one expected)
            result = ("raised", type(e).__name__, str(e))
    return result, args, [(w.category.__name__, str(w.message)) for w in caught]


NATIVE = {"after_calls": 1, "background": False, "prefer": "native"}


def compiled(fn, backend: str, cache_dir: str | None = None, made: list | None = None):
    """``fn`` compiled by ``backend``; ``"native"``: tier 2 forced (the kernel compiled
    at a graph's first call, in the foreground, and run from its second), what the
    backend made appended to ``made``."""
    if backend != "native":
        return dynamo.compile(fn, backend=backend)
    from dynamo.backends.native.backend import native_backend
    options = dict(NATIVE, **({"cache_dir": cache_dir} if cache_dir else {"cache": False}))

    def tier_two(graph, example_inputs):
        out = native_backend(graph, example_inputs, options=options)
        if made is not None:
            made.append(out)
        return out
    return dynamo.compile(fn, backend=tier_two)


def compile_plain(source: str):
    """``prog`` of ``source``, as plain Python."""
    scope = {"np": np}
    exec(compile(source, "<random loop program>", "exec"), scope)
    return scope["prog"]


def differences(source: str, calls: list[tuple], backend: str,
                cache_dir: str | None = None, made: list | None = None,
                settings: dict | None = None) -> list[str]:
    """What ``prog`` of ``source`` compiled by ``backend`` does otherwise than plainly,
    call by call (empty: nothing). A compiled call that raises where the plain one
    does not is one too (an internal crash)."""
    fn = compile_plain(source)
    dynamo.reset()
    comp = compiled(fn, backend, cache_dir, made)
    found: list[str] = []
    internal = _Internal()
    logging.getLogger("dynamo.internal").addHandler(internal)
    old = {k: getattr(dynamo.config, k) for k in settings or {}}
    try:
        for k, v in (settings or {}).items():
            setattr(dynamo.config, k, v)
        _compare(fn, comp, calls, backend, found)
    finally:
        for k, v in old.items():
            setattr(dynamo.config, k, v)
        logging.getLogger("dynamo.internal").removeHandler(internal)
    found += [f"{backend} internal error: {m}" for m in internal.messages]
    return found


class _Internal(logging.Handler):
    """The ``dynamo.internal`` warnings: a frame that fell back after an internal error
    (its results are plain Python's, but the error is dynamo's bug)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _compare(fn, comp, calls, backend, found) -> None:
    for k, args in enumerate(calls):
        want = observe(fn, args)
        for rep in range(2 if backend == "native" else 1):
            got = observe(comp, args)
            where = f"{backend} call {k + 1}{'.' + str(rep + 1) if rep else ''}"
            d = same(want[0], got[0])
            if d:
                found.append(f"{where}: result {d}")
            d = same(want[1], got[1])
            if d:
                found.append(f"{where}: inputs after the call {d}")
            if want[2] != got[2]:
                found.append(f"{where}: warnings {got[2]} != {want[2]}")


def loop_nodes(source: str, calls: list[tuple], settings: dict | None = None) -> int:
    """How many loop nodes (``fori_loop``/``while_loop``) the eager backend's graphs of
    the program hold over ``calls``: tier 2's search runs only programs with some."""
    from dynamo.backends.registry import lookup_backend
    eager, texts = lookup_backend("eager"), []

    def keep(graph, example_inputs):
        texts.append(str(graph))
        return eager(graph, example_inputs)
    fn = compile_plain(source)
    dynamo.reset()
    comp = dynamo.compile(fn, backend=keep)
    old = {k: getattr(dynamo.config, k) for k in settings or {}}
    try:
        for k, v in (settings or {}).items():
            setattr(dynamo.config, k, v)
        for args in calls:
            observe(comp, args)
    finally:
        for k, v in old.items():
            setattr(dynamo.config, k, v)
    text = "\n".join(texts)
    return text.count("ops.fori_loop(") + text.count("ops.while_loop(")


def failure_kind(found: list[str]) -> str:
    """A difference's kind, for grouping and for the shrinker: ``"raised"`` (the
    compiled call raised another exception), ``"result"``, ``"inputs"``,
    ``"warnings"``, with the backend."""
    first = found[0]
    backend = first.split()[0]
    if " internal error: " in first:
        return f"{backend} internal error {first.split(': ')[2].split()[0]}"
    if "'raised'" in first:
        return f"{backend} raised"
    for kind in ("warnings", "inputs", "result"):
        if f": {kind}" in first:
            return f"{backend} {kind}"
    return f"{backend} other"
