"""The exception table of a code object, as the translator needs it: which
instructions a program's ``except`` or ``finally`` covers, and each handler's stack depth.

CPython compiles ``try``, ``with`` and (3.12+) inlined comprehensions and generator
bodies into exception-table entries; only some of them are a ``try`` of the program's
for a graph: a comprehension's handler only restores locals and re-raises
(``transparent``), 3.12's generator wrapper only turns ``StopIteration`` into
``RuntimeError``, and a ``with`` block's handler calls ``__exit__`` and lets the
exception on unless a handler of the program's is further out.

Example::

    >>> def f(x):
    ...     try:
    ...         y = x[3]
    ...     except IndexError:
    ...         y = 0
    ...     return y
    >>> info = CodeInfo.of(f.__code__)     # 3.11: (start, end, handler) by instruction
    >>> info.handlers
    [(2, 5, 7), (7, 13, 17), (16, 16, 17)]
    >>> sorted(catching(info.insts, info.handlers))[:4]   # `y = x[3]`: LOAD_FAST...
    [2, 3, 4, 5]
"""

from __future__ import annotations

import dis

# Exception handlers that only restore locals and re-raise (3.12 inlined
# comprehensions): tracing through their region is safe.
_TRANSPARENT_HANDLER_OPS = {"SWAP", "POP_TOP", "STORE_FAST", "RERAISE", "COPY", "NOP",
                            "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST", "LOAD_FAST",
                            "LOAD_FAST_AND_CLEAR"}


def unwind_table(code) -> dict[int, tuple[int, bool]]:
    """Handler instruction index -> (stack depth, push lasti) of each entry of
    ``code``'s exception table (the ``bytecode`` library does not keep the depths).

    Instruction indices count the instructions as ``bytecode`` lists them: one per
    instruction, EXTENDED_ARG folded into the next, caches left out."""
    index, n = {}, 0
    for ins in dis.get_instructions(code):
        if ins.opname != "EXTENDED_ARG":
            index[ins.offset] = n
            n += 1
    table = {}
    for entry in exception_entries(code.co_exceptiontable):
        _, _, target, depth, lasti = entry
        if target in index:
            table[index[target]] = (depth, lasti)
    return table


def exception_entries(raw: bytes):
    """(start, end, target, depth, lasti) in bytes, of CPython's exception table format
    (Objects/exception_handling_notes.txt: 6-bit varints, the first of an entry
    marked by bit 7)."""
    it = iter(raw)

    def varint(first):
        value = first & 63
        while first & 64:
            first = next(it)
            value = (value << 6) | (first & 63)
        return value
    for byte in it:
        start = varint(byte) * 2
        length = varint(next(it)) * 2
        target = varint(next(it)) * 2
        dl = varint(next(it))
        yield start, start + length, target, dl >> 1, bool(dl & 1)


def catching(insts: list, handlers: list) -> frozenset:
    """The instructions an ``except`` or ``finally`` handler covers. The body of a
    ``with`` block is covered by its ``__exit__`` call only, which lets the exception
    on to whatever covers that call: a ``with`` inside a ``try`` is inside the ``try``
    (``try: with np.errstate(all="raise"): ... except FloatingPointError``)."""
    catching: set[int] = set()
    for start, end, handler in handlers:
        if transparent(insts, handler) or _stop_iteration_guard(insts, handler):
            continue
        if _exits_with(insts, handler) and not _reaches_handler(insts, handlers, handler):
            continue
        catching.update(range(start, end + 1))
    return frozenset(catching)


def _stop_iteration_guard(insts: list, handler: int) -> bool:
    """The handler CPython 3.12+ wraps around a generator's body (``CALL_INTRINSIC_1
    INTRINSIC_STOPITERATION_ERROR; RERAISE``): it turns a ``StopIteration`` escaping
    the body into ``RuntimeError`` (PEP 479) and lets every other exception on, as 3.11
    does without a handler. No op of a graph raises ``StopIteration``, so the body of
    ``sum(np.roll(b, i) for i in ...)`` is not inside a ``try`` for the graph."""
    window = insts[handler:handler + 2]
    return [i.name for i in window] == ["CALL_INTRINSIC_1", "RERAISE"] and \
        getattr(window[0].arg, "name", str(window[0].arg)) == "INTRINSIC_STOPITERATION_ERROR"


def _reaches_handler(insts: list, handlers: list, index: int, depth: int = 0) -> bool:
    """An exception raised at ``index`` reaches an ``except`` or ``finally`` of the
    program: the innermost handler around it is one, or passes it on (a ``with``'s
    ``__exit__``, the clean-up that pops the exception state and raises it again) to
    code a handler covers."""
    spans = [(start, handler) for start, end, handler in handlers if start <= index <= end]
    if not spans or depth > 20:
        return False
    handler = max(spans)[1]
    if transparent(insts, handler):
        return False
    passes_on = _exits_with(insts, handler) or all(
        inst.name in _CLEANUP_OPS for inst in insts[handler:handler + 3])
    return not passes_on or _reaches_handler(insts, handlers, handler, depth + 1)


# A handler that only pops the exception state and raises the exception again (the
# clean-up around a ``with``'s ``__exit__`` call): ``COPY 3; POP_EXCEPT; RERAISE 1``.
_CLEANUP_OPS = frozenset({"COPY", "POP_EXCEPT", "RERAISE"})


def _exits_with(insts: list, handler: int) -> bool:
    """The handler of a ``with`` block: it calls ``__exit__`` (which, for the only
    context manager traced, ``np.errstate``, restores its settings and lets the
    exception through) rather than testing the exception itself."""
    return any(inst.name == "WITH_EXCEPT_START" for inst in insts[handler:handler + 4])


def transparent(insts: list, handler: int) -> bool:
    for inst in insts[handler:handler + 12]:
        if inst.name not in _TRANSPARENT_HANDLER_OPS:
            return False
        if inst.name == "RERAISE":
            return True
    return False
