"""A compiled bound method: what ``dynamo.compile(obj.method)`` returns.

Example::

    >>> m = dynamo.compile(model.step)
    >>> m.__self__ is model, m.__func__          # the object, and the compiled function
    (True, <dynamo compiled Model.step backend=auto>)
    >>> pickle.loads(pickle.dumps(m))            # the object and the compiled function
"""

from __future__ import annotations

import operator
import types
from typing import Any

from .entry_trial import follow


class OptimizedMethod:
    """A compiled bound method (``dynamo.compile(obj.method)``): called, read and
    inspected like the bound method (``__self__``, ``__func__``, the signature).

    Not a ``types.MethodType``, which pickles as ``getattr(obj, name)``, that is the
    method uncompiled: this one pickles as its object and its compiled function
    (an ``OptimizedFunction``, ``dynamo/api.py``)."""

    # the bound entry is called from a slot, as OptimizedFunction's
    __slots__ = ("__call__", "__dict__", "__weakref__")

    def __init__(self, func: Any, obj: Any):
        self.__func__, self.__self__ = func, obj
        self.__call__ = types.MethodType(func._call, obj)
        follow(func, self)   # (a timed trial's way reaches it too: entry_trial.py)
        self.__wrapped__ = types.MethodType(func._dynamo_fn, obj)   # inspect.signature
        for name in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(self, name, getattr(func, name))

    _call = property(operator.attrgetter("__call__"))   # as OptimizedFunction's

    def __reduce__(self):
        return OptimizedMethod, (self.__func__, self.__self__)

    def __repr__(self) -> str:
        return f"<dynamo compiled bound method {self.__qualname__} of {self.__self__!r}>"
