"""Round 5, loops: outlined loop bodies (arrays of at least
``config.outline_min_elements``: the body is a function of its own) with ``try``/``with``
inside, ``break``/``continue``/``else``, generators, closures and lambdas capturing
the loop variable, locals bound only in some trips, ``del`` in the body, exceptions at
trip k, loops over generators, dicts that change, ``enumerate``/``zip`` of arrays; and
small loops (unrolled, loop nodes) with the same shapes."""

import numpy as np
from hostile_check import Programs

reg = Programs("round5_loops")
case, scenario = reg.case, reg.scenario

BIG = np.linspace(-1.0, 1.0, 40000)
SMALL = np.array([1.0, -2.0, 3.0, 0.5])


class Boom(Exception):
    pass


def both(fn, *extra, **kw):
    """The program over a big array (outlined body) and a small one."""
    case(fn, (BIG.copy(), *extra), (SMALL.copy(), *extra), **kw)


def _try_in_body(x, n):
    out = []
    for i in range(n):
        x = x * 0.5 + 1.0
        try:
            if i == 2:
                raise Boom(i)
            print(i)
        except Boom as e:
            out.append(("boom", e.args))
        x = x - 0.25
    return x[:3], out


both(_try_in_body, 4)


def _with_in_body(x, n, log):
    class CM:
        def __enter__(self):
            log.append("enter")

        def __exit__(self, *a):
            log.append("exit")
    for i in range(n):
        with CM():
            x = x + i
            print("in with", i)
    return x[:2]


case(_with_in_body, lambda: (BIG.copy(), 3, []), lambda: (SMALL.copy(), 3, []))


def _break_else(x, n):
    for i in range(n):
        x = np.tanh(x) + 0.1
        print(i)
        if i == 2:
            break
    else:
        return "no break", x[:2]
    return "break", i, x[:2]


both(_break_else, 5)
both(_break_else, 2, name="break_else_no_break")


def _continue_skips(x, n):
    total = 0.0
    for i in range(n):
        if i % 2:
            continue
        x = x * 1.5
        print("even", i)
        total = total + float(x[0])
    return total, x[:2]


both(_continue_skips, 5)


def _return_from_body(x, n):
    for i in range(n):
        x = x - 0.1
        print(i)
        if i == 1:
            return x[:2], i
    return None


both(_return_from_body, 3)
both(_return_from_body, 0, name="return_from_body_no_trip")


def _closures_capture_loop_var(x, n):
    fs = []
    for i in range(n):
        x = x + 1.0
        print(i)
        fs.append(lambda y: y * i)  # noqa: B023
    return [f(2.0) for f in fs], x[:1]


both(_closures_capture_loop_var, 3)


def _closures_default_capture(x, n):
    fs = []
    for i in range(n):
        x = x + 1.0
        print(i)
        fs.append(lambda y, i=i: y * i)
    return [f(2.0) for f in fs], x[:1]


both(_closures_default_capture, 3)


def _nonlocal_counter_in_body(x, n):
    count = 0

    def bump():
        nonlocal count
        count += 1
    for _ in range(n):
        x = x * 0.9
        bump()
        print(count)
    return count, x[:1]


both(_nonlocal_counter_in_body, 3)


def _generator_made_in_body(x, n):
    gens = []
    for i in range(n):
        x = x + 0.5
        gens.append(v * i for v in (1, 2))
        print(i)
    return [list(g) for g in gens], x[:1]


both(_generator_made_in_body, 3)


def _loop_over_generator(x):
    def items():
        for k in range(3):
            yield k * 2.0
    for v in items():
        x = x + v
        print(v)
    return x[:2]


case(_loop_over_generator, (BIG.copy(),), (SMALL.copy(),))


def _var_bound_some_trips(x, n):
    for i in range(n):
        x = x * 1.1
        print(i)
        if i == 1:
            marker = x[0]
    try:
        return marker, x[:1]
    except UnboundLocalError:
        return "unbound", x[:1]


both(_var_bound_some_trips, 3)
both(_var_bound_some_trips, 1, name="var_bound_some_trips_never")


def _loop_var_after_loop(x, n):
    for i in range(n):
        x = x + 1
        print(i)
    try:
        return i, x[:1]
    except UnboundLocalError:
        return "no i", x[:1]


both(_loop_var_after_loop, 2)
both(_loop_var_after_loop, 0, name="loop_var_after_empty_loop")


def _del_in_body(x, n):
    y = x * 2
    for i in range(n):
        print(i)
        if i == 1:
            del y
        x = x + 1
    try:
        return y[:1]
    except UnboundLocalError:
        return "deleted", x[:1]


both(_del_in_body, 3)


def _exception_at_trip_k(x, n, log):
    for i in range(n):
        x = x + 1
        log.append(i)
        print(i)
        if i == 2:
            raise Boom("trip", i)
    return x[:1]


case(_exception_at_trip_k, lambda: (BIG.copy(), 4, []), lambda: (SMALL.copy(), 4, []),
     lambda: (BIG.copy(), 2, []))


def _array_mutated_in_body(x, n):
    for i in range(n):
        x[i] = -i
        x *= 1.5
        print(i)
    return x[:4]


case(_array_mutated_in_body, lambda: (BIG.copy(), 3), lambda: (SMALL.copy(), 3))


def _enumerate_zip_arrays(x):
    acc = []
    for k, (a, b) in enumerate(zip(x[:3], x[1:4])):
        acc.append(a * b + k)
        print(k)
    return acc, x.sum()


case(_enumerate_zip_arrays, (BIG.copy(),), (SMALL.copy(),))


def _dict_changed_in_loop(x, d):
    try:
        for k in d:
            x = x + d[k]
            print(k)
            d["new"] = 1.0
    except RuntimeError as e:
        return "changed", str(e), x[:1]
    return x[:1]


case(_dict_changed_in_loop, lambda: (BIG.copy(), {"a": 1.0}), lambda: (SMALL.copy(), {"a": 1.0}))


def _list_grows_in_loop(x, lst):
    for v in lst:
        x = x + v
        print(v)
        if len(lst) < 4:
            lst.append(v + 1)
    return x[:1], lst


case(_list_grows_in_loop, lambda: (BIG.copy(), [1.0]), lambda: (SMALL.copy(), [1.0]))


def _while_with_break_else(x, tol):
    k = 0
    while k < 10:
        x = x * 0.5
        k += 1
        print(k)
        if np.abs(x).max() < tol:
            break
    else:
        return "exhausted", k
    return "converged", k


both(_while_with_break_else, 0.1)
both(_while_with_break_else, 1e-9, name="while_else_exhausted")


def _while_try_finally(x, log):
    k = 0
    while k < 3:
        try:
            x = x + 1
            print(k)
            if k == 1:
                continue
        finally:
            log.append(k)
            k += 1
    return x[:1], k


case(_while_try_finally, lambda: (BIG.copy(), []), lambda: (SMALL.copy(), []))


def _nested_loops_break_inner(x):
    out = []
    for i in range(3):
        for j in range(3):
            x = x + 1
            print(i, j)
            if j == 1:
                break
        out.append((i, j))
    return out, x[:1]


case(_nested_loops_break_inner, (BIG.copy(),), (SMALL.copy(),))


def _loop_reads_global_rebound(x):
    global SCALE
    for i in range(3):
        x = x * SCALE
        print(i)
        SCALE = SCALE + 1.0
    return x[:1], SCALE


def _reset_scale():
    global SCALE
    SCALE = 1.0


SCALE = 1.0
case(_loop_reads_global_rebound, (BIG.copy(),), (SMALL.copy(),), setup=_reset_scale,
     watch=lambda: SCALE)


def _object_attr_in_body(x, o):
    for i in range(3):
        o.v = o.v + 1
        x = x * o.v
        print(i)
    return x[:1], o.v


class Holder:
    def __init__(self):
        self.v = 1.0


case(_object_attr_in_body, lambda: (BIG.copy(), Holder()), lambda: (SMALL.copy(), Holder()))


def _yield_in_loop_body(x):
    def gen(y):
        for i in range(3):
            y = y + 1
            print(i)
            yield y[:1]
    return list(gen(x))


case(_yield_in_loop_body, (BIG.copy(),), (SMALL.copy(),))


def _comprehension_over_array(x):
    return [float(v) for v in x[:3]], {i: float(v) for i, v in enumerate(x[:2])}


case(_comprehension_over_array, (BIG.copy(),), (SMALL.copy(),))


def _loop_data_dependent_if(x, n):
    signs = []
    for i in range(n):
        x = np.roll(x, 1)
        if x[0] > 0:
            signs.append("+")
        else:
            signs.append("-")
    return signs, x[:2]


both(_loop_data_dependent_if, 4)


def _loop_with_walrus(x):
    out = []
    i = 0
    while (i := i + 1) < 4:
        x = x * 2
        print(i)
        out.append(i)
    return out, x[:1], i


case(_loop_with_walrus, (BIG.copy(),), (SMALL.copy(),))


def _loop_index_as_array_index(x, n):
    for i in range(n):
        x[i] = x[i - 1] + 1
        print(i)
    return x[:n + 1]


case(_loop_index_as_array_index, lambda: (BIG.copy(), 3), lambda: (SMALL.copy(), 3))


def _loop_raise_in_else(x, n):
    try:
        for i in range(n):
            x = x + 1
            print(i)
        else:
            raise Boom("else", n)
    except Boom as e:
        return e.args, x[:1]


both(_loop_raise_in_else, 2)


def _loop_over_array_rows(m):
    acc = 0.0
    for row in m:
        acc = acc + row.sum()
        print(row.shape)
    return acc


case(_loop_over_array_rows, (BIG.reshape(4, -1),), (SMALL.reshape(2, 2),))


def _loop_shadow_builtin(x):
    for len in range(2):  # noqa: A001
        x = x + len
        print(len)
    return x[:1], len


case(_loop_shadow_builtin, (BIG.copy(),), (SMALL.copy(),))


def _loop_star_unpack(x, pairs):
    for a, *rest in pairs:
        x = x * a + sum(rest)
        print(a, rest)
    return x[:1]


case(_loop_star_unpack, (BIG.copy(), [(1, 2, 3), (2,)]), (SMALL.copy(), [(1, 2, 3), (2,)]))


def _loop_match_in_body(x, items):
    for it in items:
        match it:
            case ("scale", k):
                x = x * k
            case ("shift", k):
                x = x + k
            case _:
                print("unknown", it)
    return x[:2]


case(_loop_match_in_body, (BIG.copy(), [("scale", 2), ("shift", 1), "z"]),
     (SMALL.copy(), [("shift", 1)]))


def _loop_over_dict_items_mutating_values(x, d):
    for k, v in d.items():
        x = x * v
        print(k)
        d[k] = v + 1
    return x[:1], d


case(_loop_over_dict_items_mutating_values, lambda: (BIG.copy(), {"a": 1.0, "b": 2.0}),
     lambda: (SMALL.copy(), {"a": 1.0}))


def _loop_reversed_range(x, n):
    seen = []
    for i in reversed(range(n)):
        x = x - i
        print(i)
        seen.append(i)
    return seen, x[:1]


both(_loop_reversed_range, 3)


def _loop_range_step_negative(x, n):
    for i in range(n, 0, -2):
        x = x + i
        print(i)
    return x[:1]


both(_loop_range_step_negative, 5)


def _loop_body_raises_caught_outside(x, n):
    k = 0
    try:
        for k in range(n):
            x = x + 1
            print(k)
            if k == 1:
                raise Boom(k)
    except Boom as e:
        return "caught", e.args, k, x[:1]
    return k


both(_loop_body_raises_caught_outside, 3)


def _loop_iterator_exhausted_shared(x):
    it = iter(range(5))
    for i in it:
        x = x + i
        print(i)
        if i == 1:
            break
    rest = list(it)
    return rest, x[:1]


case(_loop_iterator_exhausted_shared, (BIG.copy(),), (SMALL.copy(),))
