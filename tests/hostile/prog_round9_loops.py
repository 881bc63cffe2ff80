"""Round 9, loop nodes and breaking loops: loops that mutate the list they iterate
(append, remove, ``del``, slice assignment, a rebinding of the name), ``enumerate`` and
``reversed`` over a changing list, a dict or set changed while iterated, a loop
variable that shadows a global a helper reads (and one declared ``global``), an
exception at trip k of n (the mutations and prints before it kept, what ``except``
sees), a warning at one trip only (its category, text *and line*, see
``lined``), generators consumed in loops (partly, twice, ``zip`` taking one item too
many), ``iter(callable, sentinel)``, and loops with a graph break inside: prints
interleaved with array results, random state (``np.random`` global state, a
``Generator``, ``random``) read on both sides of a break, ``break`` out of the loop
right after a break, an exception inside an island, the loop variable after the loop
(and unbound after an empty one)."""

import os
import random
import sys
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round9_loops")
case = reg.case

X = np.array([1.0, 2.0, -3.0, 0.5])
k = "global k"
G = 10.0


def lined(fn):
    """``fn`` returning its result (or the exception it raised) with the warnings it
    gave, each with category, text, file name and line: compiled code must warn at the
    program's own lines."""
    def run(*args):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                out = fn(*args)
            except Exception as e:  # noqa: BLE001
                out = ("raised", e)
        return out, [(w.category.__name__, str(w.message), os.path.basename(w.filename),
                      w.lineno) for w in seen]
    run.__name__ = fn.__name__
    return run


def lined_case(fn, *inputs, name=None):
    """``case`` of ``fn`` compiled, called through ``lined``."""
    def s(r):
        f = lined(r.compile(fn))
        for spec in inputs + inputs[:1]:
            for _ in range(2):
                args = spec() if callable(spec) else tuple(
                    a.copy() if isinstance(a, np.ndarray) else a for a in spec)
                r.call(f, *args)
    s.__name__ = name or fn.__name__.removeprefix("_")
    reg.scenario(s)


# ============================================================ mutating what is iterated

def _append_while_iterating(x, items):
    acc = x * 0
    for v in items:
        if v > 0:
            items.append(-v)
        acc = acc + v
    return acc, items


case(_append_while_iterating, lambda: (X.copy(), [1.0, -2.0, 3.0]))


def _remove_while_iterating(x, items):
    seen = []
    for v in items:
        seen.append(v)
        if v == 2:
            items.remove(v)
        x = x + v
    return x, seen, items


case(_remove_while_iterating, lambda: (X.copy(), [1, 2, 3, 4]))


def _del_head_while_iterating(x, items):
    for i, v in enumerate(items):
        del items[0]
        x = x * v + i
    return x, items


case(_del_head_while_iterating, lambda: (X.copy(), [2.0, 3.0, 4.0, 5.0]))


def _slice_assign_while_iterating(x, items):
    for v in items:
        items[:] = items[1:]
        x = x + v
    return x, items


case(_slice_assign_while_iterating, lambda: (X.copy(), [1.0, 2.0, 3.0]))


def _rebind_iterated_name(x, items):
    for v in items:
        items = items + [v]
        x = x + v
    return x, items


case(_rebind_iterated_name, lambda: (X.copy(), [1.0, 2.0]))


def _enumerate_growing(x, items):
    for i, v in enumerate(items, start=-1):
        if i < 2:
            items.append(i)
        x = x + i * v
    return x, items


case(_enumerate_growing, lambda: (X.copy(), [1.0, 2.0]))


def _reversed_while_appending(x, items):
    for v in reversed(items):
        items.append(v)
        x = x - v
    return x, items


case(_reversed_while_appending, lambda: (X.copy(), [1.0, 2.0, 3.0]))


def _dict_changed_while_iterated(x, d):
    try:
        for key in d:
            d[key + "!"] = x.sum()
    except RuntimeError as e:
        return str(e), d
    return None, d


case(_dict_changed_while_iterated, lambda: (X.copy(), {"a": 1.0, "b": 2.0}))


def _dict_value_changed_while_iterated(x, d):
    for key in d:
        d[key] = d[key] * x
    return d


case(_dict_value_changed_while_iterated, lambda: (X.copy(), {"a": 1.0, "b": 2.0}))


def _set_changed_while_iterated(x, s):
    try:
        for v in s:
            s.add(v + 1)
    except RuntimeError as e:
        return str(e), x
    return None, x


case(_set_changed_while_iterated, lambda: (X.copy(), {1}))


def _array_rows_written_while_iterated(a):
    for row in a:
        a[-1] += row
    return a


case(_array_rows_written_while_iterated, lambda: (np.arange(6.0).reshape(3, 2),))


def _array_grows_in_while(x, n):
    while len(x) < n:
        x = np.concatenate([x, x[-1:] * 2])
    return x


case(_array_grows_in_while, (X, 6), (X, 4), (X, 9))


# ============================================================ names and shadows

def _read_k():
    return k


def _loop_variable_shadows_global(x):
    out = []
    for k in range(3):   # noqa: F402 (the point: a local named like the global)
        out.append(_read_k())
        x = x + k
    return x, out, k


case(_loop_variable_shadows_global, (X,))


def _loop_assigns_global(x):
    global G
    for G in (1.0, 2.0, 3.0):   # noqa: B007
        x = x * G
    return x, G


case(_loop_assigns_global, (X,), setup=lambda: globals().update(G=10.0),
     watch=lambda: G)


def _loop_variable_after_loop(x, items):
    for v in items:
        x = x + v
    try:
        return x, v
    except UnboundLocalError as e:
        return x, str(e)


case(_loop_variable_after_loop, (X, [1.0, 2.0]), (X, []))


def _loop_var_is_the_array(x):
    for x in (x, x * 2, x * 3):   # noqa: B020 (the point)
        pass
    return x


case(_loop_var_is_the_array, (X,))


# ============================================================ exceptions and warnings at trip k

def _raise_at_trip(x, k, log):
    for i in range(5):
        log.append(i)
        if i == k:
            raise ValueError(f"trip {i}")
        x = x + i
    return x


case(_raise_at_trip, lambda: (X.copy(), 2, []), lambda: (X.copy(), 9, []),
     lambda: (X.copy(), 0, []))


def _index_error_at_trip(x, idx):
    out = []
    for i in idx:
        out.append(x[i] * 2)
    return out


case(_index_error_at_trip, (X, [0, 1, 2]), (X, [0, 7, 1]), (X, [-1, -4, -5]))


def _caught_each_trip(x, idx):
    out = []
    for i in idx:
        try:
            out.append(x[i])
        except IndexError as e:
            out.append(str(e))
            continue
        x = x + 1
    return x, out


case(_caught_each_trip, (X, [0, 9, 1]), (X, [1, 2]))


def _prints_then_raises(x, n):
    for i in range(n):
        print("trip", i, x.sum())
        x = x / (n - i - 1)
    return x


case(_prints_then_raises, (X, 2), (X, 3))


def _zero_division_at_trip(x, ds):
    acc = 0.0
    for d in ds:
        acc += 1.0 / d
    return x * acc


case(_zero_division_at_trip, (X, [1.0, 2.0]), (X, [1.0, 0.0, 2.0]))


def _divide_warns_one_trip(x):
    out = []
    for i in range(4):
        out.append(x / (i - 2))
    return out


lined_case(_divide_warns_one_trip, (X,))


def _warn_one_trip(x, k):
    for i in range(3):
        if i == k:
            warnings.warn(f"trip {i}", UserWarning)   # noqa: B028
        x = x * 2
    return x


lined_case(_warn_one_trip, (X, 1), (X, 5))


def _log_of_negative_one_trip(x):
    out = 0.0
    for i in range(3):
        out = out + np.log(x + (i - 1) * 3).sum()
    return out


lined_case(_log_of_negative_one_trip, (X,))


def _invalid_then_caught(x):
    with np.errstate(invalid="raise"):
        for i in range(3):
            try:
                x = np.sqrt(x - i)
            except FloatingPointError as e:
                return "caught", i, str(e), x
    return x


case(_invalid_then_caught, (np.array([9.0, 4.0]),), (np.array([1.0, 4.0]),))


def _overflow_warns_at_trip(x):
    for _ in range(4):
        x = x * np.float32(1e20)
    return x


lined_case(_overflow_warns_at_trip, (np.array([1.0, 2.0], dtype=np.float32),))


def _finally_each_trip(x, log):
    for i in range(3):
        try:
            if i == 1:
                continue
            x = x + i
        finally:
            log.append(i)
    return x


case(_finally_each_trip, lambda: (X.copy(), []))


def _return_at_trip(x, k):
    for i in range(4):
        x = x + 1
        if i == k:
            return x, i
    return x, None


case(_return_at_trip, (X, 1), (X, 7), (X, 0))


def _for_else_break_at_trip(x, k):
    for i in range(3):
        if i == k:
            break
        x = x * 2
    else:
        x = -x
    return x


case(_for_else_break_at_trip, (X, 1), (X, 3))


# ============================================================ generators and iterators

def _generator_in_loop(x):
    gen = (x * i for i in range(3))
    acc = x * 0
    for g in gen:
        acc = acc + g
    return acc, list(gen)


case(_generator_in_loop, (X,))


def _generator_partly_consumed(x):
    gen = (x + i for i in range(4))
    first = [next(gen) for _ in range(2)]
    rest = [g for g in gen]
    return first, rest


case(_generator_partly_consumed, (X,))


def _zip_takes_one_more(x):
    it = iter([1.0, 2.0, 3.0])
    pairs = list(zip(it, [10.0]))
    return x * pairs[0][0], list(it)


case(_zip_takes_one_more, (X,))


def _genfunc_with_state(x, log):
    def steps(n):
        for i in range(n):
            log.append(("yield", i))
            yield x * i
        log.append("done")

    total = x * 0
    for s in steps(3):
        total = total + s
    return total


case(_genfunc_with_state, lambda: (X.copy(), []))


def _iter_sentinel(x, values):
    it = iter(values.pop, 0)
    for v in it:
        x = x + v
    return x, values


case(_iter_sentinel, lambda: (X.copy(), [0, 5, 3, 2]))


def _map_mutating_lambda(x, items):
    out = list(map(lambda v: items.append(v) or v * x, items[:2]))
    return out, items


case(_map_mutating_lambda, lambda: (X.copy(), [1.0, 2.0]))


# ============================================================ breaks inside loops (islands)

def _print_each_trip(x):
    for i in range(3):
        x = x * 2
        print("trip", i, x.sum())
    return x


case(_print_each_trip, (X,))


def _global_rng_across_print(x):
    np.random.seed(3)
    out = []
    for i in range(3):
        out.append(x * np.random.random())
        print("r", i)
    return out, np.random.random()


case(_global_rng_across_print, (X,))


def _generator_rng_across_print(x, rng):
    out = []
    for i in range(3):
        out.append(x + rng.standard_normal(len(x)))
        print("g", i)
    return out


case(_generator_rng_across_print, lambda: (X.copy(), np.random.default_rng(7)))


def _python_random_across_print(x):
    random.seed(5)
    out = []
    for _ in range(3):
        v = random.random()
        print(round(v, 6))
        out.append(x * v)
    return out


case(_python_random_across_print, (X,))


def _shuffle_list_in_loop(x, items, rng):
    for _ in range(2):
        rng.shuffle(items)
        x = x + items[0]
    return x, items


case(_shuffle_list_in_loop, lambda: (X.copy(), [1.0, 2.0, 3.0], np.random.default_rng(1)))


def _break_after_print(x, tol):
    for i in range(10):
        x = x / 2
        print("step", i)
        if np.abs(x).max() < tol:
            break
    return x, i


case(_break_after_print, (X, 0.5), (X, 100.0))


def _island_raises(x, k):
    f = sys._getframe()
    out = []
    for i in range(3):
        out.append(f.f_lineno > 0)
        if i == k:
            raise KeyError(i)
        x = x + 1
    return x, out


case(_island_raises, (X, 1), (X, 4))


def _island_break(x):
    frame = sys._getframe()
    for i in range(5):
        x = x * 2
        if x.sum() > 20 and frame is not None:
            break
    return x, i


case(_island_break, (X,), (np.array([100.0]),))


def _context_manager_each_trip(x, log, k):
    class Cm:
        def __init__(self, i):
            self.i = i

        def __enter__(self):
            log.append(("enter", self.i))

        def __exit__(self, *exc):
            log.append(("exit", self.i, exc[0].__name__ if exc[0] else None))
            return False

    for i in range(3):
        with Cm(i):
            if i == k:
                raise ValueError(i)
            x = x + i
    return x


case(_context_manager_each_trip, lambda: (X.copy(), [], 1), lambda: (X.copy(), [], 5))


def _printoptions_changed_in_loop(x):
    for p in (2, 5):
        with np.printoptions(precision=p):
            print(x / 3)
    return x


case(_printoptions_changed_in_loop, (X,))


def _next_prints(x):
    class Noisy:
        def __init__(self):
            self.i = 0

        def __iter__(self):
            return self

        def __next__(self):
            print("next", self.i)
            self.i += 1
            if self.i > 3:
                raise StopIteration
            return self.i

    for v in Noisy():
        x = x * v
    return x


case(_next_prints, (X,))


def _break_in_nested_with_flag(x):
    done = False
    for i in range(3):
        for j in range(3):
            x = x + i * j
            if x.sum() > 15:
                done = True
                break
        print("outer", i)
        if done:
            break
    return x, i, j


case(_break_in_nested_with_flag, (X,), (np.zeros(1),))
