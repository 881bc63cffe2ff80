"""``collections.defaultdict`` in compiled code (issue #16): a metrics dict of lists
(``metrics["loss"].append(loss)``), counters (``counts[w] += 1``), accumulators made by
a lambda or a class. ``d[k]`` of a missing key calls the factory exactly as Python
does (only on a miss, the key last in the order, ``None`` a ``KeyError``, a factory
that raises raising there); ``get``, ``in``, ``setdefault`` and ``pop`` never call it;
no guard reads an item in a way that would (``StoredItemSource``). Each sequence of
calls runs plainly and compiled side by side on equal dicts: results, raised errors,
the dicts left behind (keys in order, values, type, factory) agree, and compiles are
counted.
"""

import collections
from collections import defaultdict

import numpy as np
import pytest
from harness import outcome, same, same_outcome
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo

BACKENDS = ["eager", "numpy"]
KEYS = ["a", "b", "c", 1]


class Acc:
    def __init__(self):
        self.n = 0


def _zeros():
    return np.zeros(2)


def _refuse():
    raise ValueError("no default here")


def _same_dicts(want, got, label):
    assert type(got) is type(want), f"{label}: type {type(got)}"
    assert got.default_factory is want.default_factory, f"{label}: factory"
    same(dict(want), dict(got), path=label)


class Trainer:
    def __init__(self):
        self.w = np.zeros(4)
        self.metrics = collections.defaultdict(list)

    def step(self, x, lr):
        loss = np.mean((x @ self.w - 1.0) ** 2)
        self.w = self.w - lr * x.sum(axis=0)
        self.metrics["loss"].append(loss)
        self.metrics["lr"].append(lr)
        return loss


@pytest.mark.parametrize("backend", BACKENDS)
def test_metrics_of_lists_compile_once_more(backend):
    """The first call adds the keys (the factory runs in the graph's trace), the second
    sees them and a changed lr: one recompile, then every step is served."""
    eager, compiled = Trainer(), Trainer()
    dynamo.reset()
    with dynamo.explain(compiled.step, backend=backend) as f:
        for i in range(8):
            x = np.full((3, 4), 0.1 * (i + 1))
            same(eager.step(x, 0.1 / (i + 1)), f(x, 0.1 / (i + 1)), 1e-12, path=f"step {i}")
    _same_dicts(eager.metrics, compiled.metrics, "metrics")
    same(eager.w, compiled.w, 1e-12)
    recompiles = [r for r in f.report.recompiles if r.call >= 1]
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))
    assert f.report.graph_break_count == 0


READS = ("read", "get", "in", "setdefault", "pop")


def read_op(d, kind, key, x):
    """The result of one of the ``READS`` by name (``x`` the value ``setdefault``
    stores), called from the functions under test here and in test_unread_dicts.py,
    whose traces inline it: ``read_op({"a": 1}, "pop", "a", 0)`` is 1 and leaves ``{}``;
    ``"read"`` of a missing key raises as ``d[key]`` does (a defaultdict's factory runs)."""
    if kind == "read":
        return d[key]
    if kind == "get":
        return d.get(key)
    if kind == "in":
        return key in d
    if kind == "setdefault":
        return d.setdefault(key, x)
    return d.pop(key, None)


def bump(d, ops, x):
    """A sequence of dict operations (hypothesis picks them); ``bump`` is the
    factory's own way to change a value."""
    out = []
    for kind, key in ops:
        try:
            if kind == "bump":
                value = d[key]
                if isinstance(value, list):
                    value.append(x)
                elif isinstance(value, Acc):
                    value.n += 1
                else:
                    d[key] += x
            elif kind in READS:
                out.append(read_op(d, kind, key, x))
        except (KeyError, ValueError) as e:
            out.append((type(e).__name__, e.args))
    return out, len(d)


FACTORIES = [list, int, float, _zeros, Acc, None, _refuse, lambda: 7]
OPS = st.lists(st.tuples(st.sampled_from(["bump", "read", "get", "in", "setdefault",
                                          "pop"]),
                         st.sampled_from(KEYS)), max_size=6)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FACTORIES),
       st.dictionaries(st.sampled_from(KEYS), st.integers(-3, 3), max_size=2),
       st.lists(OPS, min_size=2, max_size=4),
       st.sampled_from(BACKENDS))
def test_operations_equal_python(factory, start, calls, backend):
    """Misses and hits, reads and writes, a None or raising factory, over several
    calls on the same dict: as Python."""
    def x():   # (an array each side and call of its own: ``+=`` writes into it)
        return np.ones(2) if factory is _zeros else 2.5 if factory is float else 3
    plain = defaultdict(factory, start)
    traced = defaultdict(factory, start)
    dynamo.reset()
    compiled = dynamo.compile(bump, backend=backend)
    for i, ops in enumerate(calls):
        with np.errstate(all="ignore"):
            want = outcome(bump, (plain, tuple(ops), x()))
            got = outcome(compiled, (traced, tuple(ops), x()))
        same_outcome(want, got, f"call {i}")
        _same_dicts(plain, traced, f"dict after call {i}")


def count_words(words, x):
    counts = defaultdict(int)
    for w in words:
        counts[w] += 1
    return x * counts["a"], counts


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=6), st.sampled_from(BACKENDS))
def test_a_defaultdict_made_in_the_function(words, backend):
    """``defaultdict(int)`` built by the trace: rebuilt as a defaultdict with its
    factory and its keys in the program's order (``counts["a"]`` adds "a" last where
    it was missing)."""
    dynamo.reset()
    compiled = dynamo.compile(count_words, backend=backend)
    x = np.arange(3.0)
    want, got = count_words(tuple(words), x), compiled(tuple(words), x)
    same(want[0], got[0])
    _same_dicts(want[1], got[1], "counts")
    assert list(got[1]) == list(want[1])


def make_counted():
    made = []

    def factory():
        made.append(1)
        return 0
    return defaultdict(factory), made


def add_twice(d, k, j):
    d[k] += 1
    d[j] += 2
    return d.get("never"), "never" in d


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_factory_runs_only_on_a_miss(backend):
    (plain, made_plain), (traced, made_traced) = make_counted(), make_counted()
    dynamo.reset()
    compiled = dynamo.compile(add_twice, backend=backend)
    for k, j in [("a", "a"), ("a", "b"), ("c", "a"), ("b", "b")]:
        same(add_twice(plain, k, j), compiled(traced, k, j))
        same(dict(plain), dict(traced))
        assert len(made_traced) == len(made_plain), (k, j, made_plain, made_traced)


def peek(d):
    return d.get("a"), len(d)


def test_no_check_runs_the_factory():
    """An entry traced with the key "a" reads its item in its checks; a later dict
    without "a" must miss without getting "a" inserted (a plain ``d['a']`` in the
    check would run the factory), also where ``explain`` says why it missed."""
    dynamo.reset()
    with dynamo.explain(peek, backend="eager") as compiled:
        compiled(defaultdict(list, {"a": [1]}))
        empty = defaultdict(list)
        same(peek(defaultdict(list)), compiled(empty))
        assert dict(empty) == {}, dict(empty)
    assert compiled.report.compile_count == 2


def copy_and_merge(d, k):
    c = d.copy()
    c[k] += 1
    return c, d.default_factory


def test_copy_keeps_the_factory():
    d = defaultdict(int, {"a": 1})
    compiled = dynamo.compile(copy_and_merge, backend="eager")
    want, got = copy_and_merge(defaultdict(int, {"a": 1}), "b"), compiled(d, "b")
    _same_dicts(want[0], got[0], "copy")
    assert got[1] is int and dict(d) == {"a": 1}


def union(d):
    return d | {"q": 1}


def test_union_is_a_break_with_pythons_result():
    with dynamo.explain(union, backend="eager") as compiled:
        got = compiled(defaultdict(int, {"a": 1}))
    _same_dicts(union(defaultdict(int, {"a": 1})), got, "union")
    assert any("| of a defaultdict" in str(b) for b in compiled.report.break_reasons)

