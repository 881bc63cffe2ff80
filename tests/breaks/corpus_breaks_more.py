"""More break programs: loops, callees, methods, mutations across breaks, many breaks."""

import logging

import numpy as np
from corpus_breaks import X, Y, helper_breaks


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
    import time  # noqa: F401  (an already imported module: a lookup, no break since
    # translator/imports.py; tests/translator/test_imports.py has the imports that break)
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


def b_cell_args_across(x, s):
    def scaled(t):       # x and s are arguments and cells: read through cells after the break
        return x * s + t
    y = scaled(1.0)
    print("between")
    return scaled(2.0) + y * s


def b_while_data_print(x):
    n = 0
    while n < 5 and x.sum() < 100:   # array data in the test of a while loop
        print("n =", n)
        x = x * 2
        n += 1
    return x, n


def b_star_print(x, xs):
    print(*xs)
    print(*xs, **{"sep": "-"})
    return x + len(xs)


class Counter:
    def __init__(self):
        self.count = 1
        self.last = None


PROGRAMS = [
    ("while_print", b_while_print, (X,), 0, 1),
    ("callee_with_loop", b_callee_with_loop, (X,), 2, 2),
    ("callee_in_loop", b_callee_in_loop, (X,), 2, 2),
    # 3, 3: `self.calls += 1` makes calls a changing int from the first trace on
    # (symbolic/written_numbers.py), so the second step() call reuses the first's entry
    ("method_data_branch", b_method_data_branch, (X,), 1, 0),   # (branch_select)
    ("ten_breaks", b_ten_breaks, (X,), 9, 10),
    ("many_locals", b_many_locals, (X, Y), 2, 1),
    ("comprehension_print", b_comprehension_print, (X,), 2, 1),
    ("except_handler", b_except_handler, (X,), 1, 0),   # a jump to the handler (#19)
    ("nonlocal_break", b_nonlocal_break, (X,), 1, 1),
    ("object_mutation_across", b_object_mutation_across, (Counter(), X), 1, 1),
    ("missing_attribute", b_object_mutation_across, (STATE, X), 0, 1),
    ("list_mutation_across", b_list_mutation_across, ([X], X), 2, 1),
    ("dict_mutation_across", b_dict_mutation_across, ({"z": X}, X), 2, 1),
    ("global_across", b_global_across, (5,), 0, 1),
    ("print_array", b_print_array, (X,), 2, 1),
    ("return_in_branch_true", b_return_in_branch, (X + 1,), 1, 0),   # (both ways return:
    ("return_in_branch_false", b_return_in_branch, (X - 1,), 1, 0),  # one branch_select)
    ("while_counter_data", b_while_counter_data, (X,), 1, 2),
    ("recursion_break", b_recursion_break, (X,), 2, 2),  # calls itself at a break: uncompiled below
    ("logging_debug", b_logging_warning, (X,), 2, 1),   # getLogger() breaks; debug dropped
    ("import_inside", b_time, (X,), 1, 0),
    ("random_order", b_random_order, (X,), 2, 1),  # seed and rand are graph ops, in order
    ("kwonly_break", b_kwonly_break, (X,), 2, 1),
    ("starargs_break", b_starargs_break, (X, Y, X), 1, 1),
    ("generator_consumer", b_generator_consumer, (X,), 2, 1),
    ("array_bool_in_and", b_array_bool_in_and, (X, True), 1, 0),   # (branch_select)
    ("len_of_array_list", b_len_of_array_list, (X,), 2, 1),
    ("cell_args_across", b_cell_args_across, (X, 2.0), 2, 1),
    ("while_data_print", b_while_data_print, (X,), 1, 2),
    ("star_print", b_star_print, (X, [1, 2]), 1, 2),
]

