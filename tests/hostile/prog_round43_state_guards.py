"""Round 43, the newest state and guard changes: list items indexed after ``extend`` (the
index in bounds only for some lengths: IndexError as eager; also in loops past the
unroll limit), dicts with tuple keys holding shapes, arithmetic of data numbers at a
break (``float(x.sum())`` printed and used: a number that changes every call), NumPy
float scalars as arguments (the numpy backend's variant key: ``np.float32(0.1)`` vs
``np.float64(0.1)`` vs ``0.1``, ``-0.0`` vs ``0.0``, NaN, the same value with another
type), ints the graph computes written into int8/uint8 arrays
(``unbacked_results.one_value_answer``: out of range raises OverflowError as eager, for
an ``np.int64`` sum too), list histograms by hand (``counts[int(v) % n] += 1``) over
negatives, NaN and sizes that change.

    >>> def _hist(x, n):
    ...     counts = [0] * n
    ...     for v in x:
    ...         counts[int(v) % n] += 1
    ...     return counts
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round43_state")
NAN = float("nan")


def _x(n=6, seed=2):
    return np.random.default_rng(seed + n).random(n) * 6 - 3


def _case(fn, *inputs, calls=2, name=None):
    reg.case(fn, *inputs, calls=calls, name=name)


# ---------------------------------------------------------------- lists after extend

def _extend_then_index(x, items):
    items.extend([2.0, 3.0])
    return x * items[3]


def _extend_then_negative(x, items):
    items.extend((1.5,))
    return x + items[-2]


def _extend_from_array(x, items):
    items.extend(x[:2].tolist())
    return x * items[2], len(items)


def _extend_self_index_loop(x, items):
    items.extend(items)
    s = 0.0
    for k in range(len(items)):
        s = s + items[k] * x[k % len(x)]
    return s


def _insert_then_index(x, items):
    items.insert(0, -1.0)
    return x * items[1]


def _pop_then_index(x, items):
    items.pop()
    return x * items[1]


_case(_extend_then_index, (_x(), [1.0, 5.0]), (_x(), [1.0]), (_x(), []))
_case(_extend_then_negative, (_x(), [1.0, 5.0]), (_x(), []))
_case(_extend_from_array, (_x(), [1.0]), (_x(), []), (_x(1), []))
_case(_extend_self_index_loop, (_x(), [1.0, 2.0]), (_x(), []), (_x(), [0.5] * 5))
_case(_insert_then_index, (_x(), [1.0, 5.0]), (_x(), []))
_case(_pop_then_index, (_x(), [1.0, 5.0, 3.0]), (_x(), [1.0, 5.0]))


def _extend_loop_index(x, items):
    """A loop (a node past the unroll limit) reads ``items[i]`` after an ``extend``:
    past the end at trip ``len(items)`` for the shorter lists (IndexError as eager)."""
    items.extend([0.5, 1.5])
    s = 0.0
    for i in range(len(x)):
        s = s + x[i] * items[i]
    return s


def _extend_loop_write(x, items):
    items.extend([0.0] * 3)
    for i in range(len(x)):
        items[i] = float(x[i])
    return items


def _extend_then_neg_loop(x, items):
    items.extend(x[:3].tolist())
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] = items[-1 - (i % 4)]
    return y


def _hist_in_extended(x, counts):
    counts.extend([0] * 2)
    for i in range(len(x)):
        counts[int(abs(x[i])) % len(counts)] += 1
    return counts


for _fn in (_extend_loop_index, _extend_loop_write, _extend_then_neg_loop, _hist_in_extended):
    _case(_fn, (_x(10), [1.0] * 8), (_x(10), [1.0] * 9), (_x(12), [2.0] * 10), (_x(10), []),
          (_x(3), [1.0]), calls=1)


# ---------------------------------------------------------------- tuple keys with shapes

def _shape_key(x, table):
    return x * table.get(x.shape, -1.0)


def _shape_key_pair(x, table):
    return x.sum() * table[(x.shape[0], x.ndim)]


def _shape_key_store(x, table):
    table[x.shape] = table.get(x.shape, 0) + 1
    return x + table[x.shape], dict(table)


def _dtype_shape_key(x, table):
    return table.get((x.dtype.str, x.shape), "missing")


SHAPES = {(6,): 2.0, (4,): -1.0, (6, 1): 5.0, (2, 3): 7.0}
_case(_shape_key, (_x(), dict(SHAPES)), (_x(4), dict(SHAPES)), (_x(5), dict(SHAPES)),
      (_x().reshape(2, 3), dict(SHAPES)))
_case(_shape_key_pair, (_x(), {(6, 1): 2.0, (4, 1): 3.0}), (_x(4), {(6, 1): 2.0, (4, 1): 3.0}),
      (_x(5), {(6, 1): 2.0}))
_case(_shape_key_store, (_x(), {}), (_x(4), {(4,): 7}), (_x(6), {(6.0,): 1}))
_case(_dtype_shape_key, (_x(), {("<f8", (6,)): 1}), (_x().astype(np.float32), {("<f8", (6,)): 1}),
      (_x(2), {("<f8", (2,)): True}))


# ---------------------------------------------------------------- data numbers at a break

def _number_at_break(x):
    v = float(x.sum())
    print("v", round(v, 6))
    return v * 2.0 + 1.0, x * v


def _int_at_break(x):
    k = int(x.max() * 10)
    print("k", k)
    return k % 7, x[: k % 4], k // -3


def _number_compared_after(x):
    v = x.mean()
    print("v")
    if v > 0:
        return v - 1.0
    return -v


def _two_numbers_at_break(x):
    a, b = float(x[0]), float(x[-1])
    print("ab")
    return a * b, a / b if b else "zero", max(a, b)


def _number_in_string(x):
    v = x.std()
    print(f"{v:.3f}")
    return f"{v * 2:.4g}", str(int(v * 100))


def _number_as_index(x):
    k = int(abs(x[0]) * 2)
    print("k")
    return x[k % len(x)], [10, 20, 30][k % 3]


for fn in (_number_at_break, _int_at_break, _number_compared_after, _two_numbers_at_break,
           _number_in_string, _number_as_index):
    _case(fn, (_x(),), (_x(6, seed=9),), (-_x(6, seed=4),), calls=1)
_case(_two_numbers_at_break, (np.array([0.0, 1.0, -0.0]),), (np.array([NAN, 2.0]),),
      name="two_numbers_signed_zero")


# ---------------------------------------------------------------- float scalars as keys

def _scale(x, s):
    return x * s + 0.0, (x * s).dtype


def _scale_sign(x, s):
    y = x * 0.0 + s
    return y, np.signbit(y)


def _scale_compare(x, s):
    return x[x > s], s == 0.1


def _scale_int8(a, s):
    return a * s, (a + s).dtype


F32 = _x().astype(np.float32)
_case(_scale, (F32, np.float32(0.1)), (F32, np.float64(0.1)), (F32, 0.1),
      (F32, np.float16(0.1)), calls=1)
_case(_scale, (_x(), np.float64(0.1)), (_x(), 0.1), (_x(), np.float32(0.1)), calls=1,
      name="scale_f64_data")
_case(_scale_sign, (_x(), 0.0), (_x(), -0.0), (_x(), np.float64(-0.0)), (_x(), np.float32(-0.0)),
      (_x(), NAN), calls=1)
_case(_scale_sign, (F32, np.float32(0.0)), (F32, np.float32(-0.0)), (F32, np.float64(NAN)),
      calls=1, name="scale_sign_f32")
_case(_scale_compare, (_x(), 0.1), (_x(), np.float32(0.1)), (_x(), np.float64(0.1)),
      (_x(), NAN), calls=1)
_case(_scale_int8, (np.arange(-3, 3, dtype=np.int8), 2.5),
      (np.arange(-3, 3, dtype=np.int8), np.float32(2.5)),
      (np.arange(-3, 3, dtype=np.int8), np.float64(2.5)),
      (np.arange(-3, 3, dtype=np.int8), np.float16(2.5)), calls=1)


# ---------------------------------------------------------------- graph ints into int8

def _sum_into_i8(x, out):
    out[0] = int(x.sum())
    return out


def _count_into_u8(x, out):
    out[1] = int((x > 0).sum()) * 100
    return out


def _np_int_into_i8(x, out):
    out[0] = x.astype(np.int64).sum() * 50
    return out


def _sign_into_i8(x, out):
    for t in range(len(out)):
        out[t] = 200 if x[t] > 0 else -1
    return out


def _ui_elementwise_i8(x, a):
    k = int(x.max() * 100)
    return a + k


_case(_sum_into_i8, (np.full(4, 20.0), np.zeros(3, np.int8)),
      (np.full(4, 40.0), np.zeros(3, np.int8)), (np.full(4, -40.0), np.zeros(3, np.int8)))
_case(_count_into_u8, (_x(), np.zeros(3, np.uint8)), (np.ones(2), np.zeros(3, np.uint8)),
      (np.ones(3), np.zeros(3, np.uint8)))
_case(_np_int_into_i8, (np.full(4, 1.0), np.zeros(3, np.int8)),
      (np.full(4, 2.0), np.zeros(3, np.int8)))
_case(_sign_into_i8, (_x(), np.zeros(3, np.int8)), (-np.abs(_x()), np.zeros(3, np.int8)),
      (_x(), np.zeros(3, np.int16)))
_case(_ui_elementwise_i8, (np.full(3, 0.5), np.zeros(2, np.int8)),
      (np.full(3, 3.0), np.zeros(2, np.int8)), (np.full(3, 0.01), np.zeros(2, np.uint8)))


# ---------------------------------------------------------------- histograms by hand

def _hist(x, n):
    counts = [0] * n
    for v in x:
        counts[int(v) % n] += 1
    return counts


def _hist_range(x, n):
    counts = [0] * n
    for i in range(len(x)):
        counts[int(x[i]) % n] += 1
    return counts, sum(counts)


def _hist_weighted(x, n):
    acc = [0.0] * n
    for i in range(len(x)):
        acc[int(abs(x[i])) % n] += x[i]
    return acc


def _hist_no_mod(x, n):
    counts = [0] * n
    for i in range(len(x)):
        counts[int(x[i])] += 1
    return counts


def _hist_dict(x, n):
    counts = {}
    for i in range(len(x)):
        k = int(x[i]) % n
        counts[k] = counts.get(k, 0) + 1
    return counts


_case(_hist, (_x(12), 4), (_x(3), 4), (_x(12), 1), calls=1)
_case(_hist_range, (_x(12), 5), (_x(0), 5), (_x(13), 3), calls=1)
_case(_hist_range, (np.array([NAN, 1.0, 2.0]), 3), calls=1, name="hist_range_nan")
_case(_hist_weighted, (_x(12), 3), (_x(12, seed=5), 2), calls=1)
_case(_hist_no_mod, (np.abs(_x(12)), 3), (_x(12), 3), (np.abs(_x(12)) + 1.0, 3), calls=1)
_case(_hist_dict, (_x(12), 4), (_x(2), 4), calls=1)
_case(_hist, (np.arange(-6, 6).astype(np.int8), 5), (np.arange(0, 250, 20).astype(np.uint8), 7),
      calls=1, name="hist_int_data")
