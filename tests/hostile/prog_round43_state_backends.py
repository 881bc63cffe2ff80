"""Round 43, the backend fallback policy (``glue._on_eager_instead``): a built-in
backend that fails to compile a graph (dynamo's own bug; ``config.strict_backends``
off, the user's default) runs that graph on the eager backend: the program's side
effects (appends to a global and an argument, prints, writes into the input, a
``np.random`` draw) happen exactly once per call, results are eager's, and the
``dynamo.internal`` warning comes once per graph, not per call; a backend that fails
for some graphs only (the first, the second of a break, graphs with a ``sin``); a
user's backend that raises is a ``BackendError`` at the first call, chained to its
error, before any of the function's effects, and again at the next call.

The scenarios take the ``dynamo.internal`` records themselves (a filter on that
logger, so the harness does not count them as internal errors), and see whether each
graph warned exactly once; in the reference run the same facts are what Python gives.

    >>> f = r.compile_on(_effects, failing_builtin)      # every graph falls back
    >>> r.call(f, x, log); r.call(f, x, log)             # effects once a call
"""

import contextlib
import io
import logging

import dynamo.backends
import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round43_state")
LOG = []
RAISED = []   # one item per graph a planted backend refused
_BUILTIN = dynamo.backends.__name__ + ".numpy_backend.backend"


def _failing(when):
    """A backend counted built-in (by its module) that raises for graphs ``when(graph)``
    holds and compiles the others with the numpy backend."""
    def backend(graph, example_inputs):
        if when(graph):
            RAISED.append(len(graph.call_nodes()))
            raise KeyError("planted")
        return dynamo.backends.builtin_backend("numpy")(graph, example_inputs)
    backend.__module__ = _BUILTIN
    return backend


def _has_op(name):
    return lambda graph: any(name in str(n.target) for n in graph.call_nodes())


class _Taken(logging.Filter):
    def __init__(self):
        super().__init__()
        self.messages = []

    def filter(self, record):
        if record.name == "dynamo.internal":
            self.messages.append(record.getMessage())
            return False
        return True


def _run_lenient(r, fn, backend, *arg_sets, calls=2, fresh=None, per_call=False):
    r.patch(dynamo.config, "strict_backends", False)
    LOG.clear()
    RAISED.clear()
    taken = _Taken()
    logger = logging.getLogger("dynamo.internal")
    logger.addFilter(taken)
    try:
        f = r.compile_on(fn, backend)
        for args in arg_sets:
            for _ in range(calls):
                r.call(f, *(fresh(args) if fresh else args))
    finally:
        logger.removeFilter(taken)
    r.see("LOG", list(LOG))
    # each refused graph warned once, not once a call (at most two graphs an input
    # set: one each side of a break; ``per_call``: a number drawn before the break is
    # pinned in the resume function for a backend passed as a callable, so that graph
    # is a new one at every call); the reference run has nothing to warn about
    most = len(arg_sets) * (2 + calls) if per_call else 2 * len(arg_sets)
    once = len(taken.messages) == len(RAISED) and 0 < len(RAISED) <= most
    r.see("each refused graph warned once", once if r.compiled else True)


def _effects(x, log):
    log.append("in")
    LOG.append(len(log))
    y = np.sin(x) * 2.0
    x[0] = -1.0
    return y + x.sum()


def _effects_break(x, log):
    log.append("a")
    y = np.sin(x) + 1.0
    print("mid", len(log))
    LOG.append("b")
    return y * np.cos(x)


def _draws(x):
    noise = np.random.random(x.shape)
    LOG.append(round(float(noise[0]), 12))
    return x + np.sin(noise)


def _raises_after_effects(x, log):
    log.append("before")
    y = np.sin(x)
    if x.shape[0] > 3:
        return y[10]
    return y


def _loop(x):
    s = 0.0
    for i in range(len(x)):
        s = s + np.sin(x[i])
        LOG.append(i) if i == 0 else None
    return s


def _x(n=5):
    return np.linspace(-1.0, 1.0, n)


def _fresh(args):
    return tuple(a.copy() if isinstance(a, (np.ndarray, list)) else a for a in args)


ALWAYS = _failing(lambda g: True)
FIRST_ONLY_SIN = _failing(_has_op("sin"))


def _scenario(name, fn, backend, *sets, **kw):
    def scenario(r):
        if fn is _draws:
            np.random.seed(7)
        _run_lenient(r, fn, backend, *sets, fresh=_fresh, **kw)
    reg._add(name, scenario, (fn.__doc__ or "").strip())


_scenario("fallback_effects", _effects, ALWAYS, (_x(), []), (_x(8), ["old"]))
_scenario("fallback_effects_sin_only", _effects, FIRST_ONLY_SIN, (_x(), []), (_x(3), []))
_scenario("fallback_break", _effects_break, ALWAYS, (_x(), []), (_x(7), []))
_scenario("fallback_break_sin_only", _effects_break, FIRST_ONLY_SIN, (_x(), []))
_scenario("fallback_draws", _draws, ALWAYS, (_x(),), (_x(6),), calls=3, per_call=True)
_scenario("fallback_raises", _raises_after_effects, ALWAYS, (_x(), []), (_x(2), []))
_scenario("fallback_raises_sin_only", _raises_after_effects, FIRST_ONLY_SIN, (_x(), []),
          (_x(3), ["x"]))
_scenario("fallback_loop", _loop, ALWAYS, (_x(12),), (_x(3),), (_x(12),))


def _user_raising(graph, example_inputs):
    raise RuntimeError("user kaboom")


def _user_second_graph(graph, example_inputs):
    """Compiles the first graph it is given (the eager backend's way) and raises for
    every later one."""
    _user_second_graph.seen += 1
    if _user_second_graph.seen > 1:
        raise ValueError("second graph")
    return dynamo.backends.builtin_backend("eager")(graph, example_inputs)


def _user_scenario(name, fn, backend, args):
    def scenario(r):
        r.patch(dynamo.config, "strict_backends", False)
        _user_second_graph.seen = 0
        LOG.clear()
        f = r.compile_on(fn, backend)
        for _ in range(2):
            log = []
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    f(*_fresh(args[:1]), log)
                got = "ran"
            except dynamo.BackendError as e:
                got = ("BackendError", type(e.__cause__).__name__, "failed to compile" in str(e),
                       log == [], LOG == [])
            if not r.compiled:   # what the compiled run must see
                got = ("BackendError", _CAUSE[backend], True, True, True)
            r.see("outcome", got)
    reg._add(name, scenario, "")


_CAUSE = {_user_raising: "RuntimeError", _user_second_graph: "ValueError"}
_user_scenario("user_backend_raises", _effects, _user_raising, (_x(),))
_user_scenario("user_backend_raises_at_break", _effects_break, _user_raising, (_x(),))
