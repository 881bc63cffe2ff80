"""Changing numbers one code of a frame learned, for the other codes of the same frame
(issue #16): a program frame and its resume functions each have a cache of their own,
and each learned on its own which of the program's numbers change between calls. A
reward read after a graph break on one side of a branch (``if rng.random() < eps``)
became a graph input there at its first change; the resume function of the other
side, first traced calls later, held it as a constant again, and recompiled at its
next change (stateful corpus 11's ``q_table_epsilon_decay``).

``sibling_numbers(ctx, code)`` is the union of the changing numbers
(``FrameRecord.numbers``) the entries of every other code continuing the same user
code hold, restricted to sources rooted at a name the user's code has (``reward``,
``self``: one variable in every one of them; a resume function's ``___stack0`` is a
different value in each, and is left out). A number read as changing where it is in
fact constant costs no correctness: it is an input whose comparisons are guarded.

Example::

    >>> sibling_numbers(ctx, resume_after_line_54)
    {LocalSource(local='reward')}        # learned by the resume function after line 52
"""

from __future__ import annotations

from dynamo.guards import ClosureSource, LocalSource

from .bytecode.resume import original_code


def sibling_numbers(ctx, code) -> set:
    """The changing-number sources of the entries of the codes that continue the user
    code ``code`` continues (``code`` itself left out: its own entries count already)."""
    user = _user_code(code)
    names = set(user.co_varnames) | set(user.co_cellvars) | set(user.co_freevars)
    found: set = set()
    for other, cache in list(ctx.caches.items()):
        if other is code or _user_code(other) is not user:
            continue
        for entry in cache.entries:
            for source in getattr(entry.record, "numbers", None) or ():
                root = source.root()
                name = getattr(root, "local", None) if isinstance(root, LocalSource) \
                    else getattr(root, "var", None) if isinstance(root, ClosureSource) \
                    else None
                if name in names:
                    found.add(source)
    return found


def _user_code(code):
    """The user's code that ``code`` continues, through resume functions of resume
    functions (a break after a break)."""
    for _ in range(64):   # (a chain of resumes is as long as the breaks in one frame)
        up = original_code(code)
        if up is code:
            break
        code = up
    return code
