"""Print the table of docs/realworld.md: every program, what dynamo.explain reports,
whether compiled equals eager on each backend, and why it breaks.

Run from the repository root::

    .venv/bin/python tests/realworld/make_table.py > /tmp/table.md
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(os.path.dirname(HERE))]   # the repository: `import dynamo`
sys.path += [os.path.dirname(HERE), HERE]                  # tests/harness, rw_check

import rw_idioms  # noqa: E402
import rw_models  # noqa: E402
import rw_numerics  # noqa: E402
import rw_training  # noqa: E402
from rw_check import BUG_TAGS, check_program, explain  # noqa: E402

import dynamo  # noqa: E402

MODULES = (rw_models, rw_training, rw_numerics, rw_idioms)


def verdict(p, backend) -> str:
    """'yes', or 'NO (W<n>)' naming the known bug, or 'NO (new!)' for an unknown one."""
    try:
        check_program(p.fn, p.arg_sets, backends=(backend,), kwargs=p.kwargs, tol=p.tol)
        return "yes"
    except AssertionError:
        reason = p.wrong.get(backend) if isinstance(p.wrong, dict) else p.wrong
        return f"**NO** ({BUG_TAGS.get(reason, 'new!')})"
    finally:
        dynamo.reset()


def row(module, p) -> str:
    report = explain(p.fn, p.arg_sets[0], p.kwargs)
    dynamo.reset()
    if report.exception is not None:
        graphs = breaks = f"raised {type(report.exception).__name__}"
    else:
        graphs, breaks = report.graph_count, report.graph_break_count
    reasons = sorted({b.reason.splitlines()[0] for b in report.break_reasons})
    why = p.why
    if reasons:
        why += " (" + "; ".join(f"`{r}`" for r in reasons) + ")"
    expected = "-" if not reasons and not p.counts_bug else (
        "**no**" if p.counts_bug else "yes")
    cells = [module.__name__.removeprefix("rw_"), f"`{p.name}`", str(graphs), str(breaks),
             *(verdict(p, b) for b in p.backends), expected, why.replace("|", "\\|")]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    print("| file | program | graphs | breaks | compiled (eager backend) == eager? | compiled (numpy backend) == eager? | "
          "breaks expected? | why it breaks |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for module in MODULES:
        for p in module.PROGRAMS:
            print(row(module, p))


if __name__ == "__main__":
    main()
