"""Sets and OrderedDicts from outside the trace read by the elements the trace touches
(``dynamo/variables/unread_sets.py``, ``unread_ordered_dicts.py``, issue #16): each
program's results, the state it leaves (iteration order included) and its exceptions
equal plain Python's on both CPU backends, and a set only written needs no guard on its
contents (one compile over calls whose sets differ).

Example::

    def mark(x, seen, i):
        seen.add(i)          # replayed after the graph: seen.add(i)
        return x * 2.0
"""

import collections

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")


def _differential(fn, make, calls, backend, breaks):
    """``fn`` compiled and plain on two copies of the state ``make()`` makes, called with
    each of ``calls``: the same results, raised exceptions and state (its order too),
    and at most ``breaks`` graph breaks (only the reads of the order and the program's
    own errors break: an add, a membership test or len() does not)."""
    explainer = dynamo.explain(fn, backend=backend)
    compiled = explainer.__enter__()
    mine, theirs = make(), make()
    try:
        _calls(fn, compiled, mine, theirs, calls)
    finally:
        explainer.__exit__(None, None, None)
    assert compiled.report.graph_break_count <= breaks, str(compiled.report)


def _calls(fn, compiled, mine, theirs, calls):
    for args in calls:
        outs = []
        for f, state in ((compiled, mine), (fn, theirs)):
            try:
                outs.append(("ok", f(np.arange(3.0), state, *args)))
            except Exception as e:  # noqa: BLE001 - compared below
                outs.append(("raised", type(e), str(e)))
        (kind, *got), (plain_kind, *expected) = outs
        assert kind == plain_kind and (np.allclose(got[0], expected[0]) if kind == "ok"
                                       else got == expected), (args, outs)
        assert list(mine) == list(theirs), (args, mine, theirs)   # (in order)
        if isinstance(mine, dict):
            assert all(np.allclose(mine[k], theirs[k]) for k in mine), (args, mine, theirs)


def membership_add_len(x, seen, i):
    w = 1.0
    if i not in seen:
        seen.add(i)
        w = 2.0
    seen |= {7, 8}
    seen.update([i + 1])
    return x * w * len(seen)


def add_break_add(x, seen, i):
    seen.add(i)
    n = len(seen)
    _ = id(x)                      # a graph break between two writes
    seen.add(i + 100)
    return x * n + (i + 100 in seen)


def clear_then_iterate(x, seen, i):
    seen.clear()
    seen.add(i)
    seen.add(i + 1)
    return x * sum(seen) + len(seen)


def remove_or_raise(x, seen, i):
    seen.remove(i)                 # KeyError where absent, as Python raises it
    return x + len(seen)


def sorted_after_add(x, seen, i):
    seen.add(i % 3)
    return x * sum(sorted(seen))   # read whole: a break, the result still eager's


def ordered_lru(x, cache, k):
    if k in cache:
        cache.move_to_end(k)
        return cache[k] + x
    cache[k] = x * k
    if len(cache) > 2:
        cache.popitem(last=False)
    return cache[k] - x


def ordered_evict_returned(x, cache, k):
    cache[k] = x * k
    old, y = cache.popitem(last=False)      # the oldest entry, used
    return y * old + len(cache)


def ordered_evict_twice(x, cache, k):
    cache[k] = x + k
    a = cache.popitem(False)[0]
    b = cache.popitem(last=False)[0]        # the second: not the first at the start
    return x * a - b


def ordered_moved_then_evict(x, cache, k):
    cache.move_to_end(k, last=False)        # k is first now: the order is read
    return x * cache.popitem(last=False)[0]


def ordered_evict_last(x, cache, k):
    cache[k] = x
    return cache.popitem()[1] * 2.0         # the newest: pops what was just written


def ordered_front(x, cache, k):
    cache.move_to_end(k, last=False)   # KeyError where absent
    return x * cache[k]


# (program, state, calls, most graph breaks over all the calls: counted today)
CASES = [
    (membership_add_len, set, [(3,), (1,), (3,), (4,), (1,)], 0),
    (add_break_add, set, [(3,), (1,), (3,), (4,)], 3),          # id(): its own break
    (clear_then_iterate, lambda: {5}, [(1,), (2,), (9,)], 0),
    (remove_or_raise, lambda: {1, 2, 3}, [(1,), (1,), (3,), (2,)], 1),   # the KeyError
    (sorted_after_add, set, [(0,), (1,), (2,), (4,)], 2),       # sorted() reads whole
    (ordered_lru, collections.OrderedDict, [(1,), (2,), (1,), (3,), (4,), (2,), (4,)],
     0),                                              # popitem(last=False): first key
    (ordered_evict_returned, lambda: collections.OrderedDict([(5, 1.0), (6, 2.0)]),
     [(1,), (2,), (5,), (2,), (7,), (1,)], 0),
    (ordered_evict_returned, collections.OrderedDict, [(1,), (2,)], 2),   # empty first
    (ordered_evict_returned, lambda: collections.OrderedDict([("a", 1.0), ("b", 2.0)]),
     [(1,), (2,)], 4),              # a str first key: read whole; then y * "a" raises
    (ordered_evict_twice, lambda: collections.OrderedDict((i, i) for i in range(6)),
     [(1,), (8,), (9,)], 3),
    (ordered_evict_twice, collections.OrderedDict, [(1,)], 2),   # the KeyError
    (ordered_moved_then_evict, lambda: collections.OrderedDict((i, i) for i in range(4)),
     [(2,), (3,), (0,)], 3),
    (ordered_evict_last, lambda: collections.OrderedDict([(1, 1.0)]), [(2,), (3,)], 2),
    (ordered_front, lambda: collections.OrderedDict((k, k * 0.5) for k in range(3)),
     [(1,), (2,), (2,), (5,), (0,)], 1),                          # the KeyError
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,make,calls,breaks", CASES, ids=[c[0].__name__ for c in CASES])
def test_same_results_and_state_as_plain_python(fn, make, calls, breaks, backend):
    _differential(fn, make, calls, backend, breaks)


def test_aliased_set_sees_its_own_writes():
    """One set under two names is one Variable: an add through one is seen through the
    other, and the entry serves only calls where they are again one object."""
    def f(x, holder, seen, i):
        holder["s"].add(i)
        w = 2.0 if i in seen else 1.0
        seen.discard(i)
        return x * w * (len(holder["s"]) + 1)

    g = dynamo.compile(f, backend="eager")
    for i in (3, 1, 3):
        a, b = {9}, {9}
        assert np.allclose(g(np.ones(2), {"s": a}, a, i), f(np.ones(2), {"s": b}, b, i))
        assert a == b
        c, d = {9}, {9}    # two distinct sets now: the aliased entry must not serve
        assert np.allclose(g(np.ones(2), {"s": c}, {i}, i), f(np.ones(2), {"s": d}, {i}, i))
        assert c == d


def test_written_set_needs_no_guard_on_its_contents():
    """A set only added to compiles once although its contents differ at every call, and
    its frozenset neighbour is guarded on the element tested only."""
    def f(x, seen, allowed):
        seen.add("k")
        return x * 2.0 if 3 in allowed else x

    with dynamo.explain(f, backend="eager") as g:
        for n in range(6):
            seen = set(range(n))
            assert np.allclose(g(np.ones(2), seen, frozenset({3, n + 10})), np.full(2, 2.0))
            assert seen == set(range(n)) | {"k"}
    assert g.report.compile_count == 1


def merge_display(x, seen, i, loss):
    seen |= {i, i + 1}            # a display of changing ints, merged unhashed
    seen.update({i + 2})
    return x - 1.0


def rounded_float_key(x, seen, i, loss):
    key = round(loss, 2)          # guarded as (round(L['loss'], 2)) in/not in seen
    fresh = key not in seen
    seen.add(key)
    return x * loss if fresh else x


def display_read(x, seen, i, loss):
    s = {i, i + 1, 3}             # read (len, in): hashed, its ints pinned as before
    seen |= s
    return x * len(s) + (4 in s)


def test_changing_numbers_as_set_elements_need_no_pin():
    """``seen |= {i, i + 1}`` and a rounded float key ``round(loss, 2)`` do not pin the
    number (``set_displays.py``; ``unread_dicts._keyed``): one recompile for the
    first change, one per side of a membership test, where each value was an entry
    before; the set (its order too) and the results are plain Python's."""
    losses = [0.5, 0.25, 0.125, 0.5, 0.3, 0.25, 0.7, 0.9]
    calls = [(i * 3 % 7, loss) for i, loss in enumerate(losses)]
    for fn, most in ((merge_display, 2), (rounded_float_key, 3), (display_read, None)):
        dynamo.reset()
        with dynamo.explain(fn, backend="eager") as g:
            _calls(fn, g, set(), set(), calls)
        assert most is None or g.report.compile_count <= most, (fn.__name__, str(g.report))
