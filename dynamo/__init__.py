"""dynamo: bytecode-level graph capture for NumPy and CuPy programs.

Example::

    import numpy as np, dynamo

    @dynamo.compile             # backend="auto": the numpy backend (and Numba's tier)
    def gelu(x):
        return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))

    y = gelu(np.random.rand(1000).astype(np.float32))   # traced once, then cached
    print(dynamo.explain(gelu)(x))                       # graphs, breaks, guards

Public API: ``compile``, ``explain``, ``reset``, ``list_backends``,
``register_backend``, ``register_op``, ``mark_dynamic``, ``set_logs``, ``config``,
``Unsupported``.
"""

from __future__ import annotations

# first: on a NumPy older than the ones dynamo runs on, the import stops here, saying why
from dynamo import npversion  # noqa: F401
from dynamo.backends import DEFAULT_BACKEND, list_backends, register_backend

from . import logs
from .api import OptimizedFunction, OptimizedModule, compile
from .config import config
from .exc import BackendError, DynamoError, Unsupported
from .explain import ExplainOutput, explain
from .logs import set_logs
from .ops.public import register_op
from .symbolic import mark_dynamic


def reset() -> None:
    """Drop every compiled entry of every compiled function (they recompile on next call)."""
    from . import entry_trial, hook
    hook.reset_all()   # the dropped entries' generated sources leave linecache with them
    entry_trial.reset_all()   # compiled functions time both ways again


logs.init_from_env()

__all__ = [
    "BackendError", "DynamoError", "ExplainOutput", "OptimizedFunction", "OptimizedModule",
    "Unsupported", "annotate", "compile", "config", "explain", "list_backends",
    "register_backend",
    "mark_dynamic", "register_op", "reset", "set_logs",
]


def annotate(fn, output="annotate.html", backend=DEFAULT_BACKEND, **options):
    """``dynamo.annotate(fn, output="report.html")(*args)``: run ``fn`` compiled and write
    an annotated-source HTML report (see :mod:`dynamo.report`, loaded on first use so
    that ``import dynamo`` stays light)."""
    from .report.api import annotate as build
    return build(fn, output, backend, **options)
