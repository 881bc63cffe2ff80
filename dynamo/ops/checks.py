"""``data_check``: a check on array data (``assert np.all(p >= 0)``, ``if np.any(np.isnan(x)):
raise ...``) that stays in the graph instead of breaking it.

The translator traces the way of the check that does not raise and adds
``data_check(flag, passes)``; when the graph runs, the op raises ``DataCheckFailed``
if ``bool(flag)`` is not ``passes``. Only a graph that may be rerun holds one
(``dynamo.raising.rerun_on_raise``: it writes no input, draws no random number), so the
glue turns that exception into ``RerunEagerly`` before it replays any Python effect,
and the frame's original code runs instead: the program's own exception, message,
traceback line and ``except`` handlers, exactly (``translator/raising_checks.py``).

Example::

    >>> data_check(np.all(np.array([1.0, 2.0]) >= 0), True)
    np.True_
    >>> data_check(np.all(np.array([-1.0]) >= 0), True)
    Traceback (most recent call last):
    ...
    dynamo.ops.checks.DataCheckFailed: a data check took the raising way
"""

from __future__ import annotations

import numpy as np

from .registry import OPAQUE, OpDef, register


class DataCheckFailed(Exception):  # noqa: N818 (the glue turns it into RerunEagerly)
    """A ``data_check`` op found the way of the check that raises: the frame reruns."""


def data_check(flag, passes: bool):
    """``flag`` (a 0-d array or scalar: the value the program tests) as a bool, if it is
    ``passes``; else ``DataCheckFailed``."""
    if bool(flag) is not passes:
        raise DataCheckFailed("a data check took the raising way")
    return flag.astype(np.bool_)


def _check_rule(op, flag, passes):
    return flag.with_(dtype=np.dtype(np.bool_))


# (OPAQUE, no effect: passes never drop it, signals.may_signal; "raises": the glue
# reruns the frame when it raises, raising.raising_nodes)
register(OpDef("data_check", data_check, _check_rule, OPAQUE, cupy=data_check,
               doc="a check on array data (`assert`, `if ...: raise`) that reruns the frame "
                   "when it fails", extras={"raises": True}))
