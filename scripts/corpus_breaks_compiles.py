"""Graph breaks and compiles per program of a benchmark corpus (issue #15/#19).

For each program of ``bench_realworld.corpus(N)``: the graphs and breaks
``dynamo.explain`` reports on its first call (the break reasons' first lines), and the
compiles (resume functions included) over ``--calls`` calls of one compiled object, each
on fresh copies of the arguments (``dynamo.explain`` as a ``with`` block, the way
``tests/realworld/count_stateful_recompiles.py`` counts them). Run it under each Python
whose bytecode matters (3.11, 3.13).

    .venv/bin/python scripts/corpus_breaks_compiles.py --corpus 10 [--backend numpy]

Example output line::

    Welch PSD, averaged segments  graphs 1  breaks 0  compiles/5 calls 1
"""

from __future__ import annotations

import argparse
import collections
import copy
import sys
import warnings

import bench_realworld  # noqa: E402  (a sibling: scripts/ is on sys.path)

import dynamo


def count(fn, args, kwargs, backend: str, calls: int):
    """(graphs, breaks, reasons, compiles over ``calls`` calls, the error if one raised)."""
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args), **kwargs)
            reasons = [b.reason.splitlines()[0] for b in report.break_reasons]
            graphs, breaks = report.graph_count, report.graph_break_count
            dynamo.reset()
            with dynamo.explain(fn, backend=backend) as compiled:
                for _ in range(calls):
                    compiled(*copy.deepcopy(args), **kwargs)
            return graphs, breaks, reasons, compiled.report.compile_count, ""
        except Exception as exc:  # noqa: BLE001  (a report, not a test)
            return "?", "?", [], "?", f"{type(exc).__name__}: {exc}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="10")
    ap.add_argument("--backend", default="numpy")
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--filter", default="")
    args = ap.parse_args(argv)
    total = collections.Counter()
    causes = collections.Counter()
    print(f"Python {sys.version.split()[0]}, backend {args.backend}")
    for name, fn, a, kw in bench_realworld.corpus(args.corpus):
        if args.filter.lower() not in name.lower():
            continue
        graphs, breaks, reasons, compiles, error = count(fn, a, kw, args.backend, args.calls)
        print(f"{name}  graphs {graphs}  breaks {breaks}  compiles/{args.calls} calls "
              f"{compiles}{'  ERROR ' + error if error else ''}")
        for r in reasons:
            print(f"    - {r}")
            causes[r] += 1
        total["programs"] += 1
        total["no break"] += breaks == 0
        total["breaks"] += breaks if isinstance(breaks, int) else 0
        total["compiles"] += compiles if isinstance(compiles, int) else 0
        total["errors"] += bool(error)
    print(dict(total))
    for r, n in causes.most_common():
        print(f"{n:3d}  {r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
