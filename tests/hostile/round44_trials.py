"""Round 44's way of attacking callee trials (``dynamo/callee_trial.py``): each case is
a loop that runs as Python (its test reads array data) calling a helper, registered
three times: as it is (the trial times the helper's first calls, compiled and plain,
then keeps the faster way), ``_compiled`` (``config.callee_trial_calls`` 0: every call
compiled, no trial) and ``_retried`` (1 timed call a way, ``RECHECK`` 2: a new trial
every few calls, so the ways alternate, timed and untimed, all through the loop).

    >>> trials = Trials(reg)
    >>> trials.case(_loop_prints, (_y(), TRIPS))    # three programs
"""

from __future__ import annotations

import numpy as np
from hostile_check import _materialize

import dynamo
from dynamo import callee_trial

TRIPS = 30   # (2 untimed + 16 timed calls end the trial; the rest are decided calls)


def _y(v=0.5):
    return np.array([0.0, v])


class Trials:
    """Registers each ``case`` on ``reg`` as it is and in the two forced variants."""

    def __init__(self, reg):
        self.reg = reg

    def case(self, fn, *sets, calls=2, name=None, setup=None, watch=None, between=None,
             variants=True):
        name = name or fn.__name__.removeprefix("_")
        self.reg.case(fn, *sets, calls=calls, name=name, setup=setup, watch=watch,
                      between=between)
        if variants:
            spec = (fn, sets, calls, setup, watch, between)
            self._forced(f"{name}_compiled", *spec, trial_calls=0, recheck=4096)
            self._forced(f"{name}_retried", *spec, trial_calls=1, recheck=2)

    def _forced(self, name, fn, sets, calls, setup, watch, between, trial_calls, recheck):
        def scenario(r):
            r.patch(dynamo.config, "callee_trial_calls", trial_calls)
            r.patch(callee_trial, "RECHECK", recheck)
            if setup is not None:
                setup()
            f = r.compile(fn)
            schedule = [i for i in range(len(sets)) for _ in range(calls)]
            if len(sets) > 1:
                schedule.append(0)
            for k, i in enumerate(schedule):
                if k and between is not None:
                    between(k)
                args, kwargs = _materialize(sets[i])
                r.call(f, *args, **kwargs)
                if watch is not None:
                    r.see("watched state", watch())
        self.reg._add(name, scenario, (fn.__doc__ or "").strip())
