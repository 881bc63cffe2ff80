"""Programs with graph breaks of every cause, in straight code, loops, callees and methods.

Each entry: (name, fn, args, graphs, breaks) as reported by ``dynamo.explain`` for one
call. A break inside a loop or a try/with block makes the whole block run eagerly; the
code before it is one graph, the code after it runs in the same eager continuation.
"""

import contextlib
import logging
import sys

import numpy as np

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
Y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)
NEG = -np.abs(X) - 0.1
log = logging.getLogger("breaks_corpus")              # WARNING: info/debug are dropped
log_on = logging.getLogger("breaks_corpus.verbose")   # DEBUG: every call is a break
log_on.setLevel(logging.DEBUG)
log_on.addHandler(logging.NullHandler())


def b_print(x):
    y = x * 2
    print("y sum sign:", y.shape)
    return np.exp(y) + 1


def b_print_twice(x):
    a = x + 1
    print("first")
    b = a * 2
    print("second", b.dtype)
    return b - 1


def b_print_value(x):
    s = x.sum()
    print("sum", s)
    return x / s


def b_logging(x):
    y = x * 3
    log.info("y has shape %s", y.shape)      # below the level: dropped, one graph
    return y + 1


def b_logging_enabled(x):
    y = x * 3
    log_on.info("y has shape %s", y.shape)   # enabled: emitted between two graphs
    return y + 1


def b_io(x):
    y = np.tanh(x)
    sys.stdout.write("io\n")
    return y * 2


def b_unknown_c(x):
    y = x + 1
    z = sorted([3, 1, 2], key=lambda v: -v)
    return y * z[0]


def b_unregistered_np(x):
    y = x * 2
    z = np.ediff1d(y)  # not in the op registry (np.unwrap was, before it was added)
    return z + 1


def b_if_data(x):
    y = x * 2
    if y.sum() > 0:
        return y + 1
    return y - 1


def b_if_data_neg(x):
    return b_if_data(x)


def b_while_tol(x):
    err = 1.0
    y = x
    while err > 1e-3:
        y = y * 0.5
        err = float(np.abs(y).max())
    return y


def b_float(x):
    y = x * 2
    s = float(y.sum())
    return y * s


def b_int(x):
    n = int(np.argmax(x))
    return x * n


def b_item(x):
    v = x.max().item()
    return x + v


def b_tolist(x):
    rows = (x * 2).tolist()
    return len(rows), x + 1


def b_bool(x):
    y = x > 0
    if bool(y.any()):
        return x * 2
    return x


def b_mask(x):
    y = x * 2
    pos = y[y > 0]
    return pos.sum() + 1


def b_nonzero(x):
    y = x + 1
    idx = np.nonzero(y > 1)
    return y[idx] * 2


def b_unique(x):
    y = np.round(x * 2)
    u = np.unique(y)
    return u * 3


def b_try_except(x):
    y = x * 2
    try:
        z = y @ y
    except ValueError:
        z = y + 1
    return z * 3


def b_try_finally(x):
    y = x + 1
    try:
        y = y * 2
    finally:
        print("cleanup")
    return y


def b_with(x):
    y = x * 2
    with contextlib.suppress(KeyError):
        z = np.log(np.abs(y) + 1)
    return z + 1


def b_errstate(x):
    y = x * 2
    with np.errstate(divide="ignore"):      # captured: two ops around the block's ops
        z = np.log(np.abs(y))
    return z + 1


def b_errstate_print(x):
    y = x * 2
    with np.errstate(divide="ignore"):      # a break inside: the with statement runs eagerly
        z = np.log(np.abs(y))
        print("z", z.shape)
    return z + 1


def b_loop_print(x):
    for i in range(3):
        x = x * 2
        print("step", i)
    return x + 1


def b_loop_data_dependent(x):
    for i in range(4):
        if x.sum() > 10:
            break
        x = x + 1
    return x


def helper_breaks(x):
    y = x * 2
    print("inside helper")
    return y + 1


def b_callee(x):
    a = x + 1
    b = helper_breaks(a)
    return b * 3


def b_callee_twice(x):
    return helper_breaks(x) + helper_breaks(x * 2)


class Model:
    def __init__(self):
        self.w = np.eye(6, dtype=np.float32)

    def forward(self, x):
        h = x @ self.w
        print("h ready")
        return np.maximum(h, 0)

    def __call__(self, x):
        return self.forward(x) * 2


def b_method(x):
    return Model()(x) if False else MODEL(x)


MODEL = Model()


def b_shape_mismatch(x, y):
    a = x * 2
    return a @ y


def b_assert_data(x):
    y = x * 2
    assert (y > -100).all(), "too small"
    return y


def b_assert_fails(x):
    y = x * 2
    assert y.sum() > 1000, "sum too small"
    return y


def b_raise(x):
    y = x + 1
    if y.shape[0] == 4:
        raise ValueError(f"bad shape {y.shape}")
    return y


def b_many(x):
    x = x + 1
    print(1)
    x = x * 2
    print(2)
    x = x - 3
    print(3)
    x = x / 4
    print(4)
    x = np.exp(x)
    print(5)
    return x


def b_break_keeps_locals(x, scale):
    a = x * scale
    b = [a, a + 1]
    d = {"k": b}
    print("mid")
    return d["k"][1] - a, len(b)


def b_side_effects_order(x, out):
    out.append("before")
    y = x * 2
    print("printing")
    out.append("after")
    return y


def b_global_write(x):
    global LAST_ROWS
    LAST_ROWS = x.shape[0]
    y = x * LAST_ROWS
    print("counted")
    return y * LAST_ROWS


LAST_ROWS = 0


def b_inplace_then_break(x):
    x += 1
    print("mutated")
    x *= 2
    return x


def b_closure_break(x):
    k = 3.0

    def inner(v):
        return v * k
    y = inner(x)
    print("closure")
    return inner(y)


def b_nested_call_args(x):
    return np.maximum(x, 0) + len(str(float(x.sum())))


def b_kwargs_call(x):
    y = x * 2
    s = np.array2string(y, precision=2, separator=",")
    return y + len(s)


def b_loop_list_append(x):
    outs = []
    for i in range(3):
        outs.append(x * i)
        if i == 1:
            print("one")
    return sum(outs)


def b_comprehension_break(x):
    vals = [float(v) for v in x.sum(axis=1)]
    return x * vals[0]


PROGRAMS = [
    ("print", b_print, (X,), 2, 1),
    ("print_twice", b_print_twice, (X,), 3, 2),
    ("print_value", b_print_value, (X,), 2, 1),
    ("logging", b_logging, (X,), 1, 0),
    ("logging_enabled", b_logging_enabled, (X,), 2, 1),
    ("io", b_io, (X,), 2, 1),
    ("unknown_c", b_unknown_c, (X,), 2, 1),
    ("unregistered_np", b_unregistered_np, (X,), 2, 1),
    # (an `if` on data that only chooses a value: both ways, one graph, branch_selects.py)
    ("if_data_true", b_if_data, (X + 1,), 1, 0),
    ("if_data_false", b_if_data, (NEG,), 1, 0),
    ("while_tol", b_while_tol, (X,), 0, 1),
    ("float", b_float, (X,), 1, 0),   # y * s: a number the graph reads (graph_numbers.py)
    ("int", b_int, (X,), 1, 0),       # x * n: an int the graph reads (graph_numbers.py)
    ("item", b_item, (X,), 1, 0),     # x + v: a number the graph reads (graph_numbers.py)
    ("tolist", b_tolist, (X,), 2, 1),
    ("bool", b_bool, (X,), 2, 1),
    # (sizes only the data decides stay in the graph: unbacked sizes, docs/unbacked.md)
    ("mask", b_mask, (X,), 1, 0),
    ("nonzero", b_nonzero, (X,), 1, 0),
    ("unique", b_unique, (X,), 1, 0),
    # (NumPy's ValueError from y @ y's shapes is known while tracing: the `except` is a
    # jump, tests/breaks/test_modelled_errors_in_try.py)
    ("try_except", b_try_except, (X,), 1, 0),
    ("try_finally", b_try_finally, (X,), 1, 1),
    ("with", b_with, (X,), 1, 2),
    ("errstate", b_errstate, (X,), 1, 0),
    ("errstate_print", b_errstate_print, (X,), 1, 1),
    # (a loop whose body breaks runs as plain Python over arrays this small: it is not
    # outlined, config.outline_min_elements, docs/loops.md)
    ("loop_print", b_loop_print, (X,), 0, 1),
    # (code after the break's test: one while_loop node since the loop-exits work)
    ("loop_data_dependent", b_loop_data_dependent, (X,), 1, 0),
    ("callee", b_callee, (X,), 4, 2),
    ("callee_twice", b_callee_twice, (X,), 4, 3),
    ("method", b_method, (X,), 3, 3),
    ("shape_mismatch", b_shape_mismatch, (X, Y), 1, 1),
    # (checks on array data are data_check ops of the graph: tests/breaks/test_data_checks.py)
    ("assert_data", b_assert_data, (X,), 1, 0),
    ("assert_fails", b_assert_fails, (X,), 1, 0),
    ("raise", b_raise, (X,), 1, 1),
    ("many", b_many, (X,), 5, 5),
    ("keeps_locals", b_break_keeps_locals, (X, 2.0), 2, 1),
    ("side_effects_order", b_side_effects_order, (X, []), 1, 1),
    ("global_write", b_global_write, (X,), 2, 1),
    ("inplace_then_break", b_inplace_then_break, (X,), 2, 1),
    ("closure_break", b_closure_break, (X,), 2, 1),
    ("nested_call_args", b_nested_call_args, (X,), 2, 1),
    ("kwargs_call", b_kwargs_call, (X,), 2, 1),
    ("loop_list_append", b_loop_list_append, (X,), 0, 1),
    # the floats are converted after the graph (the comprehension is traced on every
    # version): the break is x * vals[0], which needs the number
    ("comprehension_break", b_comprehension_break, (X,), 1, 0),   # x * vals[0]: graph_numbers.py
]
