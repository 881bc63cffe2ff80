"""Reads of an object's own attributes at trace time that do not make its ``__dict__``
(issue #15).

On CPython 3.11 and 3.12 an instance of a class without ``__slots__`` keeps its
attributes inline until something reads its ``__dict__``; the first read makes a dict
of them, for good (``pyversion.READING_DICT_MAKES_IT``). From then on each attribute
read and write of the object misses the interpreter's specialized paths: a plain
method reading and writing three attributes runs 25% more machine instructions a call
(callgrind, 3.11.7), and so do the guards and glue of its compiled calls, which read
the same attributes. The trace read the ``__dict__`` of every object whose attributes
it read (``inspect.getattr_static``) or wrote, so a compiled method's own object, and
every object it only reads (a model's weights), paid it for the rest of the program.

A dict made for an object is one of its GC referents (``gc.get_referents``: the
traverse of a class with a managed dict, ``Py_TPFLAGS_MANAGED_DICT``, visits it; while
the attributes are inline it visits their values instead). Where no dict is among
them the dict was never made (``unmade``), and where, besides, no class of the MRO has
an entry of the name, ``object.__getattribute__`` finds nothing but the instance's own
value: no descriptor of that name exists and it never calls ``__getattr__``, so no
code of the program runs and no dict is made. Elsewhere the ``__dict__`` is read as
before. (A guard that reads ``o.__dict__``, ``not (o.__dict__ is ___G)`` for an object
the program writes, still makes it on the first hit: a test of the referents in its
place cost about 5,500 instructions a call, more than the dict's 1,400-3,400.)

Example::

    >>> o = Point(); o.x = 1                # its attributes inline (3.11)
    >>> static_lookup(o, "x")               # getattr_static's answer, and "in o's dict"
    (1, True)
    >>> unmade(o)                           # o still has no dict made
    True
"""

from __future__ import annotations

import gc
import inspect

from . import pyversion

# ``Py_TPFLAGS_MANAGED_DICT`` (3.11, 3.12): the class keeps its instances' dict itself
MANAGED_DICT = 1 << 4

# a class's namespace and MRO read without its metaclass's help
_class_dict = type.__dict__["__dict__"].__get__
_MRO = type.__dict__["__mro__"].__get__


def unmade(value) -> bool:
    """``value``'s class keeps a ``__dict__`` for it that was never made (its attributes
    are inline: no dict among its referents), where reading it would make it."""
    return bool(pyversion.READING_DICT_MAKES_IT and type(value).__flags__ & MANAGED_DICT
                and not any(isinstance(r, dict) for r in gc.get_referents(value)))


def _inline_only(obj, name: str) -> bool:
    """``object.__getattribute__(obj, name)`` would read only ``obj``'s inline value and
    make no dict: the dict is unmade and no class of the MRO has an entry ``name``."""
    return unmade(obj) and not any(name in _class_dict(k) for k in _MRO(type(obj)))


def static_lookup(obj, name: str):
    """``(inspect.getattr_static(obj, name), name in obj.__dict__)`` for an instance
    ``obj`` (raising ``AttributeError`` as ``getattr_static`` does), without making its
    dict where ``_inline_only`` answers; elsewhere as before (``getattr_static`` reads
    the ``__dict__``).

        >>> o = Point(); o.x = 1
        >>> static_lookup(o, "x")               # (1, True), o's dict still not made
    """
    if _inline_only(obj, name):
        try:
            return object.__getattribute__(obj, name), True
        except AttributeError:
            raise AttributeError(name) from None
    static = inspect.getattr_static(obj, name)
    return static, name in getattr(obj, "__dict__", {})


def own_attribute(obj, name: str):
    """``obj``'s own attribute ``name`` from its ``__dict__`` (no descriptor, no
    ``__getattr__`` runs), or None; without making the dict where ``_inline_only``
    answers."""
    if _inline_only(obj, name):
        try:
            return object.__getattribute__(obj, name)
        except AttributeError:
            return None
    try:
        d = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return None
    return dict.get(d, name) if type(d) is dict else None
