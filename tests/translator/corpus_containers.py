"""Programs that build, read, mutate and return containers."""

import numpy as np

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
Y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)


def f_list_literal(x, y):
    xs = [x, y, x * 2]
    return xs[0] + xs[-1] + xs[1:][0]


def f_tuple_index_slice(x, y):
    t = (x, y, 3.0)
    a, b = t[:2]
    return a * t[2] + b


def f_dict_literal(x):
    d = {"x": x, "s": 2.0}
    d["y"] = d["x"] * d["s"]
    return d


def f_set_literal(x):
    s = {1, 2, 3}
    return x * len(s) if 2 in s else x


def f_listcomp(x):
    return [x * i for i in range(3)]


def f_listcomp_cond(x):
    return sum([x * i for i in range(6) if i % 2])


def f_dictcomp(x):
    return {f"k{i}": x + i for i in range(3)}


def f_setcomp(x, n):
    s = {i % 3 for i in range(n)}
    return x * len(s)


def f_nested_comp(x):
    return [[x * i * j for j in range(2)] for i in range(2)]


def f_genexpr_sum(x):
    return sum(x * i for i in range(4))


def f_genexpr_tuple_list(x):
    t = tuple(x + i for i in range(2))
    l = list(x * i for i in range(2))  # noqa: E741
    return t, l


def f_genexpr_any_all(x, n):
    if any(i > 2 for i in range(n)) and all(i >= 0 for i in range(n)):
        return x + 1
    return x


def f_star_unpack(x, y):
    a, *rest = [x, y, x + y]
    *init, last = (1, 2, 3)
    return a + sum(rest) + last + len(init)


def f_list_methods(x):
    xs = []
    xs.append(x)
    xs.extend([x * 2, x * 3])
    xs.insert(0, x * 0)
    last = xs.pop()
    xs.pop(0)
    return sum(xs) + last + len(xs)


def f_dict_methods(x):
    d = {}
    d.setdefault("a", x)
    d.update({"b": x * 2}, c=x * 3)
    d.update(b=x * 4)
    v = d.get("zz", 1.0)
    w = d.pop("c")
    return d["a"] + d["b"] + v + w, list(d.keys())


def f_mutate_input_list(xs, x):
    xs.append(x * 2)
    xs[0] = xs[0] + 1
    return len(xs)


def f_mutate_input_dict(d, x):
    d["new"] = x + 1
    d["a"] = d["a"] * 2
    return x


def f_mutate_object(obj, x):
    obj.count = obj.count + 1
    obj.last = x * 2
    return x + obj.count


def f_nested_structure_in(params, x):
    w = params["layers"][0]["w"]
    b = params["layers"][1]["b"]
    return x @ w + b + params["scale"]


def f_nested_structure_out(x):
    return {"a": [x, (x * 2, {"b": x + 1})], "c": None}


def f_len_in(x, xs):
    if x.shape[0] in (3, 4) and len(xs) == 2:
        return x + xs[1]
    return x


def f_list_concat(x, y):
    a = [x] + [y]
    b = (x,) + (y,)
    c = [x] * 2
    return a[1] + b[1] + c[0]


def f_list_iadd(x, y):
    a = [x]
    a += [y]
    return sum(a)


def f_tuple_return_nested(x, y):
    return (x, (y, [x + y]))


def f_del_item(x):
    d = {"a": x, "b": x * 2}
    del d["a"]
    xs = [x, x + 1]
    del xs[0]
    return d["b"] + xs[0]


def f_unpack_dict_items(x):
    cfg = {"scale": 2.0, "shift": 1.0}
    (k1, v1), (k2, v2) = cfg.items()
    return x * v1 + v2


def f_list_index_count(x):
    names = ["a", "b", "c", "b"]
    return x * names.index("c") + names.count("b")


def f_slice_list(x):
    xs = [x * i for i in range(5)]
    return sum(xs[1:4:2]) + xs[::-1][0]


def f_heads_split(x):
    heads = [x[:, i * 2:(i + 1) * 2] for i in range(3)]
    outs = [h * h.sum(axis=-1, keepdims=True) for h in heads]
    return np.concatenate(outs, axis=-1) if hasattr(np, "concatenate_x") else outs


class Counter:
    def __init__(self):
        self.count = 0
        self.last = None


PARAMS = {"layers": [{"w": np.eye(6, dtype=np.float32)}, {"b": np.ones(6, np.float32)}],
          "scale": 0.5}

PROGRAMS = [
    ("list_literal", f_list_literal, (X, Y)),
    ("tuple_index_slice", f_tuple_index_slice, (X, Y)),
    ("dict_literal", f_dict_literal, (X,)),
    ("set_literal", f_set_literal, (X,)),
    ("listcomp", f_listcomp, (X,)),
    ("listcomp_cond", f_listcomp_cond, (X,)),
    ("dictcomp", f_dictcomp, (X,)),
    ("setcomp", f_setcomp, (X, 5)),
    ("nested_comp", f_nested_comp, (X,)),
    ("genexpr_sum", f_genexpr_sum, (X,)),
    ("genexpr_tuple_list", f_genexpr_tuple_list, (X,)),
    ("genexpr_any_all", f_genexpr_any_all, (X, 4)),
    ("star_unpack", f_star_unpack, (X, Y)),
    ("list_methods", f_list_methods, (X,)),
    ("dict_methods", f_dict_methods, (X,)),
    ("mutate_input_list", f_mutate_input_list, ([X, Y], X)),
    ("mutate_input_dict", f_mutate_input_dict, ({"a": X}, Y)),
    ("mutate_object", f_mutate_object, (Counter(), X)),
    ("nested_structure_in", f_nested_structure_in, (PARAMS, X)),
    ("nested_structure_out", f_nested_structure_out, (X,)),
    ("len_in", f_len_in, (X, [X, Y])),
    ("list_concat", f_list_concat, (X, Y)),
    ("list_iadd", f_list_iadd, (X, Y)),
    ("tuple_return_nested", f_tuple_return_nested, (X, Y)),
    ("del_item", f_del_item, (X,)),
    ("unpack_dict_items", f_unpack_dict_items, (X,)),
    ("list_index_count", f_list_index_count, (X,)),
    ("slice_list", f_slice_list, (X,)),
    ("heads_split", f_heads_split, (X,)),
]
