"""Naming user code: which function a code object belongs to, and whose code is ours.

A resume function is a copy of a user function's code named ``f_resume_at_L<line>``
(again for each later break), with the same file and first line, so all of them
name the same function: ``code_key`` is (filename, firstlineno, base qualname).

Example::

    >>> code_key(f_resume_at_L7.__code__)
    ('/src/app.py', 3, 'f')
"""

from __future__ import annotations

import os
import re

_RESUME = re.compile(r"(_resume_at_L\d+)+$")


def _own_dirs() -> tuple[str, ...]:
    """The directories of dynamo's own packages: their code never holds user lines."""
    from dynamo import backends, guards
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return (here + os.sep, *(os.path.dirname(os.path.abspath(m.__file__)) + os.sep
                             for m in (backends, guards)))


_OWN = _own_dirs()


def base_qualname(qualname: str) -> str:
    """``f_resume_at_L7_resume_at_L9`` -> ``f``: the user function a resume code copies."""
    return _RESUME.sub("", qualname)


def code_key(code) -> tuple:
    """(filename, firstlineno, qualname) naming the user function ``code`` belongs to."""
    qual = getattr(code, "co_qualname", code.co_name)
    return (code.co_filename, code.co_firstlineno, base_qualname(qual))


def interesting(filename: str) -> bool:
    # Generated code ("<dynamo glue ...>") and dynamo's own modules never hold user lines.
    return not filename.startswith("<") and not filename.startswith(_OWN)
