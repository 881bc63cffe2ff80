"""Dicts from outside the trace read by the keys the trace touches (issue #16,
``dynamo/variables/unread_dicts.py``): a dict written under a changing int key
(``self.log[self.step] = loss``), a memo table (``if k not in self.m``), a counter
(``counts[k] += 1`` of a defaultdict) compile once or twice, not once per call, and
leave the dict as plain Python does (keys in order, values). Each sequence of calls
runs plainly and compiled side by side on equal state; compiles are counted.
"""

import collections
import copy

import numpy as np
import pytest
from harness import same
from hypothesis import given, settings
from hypothesis import strategies as st
from test_default_dicts import READS, read_op

import dynamo

BACKENDS = ["eager", "numpy"]


def _run(make, method, args_of, calls, backend):
    """``calls`` calls of ``make().method`` plainly and compiled, compared after each
    (result and the object's state); the recompiles after the first call."""
    eager, compiled = make(), make()
    dynamo.reset()
    with dynamo.explain(getattr(compiled, method), backend=backend) as f:
        for i in range(calls):
            want = getattr(eager, method)(*args_of(i))
            got = f(*args_of(i))
            same(want, got, path=f"call {i}")
            same(vars(eager), vars(compiled), path=f"state after call {i}")
    return [r for r in f.report.recompiles if r.call >= 1]


def _x(i):
    return np.arange(4.0) + i


class StepLog:
    def __init__(self):
        self.log, self.step = {}, 0

    def record(self, x, loss):
        self.step += 1
        self.log[self.step] = loss
        return x * loss


@pytest.mark.parametrize("backend", BACKENDS)
def test_dict_written_under_a_step_counter(backend):
    """Only written: no guard on its keys, the key computed by the glue. One recompile
    (the step and the loss first change), where each call was one (to the limit)."""
    recompiles = _run(StepLog, "record", lambda i: (_x(i), 0.5 + 0.1 * i), 10, backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


class Memo:
    def __init__(self):
        self.m = {}

    def apply(self, x, k):
        if k not in self.m:
            self.m[k] = np.tanh(x * (k + 1))
        return self.m[k] + x


@pytest.mark.parametrize("backend", BACKENDS)
def test_memo_under_a_changing_key(backend):
    """``k in self.m`` is guarded present or absent: an entry per side, not per key."""
    recompiles = _run(Memo, "apply", lambda i: (_x(i), i % 4), 12, backend)
    assert len(recompiles) <= 2, "\n".join(map(str, recompiles))
    assert any("not in self.m no longer holds" in why for r in recompiles
               for why in r.reasons), "the log names the key looked up"


class TwoKeys:
    def __init__(self):
        self.d = {0: np.zeros(4)}

    def put(self, x, i, j):
        self.d[i] = x
        self.d[j] = x * 2
        return self.d[i] + self.d[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_changing_keys_that_meet(backend):
    """Two changing keys (and the constant 0) are guarded distinct; the call where
    ``i == j`` (then ``i == 0``) misses that guard and is traced with them guarded
    equal (one key), and writes and reads as Python does; no key is pinned, so the
    calls after are served by the first entry."""
    pairs = [(1, 2), (2, 3), (3, 4), (4, 5), (6, 6), (7, 8), (0, 9), (9, 10), (10, 11)]
    recompiles = _run(TwoKeys, "put", lambda i: (_x(i), *pairs[i]), len(pairs), backend)
    assert len(recompiles) <= 3, "\n".join(map(str, recompiles))


class Sliding:
    def __init__(self):
        self.buf, self.step = {}, 0

    def push(self, x):
        self.buf[self.step] = x
        if self.step - 3 in self.buf:
            del self.buf[self.step - 3]
        self.step += 1
        return x * len(self.buf) if self.buf else x


@pytest.mark.parametrize("backend", BACKENDS)
def test_len_of_a_dict_under_changing_keys(backend):
    """``len(self.buf)`` is its length at the start (a changing int once it changed)
    plus the keys added, less those deleted: not its key set, which moves every call."""
    recompiles = _run(Sliding, "push", lambda i: (_x(i),), 12, backend)
    assert len(recompiles) <= 2, "\n".join(map(str, recompiles))


class EpochLog:
    def __init__(self):
        self.log, self.epoch = {}, 0

    def record(self, x, loss):
        self.epoch += 1
        self.log[(self.epoch, "loss")] = loss
        if (self.epoch - 1, "loss") in self.log:
            return x * (loss - self.log[(self.epoch - 1, "loss")])
        return x * loss


@pytest.mark.parametrize("backend", BACKENDS)
def test_tuple_key_holding_a_changing_int(backend):
    """``self.log[(self.epoch, "loss")]``: a key of its form, read at the previous
    epoch's key (guarded present), not a constant that pins the epoch."""
    recompiles = _run(EpochLog, "record", lambda i: (_x(i), 0.5 + 0.1 * i), 10, backend)
    assert len(recompiles) <= 2, "\n".join(map(str, recompiles))


class ShapeStepLog:
    """A log keyed by ``(x.shape, step)``: the shape a nested tuple of constants."""

    def __init__(self):
        self.log, self.step = {}, 0

    def record(self, x, loss):
        self.step += 1
        self.log[(x.shape, self.step)] = loss
        if (x.shape, self.step - 1) in self.log:
            return x * (loss - self.log[(x.shape, self.step - 1)])
        return x * loss


@pytest.mark.parametrize("backend", BACKENDS)
def test_tuple_key_holding_a_shape_and_a_changing_int(backend):
    """``(x.shape, self.step)``: the static shape a constant part of the key's form
    (spelled by ``repr``), the step a changing int, where the nested tuple made the key
    a constant that pinned the step (a recompile per call before)."""
    recompiles = _run(ShapeStepLog, "record", lambda i: (_x(i), 0.5 + 0.1 * i), 10, backend)
    assert len(recompiles) <= 2, "\n".join(map(str, recompiles))


class Counter:
    def __init__(self):
        self.counts = collections.defaultdict(int)

    def see(self, x, k):
        self.counts[k] += 1
        return x * self.counts[k]


@pytest.mark.parametrize("backend", BACKENDS)
def test_defaultdict_counter_under_a_changing_key(backend):
    """``counts[k] += 1``: the factory runs in the trace where ``k`` is guarded absent;
    its keys are not guarded."""
    recompiles = _run(Counter, "see", lambda i: (_x(i), i % 3), 12, backend)
    assert len(recompiles) <= 3, "\n".join(map(str, recompiles))


def put_last(d, x):
    d["last"] = x
    return x * 2


def test_other_keys_are_not_guarded():
    """A dict only written under a constant key serves dicts of any other keys."""
    dynamo.reset()
    with dynamo.explain(put_last, backend="eager") as f:
        for i, keys in enumerate([(), (1,), (1, 2), ("a", 5), ("last",)]):
            want, got = dict.fromkeys(keys, 0.0), dict.fromkeys(keys, 0.0)
            same(put_last(want, _x(i)), f(got, _x(i)))
            same(want, got)
    assert f.report.compile_count == 1, "\n".join(map(str, f.report.recompiles))


def dict_ops(d, ops, x, k, j):
    """A sequence of dict operations (hypothesis picks them) under keys that change
    (``k``, ``j``, ``k + 1``, ``(k, "a")``) and constants."""
    out = []
    for kind, which in ops:
        key = {"k": k, "j": j, "k+1": k + 1, "zero": 0, "a": "a", "(k, a)": (k, "a"),
               "(j, a)": (j, "a"), "(3, a)": (3, "a")}[which]
        try:
            if kind == "set":
                d[key] = x
            elif kind in READS:
                out.append(read_op(d, kind, key, x))
            elif kind == "del":
                del d[key]
            elif kind == "len":
                out.append(len(d))
        except KeyError as e:
            out.append(("KeyError", e.args))
    return out


_OPS = st.lists(st.tuples(st.sampled_from(["set", "read", "get", "in", "setdefault", "pop",
                                           "del", "len"]),
                          st.sampled_from(["k", "j", "k+1", "zero", "a", "(k, a)", "(j, a)",
                                           "(3, a)"])),
                min_size=1, max_size=6).map(tuple)
_KEYS = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=4, max_size=8)


@settings(max_examples=30, deadline=None)
@given(ops=_OPS, keys=_KEYS)
def test_dict_operations_under_changing_keys(ops, keys):
    """Any sequence of reads, writes and deletes under changing and constant keys gives
    Python's results, errors and dict (keys in order), call after call on one dict."""
    dynamo.reset()
    f = dynamo.compile(dict_ops, backend="eager")
    want = {0: np.zeros(2), 3: np.ones(2), "a": np.full(2, 2.0), (3, "a"): np.full(2, 3.0)}
    got = copy.deepcopy(want)
    for i, (k, j) in enumerate(keys):
        x = np.full(2, float(i))
        same(dict_ops(want, ops, x, k, j), f(got, ops, x, k, j), path=f"call {i}")
        same(want, got, path=f"dict after call {i}")


class FirstKeyLRU:
    """A plain-dict LRU of 3 that evicts ``next(iter(d))``; ``variant`` picks a
    neighbour: the first key deleted by the trace before it is read (read whole), two
    keys taken from one iterator (a break), ``next(iter(d), None)`` of a dict that may
    be empty, str keys (no changing int: read whole)."""

    def __init__(self, variant="lru"):
        self.cache, self.variant = {}, variant

    def get(self, x, k):
        key = f"k{k}" if self.variant == "str" else k
        if key in self.cache:
            y = self.cache.pop(key)
        else:
            y = x * k
        self.cache[key] = y
        if self.variant == "pop_first" and 1 in self.cache:
            self.cache.pop(1)
        if self.variant == "two":
            it = iter(self.cache)
            a = next(it)
            y = y + len(str(next(it, "")))
            return y - x + a
        if self.variant == "loop":
            total = 0
            for key in self.cache:     # a for loop reads the dict whole, as before
                total += key
            return y * total
        if self.variant == "maybe_empty":
            self.cache.clear() if k == 4 else None
            return y + (next(iter(self.cache), None) or 0)
        if len(self.cache) > 3:
            del self.cache[next(iter(self.cache))]
        return y - x


def test_lru_evicting_its_first_key():
    """``del d[next(iter(d))]`` reads the first key at the start (a changing int, guarded
    an int and distinct from the keys touched), not the key order: the LRU recompiles
    3 times over 12 calls, where it did 7 (its key order changes every call); the
    neighbours read the dict whole, as before, with eager's results and order."""
    for variant, most in (("lru", 3), ("pop_first", None), ("two", None), ("loop", None),
                          ("maybe_empty", None), ("str", None)):
        keys = [1, 2, 3, 1, 4, 2, 5, 1, 3, 3, 4, 5] if most else [1, 2, 3, 4, 2, 5]
        recompiles = _run(lambda v=variant: FirstKeyLRU(v), "get",
                          lambda i, ks=keys: (_x(i), ks[i]), len(keys), "eager")
        assert most is None or len(recompiles) <= most, \
            variant + "\n" + "\n".join(map(str, recompiles))


class MovedFirst:
    """An OrderedDict whose first key the trace changes before ``next(iter(...))``
    reads it: ``move_to_end(k, last=False)`` puts ``k`` first ("front"), and
    ``move_to_end`` of the first key puts the next one first ("back")."""

    def __init__(self, variant):
        self.cache, self.variant = collections.OrderedDict({1: 0.0, 2: 0.0}), variant

    def get(self, x, k):
        self.cache[k] = 1.0
        if self.variant == "front":
            self.cache.move_to_end(k, last=False)
        else:
            self.cache.move_to_end(1)   # (first at the first call, last after)
        first = next(iter(self.cache))
        if len(self.cache) > 3:
            del self.cache[first]
        return x * first


@pytest.mark.parametrize("variant", ["front", "back"])
def test_first_key_after_a_move(variant):
    """A key the trace moved is no first key read at the start: ``next(iter(od))``
    after ``move_to_end`` gives the key first after the move (the dict read whole,
    a break), where it gave the key first when the call began."""
    keys = [3, 4, 1, 5, 2, 6]
    _run(lambda: MovedFirst(variant), "get", lambda i: (_x(i), keys[i]), len(keys), "eager")
