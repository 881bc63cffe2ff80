"""Random loops through both CPU backends, compared with plain Python.

Hypothesis writes small loops of the kind loop nodes are made for: carried
Python and NumPy scalars, reads of ``x[i]`` and its neighbours, writes ``x[i] = ...``,
temporaries, several ops on one line, ops that warn (a division by zero, the log of
zero) on some trips; and loops over the rows of a square array whose slices grow
with the index (``A[i, :i]``, ``v[i - 1::-1]``: triangular loop nodes), reduced by
sums, means of empty slices and dot products. The compiled function must give the same values, types and bits,
the same warnings in the same order and the same ``seterrcall`` calls (``observe``),
over two calls; the inputs include zeros, so most programs warn on some trip.
"""

import textwrap

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_numpy_never_wrong import identical, observe

import dynamo

UNARY = ["(-{0})", "abs({0})", "np.sqrt(np.abs({0}))", "({0} * 0.5)", "np.tanh({0})",
         "np.log(np.abs({0}))", "({0} ** 2)"]
BINARY = ["({0} + {1})", "({0} - {1})", "({0} * {1})", "({0} / {1})",
          "np.maximum({0}, {1})", "np.minimum({0}, {1})"]


@st.composite
def loops(draw):
    """(source of ``def prog(x, c)``, x, c)."""
    lo, hi = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    reads = ["x[i]"] + [f"x[i - {k}]" for k in range(1, lo + 1)] + \
        [f"x[i + {k}]" for k in range(1, hi + 1)]
    init = draw(st.sampled_from(["0.0", "1.0", "x[0]", "np.float32(1.5)", "c"]))
    lines = [f"s = {init}", "u = 1.0", f"for i in range({lo}, len(x) - {hi}):"]
    values = ["s", "u", "c", "2.0", *reads]
    body = []
    for k in range(draw(st.integers(1, 6))):
        depth = draw(st.integers(1, 3))      # ops on one line: one expression
        expr = draw(st.sampled_from(values))
        for _ in range(depth):
            if draw(st.booleans()):
                expr = draw(st.sampled_from(UNARY)).format(expr)
            else:
                other = draw(st.sampled_from(values))
                pair = (expr, other) if draw(st.booleans()) else (other, expr)
                expr = draw(st.sampled_from(BINARY)).format(*pair)
        target = draw(st.sampled_from([f"t{k}", "s", "u", "x[i]"]))
        body.append(f"{target} = {expr}")
        if target.startswith("t"):
            values.append(target)
    lines += ["    " + line for line in body]
    src = "def prog(x, c):\n" + textwrap.indent("\n".join(lines), "    ") + \
        "\n    return s, u, x\n"
    dtype = draw(st.sampled_from([np.float64, np.float32, np.int64]))
    n = draw(st.one_of(st.integers(0, 3), st.integers(9, 30)))   # (loop nodes past 8)
    raw = draw(st.lists(st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 0.25]),
                        min_size=n, max_size=n))
    c = draw(st.sampled_from([0.5, 2, np.float32(0.75), np.float64(-1.0)]))
    return src, np.array(raw).astype(dtype), c


def _agree(src, *args):
    """``prog`` of ``src`` compiled on each CPU backend against plain Python, over two
    calls: result, warnings and errcall calls."""
    scope = {"np": np}
    exec(compile(src, "<random loop>", "exec"), scope)
    fn = scope["prog"]
    for backend in ("eager", "numpy"):
        dynamo.reset()
        compiled = dynamo.compile(fn, backend=backend)
        for call in range(2):
            want, got = observe(fn, args), observe(compiled, args)
            try:
                identical(want[0], got[0], f"call {call + 1}: result")
                assert got[1] == want[1], f"call {call + 1}: warnings {got[1]} != {want[1]}"
                assert got[2] == want[2], f"call {call + 1}: errcall {got[2]} != {want[2]}"
            except AssertionError as e:
                raise AssertionError(f"{backend} backend\n{src}\nargs={args!r}\n{e}") \
                    from None


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(loops())
def test_random_loops_equal_plain_python(case):
    _agree(*case)


# array-valued bodies: rows (length n), slices that grow with the index (length i,
# the triangular loops of forward substitution and Levinson), and scalars
FAMILIES = {
    "row": ["A[i]", "A[i - 1]", "v", "A[:, i]"],
    "grow": ["A[i, :i]", "v[:i]", "A[:i, i]", "v[i - 1::-1]"],
    "scalar": ["s", "c", "A[i, i]", "v[i]", "A[i, i - 1]"],
}
REDUCE = ["{0}.sum()", "np.max({0}, initial=-1.0)", "np.mean({0})", "({0} @ {1})",
          "{0}.min(initial=2.0)"]
ARRAY_UNARY = ["(-{0})", "np.abs({0})", "({0} * 0.5)", "np.tanh({0})", "np.sqrt(np.abs({0}))"]
ARRAY_BINARY = ["({0} + {1})", "({0} - {1})", "({0} * {1})", "({0} / {1})"]


@st.composite
def array_loops(draw):
    """(source of ``def prog(A, v, c)``, A, v, c): a loop from 1 over square A."""
    lines = ["s = 0.0", "for i in range(1, len(v)):"]
    for _ in range(draw(st.integers(1, 4))):
        family = draw(st.sampled_from(["row", "grow", "scalar"]))
        expr = draw(st.sampled_from(FAMILIES[family]))
        for _ in range(draw(st.integers(0, 2))):
            if draw(st.booleans()):
                expr = draw(st.sampled_from(ARRAY_UNARY)).format(expr)
            else:
                other = draw(st.sampled_from(FAMILIES[family] + FAMILIES["scalar"]))
                expr = draw(st.sampled_from(ARRAY_BINARY)).format(expr, other)
        if family == "scalar":
            target = draw(st.sampled_from(["s", "A[i, i]", "v[i]"]))
        else:
            target = draw(st.sampled_from(["s", "write"]))
        if target == "s" and family != "scalar":
            reduce = draw(st.sampled_from(REDUCE))
            expr = reduce.format(expr, draw(st.sampled_from(FAMILIES[family])))
        if target == "write":
            target = {"row": "A[i]", "grow": "A[i, :i]"}[family]
        lines.append(f"    {target} = {expr}")
    src = "def prog(A, v, c):\n" + textwrap.indent("\n".join(lines), "    ") + \
        "\n    return s, A, v\n"
    n = draw(st.one_of(st.integers(1, 3), st.integers(10, 16)))
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    vals = st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0, -3.0])
    A = np.array(draw(st.lists(vals, min_size=n * n, max_size=n * n))).reshape(n, n)
    v = np.array(draw(st.lists(vals, min_size=n, max_size=n)))
    c = draw(st.sampled_from([0.5, np.float32(2.0)]))
    return src, A.astype(dtype), v.astype(dtype), c


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(array_loops())
def test_random_array_loops_equal_plain_python(case):
    _agree(*case)
