"""Whether a call of a compiled function runs compiled or as the plain function, chosen
by timing both ways on its first calls (``EntryTrial``), as ``callee_trial`` chooses
for a helper an island calls and ``outline_trial`` for a loop.

A compiled call has a fixed cost (the frame entry, the guards, the graph's call: 1.5-5
us, ``scripts/call_cost_breakdown.py``) that a program of a few microseconds does not
win back: issue #16's stateful corpus 12 (programs of 2-30 us) ran 0.52-0.56x plain
per call. Which is faster depends on the inputs, which no rule read off the trace can
tell, so ``dynamo.compile(fn)``'s call slot (``api.OptimizedFunction``) holds a trial
after it is made, whose calls go::

    compiled (untimed: it compiles), compiled, compiled (timed, "the probes": both
    over ``LONG``, a second, end the trial at once, compiled: a plain call would cost
    seconds; over ``SHORT`` the compiled way first runs ``SETTLE`` timed calls, so
    that the trials inside it choose), plain (untimed), then plain, compiled, plain,
    ...   (timed)

until each way has ``config.entry_trial_calls`` timed calls (and, where the two
ways' least times are within ``CLOSE`` of each other, until the timed calls have taken
``SPEND`` seconds in all or each way has ``MOST``: the least of three calls did not
tell near-ties apart), or one way's best is ``outline_trial.HOPELESS`` times the
other's. A timed compiled call that compiled something (``compiled_state`` changed: a
recompile, a resume function's first call) is not counted (nor its time toward
``SPEND``), unless the way compiles on that many calls (a program that recompiles on
every call: its compiled calls cost that). The way with the least time per call
(``time.perf_counter``, the least of each way's calls, as ``callee_trial`` times) then
owns the slot, the plain way only where it is faster by ``MARGIN`` (a near-tie keeps
the compiled way): the compiled way is the frame entry itself, as with no trial; the
plain way is ``plain_way``'s function, which calls the function as it is and times
one call in ``SAMPLE``: a sampled call ``GROWN`` times slower than the trial's best
plain call (the inputs grew), or ``RECHECK`` calls, start a new trial. The ``backend``
log says which way won and the two times. Both ways run the user's function (the plain
way IS it; the compiled way its graph, exact by the project's rules), so results,
printed output, writes and exceptions are the same whichever runs a call. A function
that calls itself runs compiled (the plain way, a wrapper, would spend two frames a
level where plain Python spends one). ``dynamo.reset()`` starts every trial again.

Only where it can matter: the ``numpy`` and ``auto`` backends (``TRIAL_BACKENDS``),
not ``fullgraph=True`` (the program asked for the graph), not generators or
coroutines (a call only makes the generator), not ``eager`` (a debugging baseline),
``native`` (chosen by name: its tiers race each other), CuPy, CUDA Graphs, dask or a
user's backend (their time is not the host's time of a call; ``auto``'s first call
with a CuPy array among its arguments ends the trial, compiled). On ``auto`` where
Numba is importable (its graphs run the native tiers) the trial first waits until
its calls run no graph whose tier 2 is still counting, compiling or racing
(``entry_wait.py``; ``waits``), and waits again when a timed compiled call does.

Example (the clock injected: each call "takes" the time its way says)::

    >>> now = [0.0]
    >>> def way(cost):
    ...     def run(x):
    ...         now[0] += cost
    ...         return x * 2
    ...     return run
    >>> slots = EntrySlots(None, way(3e-6), way(1e-6), "f", calls=2,
    ...                    clock=lambda: now[0])
    >>> [slots.current(i) for i in range(7)]   # C, C, C (the probes), P, P, P; plain
    [0, 2, 4, 6, 8, 10, 12]
    >>> trial = slots.trial            # plain 3x faster (not close): 2 timed calls each
    >>> trial.way, {way: round(t * 1e6) for way, t in trial.best.items()}   # (us)
    ('plain', {'outlined': 3, 'plain': 1})
    >>> slots = EntrySlots(None, way(2.0), way(1e-6), "g", calls=2,
    ...                    clock=lambda: now[0])
    >>> [slots.current(i) for i in range(4)]   # C, C, C: 2 s, over LONG; compiled
    [0, 2, 4, 6]
    >>> slots.trial.way, slots.current is slots.compiled
    ('outlined', True)
"""

from __future__ import annotations

import inspect
import itertools
import sys
import threading
import time
import types
import weakref
from collections.abc import Callable

from . import listeners, logs, tier_reports
from .callee_trial import COMPILED, PLAIN, RECHECK
from .entry_wait import for_plain_call, on_stack, waiting_way
from .outline_trial import HOPELESS, next_way
from .source import compile_source
from .wrappers import _free_name

# A timed compiled call longer than this ends the trial, compiled: the trial's plain
# calls would cost seconds each. Below it every program is tried, long ones too: a
# graph can lose to plain NumPy at any size (a loop node slower than the Python loop
# it replaces: tier 1's triangular loops ran 0.60-0.68x plain on a changing size,
# back to 1.0x tried, while corpus 13's Sobel stayed compiled at 1.8x; issue #15's "never
# slower than the NumPy it replaces"), and the fixed costs are only one reason.
LONG = 1.0
# A compiled way whose probes took over SHORT runs SETTLE timed calls before the first
# plain call: its first calls run the trials inside it (``outline_trial``'s loops run
# both ways on their first 3 + 3 calls, ``callee_trial``'s helpers), slower than it
# will run once they have chosen, so timed against plain then it lost where it wins
# (corpus 14's GC skew: plain chosen, compiled 1.15x plain once settled). A way of a
# few microseconds has no such trials worth the calls (issue #16's corpus 12).
SHORT = 200e-6
SETTLE = 12
# The compiled calls timed before the first plain call: each over LONG ends the trial
# (two: one call can be slow for a reason of its own, a variant's first call, a
# preemption, and a compiled way chosen so stays, until dynamo.reset())
PROBES = 2
# The plain way times one call in this many (a power of two: a mask tests it) ...
SAMPLE = 64
# ... and a sampled call this many times slower than the trial's best plain call
# means the inputs changed: the way is chosen again (a preempted call does that too,
# at the cost of one trial).
GROWN = 4.0
# Where the two ways' least times are within CLOSE of each other (plain at 0.8-1.25x
# the compiled way's), the trial's timed calls go on (past ``config.entry_trial_calls``
# each) until they have taken SPEND seconds in all, or each way has MOST calls: the
# least of three calls picked the slower way of four near-ties of issue #16's corpus
# 12 (0.97x plain where compiled ran 1.01-1.07x). Only there: a trial call costs 3-8
# us over its way (the bookkeeping), so timing 32 calls each of every program made
# corpus 12's calls 3-20 0.43x plain against 0.58x with no trial.
CLOSE = 0.8
SPEND = 1e-3
MOST = 32
# The plain way wins only where its least call is under MARGIN times the compiled
# way's: the trial's calls, the two ways interleaved, read both slower than each runs
# alone, and not by the same factor (greedy_length_penalty, corpus 12: plain 6-8%
# faster in the trial, 24 us against 26, a tie at 21 us once one way runs), a least
# time still jitters by a few percent on a loaded machine, and the plain way has costs
# the trial does not see (its sampled calls, the re-trials); so within 10% the
# compiled way (what runs with no trial) stays.
MARGIN = 0.9
TRIAL_BACKENDS = frozenset({"numpy", "auto"})
# code whose call only makes a generator or coroutine: no trial
_LAZY = (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ITERABLE_COROUTINE |
         inspect.CO_ASYNC_GENERATOR)

log = logs.get("backend")
_counter = itertools.count()
# every compiled function's slots, for ``reset_all``
_ALL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def entry_for(owner, fn: types.FunctionType, call: Callable, settings,
              calls: int) -> Callable:
    """What ``owner``'s call slot holds: ``call`` (the compiled entry) itself where no
    trial is wanted (see the module doc), else the first trial's."""
    backend = settings.backend
    if (calls == 0 or call is fn or settings.fullgraph or not isinstance(backend, str)
            or backend not in TRIAL_BACKENDS or fn.__code__.co_flags & _LAZY):
        return call
    waits = False
    if backend == "auto":
        from dynamo.backends.auto import numba_importable
        waits = numba_importable()   # (auto runs native tiers: see the module doc)
    slots = EntrySlots(owner, call, fn, fn.__qualname__, calls,
                       ctx=getattr(owner, "_dynamo_ctx", None), waits=waits)
    _ALL[owner] = slots
    return slots.current


def follow(owner, method) -> None:
    """``method`` (a compiled bound method, ``compiled_methods.OptimizedMethod``) binds
    ``owner``'s call: it gets each way installed from now on."""
    slots = _ALL.get(owner)
    if slots is not None:
        slots.methods.add(method)


def reset_all() -> None:
    """``dynamo.reset()``: every compiled function times both ways again."""
    for slots in list(_ALL.values()):
        slots.waits, slots.counted = slots.waits_at_first, 0
        slots.restart()


class EntrySlots:
    """The ways of one compiled function and where they are installed: ``owner``'s
    call slot (an ``OptimizedFunction``; None in the example) and its bound methods
    (``follow``). ``current``: what is installed now (a trial, ``compiled``, the plain
    way or the wait); ``trial``: the last trial; ``waits``: a trial waits first for
    the native tiers to settle (``entry_wait.py``; ``counted``: its calls that only
    counted)."""

    def __init__(self, owner, compiled: Callable, fn: Callable, where: str, calls: int,
                 clock: Callable[[], float] = time.perf_counter, ctx=None,
                 spend: float | None = None, waits: bool = False):
        self.owner = weakref.ref(owner) if owner is not None else lambda: None
        self.methods: weakref.WeakSet = weakref.WeakSet()
        self.compiled, self.fn, self.where, self.calls, self.clock, self.ctx = \
            compiled, fn, where, calls, clock, ctx
        self.spend = SPEND if spend is None else spend   # (see SPEND)
        self._plain: Callable | None = None   # the plain way, made when it first wins
        self._attrs = dict(getattr(fn, "__dict__", {}))   # (see api: call.__dict__)
        self.waits = self.waits_at_first = waits
        self.counted = 0
        self._waiting = waiting_way(self) if waits else None
        self.trial = EntryTrial(self)
        self.current: Callable = self._waiting if waits else self.trial
        _listen()

    def install(self, old: Callable, new: Callable) -> None:
        """Put ``new`` where ``old`` is installed (nothing where a program or dynamo
        put something else since: a frame reader's ``fn``, a replaced code's entry)."""
        owner = self.owner()
        if owner is not None:
            slot = vars(type(owner))["__call__"]
            if slot.__get__(owner) is not old:
                return
            slot.__set__(owner, new)
        self.current = new
        for method in list(self.methods):
            bound = method.__call__
            if getattr(bound, "__func__", None) is old:
                method.__call__ = types.MethodType(new, bound.__self__)

    def restart(self, old: Callable | None = None) -> None:
        """A new trial in place of ``old`` (default: what is installed)."""
        old = self.current if old is None else old
        self.trial = EntryTrial(self)
        self.install(old, self._waiting if self.waits else self.trial)

    def plain_way(self, best: float | None) -> Callable:
        """The plain way (see ``plain_way``) for a trial whose best plain call took
        ``best`` seconds (None: not yet known). Made once, on the first call (which
        compiles: its source compiled is about 0.2 ms), its sampler set again for each
        trial that it wins."""
        if self._plain is None:
            self._plain = plain_way(self.fn, _Sampler(self, best or 0.0), self._attrs)
        if best is not None:   # (installed now: count its calls from here)
            self._plain.__sampler__.restart(best)
            counter = self._plain.__code__.co_freevars.index(self._plain.__count__)
            self._plain.__closure__[counter].cell_contents = 0
        return self._plain


class EntryTrial:
    """A compiled function's call while its trial runs (see the module doc): ``way`` is
    None, then ``COMPILED`` or ``PLAIN``; ``best``: each way's least time."""

    def __init__(self, slots: EntrySlots):
        self.slots, self.calls, self.clock = slots, slots.calls, slots.clock
        self.times: dict[str, list] = {COMPILED: [], PLAIN: []}
        # kept as the calls come (a trial of 2 x MOST calls reads them on each call)
        self.timed = {COMPILED: 0, PLAIN: 0}                      # timed calls counted
        self.least = {COMPILED: float("inf"), PLAIN: float("inf")}
        self.spent = 0.0                                          # in all of them
        self.way: str | None = None
        self.best: dict[str, float | None] = {}
        self.compiling = 0   # timed compiled calls that compiled (not counted)
        self._inside = threading.local()   # .calls: this thread's calls running now
        self._lock = threading.Lock()
        # the function's attributes, as each way carries them, except where one has the
        # name of the trial's own (a counter ``f.calls`` kept on the function must not
        # become this trial's ``calls``: its trial would never end)
        for name, value in slots._attrs.items():
            self.__dict__.setdefault(name, value)

    def __call__(self, *args, **kwargs):
        inside = self._inside
        if self.way is None and getattr(inside, "calls", 0):
            # it calls itself: the plain way would spend two frames a level (a
            # wrapper's and its own) where plain Python and the compiled way spend one
            self._decide(COMPILED, "it calls itself")
        way, untimed = self.way, True
        if way is None:
            with self._lock:
                way, untimed = self._next()
            if untimed and way == COMPILED and _on_device(args, kwargs):
                self._decide(COMPILED, "an argument is a device array")
        # (else a caller kept this object: the install did not reach it)
        # the plain way as it would run (its wrapper's cost counted, not fn's alone)
        run = self.slots.compiled if way == COMPILED else self.slots.plain_way(None)
        # (a compiled call that compiles is no measure of the compiled way's calls)
        before = compiled_state(self.slots.ctx) if way == COMPILED and not untimed \
            else None
        reported = tier_reports.now() if before is not None and self.slots.waits else None
        inside.calls = getattr(inside, "calls", 0) + 1
        start = self.clock()
        try:
            out = run(*args, **kwargs)
        except BaseException as exc:
            if not untimed:   # (timed too: a function whose calls all raise ends it)
                self._record(way, self.clock() - start, before)
            for_plain_call(exc)
            raise
        finally:
            inside.calls -= 1
        if reported is not None and self.way is None and tier_reports.now() != reported:
            self.slots.restart(self)   # a tier not settled: wait again (entry_wait.py)
        elif not untimed:
            self._record(way, self.clock() - start, before)
        elif way == COMPILED and self.way is None:   # (the call that compiled: the
            self.slots.plain_way(None)                # plain way's code too)
        return out

    def _next(self) -> tuple[str, bool]:
        """The way of the next call and whether it goes untimed (claimed here, under
        the lock: a call in another thread meanwhile runs the other way)."""
        compiled = self.times[COMPILED]
        if not compiled:
            compiled.append(None)
            return COMPILED, True
        if self.timed[COMPILED] < PROBES:   # a long compiled way needs no plain call
            return COMPILED, False
        if self.timed[COMPILED] < SETTLE and self.least[COMPILED] > SHORT:
            return COMPILED, False   # (its own trials first: see SETTLE)
        way = next_way(self.times, COMPILED)
        if self.times[way]:
            return way, False
        self.times[way].append(None)
        return way, True

    def _record(self, way: str, spent: float, before: int | None) -> None:
        """Record a timed call of ``way`` that took ``spent`` seconds; ``before``: the
        compiled state before a compiled call (``compiled_state``). A call that
        compiled a frame (a recompile) is not counted, unless the way compiled on
        ``calls`` calls, as a program that recompiles on every call does."""
        compiled = before is not None and changed(before, compiled_state(self.slots.ctx))
        with self._lock:
            if self.way is not None:
                return
            if compiled:
                self.compiling += 1
                if self.compiling <= self.calls:
                    return
            self.times[way].append(spent)
            self.timed[way] += 1
            self.least[way] = min(self.least[way], spent)
            if not compiled:   # (a compile's milliseconds would end the trial early)
                self.spent += spent
            long = way == COMPILED and self.timed[COMPILED] >= PROBES and \
                self.least[COMPILED] > LONG and \
                self.compiling <= self.calls   # (no recorded call compiled)
            if not long and not enough(self.timed, self.least, self.spent, self.calls,
                                       self.slots.spend):
                return
            won = COMPILED if long else faster(self.least)
            self.best = {w: t if t < float("inf") else None for w, t in self.least.items()}
            self.way = won
        if long:
            self._end(COMPILED, f"a call took {spent * 1e6:.0f} us compiled: over "
                                f"{LONG:g} s; no plain call timed")
            return
        best = self.best
        self._end(won, f"{best[COMPILED] * 1e6:.2f} us a call compiled, "
                       f"{best[PLAIN] * 1e6:.2f} us plain; the least of "
                       f"{self.timed[COMPILED]} and {self.timed[PLAIN]} timed calls")

    def _decide(self, won: str, why: str) -> None:
        """End the trial with ``won`` before its timed calls."""
        with self._lock:
            if self.way is not None:
                return
            self.way = won
        self._end(won, why)

    def _end(self, won: str, why: str) -> None:
        """Say which way won (the ``backend`` log), and install it."""
        slots = self.slots
        log.debug("%s: its calls run %s (%s)", slots.where,
                  "compiled" if won == COMPILED else "plain", why)
        slots.install(self, slots.compiled if won == COMPILED else
                      slots.plain_way(self.best[PLAIN]))

    def __repr__(self) -> str:
        return f"<entry trial of {self.slots.where}: {self.way or 'running'}>"


def enough(timed: dict, least: dict, spent: float, calls: int, spend: float) -> bool:
    """Whether the trial has what it needs, from each way's count of timed calls
    (``timed``) and least time (``least``; inf: none yet) and the seconds they took in
    all (``spent``): one way ``HOPELESS`` against the other, or ``calls`` timed calls of
    each, and where the two are ``CLOSE``, ``spend`` seconds in all or ``MOST`` of each.

        >>> timed, least = {"outlined": 2, "plain": 2}, {"outlined": 3e-6, "plain": 1e-6}
        >>> enough(timed, least, 8e-6, 2, 1e-3)              # apart: 2 calls each do
        True
        >>> least = {"outlined": 3e-6, "plain": 2.8e-6}      # close: more calls
        >>> enough(timed, least, 12e-6, 2, 1e-3), enough(timed, least, 1e-3, 2, 1e-3)
        (False, True)
    """
    a, b = least.values()
    if max(a, b) > HOPELESS * min(a, b) and max(a, b) < float("inf"):
        return True
    fewest = min(timed.values())
    if fewest < calls:
        return False
    compiled, plain = least[COMPILED], least[PLAIN]
    close = CLOSE * compiled <= plain <= compiled / CLOSE
    return not close or fewest >= MOST or spent >= spend


def faster(least: dict) -> str:
    """The way that stays, from each way's least time: ``PLAIN`` where its least call
    is under ``MARGIN`` times the compiled way's, else ``COMPILED``.

        >>> faster({"outlined": 2.0e-6, "plain": 1.85e-6})
        'outlined'
        >>> faster({"outlined": 2.0e-6, "plain": 1.7e-6})
        'plain'
    """
    return PLAIN if least[PLAIN] < MARGIN * least[COMPILED] else COMPILED


def _on_device(args: tuple, kwargs: dict) -> bool:
    """Whether an argument is a CuPy array (found by its type's module: CuPy is not
    imported here)."""
    return any(type(v).__module__.startswith("cupy") for v in (*args, *kwargs.values()))


class _FramesConverted:
    """A compile listener (``dynamo.listeners``) that counts the frames
    ``convert.convert_frame`` starts on, in every context and thread: a call during
    which the count changed traced something (a recompile, a resume function's first
    call, a frame given up on). Added once, with the first trial: read on each timed
    compiled call, a counter costs nothing, where reading each code cache's entries
    cost 2-5 us a call (a trial of 2 x ``MOST`` calls)."""

    count = 0

    def on_frame_start(self, fn, ctx) -> None:
        self.count += 1


_FRAMES = _FramesConverted()
_listening = []   # (once: the listener added)


def _listen() -> None:
    """Add ``_FRAMES`` to the compile listeners, the first time."""
    with _listen_lock:
        if not _listening:
            listeners.add(_FRAMES)
            _listening.append(_FRAMES)


_listen_lock = threading.Lock()


def compiled_state(ctx) -> int:
    """What has been compiled so far: ``_FRAMES``'s count (``ctx``, the compiled
    function's ``hook.CompileContext``, is not read: a frame of another function
    converted meanwhile, in a call of this one or in another thread, also makes the
    call one that compiled, which at worst leaves a call uncounted).
    ``changed(before, compiled_state(ctx))``: whether a call traced.

        >>> before = compiled_state(None)
        >>> _FRAMES.on_frame_start(None, None)     # (as convert_frame does)
        >>> changed(before, compiled_state(None))
        True
    """
    return _FRAMES.count


def changed(before: int, after: int) -> bool:
    """Whether ``after`` (``compiled_state``) differs from ``before``."""
    return before != after


class _Sampler:
    """The plain way's timed call, one in ``SAMPLE``: past ``RECHECK`` calls, or on a
    call ``GROWN`` times its trial's best, a new trial takes the slot."""

    def __init__(self, slots: EntrySlots, best: float):
        self.slots = slots
        self.way: Callable | None = None   # the plain way it belongs to
        self.restart(best)

    def restart(self, best: float) -> None:
        """Count again, against a new trial's ``best`` plain call."""
        self.left = RECHECK // SAMPLE
        self.best = max(best, 1e-7)   # (a clock too coarse to see the call: 0)

    def __call__(self, *args, **kwargs):
        slots = self.slots
        if slots.current is not self.way:   # a trial's call of the plain way: not timed
            return slots.fn(*args, **kwargs)
        if on_stack(self.way.__code__, sys._getframe(2)):   # it calls itself (plain_way)
            self.left = sys.maxsize   # (once)
            log.debug("%s: it calls itself: both ways are timed again", slots.where)
            slots.restart(self.way)
            return slots.fn(*args, **kwargs)
        start = slots.clock()
        out = slots.fn(*args, **kwargs)
        spent = slots.clock() - start
        self.left -= 1
        if spent > GROWN * self.best or self.left <= 0:
            if spent > GROWN * self.best:
                log.debug("%s: a plain call took %.2f us, %.0fx its trial's best: both "
                          "ways are timed again", slots.where, spent * 1e6,
                          spent / self.best)
            self.left = sys.maxsize   # (once)
            slots.restart(self.way)
        return out


def plain_way(fn: types.FunctionType, sample: _Sampler, attrs: dict) -> Callable:
    """A function that calls ``fn`` with its arguments as given, and ``sample`` (which
    times the call) instead once in ``SAMPLE`` calls. Where ``fn`` takes positional
    parameters only, with no defaults, it takes them by the same names (a call then
    binds no tuple nor dict); else ``*args, **kwargs``. It bears ``fn``'s name (a
    wrong call's TypeError reads as ``fn``'s) and its file is generated code, which
    ``for_plain_call`` drops from an exception's traceback, as its handler does::

        def f(x, y):
            ___n += 1                      # (a cell of the factory)
            try:
                if ___n & 63:
                    return ___fn(x, y)
                return ___sample(x, y)
            except BaseException as ___e:
                ___clean(___e)
                raise

    It is one frame more than calling ``fn``, as a wrapper is (0.25-1.1 us a call over
    calling ``fn`` itself: ``scripts/bench_entry_trial.py``). Tried and left out: a
    frame entry of ``fn``'s template whose prologue asks that counter instead of the
    cache (no frame of its own): 1.1-1.4 us over ``fn`` on 3.11 and 3.13. A recursion
    through the plain way spends two frames a level where plain Python spends one, so
    a sampled call that finds the plain way on its stack starts a trial again, which
    runs a function that calls itself compiled (``EntryTrial``)."""
    way, way.__count__ = _counting_wrapper(fn, sample)
    way.__dict__.update(attrs)
    sample.way, way.__sampler__ = way, sample
    return way


def _counting_wrapper(fn: types.FunctionType, sample: _Sampler) -> tuple:
    """``plain_way``'s function and the name of its counter's cell."""
    code = fn.__code__
    simple = not (fn.__defaults__ or fn.__kwdefaults__ or code.co_kwonlyargcount or
                  code.co_posonlyargcount or
                  code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS))
    taken = frozenset(code.co_varnames)
    n, f, s, c, e = (_free_name(x, taken) for x in
                     ("___n", "___fn", "___sample", "___clean", "___e"))
    params = ", ".join(code.co_varnames[:code.co_argcount]) if simple else \
        "*args, **kwargs"
    src = (f"def ___make({f}, {s}, {c}):\n"
           f"    {n} = 0\n"
           f"    def ___plain({params}):\n"
           f"        nonlocal {n}\n"
           f"        {n} += 1\n"
           f"        try:\n"
           f"            if {n} & {SAMPLE - 1}:\n"
           f"                return {f}({params})\n"
           f"            return {s}({params})\n"
           f"        except BaseException as {e}:\n"
           f"            {c}({e})\n"
           f"            raise\n"
           f"    return ___plain\n")
    scope: dict = {}
    compile_source(src, f"<dynamo plain way {fn.__qualname__} #{next(_counter)}>", scope)
    way = scope.pop("___make")(fn, sample, for_plain_call)
    way.__code__ = way.__code__.replace(co_name=fn.__name__, co_qualname=fn.__qualname__)
    way.__name__, way.__qualname__ = fn.__name__, fn.__qualname__
    way.__module__, way.__doc__, way.__wrapped__ = fn.__module__, fn.__doc__, fn
    return way, n


__all__ = ["CLOSE", "GROWN", "LONG", "MARGIN", "MOST", "SAMPLE", "SETTLE", "SHORT", "SPEND",
           "TRIAL_BACKENDS", "EntrySlots", "EntryTrial", "enough", "entry_for", "faster", "follow",
           "plain_way", "reset_all"]
