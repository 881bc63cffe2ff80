"""Round 31, loops over data-dependent counts and rows (``translator/data_trips.py``) whose
body disturbs what it iterates or depends on: the array of classes written while its
rows are read (Python's iterator reads each row when it gets there), the labels
rebound or written inside, the count variable rebound (``range`` took it once), classes
of dtypes that wrap or compare oddly (uint8, int8, bool, float with NaN and -0.0), rows
of ``np.unique(Y, axis=0)`` and of ``np.flatnonzero``, a loop variable read after zero
trips (UnboundLocalError), warnings and NumPy errors at one trip, ``errstate`` inside the
body, Python numbers that change type in the first trip.

    >>> def _classes_written(X, y, log):
    ...     classes = np.unique(y)
    ...     acc = np.zeros(2)
    ...     for c in classes:
    ...         classes[-1] = 100          # the last row is read after this write
    ...         acc = acc + c
    ...     return acc
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round31_rows")

_RNG = np.random.default_rng(313)
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


def _classes_written(X, y, log):
    classes = np.unique(y)
    acc = np.zeros(2)
    for c in classes:
        classes[-1] = 100
        acc = acc + c
    return acc, classes


def _classes_written_ahead(X, y, log):
    classes = np.unique(y)
    out = []
    for j, c in enumerate(classes):
        if j + 1 < len(classes):
            classes[j + 1] = classes[j + 1] * 10
        out.append(int(c))
    return out


def _labels_written(X, y, log):
    acc = np.zeros(2)
    for c in np.unique(y):
        acc = acc + X[y == c].sum(0)
        y[y == c] = -5
    return acc, y


def _labels_rebound(X, y, log):
    acc = 0
    for c in np.unique(y):
        y = y[y != c]
        acc += y.size
    return acc


def _count_rebound(X, y, log):
    k = len(np.unique(y))
    acc = np.zeros(2)
    for j in range(k):
        k = k - 1
        acc = acc + j
    return acc, k


def _uint8_classes(X, y, log):
    acc = np.zeros(2, np.uint8)
    for c in np.unique(y.astype(np.uint8)):
        acc = acc + (c - 1)
    return acc


def _int8_classes(X, y, log):
    out = []
    for c in np.unique((y * 60).astype(np.int8)):
        out.append(c * np.int8(3))
    return out


def _bool_classes(X, y, log):
    acc = np.zeros(2)
    for c in np.unique(y > 1):
        acc = acc + X[(y > 1) == c].sum(0) + c
    return acc


def _float_classes_nan(X, y, log):
    v = np.where(y == 1, np.nan, y * -0.0 + y)
    acc = np.zeros(2)
    for c in np.unique(v):
        acc = acc + (v == c).sum() + np.nan_to_num(c)
    return acc


def _signed_zero_classes(X, y, log):
    v = y * -0.0
    out = []
    for c in np.unique(v):
        out.append(np.copysign(1.0, c))
    return out


def _unique_rows(X, y, log):
    Y = np.stack([y % 2, y % 3], axis=1) if y.size else np.zeros((0, 2), np.int64)
    acc = np.zeros(2)
    for row in np.unique(Y, axis=0):
        acc = acc + row * 2
    return acc


def _flatnonzero_rows(X, y, log):
    out = np.zeros(y.size)
    for i in np.flatnonzero(y > 0):
        out[i] = X[i, 0] if i < len(X) else -1.0
    return out


def _unbound_after_zero(X, y, log):
    for c in np.unique(y):
        pass
    return c  # noqa: B007 (read after the loop on purpose: unbound after no trip)


def _unbound_count_after_zero(X, y, log):
    k = len(np.unique(y))
    for j in range(k):
        pass
    return j  # noqa: B007


def _unbound_caught(X, y, log):
    try:
        return _unbound_after_zero(X, y, log)
    except UnboundLocalError as e:
        return "unbound", str(e)


def _log_warns_at_zero(X, y, log):
    out = np.zeros(2)
    for c in np.unique(y):
        out = out + np.log(np.float64(c))
    return out


def _sqrt_warns_negative(X, y, log):
    out = []
    for c in np.unique(y):
        out.append(np.sqrt(np.float64(c)))
    return out


def _errstate_inside_body(X, y, log):
    out = np.zeros(2)
    for c in np.unique(y):
        with np.errstate(divide="raise"):
            out = out + 1.0 / np.float64(c)
    return out


def _errstate_inside_caught(X, y, log):
    try:
        return _errstate_inside_body(X, y, log)
    except FloatingPointError as e:
        return str(e)


def _int_of_class_raises(X, y, log):
    v = np.where(y == 2, np.nan, y.astype(float))
    out = []
    for c in np.unique(v):
        out.append(int(c))
    return out


def _python_int_total(X, y, log):
    total = 0
    for c in np.unique(y):
        total += c
    return total, type(total).__name__


def _python_float_total(X, y, log):
    total = 0.0
    for c in np.unique(y):
        total = total + float(c) / 2
    return total


def _class_as_python_int(X, y, log):
    out = []
    for c in np.unique(y):
        out.append([0] * max(int(c), 0))
    return out


def _class_as_range(X, y, log):
    acc = np.zeros(2)
    for c in np.unique(y):
        for j in range(c):
            acc = acc + j
    return acc


def _class_in_fstring(X, y, log):
    parts = []
    for c in np.unique(y):
        parts.append(f"{c}:{(y == c).sum():02d}")
    return ",".join(parts)


def _inverse_counts(X, y, log):
    classes, inv, counts = np.unique(y, return_inverse=True, return_counts=True)
    out = np.zeros(len(classes))
    for j in range(len(classes)):
        out[j] = X[inv == j].sum() / counts[j]
    return out


def _singular_at_trip(X, y, log):
    out = []
    for c in np.unique(y):
        m = np.eye(2) * (c - 1)
        out.append(np.linalg.inv(m))
    return out


def _singular_caught(X, y, log):
    try:
        return _singular_at_trip(X, y, log)
    except np.linalg.LinAlgError as e:
        return str(e)


def _del_in_body(X, y, log):
    acc = np.zeros(2)
    for c in np.unique(y):
        t = X[y == c].sum(0)
        acc = acc + t
        del t
    return acc


def _append_then_len(X, y, log):
    for c in np.unique(y):
        log.append(c * 2)
    return len(log), sum(log)


def _nested_rows_break(X, y, log):
    pairs = []
    for a in np.unique(y):
        for b in np.unique(y):
            if b > a:
                break
            pairs.append((int(a), int(b)))
    return pairs


BODIES = (_classes_written, _classes_written_ahead, _labels_written, _labels_rebound,
          _count_rebound, _uint8_classes, _int8_classes, _bool_classes, _float_classes_nan,
          _signed_zero_classes, _unique_rows, _flatnonzero_rows, _unbound_after_zero,
          _unbound_count_after_zero, _unbound_caught, _log_warns_at_zero,
          _sqrt_warns_negative, _errstate_inside_body, _errstate_inside_caught,
          _int_of_class_raises, _python_int_total, _python_float_total,
          _class_as_python_int, _class_as_range, _class_in_fstring, _inverse_counts,
          _singular_at_trip, _singular_caught, _del_in_body, _append_then_len,
          _nested_rows_break)

for _body in BODIES:
    reg.case(_body, *INPUTS)
for _body in (_classes_written, _labels_written, _count_rebound, _uint8_classes,
              _float_classes_nan, _unbound_after_zero, _unbound_count_after_zero,
              _log_warns_at_zero, _errstate_inside_body, _python_int_total,
              _singular_at_trip, _nested_rows_break):
    reg.case(_body, *INPUTS[::-1], name=_body.__name__.lstrip("_") + "_down")


# --------------------------------------------------------------------- carried values
# loop nodes whose carried value a trip changes in type or shape, or which are the
# arguments themselves (no trip: the argument comes back, the same object)

def _carried_int32_promoted(X, y, log):
    acc = np.zeros(2, np.int32)
    for c in np.unique(y):
        acc = acc + c
    return acc


def _carried_float32_promoted(X, y, log):
    acc = np.zeros(2, np.float32)
    for c in np.unique(y):
        acc = acc + c
    return acc


def _carried_shape_grows(X, y, log):
    acc = np.zeros(2)
    for c in np.unique(y):
        acc = acc + X[y == c]
    return acc


def _carried_shrinks(X, y, log):
    acc = np.arange(8.0)
    for _c in np.unique(y):
        acc = acc[1:] + acc[:-1]
    return acc


def _carried_is_argument(X, y, log):
    acc = X
    for c in np.unique(y):
        acc = acc + c
    return acc


def _carried_view_of_argument(X, y, log):
    acc = X[0] if len(X) else X
    for c in np.unique(y):
        acc = acc * c
    return acc


def _inplace_on_argument(X, y, log):
    acc = X
    for c in np.unique(y):
        acc += c
    return acc is X


def _classes_inplace(X, y, log):
    classes = np.unique(y)
    out = []
    for c in classes:
        classes += 1
        out.append(c)
    return out, classes


def _carried_int8_wrap(X, y, log):
    acc = np.full(2, 100, np.int8)
    for c in np.unique(y):
        acc = acc * np.int8(3) + c.astype(np.int8)
    return acc


def _float32_labels(X, y, log):
    acc = np.zeros(2, np.float32)
    for c in np.unique(y.astype(np.float32)):
        acc = acc + c * np.float32(0.1)
    return acc


def _size_inside(X, y, log):
    classes = np.unique(y)
    acc = np.zeros(2)
    for c in classes:
        acc = acc + c / classes.size + len(classes)
    return acc


CARRIED = (_carried_int32_promoted, _carried_float32_promoted, _carried_shape_grows,
           _carried_shrinks, _carried_is_argument, _carried_view_of_argument,
           _inplace_on_argument, _classes_inplace, _carried_int8_wrap, _float32_labels,
           _size_inside)

for _body in CARRIED:
    reg.case(_body, *INPUTS)
    reg.case(_body, *INPUTS[::-1], name=_body.__name__.lstrip("_") + "_down")
