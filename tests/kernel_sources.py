"""Test helper: the Numba kernel source tier 2 would compile for each graph of a program.

The native backend's tests ask "what did the lowering make of this graph?" (a loop, a
buffer, a BLAS call) or "did it refuse it?". ``LoweringRecorder`` is a backend that
lowers each graph it is given (``backends/native/lower.py``), keeps the kernel's source
or the ``Unsupported`` the lowering raised, and runs the graph eagerly, so the program's
results stay eager's whatever the lowering did. ``kernel_sources`` and
``kernel_source`` run a program once with it.

Worked example (a program of one graph)::

    >>> import numpy as np
    >>> source = kernel_source(lambda x: np.sqrt(x) + 1.0, np.ones(8))
    >>> "def kernel" in source
    True
    >>> kernel_sources(lambda x: np.sqrt(x) + 1.0, np.ones(8)) == [source]
    True

A refusal comes back as the ``Unsupported`` itself (``isinstance(got, Unsupported)``),
unless ``strict=True``, which fails the test naming it: for tests that only read the
source, a refusal is the failure.

Needs Numba: import this after ``pytest.importorskip("numba")``.
"""

from __future__ import annotations

import numpy as np

import dynamo


class LoweringRecorder:
    """A backend: each graph's kernel source (or the Unsupported its lowering raised) is
    appended to ``got``; the graph runs eagerly. ``parallel_min``: ``lower``'s threshold
    for ``prange`` loops (its default when None)."""

    def __init__(self, parallel_min: int | None = None):
        self.parallel_min = parallel_min
        self.got: list = []

    def __call__(self, graph, example_inputs):
        # imported here, not at the top: the native backend needs Numba, and a module
        # that only imports this one must still import without it
        from dynamo.backends.eager import eager
        from dynamo.backends.native.lower import Unsupported, lower
        args = () if self.parallel_min is None else (self.parallel_min,)
        try:
            self.got.append(lower(graph, *args).source)
        except Unsupported as e:
            self.got.append(e)
        return eager(graph, example_inputs)


def kernel_sources(fn, *args, strict: bool = False, parallel_min: int | None = None,
                   dynamic_shapes: bool = False) -> list:
    """Run ``fn`` compiled once on copies of its array arguments (the program may write
    them; the caller's stay as they were): each graph's kernel source or Unsupported, in
    the order the graphs were compiled. ``strict``: every graph must lower.
    ``dynamic_shapes``: the recorder takes unbacked numbers, as ``backend="native"``
    does (a Python number a loop node picks per trip: translator/picked_numbers.py)."""
    recorder = LoweringRecorder(parallel_min)
    recorder.dynamic_shapes = dynamic_shapes
    dynamo.compile(fn, backend=recorder)(*[a.copy() if isinstance(a, np.ndarray) else a
                                          for a in args])
    if strict:
        refused = [g for g in recorder.got if not isinstance(g, str)]
        assert not refused, refused
    return recorder.got


def kernel_source(fn, *args):
    """The kernel source of ``fn``'s one graph, or the Unsupported it raised."""
    got = kernel_sources(fn, *args)
    assert len(got) == 1, got
    return got[0]
