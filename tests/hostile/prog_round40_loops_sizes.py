"""Round 40, size variants and what the reports say of them (the category of
``prog_round40_loops_steps.py``): a function called at one size, another, the first
again, then more (the numpy backend traces once more with symbolic sizes and compiles a
static variant per new size, ``logs.SizeVariant``); results must equal eager's and the
reports must stay true. Compiled, the calls go through ``dynamo.annotate`` and the
scenario checks its report (``annotate_facts``): each size variant was logged in a call
whose inputs have the sizes it names, no graph gets two variants for one set of sizes,
the page's counts are the report's, and ``dynamo.explain`` over the same calls counts
the same recompiles and static variants (the switch to size-generic code past
``GENERIC_AFTER`` variants is none). The plain run sees the same facts as true.

    >>> def _scaled(x):
    ...     return x * 2.0 + x.sum()           # sizes 4, 5, 4, 6: variants 5 and 6 (numpy)
"""

import os
import tempfile

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round40_loops")


def _v(n, seed=0):
    return np.random.default_rng(seed + n).random(n) * 4 - 1


def _backend(r):
    probe = r.compile(_noop)
    return getattr(getattr(probe, "_settings", None), "backend", None)


def _noop():
    return None


def annotate_facts(report, page: str, ex, calls: list) -> list[str]:
    """What is untrue in an annotate report of ``calls`` (each the arguments of one call):
    an empty list when it is all true."""
    wrong = []
    seen = set()
    for v in report.size_variants:
        if v.generic:
            continue
        key = (v.graph, tuple(sorted(v.sizes.items())))
        if key in seen:
            wrong.append(f"two variants of graph {v.graph} for {v.sizes}")
        seen.add(key)
        args = calls[v.call] if 0 <= v.call < len(calls) else None
        if args is None:
            wrong.append(f"variant {v.index} names call {v.call} of {len(calls)}")
            continue
        shapes = {tuple(a.shape) for a in args if isinstance(a, np.ndarray)}
        for text in v.shapes:
            dims = text.rpartition(": ")[2].strip("()").split(", ")
            dims = tuple(int(d) for d in dims if d)
            if dims not in shapes and (len(dims) == 1 and (dims[0],) not in shapes):
                wrong.append(f"variant {v.index} of call {v.call} says {text}; the call's "
                             f"shapes are {sorted(shapes)}")
    static = sum(1 for v in report.size_variants if not v.generic)
    if report.size_variants and f"Size variants ({static})" not in page:
        wrong.append("the page does not count the report's static size variants")
    if f"Recompiles ({len(report.recompiles)})" not in page:
        wrong.append("the page does not count the report's recompiles")
    if len(ex.recompiles) != len(report.recompiles):
        wrong.append(f"explain counts {len(ex.recompiles)} recompiles, annotate "
                     f"{len(report.recompiles)}")
    if len(ex.size_variants) != static:
        wrong.append(f"explain counts {len(ex.size_variants)} size variants, annotate "
                     f"{static}")
    if f"numpy size variants: {len(ex.size_variants)}\n" not in str(ex):
        wrong.append("explain's text does not count its size variants")
    return wrong


def _reported(fn, *makes):
    """``fn`` called on each input set: plainly, or through ``dynamo.annotate``."""
    def s(r):
        backend = _backend(r)
        calls = [m() for m in makes]
        if backend is None:
            for args in calls:
                r.call(fn, *[a.copy() if isinstance(a, np.ndarray) else a for a in args])
            r.see("report facts", [])
            return
        with tempfile.TemporaryDirectory(prefix="dynamo-r40s-") as d:
            out = os.path.join(d, "r.html")
            ann = dynamo.annotate(fn, output=out, backend=backend, calls=len(calls))
            for args in calls:
                r.call(ann, *[a.copy() if isinstance(a, np.ndarray) else a for a in args])
            with open(out) as fh:
                page = fh.read()
        ex = dynamo.explain(fn, backend=backend).calls(
            [tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
             for args in calls])
        r.see("report facts", annotate_facts(ann.report, page, ex, calls))
    name = "report_" + fn.__name__.removeprefix("_")
    if any(p.name == name for p in reg.programs):
        name += f"_{len(makes)}_calls"
    reg._add(name, s, (fn.__doc__ or "").strip())


def _sizes(*ns, make=_v):
    return [(lambda n=n: (make(n),)) for n in ns]


# ------------------------------------------------------------- functions
def _scaled(x):
    return x * 2.0 + x.sum()


def _sliced(x):
    return x[2:] - x[:-2], x[-3:].sum()


def _strided(x):
    return x[::3] * 2.0, len(x[1::2])


def _loop_by_two(x):
    s = 0.0
    for i in range(0, len(x), 2):
        s += x[i]
    return s


def _two_inputs(x, y):
    return x[:, None] * y[None, :], (x.sum() - y.sum())


def _rows(m):
    return m.sum(axis=0), m[1:] - m[:-1]


def _with_break(x):
    y = x * 2.0
    print("at", len(x))
    return y + x.mean()


def _sized_alloc(x):
    n = len(x)
    return np.zeros(n // 2) + x[: n // 2], np.arange(n - 1)


def _cumulative(x):
    return np.cumsum(x)[-1] if len(x) else 0.0, np.diff(x, n=2)


_A = (5, 7, 5, 9, 7, 5)
for _fn in (_scaled, _sliced, _strided, _loop_by_two, _with_break, _sized_alloc,
            _cumulative):
    _reported(_fn, *_sizes(*_A))
_reported(_two_inputs, *[(lambda n=n, m=m: (_v(n), _v(m, 1)))
                         for n, m in ((3, 4), (5, 4), (3, 4), (5, 6), (3, 6))])
_reported(_rows, *[(lambda n=n: (np.arange(n * 3.0).reshape(n, 3),)) for n in _A])


def _decayed(x, t):                        # t: a changing number that shapes nothing
    return x * 0.9 ** t + t, x[: len(x) - 1].sum()


_reported(_decayed, *[(lambda n=n, t=t: (_v(n), t))
                      for n, t in ((5, 1), (7, 2), (5, 3), (9, 1), (7, 4), (5, 1))])
_reported(_scaled, *_sizes(3, 4, 5, 6, 7, 8, 9, 3, 4))   # past the static variants


# ------------------------------------------------------------- without the reports
def _case(fn, *ns, make=_v, name=None):
    reg.case(fn, *_sizes(*ns, make=make), calls=1, name=name)


for _fn in (_scaled, _sliced, _strided, _loop_by_two, _sized_alloc, _cumulative):
    _case(_fn, 4, 6, 4, 6, 8, 4, 1, 0, 2, 4, name="back_and_forth" + _fn.__name__)


def _clamped(x):
    w = x[-5:]
    return w.shape[0], np.full(w.shape[0], 7.0), len(x[:-3]), x[3:].shape


def _sizes_as_ints(x):
    n = len(x)
    return n // 3, n % 3, -(-n // 3), (n + 2) // 3 * 3, divmod(n, 4)


def _sizes_as_floats(x):
    n = len(x)
    return n / 3, n * 0.5, float(n) ** 0.5, round(n / 4)


for _fn in (_clamped, _sizes_as_ints, _sizes_as_floats):
    _case(_fn, 10, 11, 2, 10, 3, 0, 6, 7)
