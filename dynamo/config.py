"""Settings. Change them as attributes: ``dynamo.config.cache_size_limit = 16``.

Example::

    >>> import dynamo
    >>> dynamo.config.cache_size_limit
    8
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields


@dataclass
class Config:
    cache_size_limit: int = 8
    """Compiled entries kept per code object; past it, new guard combinations run eagerly."""

    max_unroll: int = 1024
    """Loop iterations the translator unrolls in one frame before it gives up on the loop."""

    max_graph_nodes: int = 20000
    """Graph size past which tracing stops (the frame runs eagerly, reason logged)."""

    inline_depth_limit: int = 32
    """Nested user-function inlining deeper than this is a graph break (deep recursion)."""

    max_restarts: int = 16
    """How many times one frame's trace may start over after learning where it breaks."""

    automatic_dynamic: bool = True
    """With ``dynamic=None``: recompile with symbolic sizes after a size-only miss."""

    verbose: bool = bool(os.environ.get("DYNAMO_VERBOSE"))
    """Log full tracebacks of internal errors (they always fall back to eager)."""

    def describe(self) -> str:
        return "\n".join(f"{f.name} = {getattr(self, f.name)!r}" for f in fields(self))


config = Config()
