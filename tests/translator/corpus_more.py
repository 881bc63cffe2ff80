"""More programs: slicing of sequences, nested data, numeric builtins, scoping corners."""

import math

import numpy as np

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
Y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)
SCALES = (0.5, 1.5, 2.5)
CONFIG = {"layers": 2, "act": "tanh", "eps": 1e-6}


def m_global_tuple(x):
    return sum(x * s for s in SCALES)


def m_global_dict_config(x):
    act = np.tanh if CONFIG["act"] == "tanh" else np.exp
    for _ in range(CONFIG["layers"]):
        x = act(x) + CONFIG["eps"]
    return x


def m_negative_steps(x):
    items = [x, x * 2, x * 3, x * 4]
    return items[::-2], items[-1:0:-1][0]


def m_nested_list_index(x):
    grid = [[x, x + 1], [x + 2, x + 3]]
    return grid[1][0] - grid[0][1]


def m_tuple_compare(x, shape):
    if x.shape == shape:
        return x * 2
    return x


def m_tuple_compare_false(x):
    if x.shape == (2, 2):
        return x * 2
    return x - 1


def m_int_ops(x, n):
    k = (n * 3 + 7) // 2 % 5
    return x * k + n ** 2 - abs(-n) + divmod(n, 3)[1]


def m_float_ops(x, a):
    return x * (a / 3) + math.floor(a * 1.7) + math.ceil(a / 2) + float(int(a * 10)) / 10


def m_bool_arith(x, flag):
    return x * (1 + flag) + (not flag) * 3


def m_str_join(x, names):
    key = "-".join(names)
    return x * len(key)


def m_enumerate_dict_items(x):
    weights = {"a": 0.5, "b": 0.25}
    for i, (k, w) in enumerate(weights.items()):
        x = x * w + i + len(k)
    return x


def m_zip_three(x, y):
    out = []
    for a, b, c in zip([x, y], [y, x], (1.0, 2.0)):
        out.append(a * c - b)
    return out


def m_list_sort_reverse(x):
    vals = [3.0, 1.0, 2.0]
    vals.sort() if hasattr(vals, "sort_") else vals.reverse()
    return x * vals[0]


def m_max_key_none(x, n):
    return x * max(range(n)) + min([4, 2, 8])


def m_while_else(x):
    i = 0
    while i < 3:
        x = x + i
        i += 1
    else:
        x = x * 2
    return x


def m_try_no_exception_free_code(x):
    y = x * 2
    z = y + 1
    return z


def m_multiple_returns(x, mode):
    if mode == 0:
        return x
    elif mode == 1:
        return x * 2
    return x * 3


def m_nested_function_returns_tuple(x):
    def stats(v):
        return v.mean(), v.std(), v.max()
    m, s, mx = stats(x)
    return (x - m) / s * mx


def m_recursion_tree(x, depth):
    if depth == 0:
        return x
    left = m_recursion_tree(x * 0.5, depth - 1)
    right = m_recursion_tree(x * 0.25, depth - 1)
    return left + right


def m_default_from_global(x, scale=SCALES[1]):
    return x * scale


def m_kw_only_defaults(x, *, a=1.0, b=2.0, **rest):
    return x * a + b + len(rest)


def m_call_kw_only(x):
    return m_kw_only_defaults(x, b=3.0, c=1, d=2)


def m_comprehension_with_closure(x, k):
    return [x * (k + i) for i in range(3) if (k + i) % 2 == 0]


def m_dict_comprehension_items(x):
    d = {f"w{i}": x * i for i in range(3)}
    return {k: v + 1 for k, v in d.items() if k != "w0"}


def m_set_ops(x):
    a = {1, 2, 3}
    b = {2, 3, 4}
    return x * len(a | b) + len(a & b) if hasattr(a, "union") else x


def m_array_in_tuple_unpack(x, y):
    (a, b), c = (x, y), x + y
    return a * b + c


def m_swap(x, y):
    x, y = y, x
    return x - y


def m_augmented_containers(x):
    lst = [x]
    lst *= 2
    t = (x,)
    t += (x * 2,)
    return len(lst), sum(t)


def m_shape_unpack_star(x):
    first, *rest = x.shape
    return x.reshape(first, math.prod(rest))


def m_method_chain_strings(x, name):
    return x * len(name.strip().title().split())


PROGRAMS = [
    ("global_tuple", m_global_tuple, (X,)),
    ("global_dict_config", m_global_dict_config, (X,)),
    ("negative_steps", m_negative_steps, (X,)),
    ("nested_list_index", m_nested_list_index, (X,)),
    ("tuple_compare", m_tuple_compare, (X, (4, 6))),
    ("tuple_compare_false", m_tuple_compare_false, (X,)),
    ("int_ops", m_int_ops, (X, 7)),
    ("float_ops", m_float_ops, (X, 2.5)),
    ("bool_arith", m_bool_arith, (X, True)),
    ("str_join", m_str_join, (X, ["ab", "c"])),
    ("enumerate_dict_items", m_enumerate_dict_items, (X,)),
    ("zip_three", m_zip_three, (X, Y)),
    ("list_reverse", m_list_sort_reverse, (X,)),
    ("max_min_range", m_max_key_none, (X, 4)),
    ("while_else", m_while_else, (X,)),
    ("plain_code", m_try_no_exception_free_code, (X,)),
    ("multiple_returns0", m_multiple_returns, (X, 0), 0),   # returns x itself: no graph
    ("multiple_returns2", m_multiple_returns, (X, 2)),
    ("nested_function_tuple", m_nested_function_returns_tuple, (X,)),
    ("recursion_tree", m_recursion_tree, (X, 3)),
    ("default_from_global", m_default_from_global, (X,)),
    ("kw_only_rest", m_call_kw_only, (X,)),
    ("comprehension_closure", m_comprehension_with_closure, (X, 1)),
    ("dict_comprehension_items", m_dict_comprehension_items, (X,)),
    ("set_ops", m_set_ops, (X,)),
    ("array_tuple_unpack", m_array_in_tuple_unpack, (X, Y)),
    ("swap", m_swap, (X, Y)),
    ("augmented_containers", m_augmented_containers, (X,)),
    ("shape_unpack_star", m_shape_unpack_star, (X,)),
    ("method_chain_strings", m_method_chain_strings, (X, " hello world ")),
]
