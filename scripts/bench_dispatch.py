"""Dispatch overhead of a cached call, and the cost of tracing a 200-op function.

    python scripts/bench_dispatch.py            # prints the table (also a section of bench.py)

Dispatch overhead is (a compiled call whose cache entry hits) minus (a plain call of
the original function), for ``f(a, b, c, d, e, g, h) = a + b + ... + h`` on 4x4
float32 arrays: both run the same six NumPy adds, so the difference is the wrapper,
the guard check and the glue. The two are timed side by side in one run, in
alternating batches of 200 calls, on this thread's CPU clock (``time.thread_time``:
time other processes hold the core is not counted), and the overhead is the median
of the per-batch differences. The per-layer rows time each
generated layer on its own, to show where the microseconds go.

Compile time is the first call of a generated 200-op function with the eager
backend (trace + graph + backend + guards + glue + run, CPU time of this thread),
split into phases by timing wrappers around them.

Example::

    >>> rows = run()
    >>> rows[0]["what"], rows[0]["budget_us"]
    ('dispatch overhead, 7 arrays (median)', 2.0)
"""

from __future__ import annotations

import gc
import statistics
import time
import timeit

import numpy as np

import dynamo
import dynamo.convert

NAMES = "abcdegh"


def seven(a, b, c, d, e, g, h):
    return a + b + c + d + e + g + h


# CPU time of this thread, not wall time: on a shared machine the wall clock also
# counts the time other processes held the core, which swamps a microsecond.
CLOCK = time.thread_time


def _per_call(fn, args, number: int) -> float:
    t = CLOCK()
    for _ in range(number):
        fn(*args)
    return (CLOCK() - t) / number


def side_by_side(plain, compiled, args, rounds: int = 400, number: int = 200):
    """Median seconds per call of each, and the median of per-round differences."""
    ps, cs, ds = [], [], []
    for r in range(rounds):
        if r % 2:
            c = _per_call(compiled, args, number)
            p = _per_call(plain, args, number)
        else:
            p = _per_call(plain, args, number)
            c = _per_call(compiled, args, number)
        ps.append(p)
        cs.append(c)
        ds.append(c - p)
    return statistics.median(ps), statistics.median(cs), statistics.median(ds)


def _best(stmt: str, scope: dict, number: int = 20000, repeat: int = 15) -> float:
    return min(timeit.repeat(stmt, globals=scope, number=number, repeat=repeat,
                             timer=CLOCK)) / number


def dispatch_rows(rounds: int = 400) -> list[dict]:
    args = [np.random.default_rng(i).standard_normal((4, 4)).astype(np.float32)
            for i in range(7)]
    compiled = dynamo.compile(seven, backend="eager")
    compiled(*args)
    cache = compiled._ctx.caches[seven.__code__]
    assert len(cache.entries) == 1, "the benchmark must hit one cached entry"
    gc.collect()
    plain_s, comp_s, over_s = side_by_side(seven, compiled, args, rounds)
    rows = [
        {"what": "dispatch overhead, 7 arrays (median)", "us": over_s * 1e6, "budget_us": 2.0},
        {"what": "  plain call of the original (median)", "us": plain_s * 1e6, "budget_us": ""},
        {"what": "  compiled call, entry hits (median)", "us": comp_s * 1e6, "budget_us": ""},
    ]
    # Where the time goes: each layer alone, best of repeats (a floor, not a median).
    entry = cache.entries[0]
    scope = {"plain": seven, "compiled": compiled, "wrapper": compiled._call,
             "dispatch": cache.dispatch, "check": entry.check.fn, "glue": entry.run,
             "graph": entry.run.__globals__.get("___graph"), "a": args, "fn": seven,
             "empty": lambda a, b, c, d, e, g, h: None}
    layers = [("  layer: OptimizedFunction.__call__ -> wrapper", "compiled(*a)", "wrapper(*a)"),
              ("  layer: wrapper -> dispatcher", "wrapper(*a)", "dispatch(fn, *a)"),
              ("  layer: dispatcher minus glue (inlined guard check)", "dispatch(fn, *a)",
               "glue(*a, None)"),
              ("  layer: glue -> compiled graph", "glue(*a, None)", "graph(*a)"),
              ("  layer: compiled graph minus plain call", "graph(*a)", "plain(*a)")]
    floors = {stmt: _best(stmt, scope) for _, outer, inner in layers for stmt in (outer, inner)}
    floors["empty(*a)"] = _best("empty(*a)", scope)
    for what, outer, inner in layers:
        rows.append({"what": what, "us": (floors[outer] - floors[inner]) * 1e6, "budget_us": ""})
    rows.append({"what": "  the check alone, as its own function", "us":
                 (_best("check(*a, None)", scope) - floors["empty(*a)"]) * 1e6,
                 "budget_us": ""})
    rows += _check_parts(args, floors["empty(*a)"])
    rows += _later_entry(args)
    return rows


def _check_parts(args, empty: float) -> list[dict]:
    """What the check's pieces cost: each a function of the 7 arrays doing only that."""
    params = ", ".join(NAMES)
    parts = {"7 type tests (type(x) is ndarray)":
             " and ".join(f"type({n}) is ___nd" for n in NAMES),
             "7 shape reads (x.shape builds a tuple)": ", ".join(f"{n}.shape" for n in NAMES),
             "7 dtype reads (x.dtype)": ", ".join(f"{n}.dtype" for n in NAMES),
             "tuple of 14 values compared with a stored one":
             f"({', '.join(f'{n}.shape, {n}.dtype' for n in NAMES)},) == ___expected"}
    rows = []
    base = None
    expected = tuple(v for a in args for v in (a.shape, a.dtype))
    for what, expr in parts.items():
        scope = {"___nd": np.ndarray, "___expected": expected}
        exec(f"def part({params}):\n    return {expr}\n", scope)
        cost = _best("part(*a)", {"part": scope["part"], "a": args}) - empty
        if what.startswith("tuple"):
            base = base or 0.0
            cost -= base   # beyond reading the values themselves
        elif "read" in what:
            base = (base or 0.0) + cost
        rows.append({"what": f"    check part: {what}", "us": cost * 1e6, "budget_us": ""})
    return rows


def _later_entry(args) -> list[dict]:
    """The hit is the third entry: two guard checks fail first."""
    compiled = dynamo.compile(seven, dynamic=False, backend="eager")
    for n in (4, 3, 2):   # most recent first: the (4, 4) entry ends up third
        compiled(*[a[:n] for a in args])
    _, _, over = side_by_side(seven, compiled, args, rounds=100)
    return [{"what": "dispatch overhead when the 3rd entry hits (median)", "us": over * 1e6,
             "budget_us": ""}]


# Library attributes a model might read; each one read is an identity guard on the
# module's __dict__ (guards/render.py, module_tests), checked at every hit.
NUMPY_NAMES = ("tanh exp sin cos log sqrt abs maximum minimum sum mean matmul dot zeros "
               "ones where pi e float32 float64 clip exp2 log1p expm1 arctan arcsin tan "
               "square multiply add").split()


def reads_numpy(k: int):
    """``seven`` that also reads ``k`` numpy attributes (no extra graph ops: the reads
    are dropped), so the difference from ``seven`` is their guards."""
    body = "".join(f"    np.{n}\n" for n in NUMPY_NAMES[:k])
    src = f"def seven_np{k}(a, b, c, d, e, g, h):\n{body}    return a + b + c + d + e + g + h\n"
    ns = {"np": np}
    exec(compile(src, f"<bench {k} numpy attributes>", "exec"), ns)
    return ns[f"seven_np{k}"]


def module_attr_rows(rounds: int = 200) -> list[dict]:
    """Extra cost of a hit per numpy attribute the function reads (compiled vs compiled)."""
    args = [np.random.default_rng(i).standard_normal((4, 4)).astype(np.float32)
            for i in range(7)]
    base = dynamo.compile(seven, backend="eager")
    base(*args)
    rows = []
    for k in (10, 30):
        fn = reads_numpy(k)
        compiled = dynamo.compile(fn, backend="eager")
        compiled(*args)
        assert len(compiled._ctx.caches[fn.__code__].entries) == 1
        gc.collect()
        _, _, extra = side_by_side(base, compiled, args, rounds)
        rows.append({"what": f"extra dispatch cost of {k} numpy attributes read (median)",
                     "us": extra * 1e6, "budget_us": ""})
    return rows


def two_hundred_ops() -> tuple:
    """A generated function of 200 array ops (100 lines of two ops each)."""
    lines = [f"    x = np.tanh(x * {i}.0)" if i % 2 else "    x = x + y * 0.5"
             for i in range(100)]
    src = "def f200(x, y):\n" + "\n".join(lines) + "\n    return x\n"
    ns = {"np": np}
    exec(compile(src, "<bench 200 ops>", "exec"), ns)
    x = np.ones((8, 8), np.float32)
    return ns["f200"], (x, x.copy())


PHASES = {"trace": "trace (translator)", "finish": "graph output + backend + glue",
          "guards": "guards (check function)"}


def compile_rows(repeat: int = 7) -> list[dict]:
    fn, args = two_hundred_ops()
    totals, phases = [], []
    for _ in range(repeat):
        compiled = dynamo.compile(fn, backend="eager")
        t = CLOCK()
        compiled(*args)
        totals.append(CLOCK() - t)
        cache = compiled._ctx.caches[fn.__code__]
        record = cache.entries[0].record
        times = {PHASES[k]: v for k, v in record.phases.items()}
        t = CLOCK()
        cache.rebuild()   # the dispatcher of the one entry, generated again
        times["dispatcher (generated, one rebuild)"] = CLOCK() - t
        phases.append(times)
        ops = record.op_count
    first = totals[0]
    rows = [{"what": f"first call of a {ops}-op function, eager backend (median of {repeat})",
             "us": statistics.median(totals) * 1e6, "budget_us": 100_000.0},
            {"what": "  the very first one (cold caches)", "us": first * 1e6, "budget_us": ""}]
    for label in phases[0]:
        rows.append({"what": f"  phase: {label}",
                     "us": statistics.median(ph.get(label, 0.0) for ph in phases) * 1e6,
                     "budget_us": ""})
    return rows


def run(args=None) -> list[dict]:
    """Rows for ``scripts/bench.py``: what was measured, microseconds, the budget."""
    quick = bool(getattr(args, "quick", False))
    return dispatch_rows(rounds=40 if quick else 400) + \
        module_attr_rows(rounds=20 if quick else 200) + compile_rows(3 if quick else 7)


def main() -> int:
    import platform
    print(f"machine: {platform.node()} ({platform.processor() or platform.machine()}), "
          f"Python {platform.python_version()}, NumPy {np.__version__}")
    rows = run()
    width = max(len(r["what"]) for r in rows)
    print(f"{'what'.ljust(width)}  {'us':>10}  budget_us")
    for r in rows:
        budget = f"{r['budget_us']:.1f}" if r["budget_us"] != "" else ""
        print(f"{r['what'].ljust(width)}  {r['us']:10.3f}  {budget}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
