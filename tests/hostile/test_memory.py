"""Memory a hostile user can make grow (issue #17, items 14 and 15): generated sources in
``linecache`` stay bounded by what the caches hold, for compiled-and-dropped functions
and for one function called with ever new sizes; the trace keeps no argument alive.
(The numpy backend's thread pool and the last input: tests/backends/numpy_backend/
test_numpy_never_wrong.py, ``test_no_argument_is_kept_alive``.)"""

import gc
import linecache
import weakref

import numpy as np
import pytest
from dynamo.backends.numpy_backend.sizes import MAX_SIZES

import dynamo
from dynamo import source


def generated_entries() -> int:
    return sum(1 for k in list(linecache.cache) if k.startswith("<dynamo"))


def affine(x):
    return np.exp(x) * 2 + 1


def make_closure(k):
    def f(x):
        y = x + k
        print(end="")          # a graph break: glue, resume function, two graphs
        return y * 2
    return f


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_compiled_and_dropped_functions_leave_nothing(backend, capsys):
    """250 of them: a leak of one source per compile would leave 250 (the issue showed
    1000 closures leaving 2,000 entries); the bound is what the caches hold now."""
    gc.collect()
    before, registered = generated_entries(), source.registered_count()
    x = np.ones(3)
    for k in range(250):
        compiled = dynamo.compile(make_closure(k), backend=backend)
        compiled(x)
        del compiled
    gc.collect()
    assert generated_entries() - before <= 10
    assert source.registered_count() - registered <= 10


@pytest.mark.parametrize("backend,bound", [("eager", 10), ("numpy", MAX_SIZES + 10)])
def test_ever_new_sizes_leave_a_bounded_cache(backend, bound):
    compiled = dynamo.compile(affine, backend=backend)
    compiled(np.ones(2))
    gc.collect()
    before = generated_entries()
    for n in range(3, 3 + 2 * MAX_SIZES + 40):    # more sizes than the numpy backend keeps
        compiled(np.ones(n))
    gc.collect()
    assert generated_entries() - before <= bound


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_the_traced_call_keeps_no_argument_alive(backend):
    class Box:
        pass

    def f(x, box):
        box.seen = True
        return x * 2

    compiled = dynamo.compile(f, backend=backend)
    for _ in range(2):   # the call that traces (no gc.collect needed), then a cached one
        x, box = np.ones(1000), Box()
        refs = weakref.ref(x), weakref.ref(box)
        compiled(x, box)
        del x, box
        assert [r() for r in refs] == [None, None]
