"""Per-call cost of cached calls of functions with graph breaks (resume functions that
return through their glue, break again, or run the rest of the frame as an island).

    python scripts/bench_breaks.py [--repeat 7] [--calls 2000]

Each function is compiled (eager backend) and called a few times to fill its cache,
then timed in ``--repeat`` batches of ``--calls`` calls on this thread's CPU clock
(``time.thread_time``, the cyclic GC off in a batch); the table gives the median per
call in microseconds, next to the plain function's. To compare two trees, run the
script under each, alternating (``PYTHONPATH=<tree> python scripts/bench_breaks.py``),
and compare the medians.

Example::

    >>> rows = run(repeat=1, calls=10)
    >>> sorted(rows[0])
    ['compiled_us', 'plain_us', 'what']
"""

from __future__ import annotations

import argparse
import gc
import io
import statistics
import time
import weakref

import numpy as np

import dynamo

SINK = io.StringIO()


class Plain:
    pass


def _brk():
    print(end="", file=SINK)


def one_break(x, log):
    y = x + 1
    _brk()
    return y * 2


def weakref_at_break(x, log):
    p = Plain()
    r = weakref.ref(p, log.append)   # (the break)
    y = x + 1
    log.append(r() is p)             # (a second break)
    return y


def three_breaks(x, log):
    a = x + 1
    _brk()
    b = a * 2
    _brk()
    c = b - 1
    _brk()
    return c


def island(x, log):
    y = x + 1
    _brk()
    for i in range(2):               # the rest of the resume function runs as an island
        y = y + i
        _brk()
    return y


FUNCTIONS = [one_break, weakref_at_break, three_breaks, island]


def _per_call(fn, calls: int, repeat: int) -> float:
    x = np.arange(4.0)
    times = []
    for _ in range(repeat):
        logs = [[] for _ in range(calls)]
        gc.collect()
        gc.disable()   # (a collection inside one batch and not another is noise)
        try:
            start = time.thread_time()
            for log in logs:
                fn(x, log)
            times.append((time.thread_time() - start) / calls)
        finally:
            gc.enable()
    return statistics.median(times) * 1e6


def run(repeat: int = 7, calls: int = 2000, only: str | None = None) -> list[dict]:
    rows = []
    for fn in FUNCTIONS:
        if only is not None and fn.__name__ != only:
            continue
        compiled = dynamo.compile(fn, backend="eager")
        for _ in range(3):
            compiled(np.arange(4.0), [])
        rows.append({"what": fn.__name__,
                     "plain_us": _per_call(fn, calls, repeat),
                     "compiled_us": _per_call(compiled, calls, repeat)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--only", help="the name of one function to time")
    args = parser.parse_args()
    print(f"{'function':<18} {'plain us':>9} {'compiled us':>12}")
    for row in run(args.repeat, args.calls, args.only):
        print(f"{row['what']:<18} {row['plain_us']:>9.2f} {row['compiled_us']:>12.2f}")


if __name__ == "__main__":
    main()
