"""Round 17, a growing list of arrays passed whole to ``np.stack``, ``np.array``,
``np.asarray``, ``np.vstack`` and ``np.concatenate`` (``dynamo/variables/stacked_lists.py``:
one input of symbolic length): lists aliased with other lists and globals, items
mutated in place before and after the stack, items of mixed shape, dtype and
subclass, lists that shrink, ``list`` subclasses, one array appended twice, stacks
inside loops and after breaks.

    >>> def _append_then_stack(x, keys):
    ...     keys.append(x * 2)
    ...     return np.stack(keys).sum(axis=0)      # a new length every call
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round17_stacks")
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
STEPS = 6


def _brk():
    print("break")


def _rows(k, n=4, dtype=np.float64):
    return [np.arange(n, dtype=dtype) + i for i in range(k)]


def grow(name, fn, make, steps=STEPS, between=None, xs=None, see=None):
    """Register a scenario: ``state = make()``; call ``fn(x_k, *state)`` ``steps``
    times with the same state objects (they grow), ``between(k, state)`` before call k,
    recording ``see(state)`` after each call."""
    def s(r):
        state = make()
        f = r.compile(fn)
        for k in range(steps):
            if k and between is not None:
                between(k, state)
            x = (xs(k) if xs is not None else X * (k + 1)).copy()
            r.call(f, x, *state)
            if see is not None:
                r.see("state", see(state))
    s.__name__ = name
    reg.scenario(s)


# --------------------------------------------------------------- plain growth

def _append_stack(x, keys):
    keys.append(x * 2)
    return np.stack(keys).sum(axis=0)


def _append_array(x, keys):
    keys.append(x + 1)
    return np.array(keys)


def _append_asarray(x, keys):
    keys.append(x - 1)
    return np.asarray(keys).mean(axis=0)


def _append_vstack(x, keys):
    keys.append(x / 2)
    return np.vstack(keys)


def _append_concat(x, keys):
    keys.append(x * 3)
    return np.concatenate(keys)


def _stack_no_append(x, keys):
    return np.stack(keys) @ x


def _stack_before_append(x, keys):
    s = np.stack(keys)
    keys.append(x)
    return s


def _append_two(x, keys):
    keys.append(x)
    keys.append(-x)
    return np.stack(keys)


for _n, _f in [("append_stack", _append_stack), ("append_array", _append_array),
               ("append_asarray", _append_asarray), ("append_vstack", _append_vstack),
               ("append_concat", _append_concat),
               ("stack_before_append", _stack_before_append),
               ("append_two", _append_two)]:
    grow(_n, _f, lambda: ([],), see=lambda st: len(st[0]))
    grow(_n + "_from_one", _f, lambda: (_rows(1),), see=lambda st: len(st[0]))

grow("stack_no_append_grows_outside", _stack_no_append, lambda: (_rows(1),),
     between=lambda k, st: st[0].append(np.full(4, float(k))))


# ------------------------------------------------------------ aliased lists

GLOBAL_KEYS = []


def _append_global_stack_arg(x, keys):
    GLOBAL_KEYS.append(x)
    return np.stack(keys)


def _reset_global():
    GLOBAL_KEYS.clear()
    GLOBAL_KEYS.extend(_rows(2))
    return (GLOBAL_KEYS,)


grow("global_is_argument", _append_global_stack_arg, _reset_global,
     see=lambda st: len(GLOBAL_KEYS))


def _reset_global_distinct():
    GLOBAL_KEYS.clear()
    GLOBAL_KEYS.extend(_rows(2))
    return (_rows(2),)


grow("global_distinct_from_argument", _append_global_stack_arg, _reset_global_distinct)


def _two_lists(x, a, b):
    a.append(x)
    return np.stack(a) - np.stack(b).sum()


def _same_list_twice():
    lst = _rows(2)
    return (lst, lst)


grow("same_list_two_names", _two_lists, _same_list_twice)
grow("two_lists_distinct", _two_lists, lambda: (_rows(2), _rows(3)))


grow("lists_alias_then_not", _two_lists, lambda: (_rows(2), _rows(2)),
     between=lambda k, st: st[1].__setitem__(slice(None), list(st[0])
                                             if k % 2 else _rows(3)))


def _holder_list(x, h):
    h.keys.append(x)
    h.vals.append(x * 2)
    return np.stack(h.keys) + np.stack(h.vals)


class Holder:
    def __init__(self, shared=False):
        self.keys = _rows(1)
        self.vals = self.keys if shared else _rows(1)


grow("attr_lists_shared", _holder_list, lambda: (Holder(True),))
grow("attr_lists_distinct", _holder_list, lambda: (Holder(False),))


def _nested_lists(x, outer):
    outer[0].append(x)
    return np.stack(outer[0]) * len(outer)


grow("list_inside_list", _nested_lists, lambda: ([_rows(1), _rows(1)],))


# ------------------------------------------------------ items mutated in place

def _mutate_item_before(x, keys):
    keys[0] += 1.0
    keys.append(x)
    return np.stack(keys)


def _mutate_item_after(x, keys):
    keys.append(x)
    s = np.stack(keys)
    keys[0] *= 2.0
    return s, keys[0].copy()


def _arg_is_item(x, keys):
    x += 1.0
    return np.stack(keys)


def _arg_is_item_appended(x, keys):
    keys.append(x)
    x *= 3.0
    return np.stack(keys)


grow("item_mutated_before", _mutate_item_before, lambda: (_rows(2),))
grow("item_mutated_after", _mutate_item_after, lambda: (_rows(2),))
grow("appended_then_mutated", _arg_is_item_appended, lambda: ([],))


@scenario
def s_argument_is_first_item(r):
    """The argument is ``keys[0]``: written before the stack."""
    keys = _rows(2)
    f = r.compile(_arg_is_item)
    for k in range(STEPS):
        keys.append(np.full(4, float(k)))
        r.call(f, keys[0], keys)


@scenario
def s_argument_is_view_of_item(r):
    keys = _rows(2)
    f = r.compile(_arg_is_item)
    for k in range(STEPS):
        keys.append(np.full(4, float(k)))
        r.call(f, keys[1][1:], keys)


@scenario
def s_items_views_of_one_buffer(r):
    buf = np.arange(40.0).reshape(10, 4)
    keys = [buf[0]]
    f = r.compile(_arg_is_item)
    for k in range(1, STEPS):
        keys.append(buf[k])
        r.call(f, buf[k + 1], keys)
        r.see("buf", buf.copy())


def _mutate_between(k, st):
    st[0][0][...] = -k


grow("item_changed_between_calls", _stack_no_append, lambda: (_rows(2),),
     between=lambda k, st: (st[0].append(np.ones(4) * k), _mutate_between(k, st)))


# ------------------------------------------------------ mixed items

def _grow_mixed(kind):
    def between(k, st):
        keys = st[0]
        if k == 3:
            if kind == "shape":
                keys.append(np.ones(5))
            elif kind == "dtype":
                keys.append(np.ones(4, dtype=np.float32))
            elif kind == "int":
                keys.append(np.arange(4))
            elif kind == "matrix":
                keys.append(np.matrix(np.ones(4)))
            elif kind == "subclass":
                keys.append(Sub(np.ones(4)))
            elif kind == "list":
                keys.append([1.0, 2.0, 3.0, 4.0])
            elif kind == "scalar":
                keys.append(np.float64(3.0))
            elif kind == "2d":
                keys.append(np.ones((1, 4)))
            elif kind == "complex":
                keys.append(np.ones(4) * 1j)
            elif kind == "bool":
                keys.append(np.ones(4, dtype=bool))
            elif kind == "masked":
                keys.append(np.ma.masked_array(np.ones(4), mask=[0, 1, 0, 0]))
            elif kind == "fortran2d":
                keys.append(np.asfortranarray(np.ones((4, 1)))[:, 0])
        else:
            keys.append(np.full(4, float(k)))
    return between


class Sub(np.ndarray):
    def __new__(cls, a):
        return np.asarray(a).view(cls)


def _stack_sum(x, keys):
    s = np.stack(keys)
    return s.sum(axis=0) + x, s.dtype, type(s).__name__


def _array_of(x, keys):
    a = np.array(keys)
    return a * 2, a.dtype, a.shape


for _kind in ("shape", "dtype", "int", "matrix", "subclass", "list", "scalar", "2d",
              "complex", "bool", "masked", "fortran2d"):
    grow(f"mixed_{_kind}_stack", _stack_sum, lambda: (_rows(1),),
         between=_grow_mixed(_kind))
for _kind in ("dtype", "int", "subclass", "list", "complex"):
    grow(f"mixed_{_kind}_array", _array_of, lambda: (_rows(1),),
         between=_grow_mixed(_kind))


def _float32_rows(x, keys):
    keys.append(x.astype(np.float32))
    return np.stack(keys)


grow("float32_rows_f64_appended", _float32_rows,
     lambda: ([np.ones(4, dtype=np.float32)],))
grow("f64_rows_f32_appended", _float32_rows, lambda: (_rows(1),))


def _append_shape_mismatch(x, keys):
    keys.append(x[:3])
    return np.stack(keys)


grow("appended_wrong_shape_raises", _append_shape_mismatch, lambda: (_rows(1),))


# ------------------------------------------------------ shrinking lists

def _pop_then_stack(x, keys):
    keys.append(x)
    keys.append(x + 1)
    keys.pop(0)
    return np.stack(keys)


grow("pop_front_then_stack", _pop_then_stack, lambda: (_rows(2),))


def _cut_at_3(keep):
    """``between``: append a row each call, but at call 3 keep only ``keep`` rows."""
    def between(k, st):
        if k == 3:
            del st[0][keep:]
        else:
            st[0].append(np.full(4, float(k)))
    return between


for _n, _f, _keep in [("shrinks_to_one_between", _stack_no_append, 1),
                      ("shrinks_to_one_append", _append_stack, 1),
                      ("emptied_between_stack_raises", _stack_no_append, 0),
                      ("emptied_between_append", _append_array, 0)]:
    grow(_n, _f, lambda: (_rows(3),), between=_cut_at_3(_keep))


def _window(x, keys):
    keys.append(x)
    if len(keys) > 3:
        del keys[0]
    return np.stack(keys)


grow("sliding_window", _window, lambda: ([],), steps=7)


def _clear_after(x, keys):
    keys.append(x)
    s = np.stack(keys)
    if len(keys) >= 4:
        keys.clear()
    return s


grow("cleared_at_four", _clear_after, lambda: ([],), steps=8)


# ------------------------------------------------------ list subclasses

class RowList(list):
    pass


class LoudList(list):
    def append(self, v):
        print("append", len(self))
        super().append(v)


class LenLies(list):
    def __len__(self):
        return 1


class IterTwice(list):
    def __iter__(self):
        for v in super().__iter__():
            yield v
            yield v


grow("list_subclass_plain", _append_stack, lambda: (RowList(_rows(1)),))
grow("list_subclass_append_prints", _append_stack, lambda: (LoudList(_rows(1)),))
grow("list_subclass_len_lies", _append_array, lambda: (LenLies(_rows(1)),))
grow("list_subclass_iter_twice", _append_stack, lambda: (IterTwice(_rows(1)),))


@scenario
def s_tuple_grows(r):
    f = r.compile(_stack_no_append)
    t = tuple(_rows(1))
    for k in range(STEPS):
        t = t + (np.full(4, float(k)),)
        r.call(f, X.copy(), t)


@scenario
def s_list_replaced_by_tuple(r):
    f = r.compile(_stack_no_append)
    keys = _rows(2)
    for k in range(STEPS):
        keys.append(np.full(4, float(k)))
        r.call(f, X.copy(), tuple(keys) if k == 3 else keys)


# ------------------------------------------------------ the same array twice

def _append_same_twice(x, keys):
    y = x * 2
    keys.append(y)
    keys.append(y)
    y += 1
    return np.stack(keys)


grow("same_array_appended_twice", _append_same_twice, lambda: ([],))


@scenario
def s_same_array_twice_between(r):
    f = r.compile(_stack_no_append)
    a = np.ones(4)
    keys = [a]
    for k in range(STEPS):
        keys.append(a)
        a += 1
        r.call(f, X.copy(), keys)


def _append_arg_twice(x, keys):
    keys.append(x)
    keys.append(x)
    return np.stack(keys)


grow("argument_appended_twice", _append_arg_twice, lambda: ([],))


# ------------------------------------------------------ loops and breaks

def _stack_in_loop(x, keys):
    out = 0.0
    for i in range(3):
        keys.append(x + i)
        out = out + np.stack(keys).sum()
    return out


grow("stack_inside_loop", _stack_in_loop, lambda: ([],))


def _stack_after_break(x, keys):
    keys.append(x)
    _brk()
    return np.stack(keys)


grow("stack_after_break", _stack_after_break, lambda: (_rows(1),))


def _break_between_appends(x, keys):
    keys.append(x)
    _brk()
    keys.append(x * 2)
    return np.stack(keys).sum(axis=0)


grow("break_between_appends", _break_between_appends, lambda: ([],))


def _while_append(x, keys):
    while len(keys) < 3 or float(np.stack(keys).sum()) < 20.0:
        keys.append(x)
    return np.stack(keys)


grow("while_until_big", _while_append, lambda: ([],), steps=3)


def _stack_returns_kept(x, keys):
    keys.append(x)
    return np.stack(keys)


@scenario
def s_results_kept_and_mutated(r):
    f = r.compile(_stack_returns_kept)
    keys = []
    outs = []
    for k in range(STEPS):
        out = r.call(f, X * k, keys)
        if out is not None:
            out[0] = -99.0
            outs.append(out)
    r.see("keys", keys)


def _stack_axis(x, keys):
    keys.append(x)
    return np.stack(keys, axis=1)


grow("stack_axis1", _stack_axis, lambda: ([],))


def _array_dtype(x, keys):
    keys.append(x)
    return np.array(keys, dtype=np.float32)


grow("array_with_dtype", _array_dtype, lambda: ([],))


def _array_copy_false(x, keys):
    keys.append(x)
    return np.asarray(keys) is keys, np.array(keys, copy=None)


grow("asarray_identity_copy_none", _array_copy_false, lambda: ([],))


def _stack_2d_items(x, keys):
    keys.append(np.outer(x[:2], x[:2]))
    return np.stack(keys).shape, np.vstack(keys)


grow("two_d_items_vstack", _stack_2d_items, lambda: ([],))


def _len_and_stack(x, keys):
    keys.append(x)
    return len(keys), np.stack(keys)


grow("len_read_and_stack", _len_and_stack, lambda: ([],))


def _stack_then_index(x, keys):
    keys.append(x)
    s = np.stack(keys)
    return s[-1] - s[0], keys[-1] is x


grow("stack_then_last_item_identity", _stack_then_index, lambda: ([],))
