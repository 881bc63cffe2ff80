"""What the recompiles log says when a function's cache is full (``hook.full``): why the
last call missed each entry, and the guard most entries fail with advice that fits it.

Example (a counter read as a size, eight entries)::

    >>> why_missed(cache.entries, args + (closure,))
    '    entry 0: self.n == 8 no longer holds (...)\n    entry 1: ...'
    >>> advice(cache.entries, args + (closure,))
    'self.n changes on every call: ...'
"""

from __future__ import annotations

from dynamo.guards import keeps_failing

from .guard_words import carried_in_words, readable_expr


def why_missed(entries, call: tuple) -> str:
    """One line per entry, most recent first: the first guard it fails on ``call``
    (the flat arguments and the closure), in words."""
    lines = []
    for i, entry in enumerate(entries):
        failed = entry.check.failures(call) if hasattr(entry.check, "failures") else []
        code = getattr(entry.record, "code", None)
        # (a guard kept as generated code's text, ``___G['C'].n == 0``: in the program's names)
        why = readable_expr(carried_in_words(failed[0], code), code) if failed \
            else "guard check failed"
        lines.append(f"    entry {i}: {why}")
    return "\n".join(lines)


def advice(entries, call: tuple) -> str:
    """The guard most entries fail, with advice that fits it (``guards.keeps_failing``)."""
    failed = [f[0] for e in entries if hasattr(e.check, "failed_guards")
              for f in [e.check.failed_guards(call)] if f]
    code = next((e.record.code for e in entries if e.record is not None), None)
    # (its advice spells a source as code to write: in the program's names)
    return readable_expr(carried_in_words(keeps_failing(failed), code), code) or \
        "If the shapes or values really vary this much, raise dynamo.config.cache_size_limit."
