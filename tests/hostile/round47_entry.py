"""Round 47's way of turning the entry trial on (``dynamo/entry_trial.py``; the suite
runs with ``config.entry_trial_calls = 0``, tests/conftest.py): each program is
registered twice, as it is with ``entry_trial_calls = 3`` (the default: calls 1-3
compiled, then plain and compiled alternately, timed, until a way is chosen), and
``_retried`` with 1 timed call a way and the plain way sampling every 2nd call and
starting a new trial after 4 (``SAMPLE``, ``RECHECK``), so the two ways alternate all
through the program's 6-10 calls. Only the ``numpy`` backend has a trial; on
``eager`` the programs run compiled throughout (still compared against plain).

    >>> entry = Entry(reg)
    >>> entry.case(_counts_calls, lambda: (Counter(), _x()))     # two programs
"""

from __future__ import annotations

from hostile_check import _materialize

import dynamo
from dynamo import entry_trial

VARIANTS = (("", 3, entry_trial.SAMPLE, None), ("_retried", 1, 2, 4))


def _trial_on(r, trial_calls, sample, recheck):
    r.patch(dynamo.config, "entry_trial_calls", trial_calls)
    r.patch(entry_trial, "SAMPLE", sample)
    if recheck is not None:
        r.patch(entry_trial, "RECHECK", recheck)


class Entry:
    """Registers each program on ``reg`` in the two ``VARIANTS``."""

    def __init__(self, reg):
        self.reg = reg

    def case(self, fn, *sets, calls=3, name=None, setup=None, watch=None, between=None):
        """``fn`` called with each input set ``calls`` times, then the first set again
        (``Programs.case``), with the trial on."""
        name = name or fn.__name__.removeprefix("_")

        def run(r):
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
        self.scenario(run, name=name, doc=fn.__doc__)

    def scenario(self, fn, name=None, doc=None):
        """``fn(r)`` a scenario, run with the trial on (decorator)."""
        name = name or fn.__name__.removeprefix("s_")
        for suffix, trial_calls, sample, recheck in VARIANTS:
            def scenario(r, trial_calls=trial_calls, sample=sample, recheck=recheck):
                _trial_on(r, trial_calls, sample, recheck)
                fn(r)
            self.reg._add(name + suffix, scenario, (doc or fn.__doc__ or "").strip())
        return fn
