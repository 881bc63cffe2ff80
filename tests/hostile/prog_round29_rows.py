"""Round 29, rows of a growing list concatenated or stacked
(``variables/stacked_lists.py``: the rows the list held are one stacked input, the
rows the trace appends come from the graph) where the rows are not what the first
calls saw: an array the holder keeps and changes in place between calls (the same
object appended twice), a reversed view, an F-ordered block of two rows, an int32
row among float64 ones, a 3-d row, a 0-d NumPy scalar, an object row; and where the
trace does more with them: a row changed in place after it is appended, the argument
appended and then written, ``dtype=``, a slice or a tuple of the list, a
concatenation appended to the list it came from.

    >>> def _mut_after_append(c, x):
    ...     r = x[None] * 1
    ...     c.rows.append(r)
    ...     r[0, 0] = 99
    ...     return np.concatenate(c.rows)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round29_rows")

X = np.arange(4.0)


class Rows:
    def __init__(self):
        self.rows = [np.ones((1, 4)), np.zeros((1, 4))]
        self.buf = np.zeros((1, 4))


def _mut_after_append(c, x):
    r = x[None] * 1
    c.rows.append(r)
    r[0, 0] = 99
    return np.concatenate(c.rows)


def _dtype_keyword(c, x):
    return np.concatenate(c.rows, dtype=np.float32)


def _sliced(c, x):
    return np.concatenate(c.rows[-3:])


def _tuple_of(c, x):
    return np.concatenate(tuple(c.rows))


def _argument_appended(c, x):
    c.rows.append(x[None])
    x[0] = -5.0
    return np.concatenate(c.rows)


def _summed(c, x):
    return np.concatenate(c.rows).sum(0)


def _cat_then_append(c, x):
    a = np.concatenate(c.rows)
    c.rows.append(a[:1] + 1)
    return a, np.concatenate(c.rows)


def _cat_caught(c, x):
    try:
        return np.concatenate(c.rows)
    except ValueError as e:
        return str(e)


def _add(c):
    c.rows.append(np.full((1, 4), len(c.rows) * 1.0))


def _add_buf(c):
    c.rows.append(c.buf)


def _change_buf(c):
    c.buf[0, 1] += 1


def _add_view(c):
    c.rows.append(np.arange(8.0).reshape(2, 4)[:, ::-1][:1])


def _add_fortran(c):
    c.rows.append(np.asfortranarray(np.ones((2, 4))))


def _add_3d(c):
    c.rows.append(np.ones((1, 2, 2)))


def _add_0d(c):
    c.rows.append(np.float64(3.0))


def _add_int32(c):
    c.rows.append(np.ones((1, 4), np.int32))


def _add_object(c):
    c.rows.append(np.array([[1, 2, 3, "a"]], dtype=object))


TAILS = {
    "buffer": [_add_buf, _change_buf, _add, _change_buf],
    "views": [_add_view, _add_fortran, _add],
    "odd": [_add_int32, _add, _add_3d],
    "scalar": [_add_0d],
    "objects": [_add_object, _add],
}


def _rows(name, fn, tail):
    def run(r):
        c = Rows()
        f = r.compile(fn)
        r.call(f, c, X.copy())
        for step in [_add, _add, _add] + tail:
            step(c)
            r.call(f, c, X.copy())
            r.see("rows", c.rows)
    reg._add(name, run, (fn.__doc__ or "").strip())


for _fn in (_mut_after_append, _dtype_keyword, _sliced, _tuple_of, _argument_appended,
            _summed, _cat_then_append, _cat_caught):
    for _tail, _steps in TAILS.items():
        _rows(_fn.__name__.lstrip("_") + "_" + _tail, _fn, _steps)
