"""Round 6, control: ``contextlib`` (``ExitStack``, ``suppress``, ``contextmanager``
and ``nullcontext`` with array ops inside), generators with ``send``/``throw``/
``close`` and ``yield from``, coroutines driven by hand, ``match`` on arrays, shapes and
dataclasses, walrus in comprehensions, ``nonlocal`` rebinding across graph breaks,
``global`` declared in nested functions, star-unpacking of arrays: each must be exact
or fall back."""

import contextlib
import dataclasses

import numpy as np
from hostile_check import Programs

reg = Programs("round6_control")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
M = np.arange(6.0).reshape(2, 3)
LOG = []


# ============================================================================ contextlib

@contextlib.contextmanager
def _scaled(log, k):
    log.append("enter")
    try:
        yield k * 2
    finally:
        log.append("exit")


def _contextmanager_array_inside(x, log):
    with _scaled(log, 3.0) as k:
        y = x * k
        log.append(float(y.sum()))
    return y + 1


case(_contextmanager_array_inside, (X, []))


def _contextmanager_raises_inside(x, log):
    try:
        with _scaled(log, 1.0):
            y = x * 2
            return y[10]
    except IndexError as e:
        log.append(str(e))
        return x


case(_contextmanager_raises_inside, (X, []))


@contextlib.contextmanager
def _swallow(log):
    try:
        yield
    except ZeroDivisionError:
        log.append("swallowed")


def _contextmanager_swallows(x, log):
    with _swallow(log):
        y = x * 2  # noqa: F841 (on purpose)
        1 / 0
    return x + 1, log


case(_contextmanager_swallows, (X, []))


def _suppress_index_error(x, i):
    out = x * 0
    with contextlib.suppress(IndexError):
        out = out + x[i]
    return out


case(_suppress_index_error, (X, 2), (X, 9))


def _suppress_fp_error(x):
    out = None
    with np.errstate(divide="raise"), contextlib.suppress(FloatingPointError):
        out = 1.0 / (x - x)
    return out


case(_suppress_fp_error, (X,))


def _exitstack_callbacks(x, log):
    with contextlib.ExitStack() as stack:
        stack.callback(log.append, "cb1")
        k = stack.enter_context(_scaled(log, 2.0))
        stack.callback(log.append, "cb2")
        y = x * k
    return y, log


case(_exitstack_callbacks, (X, []))


def _exitstack_pop_all(x, log):
    with contextlib.ExitStack() as stack:
        stack.callback(log.append, "kept")
        later = stack.pop_all()
    y = x + 1
    later.close()
    return y, log


case(_exitstack_pop_all, (X, []))


def _exitstack_exception(x, log):
    try:
        with contextlib.ExitStack() as stack:
            stack.callback(log.append, "closed")
            return np.linalg.inv(x.reshape(2, 2) * 0)
    except np.linalg.LinAlgError as e:
        log.append(str(e))
        return None


case(_exitstack_exception, (X, []))


def _nullcontext_value(x):
    with contextlib.nullcontext(x * 2) as y:
        z = y + 1
    return z


case(_nullcontext_value, (X,))


class Recorder:
    def __init__(self):
        self.events = []

    def __enter__(self):
        self.events.append("in")
        return self

    def __exit__(self, *exc):
        self.events.append(("out", exc[0].__name__ if exc[0] else None))
        return False


def _class_context_manager(x, rec):
    with rec as r:
        y = np.cumsum(x)
        r.events.append(float(y[-1]))
    return y


case(_class_context_manager, (X, Recorder()))


def _class_cm_exception_passes(x, rec):
    with rec:
        return x[[0, 7]]


case(_class_cm_exception_passes, (X, Recorder()))


class Suppressing(Recorder):
    def __exit__(self, *exc):
        super().__exit__(*exc)
        return True


def _class_cm_suppresses(x, rec):
    y = x
    with rec:
        y = x * 2
        raise KeyError("k")
    return y


case(_class_cm_suppresses, (X, Suppressing()))


def _redirect_stdout(x):
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print("inside", x.sum())
    return buf.getvalue(), x * 2


case(_redirect_stdout, (X,))


def _nested_with_order(x, log):
    with _scaled(log, 1.0) as a, _scaled(log, 2.0) as b:
        y = x * a * b
    return y, log


case(_nested_with_order, (X, []))


def _contextdecorator(x, log):
    @_scaled(log, 1.0)
    def inner(v):
        return v * 3
    return inner(x), log


case(_contextdecorator, (X, []))


# ============================================================================ generators

def _gen_send(log):
    total = 0.0
    while True:
        v = yield total
        if v is None:
            break
        total += float(np.sum(v))
        log.append(total)
    return total


def _drive_send(x, log):
    g = _gen_send(log)
    next(g)
    g.send(x)
    out = g.send(x * 2)
    try:
        g.send(None)
    except StopIteration as e:
        return out, e.value
    return out, None


case(_drive_send, (X, []))


def _gen_throw_target(log):
    try:
        yield 1
        yield 2
    except ValueError as e:
        log.append(str(e))
        yield 99


def _drive_throw(x, log):
    g = _gen_throw_target(log)
    first = next(g)
    caught = g.throw(ValueError("boom"))
    return x * first + caught, log


case(_drive_throw, (X, []))


def _drive_close(x, log):
    g = _gen_throw_target(log)
    next(g)
    g.close()
    return x + 1, log, next(g, "done")


case(_drive_close, (X, []))


def _gen_close_with_finally(log):
    try:
        yield 1
    finally:
        log.append("finally")


def _close_runs_finally(x, log):
    g = _gen_close_with_finally(log)
    a = next(g)
    y = x * a
    g.close()
    log.append("after close")
    return y


case(_close_runs_finally, (X, []))


def _inner_gen(x):
    got = yield x * 2
    yield x + got
    return "inner-done"


def _outer_gen(x, log):
    r = yield from _inner_gen(x)
    log.append(r)
    yield x * 0


def _yield_from_send(x, log):
    g = _outer_gen(x, log)
    a = next(g)
    b = g.send(10.0)
    c = next(g)
    return a, b, c, log


case(_yield_from_send, (X, []))


def _yield_from_throw(x, log):
    g = _outer_gen(x, log)
    next(g)
    try:
        g.throw(KeyError("thrown"))
    except KeyError as e:
        return x, str(e)
    return None


case(_yield_from_throw, (X, []))


def _gen_expression_lazy(x, log):
    g = (log.append(i) or v * 2 for i, v in enumerate(x))
    first = next(g)
    log.append("between")
    rest = list(g)
    return first, rest, log


case(_gen_expression_lazy, (X, []))


def _gen_return_value(x):
    def g():
        yield x
        return x.sum()
    it = g()
    next(it)
    try:
        next(it)
    except StopIteration as e:
        return e.value
    return None


case(_gen_return_value, (X,))


def _gen_state_query(x):
    import inspect

    def g():
        yield x * 2
    it = g()
    states = [inspect.getgeneratorstate(it)]
    v = next(it)
    states.append(inspect.getgeneratorstate(it))
    list(it)
    states.append(inspect.getgeneratorstate(it))
    return v, states


case(_gen_state_query, (X,))


def _gen_exhausted_next_default(x):
    it = iter(x)
    vals = [next(it) for _ in range(4)]
    return vals, next(it, -1.0)


case(_gen_exhausted_next_default, (X,))


def _gen_passed_in(x, gen):
    return x * next(gen), next(gen)


case(_gen_passed_in, lambda: (X, (float(i) for i in range(5))))


def _gen_runtime_error_stopiteration(x):
    def g():
        yield 1
        raise StopIteration
    try:
        return list(g()), x
    except RuntimeError as e:
        return str(e)


case(_gen_runtime_error_stopiteration, (X,))


# ============================================================================ coroutines

async def _acoro(x, log):
    log.append("start")
    return x * 2


def _drive_coroutine(x, log):
    c = _acoro(x, log)
    try:
        c.send(None)
    except StopIteration as e:
        return e.value + 1, log
    return None


case(_drive_coroutine, (X, []))


def _coroutine_closed_unstarted(x, log):
    c = _acoro(x, log)
    c.close()
    return x, log


case(_coroutine_closed_unstarted, (X, []))


async def _agen(x):
    for v in x:
        yield v * 2


def _drive_async_gen(x):
    ag = _agen(x)
    out = []
    while True:
        try:
            ag.asend(None).send(None)
        except StopIteration as e:
            out.append(e.value)
        except StopAsyncIteration:
            break
    return out


case(_drive_async_gen, (X,))


def _asyncio_run(x):
    import asyncio
    return asyncio.run(_acoro(x, []))


case(_asyncio_run, (X,), calls=1)


# ============================================================================ match

def _match_shape(x):
    match x.shape:
        case (n,):
            return x * n
        case (r, c) if r == c:
            return x.T
        case (r, c):
            return x.sum(axis=0) + r + c
        case _:
            return None


case(_match_shape, (X,), (M,), (np.eye(3),), (np.zeros((1, 1, 1)),))


def _match_ndim_literal(x):
    match x.ndim:
        case 0:
            return "scalar"
        case 1:
            return x[::-1]
        case 2 | 3:
            return x.ravel()
    return None


case(_match_ndim_literal, (X,), (M,), (np.float64(2.0),))


def _match_class_pattern(x, v):
    match v:
        case np.ndarray(ndim=1):
            return x + v
        case float() | int():
            return x * v
        case [a, b]:
            return x * a + b
        case {"k": k}:
            return x - k
        case str() as s:
            return s.upper()
    return "none"


case(_match_class_pattern, (X, X), (X, 2.0), (X, 3), (X, [1.0, 2.0]), (X, {"k": 1.0}),
     (X, "s"), (X, M))


@dataclasses.dataclass
class Point:
    x: float
    y: float


def _match_dataclass(a, p):
    match p:
        case Point(x=0.0, y=y):
            return a * y
        case Point(x, y) if x > y:
            return a * x
        case Point():
            return a - p.y


case(_match_dataclass, (X, Point(0.0, 2.0)), (X, Point(3.0, 1.0)), (X, Point(1.0, 4.0)))


def _match_sequence_star(x):
    match list(x):
        case [first, *rest]:
            return first, np.array(rest) * 2
    return None


case(_match_sequence_star, (X,), (np.array([1.0]),))


def _match_dtype_kind(x):
    match x.dtype.kind:
        case "f":
            return x * 0.5
        case "i" | "u":
            return x // 2
        case "b":
            return ~x
    return x


case(_match_dtype_kind, (X,), (np.arange(4),), (X > 0,), (X.astype(complex),))


def _match_capture_overwrites(x, v):
    y = 0
    match v:
        case (y, 1):
            pass
        case _:
            pass
    return x * y


case(_match_capture_overwrites, (X, (5, 2)), (X, (3, 1)))


# ============================================================================ walrus

def _walrus_in_comprehension(x):
    out = [y for v in x if (y := v * 2) > 0]
    return out, y


case(_walrus_in_comprehension, (X,))


def _walrus_accumulate(x):
    total = 0.0
    partial = [total := total + v for v in x]
    return np.array(partial), total


case(_walrus_accumulate, (X,))


def _walrus_in_while(x):
    i = 0
    out = []
    while (v := x[i]) < 3:
        out.append(v)
        i += 1
    return out, v


case(_walrus_in_while, (X,))


def _walrus_array_condition(x):
    if (s := x.sum()) > 0:
        return x / s
    return x


case(_walrus_array_condition, (X,), (-X,))


# ============================================================================ nonlocal / global

def _nonlocal_across_print(x):
    count = 0

    def bump(v):
        nonlocal count
        count += 1
        return v * count
    a = bump(x)
    print("mid", count)
    b = bump(a)
    return b, count


case(_nonlocal_across_print, (X,))


def _nonlocal_rebind_array(x):
    acc = x * 0

    def add(v):
        nonlocal acc
        acc = acc + v
    add(x)
    print("between")
    add(x * 2)
    return acc


case(_nonlocal_rebind_array, (X,))


def _nonlocal_in_loop_closures(x):
    fs = []
    n = 0
    for i in range(3):
        def f(v, i=i):
            nonlocal n
            n += i
            return v + n
        fs.append(f)
    return [f(x) for f in fs], n


case(_nonlocal_in_loop_closures, (X,))


def _global_in_nested(x):
    def setter(v):
        global _G6
        _G6 = v * 2
    setter(x)
    return _G6 + 1


_G6 = None


@scenario
def s_global_in_nested(r):
    global _G6
    _G6 = None
    f = r.compile(_global_in_nested)
    r.call(f, X)
    r.see("G", _G6)
    r.call(f, X * 2)
    r.see("G", _G6)
    _G6 = None


def _global_del_in_nested(x):
    def killer():
        global _G6_TMP
        del _G6_TMP
    y = x * _G6_TMP
    killer()
    try:
        return y + _G6_TMP
    except NameError as e:
        return y, str(e)


@scenario
def s_global_del_in_nested(r):
    f = r.compile(_global_del_in_nested)
    for _ in range(2):
        globals()["_G6_TMP"] = 2.0
        r.call(f, X)
    globals().pop("_G6_TMP", None)


def _global_list_extend_nested(x):
    def push():
        LOG.extend(x[:2].tolist())
    push()
    return len(LOG)


@scenario
def s_global_list_extend_nested(r):
    LOG.clear()
    f = r.compile(_global_list_extend_nested)
    r.call(f, X)
    r.call(f, X)
    r.see("LOG", list(LOG))
    LOG.clear()


# ============================================================================ star-unpacking

def _star_unpack_array(x):
    a, *mid, b = x
    return a, mid, b, type(mid).__name__


case(_star_unpack_array, (X,), (np.arange(2.0),))


def _star_unpack_rows(m):
    first, *rest = m
    return first * 2, len(rest), rest[0] if rest else None


case(_star_unpack_rows, (M,), (np.eye(1),))


def _unpack_wrong_count(x):
    try:
        a, b = x
        return a + b
    except ValueError as e:
        return str(e)


case(_unpack_wrong_count, (X,), (np.array([1.0, 2.0]),))


def _star_in_call(x):
    return np.add(*x[:2]), max(*x), np.stack([*x, *x])


case(_star_in_call, (X,))


def _star_in_literals(x):
    t = (*x, 0.0)
    s = {*x.tolist()}
    d = {**{"a": x}, "b": 1}
    return t, sorted(s), sorted(d)


case(_star_in_literals, (X,))


def _unpack_0d(x):
    try:
        (a,) = x.sum()
        return a
    except TypeError as e:
        return str(e)


case(_unpack_0d, (X,))


def _nested_unpack(m):
    (a, b, c), (d, *e) = m
    return a + d, e, c * b


case(_nested_unpack, (M,))


def _swap_rows_tuple_assign(m):
    m[0], m[1] = m[1], m[0]
    return m


case(_swap_rows_tuple_assign, (M.copy(),))


def _swap_rows_copy(m):
    m[0], m[1] = m[1].copy(), m[0].copy()
    return m


case(_swap_rows_copy, (M.copy(),))


def _for_else_break(x):
    for v in x:
        if v < 0:
            found = v
            break
    else:
        found = None
    return found, x * 2


case(_for_else_break, (X,), (np.abs(X),))


def _try_finally_return_override(x):
    try:
        return x * 2
    finally:
        x[0] = 100.0


case(_try_finally_return_override, (X,))


def _finally_return_wins(x):
    try:
        return x[10]
    finally:
        return x * 3  # noqa: B012 (the program returns from finally on purpose)


case(_finally_return_wins, (X,))


def _lambda_default_captures(x):
    k = 2.0
    f = lambda v, k=k: v * k  # noqa: E731
    k = 5.0
    return f(x), k


case(_lambda_default_captures, (X,))


def _late_binding_closures(x):
    fs = [lambda v: v * i for i in range(3)]  # noqa: B023 (on purpose)
    return [f(x) for f in fs]


case(_late_binding_closures, (X,))


def _chained_comparison_arrays(x):
    try:
        return 0 < x < 2
    except ValueError as e:
        return str(e)


case(_chained_comparison_arrays, (X,), (np.array([1.0]),))


def _conditional_expression_array_truth(x):
    try:
        return x if x else -x
    except ValueError as e:
        return str(e)


case(_conditional_expression_array_truth, (X,), (np.array([0.0]),), (np.array([]),))
