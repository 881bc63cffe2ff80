"""Programs whose control flow depends only on Python values (guarded, then unrolled)."""

import math

import numpy as np

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
Y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)
MODE = "fast"


def f_if(x, flag):
    if flag:
        return x + 1
    return x - 1


def f_elif(x, mode):
    if mode == "a":
        y = x * 2
    elif mode == "b":
        y = x * 3
    else:
        y = x * 4
    return y


def f_ternary(x, n):
    return x * 2 if n > 2 else x / 2


def f_and_or_not(x, a, b):
    if a and not b:
        x = x + 1
    if a or b:
        x = x * 2
    c = a and b or 5
    return x * c


def f_for_range(x, n):
    for i in range(n):
        x = x * 0.9 + i
    return x


def f_for_range_step(x):
    for i in range(10, 0, -3):
        x = x + i
    return x


def f_for_list(x, ws):
    for w in ws:
        x = x * w
    return x


def f_for_tuple_unpack(x):
    for a, b in [(1.0, 2.0), (3.0, 4.0)]:
        x = x * a + b
    return x


def f_for_dict(x):
    d = {"a": 1.0, "b": 2.0}
    for k in d:
        x = x + d[k]
    for v in d.values():
        x = x * v
    for k, v in d.items():
        x = x - v
    for k in d.keys():
        x = x + len(k)
    return x


def f_zip_enumerate(x, y):
    out = x
    for i, (a, b) in enumerate(zip([x, y], [y, x])):
        out = out + a * b * i
    for i, a in enumerate([x, y], start=1):
        out = out + a * i
    return out


def f_reversed(x):
    out = x
    for i in reversed(range(3)):
        out = out * 2 + i
    return out


def f_while(x):
    i = 0
    while i < 5:
        x = x + i
        i += 1
    return x


def f_while_true_break(x):
    n = 0
    while True:
        n += 1
        x = x * 1.1
        if n >= 3:
            break
    return x


def f_continue(x):
    for i in range(6):
        if i % 2 == 0:
            continue
        x = x + i
    return x


def f_break_else(x):
    for i in range(5):
        if i == 3:
            break
        x = x + 1
    else:
        x = x * 100
    for i in range(2):
        x = x + 1
    else:
        x = x * 2
    return x


def f_early_return(x, n):
    for i in range(10):
        if i == n:
            return x * i
        x = x + 1
    return x


def f_nested_loops(x):
    for i in range(3):
        for j in range(2):
            x = x + i * j
    return x


def f_shape_branch(x):
    if x.shape[0] > 2:
        return x.sum(axis=0)
    return x.sum(axis=1)


def f_ndim_branch(x):
    if x.ndim == 2 and x.dtype == np.float32:
        return x.T
    return x


def f_global_branch(x):
    if MODE == "fast":
        return x * 2
    return x


def f_assert(x, n):
    assert n > 0, "n must be positive"
    assert x.shape[1] == 6
    return x * n


def f_loop_layers(x, n_layers):
    ws = [np.full((6, 6), 0.1 * (i + 1), np.float32) for i in range(n_layers)]
    for w in ws:
        x = np.tanh(x @ w)
    return x


def f_math(x):
    return x * math.sqrt(2.0) + math.log(3.0) + math.floor(2.7) + abs(-3) + round(2.567, 2)


def f_minmax(x, n):
    return x * max(n, 3) + min(1.0, 2.0, 0.5) + max([1, 5, 2])


def f_none_check(x, b):
    if b is None:
        b = 1.0
    if b is not None:
        x = x + b
    return x


def f_in(x, mode):
    if mode in ("a", "b"):
        x = x * 2
    if "z" not in mode:
        x = x + 1
    return x


def f_fstring(x, n):
    name = f"layer_{n}_{n * 2:03d}"
    if name == "layer_2_004":
        x = x + 1
    return x


def f_percent_format(x, n):
    s = "%d-%s" % (n, "a")  # noqa: UP031 (the % operator on strings is what is tested)
    return x * len(s)


def f_str_methods(x, s):
    if s.upper().startswith("AB") and "," in s:
        parts = s.split(",")
        return x * len(parts)
    return x


def f_int_float_bool(x, n):
    return x * int(2.7) + float(n) + bool(n) + int("3")


def f_walrus(x):
    if (n := x.shape[0]) > 2:
        return x * n
    return x


def f_chained_compare(x, n):
    if 0 < n < 10:
        return x + n
    return x


def f_any_all(x):
    flags = [True, False, True]
    if any(flags) and not all(flags):
        return x * 3
    return x


def f_unroll_long(x):
    for i in range(200):
        x = x + 1
    return x


PROGRAMS = [
    ("if_true", f_if, (X, True)),
    ("if_false", f_if, (X, False)),
    ("elif", f_elif, (X, "b")),
    ("else", f_elif, (X, "z")),
    ("ternary", f_ternary, (X, 3)),
    ("and_or_not", f_and_or_not, (X, True, False)),
    ("and_or_not2", f_and_or_not, (X, 0, 1)),
    ("for_range", f_for_range, (X, 4)),
    ("for_range_step", f_for_range_step, (X,)),
    ("for_list", f_for_list, (X, [1.0, 2.0, 0.5])),
    ("for_list_arrays", f_for_list, (X, [Y, Y * 2])),
    ("for_tuple_unpack", f_for_tuple_unpack, (X,)),
    ("for_dict", f_for_dict, (X,)),
    ("zip_enumerate", f_zip_enumerate, (X, Y)),
    ("reversed", f_reversed, (X,)),
    ("while", f_while, (X,)),
    ("while_true_break", f_while_true_break, (X,)),
    ("continue", f_continue, (X,)),
    ("break_else", f_break_else, (X,)),
    ("early_return", f_early_return, (X, 3)),
    ("nested_loops", f_nested_loops, (X,)),
    ("shape_branch", f_shape_branch, (X,)),
    ("ndim_branch", f_ndim_branch, (X,)),
    ("global_branch", f_global_branch, (X,)),
    ("assert", f_assert, (X, 2)),
    ("loop_layers", f_loop_layers, (X, 3)),
    ("math", f_math, (X,)),
    ("minmax", f_minmax, (X, 5)),
    ("none_check", f_none_check, (X, None)),
    ("in", f_in, (X, "a")),
    ("fstring", f_fstring, (X, 2)),
    ("percent_format", f_percent_format, (X, 7)),
    ("str_methods", f_str_methods, (X, "ab,cd")),
    ("int_float_bool", f_int_float_bool, (X, 2)),
    ("walrus", f_walrus, (X,)),
    ("chained_compare", f_chained_compare, (X, 4)),
    ("any_all", f_any_all, (X,)),
    ("unroll_long", f_unroll_long, (X,)),
]
