"""The wrappers that ``hook.intercept`` generates, and what a call does when the
function's code or defaults were replaced after its wrapper was made.

A wrapper has the intercepted function's own signature (callers pass its parameters
by keyword, and Python's ``TypeError``s name it), reads the function's current
defaults at each call, and hands the flat arguments to the cache's dispatcher
(``_wrapper_factory``). Where ``fn.__code__`` was replaced, the call is made again
(``hook._recall``): the objects ``watch_code`` registered remake their entries, and
a parameter the new code binds at another position is refused
(``_refuse_moved_parameters``).

Example::

    >>> _signature_source(f.__code__)          # def f(a, b=2, *args, c, **kw)
    ('a, b, *args, c, **kw', 'a, b, c, args, kw, ')
    >>> _free_name("___fn", {"___fn", "x"})     # generated names avoid the program's
    '___fn_'
"""

from __future__ import annotations

import keyword
import types
import weakref
from collections.abc import Callable

from dynamo.guards import param_name

from .bytecode.signature import Params
from .source import compile_source


class _Default:
    """The default of every wrapper parameter that has one: the wrapper then reads
    the function's current default (see ``intercept``)."""

    def __repr__(self) -> str:
        return "<the function's default>"


DEFAULT = _Default()


def _wrapper_factory(code, scope: dict, ndefaults: int = 0, kwdefaults: tuple = ()):
    """``make(fn, code, defaults, kwdefaults) -> wrapper``, for functions of ``code``
    with ``ndefaults`` positional defaults and these keyword-only ones. The wrapper's
    globals are ``scope``, where the cache keeps its current dispatcher.

    The wrapper runs ``fn`` only while ``fn.__code__`` is still ``code``, and fills a
    parameter left to its default from ``fn``'s current defaults; when those objects
    were replaced, it makes the call again as the caller made it (``_recall``)."""
    params, flat = _signature_source(code, ndefaults)
    name = code.co_name if code.co_name.isidentifier() else "wrapper"
    # the wrapper declares the function's own parameter names (callers pass them by
    # keyword), so its own names must differ from every one of them
    taken = frozenset(code.co_varnames)
    fn, co, dflt, kwd, dispatch, recall, marker, clean, exc = (
        _free_name(n, taken) for n in ("___fn", "___code", "___defaults", "___kwdefaults",
                                       "___dispatch", "___recall", "___S", "___clean",
                                       "___exc"))
    again = f"return {recall}({fn}, {co}, ({flat}))"
    body = [f"if {fn}.__code__ is not {co}:", f"    {again}"]
    nargs = code.co_argcount
    for i in range(nargs - ndefaults, nargs):
        p = _declared(code.co_varnames[i])
        body += [f"if {p} is {marker}:",
                 f"    if {fn}.__defaults__ is not {dflt}:", f"        {again}",
                 f"    {p} = {dflt}[{i - (nargs - ndefaults)}]"]
    for key in kwdefaults:
        p = _declared(key)
        body += [f"if {p} is {marker}:",
                 f"    if {fn}.__kwdefaults__ is not {kwd} or {key!r} not in {kwd}:",
                 f"        {again}",
                 f"    {p} = {kwd}[{key!r}]"]
    body.append(f"return {dispatch}({fn}, {flat})")
    src = _maker_source(f"{fn}, {co}, {dflt}, {kwd}", name, params, body, exc, clean)
    return _make(src, f"<dynamo wrapper of {code.co_qualname}>", scope)


def _make(src: str, filename: str, scope: dict) -> Callable:
    """The ``___make`` that ``src`` (``_maker_source``) defines, its globals ``scope``.

    ``scope`` is a cache's, shared by the wrappers other threads are running: the
    definition is not put in it (two threads making wrappers at once each took the
    other's ``___make`` out of it, issue #17)."""
    defined: dict = {}
    compile_source(src, filename, scope, defined=defined)
    return defined["___make"]


def _maker_source(make_params: str, name: str, params: str, body: list[str], exc: str,
                  clean: str) -> str:
    """The source of ``___make(make_params)``, which returns the wrapper ``name(params)``
    running ``body``. An exception on its way out of the body loses this frame and
    dynamo's others from its traceback (``clean``: ``tracebacks.for_program``); the bare
    ``raise`` adds no entry::

        def ___make(___fn, ___code, ...):
            def step(self, y):
                try:
                    ...body...
                except BaseException as ___exc:
                    ___clean(___exc)
                    raise
            return step
    """
    body = ["try:", *(f"    {line}" for line in body),
            f"except BaseException as {exc}:", f"    {clean}({exc})", "    raise"]
    return (f"def ___make({make_params}):\n"
            f"    def {name}({params}):\n" + "".join(f"        {line}\n" for line in body) +
            f"    return {name}\n")


def _bound_wrapper(code, scope: dict, ndefaults: int = 0, plain: bool = False):
    """The wrapper of every method whose function has ``code`` and ``ndefaults``
    positional defaults (no keyword-only ones), called as ``MethodType(wrapper, m)``
    with the program's bound method ``m`` (``m.__func__`` is the function): ``m`` takes
    the place of the first parameter (``self``), and the wrapper reads the function and
    ``self`` from it. So one wrapper, kept by the cache, serves every call of every such
    method, and holds no function (``m`` does, for as long as the call needs it).

    The signature is the function's own, parameter for parameter: a call that does not
    bind raises the ``TypeError`` the method would (the same counts: ``m`` is counted
    where ``self`` is), named by ``code.co_qualname`` (the caller uses it only for a
    function whose ``__qualname__`` is that). A default is read from the function's
    current ``__defaults__``; where their count or ``__code__`` changed, the call is
    made again (``_recall``), as ``_wrapper_factory``'s wrappers make it.

    With ``plain``, the wrapper of every plain function of ``code`` (no keyword-only
    parameters), called as ``MethodType(wrapper, fn)``: the function takes a parameter
    of its own, before the function's, and positional arguments beyond the function's
    are taken (``*___extra``) and passed on to a wrapper made for that call
    (``hook.intercept``), whose binding raises the function's own ``TypeError`` (``f()
    takes 1 positional argument but 2 were given``: counted as the function counts).

    Example::

        >>> w = _bound_wrapper(Stepper.step.__code__, cache.scope)
        >>> types.MethodType(w, stepper.step)(y)      # == stepper.step(y), compiled
    """
    params, flat = _signature_source(code, ndefaults)
    name = code.co_name if code.co_name.isidentifier() else "wrapper"
    taken = frozenset(code.co_varnames)
    fn, co, dflt, dispatch, recall, marker, clean, exc, extra, now, err = (
        _free_name(n, taken) for n in ("___fn", "___code", "___defaults", "___dispatch",
                                       "___recall", "___S", "___clean", "___exc",
                                       "___extra", "___intercept", "___err"))
    again = f"return {recall}({fn}, {co}, ({flat}))"
    if plain:
        params, body = _plain_params(code, ndefaults, fn, extra), []
        p = Params.of(code)
        if p.varargs is None:   # (more positional arguments than it takes: its error)
            star = f", **{_declared(p.varkw)}" if p.varkw is not None else ""
            given = "".join(f"{_declared(n)}, " for n in p.positional)
            body = [f"if {extra}:", "    try:",
                    f"        return {now}({fn})({given}*{extra}{star})",
                    f"    except TypeError as {err}:",
                    f"        if {err}.__traceback__.tb_next is None:   # (its binding)",
                    f"            {err}.__traceback__ = None   # (as raised by the call)",
                    "        raise"]
    else:
        first = _declared(code.co_varnames[0])
        body = [f"{fn} = {first}.__func__", f"{first} = {first}.__self__"]
    body += [f"if {fn}.__code__ is not {co}:", f"    {again}"]
    nargs = code.co_argcount
    for i in range(nargs - ndefaults, nargs):
        p = _declared(code.co_varnames[i])
        body += [f"if {p} is {marker}:", f"    {dflt} = {fn}.__defaults__",
                 f"    if {dflt} is None or len({dflt}) != {ndefaults}:", f"        {again}",
                 f"    {p} = {dflt}[{i - (nargs - ndefaults)}]"]
    body.append(f"return {dispatch}({fn}, {flat})")
    src = _maker_source(co, name, params, body, exc, clean)
    wrapper = _make(src, f"<dynamo {'shared' if plain else 'method'} wrapper of "
                         f"{code.co_qualname}>", scope)(code)
    wrapper.__qualname__, wrapper.__name__ = code.co_qualname, code.co_name
    return wrapper


def _plain_params(code, ndefaults: int, fn: str, extra: str) -> str:
    """The parameters of ``_bound_wrapper``'s plain wrapper: ``fn`` (positional only)
    first, then the function's, then ``*extra`` where it takes no ``*args``.

    Example::

        >>> _plain_params(f.__code__, 1, "___fn", "___extra")    # def f(a, b=2, **kw)
        '___fn, /, a, b=___S, *___extra, **kw'
    """
    p = Params.of(code)
    marker = _free_name("___S", frozenset(code.co_varnames))
    params = [_declared(n) for n in p.positional]
    for i in range(len(params) - ndefaults, len(params)):
        params[i] += f"={marker}"
    params.insert(p.posonly, "/") if p.posonly else params.insert(0, "/")
    params.insert(0, fn)
    params.append("*" + _declared(p.varargs if p.varargs is not None else extra))
    if p.varkw is not None:
        params.append("**" + _declared(p.varkw))
    return ", ".join(params)


def watch_code(fn: types.FunctionType, owner) -> None:
    """Call ``owner.code_replaced()`` whenever a frame entry or wrapper of ``fn`` finds
    ``fn.__code__`` replaced (``_recall``): ``owner`` (a compiled object calling one
    made for the old code, which binds arguments by that code's parameters) then makes
    one for the new code. Weak references only, to ``fn`` and to ``owner``."""
    owners = _code_owners.get(fn)
    if owners is None:
        owners = _code_owners[fn] = weakref.WeakSet()
    owners.add(owner)


# function -> the objects to tell when its code is found replaced (``watch_code``)
_code_owners: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _refuse_moved_parameters(fn, old: Params, positional: list) -> None:
    """Raise where ``fn``'s new code has a parameter that the old code bound at another
    position: the call was bound by the old code's parameters, and whether its caller
    passed that value by position or by name is lost, so either way of passing it on
    may bind it to the wrong parameter. Later calls bind by the new code (``_recall``).

    Example: ``f`` compiled from ``def fa(a, b)``, then ``fn.__code__ =
    fb.__code__`` with ``def fb(b, a)``: ``f(a=1, b=2)`` is refused once, where
    passing ``(1, 2)`` on by position would have bound ``b=1, a=2``."""
    new = Params.of(fn.__code__)
    elsewhere = [(*new.positional[:i], *new.positional[i + 1:], *new.kwonly)
                 for i in range(len(old.positional))]
    moved = [name for i, name in enumerate(old.positional)
             if positional[i] is not DEFAULT and name in elsewhere[i]]
    if moved:
        raise TypeError(
            f"{fn.__qualname__}(): its __code__ was replaced by code whose parameters "
            f"{', '.join(map(repr, moved))} are at other positions; dynamo bound this "
            f"call's arguments by the old code's parameters, and how they were passed "
            f"is lost. Call it again: from now on calls bind by the new parameters.")


def _free_name(name: str, taken) -> str:
    """``name``, or ``name_``, ``name__``...: the first that is not in ``taken``."""
    while name in taken:
        name += "_"
    return name


def _declared(name: str) -> str:
    """A parameter's name in the wrapper: as declared, so it can be passed by keyword
    (``.0`` of a comprehension, positional only, gets a generated name)."""
    return name if name.isidentifier() and not keyword.iskeyword(name) else param_name(name)


def _signature_source(code, ndefaults: int = 0) -> tuple[str, str]:
    """("a, b, *args, c, **kw", "a, b, c, args, kw, "): the parameters as declared, and
    as the frame orders them (positional, keyword-only, *args, **kwargs). With
    ``ndefaults``, the last that many positional ones default to the marker ``___S``
    (``a, b=___S``: the scope's name for ``DEFAULT``)."""
    p = Params.of(code)
    params = [_declared(n) for n in p.positional]
    marker = _free_name("___S", frozenset(code.co_varnames))
    for i in range(len(params) - ndefaults, len(params)):
        params[i] += f"={marker}"
    if p.posonly:
        params.insert(p.posonly, "/")
    if p.varargs is not None:
        params.append("*" + _declared(p.varargs))
    elif p.kwonly:
        params.append("*")
    params += [_declared(n) for n in p.kwonly]
    if p.varkw is not None:
        params.append("**" + _declared(p.varkw))
    flat = [_declared(n) for n in p.frame_order]
    return ", ".join(params), "".join(f"{a}, " for a in flat)
