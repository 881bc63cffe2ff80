"""Every fact about NumPy versions that the project relies on, in one place.

dynamo runs on the NumPy versions its test suite runs on: CI installs the newest NumPy
for each Python (2.4 on CPython 3.11, 2.5 on 3.13 and 3.14), so ``FLOOR`` is 2.4 and
``pyproject.toml`` asks for ``numpy>=2.4``. Older NumPy differs where the translator
models NumPy (signatures of C functions, ``np.unique_values`` and friends, warnings,
where the ufunc settings live), so importing dynamo there stops with a clear message
instead of tracing on wrong facts.

Example::

    >>> from dynamo import npversion
    >>> npversion.NUMPY >= npversion.FLOOR
    True
"""

from __future__ import annotations

import numpy as np


def parse(text: str) -> tuple[int, int]:
    """(major, minor) of a NumPy version: ``"2.5.0rc1"`` -> (2, 5), ``"2.6.0.dev0+git1"``
    -> (2, 6)."""
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


NUMPY = parse(np.__version__)   # the running NumPy
FLOOR = (2, 4)
# the versions whose function bodies the numpy backend's spelled-out copies were read
# against (np.cross, np.isclose, linalg's gufunc calls): on another, it calls NumPy's own
CHECKED = ((2, 4), (2, 5))


def require() -> None:
    """Stop importing dynamo on a NumPy older than ``FLOOR``, saying what to do."""
    if NUMPY < FLOOR:
        raise ImportError(
            f"dynamo needs NumPy {FLOOR[0]}.{FLOOR[1]} or newer; this is NumPy "
            f"{np.__version__}. Upgrade it (pip install 'numpy>={FLOOR[0]}.{FLOOR[1]}') or "
            "install dynamo with pip without --no-deps, which brings a NumPy it runs on.")


require()   # on import: dynamo/__init__.py imports this module first
