"""Random programs with an int argument, called with changing values, against eager.

Automatic dynamic makes an int argument symbolic once its value changed between calls
(docs/dynamic_shapes.md). Hypothesis writes short functions that use ``n`` in the ways
user code does (arithmetic with arrays, sizes of new arrays, slices, loop bounds,
branches, Python arithmetic, returning it) and calls one compiled function with a
sequence of values: every result, and every exception, must be eager's.
"""

import textwrap

import numpy as np
import pytest
from harness import same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dynamo

USES = [
    "y = y * n",
    "y = y + n - 1",
    "y = y[:n] if n < len(y) else y",
    "y = y + np.zeros(n).sum()",
    "y = y * np.arange(n).mean() if n > 0 else y",
    "y = np.concatenate([y, np.ones(n)])",
    "y = y ** (n % 3)",
    "k = n // 2\ny = y * k",
    "k = n * n\ny = y + k",
    "y = y / (n + 1.0)",
    "y = y + float(n)",
    "for _ in range(min(n, 4)):\n    y = y * 1.5",
    "if n > 3:\n    y = -y",
    "y = y.reshape(-1)[: max(n, 1)]",
    "out.append(n + 1)",
    "y = np.full((n, 2), 0.5).sum() + y",
]


@st.composite
def programs(draw):
    lines = draw(st.lists(st.sampled_from(USES), min_size=1, max_size=4))
    body = "\n".join(lines)
    src = ("def prog(x, n):\n    y = x * 1.0\n    out = []\n" +
           textwrap.indent(body, "    ") + "\n    return y, n, out\n")
    values = draw(st.lists(st.integers(0, 9), min_size=2, max_size=7))
    return src, values


def build(src: str):
    scope = {"np": np}
    exec(compile(src, "<random int program>", "exec"), scope)
    return scope["prog"]


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 (compared)
        return e


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(programs())
def test_int_arguments_that_change_equal_eager(backend, program):
    src, values = program
    fn = build(src)
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    x = np.linspace(-1.0, 2.0, 7)
    with np.errstate(all="ignore"):
        for n in values:
            want, got = outcome(fn, x.copy(), n), outcome(compiled, x.copy(), n)
            if isinstance(want, Exception):
                assert type(got) is type(want), (src, n, got, want)
            else:
                same(want, got, path=f"n={n}")
