"""Every distinct graph break (reason, why, hint) that corpus 14 of the real-world
programs and the stateful corpora 10-14 produce, on the eager backend (issue #19,
"every break has a hint that fits it"). Prints one line per distinct (reason's first
line, hint) with how many programs hit it, for reading which hints do not fit.

    .venv/bin/python scripts/break_hint_table.py            # both corpora
    .venv/bin/python scripts/break_hint_table.py rw         # corpus 14 only
"""

from __future__ import annotations

import collections
import sys
import warnings
from pathlib import Path

import dynamo  # (before tests/ on sys.path: tests/dynamo shadows the package)

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "tests" / "realworld")]

SEEN: dict = collections.defaultdict(list)


def _note(name, report):
    for b in report.break_reasons:
        SEEN[(b.reason.splitlines()[0], b.explanation, b.hint)].append(name)


def realworld():
    import realworld_programs14
    for name, fn, args, kwargs in realworld_programs14.programs(small=True):
        dynamo.reset()
        report = dynamo.explain(fn, backend="eager")(*args, **kwargs)
        _note(name, report)


def _recorder(opened):
    """A scenario's ``wrap``: the callable compiled under ``explain`` (kept open)."""
    def wrap(fn):
        explainer = dynamo.explain(fn, backend="eager")
        opened.append((explainer, explainer.__enter__()))
        return opened[-1][1]
    return wrap


def stateful():
    import importlib
    for mod in ("stateful_corpus10", "stateful_corpus11", "stateful_corpus12",
                "stateful_corpus13", "stateful_corpus14", "stateful_corpus15"):
        for prog in importlib.import_module(mod).PROGRAMS:
            dynamo.reset()
            opened = []
            try:
                prog.scenario(_recorder(opened))
            except Exception as e:   # (reported, not hidden: the table is for reading)
                print(f"! {mod}.{prog.name}: {type(e).__name__}: {e}")
            finally:
                for explainer, _ in opened:
                    explainer.__exit__(None, None, None)
            for _, rep in opened:
                _note(f"{mod}.{prog.name}", rep.report)


if __name__ == "__main__":
    which = sys.argv[1:] or ["rw", "st"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if "rw" in which:
            realworld()
        if "st" in which:
            stateful()
    for (reason, why, hint), names in sorted(SEEN.items(), key=lambda kv: -len(kv[1])):
        print(f"- {len(names)}x `{reason}`\n    why: {why}\n    hint: {hint}\n"
              f"    in: {', '.join(sorted(set(names))[:4])}")
