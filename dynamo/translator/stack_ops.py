"""Handlers that only move values on the stack."""

from __future__ import annotations

from ..variables import NULL


class StackOps:
    def NOP(self, inst):
        pass

    def RESUME(self, inst):
        pass

    def CACHE(self, inst):
        pass

    def PRECALL(self, inst):  # 3.11: a specialization hint before CALL
        pass

    def POP_TOP(self, inst):
        self.drop_stack_top()   # (a value whose end the program sees: translator/names.py)
        self.pop()

    def PUSH_NULL(self, inst):
        self.push(NULL)

    def COPY(self, inst):
        self.push(self.stack[-inst.arg])

    def SWAP(self, inst):
        n = inst.arg
        self.stack[-1], self.stack[-n] = self.stack[-n], self.stack[-1]

    def END_FOR(self, inst):
        # 3.12: pops the exhausted iterator's slot and value; 3.13: one value.
        # FOR_ITER jumps past END_FOR, so this runs only on explicit fall-through.
        self.pop()

    def POP_ITER(self, inst):
        self.pop()
