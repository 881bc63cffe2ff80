"""Which graphs of the real-world corpora the native tier lowers, and what blocks the
others (issue #23; docs/native.md, "What is lowered").

Every program of ``scripts/realworld_programs2.py`` (its small inputs) and of the
``tests/realworld`` corpora (``everyday_programs``, ``kernel_programs``,
``repository_programs``) runs once under a recording backend: each graph is handed to
``backends.native.lower`` (the tier's own lowering, nothing compiled) and then run by
the eager backend. A graph that lowers counts as *lowered*; for one that does not, the
table counts the reason ``lower`` gave (the first op or form it met with no lowering),
with the op names folded together (``op 'matmul' is not lowered`` under ``matmul``).

    .venv/bin/python scripts/native_coverage.py                 # the summary
    .venv/bin/python scripts/native_coverage.py --graphs        # and one line a graph
    .venv/bin/python scripts/native_coverage.py --corpus 2      # realworld_programs2 only
    .venv/bin/python scripts/native_coverage.py --check         # and run tier 2 (slow)
    .venv/bin/python scripts/native_coverage.py --corpus 2 --large   # benchmark sizes

``--check`` then compiles, for every program with a lowered graph, the native backend
with tier 2 from the second call (``after_calls=1, background=False,
prefer="native"``, no disk cache) and compares three calls with eager
(``tests/realworld/rw_check.check_program``: values bit for bit, dtypes, printed
output, warnings, the arguments afterwards), counting the calls tier 2 answered; a
program that differs is compared again within the numpy backend's tolerance (float
sums in another order: docs/native.md, "Tolerances").

Example output (first lines)::

    corpus 2: 75 graphs, 21 lowered
    ...
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import copy
import io
import os
import re
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import realworld_programs2  # noqa: E402
from dynamo.backends.native.lower import Unsupported, lower  # noqa: E402
from dynamo.backends.registry import lookup_backend  # noqa: E402
from realworld_programs import ROOT, load_module  # noqa: E402

import dynamo  # noqa: E402


def corpora(which: str, large: bool = False) -> dict:
    """name -> [(program name, fn, args, kwargs)]; ``large``: corpus 2 at the sizes
    ``scripts/bench_realworld.py`` times (its graphs differ: loops are not unrolled)."""
    out = {}
    if which in ("all", "2"):
        out["2"] = [tuple(p) for p in realworld_programs2.programs(small=not large)]
    if which in ("all", "tests"):
        rw = ROOT / "tests" / "realworld"
        # rw_check imports script_modules by name, as the tests do with tests/ on the path
        load_module("script_modules", ROOT / "tests" / "script_modules.py")
        load_module("harness", ROOT / "tests" / "harness.py")
        load_module("rw_check", rw / "rw_check.py")
        for mod in ("everyday_programs", "kernel_programs", "repository_programs"):
            m = load_module(mod, rw / f"{mod}.py")
            out[mod] = [(name, fn, args, {}) for name, fn, args in m.PROGRAMS]
    return out


def _fold(reason: str) -> str:
    m = re.match(r"op '(\w+)' is not lowered", reason)
    return m.group(1) if m else reason


def survey(programs: list) -> list:
    """[(program, graph index, None or the reason it is not lowered)]."""
    eager = lookup_backend("eager")
    rows: list = []
    for name, fn, args, kwargs in programs:
        seen: list = []

        def record(graph, example_inputs, _seen=seen):
            try:
                lower(graph)
                _seen.append(None)
            except Unsupported as e:
                _seen.append(str(e).splitlines()[0])
            return eager(graph, example_inputs)

        compiled = dynamo.compile(fn, backend=record)
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                compiled(*copy.deepcopy(args), **kwargs)
        except Exception as exc:  # noqa: BLE001  (a survey: the program's own error)
            seen.append(f"program raised {type(exc).__name__}")
        rows += [(name, k, r) for k, r in enumerate(seen)]
    return rows


def check(programs: list, rows: list) -> None:
    """Tier 2 against eager on each program with a lowered graph (``--check``)."""
    import time

    from dynamo.backends.native.backend import native_backend
    # (rw_check imports script_modules by name: loaded here too for --corpus 2 alone)
    load_module("script_modules", ROOT / "tests" / "script_modules.py")
    load_module("harness", ROOT / "tests" / "harness.py")
    rw_check = load_module("rw_check", ROOT / "tests" / "realworld" / "rw_check.py")
    lowered = {name for name, _, r in rows if r is None}
    opts = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
    for name, fn, args, kwargs in programs:
        if name not in lowered:
            continue
        made: list = []

        def backend(graph, example_inputs, _made=made):
            _made.append(native_backend(graph, example_inputs, opts))
            return _made[-1]

        backend.dynamic_shapes = True
        t = time.process_time()
        try:
            rw_check.check_program(fn, [args], kwargs=kwargs, backends=(backend,), calls=3,
                                   tol={})
            verdict = "same as eager"
        except AssertionError as e:
            verdict = "DIFFERS: " + (str(e).strip().splitlines() or [""])[0][:200]
            try:   # the numpy backend's tolerance (docs/native.md: summation order)
                rw_check.check_program(fn, [args], kwargs=kwargs, backends=(backend,),
                                       calls=3)
                verdict = "within the tolerance of sums, not bit for bit"
            except AssertionError:
                pass
        except Exception as e:  # noqa: BLE001
            verdict = f"RAISED {type(e).__name__}: {str(e).splitlines()[0][:200]}"
        tier2 = sum(getattr(m, "native_calls", 0) for m in made)
        print(f"    {name}: {verdict}; tier-2 calls {tier2}; "
              f"{time.process_time() - t:.1f} s CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", choices=("all", "2", "tests"), default="all")
    ap.add_argument("--graphs", action="store_true", help="one line per graph")
    ap.add_argument("--check", action="store_true", help="run tier 2 against eager")
    ap.add_argument("--large", action="store_true",
                    help="corpus 2 at its benchmark sizes (bench_realworld.py's)")
    ap.add_argument("--filter", default="", help="programs whose name matches this regex")
    a = ap.parse_args()
    total = collections.Counter()
    for corpus, programs in corpora(a.corpus, a.large).items():
        programs = [p for p in programs if re.search(a.filter, p[0])]
        rows = survey(programs)
        lowered = sum(r is None for _, _, r in rows)
        print(f"corpus {corpus}: {len(rows)} graphs, {lowered} lowered")
        reasons = collections.Counter(_fold(r) for _, _, r in rows if r is not None)
        total.update(reasons)
        for reason, n in reasons.most_common():
            print(f"  {n:3d}  {reason}")
        if a.graphs:
            for name, k, r in rows:
                print(f"    {name} g{k}: {'lowered' if r is None else r}")
        if a.check:
            check(programs, rows)
    if a.corpus == "all":
        print("all corpora, blockers:")
        for reason, n in total.most_common():
            print(f"  {n:3d}  {reason}")


if __name__ == "__main__":
    main()
