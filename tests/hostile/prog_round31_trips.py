"""Round 31, loops whose trip count only the data decides (``translator/data_trips.py``),
aimed at what round 30 left out: ``for c in np.unique(y)`` (rows of an array of unbacked
length), ``continue``, ``return`` and ``for ... else`` inside, Python effects per trip
(appends to a list passed in or on an object, prints, a counter in a dict, a callback),
an exception at trip k after such effects, nested data loops (rows in rows, rows in a
count), ``enumerate``/``zip``/``reversed``/comprehensions over the rows, ranges of
``k - 1``, ``2 * k``, step 2, the count read after the loop, and counts that change
between calls from 0 up and from many down.

    >>> def _rows_sum(X, y, log):
    ...     out = np.zeros(X.shape[1])
    ...     for c in np.unique(y):
    ...         out = out + X[y == c].sum(0) * c
    ...     return out
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round31_trips")

_RNG = np.random.default_rng(311)
_X = _RNG.normal(size=(9, 2))


def _y(*v):
    return np.array(v, dtype=np.int64)


# (X, y, log): no sample, one class, three classes, gaps, many
INPUTS = (
    (_X[:0].copy(), _y(), []),
    (_X[:3].copy(), _y(2, 2, 2), []),
    (_X[:4].copy(), _y(0, 1, 2, 1), []),
    (_X[:3].copy(), _y(-1, 2, 4), []),
    (_X.copy(), _y(0, 1, 2, 3, 4, 5, 6, 0, 1), []),
)


# --------------------------------------------------------------------- rows of np.unique

def _rows_sum(X, y, log):
    out = np.zeros(X.shape[1])
    for c in np.unique(y):
        out = out + X[y == c].sum(0) * c
    return out


def _rows_continue(X, y, log):
    out = np.zeros(X.shape[1])
    for c in np.unique(y):
        if c == 1:
            continue
        out = out + X[y == c].sum(0)
    return out


def _rows_break(X, y, log):
    out = np.zeros(X.shape[1])
    for c in np.unique(y):
        if c >= 2:
            break
        out = out + X[y == c].mean(0)
    return out


def _rows_return_inside(X, y, log):
    for c in np.unique(y):
        if (y == c).sum() > 1:
            return c, X[y == c].sum()
    return None


def _rows_else(X, y, log):
    acc = np.zeros(2)
    for c in np.unique(y):
        acc = acc + c
    else:
        acc = acc * 10
    return acc


def _rows_append(X, y, log):
    for c in np.unique(y):
        log.append(c)
    return len(log)


def _rows_append_arrays(X, y, log):
    for c in np.unique(y):
        log.append(X[y == c].sum(0))
    return X.sum()


def _rows_print(X, y, log):
    for c in np.unique(y):
        print("class", c, (y == c).sum())
    return y.size


def _rows_dict_counter(X, y, log):
    seen = {}
    for c in np.unique(y):
        seen[int(c)] = int((y == c).sum())
    return seen


def _rows_callback(X, y, log):
    def note(v):
        log.append(float(v))
        return v
    out = np.zeros(2)
    for c in np.unique(y):
        out = out + note(c)
    return out


def _rows_raise_at_k(X, y, log):
    out = np.zeros(2)
    for c in np.unique(y):
        log.append(int(c))
        if c == 2:
            raise ValueError(f"class {c} refused")
        out = out + X[y == c].sum(0)
    return out


def _rows_raise_caught(X, y, log):
    try:
        return _rows_raise_at_k(X, y, log)
    except ValueError as e:
        return str(e), len(log)


def _rows_index_error(X, y, log):
    out = np.zeros(3)
    for c in np.unique(y):
        out[c] = X[y == c].sum()
    return out


def _rows_nested(X, y, log):
    classes = np.unique(y)
    m = np.zeros((len(classes), len(classes)))
    for i, a in enumerate(classes):
        for j, b in enumerate(classes):
            m[i, j] = ((y == a) & (np.roll(y, 1) == b)).sum()
    return m


def _rows_in_count(X, y, log):
    k = len(np.unique(y))
    acc = np.zeros(2)
    for j in range(k):
        for c in np.unique(y):
            acc = acc + (c == j) * X[y == c].sum(0)
    return acc


def _rows_enumerate(X, y, log):
    out = np.zeros(len(np.unique(y)))
    for j, c in enumerate(np.unique(y)):
        out[j] = (y == c).sum() * c
    return out


def _rows_zip(X, y, log):
    classes = np.unique(y)
    out = []
    for c, w in zip(classes, np.arange(len(classes)) + 1.5):
        out.append(c * w)
    return out


def _rows_reversed(X, y, log):
    acc = np.zeros(2)
    for c in reversed(np.unique(y)):
        acc = acc * 2 + c
    return acc


def _rows_comprehension(X, y, log):
    return [X[y == c].sum() for c in np.unique(y)]


def _rows_array_of_comprehension(X, y, log):
    return np.array([X[y == c].mean(0) for c in np.unique(y)]).reshape(-1, 2)


def _rows_generator_sum(X, y, log):
    return sum((y == c).sum() * c for c in np.unique(y))


def _rows_float_classes(X, y, log):
    acc = 0.0
    for c in np.unique(y * 0.5):
        acc = acc + c
    return acc


def _rows_value_after(X, y, log):
    c = -99
    for c in np.unique(y):
        pass
    return c


# --------------------------------------------------------------------- counts

def _count_continue(X, y, log):
    k = len(np.unique(y))
    out = np.zeros(k)
    for j in range(k):
        if j % 2:
            continue
        out[j] = (y == j).sum()
    return out


def _count_return_inside(X, y, log):
    k = len(np.unique(y))
    for j in range(k):
        if (y == j).sum() == 0:
            return j
    return -1


def _count_append(X, y, log):
    k = len(np.unique(y))
    for j in range(k):
        log.append(j * 2)
    return k


def _count_print(X, y, log):
    k = len(np.unique(y))
    total = np.zeros(2)
    for j in range(k):
        print("trip", j, "of", k)
        total = total + j
    return total


def _count_raise_at_k(X, y, log):
    k = len(np.unique(y))
    out = np.zeros(2)
    for j in range(k):
        log.append(j)
        out = out + 1
        if j == 2:
            raise KeyError(j)
    return out


def _count_minus_one(X, y, log):
    k = len(np.unique(y))
    out = np.zeros(max(k, 1))
    for j in range(k - 1):
        out[j + 1] = out[j] + (y == j).sum()
    return out


def _count_twice(X, y, log):
    k = len(np.unique(y))
    acc = np.zeros(2)
    for j in range(2 * k):
        acc = acc + j
    return acc


def _count_step_two(X, y, log):
    k = len(np.unique(y))
    acc = np.zeros(2)
    for j in range(0, k, 2):
        acc = acc + j
    return acc


def _count_after(X, y, log):
    k = len(np.unique(y))
    acc = np.zeros(2)
    for j in range(k):
        acc = acc + X[y == j].sum(0)
    return acc, k, k > 2


def _count_while(X, y, log):
    k = len(np.unique(y))
    j = 0
    acc = np.zeros(2)
    while j < k:
        acc = acc + j
        j += 1
    return acc, j


def _count_nested_two_counts(X, y, log):
    k = len(np.unique(y))
    n = len(y[y > 0])
    m = np.zeros((k, n))
    for i in range(k):
        for j in range(n):
            m[i, j] = i - j
    return m


def _count_in_closure(X, y, log):
    def inner(labels):
        k = len(np.unique(labels))
        out = np.zeros(k)
        for j in range(k):
            out[j] = (labels == j).sum()
        return out
    return inner(y) * 2


def _count_global_effect(X, y, log):
    global _TRIPS
    k = len(np.unique(y))
    for _ in range(k):
        _TRIPS += 1
    return _TRIPS


_TRIPS = 0


def _reset_trips():
    global _TRIPS
    _TRIPS = 0


def _count_attribute_effect(X, y, log):
    class Box:
        n = 0
    b = Box()
    k = len(np.unique(y))
    for j in range(k):
        b.n = b.n + j
    return b.n


BODIES = (_rows_sum, _rows_continue, _rows_break, _rows_return_inside, _rows_else,
          _rows_append, _rows_append_arrays, _rows_print, _rows_dict_counter,
          _rows_callback, _rows_raise_at_k, _rows_raise_caught, _rows_index_error,
          _rows_nested, _rows_in_count, _rows_enumerate, _rows_zip, _rows_reversed,
          _rows_comprehension, _rows_array_of_comprehension, _rows_generator_sum,
          _rows_float_classes, _rows_value_after, _count_continue, _count_return_inside,
          _count_append, _count_print, _count_raise_at_k, _count_minus_one, _count_twice,
          _count_step_two, _count_after, _count_while, _count_nested_two_counts,
          _count_in_closure, _count_attribute_effect)

for _body in BODIES:
    reg.case(_body, *INPUTS)
# the counts from many down to none
for _body in (_rows_sum, _rows_continue, _rows_break, _rows_return_inside, _rows_append,
              _rows_print, _rows_raise_at_k, _rows_nested, _rows_enumerate,
              _rows_comprehension, _rows_value_after, _count_continue, _count_append,
              _count_raise_at_k, _count_minus_one, _count_after, _count_while,
              _count_nested_two_counts):
    reg.case(_body, *INPUTS[::-1], name=_body.__name__.lstrip("_") + "_down")
reg.case(_count_global_effect, *INPUTS, setup=_reset_trips,
         watch=lambda: _TRIPS)
reg.case(_count_global_effect, *INPUTS[::-1], setup=_reset_trips,
         watch=lambda: _TRIPS, name="count_global_effect_down")
