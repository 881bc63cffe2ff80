"""The debug log: stdlib ``logging`` under the ``dynamo`` logger, one child per channel.

Channels: graph_breaks, recompiles, guards, graph, bytecode, backend, loops, cudagraphs,
cache (the on-disk cache of compiles). ``guards`` prints each entry's guards in words with
the values they expect; ``+guards`` adds the generated check function (the logger
``dynamo.guards.code``, for debugging dynamo itself).
Switch them on with ``DYNAMO_LOGS=graph_breaks,recompiles`` (``all`` for every one)
or ``dynamo.set_logs("graph_breaks", "graph")``. Records go to stderr through one
handler on the ``dynamo`` logger unless the application configured its own.

A backend that compiles one variant per set of sizes of a graph traced once with
symbolic sizes logs each on ``recompiles`` with ``log_size_variant``: the record carries
a ``SizeVariant`` (``record.size_variant``), so tools (``dynamo.explain``, the annotate
report) tell it from a recompile of the frame without reading its words.

Example::

    >>> import dynamo, logging
    >>> dynamo.set_logs("graph_breaks")
    >>> logging.getLogger("dynamo.graph_breaks").isEnabledFor(logging.DEBUG)
    True
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field

CHANNELS = ("graph_breaks", "recompiles", "guards", "graph", "bytecode", "backend", "loops",
            "cudagraphs", "cache")

root = logging.getLogger("dynamo")
_handler: logging.Handler | None = None

# The generated check function of each entry (``___c3``, ``___expected``: the code as it
# runs), below the ``guards`` channel's guards in words: for debugging dynamo itself,
# so only on request (``DYNAMO_LOGS=+guards``, or this logger's level set to DEBUG).
guards_code = logging.getLogger("dynamo.guards.code")
guards_code.setLevel(logging.WARNING)


def get(channel: str) -> logging.Logger:
    """The logger of one channel (``dynamo.<channel>``)."""
    if channel not in CHANNELS and channel != "internal":
        raise ValueError(f"unknown log channel {channel!r}; channels: {', '.join(CHANNELS)}")
    return logging.getLogger(f"dynamo.{channel}")


# The attribute of a ``recompiles`` record that is a backend's size variant.
SIZE_VARIANT = "size_variant"


@dataclass
class SizeVariant:
    """A backend's compile of a symbolic graph for one call's sizes: not a recompile of
    the frame (its guards held; the trace is the same), so counted apart from them::

        >>> log_size_variant(SizeVariant(id(graph), {"s0": 4}, 1),
        ...                  "numpy backend: graph %s compiles a variant", "3 ops")
        >>> record.size_variant.sizes     # (a handler's record)
        {'s0': 4}
    """

    graph: int                       # id() of the graph the backend was given
    sizes: dict[str, int] = field(default_factory=dict)   # symbol -> value ({}: generic)
    number: int = 0                  # the graph's static variants so far
    generic: bool = False            # from now on new sizes run size-generic code


def log_size_variant(variant: SizeVariant, message: str, *args) -> None:
    """Log ``message % args`` on the ``recompiles`` channel as ``variant``."""
    get("recompiles").debug(message, *args, extra={SIZE_VARIANT: variant})


def set_logs(*channels: str) -> None:
    """Enable exactly these channels (``"all"`` for every one); none disables all.
    ``"+guards"`` adds the generated check functions to the guards in words."""
    verbose = {c.lstrip("+") for c in channels if c.startswith("+")}
    channels = tuple(c.lstrip("+") for c in channels)
    names = set(CHANNELS) if "all" in channels else set(channels)
    unknown = names - set(CHANNELS)
    if unknown:
        raise ValueError(f"unknown log channel(s) {sorted(unknown)}; "
                         f"channels: {', '.join(CHANNELS)}")
    for ch in CHANNELS:
        logging.getLogger(f"dynamo.{ch}").setLevel(logging.DEBUG if ch in names
                                                   else logging.WARNING)
    guards_code.setLevel(logging.DEBUG if "guards" in verbose else logging.WARNING)
    if names:
        _ensure_handler()


def _ensure_handler() -> None:
    """Print records to stderr unless the application has configured logging itself.

    Warnings (such as a frame falling back to eager) reach stderr either way through
    logging's last-resort handler.
    """
    global _handler
    if _handler is None and not root.handlers and not logging.getLogger().handlers:
        _handler = logging.StreamHandler()
        _handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
        root.addHandler(_handler)


def init_from_env() -> None:
    spec = os.environ.get("DYNAMO_LOGS", "").strip()
    if spec:
        set_logs(*[s.strip() for s in spec.split(",") if s.strip()])
