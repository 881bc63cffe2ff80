"""The ``native`` backend: tier 1 is the numpy backend; a hot graph gets tier 2, loop
nests compiled by Numba in a background thread (docs/native.md).

Example::

    >>> fn = dynamo.compile(step, backend="native", options={"after_calls": 3})
    >>> fn(A, B)                          # tier 1 (the numpy backend)
    >>> fn.__wrapped_graph_fn__.wait()    # (tests) tier 2 compiled

Options (checked at ``dynamo.compile``):

- ``after_calls`` (int, default ``dynamo.config.native_after_calls``) and ``after_ms``
  (number, default ``dynamo.config.native_after_ms``): a graph becomes hot after this
  many calls or this much time spent in it, whichever comes first;
- ``background`` (default True): compile in a thread; False compiles in the call that
  made the graph hot (tests);
- ``prefer``: ``"measure"`` (default: the first ``trial_calls`` calls of each tier are
  timed, the faster stays), ``"native"`` (always tier 2 once compiled), ``"tier1"``;
- ``trial_calls`` (default 3);
- ``cache`` (default True): kernels cached on disk (``cache_dir``, default
  ``$XDG_CACHE_HOME/dynamo/native``), so a new process skips Numba's compile;
- ``cache_load``: whether the first call of a graph whose kernel is in the disk cache
  waits for its load (in the background): ``"auto"`` (default: when Numba is set up in
  the process already, about 12 ms of CPU, for at most ``tier.AUTO_WAIT_S``; not when
  Numba's import and setup are still to come, 0.6-0.8 s of CPU), ``"first_call"``
  (always, until loaded: tier 2 from the second call, the first call paying Numba's
  setup), ``"background"`` (never);
- ``parallel_min_elements`` (default 16384): nests this large get a ``prange``;
- ``max_kernel_lines`` (default ``dynamo.config.native_max_kernel_lines``, 1500; 0: no
  limit): a graph whose kernel has more lines stays in tier 1 unless the disk cache
  holds its machine code (Numba's compile of it would take tens of seconds of CPU,
  holding the GIL while tier 1 runs: compile_cost.py);
- ``compile_process`` (default True): with the disk cache and ``background``, Numba
  compiles the kernel in a child process that fills the cache, and the tier's thread
  loads it (child_compile.py): Numba's compiler holds the GIL, and tier 1's calls in
  the program's thread ran 2.6 times slower beside a compile in a thread;
- ``compile_timeout_s`` (number >= 0, default ``dynamo.config.native_compile_timeout_s``,
  600; 0: no limit): a child compile still running after this many seconds is killed,
  the graph stays in tier 1 and the ``backend`` log channel says so;
- ``numba_draws`` (default True): ``standard_normal``/``random`` drawn by Numba where a
  probe finds its draws equal to NumPy's (nopython_draws.py); False: NumPy calls;
- ``numpy``: a dict of options for tier 1 (the numpy backend's).
"""

from __future__ import annotations

import importlib.util
import itertools
import logging
import numbers

from dynamo.config import config
from dynamo.graph import Graph

from ..numpy_backend.backend import numpy_code
from ..numpy_backend.options import Options as NumpyOptions
from ..numpy_backend.sizes import PerSize
from .compile_cost import too_big
from .kernel_files import cache_dir_default, module_source
from .lower import Unsupported, lower
from .size_variants import native_variants
from .tier import Settings, Tiered

log = logging.getLogger("dynamo.backend")
_counter = itertools.count()

HOW_TO_INSTALL = "backend 'native' needs Numba: pip install arraydynamo[native]"



def numba_missing() -> bool:
    try:
        return importlib.util.find_spec("numba") is None
    except (ImportError, ValueError):   # sys.modules["numba"] is None: blocked
        return True


if numba_missing():
    # raised from dynamo.compile(..., backend="native"), which imports this module
    raise ImportError(HOW_TO_INSTALL)

_KEYS = {"after_calls", "after_ms", "background", "prefer", "trial_calls", "cache",
         "cache_dir", "cache_load", "parallel_min_elements", "numpy", "numba_draws",
         "max_kernel_lines", "compile_process", "compile_timeout_s"}


def parse_options(options: dict | None) -> tuple[Settings, dict, int]:
    """(tier settings, tier-1 options, parallel_min_elements); ValueError names a bad
    option."""
    options = dict(options or {})
    unknown = sorted(set(options) - _KEYS)
    if unknown:
        raise ValueError(f"unknown option(s) for backend 'native': {unknown}; options: "
                         f"{sorted(_KEYS)}")
    for name in ("after_calls", "trial_calls", "parallel_min_elements", "max_kernel_lines"):
        v = options.get(name, 1)
        least = 0 if name in ("after_calls", "max_kernel_lines") else 1
        if not isinstance(v, int) or isinstance(v, bool) or v < least:
            raise ValueError(f"option {name!r} of backend 'native' must be an int >= "
                             f"{least}, got {v!r}")
    for name in ("after_ms", "compile_timeout_s"):   # (the config's default too)
        v = options.get(name, getattr(config, f"native_{name}"))
        if not isinstance(v, numbers.Real) or isinstance(v, bool) or not v >= 0:
            raise ValueError(f"option {name!r} of backend 'native' (default: dynamo.config."
                             f"native_{name}) must be a number >= 0, got {v!r}")
    for name in ("background", "cache", "numba_draws", "compile_process"):
        if not isinstance(options.get(name, True), bool):
            raise ValueError(f"option {name!r} of backend 'native' must be True or False, "
                             f"got {options[name]!r}")
    if options.get("prefer", "measure") not in ("measure", "native", "tier1"):
        raise ValueError(f"option 'prefer' of backend 'native' must be 'measure', 'native' "
                         f"or 'tier1', got {options['prefer']!r}")
    if options.get("cache_load", "auto") not in ("auto", "first_call", "background"):
        raise ValueError(f"option 'cache_load' of backend 'native' must be 'auto', "
                         f"'first_call' or 'background', got {options['cache_load']!r}")
    cache_dir = options.get("cache_dir")
    if cache_dir is not None and not isinstance(cache_dir, str):
        raise ValueError(f"option 'cache_dir' of backend 'native' must be a path, got "
                         f"{cache_dir!r}")
    tier1 = options.get("numpy") or {}
    if not isinstance(tier1, dict):
        raise ValueError("option 'numpy' of backend 'native' must be a dict of the numpy "
                         "backend's options")
    NumpyOptions.parse(tier1)
    settings = Settings(
        after_calls=options.get("after_calls", config.native_after_calls),
        after_ms=float(options.get("after_ms", config.native_after_ms)),
        background=options.get("background", True),
        prefer=options.get("prefer", "measure"),
        trial_calls=options.get("trial_calls", 3),
        numba_draws=options.get("numba_draws", True),
        cache_load=options.get("cache_load", "auto"),
        max_kernel_lines=options.get("max_kernel_lines", config.native_max_kernel_lines),
        compile_process=options.get("compile_process", True),
        compile_timeout_s=float(options.get("compile_timeout_s",
                                            config.native_compile_timeout_s)),
        cache_dir=(cache_dir or cache_dir_default()) if options.get("cache", True) else None)
    return settings, tier1, options.get("parallel_min_elements", 1 << 14)


def native_backend(graph: Graph, example_inputs, options: dict | None = None):
    """Tier 1 (the numpy backend) now; tier 2 (Numba loop nests) once the graph is hot."""
    settings, tier1_options, parallel_min = parse_options(options)
    # (the code returning the tuple of outputs: Tiered calls it, and a wrapper over
    # code returning one output bare, numpy_backend's, would add a frame a call)
    tier1 = numpy_code(graph, example_inputs, tier1_options or None)
    if isinstance(tier1, PerSize):   # symbolic sizes: a Tiered per static variant
        return native_variants(tier1, lambda static, inputs:
                               native_backend(static, inputs, options))
    try:
        kernel = lower(graph, parallel_min)
        source = module_source(kernel)   # (the file's text: a constant it cannot write
                                         # failed the compile, lotka_volterra's tuple)
    except Unsupported as e:
        log.info("native tier: graph stays in tier 1: %s", e)
        return tier1
    except Exception:  # noqa: BLE001 (a bug of the lowering: tier 1 is still right)
        log.warning("native tier: graph stays in tier 1: lowering it failed (an internal "
                    "error of dynamo's native tier; please report it)", exc_info=True)
        return tier1
    return tiered(kernel, tier1, settings, source)


def tiered(kernel, tier1, settings: Settings, source: str):
    """The ``Tiered`` of a lowered graph, named anew in this process; ``tier1`` alone
    where its kernel (module source ``source``) is too big to compile (compile_cost.py).
    ``native_backend`` calls it, and so does a Tiered loaded from dynamo's disk cache
    (stored_tier.py)."""
    why = too_big(source, settings.max_kernel_lines, settings.cache_dir)
    if why is not None and settings.prefer != "tier1":
        log.info("native tier: graph stays in tier 1: %s", why)
        return tier1
    name = f"g{next(_counter)}"
    log.debug("native tier: graph %s lowered\n%s", name, kernel.source)
    return Tiered(kernel, tier1, settings, name)


native_backend.dynamic_shapes = True   # symbolic graphs: a Tiered per size (size_variants)
native_backend.check_options = parse_options
