"""Recompiles per stateful corpus (issue #16), counted as ``test_stateful_programs.py``
counts them: ``dynamo.explain`` as a ``with`` block around each program's own calls,
recompiles after the first call, per backend.

    python tests/realworld/count_stateful_recompiles.py [-v] [CORPUS...]

``CORPUS`` names modules of ``tests/realworld`` that define ``PROGRAMS`` (default: the
stateful corpora). ``-v`` prints each program with recompiles, its compiles (resume
functions included) and the reasons.
A program that raises is counted apart (``errors``), with its exception.

Example::

    $ python tests/realworld/count_stateful_recompiles.py stateful_programs
    stateful_programs  eager: 46 recompiles, 103 compiles (52 programs, 0 errors)  numpy: ...
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# the package first (tests/dynamo must not shadow it), then harness, rw_check, the corpora
sys.path[:0] = [ROOT]
sys.path += [os.path.dirname(HERE), HERE]

from test_stateful_programs import _measured  # noqa: E402

DEFAULT = ("stateful_programs", "stateful_corpus2", "stateful_corpus3",
           "stateful_corpus3_windows", "stateful_corpus4", "stateful_corpus4_windows",
           "stateful_corpus5_sets", "stateful_corpus5_caches", "stateful_corpus6",
           "stateful_corpus7", "stateful_corpus8", "stateful_corpus9", "stateful_corpus15")


def measure(prog, backend):
    """Recompiles after the first call of ``prog`` on ``backend``, and its compiles
    (resume functions included): (a list of reasons, compiles) (the test's own
    measurement, ``test_stateful_programs._measured``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, report = _measured(prog, backend)
    return [str(r) for r in report.recompiles if r.call >= 1], report.compile_count


def main(argv):
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")] or list(DEFAULT)
    for name in names:
        try:
            programs = importlib.import_module(name).PROGRAMS
        except ImportError as e:
            print(f"{name}: not importable ({e})")
            continue
        line = [name]
        details = []
        for backend in ("eager", "numpy"):
            total = errors = compiles = 0
            for prog in programs:
                try:
                    reasons, compiled = measure(prog, backend)
                except Exception as e:  # noqa: BLE001 - counted and shown, not hidden
                    errors += 1
                    details.append(f"  {backend} {prog.name}: ERROR {type(e).__name__}: {e}")
                    continue
                total += len(reasons)
                compiles += compiled
                if reasons and verbose:
                    details.append(f"  {backend} {prog.name}: {len(reasons)} "
                                   f"({compiled} compiles)")
                    details.extend(f"      {r}" for r in reasons)
            line.append(f"{backend}: {total} recompiles, {compiles} compiles "
                        f"({len(programs)} programs, {errors} errors)")
        print("  ".join(line), flush=True)
        for d in details:
            print(d)


if __name__ == "__main__":
    main(sys.argv[1:])
