"""Round 43, what each way of a data ``if`` in a loop node's body reads and writes
first (``loop_facts.WayNotes``, the select's join stores): counters and accumulators
stepped before, after and inside data ``if``s, ``pass`` ways, a name written in one
way only and read after the loop (unbound where no trip took that way: NameError as
eager), a name first written inside the loop, ``del`` inside the body, a name written
in both ways from different sources, nested ``if``s, ``elif`` chains, a way that
``continue``s, the names read after the loop as types, sizes and keys.

    >>> def _pass_then_count(x, t):
    ...     c = 0
    ...     for j in range(len(x)):
    ...         if x[j] > t:
    ...             pass
    ...         c += 1
    ...     return c
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round43_loops")
NAN = float("nan")


def _data(n, seed=5):
    x = np.random.default_rng(seed + n).random(n) * 4 - 2
    if n > 4:
        x[4] = NAN
    if n > 2:
        x[2] = -0.0
    return x


def _ways(fn, *ts, sizes=(10, 0, 1, 12)):
    """``fn(x, t)`` at each threshold in turn, then over ``sizes`` at the first."""
    sets = [(lambda t=t: (_data(sizes[0]), t)) for t in ts]
    sets += [(lambda n=n: (_data(n), ts[0])) for n in sizes[1:]]
    reg.case(fn, *sets, calls=1)


def _pass_then_count(x, t):
    c = 0
    for j in range(len(x)):
        if x[j] > t:
            pass
        c += 1
    return c


def _count_before_if(x, t):
    c = 0
    s = 0.0
    for j in range(len(x)):
        c += 1
        if x[j] > t:
            s = s + c
    return c, s


def _count_inside_both(x, t):
    up = down = 0
    for j in range(len(x)):
        if x[j] > t:
            up += 1
        else:
            down += 2
    return up, down


def _acc_after_pass_else(x, t):
    s = 0.0
    for j in range(len(x)):
        if x[j] > t:
            s = s + x[j]
        else:
            pass
        s = s * 0.5
    return s


def _one_way_only_read_after(x, t):
    """``last`` is bound only where some trip took the way: NameError otherwise."""
    for j in range(len(x)):
        if x[j] > t:
            last = j
    return last


def _one_way_value_read_after(x, t):
    for j in range(len(x)):
        if x[j] > t:
            hit = x[j]
    try:
        return hit
    except NameError:
        return "none"


def _first_written_inside(x, t):
    for j in range(len(x)):
        tmp = x[j] * 2.0
        if tmp > t:
            x[j] = tmp
    return x, tmp if len(x) else None


def _del_inside(x, t):
    s = 0.0
    for j in range(len(x)):
        tmp = x[j] + 1.0
        if tmp > t:
            s = s + tmp
        del tmp
    return s


def _del_in_way(x, t):
    keep = 0.0
    for j in range(len(x)):
        keep = x[j]
        if keep > t:
            del keep
            keep = -1.0
    return keep


def _del_then_read_after(x, t):
    """``del`` in the last trip's way: the name is unbound after the loop."""
    v = 0.0
    for j in range(len(x)):
        v = x[j]
        if v > t:
            del v
    try:
        return v
    except UnboundLocalError as e:
        return type(e).__name__


def _both_ways_write_other_sources(x, t):
    y = np.zeros_like(x)
    for j in range(len(x)):
        if x[j] > t:
            v = x[j] * 2.0
        else:
            v = -1
        y[j] = v
    return y, type(v).__name__ if len(x) else None


def _counter_in_nested_if(x, t):
    a = b = 0
    for j in range(len(x)):
        if x[j] > t:
            a += 1
            if x[j] > t + 1.0:
                b += 1
    return a, b


def _elif_three_counters(x, t):
    lo = mid = hi = 0
    for j in range(len(x)):
        if x[j] < -t:
            lo += 1
        elif x[j] < t:
            mid += 1
        else:
            hi += 1
    return lo, mid, hi


def _continue_way(x, t):
    c = 0
    s = 0.0
    for j in range(len(x)):
        if x[j] > t:
            continue
        c += 1
        s = s + x[j]
    return c, s


def _count_used_as_size(x, t):
    c = 0
    for j in range(len(x)):
        if x[j] > t:
            c += 1
    return np.zeros(c), x[:c]


def _count_as_key(x, t):
    c = 0
    for j in range(len(x)):
        if not x[j] > t:
            c += 1
    return {0: "none", 1: "one"}.get(c, "many")


def _step_before_and_after(x, t):
    c = 0
    for j in range(len(x)):
        c += 2
        if x[j] > t:
            c -= 1
        c *= 1
    return c


def _acc_read_in_way(x, t):
    s = 0.0
    m = 0.0
    for j in range(len(x)):
        if x[j] > t:
            m = s
        s = s + x[j]
    return s, m


def _flag_carried(x, t):
    seen = False
    n = 0
    for j in range(len(x)):
        if seen:
            n += 1
        if x[j] > t:
            seen = True
    return seen, n


def _pass_both(x, t):
    c = 0
    for j in range(len(x)):
        if x[j] > t:
            pass
        else:
            pass
    return c, j if len(x) else -1


def _write_only_in_else(x, t):
    y = x.copy()
    k = -1
    for j in range(len(x)):
        if x[j] > t:
            pass
        else:
            y[j] = 0.0
            k = j
    return y, k


def _count_after_if_index(x, t):
    """The index after the loop and a counter stepped after a way that writes."""
    c = 0
    for j in range(len(x)):
        if x[j] > t:
            x[j] = t
        c = c + j
    return x, c


_ways(_pass_then_count, 0.5, NAN, -np.inf)
_ways(_count_before_if, 0.5, 2.0)
_ways(_count_inside_both, 0.0, NAN)
_ways(_acc_after_pass_else, 0.5, -3.0)
_ways(_one_way_only_read_after, 0.5, 5.0)
_ways(_one_way_value_read_after, 1.0, 5.0)
_ways(_first_written_inside, 0.5, 10.0)
_ways(_del_inside, 0.5)
_ways(_del_in_way, 0.5, 5.0)
_ways(_del_then_read_after, 0.5, -5.0)
_ways(_both_ways_write_other_sources, 0.5, -5.0)
_ways(_counter_in_nested_if, 0.0)
_ways(_elif_three_counters, 0.5, NAN)
_ways(_continue_way, 0.5, -5.0)
_ways(_count_used_as_size, 0.5, -5.0)
_ways(_count_as_key, 1.5, -5.0)
_ways(_step_before_and_after, 0.0)
_ways(_acc_read_in_way, 0.5)
_ways(_flag_carried, 1.0, 5.0)
_ways(_pass_both, 0.5)
_ways(_write_only_in_else, 0.5, -5.0)
_ways(_count_after_if_index, 0.5)
