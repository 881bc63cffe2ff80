"""Running NumPy at trace or compile time without the program noticing its warnings.

Probes (an op run on tiny arrays to learn its result's dtype), constant folding and
backend constants run NumPy while the program is compiled, and must neither show a
warning nor hide one from the program. ``warnings.catch_warnings`` with
``simplefilter`` would do it, but every change of the filters that way invalidates
every ``__warningregistry__`` (the filters' version changes): under the "default"
filter, a warning that plain Python shows once per location would be shown again after
each compile (a resume function compiled after its first call has warned). So these
add their filter to ``warnings.filters`` and take it out again in place, which leaves
the version and the registries as they were. Filters with the action "ignore" or
"error" never write a registry, so the program's state is untouched.

Example::

    >>> with warnings_as("error"):
    ...     np.float32(1e300)      # raises RuntimeWarning (overflow): not folded
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def warnings_as(action: str) -> Iterator[None]:
    """Every warning raised inside takes ``action`` ("ignore" or "error"); the
    warnings filters are as they were afterwards, their version unchanged."""
    if action not in ("ignore", "error"):
        raise ValueError(f"warnings_as: {action!r} would write warning registries")
    filters = warnings.filters
    entry = (action, None, Warning, None, 0)
    filters.insert(0, entry)
    try:
        yield
    finally:
        for i, item in enumerate(filters):   # (by identity: one nested inside may be
            if item is entry:                #  taken out first)
                del filters[i]
                break
