"""Loop nodes: ``for i in range(...)`` as one graph op that runs a body graph.

A loop the translator could trace once with a symbolic index (see
``dynamo/translator/loops.py``) becomes two kinds of node in the graph::

    def fori_loop_body(trips, A, B, W):     # the loop, with the body inlined
        for trip in range(trips):
            ...
            A, B, = (A_1, B_1,)
        return (A, B, )
    fori_loop = ops.fori_loop(fori_loop_body, 799, (A, B), (W,))
    A_2 = ops.getitem(fori_loop, 0)         # an array the loop rebinds
    B_2 = ops.after_loop(B, fori_loop)      # an array the loop writes in place

``fori_loop(body, trips, carried, free)`` runs ``body(trips, *carried, *free)``: the
body graph compiled *with the loop inside it* (``Graph.python_code`` prints it so, the
numpy backend generates it so), which runs its ops for ``trip`` = 0, 1, ...,
``trips - 1`` (at least one) and returns the carried values after the last trip,
then the loop's temporaries (``row`` in ``for row in x``) as that trip left them. A
call per trip would cost more than a small body. The body computes the loop's own
index from ``trip`` (``i = 1 + trip`` for ``range(1, 800)``). ``free`` are values from
before the loop that the body reads and never changes.

``after_loop(x, loop)`` is ``x`` itself, once the loop has run: it is how the graph
says "this array was written in place by that loop" (a mutation of ``x``, so passes
and backends keep it in order and know whose memory it is).

Example::

    >>> def body(trips, acc):
    ...     for trip in range(trips):
    ...         acc = acc + trip
    ...     return (acc,)
    >>> fori_loop(body, 4, (0,), ())
    (6,)
"""

from __future__ import annotations

import numpy as np

from .registry import MUTATION, OPAQUE, OpDef, register


def fori_loop(body, trips: int, carried: tuple, free: tuple) -> tuple:
    return body(trips, *carried, *free)


def fori_loop_rule(op, args, kwargs):
    raise TypeError("fori_loop nodes are made by the translator, not by op calls")


def after_loop(x, loop):
    return x


def after_loop_rule(op, args, kwargs):
    return args[0]


def while_loop(body, keep: bool, cond, carried: tuple, free: tuple,
               trips: int | None = None, count: bool = False, least: int = 0,
               indexed: bool = False) -> tuple:
    """``while bool(cond) == keep:`` run ``body(*carried, *free)``, which gives the
    next carried values and the next test: a ``while`` loop whose exit the data
    decides (``while err > tol:``). ``bool`` of the 0-d test, as Python takes it (NaN
    is true; ``nan > tol`` is false). ``trips``: at most that many trips (a ``for``
    loop over a range that ends with ``if <test>: break``). Returns the carried values
    after the last trip (those it got where no trip runs), and with ``count`` an
    empty array of shape ``(trips taken, 0)``: the number of trips as a size, which
    the frame reads off it when the graph runs (the loop variable after the loop).
    ``least``: the first that many trips run whatever the test says (``while err > tol
    or it < miniter:``, translator/or_counter_tests.py); the test is still computed
    on each, as Python computes it first. ``indexed``: the body takes the number of
    trips before it first, a Python int (a counter it reads as a number, ``x + h * i``:
    translator/while_trip.py).

    ``carried`` may be a list the caller hands over: the loop empties it, so the caller
    holds no initial value while the trips run (the numpy backend's generated code,
    ``codegen._hands_over``). A body with ``__dynamo_unread__`` (carried slots whose
    inputs it never reads: ``passes.loops.compile_loop_bodies``) gets ``None`` there,
    so the loop does not hold the trip before's value while the trip runs.

    >>> while_loop(lambda x: (x * 2, x * 2 < 50), True, True, (3,), ())
    (96,)
    >>> while_loop(lambda x: (x * 2, x * 2 < 50), True, True, (3,), (), 2, True)[1].shape
    (2, 0)
    >>> while_loop(lambda x: (x * 2, x * 2 > 50), True, False, (3,), (), None, False, 2)
    (12,)
    >>> while_loop(lambda t, x: (x + t, x + t < 5), True, True, (0,), (), None, False, 0,
    ...            True)
    (6,)
    >>> def body(x, edges):        # reads x only: edges is its next value
    ...     return x + 1, x * 10, x < 3
    >>> body.__dynamo_unread__ = (1,)
    >>> handed = [0, "edges before the loop"]
    >>> while_loop(body, True, True, handed, ()), handed
    ((4, 30), [])
    """
    taken = 0
    if type(carried) is list:   # handed over (generated code): the caller keeps none
        carried, handed = carried[:], carried
        handed.clear()
    else:
        carried = list(carried)
    # (the slots its body never reads go before each trip, as Python frees a name's old
    # value when the trip stores it anew: not held while the trip makes the next one)
    unread = getattr(body, "__dynamo_unread__", ())
    while (bool(cond) is keep or taken < least) and (trips is None or taken < trips):
        taken += 1
        for k in unread:
            carried[k] = None
        *carried, cond = body(taken - 1, *carried, *free) if indexed else \
            body(*carried, *free)
    return (*carried, np.empty((taken, 0), np.bool_)) if count else tuple(carried)


def while_loop_rule(op, args, kwargs):
    raise TypeError("while_loop nodes are made by the translator, not by op calls")


register(OpDef("while_loop", while_loop, while_loop_rule, OPAQUE, cupy=while_loop, effect=True,
               doc="a `while` loop on a 0-d array test: the body graph until the test fails"))
register(OpDef("fori_loop", fori_loop, fori_loop_rule, OPAQUE, cupy=fori_loop, effect=True,
               doc="a `for` loop over a range: the body graph once per index"))
register(OpDef("after_loop", after_loop, after_loop_rule, MUTATION, cupy=after_loop,
               doc="an array after a loop that writes it in place (the array itself)"))
