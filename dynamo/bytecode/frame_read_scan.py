"""The bytecode scan behind ``caller_frames``: where a code object reads frames above
its own, and how far up (issue #17).

One pass over the instructions finds ``f_back`` reads, ``sys._getframe(n)``, stack
walkers (``inspect.stack``, ``traceback.extract_stack``...), ``warn(m, c, level)`` by
position and ``stacklevel=`` keywords; it also collects the global and closure names
the code loads (``caller_frames`` looks through them for readers further up).

Example::

    >>> def caller_name():
    ...     return sys._getframe(1).f_code.co_name
    >>> scan(caller_name.__code__)
    ('sys._getframe(1) at line 2', 1, ('sys',))
"""

from __future__ import annotations

import dis
import types

# Attribute (or global) names whose call walks the stack above the running frame.
_STACK_WALKERS = frozenset({"getouterframes", "extract_stack", "print_stack",
                            "format_stack", "walk_stack", "_getframemodulename"})

# Instructions between a callable's load and its call that push no argument.
_NO_VALUE = frozenset({"PUSH_NULL", "PRECALL", "NOP", "CACHE", "EXTENDED_ARG", "KW_NAMES"})

_NAME_LOADS = frozenset({"LOAD_ATTR", "LOAD_METHOD", "LOAD_GLOBAL", "LOAD_NAME",
                         "LOAD_FROM_DICT_OR_GLOBALS"})

_CONSTANT_LOADS = frozenset({"LOAD_CONST", "LOAD_SMALL_INT"})


# How many frames up a read goes when the code does not say (a computed level, a walk
# of the whole stack): as far as there are frames.
READS_ALL = 1 << 20



def scan(code: types.CodeType) -> tuple[str, int, tuple]:
    """(the first read's reason or "", how far up the reads go, the global and closure
    names the code calls)."""
    instrs = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    reason, depth, called = "", 0, []
    for k, instr in enumerate(instrs):
        line = _line(instrs, k)
        found, level = None, 0
        if instr.opname in _NAME_LOADS:
            name = instr.argval
            if name == "f_back":
                if not (k and instrs[k - 1].argval == "f_back"):
                    found, level = f"f_back read at line {line}", _chain(instrs, k)
            elif name in _STACK_WALKERS or \
                    (name == "stack" and k and instrs[k - 1].argval == "inspect"):
                found, level = f"a call of {name}() at line {line}", READS_ALL
            elif name == "_getframe" and not _calls_with_zero(instrs, k):
                level = _literal_argument(instrs, k)
                found = f"sys._getframe({level if level < READS_ALL else 'n'}) at line {line}"
            elif name == "warn":
                level = _positional_level(instrs, k)
                if level:
                    n = level + 1 if level < READS_ALL else "n"
                    found = f"warn(message, category, {n}) at line {line}"
        if instr.opname in ("LOAD_GLOBAL", "LOAD_DEREF", "LOAD_NAME") and \
                isinstance(instr.argval, str) and instr.argval not in called:
            called.append(instr.argval)
        kwnames = _kwnames(code, instr)
        if kwnames and "stacklevel" in kwnames and not _last_kw_is_one(instrs, k, kwnames):
            found = f"a stacklevel={_kw_text(instrs, k, kwnames)} call at line {line}"
            level = _kw_level(instrs, k, kwnames)
        if found is not None and level > 0:
            reason = reason or found
            depth = max(depth, level)
    return reason, depth, tuple(called)


def _chain(instrs: list, k: int) -> int:
    """How many ``f_back`` reads follow one another from ``instrs[k]`` (one frame up
    each)."""
    n = 0
    while k + n < len(instrs) and instrs[k + n].opname == "LOAD_ATTR" and \
            instrs[k + n].argval == "f_back":
        n += 1
    return max(n, 1)


def _literal_argument(instrs: list, k: int) -> int:
    """``sys._getframe(n)`` loaded at ``instrs[k]``: ``n`` where it is a literal int,
    else ``READS_ALL``."""
    rest = [i for i in instrs[k + 1:k + 6] if i.opname not in _NO_VALUE]
    if len(rest) >= 2 and rest[0].opname in _CONSTANT_LOADS and \
            type(rest[0].argval) is int and rest[1].opname == "CALL" and rest[1].arg == 1:
        return max(rest[0].argval, 0)
    return READS_ALL


def _positional_level(instrs: list, k: int) -> int:
    """``warn`` loaded at ``instrs[k]`` and called with its level by position
    (``warnings.warn("m", UserWarning, 3)``): how many frames above the caller of
    ``warn`` the warning is placed (``level - 1``; ``READS_ALL`` for a computed
    level), 0 when it is not (two arguments, a literal level of 1, keywords)."""
    depth = 0
    for j in range(k + 1, min(k + 80, len(instrs))):
        instr = instrs[j]
        if instr.opname in ("CALL", "PRECALL") and depth == instr.arg:   # of `warn`
            # (3.11 has PRECALL before CALL, popping the arguments)
            if instr.arg < 3:
                return 0
            if instr.arg > 3:
                return READS_ALL
            value = next(i for i in reversed(instrs[:j]) if i.opname not in _NO_VALUE)
            if value.opname in _CONSTANT_LOADS and type(value.argval) is int:
                return max(value.argval - 1, 0)
            return READS_ALL
        if instr.opname in _NO_VALUE and instr.opname != "PRECALL":
            continue
        try:
            depth += dis.stack_effect(instr.opcode, instr.arg if instr.opcode >=
                                      dis.HAVE_ARGUMENT else None, jump=False)
        except ValueError:
            return 0
        if depth < 0:
            return 0
    return 0


def _kw_level(instrs: list, k: int, kwnames: tuple) -> int:
    """How many frames above the caller a ``stacklevel=`` call reads: ``level - 1``
    for a literal level, else ``READS_ALL``."""
    value = instrs[k - 1] if k and kwnames[-1] == "stacklevel" else None
    if value is not None and value.opname in _CONSTANT_LOADS and type(value.argval) is int:
        return max(value.argval - 1, 0)
    return READS_ALL


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
