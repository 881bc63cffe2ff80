"""Round 13, ``while_loop`` nodes whose body reads the trip counter
(``dynamo/translator/while_trip.py``, ``ops.while_loop(..., indexed=True)``): the counter
as a number in the body (``x + h * i``, ``t0 + i * dt``, ``1.0 / (1.0 + 0.1 * k)``,
``counts + k``), counters that start as ints, NumPy ints, floats and bools, step by 1,
2, -1, 0.5 or twice a trip, bounds that are floats, NaN or change between calls, the
counter's value after the loop (and in ``else:``), errors and warnings raised on one
trip (``ZeroDivisionError``, ``math`` domain errors, ``OverflowError`` of an int8 array
plus a counter past 127, ``FloatingPointError`` under ``errstate``) with Python effects
before the loop, and arrays of float32, float16, int8, uint8 and complex dtypes.

    >>> def _stepped(x, h, tol, maxit):
    ...     i = 0
    ...     err = np.abs(x).max()
    ...     while err > tol and i < maxit:
    ...         x = 0.5 * x + h * i
    ...         err = np.abs(x - 2.0 * h * i).max()
    ...         i += 1
    ...     return x, i
"""

import math
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round13_trips")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5])
NAN = float("nan")


def _stepped(x, h, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + h * i
        err = np.abs(x - 2.0 * h * i).max()
        i += 1
    return x, i


def _stepped_from(x, h, tol, i0, step, maxit):
    i = i0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + h * i
        err = np.abs(x - 2.0 * h * i).max()
        i += step
    return x, i


def _clock(y, t0, dt, tol, maxit):
    i = 0
    err = np.float64(np.inf)
    while err > tol and i < maxit:
        t = t0 + i * dt
        y_new = y + dt * (np.cos(t) - y)
        err = np.abs(y_new - y).max()
        y = y_new
        i += 1
    return y, i


def _relax(x, tol, maxit):
    k = 0
    err = np.abs(x).max()
    while err > tol and k < maxit:
        omega = 1.0 / (1.0 + 0.1 * k)
        x = x * (1.0 - omega * 0.5)
        err = np.abs(x).max()
        k += 1
    return x, k, omega


def _int_counts(counts, limit, maxit):
    k = 0
    top = counts.max()
    while top < limit and k < maxit:
        counts = counts + k
        top = counts.max()
        k += 1
    return counts, k


# the counter's start, step and bound
case(_stepped, (X, 0.01, 1e-3, 50), (X, 0.01, 1e-3, 7), (X, 0.5, 1e-9, 0), (X, 0.5, 1e-9, -3),
     (X, 0.01, NAN, 40), (X, NAN, 1e-3, 40), (X, 0.01, 1e-3, 2.5), (X, 0.01, 1e-3, 9))
case(_stepped, (X, 0.01, 1e-3, 50), (X, 0.01, 1e-3, 51), (X, 0.01, 1e-3, True),
     (X, 0.01, 1e-3, np.int64(6)), (X, 0.01, 1e-3, np.float32(4.5)), name="stepped_bound_kinds")
case(_stepped, (X, 0.01, 1e-3, 50), (X, 1, 1e-3, 50), (X, True, 1e-3, 50),
     (X, np.float32(0.01), 1e-3, 50), (X, 2 ** 70, 1e-3, 3), (X, -0.0, 0.0, 5),
     name="stepped_h_kinds")
case(_stepped, (X.astype(np.float32), 0.01, 1e-3, 50), (X.astype(np.float32), 0.3, 1e-3, 50),
     (X.astype(np.float16), 0.01, 1e-2, 50), (X.astype(complex), 0.01, 1e-3, 50),
     name="stepped_dtypes")
case(_stepped, (X.astype(np.float32), 1e38, 1e-3, 50), (X.astype(np.float32), 3e38, 1e-3, 9),
     name="stepped_float32_overflow")
case(_stepped_from, (X, 0.01, 1e-3, 0, 1, 50), (X, 0.01, 1e-3, 2, 2, 50),
     (X, 0.01, 1e-3, -5, 1, 50), (X, 0.01, 0.5, 0, -1, 50), (X, 0.01, 1e-3, 0.5, 1, 50),
     (X, 0.01, 1e-3, True, 1, 50), (X, 0.01, 1e-3, 0, 0.5, 50), (X, 0.01, 1e-3, 3, 2, 4))
case(_stepped_from, (X, 0.01, 1e-3, 0, 1, 50), (X, 0.01, 1e-3, 1, 3, 60),
     (X, 0.01, 1e-3, np.int64(0), 1, 50), (X, 0.01, 0.05, np.int8(125), 1, 200),
     (X, 0.01, 1e-3, 2 ** 62, 2 ** 61, 2 ** 63 + 2 ** 62), (X, 0.01, 1e-3, 0, True, 50),
     name="stepped_from_counter_kinds")
case(_clock, (X, 0.0, 0.1, 1e-3, 200), (X, 0.25, 0.05, 1e-9, 30), (X, 3, 1, 1e-3, 50),
     (X, 0.0, 2, 1e-3, 50), (X, 1e308, 1e308, 1e-3, 5), (X, NAN, 0.1, 1e-3, 20))
case(_relax, (X, 1e-3, 50), (X, 1e-9, 200), (X, 1e-3, 0), (X, 1e-3, 1),
     (X.astype(np.float32), 1e-3, 50))
case(_int_counts, (np.array([1, 5, 2]), 200, 50), (np.array([1, 5, 2]), 100, 10),
     (np.array([1, 5, 2], np.int8), 120, 40), (np.array([1, 5, 2], np.uint8), 250, 40),
     (np.array([1, 5, 2], np.int16), 30000, 400), (np.array([1.5, 5, 2]), 100, 50),
     (np.array([True, False]), 3, 5))


# the counter after the loop, in else, in the result's type

def _counter_in_else(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 0.001 * i
        err = np.abs(x).max()
        i += 1
    else:
        x = x + i
    return x, i, type(i).__name__


def _two_counters(x, tol, maxit):
    i, j = 0, 10
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 0.01 * i - 0.001 * j
        err = np.abs(x).max()
        i += 1
        j -= 2
    return x, i, j


def _counter_spelled(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + i * 0.01
        err = np.abs(x).max()
        i = 1 + i
    return x, i


def _counter_and_float_sum(x, tol, maxit, dt):
    i, t = 0, 0.0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + t - dt * i
        t += dt
        err = np.abs(x).max()
        i += 1
    return x, i, t


def _counter_squared(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 1e-4 * i ** 2 - i / maxit
        err = np.abs(x).max()
        i += 1
    return x, i


def _counter_true_div(x, tol, maxit):
    i = 1
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * (i / (i + 1))
        err = np.abs(x).max()
        i += 1
    return x, i


for fn in (_counter_in_else, _two_counters, _counter_spelled, _counter_squared,
           _counter_true_div):
    case(fn, (X, 1e-3, 50), (X, 1e-3, 3), (X, 1e-12, 400), (X, 1e-3, 0), (X, NAN, 10),
         (X.astype(np.float32), 1e-3, 50))
case(_counter_and_float_sum, (X, 1e-3, 50, 0.01), (X, 1e-3, 50, 0.1), (X, 1e-3, 5, 1),
     (X, 1e-3, 50, NAN), (X, 1e-3, 50, 0))


# errors and warnings on one trip

def _zero_division_on_trip(x, tol, maxit, at):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 1.0 / (i - at)
        err = np.abs(x).max()
        i += 1
    return x, i


def _math_domain_on_trip(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + math.sqrt(3 - i) * 1e-3
        err = np.abs(x).max()
        i += 1
    return x, i


def _int8_overflow_on_trip(c, limit, maxit):
    k = 100
    top = c.max()
    while top < limit and k < maxit:
        c = c + k
        top = c.max()
        k += 10
    return c, k


def _array_divide_by_counter(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + x / i
        err = np.abs(x).max()
        i += 1
    return x, i


def _errstate_divide_on_trip(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    with np.errstate(divide="raise", invalid="raise"):
        while err > tol and i < maxit:
            x = x * 0.5 + 1.0 / (x * 0 + (i - 2))
            err = np.abs(x).max()
            i += 1
    return x, i


def _pow_overflow_on_trip(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 10.0 ** (i * 40) * 0.0
        err = np.abs(x).max()
        i += 1
    return x, i


def _effects_then_raising_loop(x, tol, maxit, log):
    log.append("start")
    print("start")
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 1.0 / (i - 4)
        err = np.abs(x).max()
        i += 1
    log.append("end")
    return x, i


def _raising_loop_in_try(x, tol, maxit):
    i = 0
    try:
        err = np.abs(x).max()
        while err > tol and i < maxit:
            x = x * 0.5 + 1.0 / (i - 3)
            err = np.abs(x).max()
            i += 1
    except ZeroDivisionError as e:
        return str(e), i, x
    return x, i


def _warning_inside_loop(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + np.log(x * 0 + (i - 2.0)) * 0.0
        err = np.nanmax(np.abs(x))
        i += 1
    return x, i


def _python_warning_inside_loop(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 0.01 * i
        if err > 100:
            warnings.warn("diverging", stacklevel=1)
        err = np.abs(x).max()
        i += 1
    return x, i


def _input_written_then_raise(x, tol, maxit):
    x[0] = 9.0
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 1.0 / (i - 5)
        err = np.abs(x).max()
        i += 1
    return x, i


case(_zero_division_on_trip, (X, 1e-3, 20, 5), (X, 1e-3, 20, 6), (X, 1e-3, 4, 5),
     (X, 1e-3, 20, 0), (X, 1e-3, 20, -1), (X, 1e-3, 20, 2.5), (X, 1e-3, 20, True))
case(_math_domain_on_trip, (X, 1e-3, 2), (X, 1e-3, 3), (X, 1e-3, 20), (X, 1e-3, 4))
case(_int8_overflow_on_trip, (np.array([1, 2], np.int8), 120, 130),
     (np.array([1, 2], np.int8), 100, 200), (np.array([1, 2], np.int16), 1000, 200),
     (np.array([1, 2], np.uint8), 250, 200), (np.array([1, 2], np.int8), 127, 101))
case(_array_divide_by_counter, (X, 1e-3, 20), (X, 1e-3, 5), (X, 1e-3, 0), (X, 1e-3, 1))
case(_errstate_divide_on_trip, (X, 1e-3, 20), (X, 1e-3, 2), (X, 1e-3, 3), (X, 1e-3, 21))
case(_pow_overflow_on_trip, (X, 1e-3, 20), (X, 1e-3, 8), (X, 1e-3, 9), (X, 1e-3, 3))
case(_effects_then_raising_loop, (X, 1e-3, 20, []), (X, 1e-3, 4, []), (X, 1e-3, 5, []),
     (X, 1e-3, 30, []))
case(_raising_loop_in_try, (X, 1e-3, 20), (X, 1e-3, 3), (X, 1e-3, 4), (X, 10.0, 20))
case(_warning_inside_loop, (X, 1e-3, 20), (X, 1e-3, 2), (X, 1e-3, 3), (X, 1e-3, 5))
case(_python_warning_inside_loop, (X, 1e-3, 20), (X * 1000, 1e-3, 20), (X, 1e-3, 3))
case(_input_written_then_raise, (X.copy(), 1e-3, 20), (X.copy(), 1e-3, 5), (X.copy(), 1e-3, 6),
     (X.copy(), 1e-3, 3))


# counters through objects, globals, and calls that change the counter's kind

class Solver:
    def __init__(self, h):
        self.h = h
        self.trips = 0

    def run(self, x, tol, maxit):
        i = 0
        err = np.abs(x).max()
        while err > tol and i < maxit:
            x = 0.5 * x + self.h * i
            err = np.abs(x - 2.0 * self.h * i).max()
            i += 1
        self.trips += i
        return x


@scenario
def solver_object_counts_trips(r):
    s = Solver(0.01)
    f = r.compile(Solver.run)
    for tol, maxit in ((1e-3, 50), (1e-3, 5), (1e-9, 400), (NAN, 9), (1e-3, 0)):
        r.call(f, s, X, tol, maxit)
        r.see("trips", s.trips)
    s.h = 0.5
    r.call(f, s, X, 1e-3, 50)
    s.h = np.float32(0.5)
    r.call(f, s, X, 1e-3, 50)
    r.see("trips", s.trips)


H = 0.01


def _global_h(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + H * i
        err = np.abs(x - 2.0 * H * i).max()
        i += 1
    return x, i


@scenario
def global_step_rebound(r):
    global H
    f = r.compile(_global_h)
    for h in (0.01, 0.01, 0.02, 1, NAN, 0.01):
        H = h
        r.call(f, X, 1e-3, 50)
    H = 0.01


def _trip_times_int_array(c, limit, maxit):
    k = 0
    top = c.max()
    while top < limit and k < maxit:
        c = c * 2 + k * 3 - (k // 1)
        top = c.max()
        k += 1
    return c, k


case(_trip_times_int_array, (np.array([1, 2]), 1000, 50), (np.array([1, 2]), 10 ** 17, 80),
     (np.array([1, 2], np.int32), 10 ** 9, 80), (np.array([1, 2]), 2 ** 62, 100))


def _counter_float_start(x, tol, maxit):
    i = 0.0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + 0.01 * i
        err = np.abs(x - 0.02 * i).max()
        i += 1
    return x, i


case(_counter_float_start, (X, 1e-3, 50), (X, 1e-3, 5), (X, 1e-3, 0.5), (X, 1e-9, 1e3))


def _counter_bool_start(x, tol, maxit):
    i = True
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + 0.01 * i
        err = np.abs(x - 0.02 * i).max()
        i += 1
    return x, i


case(_counter_bool_start, (X, 1e-3, 50), (X, 1e-3, 1), (X, 1e-3, 2), (X, NAN, 5))


def _counter_decrement(x, tol, lo):
    i = 10
    err = np.abs(x).max()
    while err > tol and i > lo:
        x = 0.5 * x + 0.01 * i
        err = np.abs(x - 0.02 * i).max()
        i -= 1
    return x, i


case(_counter_decrement, (X, 1e-3, 0), (X, 1e-3, 5), (X, 1e-3, -20), (X, 1e-3, 10),
     (X, 0.05, -2 ** 63), (X, 1e-9, 11))


def _counter_complex_h(x, tol, maxit, h):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + h * i
        err = np.abs(x).max()
        i += 1
    return x, i


case(_counter_complex_h, (X, 1e-3, 20, 0.01), (X, 1e-3, 20, 0.01j),
     (X.astype(complex), 1e-3, 20, 0.01j), (X, 1e-3, 20, 1e-3 + 0j))


# more reads of the counter: before and after its step, through math and NumPy calls,
# as an index or a NumPy scalar's operand (breaks), as a size after the loop

def _read_after_step(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        i += 1
        x = x * 0.5 + 0.01 * i
        err = np.abs(x - 0.02 * i).max()
    return x, i


def _counter_through_library(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        t = i * 0.1
        x = x * 0.5 + np.sin(t) * 0.01 + math.cos(t) * 1e-3
        err = np.abs(x).max()
        i += 1
    return x, i


def _counter_as_index(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5
        err = np.abs(x[i]).max()
        i += 1
    return x, i


def _counter_numpy_operand(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + np.float32(0.01) * i
        err = np.abs(x - np.float32(0.02) * i).max()
        i += 1
    return x, i


def _counter_as_size_after(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 0.001 * i
        err = np.abs(x).max()
        i += 1
    return np.zeros(i) + x[0], x[:i]


def _counter_round(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + round(i * 0.5) * 0.01
        err = np.abs(x).max()
        i += 1
    return x, i


def _bool_partner(x, tol, maxit, flag):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 0.01 * (flag * i) + 0.001 * (i - flag)
        err = np.abs(x - 0.02 * (flag * i)).max()
        i += 1
    return x, i


def _counter_compared_in_body(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + (0.01 if i < 3 else 0.02)
        err = np.abs(x).max()
        i += 1
    return x, i


for fn in (_read_after_step, _counter_through_library, _counter_as_index,
           _counter_numpy_operand, _counter_as_size_after, _counter_round,
           _counter_compared_in_body):
    case(fn, (X, 1e-3, 50), (X, 1e-3, 2), (X, 1e-3, 3), (X, 1e-3, 0), (X, NAN, 9),
         (X.astype(np.float32), 1e-3, 50))
case(_bool_partner, (X, 1e-3, 50, True), (X, 1e-3, 50, False), (X, 1e-3, 50, 1),
     (X, 1e-3, 50, 2), (X, 1e-3, 7, True))


# counters added to int arrays whose bound (a float, past int64) does not keep them in
# int64; huge float steps


def _int_counts_stepped(c, limit, maxit, step):
    k = 0
    top = c.max()
    while top < limit and k < maxit:
        c = c + k
        top = c.max()
        k += step
    return c, k


def _float_counts_stepped(c, limit, maxit, step):
    k = 0
    top = c.max()
    while top < limit and k < maxit:
        c = c * 0.5 + k * 1e-20
        top = c.max() + 1
        k += step
    return c, k


case(_int_counts_stepped, (np.array([1, 2]), 100, 50, 1), (np.array([1, 2]), 100, 50, 3),
     (np.array([1, 2]), 2 ** 62, 1e30, 2 ** 61), (np.array([1, 2]), 2 ** 63 - 1, 1e30, 2 ** 62),
     (np.array([1, 2], np.uint64), 2 ** 64 - 1, 2 ** 70, 2 ** 62))
case(_float_counts_stepped, (np.array([1.0, 2]), 100, 50, 1),
     (np.array([1.0, 2]), 100, 2 ** 70, 2 ** 62), (np.array([1.0, 2]), 100, 1e300, 1e299),
     (np.array([1.0, 2]), 100, 50, 2))
