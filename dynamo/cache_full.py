"""What the recompiles log says when a function's cache is full (``hook.full``): why the
last call missed each entry, and the guard most entries fail with advice that fits it.

Example (a counter read as a size, eight entries)::

    >>> why_missed(cache.entries, args + (closure,))
    '    entry 0: self.n == 8 no longer holds (...)\n    entry 1: ...'
    >>> advice(cache.entries, args + (closure,))
    'self.n changes on every call: ...'
"""

from __future__ import annotations

from dynamo.guards import CONSTANT, EXPR, keeps_failing

from .guard_words import carried_in_words, readable_expr


def why_missed(entries, call: tuple, ctx=None) -> str:
    """One line per entry, most recent first: the first guard it fails on ``call``
    (the flat arguments and the closure), in words; then, given the compile context
    ``ctx``, the advice for a backend of static shapes (``static_backend_note``)."""
    lines = []
    for i, entry in enumerate(entries):
        failed = entry.check.failures(call) if hasattr(entry.check, "failures") else []
        code = getattr(entry.record, "code", None)
        # (a guard kept as generated code's text, ``___G['C'].n == 0``: in the program's names)
        why = readable_expr(carried_in_words(failed[0], code), code) if failed \
            else "guard check failed"
        lines.append(f"    entry {i}: {why}")
    return "\n".join(lines) + (static_backend_note(ctx, entries, call) if ctx else "")


def advice(entries, call: tuple) -> str:
    """The guard most entries fail, with advice that fits it (``guards.keeps_failing``)."""
    failed = [f[0] for e in entries if hasattr(e.check, "failed_guards")
              for f in [e.check.failed_guards(call)] if f]
    code = next((e.record.code for e in entries if e.record is not None), None)
    # (its advice spells a source as code to write: in the program's names)
    return readable_expr(carried_in_words(keeps_failing(failed), code), code) or \
        "If the shapes or values really vary this much, raise dynamo.config.cache_size_limit."


def static_backend_note(ctx, entries, call: tuple) -> str:
    """A line of advice where the backend takes static shapes only (a user's backend
    function that does not set ``dynamic_shapes = True``) and two entries or more failed
    on the value of a Python int: such a backend's entries pin a changing int that the
    trace needs as a size or a plain int (an entry per value). One used only in
    arithmetic (``0.9 ** t``) is an input from its second value on, as a changing float
    is (issue #16), so one entry failing on the first call's value says nothing yet.
    Empty otherwise.

        >>> static_backend_note(ctx, cache.entries, args)   # backend=my_backend, n pinned
        "\nThe backend 'my_backend' takes static shapes only: ..."
    """
    backend = getattr(ctx, "backend", None)
    if backend is None or getattr(backend, "dynamic_shapes", False):
        return ""
    failed = [f[0][0] for e in entries if hasattr(e.check, "failed_guards")
              for f in [e.check.failed_guards(call)] if f]
    if sum(g.kind == CONSTANT and type(g.expected) is int or
           g.kind == EXPR and "plain int: pinned" in g.note for g in failed) < 2:
        return ""
    name = getattr(ctx, "backend_name", None) or getattr(backend, "__name__", "backend")
    return (f"\nThe backend {name!r} takes static shapes only (it does not set "
            f"dynamic_shapes = True): a changing Python int used as a size or a plain "
            f"int is pinned, one entry per value (one used only in arithmetic, like a "
            f"changing float, is passed in as an input). "
            f"If it accepts symbolic sizes and Python numbers among its inputs, set "
            f"{name}.dynamic_shapes = True (docs/dynamic_shapes.md).")
