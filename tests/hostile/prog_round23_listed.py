"""Round 23, Python lists of graph values where NumPy wants an array
(``dynamo/ops/listed.py``): ``np.concatenate(([u[0]], u, [u[-1]]))``,
``np.array([a.sum(), b.max()])``, ``np.diag``, ``np.hstack``/``np.vstack``/``np.stack``,
``np.append``, ``np.asarray``. The list's dtype is NumPy's promotion of list *items*
(a Python float in a list is float64, a Python int int64: ``[np.float32(1), 1]`` is
float64; ``[np.int8(1), 300]`` int64; ``[np.uint64(1), -1]`` float64; a Python int past
int64 makes an object array), not NEP 50's weak operator rules. The members: NumPy
scalars of every kind, 0-d arrays and 0-d *views* (``u[..., 0]``, which see a write
made after the list was built), Python numbers, NaN, ``-0.0``, bools, complex; lists
changed after they were built (``append``, item assignment), nested lists (rows), and
the result's identity and writeability.

    >>> def _pad_ends(u):
    ...     return np.concatenate(([u[0]], u, [u[-1]]))
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round23_listed")
scenario = reg.scenario


def case(fn, *inputs, name=None, **kw):
    """``reg.case``, in programs of at most six input sets (more would reach
    config.cache_size_limit and run uncompiled): ``_2`` names the second."""
    name = name or fn.__name__.removeprefix("_")
    for k in range(0, len(inputs), 6):
        reg.case(fn, *inputs[k:k + 6], name=name if not k else f"{name}_{k // 6 + 1}", **kw)

F8 = np.array([1.5, -2.0, 3.25, -0.0, 7.0])
F4 = F8.astype(np.float32)
F2 = F8.astype(np.float16)
I8 = np.array([1, -2, 3, 120, 7], np.int8)
U8 = np.array([1, 2, 3, 250, 7], np.uint8)
I64 = np.array([1, -2, 3, 2 ** 62, 7], np.int64)
U64 = np.array([1, 2, 3, 2 ** 63, 7], np.uint64)
BO = np.array([True, False, True, True, False])
C8 = (F8 + 1j).astype(np.complex64)
NAN = np.array([np.nan, 1.0, -np.inf, 0.0, 2.0])
ALL = tuple((u,) for u in (F8, F4, F2, I8, U8, I64, U64, BO, C8, NAN))
NUMERIC = tuple((u,) for u in (F8, F4, I8, U8, I64, U64, NAN))


def _pad_ends(u):
    return np.concatenate(([u[0]], u, [u[-1]]))


def _pad_python_float(u):
    return np.concatenate(([u[0], 2.0], u))


def _pad_python_int(u):
    return np.concatenate(([u[-1], 1], u))


def _pad_python_big_int(u):
    return np.concatenate(([u[0], 300], u))


def _pad_python_huge_int(u):
    return np.concatenate(([u[0], 2 ** 63], u))


def _pad_python_too_big(u):
    return np.concatenate(([u[0], 2 ** 70], u))


def _pad_negative_int(u):
    return np.concatenate(([u[0], -1], u))


def _pad_bool(u):
    return np.concatenate(([u[0], True], u))


def _pad_complex(u):
    return np.concatenate(([u[0], 1j], u))


def _pad_nan(u):
    return np.concatenate(([u[0], float("nan"), -0.0], u))


for _fn in (_pad_ends, _pad_python_float, _pad_python_int, _pad_bool, _pad_complex,
            _pad_nan):
    case(_fn, *ALL)
for _fn in (_pad_python_big_int, _pad_python_huge_int, _pad_python_too_big,
            _pad_negative_int):
    case(_fn, *NUMERIC)


def _array_of_reductions(a, b):
    return np.array([a.sum(), b.max()])


def _array_of_reductions_typed(a, b):
    return np.array([a.sum(), b.max()], dtype=np.float32)


def _asarray_of_members(a, b):
    return np.asarray([a[0], b[-1], a.min()])


def _array_of_means(a, b):
    return np.array([a.mean(), b.mean(), 1])


PAIRS = ((F4, F4), (F4, I8), (I8, U8), (U8, BO), (BO, BO), (F2, F4), (I64, U64),
         (C8, F4), (NAN, F8))
case(_array_of_reductions, *PAIRS)
case(_array_of_reductions_typed, *PAIRS[:6])
case(_asarray_of_members, *PAIRS)
case(_array_of_means, *PAIRS[:6])


def _zero_d_members(u):
    z = u.sum(keepdims=True).reshape(())
    return np.concatenate(([z, u[0]], u)), np.array([z, 1.0])


def _zero_d_view_member(u):
    z = u[..., 0]                 # a 0-d view of u
    lst = [z, u[1]]
    u[0] = 9                      # seen through z when the list is converted
    return np.array(lst), u


def _scalar_member_then_write(u):
    lst = [u[0], u[1]]            # NumPy scalars: copies
    u[0] = 9
    return np.array(lst), np.concatenate((lst, u))


def _list_appended(u):
    lst = [u[0]]
    lst.append(u[-1])
    lst.append(u.sum())
    return np.array(lst), lst


def _list_item_replaced(u):
    lst = [u[0], u[1]]
    lst[0] = 5
    return np.concatenate((lst, u)), lst


def _list_kept_after(u):
    lst = [u[0], u.max()]
    a = np.array(lst)
    a[0] = 0
    return a, lst


def _tuple_members(u):
    return np.array((u[0], u[1], u[2]))


def _nested_rows(u):
    return np.array([[u[0], u[1]], [u[2], u[3]]])


def _nested_ragged(u):
    return np.array([[u[0], u[1]], [u[2]]])


def _stack_members(u):
    return np.stack([u[0], u[1], u.sum()])


def _hstack_members(u):
    return np.hstack(([u[0]], u, [1.5]))


def _vstack_members(u):
    return np.vstack([[u[0], u[1]], u[:2]])


def _append_member(u):
    return np.append(u, [u[0], u.max()])


def _diag_members(u):
    return np.diag([u.sum(), u.max(), u.min()])


def _diag_python_and_member(u):
    return np.diag([u[0], 1.5]), np.diag([u[0], 2], k=-1)


def _diag_written(u):
    d = np.diag([u[0], u[1]])
    d[0, 0] = 99
    return u, d


def _same_member_twice(u):
    m = u.max()
    return np.concatenate(([m, m], u)), np.array([m] * 3)


def _member_of_other_function(u):
    return np.concatenate((_ends(u), u))


def _ends(u):
    return [u[0], u[-1]]


for _fn in (_zero_d_members, _zero_d_view_member, _scalar_member_then_write, _list_appended,
            _list_item_replaced, _list_kept_after, _tuple_members, _stack_members,
            _hstack_members, _vstack_members, _append_member, _diag_members,
            _diag_python_and_member, _diag_written, _same_member_twice,
            _member_of_other_function):
    case(_fn, *ALL[:8])
case(_nested_rows, *ALL[:5])
case(_nested_ragged, *ALL[:3])


def _members_of_two_dtypes(a, b):
    return np.concatenate(([a[0], b[0]], a)), np.concatenate(([b[0]], a))


case(_members_of_two_dtypes, *PAIRS)


def _list_then_ufunc(u):
    return np.add([u[0], u[1]], 1), np.multiply([u[0]], u)


def _list_then_maximum(u):
    return np.maximum([u[0], 0.0], u[:2])


case(_list_then_ufunc, *ALL[:7])
case(_list_then_maximum, *NUMERIC)


def s_list_dtype_varies(r):
    """One program, its input's dtype changing every call: a new list dtype each time."""
    f = r.compile(_pad_python_float)
    for u in (F8, F4, F2, I8, F4, BO, F8):
        r.call(f, u.copy())


scenario(s_list_dtype_varies)


def _list_concatenate_axis(u):
    m = u.reshape(1, -1)
    return np.concatenate(([[u[0]] * m.shape[1]], m), axis=0)


def _list_concatenate_casting(u):
    return np.concatenate(([u[0], 2.5], u), dtype=np.int64, casting="unsafe")


def _list_concatenate_bad_casting(u):
    return np.concatenate(([u[0], 2.5], u.astype(np.int64)), dtype=np.int64)


def _list_concatenate_out(u):
    out = np.empty(len(u) + 1)
    np.concatenate(([u[0]], u), out=out)
    return out


case(_list_concatenate_axis, *ALL[:5])
case(_list_concatenate_casting, *NUMERIC)
case(_list_concatenate_bad_casting, *NUMERIC[:3])
case(_list_concatenate_out, *ALL[:6])
