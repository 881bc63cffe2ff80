"""Python's argument binding on Variables: which parameter of an inlined function each
argument of its call becomes.

Example::

    >>> def f(x, k=2, *rest, scale): ...
    >>> bind_arguments(f.__code__, [x_var, c3, c4], {"scale": s_var}, [c2], {})
    {'x': x_var, 'k': c3, 'scale': s_var, 'rest': TupleVariable([c4])}
"""

from __future__ import annotations

from ..bytecode.signature import Params
from ..exc import Unsupported
from ..variables import DictVariable, TupleVariable, Variable


def bind_arguments(code, args: list[Variable], kwargs: dict[str, Variable],
                   defaults: list[Variable], kwdefaults: dict[str, Variable]) -> dict:
    """Python's argument binding for ``code``, on Variables. Mismatches raise Unsupported,
    so the call runs eagerly and Python raises its own TypeError."""
    p = Params.of(code)
    positional, kwonly, varargs, varkw = p.positional, p.kwonly, p.varargs, p.varkw
    nargs, nposonly = len(positional), p.posonly
    bound: dict[str, Variable] = {}
    for name, value in zip(positional, args):
        bound[name] = value
    extra = list(args[nargs:])
    if extra and varargs is None:
        raise Unsupported(f"{code.co_name}() got too many positional arguments (TypeError)")
    extra_kw: dict[str, Variable] = {}
    for key, value in kwargs.items():
        if key in kwonly or (key in positional and positional.index(key) >= nposonly):
            if key in bound:
                raise Unsupported(f"{code.co_name}() got multiple values for {key!r}")
            bound[key] = value
        elif varkw is not None:
            extra_kw[key] = value
        else:
            raise Unsupported(f"{code.co_name}() got an unexpected keyword {key!r}")
    first_default = nargs - len(defaults)
    for j, name in enumerate(positional):
        if name not in bound:
            if j < first_default:
                raise Unsupported(f"{code.co_name}() missing argument {name!r} (TypeError)")
            bound[name] = defaults[j - first_default]
    for name in kwonly:
        if name not in bound:
            if name not in kwdefaults:
                raise Unsupported(f"{code.co_name}() missing keyword argument {name!r}")
            bound[name] = kwdefaults[name]
    if varargs is not None:
        bound[varargs] = TupleVariable(extra)
    if varkw is not None:
        bound[varkw] = DictVariable(extra_kw)
    return bound
