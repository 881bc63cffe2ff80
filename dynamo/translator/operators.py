"""Handlers for operators: arithmetic, comparison, identity, membership, subscripts.

On arrays every operator becomes a graph node named after the NumPy function that
implements it (``a + b`` -> ``add``; ``a ** 2`` -> ``pow``, which keeps NumPy's own
fast paths); on Python constants it is evaluated at trace time.
"""

from __future__ import annotations

from .. import pyversion
from ..exc import Unsupported
from ..symbolic import Symbolic
from ..variables import ConstantVariable, SliceVariable
from ..variables.conversions import negatable, negated_truth
from ..variables.formatted_calls import format_percent as deferred_percent
from ..variables.polynomials import Poly1dVariable, poly1d_operator, poly1d_unary
from ..variables.size_values import SizeTruthVariable, size_operator, truth_not, truth_numbers
from . import compare
from .branch_selects import SELECTED, truth_or_select
from .compared_tests import jump_next, reason_of, tested
from .number_compares import is_deferred_bool
from .quotients import quotient_use
from .raising_checks import as_a_check, size_check
from .size_and_or import copied_operand
from .size_chains import leaves_chain_flag
from .split_quotients import index_quotient
from .while_loops import tests_loop_next

BINARY_OPS = {
    "ADD": "add", "SUBTRACT": "subtract", "MULTIPLY": "multiply",
    "TRUE_DIVIDE": "divide", "FLOOR_DIVIDE": "floor_divide", "REMAINDER": "remainder",
    "POWER": "pow", "MATRIX_MULTIPLY": "matmul", "AND": "bitwise_and", "OR": "bitwise_or",
    "XOR": "bitwise_xor", "LSHIFT": "left_shift", "RSHIFT": "right_shift",
}
COMPARE_OPS = {"LT": "less", "LE": "less_equal", "EQ": "equal", "NE": "not_equal",
               "GT": "greater", "GE": "greater_equal"}


class Operators:
    def BINARY_OP(self, inst):
        b = self.pop()
        a = self.pop()
        name = inst.arg.name
        if name == "SUBSCR":  # 3.14 folds BINARY_SUBSCR into BINARY_OP
            self.push(self._subscript(a, b))
            return
        inplace = name.startswith("INPLACE_")
        op = BINARY_OPS[name.removeprefix("INPLACE_")]
        # (a symbolic int is no format string: asking it for its value would pin it)
        if op == "remainder" and a.is_constant() and not \
                (isinstance(a, ConstantVariable) and isinstance(a.value, Symbolic)) and \
                isinstance(a.as_python_constant(), str):
            self.push(self.format_percent(a, b))
            return
        poly = poly1d_operator(self, op, a, b)   # p + q, p * 2.0 of np.poly1d objects
        if poly is not None:
            self.push(poly)
            return
        a, b = truth_numbers(self, op, a, b)   # (len(kept) > 0) + 1: the bool's int
        quotient = quotient_use(self, op, a, b)   # step % 3 == 0, gamma ** (epoch // 3)
        if quotient is None:    # j <= i // 2 of loop indices: a split point (#23)
            quotient = index_quotient(self, op, a, b)
        if quotient is None:    # len(kept) // 2: a data-dependent size, computed by the graph
            quotient = size_operator(self, op, a, b)
        self.push(self.binary_op(op, a, b, inplace=inplace) if quotient is None else quotient)

    def format_percent(self, fmt, args):
        if not args.is_constant():   # "%.3e" % np.linalg.norm(r): formatted by the glue
            text = deferred_percent(self, fmt.as_python_constant(), args)
            if text is not None:
                return text
        values = args.as_python_constant()
        return ConstantVariable(fmt.as_python_constant() % values)

    def unary(self, name: str):
        value = self.pop()
        poly = poly1d_unary(self, name, value)   # -p of an np.poly1d
        self.push(self.unary_op(name, value) if poly is None else poly)

    def UNARY_NEGATIVE(self, inst):
        self.unary("negative")

    def UNARY_POSITIVE(self, inst):
        self.unary("positive")

    def UNARY_INVERT(self, inst):
        self.unary("invert")

    def UNARY_NOT(self, inst):
        value = self.pop()
        negated = self._negated(value)
        if negated is not None:
            self.push(negated)
            return
        truth = self._truth_at(inst, value)
        if truth is not SELECTED:
            self.push(ConstantVariable(not truth))

    def _negated(self, value):
        """``not (len(kept) > 0)``, ``not (x.sum() > 0)``: a bool the graph computes, for
        a value the trace does not know, where no jump follows (``b = not c``; an
        ``if`` on it breaks at its own jump); else None (the truth test's path)."""
        if self.info.insts[self.ip].name.startswith("POP_JUMP"):
            return None
        negated = truth_not(self, value)
        return negated if negated is not None else negated_truth(self, value)

    def TO_BOOL(self, inst):  # 3.13
        value = popped = self.pop()   # (a while loop's test on an array: the jump decides)
        if jump_next(self.info.insts, self.ip):   # np.allclose's bool: the graph's
            value = tested(value)                 # 0-d bool, which the jump tests
        if tests_loop_next(self, value) or self._negated_after(value) or \
                self._and_or_after(value):
            self.push(value)    # (``not (n > 0)``: UNARY_NOT makes the graph's bool;
            return              # ``n > 0 and m > 0``: the jump does, size_and_or.py)
        try:
            truth = value.truth(self)
        except Unsupported as e:   # (``_truth_at``, with np.allclose's own reason)
            truth = truth_or_select(self, inst, value, reason_of(popped, e))
        if truth is not SELECTED:
            self.push(ConstantVariable(truth))

    def _and_or_after(self, value) -> bool:
        """Is 3.13's ``bool()`` of the size comparison ``value`` the test of an ``and``
        / ``or`` (``COPY 1; TO_BOOL; POP_JUMP_IF_FALSE; POP_TOP``)? Then the jump
        keeps it where it can (``ControlFlow.size_and_or``)."""
        jump = self.info.insts[self.ip]
        return isinstance(value, SizeTruthVariable) and \
            jump.name.startswith("POP_JUMP_IF_") and \
            copied_operand(self, jump) is not None

    def _negated_after(self, value) -> bool:
        """Will the UNARY_NOT after 3.13's ``bool()`` (TO_BOOL, COMPARE_OP's flag) make
        ``not value`` a graph bool (``_negated``)? Then ``bool()`` leaves it as it is."""
        insts = self.info.insts
        return insts[self.ip].name == "UNARY_NOT" and \
            not insts[self.ip + 1].name.startswith("POP_JUMP") and \
            (isinstance(value, SizeTruthVariable) or negatable(value))

    def _truth_at(self, inst, value):
        """``value.truth()`` for the jump after ``inst``; a data-dependent one whose jump
        only raises one way breaks as a check (``raising_checks``); ``SELECTED`` where
        both ways of an ``if`` that chooses a value were traced (``branch_selects``:
        the trace goes on at their join, nothing is pushed)."""
        try:
            return value.truth(self)
        except Unsupported as e:   # a check stays in the graph where it can (or breaks)
            return truth_or_select(self, inst, value, e)

    def CALL_INTRINSIC_1(self, inst):  # 3.12
        name = getattr(inst.arg, "name", str(inst.arg))
        if name == "INTRINSIC_UNARY_POSITIVE":
            self.unary("positive")
        elif name == "INTRINSIC_LIST_TO_TUPLE":
            from ..variables import TupleVariable
            self.push(TupleVariable(self.pop().items))
        else:
            raise Unsupported(f"intrinsic {name}")

    def CALL_INTRINSIC_2(self, inst):  # 3.12
        name = getattr(inst.arg, "name", str(inst.arg))
        from ..variables import NestedFunctionVariable
        if name == "INTRINSIC_SET_FUNCTION_TYPE_PARAMS" and \
                isinstance(self.stack[-2], NestedFunctionVariable):   # def f[T](): ...
            params = self.pop()
            self.stack[-1].type_params = params   # the glue gives them to the function
        else:
            raise Unsupported(f"intrinsic {name}")

    def COMPARE_OP(self, inst):
        name, to_bool = pyversion.compare_op(inst.arg)
        b = self.pop()
        a = self.pop()
        try:    # `if len(x[x < 0]) > 0: raise ...`: a size the data decides, as a check
            result = self.compare(COMPARE_OPS[name], a, b)
        except Unsupported as e:
            truth = size_check(self, inst, COMPARE_OPS[name], a, b, e)
            if truth is None:
                raise as_a_check(self.info.insts, inst, e) from None  # (e if no check)
            self.push(ConstantVariable(truth))   # (the data_check op decides at run time)
            return
        # (else the jump decides: a while loop's test on an array, or a bool the graph
        # computes, which ``bool()`` leaves as it is: ``if rng.random() < eps`` breaks
        # at the jump on 3.13 as on 3.11, number_compares.py)
        if to_bool and not tests_loop_next(self, result) and not is_deferred_bool(result) \
                and not self._negated_after(result) and \
                not leaves_chain_flag(self, inst, result):   # ``lo <= x[i] < hi``
            truth = self._truth_at(inst, result)
            if truth is SELECTED:
                return
            result = ConstantVariable(truth)
        self.push(result)

    def IS_OP(self, inst):
        b = self.pop()
        a = self.pop()
        same = compare.identical(self, a, b)
        self.push(ConstantVariable(same != bool(inst.arg)))

    def CONTAINS_OP(self, inst):
        container = self.pop()
        item = self.pop()
        self.push(ConstantVariable(self.contains(container, item) != bool(inst.arg)))

    def BINARY_SUBSCR(self, inst):
        index = self.pop()
        obj = self.pop()
        self.push(self._subscript(obj, index))

    def _subscript(self, obj, index):
        if isinstance(obj, Poly1dVariable):   # p[k]: the coefficient of x**k
            return obj.getitem(self, index)
        return self.getitem(obj, index)

    def STORE_SUBSCR(self, inst):
        index = self.pop()
        obj = self.pop()
        value = self.pop()
        self.setitem(obj, index, value)

    def DELETE_SUBSCR(self, inst):
        index = self.pop()
        obj = self.pop()
        if not hasattr(obj, "delitem"):
            raise Unsupported(f"del of an item of {obj.describe()}")
        obj.delitem(self, index)

    def BINARY_SLICE(self, inst):  # 3.12
        stop = self.pop()
        start = self.pop()
        obj = self.pop()
        self.push(self.getitem(obj, SliceVariable(start, stop, ConstantVariable(None))))

    def STORE_SLICE(self, inst):  # 3.12
        stop = self.pop()
        start = self.pop()
        obj = self.pop()
        value = self.pop()
        self.setitem(obj, SliceVariable(start, stop, ConstantVariable(None)), value)
