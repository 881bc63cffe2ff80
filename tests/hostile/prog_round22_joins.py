"""Round 22, ifs that choose a value, continued (the category ``round22_selects``):
conditional expressions inside helpers, methods, lambdas and unrolled loops; both ways
returning; a write, an append or a Python number after the join; the 8192-element
budget at its edge; selects beside graph numbers, typed constants and deferred prints;
effects before an if whose untaken way raises a flag; ``np.errstate`` and an
``"error"`` filter the program sets around the if; and deferred prints of values
changed after the print, or to a closed or ASCII ``sys.stdout`` before an append.

    >>> def _pick(x, s):
    ...     return x * 2 if s > 0 else x - 2     # inlined: the select is in the helper
"""

import io
import sys
import warnings
from types import SimpleNamespace

import numpy as np
from hostile_check import Programs
from prog_round22_selects import NANS, NEG, POS, ZEROS

import dynamo

reg = Programs("round22_selects")
case = reg.case
scenario = reg.scenario


def sel2(fn, *inputs, name=None, calls=2):
    case(fn, *(inputs or ((POS,), (NEG,))), name=name, calls=calls)


# -------------------------------------------------- helpers, methods, loops, lambdas

def _pick(x, s):
    return x * 2 if s > 0 else x - 2


def _in_helper(x):
    return _pick(x, x.sum()) + 1


class Chooser:
    def __init__(self, k):
        self.k = k

    def choose(self, x):
        if x.sum() > 0:
            y = x * self.k
        else:
            y = x / self.k
        return y


def _in_method(c, x):
    return c.choose(x)


def _in_lambda(x):
    g = lambda v: v + 1 if v.sum() > 0 else v - 1  # noqa: E731
    return g(x) * 2


def _in_short_loop(x):
    y = x
    for k in range(3):
        y = y * 2 if y.sum() > 0 else y + k
    return y


def _helper_divides(x, d):
    return _pick(x / d, x.sum()) if d.sum() != 0 else x


def _both_return(x):
    if x.sum() > 0:
        return x * 2
    return x * 3


def _both_return_expr(x, d):
    return x / d if x.sum() > 0 else x * d


def _both_return_scalar(x):
    return x.max() if x.sum() > 0 else x.min()


def _join_then_write(x):
    if x.sum() > 0:
        y = x[:6]
    else:
        y = x[6:] * 1
    y[0] = 99.0
    return x


def _join_then_append(x, out):
    y = x * 2 if x.sum() > 0 else x * 3
    out.append(y.sum())
    return y


def _join_then_item(x):
    y = x * 2 if x.sum() > 0 else x - 100
    return float(y[0]), int(y.argmax())


sel2(_in_helper)
sel2(_in_method, (Chooser(3), POS), (Chooser(0), NEG), (Chooser(3), NEG), name="in_method")
sel2(_in_lambda)
sel2(_in_short_loop, (POS,), (NEG,), (NEG / 100,))
sel2(_helper_divides, (POS, ZEROS + 0), (NEG, ZEROS + 1), name="helper_guarded_divide")
sel2(_both_return, (POS,), (NEG,), (NANS,))
sel2(_both_return_expr, (POS, ZEROS), (NEG, ZEROS), name="both_return_div_zero")
sel2(_both_return_scalar)
sel2(_join_then_write)
sel2(_join_then_append, (POS, []), (NEG, []), name="join_then_append")
sel2(_join_then_item)


# ------------------------------------------------------------ the 8192-element budget

def _budget(n):
    def f(x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x / 0.0
        return y
    f.__name__ = f"_budget_{n}"
    return f


for _n in (4095, 4096, 4097, 2731):
    case(_budget(_n), (np.linspace(0.5, 2, _n),), (-np.linspace(0.5, 2, _n),),
         name=f"budget_{_n}")


def _budget_three_ops(x):
    if x.sum() > 0:
        y = np.sqrt(x) + 1
    else:
        y = np.log(-x) * 2
    return y


case(_budget_three_ops, (np.linspace(0.5, 2, 2048),), (-np.linspace(0.5, 2, 2048),),
     (np.linspace(-1, 1, 2048),), name="budget_three_ops_2048")
case(_budget_three_ops, (np.linspace(0.5, 2, 2049),), (-np.linspace(0.5, 2, 2049),),
     (np.linspace(-1, 1, 2049),), name="budget_three_ops_2049")


# ---------------------------------------------- selects beside the other new mechanisms

def _select_then_number(x):
    y = x * 2 if x.sum() > 0 else x - 1
    v = float(y.sum())
    return v * 0.5, v - v, y


def _number_in_way(x):
    if x.sum() > 0:
        y = x * float(x.max())
    else:
        y = x * float(x.min())
    return y


def _select_typed_float32(x):
    x = x.astype(np.float32)
    y = x * 0.1 if x.sum() > 0 else x * -0.0
    return y, y.dtype


def _select_float16_overflow_constant(x):
    h = x.astype(np.float16)
    y = h * 70000.0 if h.sum() < 0 else h + 1.0
    return y


def _select_empty(x):
    e = x[:0]
    y = e * 2 if e.sum() > 0 else e - 1
    return y, e.sum()


def _select_scalar_types(x):
    s32 = x.astype(np.float32).sum()
    y = s32 * 2 if x.sum() > 0 else s32 / 2
    return y, type(y)


def _select_twice_same_value(x):
    s = x.sum()
    a = x + 1 if s > 0 else x - 1
    b = x + 1 if s > 0 else x - 1
    return a, b, a is b


def _select_number_mixed_types(x):
    v = float(x.sum())
    return v + np.int64(2), v * np.float32(2), v + x.sum(), v / np.float64(3), v * True


def _number_chain_in_loop(x):
    v = float(x.mean())
    for i in range(3):
        v = v * 0.5 + i
    return v, abs(v), -v, +v


def _number_into_array(x):
    v = float(x.sum())
    out = np.full(3, v)
    x[0] = v
    return out, np.float32(v), np.array(v), x


def _number_fsum(x):
    import math
    v = float(x.sum())
    return math.fsum([v, 1e100, -1e100]), v.real, v.conjugate(), float(v)


sel2(_select_then_number, (POS,), (NEG,), (NANS,))
sel2(_number_in_way, (POS,), (NEG,), (NANS,))
sel2(_select_typed_float32, (POS,), (NEG,), (NANS,))
sel2(_select_float16_overflow_constant)
sel2(_select_empty)
sel2(_select_scalar_types, (POS,), (NEG,), (NANS,))
sel2(_select_twice_same_value)
sel2(_select_number_mixed_types, (POS,), (np.array([np.nan]),), (np.array([-0.0]),))
sel2(_number_chain_in_loop, (POS,), (np.array([np.inf]),))
sel2(_number_into_array, (POS,), (np.array([np.nan, 1.0, 2.0]),))
sel2(_number_fsum, (POS,), (np.array([np.inf]),))


def _print_select(x):
    y = x * 2 if x.sum() > 0 else x - 1
    print("chose", y.sum(), float(y.max()))
    return y


def _print_select_div(x, d):
    print("start")
    y = x / d if x.sum() > 0 else x * 2
    print("end", y[0])
    return y


def _print_bad_sep(x):
    print("a", x.sum(), sep=3)
    return x


def _print_bad_file(x, f):
    print("a", x.sum(), file=f)
    return x


def _print_end_then_raise(x):
    print("partial", x.sum(), end="")
    return x[int(x.sum())]


def _namespaces_equal(a, b):
    return a == b


def _self_referencing_repr(o, x):
    o.me = o
    o.v = x.sum()
    return repr(o)


def deferred(fn, *inputs, name=None, setup=None):
    """``fn`` with ``dynamo.config.defer_prints`` on."""
    def s(r):
        if setup is not None:
            setup()
        r.patch(dynamo.config, "defer_prints", True)
        f = r.compile(fn)
        for make in list(inputs) * 2 + list(inputs[:1]):
            r.call(f, *make())
    s.__name__ = name or fn.__name__.removeprefix("_")
    reg.scenario(s)


deferred(_print_select, lambda: (POS.copy(),), lambda: (NEG.copy(),))
deferred(_print_select_div, lambda: (POS.copy(), ZEROS.copy()), lambda: (NEG.copy(), ZEROS.copy()))
deferred(_print_bad_sep, lambda: (POS.copy(),))
deferred(_print_bad_file, lambda: (POS.copy(), object()), lambda: (POS.copy(), None))
deferred(_print_end_then_raise, lambda: (POS.copy(),), lambda: (NEG.copy() / 100,))
sel2(_namespaces_equal, lambda: (SimpleNamespace(v=POS), SimpleNamespace(v=POS)),
     lambda: (SimpleNamespace(v=1.0), SimpleNamespace(v=1.0)), name="namespaces_equal_arrays")
sel2(_self_referencing_repr, (SimpleNamespace(), POS), name="namespace_self_repr")


# ------------------------------------ effects before an if whose untaken way raises a flag

COUNTER = [0]


def _append_before(x, d, out):
    out.append(len(out))
    y = x / d if x.sum() > 0 else x * 2
    return y, out


def _write_before(x, d):
    x += 1
    y = x / d if x.sum() > 0 else x * 2
    return y, x


def _global_before(x, d):
    COUNTER[0] += 1
    y = x / d if x.sum() > 0 else x * 2
    return y, COUNTER[0]


def _attr_before(o, x, d):
    o.n = getattr(o, "n", 0) + 1
    y = np.log(x) if x.sum() > 0 else x * d
    return y, o.n


def _draw_before(x, d):
    noise = np.random.random(3)
    y = x / d if x.sum() > 0 else x * 2
    return y, noise


def _print_before(x, d):
    print("before", x[0])
    y = x / d if x.sum() > 0 else x * 2
    print("after", y[0])
    return y


def _reset_counter():
    COUNTER[0] = 0
    np.random.seed(3)


case(_append_before, (NEG, ZEROS, []), (POS, ZEROS, []), name="append_before_untaken_flag")
case(_write_before, (NEG * 3, ZEROS), (POS, ZEROS), name="write_before_untaken_flag")
case(_global_before, (NEG, ZEROS), (POS, ZEROS), setup=_reset_counter,
     watch=lambda: COUNTER[0], name="global_before_untaken_flag")
case(_attr_before, (SimpleNamespace(), NEG, np.inf), (SimpleNamespace(), POS, 0.0),
     name="attr_before_untaken_log")
case(_draw_before, (NEG, ZEROS), (POS, ZEROS), setup=_reset_counter,
     watch=lambda: np.random.random(), name="draw_before_untaken_flag")
deferred(_print_before, lambda: (NEG.copy(), ZEROS.copy()), lambda: (POS.copy(), ZEROS.copy()),
         setup=_reset_counter)


# ------------------------------------------------ printed values changed after the print

class Shows:
    def __init__(self):
        self.v = 1

    def __str__(self):
        return f"Shows({self.v})"


def _print_list_then_append(x, items):
    print(items)
    items.append(float(x.sum()))
    print(items, len(items))
    return x * 2


def _print_dict_then_set(x, d):
    print(d)
    d["s"] = x.max()
    return x + 1


def _print_ns_then_set(x, o):
    print(o, o.v)
    o.v = x.min()
    print(o)
    return x - 1


def _print_obj_then_set(x, o):
    print(o)
    o.v = 2
    return x * 3


def _print_array_then_setitem(x):
    y = x * 2
    print(y)
    y[0] = -1.0
    print(y)
    return y


def _print_global_then_rebind(x):
    print(COUNTER)
    COUNTER[0] = COUNTER[0] + 1
    print(COUNTER)
    return x


deferred(_print_list_then_append, lambda: (POS.copy(), [1.0]))
deferred(_print_dict_then_set, lambda: (POS.copy(), {"a": 1}))
deferred(_print_ns_then_set, lambda: (POS.copy(), SimpleNamespace(v=1)))
deferred(_print_obj_then_set, lambda: (POS.copy(), Shows()))
deferred(_print_array_then_setitem, lambda: (POS.copy(),))
deferred(_print_global_then_rebind, lambda: (POS.copy(),), setup=_reset_counter)


# ----------------------------------------------------------- identity through the join

def _return_argument_or_new(x):
    return x if x.sum() > 0 else x * 2


def _one_of_two_arguments(a, b):
    y = a if a.sum() > b.sum() else b
    return y, a, b


def _one_of_two_then_add(a, b):
    y = a if a.sum() > b.sum() else b
    y += 1
    return y, a, b


def _argument_way_then_inplace(x):
    y = x if x.sum() > 0 else x * 2
    y *= 3
    return y, x


def _zero_d_view_or_new(x):
    y = x[0:1].reshape(()) if x.sum() > 0 else np.asarray(x.sum())
    return y, y + 1, y.base is not None


def _complex_condition(z):
    y = z * 2 if z.sum().real > 0 else z.conj()
    return y


def _complex_truth(z):
    y = z * 2 if z.sum() else z + 1
    return y


def _number_condition(x):
    y = x * 2 if float(x.sum()) > 0 else x - 1
    return y


def _long_loop_select(x):
    y = x
    for i in range(20):
        y = y * 0.5 if y.sum() > 1 else y + i
    return y


sel2(_return_argument_or_new)
sel2(_one_of_two_arguments, (POS, NEG), (NEG, POS), name="one_of_two_arguments")
sel2(_one_of_two_arguments, lambda: (lambda a: (a, a))(POS.copy()), name="one_of_two_same_object")
sel2(_one_of_two_then_add, (POS, NEG), (NEG, POS), name="one_of_two_then_add")
sel2(_one_of_two_then_add, lambda: (lambda a: (a, a))(POS.copy()),
     name="one_of_two_same_object_then_add")
sel2(_argument_way_then_inplace)
sel2(_zero_d_view_or_new)
sel2(_complex_condition, (POS * 1j + POS,), (NEG + 0j,))
sel2(_complex_truth, (POS * 1j,), (ZEROS + 0j,))
sel2(_number_condition, (POS,), (NEG,), (NANS,))
sel2(_long_loop_select, (POS,), (NEG,), (NANS,))


# ----------------------------------------------- a print that raises, then an effect

def _print_then_effect(x, out):
    print("loss", x.sum(), "é")
    out.append(len(out))
    return x * 2


def _print_array_then_effect(x, out):
    print(x / 3)
    out.append(len(out))
    return x * 2


def _closed_stream():
    buf = io.StringIO()
    buf.close()
    return buf


def _ascii_stream():
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii")


def _streams(fn, make, name):
    """``fn`` called on an open ``sys.stdout``, then on the stream ``make()`` makes
    (plainly the print raises before the append), then on an open one again."""
    def s(r):
        r.patch(dynamo.config, "defer_prints", True)
        f = r.compile(fn)

        def on(stream):
            out = []
            old = sys.stdout
            sys.stdout = stream
            try:
                return f(POS.copy(), out)
            finally:
                sys.stdout = old
                r.see("out", out)
        r.call(f, POS.copy(), [])
        r.call(on, make())
        r.call(on, make())
        r.call(f, POS.copy(), [])
    s.__name__ = name
    reg.scenario(s)


_streams(_print_then_effect, _closed_stream, "print_to_closed_stdout_then_append")
_streams(_print_then_effect, _ascii_stream, "print_to_ascii_stdout_then_append")
_streams(_print_array_then_effect, _closed_stream, "print_array_to_closed_stdout_then_append")
_streams(_print_array_then_effect, _ascii_stream, "print_array_to_ascii_stdout_then_append")


# ------------------------------------------- the program's own settings around the if

def _errstate_inside(x, d):
    with np.errstate(divide="raise", invalid="raise"):
        y = x / d if x.sum() > 0 else x * 2
    return y


def _errstate_ignore_inside(x, d):
    with np.errstate(all="ignore"):
        y = x / d if x.sum() > 0 else np.log(x)
    return y


def _filter_inside(x, d):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = x / d if x.sum() > 0 else x * 2
    return y


sel2(_errstate_inside, (NEG, ZEROS), (POS, ZEROS), name="errstate_raise_inside")
sel2(_errstate_ignore_inside, (NEG, ZEROS), (POS, ZEROS), name="errstate_ignore_inside")
sel2(_filter_inside, (NEG, ZEROS), (POS, ZEROS), name="error_filter_inside")
