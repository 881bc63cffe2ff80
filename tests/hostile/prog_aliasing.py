"""Aliasing: one list, dict, array or object reached through two names (two arguments, an
argument and a global, a closure and an argument, a container element and an argument,
an attribute and an argument), mutated through both. Input sets that alias and input
sets that do not alternate, so an entry traced for one must not serve the other."""

import numpy as np
from hostile_check import Programs

reg = Programs("aliasing")
case, scenario = reg.case, reg.scenario

A = np.arange(6, dtype=np.float64)
B = np.linspace(-1, 1, 6)
M = np.arange(12, dtype=np.float32).reshape(3, 4)
LOG = []
OTHER = []
G1 = G2 = []
CFG = {"scale": 2.0}
W = np.ones(3)


class Box:
    def __init__(self, n=0):
        self.n = n


class Holder:
    def __init__(self, items=None):
        self.items = items if items is not None else []

    def push(self, v):
        self.items.append(v)


def _reset_globals():
    LOG.clear()
    OTHER.clear()
    G1.clear()
    CFG.clear()
    CFG["scale"] = 2.0
    W[:] = 1.0


def _watch_globals():
    return {"LOG": list(LOG), "OTHER": list(OTHER), "G2": list(G2), "CFG": dict(CFG),
            "W": W.copy()}


def _same_list():
    shared = []
    return shared, shared


def _same_array():
    a = A.copy()
    return a, a


def _same_box():
    b = Box()
    return A.copy(), b, b


# -- two arguments ------------------------------------------------------------------------

def _two_lists(a, b):
    a.append(1)
    b.append(2)
    return len(a), len(b), a is b


case(_two_lists, _same_list, ([], []))


def _two_arrays_inplace(x, y):
    x += 1
    y *= 2
    return x + y


case(_two_arrays_inplace, _same_array, (A, B))


def _is_same_array(x, y):
    if x is y:
        return x * 2
    return x + y


case(_is_same_array, (A, B), _same_array)


def _is_not_same_array(x, y):
    return x * 3 if x is not y else x - 1


case(_is_not_same_array, _same_array, (A, B))


def _h_boxes(x, p, q):
    p.n += 1
    q.n += 1
    return x * p.n, q.n


case(_h_boxes, _same_box, (A, Box(), Box()))


def _box_read_after_write(p, q):
    p.n = 5
    t = q.n
    q.n = 7
    return t, p.n


case(_box_read_after_write, lambda: (lambda b: (b, b))(Box()), (Box(), Box()))


def _dicts(d, e):
    d["k"] = 1
    present = "k" in e
    e.clear()
    return present, len(d)


case(_dicts, lambda: (lambda d: (d, d))({}), ({}, {}))


def _extend_self(a, b):
    a.extend(b)
    return len(a), len(b)


case(_extend_self, lambda: (lambda lst: (lst, lst))([1, 2]), ([1, 2], [3]))


def _array_add_self(a, b):
    a += b
    return a


case(_array_add_self, _same_array, (A, B))


def _write_then_read_other(a, b):
    before = b[0]
    a[0] = 7.0
    return before, b[0], b.sum()


case(_write_then_read_other, _same_array, (A, B))


def _setitem_two_views(a, b):
    a[1:] = b[:-1]
    return a


case(_setitem_two_views, _same_array, (A, B))


def _kwargs_alias(a=None, b=None):
    a.append("a")
    b.append("b")
    return list(a), list(b)


def _kw_same():
    shared = []
    from hostile_check import Args
    return Args(a=shared, b=shared)


case(_kwargs_alias, _kw_same)


def _varargs_alias(*lists):
    for i, lst in enumerate(lists):
        lst.append(i)
    return [len(lst) for lst in lists]


case(_varargs_alias, lambda: (lambda lst: (lst, lst, lst))([]), ([], [], []))


def _model_and_weight(m, w):
    m.w *= 2
    return w.sum(), m.w is w


case(_model_and_weight, lambda: (lambda w: (Holder(), w))(A.copy()),
     lambda: (lambda w: (setattr(h := Holder(), "w", w) or h, w))(A.copy()))


# -- argument and global --------------------------------------------------------------------

def _log_is_LOG(log, x):
    log.append(float(x.sum()))
    LOG.append("g")
    return len(log), len(LOG), log is LOG


case(_log_is_LOG, lambda: (LOG, A), lambda: ([], A), setup=_reset_globals,
     watch=_watch_globals)


def _only_is_LOG(log):
    return log is LOG


case(_only_is_LOG, lambda: (LOG,), lambda: ([],), setup=_reset_globals)


def _two_globals_one_list():
    G1.append(1)
    return len(G2), G1 is G2


case(_two_globals_one_list, setup=_reset_globals, watch=_watch_globals, calls=3)


def _global_dict_and_arg(cfg, x):
    cfg["scale"] = cfg["scale"] + 1
    return x * CFG["scale"]


case(_global_dict_and_arg, lambda: (CFG, A), lambda: ({"scale": 0.5}, A),
     setup=_reset_globals, watch=_watch_globals)


def _global_array_and_arg(x):
    x += 1
    return W.sum(), x.sum()


case(_global_array_and_arg, lambda: (W,), lambda: (np.ones(3),), setup=_reset_globals,
     watch=_watch_globals)


def _global_array_write_then_read(x):
    W[0] = 10.0
    return x[0] + 0


case(_global_array_write_then_read, lambda: (W,), lambda: (np.ones(3),),
     setup=_reset_globals, watch=_watch_globals)


def _global_rebound_alias(x):
    global OTHER
    old = OTHER
    OTHER = []
    old.append(x.shape[0])
    return len(OTHER), len(old)


def _reset_other():
    global OTHER
    OTHER = []
    _reset_globals()


def _watch_other():
    return list(OTHER)


case(_global_rebound_alias, (A,), calls=3, setup=_reset_other, watch=_watch_other)


def _arg_is_global_then_clear(log):
    LOG.clear()
    log.append(1)
    return list(LOG)


case(_arg_is_global_then_clear, lambda: (LOG,), lambda: ([0],), setup=_reset_globals,
     watch=_watch_globals)


# -- closure and argument ------------------------------------------------------------------

def _make_closure():
    state = []

    def f(x, s):
        s.append(1)
        state.append(2)
        return len(state), len(s), s is state
    return f, state


@scenario
def s_closure_and_argument(r):
    f, state = _make_closure()
    cf = r.compile(f)
    r.call(cf, A, state)
    r.call(cf, A, [])
    r.call(cf, A, state)
    r.see("state", state)


def _make_cell_pair():
    n = 0

    def inc():
        nonlocal n
        n += 1
        return n

    def f(x):
        a = inc()
        b = inc()
        return x * a + b, n
    return f


@scenario
def s_two_closures_share_a_cell(r):
    f = r.compile(_make_cell_pair())
    r.call(f, A)
    r.call(f, A)


def _make_array_closure():
    buf = np.zeros(3)

    def f(x):
        buf[:] += x
        return buf
    return f, buf


@scenario
def s_closure_array_returned_and_passed(r):
    f, buf = _make_array_closure()
    cf = r.compile(f)
    r.call(cf, buf)          # buf += buf
    r.call(cf, np.ones(3))
    r.see("buf", buf)


# -- container element and argument -------------------------------------------------------

def _list_elem_and_arg(lst, x):
    lst[0] += 1
    x += 1
    return lst[0]


case(_list_elem_and_arg, lambda: (lambda a: ([a], a))(A.copy()), ([A], A.copy()))


def _dict_elem_and_arg(d, x):
    d["w"] *= 2
    return x.sum()


case(_dict_elem_and_arg, lambda: (lambda a: ({"w": a}, a))(A.copy()), ({"w": A}, A))


def _attr_and_arg(o, x):
    o.items[0] = 100.0
    return x[0]


case(_attr_and_arg, lambda: (lambda a: (Holder(a), a))(A.copy()),
     lambda: (Holder(A.copy()), A.copy()))


def _list_of_same_array(x):
    lst = [x, x]
    lst[0] += 1
    return lst[1]


case(_list_of_same_array, (A,))


def _tuple_of_same_list(t):
    t[0].append(1)
    return len(t[1])


case(_tuple_of_same_list, lambda: (lambda lst: ((lst, lst),))([]), (([], []),))


def _object_list_alias(o, lst):
    o.push(1)
    return len(lst), list(lst)


case(_object_list_alias, lambda: (lambda lst: (Holder(lst), lst))([]), lambda: (Holder(), []))


def _nested_alias(d):
    d["a"]["x"] = 1
    return d["b"].get("x")


case(_nested_alias, lambda: (lambda inner: ({"a": inner, "b": inner},))({}),
     ({"a": {}, "b": {}},))


def _self_cycle(o, x):
    o.child = o
    o.n += 1
    return x * o.child.child.n


case(_self_cycle, (Box(), A))


# -- local aliasing inside the function ----------------------------------------------------

def _local_chain(x):
    a = b = np.zeros(3)
    a += x[:3]
    return b


case(_local_chain, (A,))


def _arg_renamed(x):
    y = x
    y += 1
    return x


case(_arg_renamed, (A,))


def _dict_renamed(d, x):
    e = d
    e["a"] = x * 2
    return d["a"]


case(_dict_renamed, ({}, A))


def _swap_rows(x):
    x[0], x[1] = x[1], x[0]      # views: both rows end up equal
    return x


case(_swap_rows, (M.copy(),))


def _swap_rows_copy(x):
    x[[0, 1]] = x[[1, 0]]
    return x


case(_swap_rows_copy, (M.copy(),))


def _view_then_write(x):
    v = x[:, 0]
    x[0, 0] = 3.0
    return v


case(_view_then_write, (M,))


def _fancy_copy_then_write(x):
    c = x[[0, 1]]
    x[0, 0] = 3.0
    return c


case(_fancy_copy_then_write, (M,))


def _overlap_add_out(x):
    np.add(x[:-1], x[1:], out=x[1:])
    return x


case(_overlap_add_out, (A,))


def _overlap_iadd(x):
    x[1:] += x[:-1]
    return x


case(_overlap_iadd, (A,))


def _reversed_iadd(x):
    x[::-1] += x
    return x


case(_reversed_iadd, (A,))


def _overlap_setitem(x):
    x[2:] = x[:-2]
    return x


case(_overlap_setitem, (A,))


def _copyto_reversed(x):
    np.copyto(x, x[::-1])
    return x


case(_copyto_reversed, (A,))


def _asarray_write(x):
    y = np.asarray(x)
    y[0] = 5.0
    return x[0]


case(_asarray_write, (A,))


def _reshape_write(x):
    x.reshape(-1)[0] = 9.0
    return x


case(_reshape_write, (M,), lambda: (M.copy().T,))


def _ravel_write(x):
    x.ravel()[0] = 9.0      # a view only when x is C-contiguous
    return x


case(_ravel_write, lambda: (M.copy(),), lambda: (M.T.copy().T,))


def _transpose_write(x):
    x.T[0] = -1.0
    return x


case(_transpose_write, (M,))


def _mutable_default(x, acc=[]):  # noqa: B006 (the point of the program)
    acc.append(x.shape[0])
    return len(acc)


@scenario
def s_mutable_default_grows(r):
    _mutable_default.__defaults__[0].clear()
    f = r.compile(_mutable_default)
    for _ in range(3):
        r.call(f, A)
    r.see("default", _mutable_default.__defaults__[0])


def _kwdefault_dict(x, *, seen={}):  # noqa: B006
    seen[len(seen)] = x.shape
    return len(seen)


@scenario
def s_mutable_kwdefault_grows(r):
    _kwdefault_dict.__kwdefaults__["seen"].clear()
    f = r.compile(_kwdefault_dict)
    for _ in range(3):
        r.call(f, A)
    r.see("kwdefault", _kwdefault_dict.__kwdefaults__["seen"])


class Shared:
    shared = []

    def __init__(self):
        self.w = A.copy()


def _class_list_via_instances(a, b):
    a.shared.append(1)
    return len(b.shared)


@scenario
def s_class_level_list(r):
    Shared.shared.clear()
    f = r.compile(_class_list_via_instances)
    r.call(f, Shared(), Shared())
    r.call(f, Shared(), Shared())
    r.see("Shared.shared", Shared.shared)


class Tied:
    def __init__(self, w):
        self.w1 = w
        self.w2 = w

    def __call__(self, x):
        self.w1 *= 2
        return x @ self.w2


@scenario
def s_tied_weights(r):
    m = Tied(np.eye(3))
    f = r.compile(m)
    r.call(f, np.ones(3))
    r.call(f, np.ones(3))
    m.w2 = np.eye(3)          # untied now
    r.call(f, np.ones(3))
    r.see("model", m)


def _return_same_twice(lst, x):
    return lst, lst, x, x, x[:]


case(_return_same_twice, ([], A))


def _returns_input_dict(d):
    d["n"] = d.get("n", 0) + 1
    return d


case(_returns_input_dict, ({},))


def _feed_back(x):
    return x[1:]


@scenario
def s_result_fed_back(r):
    f = r.compile(_feed_back)
    x = A.copy()
    y = r.call(f, x)
    z = r.call(f, y)
    if z is not None:
        z[0] = -5.0
    r.see("x", x)


def _inplace_return(x):
    x *= 2
    return x


@scenario
def s_inplace_result_identity(r):
    f = r.compile(_inplace_return)
    x = A.copy()
    y = r.call(f, x)
    r.see("y is x", y is x)
    y2 = r.call(f, y)
    r.see("y2 is x", y2 is x)


def _list_in_two_dicts(d1, d2):
    d1["l"].append(1)
    d2["l"].append(2)
    return d1["l"] is d2["l"], len(d1["l"])


case(_list_in_two_dicts, lambda: (lambda lst: ({"l": lst}, {"l": lst}))([]),
     ({"l": []}, {"l": []}))


def _arr_in_obj_and_list(o, lst):
    o.items *= 3
    return lst[0]


case(_arr_in_obj_and_list, lambda: (lambda a: (Holder(a), [a]))(A.copy()),
     lambda: (Holder(A.copy()), [A.copy()]))


def _setattr_through_alias(p, q):
    setattr(p, "n", 11)  # noqa: B010 (the builtin is the point)
    return getattr(q, "n")  # noqa: B009


case(_setattr_through_alias, lambda: (lambda b: (b, b))(Box()), (Box(), Box()))


def _pop_through_alias(a, b):
    a.append(3)
    v = b.pop()
    return v, len(a)


case(_pop_through_alias, lambda: (lambda lst: (lst, lst))([1, 2]), ([1, 2], [9]))


def _same_array_two_dtypes_view(x, y):
    y[0] = 0
    return x


def _int_view_pair():
    a = np.arange(4, dtype=np.int32)
    return a.view(np.float32), a


case(_same_array_two_dtypes_view, _int_view_pair,
     lambda: (np.arange(4, dtype=np.int32).view(np.float32), np.arange(4, dtype=np.int32)))


def _sum_then_inplace_alias(x, y):
    s = x.sum()
    y += 1
    return s, x.sum()


case(_sum_then_inplace_alias, _same_array, (A, B))


def _mean_after_alias_write(x, y):
    m = np.mean(x)
    y[:] = 0
    return m, np.mean(x)


case(_mean_after_alias_write, _same_array, (A, B))


def _view_args(x, v):
    x[:] = 0.0
    return v.sum()


case(_view_args, lambda: (lambda a: (a, a[1:]))(A.copy()), (A, A[1:]))


def _partial_overlap_views(a, b):
    a += 1
    return b * 2


case(_partial_overlap_views, lambda: (lambda base: (base[:4], base[2:]))(A.copy()),
     (A[:4], A[2:]))
