"""The translator: a symbolic interpreter of CPython bytecode.

``InstructionTranslator`` traces the frame being compiled; ``InliningTranslator``
traces a user function called from it, sharing the same graph. Both are the same
loop (:mod:`dynamo.translator.base`) with one handler per opcode, grouped by family:

- :mod:`~dynamo.translator.stack_ops`     NOP, POP_TOP, COPY, SWAP, PUSH_NULL, ...
- :mod:`~dynamo.translator.names`         LOAD_FAST, LOAD_GLOBAL, LOAD_ATTR, STORE_DEREF, ...
- :mod:`~dynamo.translator.operators`     BINARY_OP, COMPARE_OP, BINARY_SUBSCR, ...
- :mod:`~dynamo.translator.calls`         CALL, CALL_KW, CALL_FUNCTION_EX, MAKE_FUNCTION, ...
- :mod:`~dynamo.translator.control_flow`  jumps, GET_ITER, FOR_ITER, RETURN_VALUE, ...
- :mod:`~dynamo.translator.containers`    BUILD_*, UNPACK_*, f-strings, ...

Example::

    >>> tx = InstructionTranslator(frame_code, output, args, fn_globals, closure)
    >>> tx.run()            # stops at RETURN_VALUE, or raises GraphBreak
"""

from .frames import GraphBreak, InliningTranslator, InstructionTranslator

__all__ = ["GraphBreak", "InliningTranslator", "InstructionTranslator"]
