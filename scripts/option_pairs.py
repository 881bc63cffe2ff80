"""A ``dynamo.config`` option on and off, side by side in one process: the same function
compiled once per setting (each from a code object of its own, so the two share no
cache entry) and timed against Python, the three interleaved per round. Shared by the
benchmarks of one option each (``bench_data_checks.py``, ``bench_branch_selects.py``).

Times are the median over rounds of the mean CPU time of a batch of calls
(``time.process_time``: the machines are shared).

Example::

    >>> r = measure("softmax", softmax_checked, make, 4096, "numpy", 5,
    ...             option="data_checks", on="checks", off="breaks")
    >>> sorted(r)        # ratio: off / on (above 1: the option's way is faster)
    ['breaks_us', 'checks_us', 'n', 'plain_us', 'program', 'ratio']
"""

from __future__ import annotations

import statistics
import time
import types

import dynamo


def copy_function(fn):
    """A function of its own for ``fn``'s code (its own cache entries: compiled with
    the other setting, the code object would share ``fn``'s)."""
    code = fn.__code__.replace(co_consts=fn.__code__.co_consts + (object(),))
    return types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__)


def batch_us(fn, args, calls: int) -> float:
    """The mean CPU time of ``calls`` calls of ``fn(*args)``, in microseconds."""
    t0 = time.process_time()
    for _ in range(calls):
        fn(*args)
    return (time.process_time() - t0) / calls * 1e6


def traced(fn, args, backend: str, option: str, value: bool):
    """``fn`` compiled and called once (traced) with ``dynamo.config.<option>`` =
    ``value``; the option is set back after the call."""
    compiled = dynamo.compile(fn, backend=backend)
    before = getattr(dynamo.config, option)
    setattr(dynamo.config, option, value)
    try:
        compiled(*args)
    finally:
        setattr(dynamo.config, option, before)
    return compiled


def measure(name, fn, make, n: int, backend: str, rounds: int, *, option: str,
            on: str, off: str) -> dict:
    """One row: ``plain_us``, ``<on>_us`` (compiled with the option), ``<off>_us``
    (compiled without it) and ``ratio`` (off / on)."""
    args = make(n)
    dynamo.reset()
    with_on = traced(copy_function(fn), args, backend, option, True)
    with_off = traced(copy_function(fn), args, backend, option, False)
    calls = max(1, int(0.01 / max(1e-7, batch_us(fn, args, 1) * 1e-6)))
    times = {"plain": [], on: [], off: []}
    for _ in range(rounds):
        times["plain"].append(batch_us(fn, args, calls))
        times[on].append(batch_us(with_on, args, calls))
        times[off].append(batch_us(with_off, args, calls))
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"program": name, "n": n, "plain_us": med["plain"], f"{on}_us": med[on],
            f"{off}_us": med[off], "ratio": med[off] / med[on]}


def print_table(programs, backend: str, rounds: int, *, option: str, on: str,
                off: str) -> None:
    """A markdown row per program (``(name, fn, make)``) and size: ``measure``'s."""
    print(f"backend={backend}, rounds={rounds}, median of the rounds")
    print(f"| program | n | plain_us | {on}_us | {off}_us | {off}/{on} |")
    print("|---|---|---|---|---|---|")
    for name, fn, make in programs:
        for n in (64, 4096, 262144):
            r = measure(name, fn, make, n, backend, rounds, option=option, on=on, off=off)
            print(f"| {r['program']} | {r['n']} | {r['plain_us']:.1f} | {r[f'{on}_us']:.1f} "
                  f"| {r[f'{off}_us']:.1f} | {r['ratio']:.2f} |")
