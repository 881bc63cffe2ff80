"""Threads making a compiled function's first calls at once: what the hook generates
then (a cache's dispatcher that takes a list, the wrappers of an island's callees) is
published so that another thread never sees half of it (issue #17: one call in a
hundred raised ``TypeError: ___dispatch() missing 2 required positional arguments``
or ``KeyError: '___make'`` in a thread of a program whose loop breaks)."""

import sys
import threading

import numpy as np
from harness import same

import dynamo
from dynamo import hook, wrappers


def helper(y):
    return y * 2.0


def loop_helper(y, trips):
    i = 0
    while float(y[0]) < trips:   # reads array data: the loop runs as Python, calling helper
        y = helper(y) * 0.5 + 1.0
        i += 1
    return y, i


class _Watched(hook.CodeCache):
    """A cache that records, at each new dispatcher, whether ``boxed`` was set already."""

    def __init__(self, *args):
        self.seen = []
        super().__init__(*args)

    def rebuild(self, boxed=None):
        self.seen.append((boxed, self.boxed is not None))
        super().rebuild(boxed)


def test_the_dispatcher_that_takes_a_list_is_in_place_before_boxed_is_set():
    """``run_boxed`` reads ``cache.boxed`` without the lock and then calls
    ``cache.dispatch(fn, box)``: the list-taking dispatcher must come first."""
    ctx = hook.CompileContext(lambda gm, inputs: gm, "eager", convert_frame=None)
    cache = _Watched(helper.__code__, helper.__globals__, ctx)
    hook._set_boxed(cache, lambda code: code)
    assert cache.seen[-1] == (True, False)   # made to take a list, before boxed was set
    assert cache.boxed is not None


def test_making_a_wrapper_leaves_the_shared_scope_as_it_was():
    """The cache's scope is the globals of wrappers other threads are running; a
    definition put in it and taken out again would be taken by another thread."""
    scope = {"___make": "another thread's maker", "___dispatch": None,
             "__builtins__": __builtins__}
    src = wrappers._maker_source("___fn", "f", "x", ["return ___fn(x)"], "___e", "print")
    make = wrappers._make(src, "<dynamo test wrapper>", scope)
    assert make(abs)(-3) == 3
    assert scope == {"___make": "another thread's maker", "___dispatch": None,
                     "__builtins__": __builtins__}


def test_eight_threads_making_the_first_calls_at_once_all_get_the_result():
    expected = loop_helper(np.zeros(4), 40)
    errors, switch = [], sys.getswitchinterval()
    sys.setswitchinterval(1e-6)   # (switch threads as often as possible)
    try:
        for _ in range(25):
            f = dynamo.compile(loop_helper, backend="eager")
            results, start = [], threading.Barrier(8)

            def work(f=f, results=results, start=start):
                start.wait()
                try:
                    results.append(f(np.zeros(4), 40))
                except Exception as e:   # (a thread's exception would not reach pytest)
                    errors.append(e)
            threads = [threading.Thread(target=work) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert errors == []
            assert len(results) == 8
            for r in results:
                same(r, expected)
    finally:
        sys.setswitchinterval(switch)
