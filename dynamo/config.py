"""Settings. Change them as attributes: ``dynamo.config.cache_size_limit = 16``.

An assignment is checked when it is made: an unknown name, a value of the wrong type or
out of range raises at once, naming what is allowed, instead of failing later inside a
compile.

Example::

    >>> import dynamo
    >>> dynamo.config.cache_size_limit
    8
    >>> dynamo.config.cache_size_limt = 16
    Traceback (most recent call last):
    AttributeError: dynamo.config has no setting 'cache_size_limt'; did you mean ...
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, fields

# The smallest value each int setting accepts.
_MINIMUM = {"cache_size_limit": 0, "max_unroll": 0, "max_graph_nodes": 1,
            "inline_depth_limit": 0, "max_restarts": 0, "loop_unroll_limit": 2,
            "outline_min_elements": 0, "outline_trial_calls": 0,
            "callee_trial_calls": 0, "entry_trial_calls": 0}


@dataclass
class Config:
    cache_size_limit: int = 8
    """Compiled entries kept per code object; past it, new guard combinations run eagerly."""

    max_unroll: int = 1024
    """Loop iterations the translator unrolls in one frame before it gives up on the loop."""

    loop_unroll_limit: int = 8
    """``for`` loops over a ``range`` with at most this many iterations are unrolled;
    longer ones become one loop node whose body is traced once (docs/loops.md). Short
    loops unroll because straight-line code fuses across iterations; past a few
    iterations the compile time and code size of unrolling outweigh that."""

    nested_loop_nodes: bool = True
    """A ``for`` loop over a ``range`` inside the body of a loop node that is being
    traced becomes a loop node of its own in that body (nested loop nodes,
    docs/loops.md); False: it is unrolled into the outer body, as before."""

    outline_min_elements: int = 32768
    """A ``for`` loop whose body breaks is outlined (its body compiled as a function of
    its own, called per trip: docs/loops.md) only when the frame holds an array of at
    least this many elements at the loop. Each outlined trip pays a dispatch, guards
    and glue (about 6 us); on smaller arrays fusing the body cannot win that back, so
    the loop runs as plain Python, at Python's speed. So does a loop over a ``range``
    whose trips have fewer than ``outline_min_elements // 64`` elements of that array
    each (one trip per element or row), on its first calls: see
    ``outline_trial_calls``."""

    outline_trial_calls: int = 3
    """A loop that can be outlined (``outline_min_elements``) runs both ways on the
    frame's first calls, outlined and as plain Python, this many timed calls each
    (interleaved, CPU time, after one untimed call each), and the faster stays
    (dynamo/outline_trial.py; the ``loops`` log says which won). 0: no trial, the
    static rule decides (a loop of one trip per element or row runs as plain Python,
    any other is outlined)."""

    callee_trial_calls: int = 8
    """A loop that runs as Python (the code at a graph break) calls each user function
    both ways on its first calls, compiled and plain, this many timed calls each
    (interleaved, after one untimed call each), and the faster way stays for the next
    4096 calls, then both are timed again (dynamo/callee_trial.py; the ``backend`` log
    says which won). 0: no trial, every such call runs compiled."""

    entry_trial_calls: int = 3
    """A compiled function (``dynamo.compile(fn)``, its bound methods, a compiled
    object's ``__call__``) on the ``numpy`` or ``auto`` backend runs both ways on its
    first calls (on ``auto`` with Numba once its graphs' native tiers have settled:
    dynamo/entry_wait.py), compiled and as the plain
    function, this many timed calls each (interleaved, after one untimed call each;
    more where the two are close), and the faster way takes its calls (the plain way
    only where it is over 10% faster); a compiled call over 1 s ends the trial at
    once (compiled). The plain way times one call in 64 and starts a new trial when
    one takes 4x its trial's best, or after 4096 calls (dynamo/entry_trial.py,
    docs/guards.md "Compiled or plain"; the ``backend`` log says which won). 0:
    no trial, every call runs compiled (the test suite's default: tests/conftest.py).
    Read when the function is compiled."""

    data_checks: bool = True
    """A check on array data whose failing way only raises (``assert np.all(p >= 0)``,
    ``if np.any(np.isnan(x)): raise ValueError(...)``) is an op of the graph, and the
    frame's original code runs when it fails (docs/graph_breaks.md, "Checks on array
    data"). False: such a check is a graph break."""

    branch_selects: bool = True
    """An ``if`` on array data whose two ways only compute values (``if x.sum() > 0: y
    = x * 2 else: y = -x``: no Python effect, no write, no loop, the same shapes and
    dtypes where they join) traces both ways and joins them with a ``branch_select``
    op (docs/graph_breaks.md, "Ifs that choose a value"). False: such an ``if`` is a
    graph break."""

    defer_prints: bool = False
    """``print(...)`` to ``sys.stdout`` is an effect the glue replays after the graph,
    with the same text, in order, where that is exact (docs/graph_breaks.md, "print()
    after the graph"); a graph holding one reruns the frame eagerly when it warns or
    raises. False (the default for now): a print is a graph break."""

    max_graph_nodes: int = 20000
    """Graph size past which tracing stops (the frame runs eagerly, reason logged)."""

    inline_depth_limit: int = 32
    """Nested user-function inlining deeper than this is a graph break (deep recursion)."""

    max_restarts: int = 16
    """How many times one frame's trace may start over after learning where it breaks."""

    automatic_dynamic: bool = True
    """With ``dynamic=None``: recompile with symbolic sizes after a size-only miss."""

    native_after_calls: int = 10
    """``backend="native"``, and ``"auto"`` (the default) where Numba is installed: a
    graph called this many times is hot; its tier 2 (Numba loop nests, docs/native.md)
    compiles in the background. A backend option ``after_calls`` overrides it."""

    native_after_ms: int = 50
    """``backend="native"`` (and ``"auto"``): ... or once this many milliseconds were
    spent in it."""

    native_max_kernel_lines: int = 1500
    """``backend="native"`` (and ``"auto"``): a graph whose kernel (Numba loop nests) has
    more source lines than this stays in tier 1, unless the disk cache holds its machine
    code: Numba's compile of Nesterov's 2682 lines took 88 s of CPU in the background
    thread, holding the GIL, and tier 1's calls ran 3-5 times slower meanwhile
    (docs/native.md). 0: no limit. A backend option ``max_kernel_lines`` overrides it."""

    native_compile_timeout_s: int = 600
    """``backend="native"`` (and ``"auto"``): Numba's compile of a kernel in a child
    process (the option ``compile_process``) still running after this many seconds is
    killed, and the graph stays in tier 1 (logged on the ``backend`` channel). 0: no
    limit. A backend option ``compile_timeout_s`` overrides it."""

    disk_cache_dir: str | None = os.environ.get("DYNAMO_CACHE_DIR") or None
    """A directory for the on-disk cache of compiles (``dynamo.disk_cache``): worker
    processes that share it skip tracing what another process compiled. None (the
    default, unless the environment variable ``DYNAMO_CACHE_DIR`` names one): off."""

    verbose: bool = bool(os.environ.get("DYNAMO_VERBOSE"))
    """Log full tracebacks of internal errors (they always fall back to eager)."""

    strict_backends: bool = bool(os.environ.get("DYNAMO_STRICT_BACKENDS"))
    """What a built-in backend's failure to compile a graph does. Such a failure is a bug
    in dynamo, not in the program: by default (False) that graph runs on the eager
    backend (the graph's own NumPy calls, same results) and the ``internal`` log
    channel says so; True raises ``BackendError`` instead, as a user's own backend's
    failure always does (dynamo's own tests set it, so such a bug fails them)."""

    def __setattr__(self, name: str, value) -> None:
        error = _problem(name, value)
        if error is not None:   # raised here: the one frame of dynamo's the program sees
            raise error
        object.__setattr__(self, name, value)

    def describe(self) -> str:
        return "\n".join(f"{f.name} = {getattr(self, f.name)!r}" for f in fields(self))


def _problem(name: str, value) -> Exception | None:
    """The error to raise if ``config.<name> = value`` is not a valid setting."""
    kinds = {f.name: f.type for f in fields(Config)}
    if name not in kinds:
        close = difflib.get_close_matches(name, kinds, n=1)
        maybe = f"did you mean {close[0]!r}? " if close else ""
        return AttributeError(f"dynamo.config has no setting {name!r}; {maybe}"
                              f"settings: {', '.join(sorted(kinds))}")
    if kinds[name] == "str | None":
        if value is not None and not isinstance(value, str):
            return TypeError(f"dynamo.config.{name} must be a str (a path) or None, got "
                             f"{type(value).__name__} {value!r}")
        return None
    if kinds[name] in (bool, "bool"):
        if not isinstance(value, bool):
            return TypeError(f"dynamo.config.{name} must be True or False, got {value!r}")
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return TypeError(f"dynamo.config.{name} must be an int, got "
                         f"{type(value).__name__} {value!r}")
    if value < _MINIMUM.get(name, 0):
        return ValueError(f"dynamo.config.{name} must be >= {_MINIMUM.get(name, 0)}, "
                          f"got {value!r}")
    return None


config = Config()
