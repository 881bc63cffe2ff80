"""A method called on an expression of locals in an island (a loop that runs as Python
after a break): ``prob[:t].sum()``, ``(levels[:t] * prob[:t]).sum()``, ``(-x[:t]).max()``
call NumPy's C method as written, not through the island's ``intercept``
(``dynamo/bytecode/receiver_types.py``; issue #15: Otsu's threshold scan, three sums a
level, ran at 0.91x plain). Where the expression's type is not known to be a NumPy
array (a user class's slice, a product with a user object, a local the loop rebinds),
every call still goes through ``intercept``, and a user method still runs compiled."""

import numpy as np
import pytest
from bytecode import Bytecode
from test_island_calls import intercept_calls

import dynamo
from dynamo.bytecode.copies import split_super_instructions
from dynamo.bytecode.emit import is_call_load
from dynamo.bytecode.receiver_types import receiver_type


def level_scan(hist):
    """Otsu's scan: sums of slices and of products of slices; ``continue`` on an
    empty class (a branch on data) makes the loop an island."""
    prob = hist / hist.sum()
    levels = np.arange(len(hist))
    best, best_t = -1.0, 0
    for t in range(1, len(hist)):
        w0 = prob[:t].sum()
        w1 = 1.0 - w0
        if w0 == 0 or w1 == 0:
            continue
        mu0 = (levels[:t] * prob[:t]).sum() / w0
        spread = (-prob[t:]).max() + (prob[:t:2] - 0.5).mean()
        score = w0 * w1 * mu0 + spread
        if score > best:
            best, best_t = score, t
    return best_t, best


class Window:
    """A user sequence: its slice is a user object whose ``total`` is Python code."""

    def __init__(self, values):
        self.values = values

    def __getitem__(self, key):
        return Window(self.values[key])

    def total(self):
        return float(np.sum(self.values)) * 2.0


def user_slices(hist):
    w = Window(hist)
    best = 0.0
    for t in range(1, len(hist)):
        s = w[:t].total()
        if s > best:
            best = s
    return best


class Scaled:
    """A user object that takes part in ``x * obj`` through ``__rmul__``."""
    __array_ufunc__ = None

    def __rmul__(self, other):
        return Window(other)


def product_with_a_user_object(hist, obj):
    best = 0.0
    for t in range(1, len(hist)):
        s = (hist[:t] * obj).total()
        if s > best:
            best = s
    return best


def rebinds_the_array(hist):
    """``x`` is stored in the loop (with what ``np.asarray`` returns, which may be
    anything array-like): its type is not fixed for the island."""
    x = hist
    best = 0.0
    for t in range(1, len(hist)):
        s = x[:t].mean()
        if s == 0 or s > 1e9:
            continue
        best = max(best, s)
        x = np.asarray(x)
    return best


HIST = np.random.default_rng(5).integers(0, 50, 64).astype(float)
HIST[:3] = 0.0   # (an empty first class: the `continue` runs)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_methods_of_array_expressions_skip_the_hook(backend):
    assert dynamo.explain(level_scan, backend=backend)(HIST).graph_break_count == 1
    compiled = dynamo.compile(level_scan, backend=backend)
    for _ in range(3):
        assert compiled(HIST) == level_scan(HIST)
    assert intercept_calls(compiled, HIST) == 0


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,args", [(user_slices, (HIST,)),
                                     (product_with_a_user_object, (HIST, Scaled())),
                                     (rebinds_the_array, (HIST,))],
                         ids=["user-slice", "user-product", "rebound-local"])
def test_other_receivers_keep_the_hook(fn, args, backend):
    assert dynamo.explain(fn, backend=backend)(*args).graph_break_count >= 1
    compiled = dynamo.compile(fn, backend=backend)
    for _ in range(3):
        assert compiled(*args) == fn(*args)
    assert intercept_calls(compiled, *args) > 0


def _receiver_before(fn, method: str, local_types: dict):
    """``receiver_type`` at the load of ``method`` in ``fn``'s code, as the island's
    builder asks it (its super-instructions split)."""
    body = split_super_instructions(list(Bytecode.from_code(fn.__code__)))
    for i, item in enumerate(body):
        if getattr(item, "name", None) is not None and is_call_load(item) and \
                (item.arg[1] if isinstance(item.arg, tuple) else item.arg) == method:
            return receiver_type(body[:i], local_types)
    raise AssertionError(f"no load of {method}")


def test_receiver_types_read_off_the_code():
    def f(x, y, t, u, s, obj, lst):
        a = x[:t].sum()
        b = (x[t:u] * y[:t]).mean()
        c = (-x[1:-1:2]).max()
        d = (x + 1.5).min()
        e = lst[1:t].count(3)
        g = (x * obj).total()
        h = x[t].item()
        k = (x @ y).sum()
        m = s[:t].argmax()
        return a, b, c, d, e, g, h, k, m
    types = {"x": np.ndarray, "y": np.ndarray, "lst": list, "s": object}
    assert _receiver_before(f, "sum", types) is np.ndarray
    assert _receiver_before(f, "mean", types) is np.ndarray
    assert _receiver_before(f, "max", types) is np.ndarray
    assert _receiver_before(f, "min", types) is np.ndarray
    assert _receiver_before(f, "count", types) is list
    assert _receiver_before(f, "total", types) is None      # obj: type unknown
    assert _receiver_before(f, "item", types) is None       # x[t]: an element, any type
    assert _receiver_before(f, "argmax", types) is None     # s: not a type slices keep
    assert _receiver_before(f, "total", {**types, "obj": float}) is np.ndarray
    assert _receiver_before(f, "sum", {}) is None           # no local types known
