"""Which code objects read the frame that called them (issue #17).

A call that dynamo intercepts runs its frame through Python code of dynamo's (the
wrapper, the dispatcher, the frame runner), so that frame's ``f_back`` is one of
dynamo's frames, not the caller's. Pure Python cannot run code in another frame, so a
function that reads its caller's frame is called directly instead, uncompiled: its
``f_back`` is then its real caller (the program's own frame, or the frame of a compiled
function at a graph break, which keeps the original's file, lines and globals). See
docs/python_semantics.md, "Frames and warning locations".

What counts, read statically from the function's own bytecode (not the functions it
calls):

- ``sys._getframe(n)`` with any argument but a literal ``0``, ``sys._getframemodulename``;
- the attribute ``f_back`` (``inspect.currentframe().f_back``, ``frame.f_back``);
- ``inspect.stack``, ``inspect.getouterframes``, ``traceback.extract_stack``,
  ``print_stack``, ``format_stack``, ``walk_stack``;
- a call with a ``stacklevel`` keyword whose value is not a literal ``1``
  (``warnings.warn(..., stacklevel=2)``, ``logger.info(..., stacklevel=2)``).

Example::

    >>> def helper():
    ...     warnings.warn("old", DeprecationWarning, stacklevel=2)
    >>> reads_caller_frame(helper.__code__)
    'a stacklevel=2 call at line 2'
"""

from __future__ import annotations

import dis
import types
import weakref

# Attribute (or global) names whose call walks the stack above the running frame.
_STACK_WALKERS = frozenset({"getouterframes", "extract_stack", "print_stack",
                            "format_stack", "walk_stack", "_getframemodulename"})

# Instructions between a callable's load and its call that push no argument.
_NO_VALUE = frozenset({"PUSH_NULL", "PRECALL", "NOP", "CACHE", "EXTENDED_ARG", "KW_NAMES"})

_NAME_LOADS = frozenset({"LOAD_ATTR", "LOAD_METHOD", "LOAD_GLOBAL", "LOAD_NAME",
                         "LOAD_FROM_DICT_OR_GLOBALS"})

_CONSTANT_LOADS = frozenset({"LOAD_CONST", "LOAD_SMALL_INT"})

# id(code) -> (a weak reference to the code, the reason or "" for none). By identity:
# code objects compare equal by value. An entry goes when its code object goes.
_found: dict[int, tuple[weakref.ref, str]] = {}


def reads_caller_frame(code: types.CodeType) -> str | None:
    """Why ``code`` reads the frame that called it (what and at which line), or None.

    Cached per code object: it is asked before every call that code running
    uncompiled makes (``convert.intercept_callable``)."""
    hit = _found.get(id(code))
    if hit is not None and hit[0]() is code:
        return hit[1] or None
    reason = _scan(code) or ""
    key = id(code)

    def gone(ref, key=key):
        if _found.get(key, (None,))[0] is ref:
            del _found[key]
    _found[key] = (weakref.ref(code, gone), reason)
    return reason or None


def _scan(code: types.CodeType) -> str | None:
    instrs = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    for k, instr in enumerate(instrs):
        line = _line(instrs, k)
        if instr.opname in _NAME_LOADS:
            name = instr.argval
            if name == "f_back":
                return f"f_back read at line {line}"
            if name in _STACK_WALKERS or \
                    (name == "stack" and k and instrs[k - 1].argval == "inspect"):
                return f"a call of {name}() at line {line}"
            if name == "_getframe" and not _calls_with_zero(instrs, k):
                return f"sys._getframe(n) with n != 0 at line {line}"
        kwnames = _kwnames(code, instr)
        if kwnames and "stacklevel" in kwnames and not _last_kw_is_one(instrs, k, kwnames):
            return f"a stacklevel={_kw_text(instrs, k, kwnames)} call at line {line}"
    return None


def _line(instrs: list, k: int) -> int | None:
    """The line of ``instrs[k]`` (the last line started at or before it)."""
    for instr in reversed(instrs[:k + 1]):
        lineno = instr.positions.lineno if instr.positions else None
        if lineno is not None:
            return lineno
    return None


def _calls_with_zero(instrs: list, k: int) -> bool:
    """The callable loaded at ``instrs[k]`` is called at once with no argument or with
    the literal ``0``: ``sys._getframe()``, ``sys._getframe(0)`` (the running frame)."""
    rest = [i for i in instrs[k + 1:k + 6] if i.opname not in _NO_VALUE]
    if rest and rest[0].opname == "CALL" and rest[0].arg == 0:
        return True
    return len(rest) >= 2 and rest[0].opname in _CONSTANT_LOADS and \
        rest[0].argval == 0 and type(rest[0].argval) is int and \
        rest[1].opname == "CALL" and rest[1].arg == 1


def _kwnames(code: types.CodeType, instr) -> tuple | None:
    """The keyword names a call takes, where ``instr`` loads them: ``KW_NAMES`` (its
    argument indexes the constants), or a constant tuple of strings (later Pythons load
    it before ``CALL_KW``)."""
    if instr.opname == "KW_NAMES":
        names = code.co_consts[instr.arg]
    elif instr.opname in _CONSTANT_LOADS:
        names = instr.argval
    else:
        return None
    if type(names) is tuple and names and all(type(n) is str for n in names):
        return names
    return None


def _last_kw_is_one(instrs: list, k: int, kwnames: tuple) -> bool:
    """``stacklevel`` is the call's last keyword and its value the literal ``1`` (the
    instruction that pushed it is the one before the names): the default level."""
    if kwnames[-1] != "stacklevel" or k == 0:
        return False
    value = instrs[k - 1]
    return value.opname in _CONSTANT_LOADS and type(value.argval) is int and \
        value.argval == 1


def _kw_text(instrs: list, k: int, kwnames: tuple) -> str:
    """The stacklevel's value as written, where it is a literal, else ``...``."""
    value = instrs[k - 1] if k and kwnames[-1] == "stacklevel" else None
    if value is not None and value.opname in _CONSTANT_LOADS:
        return repr(value.argval)
    return "..."
