"""Tier 2 (backend="native", Numba loop nests) against eager NumPy on random programs.

Each example is a random program over two array inputs ``x``, ``y`` and a Python
scalar ``s`` (``_Gen``): elementwise chains with mixed dtypes and Python scalars,
comparisons and bool logic, ``where``/``maximum``/``minimum``, integer ops that
overflow, ``abs`` of the integer minimum, ``astype``, reductions with and without
``keepdims``, transcendentals, stencil slices, in-place slice stores into an input,
loops with carried values and stencil loops that swap their arrays; the second test
adds ops tier 2 does not lower (``~``, ``clip``, ``**`` of arrays, float16: the graph
stays in tier 1) or lowers with a check (integer floor division and modulo by zero and
of negative operands, shifts: a flagged call reruns in tier 1). Inputs are drawn over
every dtype (bool, signed and unsigned integers, float16/32/64, complex64/128), shapes
(0-size, 1-element, 2-D) and layouts (C, Fortran, strided, negative strides), with
NaN, infinities, signed zeros and the integer extremes among the values.

The program runs eagerly, then compiled with tier 2 forced (``after_calls=1``,
``background=False``, ``prefer="native"``): the first call is tier 1's, the second
tier 2's (or tier 1's again where tier 2 cannot be exact: the graph is not lowered, or
the call falls back). Both must agree with eager (``_agree``):

- bool, integer and complex results: identical (dtype, shape, values);
- float results: identical bits, NaN positions and the sign of zero included (float
  sums and means too: NumPy's pairwise order), except the outputs of a float ``prod``
  and a complex ``sum``/``mean`` (another order: docs/native.md's tolerance,
  ``2 * n * eps * sum(|x|)``) and of ``exp``, ``log``,
  ``tanh``, ``sin``, ``cos`` (4 ulp): those are only returned, never read again;
- the inputs after the call (in-place stores): as eager left them;
- warnings (category and message) and exceptions (type) as eager's.

Numba's compile dominates the cost (about a second of CPU per kernel): the examples
are few and each program holds several statements; the kernels go to one disk cache
per test session.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass

import numpy as np
import pytest

import dynamo

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402

# ----------------------------------------------------------------------- the generator

INTS = ["int8", "uint8", "int16", "int32", "int64", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
DTYPES = ["bool"] + INTS + FLOATS + COMPLEX
SHAPES = [(5,), (1,), (0,), (3, 4), (1, 1), (0, 3), (2, 5), (40,), (6, 9)]
LAYOUTS = ["C", "F", "strided", "negative"]


class _Gen:
    """A random program ``prog(x, y, s)`` for inputs of the given dtypes and ndim.

    Each value's dtype is worked out by NumPy itself, on 1-element samples (a statement
    NumPy refuses for these dtypes is not generated). Values of x's shape (``full``) are
    operands of later statements; reductions and stencils are only returned.
    ``tolerant`` names the outputs computed from a float sum, mean or prod (compared
    within the summation-order tolerance). ``lowered=True`` keeps to the ops tier 2
    lowers (so that most graphs run in tier 2); ``False`` draws from every op."""

    def __init__(self, seed: int, xdt: str, ydt: str, ndim: int, lowered: bool):
        self.r = random.Random(seed)
        self.ndim, self.lowered = ndim, lowered
        self.lines: list[str] = []
        self.dtypes = {"x": xdt, "y": ydt}
        self.full = ["x", "y"]
        self.outs: list[str] = []
        self.tolerant: set[str] = set()
        self.count = 0

    def new(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def dtype_of(self, expr: str) -> str | None:
        """The dtype NumPy gives ``expr`` for 1-element samples of the named values
        (None: NumPy refuses it)."""
        env = {n: np.ones((1,) * self.ndim, dt) for n, dt in self.dtypes.items()}
        env["s"] = 3
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return str(np.asarray(eval(expr, {"np": np}, env)).dtype)
            except Exception:  # noqa: BLE001
                return None

    def add(self, expr: str, full: bool = True, tolerant: bool = False) -> None:
        dtype = self.dtype_of(expr)
        if dtype is None or self.lowered and dtype == "float16":
            return
        name = self.new()
        self.lines.append(f"{name} = {expr}")
        self.dtypes[name] = dtype
        (self.full if full else self.outs).append(name)
        if tolerant:
            self.tolerant.add(name)

    def pick(self) -> str:
        return self.r.choice(self.full)

    def scalar(self) -> str:
        """A Python scalar operand: the parameter ``s`` (an int) or a literal."""
        return self.r.choice(["s", "2", "-1", "3", "0", "7", "True", "0.5", "-0.0",
                              "1e300", "1.5", "-2.5"])

    def operand(self) -> str:
        return self.pick() if self.r.random() < 0.6 else self.scalar()

    # -- statements --------------------------------------------------------------
    def elementwise(self) -> str:
        a, b = self.pick(), self.operand()
        binary = ["+", "-", "*", "/", "&", "|", "^"]
        unary = ["-{a}", "abs({a})", "np.abs({a})", "+{a}", "np.square({a})",
                 "np.sqrt({a})", "np.negative({a})", "np.isnan({a})", "np.isfinite({a})",
                 "np.isinf({a})", "np.logical_not({a})", "({a} ** 2)", "({a} ** 0.5)",
                 "({a} ** -1)"]
        if not self.lowered:
            binary += ["//", "%", "<<", ">>", "**"]
            unary += ["~{a}", "np.clip({a}, -1, 3)", "np.clip({a}, 0, 5)"]
        r = self.r.random()
        if r < 0.45:
            op = self.r.choice(binary)
            if op == "**":
                b = self.r.choice(["3", "2.0", "s", self.pick()])
            return f"({a} {op} {b})"
        if r < 0.6:
            return self.r.choice(unary).format(a=a)
        if r < 0.7:
            return f"np.{self.r.choice(['maximum', 'minimum'])}({a}, {b})"
        if r < 0.82:
            c = f"({a} {self.r.choice(['<', '<=', '>', '>=', '==', '!='])} {b})"
            if self.r.random() < 0.5:
                c2 = f"({self.pick()} > {self.r.choice(['0', '0.5', 's', '-1'])})"
                c = self.r.choice([f"({c} & {c2})", f"({c} | {c2})", f"({c} ^ {c2})",
                                   f"np.logical_and({c}, {c2})", f"np.logical_not({c})",
                                   f"np.logical_or({c}, {c2})", f"(~{c})"])
            return c
        if r < 0.92:
            return f"np.where({self.pick()} > {self.scalar()}, {a}, {b})"
        dtypes = [d for d in DTYPES if not (self.lowered and d == "float16")]
        return f"{a}.astype(np.{self.r.choice(dtypes)})"

    def reduction(self) -> None:
        a = self.pick()
        op = self.r.choice(["sum", "max", "min", "mean", "prod", "sum", "max"])
        axis = self.r.choice([None, -1, -1] + ([0] if not self.lowered else []))
        keep = self.r.random() < 0.4
        args = []
        if axis is not None or keep:
            args.append(f"axis={axis}")
        if keep:
            args.append("keepdims=True")
        expr = f"{a}.{op}({', '.join(args)})"
        kind = np.dtype(self.dtypes[a]).kind
        # a float sum is not read again (programs as they were drawn before sums
        # were exact); max/min and integer sums are: with keepdims they broadcast back.
        # Float sums and means are NumPy's bits (its pairwise order); products and
        # complex sums are compared within the summation-order tolerance
        inexact = op in ("sum", "mean", "prod") and (kind in "fc" or op == "mean")
        tolerant = op == "prod" and kind in "fc" or op in ("sum", "mean") and kind == "c"
        self.add(expr, full=keep and not inexact and axis is not None, tolerant=tolerant)

    def transcendental(self) -> None:
        """exp, log, tanh, sin, cos: within 4 ulp of NumPy's (SIMD) versions, so only
        returned, never compared or branched on (a last-bit difference would flip
        the branch)."""
        fn = self.r.choice(["exp", "log", "tanh", "sin", "cos"])
        a = self.pick()
        arg = self.r.choice([a, f"{a} - {a}.max(axis=-1, keepdims=True)", f"{a} * 0.5"])
        self.add(f"np.{fn}({arg})", full=False, tolerant=True)

    def stencil(self) -> None:
        a = self.pick()
        lo = ", ".join([":"] * (self.ndim - 1) + ["1:"])
        hi = ", ".join([":"] * (self.ndim - 1) + [":-1"])
        self.add(f"{a}[{lo}] {self.r.choice(['-', '+', '*'])} {a}[{hi}]", full=False)

    def store(self) -> None:
        """An in-place store into ``x`` (the value cast to x's dtype, as NumPy does)."""
        pairs = [("x[1:]", "[:-1]"), ("x[:-1]", "[1:]"), ("x[::2]", "[::2]"),
                 ("x[1:-1]", "[:-2]")] if self.ndim == 1 else \
            [("x[1:, :]", "[:-1, :]"), ("x[:, 1:]", "[:, :-1]"), ("x[0]", "[-1]"),
             ("x[1:-1, 1:-1]", "[2:, :-2]")]
        target, src = self.r.choice(pairs)
        v = self.pick()
        value = f"{v}{src} {self.r.choice(['+', '*', '-'])} {self.scalar()}"
        dtype = self.dtype_of(value)
        if dtype is None or not np.can_cast(dtype, self.dtypes["x"], "same_kind"):
            return   # (a narrowing store keeps the whole graph in tier 1: left out)
        self.lines.append(f"{target} = {value}")

    def loop(self) -> None:
        """A loop with carried values: a running update of x in place (the prefix sum)
        or a scalar accumulator over the first axis."""
        op = self.r.choice(["+", "*", "-"])
        if self.ndim == 1 and self.r.random() < 0.5:
            if self.dtype_of(f"x {op} x") == self.dtypes["x"]:
                self.lines += ["for i in range(1, x.shape[0]):",
                               f"    x[i] = x[i] {op} x[i - 1]"]
            return
        a = self.pick()
        row = "[i]" if self.ndim == 1 else "[i, 0]"
        acc = self.new()
        dtype = self.dtype_of(f"{a}{row.replace('i', '0')} {op} 1.5")
        if dtype is None:
            return
        self.lines += [f"{acc} = 1.5",
                       f"for i in range({a}.shape[0]):",
                       f"    {acc} = {acc} {op} {a}{row}"]
        self.outs.append(acc)

    def swap_loop(self) -> None:
        """A stencil loop that swaps its arrays each trip (Jacobi's shape): ``u`` is x
        and ``v`` a new array, or x and y, so the loop carries an input in a slot that
        holds a new array on other trips."""
        if self.dtype_of("x * 0.5") != self.dtypes["x"]:
            return
        u, v = self.new(), self.new()
        other = "y" if self.r.random() < 0.5 and self.dtypes["y"] == self.dtypes["x"] \
            else "x * 1"
        store = "{v}[1:] = 0.5 * ({u}[:-1] + {u}[1:]) - {u}[1:]" if self.ndim == 1 else \
            "{v}[1:-1, 1:-1] = 0.25 * ({u}[:-2, 1:-1] + {u}[2:, 1:-1] + {u}[1:-1, :-2] " \
            "+ {u}[1:-1, 2:])"
        self.lines += [f"{u}, {v} = x, {other}",
                       f"for _ in range({self.r.choice([1, 2, 3])}):",
                       "    " + store.format(u=u, v=v),
                       f"    {u}, {v} = {v}, {u}"]
        self.dtypes[u] = self.dtypes[v] = self.dtypes["x"]
        self.outs += [u, v]

    def build(self, statements: int) -> str:
        for _ in range(statements):
            r = self.r.random()
            if r < 0.55:
                self.add(self.elementwise())
            elif r < 0.65:
                self.reduction()
            elif r < 0.7:
                self.transcendental()
            elif r < 0.8:
                self.stencil()
            elif r < 0.88:
                self.store()
            elif r < 0.94:
                self.loop()
            else:
                self.swap_loop()
        outs = self.outs + [n for n in self.full[2:] if self.r.random() < 0.5]
        outs = outs or [self.full[-1]]
        body = "\n".join("    " + line for line in self.lines)
        return f"def prog(x, y, s):\n{body}\n    return ({', '.join(outs)},)\n"


@dataclass
class Program:
    """A generated program: ``fn`` (``prog(x, y, s)``), its ``source``, the positions
    of its outputs compared within a tolerance (``tolerant``) and ``probe``, the same
    body returning every value of x's shape (their magnitudes bound a sum's error)."""

    fn: object
    source: str
    tolerant: list
    probe: object


def make_program(seed: int, xdt: str, ydt: str, ndim: int, lowered: bool = True,
                 statements: int = 5) -> Program:
    gen = _Gen(seed, xdt, ydt, ndim, lowered)
    src = gen.build(statements)
    head, _, ret = src.rpartition("    return (")
    probe = f"{head}    return ({', '.join(gen.full)},)\n".replace("def prog(", "def probe(")
    scope = {"np": np}
    exec(compile(src + "\n\n" + probe, f"<random program {seed}>", "exec"), scope)
    outs = ret.rstrip(",)\n").split(", ")
    return Program(scope["prog"], src, [k for k, o in enumerate(outs) if o in gen.tolerant],
                   scope["probe"])


# ----------------------------------------------------------------------- inputs

SPECIALS = {
    "f": [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e300, -1e-300, 65504.0, 1.0, -2.5, 0.5],
    "c": [complex(np.nan, 1), complex(np.inf, 0), -0.0j, 1 + 2j, complex(0, -np.inf)],
}


def make_array(rng: np.random.Generator, dtype: str, shape: tuple, layout: str,
               special: float) -> np.ndarray:
    """An array of ``shape`` in ``layout``; a fraction ``special`` of its values are
    NaN, infinities, signed zeros, huge values (floats) or the extremes (integers)."""
    dt = np.dtype(dtype)
    big = tuple(2 * n + 1 for n in shape)   # strided/negative views are taken from it
    n = int(np.prod(big))
    if dt.kind == "b":
        a = rng.random(n) < 0.5
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -100), min(info.max, 100)
        a = rng.integers(lo, hi, n, endpoint=True).astype(dt)
        mask = rng.random(n) < special
        extremes = np.array([info.min, info.max, 0, info.min + 1 if info.min else 1], dt)
        a[mask] = rng.choice(extremes, int(mask.sum()))
    else:
        a = (rng.standard_normal(n) * 3).astype(dt)
        if dt.kind == "c":
            a = a + 1j * rng.standard_normal(n).astype(dt)
        mask = rng.random(n) < special
        pool = SPECIALS["c" if dt.kind == "c" else "f"]
        with np.errstate(over="ignore"):
            a[mask] = np.array([pool[k] for k in rng.integers(0, len(pool), int(mask.sum()))],
                               dtype=dt)
    a = a.reshape(big)
    if layout == "strided":
        return a[tuple(slice(0, 2 * m, 2) for m in shape)]
    if layout == "negative":
        return a[tuple(slice(m - 1, None, -1) if m else slice(0, 0) for m in shape)]
    a = np.ascontiguousarray(a[tuple(slice(0, m) for m in shape)])
    return np.asfortranarray(a) if layout == "F" else a


# ----------------------------------------------------------------------- comparison


def _bits_equal(got: np.ndarray, want: np.ndarray) -> bool:
    """Float arrays equal bit for bit up to the NaN payload: NaN positions, the sign of
    zero and every other value identical."""
    if got.dtype.kind not in "fc":
        return bool(np.array_equal(got, want))
    parts = [(got.real, want.real), (got.imag, want.imag)] if got.dtype.kind == "c" \
        else [(got, want)]
    for g, w in parts:
        if not np.array_equal(np.isnan(g), np.isnan(w)):
            return False
        ok = ~np.isnan(w)
        if not (np.array_equal(g[ok], w[ok]) and
                np.array_equal(np.signbit(g[ok]), np.signbit(w[ok]))):
            return False
    return True


def _agree(got, want, tolerance=None, where=""):
    """``got`` is eager's ``want``: type, dtype, shape, values (see the module
    docstring); ``tolerance``: ``(atol, rtol)`` for an inexact float output, or a list
    of them (or None) per item of a tuple."""
    assert type(got) is type(want), f"{where}: type {type(got)} != {type(want)}"
    if isinstance(want, tuple):
        assert len(got) == len(want), where
        for k, (g, w) in enumerate(zip(got, want)):
            _agree(g, w, tolerance[k] if isinstance(tolerance, list) else tolerance,
                   f"{where}[{k}]")
        return
    if isinstance(want, (np.ndarray, np.generic)):
        assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
        assert np.shape(got) == np.shape(want), f"{where}: shape"
        g, w = np.asarray(got), np.asarray(want)
        if tolerance is None or w.dtype.kind not in "fc":
            assert _bits_equal(g, w), f"{where}: {got!r} != {want!r}"
            return
        atol, rtol = tolerance
        for gp, wp in ([(g.real, w.real), (g.imag, w.imag)] if w.dtype.kind == "c"
                       else [(g, w)]):
            assert np.array_equal(np.isnan(gp), np.isnan(wp)), f"{where}: NaN {g!r} {w!r}"
            inf = np.isinf(wp)
            assert np.array_equal(gp[inf], wp[inf]), f"{where}: inf {g!r} {w!r}"
            ok = np.isfinite(wp)
            assert (np.abs(gp[ok] - wp[ok]) <= atol + rtol * np.abs(wp[ok])).all(), \
                f"{where}: {g!r} != {w!r} within atol {atol}, rtol {rtol}"
        return
    assert got == want or (got != got and want != want), f"{where}: {got!r} != {want!r}"


def _run(fn, args):
    """(result or the exception's type, the inputs after the call, warnings)."""
    args = [a.copy(order="K") if isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args)
        except Exception as e:  # noqa: BLE001 (eager's exception is the expected one)
            out = type(e)
    return out, args, sorted({(w.category.__name__, str(w.message)) for w in caught})


def _tolerances(program: Program, args: list, want: tuple) -> list:
    """``(atol, rtol)`` per tolerant output: a float sum of ``n`` values differs from
    NumPy's by at most ``2 * n * eps * sum(|v|)`` (docs/native.md), bounded here with
    the largest ``sum(|v|)`` of the program's values of x's shape; exp, log, tanh, sin
    and cos by 4 ulp (rtol 8 eps leaves room for the one subtraction before them)."""
    out: list = [None] * len(want)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        values = program.probe(*[a.copy() if isinstance(a, np.ndarray) else a
                                 for a in args])
        mags = [float(np.nansum(np.abs(np.nan_to_num(np.asarray(v, np.complex128),
                                                     posinf=0, neginf=0))))
                for v in values]
    n = max(a.size for a in args if isinstance(a, np.ndarray)) + 1
    for k in program.tolerant:
        dtype = np.asarray(want[k]).dtype
        if dtype.kind in "fc":
            eps = float(np.finfo(dtype).eps)
            out[k] = (2 * n * eps * (max(mags) + 1), 8 * eps)
    return out


SYNC = {"after_calls": 1, "background": False, "prefer": "native"}


def check_program(program: Program, args: list, cache_dir, **options) -> list:
    """``program`` eager against compiled (the first call runs tier 1, the second tier
    2 where the graph was lowered); returns what the backend made (``Tiered`` objects
    for lowered graphs)."""
    made = []

    def backend(graph, example_inputs):
        out = native_backend(graph, example_inputs,
                             options={**SYNC, "cache_dir": str(cache_dir), **options})
        made.append(out)
        return out
    want, want_args, want_warn = _run(program.fn, args)
    tolerance = _tolerances(program, args, want) \
        if program.tolerant and isinstance(want, tuple) else None
    compiled = dynamo.compile(program.fn, backend=backend)
    for call in ("tier 1", "tier 2"):
        got, got_args, got_warn = _run(compiled, args)
        where = f"{call} of\n{program.source}"
        if isinstance(want, type):
            assert got is want, f"{where}: raised {got} instead of {want}"
        else:
            _agree(got, want, tolerance, where)
        for g, w in zip(got_args, want_args):
            _agree(g, w, None, f"{where} (inputs after the call)")
        assert got_warn == want_warn, f"{where}: warnings {got_warn} != {want_warn}"
    return made


# ----------------------------------------------------------------------- the tests

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """One disk cache for the module's kernels (a program drawn twice loads its kernel
    instead of compiling it)."""
    return tmp_path_factory.mktemp("native-kernels")


def _inputs(seed: int, xdt: str, ydt: str, shape: tuple, layout: str, y_row: bool,
            special: float, s) -> list:
    rng = np.random.default_rng(seed)
    x = make_array(rng, xdt, shape, layout, special)
    y = make_array(rng, ydt, shape[-1:] if y_row else shape, "C", special)
    return [x, y, s]


_EXAMPLE = dict(
    seed=st.integers(0, 2**20), shape=st.sampled_from(SHAPES),
    layout=st.sampled_from(LAYOUTS), y_row=st.booleans(),
    special=st.sampled_from([0.0, 0.0, 0.25]), s=st.sampled_from([3, -2, 0, 1.5]),
    statements=st.integers(2, 6), parallel_min=st.sampled_from([16, 1 << 14]))


def test_random_programs_of_lowered_ops(cache_dir):
    """Programs of the ops tier 2 lowers, over every dtype it computes with: most run
    in tier 2 (asserted: at least a third of the examples), and every one agrees with
    eager."""
    lowered_dtypes = [d for d in DTYPES if d != "float16"]
    seen = {"examples": 0, "native": 0}

    @settings(max_examples=45, deadline=None, derandomize=True, database=None)
    @given(xdt=st.sampled_from(lowered_dtypes), ydt=st.sampled_from(lowered_dtypes),
           **_EXAMPLE)
    def run(seed, xdt, ydt, shape, layout, y_row, special, s, statements, parallel_min):
        program = make_program(seed, xdt, ydt, len(shape), True, statements)
        args = _inputs(seed, xdt, ydt, shape, layout, y_row, special, s)
        made = check_program(program, args, cache_dir, parallel_min_elements=parallel_min)
        seen["examples"] += 1
        seen["native"] += any(isinstance(m, Tiered) and m.native_calls for m in made)
    run()
    assert seen["native"] * 3 >= seen["examples"], seen


def test_random_programs_of_every_op(cache_dir):
    """Programs that also use ops tier 2 does not lower (``~``, ``clip``, ``**`` of
    arrays, float16: their graphs stay in tier 1) or lowers with a check (floor division
    and modulo by zero, shifts: a flagged call reruns in tier 1); every answer must
    still be eager's."""
    @settings(max_examples=25, deadline=None, derandomize=True, database=None)
    @given(xdt=st.sampled_from(DTYPES), ydt=st.sampled_from(DTYPES), **_EXAMPLE)
    def run(seed, xdt, ydt, shape, layout, y_row, special, s, statements, parallel_min):
        program = make_program(seed, xdt, ydt, len(shape), False, statements)
        args = _inputs(seed, xdt, ydt, shape, layout, y_row, special, s)
        check_program(program, args, cache_dir, parallel_min_elements=parallel_min)
    run()


# ----------------------------------------------------------------------- found by them


def _program(source: str) -> Program:
    scope = {"np": np}
    exec(compile(source, "<program>", "exec"), scope)
    return Program(scope["prog"], source, [], scope["prog"])


def test_an_empty_nest_is_still_checked(cache_dir):
    """A 0-size value's nest runs nothing, but its ops are lowered all the same: the
    complex ``minimum`` (not lowered) and the constant 1e300, which NumPy warns about
    when it casts it to complex64 whatever the size, kept the graph in tier 1 only for
    non-empty inputs (tier 2 returned without eager's warning)."""
    program = _program("def prog(x, y, s):\n    return (np.minimum(x, 1e300),)\n")
    made = check_program(program, [np.zeros(0, np.complex64), None, 3], cache_dir)
    # (complex ``minimum`` has no loop nest: NumPy's call from the kernel, which warns
    # under its error state, so the kernel flags every call and tier 1 answers)
    assert sum(m.native_calls for m in made if isinstance(m, Tiered)) == 0
    program = _program("def prog(x, y, s):\n    return (x * 1e300 + y,)\n")
    made = check_program(program, [np.zeros((0, 3), np.float32),
                                   np.zeros(3, np.float32), 3], cache_dir)
    assert sum(m.native_calls for m in made if isinstance(m, Tiered)) == 0


def test_python_bool_operands_are_lowered(cache_dir):
    """``x + True``, ``x & True``, ``x > True``: NumPy promotes a Python bool as its
    bool dtype (the lowest kind); such graphs run in tier 2 now (they stayed in tier 1:
    ``resolve_dtypes`` takes no weak bool)."""
    program = _program("def prog(x, y, s):\n"
                       "    return (x + True, (x > 0) & True, x * False, x > True)\n")
    for dtype in ("int8", "uint8", "float32", "bool"):
        x = np.array([[0, 1, 127], [2, 0, 1]], dtype)
        if dtype == "bool":
            program = _program("def prog(x, y, s):\n"
                               "    return (x + True, x & True, x * False, x > True)\n")
        made = check_program(program, [x, None, 3], cache_dir)
        assert sum(m.native_calls for m in made if isinstance(m, Tiered)) == 1, dtype
