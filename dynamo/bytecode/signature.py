"""A code object's parameters, read in one place.

CPython lays a frame's arguments out in *frame order*: the positional parameters, the
keyword-only ones, then the ``*args`` tuple and the ``**kwargs`` dict, as the first
``co_varnames``. The wrapper binds a call once and passes the values on in that order
(every generated function, the glue and resume functions take them "flat": all
positional, ``*args``/``**kwargs`` as plain values).

Example::

    >>> def f(a, /, b, *rest, c, **kw): ...
    >>> p = Params.of(f.__code__)
    >>> p.positional, p.posonly, p.kwonly, p.varargs, p.varkw
    (('a', 'b'), 1, ('c',), 'rest', 'kw')
    >>> p.frame_order
    ('a', 'b', 'c', 'rest', 'kw')
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

# The flags of a code object that takes *args / **kwargs; a flat code has neither.
STAR_FLAGS = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS


@dataclass(frozen=True)
class Params:
    positional: tuple[str, ...]      # positional-or-keyword, the positional-only first
    posonly: int                     # how many of them are positional-only
    kwonly: tuple[str, ...]
    varargs: str | None              # the name of *args, if any
    varkw: str | None                # the name of **kwargs, if any

    @classmethod
    def of(cls, code) -> Params:
        names = code.co_varnames
        nargs, nkw = code.co_argcount, code.co_kwonlyargcount
        i = nargs + nkw
        varargs = names[i] if code.co_flags & inspect.CO_VARARGS else None
        i += varargs is not None
        varkw = names[i] if code.co_flags & inspect.CO_VARKEYWORDS else None
        return cls(tuple(names[:nargs]), code.co_posonlyargcount,
                   tuple(names[nargs:nargs + nkw]), varargs, varkw)

    @property
    def frame_order(self) -> tuple[str, ...]:
        """The frame's argument names, in the order a flat call passes them."""
        stars = tuple(n for n in (self.varargs, self.varkw) if n is not None)
        return self.positional + self.kwonly + stars
