"""A check reads each repeated attribute or item once (guards/hoisted_reads.py): the
same truth as reading it every time, the binding where the chain first reads it
unconditionally, never earlier, and nothing held past the check."""

import numpy as np
from dynamo.guards import (
    ARRAY,
    EXPR,
    TYPE,
    ArraySpec,
    AttrSource,
    CheckFunction,
    Guard,
    ItemSource,
    LocalSource,
)
from dynamo.guards.hoisted_reads import held_names, hoisted
from hypothesis import given, settings
from hypothesis import strategies as st

SELF = LocalSource("self")
CACHE = AttrSource(SELF, "cache")


class Counting:
    def __init__(self, cache, hits=0):
        self.cache, self.hits = cache, hits


def _guards():
    """CountingCache.normalize's kind of check: ``self.cache`` read by five guards,
    ``self.cache[5]`` by two."""
    item = ItemSource(CACHE, 5)
    return [Guard(SELF, TYPE, Counting), Guard(CACHE, TYPE, dict),
            Guard(AttrSource(SELF, "hits"), TYPE, int),
            Guard(CACHE, EXPR, "5 in self.cache", note="key"),
            Guard(AttrSource(SELF, "hits"), EXPR, "self.hits < 100", note="bound"),
            Guard(item, ARRAY, ArraySpec(np.ndarray, np.dtype("float64"), (3,)))]


def test_each_repeated_read_is_made_once():
    check = CheckFunction(_guards(), ["self"], "f", {}, has_closure=False)
    src, _ = check.inline("___")   # (what the dispatcher pastes; check.source reads
    assert check.source.count("self.cache") == 5   # each time: it runs on misses only)
    assert src.count("self.cache") == 1 and src.count("self.hits") == 1, src
    assert "(___s1 := self.cache)" in src and "(___s3 := ___s1[5])" in src, src
    assert held_names(src, "___") == ["___s1", "___s2", "___s3"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([None, "empty", "key", "wrong_shape", "wrong_dtype", "list"]),
       st.integers(0, 200))
def test_same_truth_as_reading_every_time(cache_kind, hits):
    """The check with the reads made once holds exactly when the guards' own words
    find nothing broken (``failures`` evaluates each guard by itself)."""
    cache = {None: {5: np.zeros(3)}, "empty": {}, "key": {4: np.zeros(3)},
             "wrong_shape": {5: np.zeros(4)}, "wrong_dtype": {5: np.zeros(3, "f4")},
             "list": [0, 1, 2, 3, 4, np.zeros(3)]}[cache_kind]
    check = CheckFunction(_guards(), ["self"], "f", {}, has_closure=False)
    inlined = _inlined(check)
    obj = Counting(cache, hits)
    assert inlined(obj) == check(obj) == (not check.failures((obj,), limit=10))
    assert inlined(obj) == (cache_kind is None and hits < 100)


def _inlined(check):
    """The check as the dispatcher pastes it (``inline``), in a function of its own."""
    expr, names = check.inline("___e0_")
    assert "(___e0_s1 := self.cache)" in expr, expr
    scope = dict(names)
    exec(f"def f(self):\n    try:\n        return ({expr})\n"
         "    except Exception:\n        return False\n", scope)
    return scope["f"]


def test_a_conditional_first_read_is_not_where_it_binds():
    """``a.lo.n`` is read only where ``a.lo`` is not None in the first part: its binding
    is where the third part reads it whatever the values (after ``type(a.lo) is C``
    has passed). ``a.lo`` binds in the first part, as ``or``'s first operand, and is
    read by name after it, in the same part too."""
    parts = ["(a.lo is None or a.lo.n > 0)", "type(a.lo) is C", "a.lo.n == 3", "a.lo.n < 9"]
    out = hoisted(parts, "___")
    assert out[0] == "((___s1 := a.lo) is None or ___s1.n > 0)", out
    assert out[1] == "type(___s1) is C", out
    assert out[2] == "(___s2 := ___s1.n) == 3" and out[3] == "___s2 < 9", out


def test_branches_and_later_comparisons_never_bind():
    """``y if c else z``'s branches, ``or``'s later operands and a chain's later
    comparisons are evaluated only sometimes: reads there bind nothing."""
    parts = ["(p.a if q else p.b) and 0 < q.c < p.d", "p.a and p.b and p.d", "p.a > 0",
             "p.b > 0"]
    out = hoisted(parts, "___")
    assert out[:3] == [parts[0], "(___s1 := p.a) and p.b and p.d", "___s1 > 0"], out
    assert out[3] == "p.b > 0", out   # (read only once unconditionally, at the end)


def test_lambda_and_comprehension_bodies_are_left_alone():
    parts = ["type(o.k) is int", "all(o.k > v for v in o.vs)", "o.k > 0"]
    out = hoisted(parts, "___")
    assert out == ["type((___s1 := o.k)) is int", "all(o.k > v for v in o.vs)",
                   "___s1 > 0"], out


def test_calls_and_computed_keys_are_not_reads():
    parts = ["f(o).x > 0", "f(o).x < 3", "o.d[k] == 1", "o.d[k] == 1"]
    out = hoisted(parts, "___")
    assert out[0] == parts[0] and out[1] == parts[1], out
    assert out[2] == "(___s1 := o.d)[k] == 1" and out[3] == "___s1[k] == 1", out


def test_comments_and_unparsable_parts_stay():
    parts = ["# numpy.tanh is numpy.tanh\n    ___c4['tanh'] is ___c5", "m.a is m.a",
             "m.a is not (", "m.a"]
    out = hoisted(parts, "___")
    assert out[0] == parts[0]
    assert out[1] == "(___s1 := m.a) is ___s1" and out[2] == parts[2] and out[3] == "___s1"
