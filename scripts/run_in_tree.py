"""Run a script with the project imported from another checkout (a "before" tree).

    python scripts/run_in_tree.py /tmp/base scripts/bench_realworld.py --corpus 5 --quick

Why not ``PYTHONPATH=/tmp/base``: the package installs as one package, ``dynamo``, with
``dynamo.backends`` and ``dynamo.guards`` mapped from the top-level folders ``backends/``
and ``guards/`` (pyproject's ``package-dir``). The editable install's finder keeps that
mapping to the working tree, so ``PYTHONPATH`` gives the other tree's ``dynamo/`` with
the working tree's backends and guards, a mix neither commit had. This script puts a
finder in front that maps all three names to ROOT, then runs the script as ``__main__``
(its own folder first on ``sys.path``, as ``python script.py`` would). Worker processes
the script spawns inherit ``DYNAMO_TREE_ROOT`` only; they import from the editable
install unless they start through this script too.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import runpy
import sys

_FOLDERS = {"dynamo": "dynamo", "dynamo.backends": "backends", "dynamo.guards": "guards"}


class _TreeFinder(importlib.abc.MetaPathFinder):
    """Finds ``dynamo``, ``dynamo.backends``, ``dynamo.guards`` (and so, through their
    ``__path__``, every module under them) in ``root``."""

    def __init__(self, root: str) -> None:
        self.root = root

    def find_spec(self, name, path=None, target=None):
        folder = _FOLDERS.get(name)
        if folder is None:
            return None
        location = os.path.join(self.root, folder, "__init__.py")
        return importlib.util.spec_from_file_location(
            name, location, submodule_search_locations=[os.path.dirname(location)])


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit(__doc__)
    root, script = os.path.abspath(argv[0]), argv[1]
    if not os.path.isfile(os.path.join(root, "dynamo", "__init__.py")):
        raise SystemExit(f"{root} has no dynamo/__init__.py: not a checkout of this project")
    os.environ["DYNAMO_TREE_ROOT"] = root
    sys.meta_path.insert(0, _TreeFinder(root))
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    sys.argv = argv[1:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
