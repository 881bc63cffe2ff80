"""A ``deque(maxlen=n)`` of arrays that the frame fills and reads item by item (issue
#16): the entry made while it fills runs the frame's original code, guarded only by
``len(d) < maxlen``, and the call that finds it full compiles the entry that serves
every later call.

Read item by item (``[b for b in self.buf]``, ``sum(b * w for b in self.buf)``,
``zip(self.buf, weights)``), a deque is unrolled: the trace guards its length, and each
length while the deque fills was an entry of its own (``maxlen + 1`` compiles). A
length below ``maxlen`` lasts one call each while the frame appends, so those entries
never paid for themselves. Instead, where the deque was not full when the call started
and the trace only added items to it (so the next call finds it longer, until it is
full), the entry runs the frame's original code (``FillingRun``): every call before the
deque is full runs as plain Python, which is what eager does, results and state alike. Two
compiles in all, as for a window read whole (``deque_stacks``).

Example::

    def smooth(self, x):                      # self.buf = deque(maxlen=4), empty
        self.buf.append(x)
        return np.mean([b for b in self.buf], axis=0)

    # calls 0-3: one entry, len(self.buf) < 4: the original code runs
    # call 4 on: the deque is full: one compiled entry, len(self.buf) == 4

A frame that appends only on some calls, or pops on a path the first trace did not
take, may keep the deque below ``maxlen``: the entry counts its calls (``FillingRun``),
and where it has served more calls than the deque needed to fill and no compile has
seen the deque full, it leaves the cache and the frame compiles as before (an entry per
length), never making a filling entry for that deque again.

Not for: a deque the trace also pops or clears (an entry per length, as before), a deque
of no arrays, a resume function (its arguments come boxed), ``fullgraph=True`` (the
caller asked for a graph).
"""

from __future__ import annotations

import weakref

from dynamo.guards import EXPR, LENGTH, CheckFunction, Guard

from . import hook, logs
from .bytecode.resume import is_resume_code
from .exc import RerunEagerly
from .interrupt_locks import under_lock
from .variables.arrays import ArrayVariable
from .variables.deques import WRITES
from .variables.sequences import TupleVariable


def filling_entry(fn, output, params, record, ctx) -> hook.CacheEntry | None:
    """The entry that runs ``fn``'s original code while the deques it fills are not
    full (see the module doc), or None where the trace's own entry should be made."""
    code = fn.__code__
    if ctx.fullgraph or is_resume_code(code):
        return None
    state = _states.setdefault(ctx.cache_for(code, fn.__globals__), _State())
    state.full |= output.full_deques
    filling = {source: (maxlen, held) for source, (maxlen, held, arrays, var)
               in output.filling_deques.items() if _fills(var, arrays)}
    if not filling or filling.keys() & state.given_up:
        return None
    reach = {s for source in filling for s in _chain(source)}
    # the guards on the way to each deque (``type(self)``, ``type(self.buf)``): its
    # length and items are what this entry does not depend on
    guards = [g for g in output.guards.ordered()
              if g.source in reach and g.kind != LENGTH]
    for source, (maxlen, _) in filling.items():
        guards.append(Guard(source, EXPR, f"len({source.expr()}) < {maxlen}",
                            note=f"a deque of arrays filling to maxlen={maxlen}, read "
                                 f"item by item: the call runs uncompiled until it is "
                                 f"full (dynamo/filling_deques.py)"))
    check = CheckFunction(guards, params, fn.__code__.co_name, fn.__globals__,
                          has_closure=True)
    record.guards = guards
    record.check_source = check.source
    # what the trace read, for the next compile's policy (``convert._dynamic_policy``):
    # the numbers and lengths it saw change from here, as they would from its own entry
    record.traced_guards = output.guards.ordered()
    # (each call adds an item: full after maxlen - held calls, the last one included)
    budget = max(maxlen - held for maxlen, held in filling.values()) + 1
    run = FillingRun(state, frozenset(filling), budget, weakref.ref(ctx), code)
    return hook.CacheEntry(check, run, record)


class _State:
    """Per code object's cache: the deques a compile saw full, and those whose filling
    entry was given up (``FillingRun``)."""

    def __init__(self):
        self.full: set = set()
        self.given_up: set = set()


log_recompiles = logs.get("recompiles")
_states: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # CodeCache -> _State


class FillingRun:
    """The ``run`` of a filling entry: the call runs the frame's original code (it
    raises ``RerunEagerly``, which the dispatcher and ``hook.miss`` answer so). Past
    ``budget`` calls with no compile that saw the deques full, the frame does not fill
    them (it appends on some calls only, or pops): the entry leaves the cache, so the
    next call compiles as before, and the deques' filling entries are given up."""

    def __init__(self, state: _State, sources: frozenset, budget: int, ctx_ref, code):
        self.state, self.sources, self.budget = state, sources, budget
        self.ctx_ref, self.code = ctx_ref, code
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        if self.calls > self.budget and not self.sources <= self.state.full:
            self.state.given_up |= self.sources
            ctx = self.ctx_ref()
            cache = None if ctx is None else ctx.caches.get(self.code)
            if cache is not None:
                under_lock(hook._compile_lock, self._drop, cache)
                log_recompiles.debug(
                    "%s: %s did not fill to maxlen in %d calls (an append on some "
                    "calls only, or a pop): its entry that runs uncompiled is dropped, "
                    "the next call compiles an entry per length", cache.where,
                    ", ".join(sorted(s.name() for s in self.sources)), self.budget)
        raise RerunEagerly()

    def _drop(self, cache) -> None:
        entries = tuple(e for e in cache.entries if e.run is not self)
        if len(entries) != len(cache.entries):
            cache.entries = entries
            cache.rebuild()


def _fills(var, arrays: bool) -> bool:
    """Did the trace only add items to the deque (at least one), arrays among the
    items it held or added?"""
    added = [v for _, new in var.ops for v in new]
    return bool(added) and all(name in WRITES for name, _ in var.ops) and \
        (arrays or any(_is_array(v) for v in added))


def _is_array(var) -> bool:
    return isinstance(var, ArrayVariable) or isinstance(var, TupleVariable) and \
        any(isinstance(v, ArrayVariable) for v in var.items)


def _chain(source) -> list:
    """``source`` and the sources it is read through (``L['self'].buf``, ``L['self']``)."""
    found = []
    while source is not None:
        found.append(source)
        source = getattr(source, "base", None)
    return found
