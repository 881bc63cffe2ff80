"""Regenerate docs/ops.md: the op registry's table and every public NumPy function as
captured / folded / breaks (why) / not applicable, with counts.

    .venv/bin/python scripts/ops_coverage.py            # writes docs/ops.md
    .venv/bin/python scripts/ops_coverage.py --check    # exit 1 when it is stale
    .venv/bin/python scripts/ops_coverage.py --summary  # the counts only

The page is ``dynamo.ops.coverage.page()``; the NumPy section depends on the installed
NumPy (its version is written into the page).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from dynamo.ops import coverage

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "ops.md"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when docs/ops.md is stale")
    parser.add_argument("--summary", action="store_true", help="print the counts only")
    args = parser.parse_args(argv)
    text = coverage.page()
    if args.summary:
        section = coverage.numpy_section().split("\n\n### ")[0]
        print(section.split("| namespace |", 1)[1].join(["| namespace |", ""]))
        return 0
    if args.check:
        if DOC.read_text() != text:
            print(f"{DOC} is stale: run python scripts/ops_coverage.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text)
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
