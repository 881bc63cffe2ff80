"""Break programs for the annotate tests: one per cause the report has to show.

``line_of(fn, text)`` finds a line by its text, so the tests never hard-code numbers.
"""

from __future__ import annotations

import inspect

import numpy as np

X = np.linspace(-1, 1, 12).reshape(3, 4)


def line_of(fn, text: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    hits = [start + i for i, ln in enumerate(lines) if text in ln]
    assert len(hits) == 1, f"{text!r} found {len(hits)} times in {fn.__name__}"
    return hits[0]


def print_between(x):
    y = np.exp(x) + 1
    print("between graphs")
    z = y * 2
    return z.sum()


def data_if(x):
    y = x * 2
    if y.sum() > 0:
        y = y + 1
    else:
        y = y - 1
        y = y.astype(np.float16)   # (the ways' dtypes differ: the `if` stays a break)
    return np.tanh(y)


def float_conv(x):
    y = np.sin(x)
    s = float(y.sum())
    return y * s ** 2    # (** reads the number: a break; y * s would not)


def loop_print(x):
    for i in range(3):
        x = x + i
        print("step", i)
    return x * 2


def helper(y):
    print("in helper")
    return y + 1


def helper_break(x):
    y = x * 3
    z = helper(y)
    return np.cos(z)


def no_break(x):
    n = x.shape[0]
    y = np.exp(x) * n
    return y - 1


class Scale:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        y = x * self.k
        print("scaled")
        return y + 1


def raises(x):
    y = x + 1
    print("about to fail")
    return y @ np.ones((7, 7))
