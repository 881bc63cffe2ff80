"""Programs with graph breaks of every cause, in straight code, loops, callees and methods.

Each entry: (name, fn, args, graphs, breaks) as reported by ``dynamo.explain`` for one
call. A break inside a loop or a try/with block makes the whole block run eagerly; the
code before it is one graph, the code after it runs in the same eager continuation.
"""

import logging
import sys

import numpy as np

from dynamo import pyversion

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
Y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)
NEG = -np.abs(X) - 0.1
log = logging.getLogger("breaks_corpus")


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
    log.info("y has shape %s", y.shape)
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
    z = np.polyval([1.0, 2.0], y)
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
    with np.errstate(divide="ignore"):
        z = np.log(np.abs(y))
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
    ("logging", b_logging, (X,), 2, 1),
    ("io", b_io, (X,), 2, 1),
    ("unknown_c", b_unknown_c, (X,), 2, 1),
    ("unregistered_np", b_unregistered_np, (X,), 2, 1),
    ("if_data_true", b_if_data, (X + 1,), 2, 1),
    ("if_data_false", b_if_data, (NEG,), 2, 1),
    ("while_tol", b_while_tol, (X,), 0, 1),
    ("float", b_float, (X,), 2, 1),
    ("int", b_int, (X,), 2, 1),
    ("item", b_item, (X,), 2, 1),
    ("tolist", b_tolist, (X,), 2, 1),
    ("bool", b_bool, (X,), 2, 1),
    ("mask", b_mask, (X,), 2, 1),
    ("nonzero", b_nonzero, (X,), 2, 1),
    ("unique", b_unique, (X,), 2, 1),
    ("try_except", b_try_except, (X,), 1, 1),
    ("try_finally", b_try_finally, (X,), 1, 1),
    ("with", b_with, (X,), 1, 2),
    ("loop_print", b_loop_print, (X,), 0, 1),
    ("loop_data_dependent", b_loop_data_dependent, (X,), 0, 1),
    ("callee", b_callee, (X,), 4, 2),
    ("callee_twice", b_callee_twice, (X,), 4, 3),
    ("method", b_method, (X,), 3, 3),
    ("shape_mismatch", b_shape_mismatch, (X, Y), 1, 1),
    ("assert_data", b_assert_data, (X,), 1, 1),
    ("assert_fails", b_assert_fails, (X,), 1, 2),
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
    # 3.12+ inline the comprehension into the frame: its loop runs as an eager island;
    # 3.11 calls it as a function, which breaks at its call and again inside
    ("comprehension_break", b_comprehension_break, (X,),
     1 if pyversion.INLINED_COMPREHENSIONS else 2, 1 if pyversion.INLINED_COMPREHENSIONS else 2),
]


def b_while_print(x):
    i = 0
    while i < 3:
        x = x + 1
        print("i =", i)
        i += 1
    return x * 2


def helper_loop(x):
    for i in range(2):
        print("helper loop", i)
        x = x * 2
    return x


def b_callee_with_loop(x):
    y = x + 1
    z = helper_loop(y)
    return z - 1


def b_callee_in_loop(x):
    for i in range(2):
        x = helper_breaks(x)
    return x


class Stateful:
    def __init__(self):
        self.calls = 0
        self.w = np.full((6, 6), 0.1, np.float32)

    def step(self, x):
        self.calls += 1
        h = x @ self.w
        if h.sum() > 0:
            h = h * 2
        self.last = h
        return h


STATE = Stateful()


def b_method_data_branch(x):
    return STATE.step(x) + STATE.step(-x)


def b_ten_breaks(x):
    for_display = []
    x = x + 1
    print(1)
    x = x * 1.5
    print(2)
    x = x - 0.5
    print(3)
    x = np.tanh(x)
    print(4)
    x = x + 2
    print(5)
    x = x * x
    print(6)
    for_display.append(x.shape)
    print(7)
    x = x / 3
    print(8)
    x = np.sqrt(x)
    print(9)
    x = x + 1
    print(10)
    return x, for_display


def b_many_locals(x, y):
    a, b, c = x + 1, y * 2, x - y
    lst = [a, b]
    dct = {"c": c, "lst": lst}
    t = (a, 3, "s")
    print("break with lots of state")
    return dct["c"] + lst[1] + t[0] * t[1], len(t[2])


def b_comprehension_print(x):
    outs = [x * i for i in range(3)]
    print("made", len(outs))
    return [o + 1 for o in outs]


def b_except_handler(x):
    y = x * 2
    try:
        raise KeyError("k")
    except KeyError:
        y = y + 1
    return y * 3


def b_nonlocal_break(x):
    total = 0

    def add(v):
        nonlocal total
        total += v
    add(1)
    print("between")
    add(2)
    return x * total


def b_object_mutation_across(obj, x):
    obj.count = obj.count + 1
    y = x * obj.count
    print("mid")
    obj.count = obj.count * 10
    obj.last = y
    return y


def b_list_mutation_across(xs, x):
    xs.append(x * 2)
    print("appended")
    xs.append(x * 3)
    xs[0] = xs[0] - 1
    return len(xs)


def b_dict_mutation_across(d, x):
    d["a"] = x + 1
    print("a set")
    d["b"] = d["a"] * 2
    del d["a"]
    return d


def b_global_across(n):
    global COUNTER2
    COUNTER2 = n
    print("counter", COUNTER2)
    COUNTER2 += 1
    return COUNTER2


COUNTER2 = 0


def b_print_array(x):
    y = np.round(x * 10)
    print(y[0])
    return y.sum()


def b_return_in_branch(x):
    y = x - 0.5
    if y.mean() > 0:
        return y * 100
    z = y * 2
    return z


def b_while_counter_data(x):
    n = 0
    while n < 10 and x.max() < 5:
        x = x * 2
        n += 1
    return x, n


def recurse_break(x, n):
    if n == 0:
        print("bottom")
        return x
    return recurse_break(x + 1, n - 1) * 2


def b_recursion_break(x):
    return recurse_break(x, 2)


def b_logging_warning(x):
    y = x * 2
    logging.getLogger("breaks_corpus").debug("y=%s", y.shape)
    return y.sum()


def b_time(x):
    import time  # noqa: F401  (an import inside the function is a break too)
    return x * 2


def b_random_order(x):
    np.random.seed(0)
    a = x * 2
    print("seeded")
    return a + np.random.rand(*x.shape)


def b_kwonly_break(x, *, scale=2.0):
    y = x * scale
    print("scale", scale)
    return y + scale


def b_starargs_break(*xs):
    total = xs[0]
    print("n =", len(xs))
    for x in xs[1:]:
        total = total + x
    return total


def b_generator_consumer(x):
    def gen():
        for i in range(3):
            yield x * i
    vals = list(gen())
    print("generated", len(vals))
    return sum(vals)


def b_array_bool_in_and(x, flag):
    if flag and x.sum() > 0:
        return x + 1
    return x - 1


def b_len_of_array_list(x):
    rows = list(x)
    print(len(rows))
    return rows[0] + rows[-1]


class Counter:
    def __init__(self):
        self.count = 1
        self.last = None


PROGRAMS += [
    ("while_print", b_while_print, (X,), 0, 1),
    ("callee_with_loop", b_callee_with_loop, (X,), 2, 2),
    ("callee_in_loop", b_callee_in_loop, (X,), 2, 2),
    ("method_data_branch", b_method_data_branch, (X,), 4, 4),
    ("ten_breaks", b_ten_breaks, (X,), 9, 10),
    ("many_locals", b_many_locals, (X, Y), 2, 1),
    ("comprehension_print", b_comprehension_print, (X,), 2, 1),
    ("except_handler", b_except_handler, (X,), 1, 1),
    ("nonlocal_break", b_nonlocal_break, (X,), 1, 1),
    ("object_mutation_across", b_object_mutation_across, (Counter(), X), 1, 1),
    ("missing_attribute", b_object_mutation_across, (STATE, X), 0, 1),
    ("list_mutation_across", b_list_mutation_across, ([X], X), 2, 1),
    ("dict_mutation_across", b_dict_mutation_across, ({"z": X}, X), 2, 1),
    ("global_across", b_global_across, (5,), 0, 1),
    ("print_array", b_print_array, (X,), 2, 1),
    ("return_in_branch_true", b_return_in_branch, (X + 1,), 2, 1),
    ("return_in_branch_false", b_return_in_branch, (X - 1,), 2, 1),
    ("while_counter_data", b_while_counter_data, (X,), 1, 2),
    ("recursion_break", b_recursion_break, (X,), 3, 4),
    ("logging_debug", b_logging_warning, (X,), 2, 2),
    ("import_inside", b_time, (X,), 1, 1),
    ("random_order", b_random_order, (X,), 2, 3),  # np.random.rand is a graph op (issue 6)
    ("kwonly_break", b_kwonly_break, (X,), 2, 1),
    ("starargs_break", b_starargs_break, (X, Y, X), 1, 1),
    ("generator_consumer", b_generator_consumer, (X,), 2, 1),
    ("array_bool_in_and", b_array_bool_in_and, (X, True), 2, 1),
    ("len_of_array_list", b_len_of_array_list, (X,), 2, 1),
]

