"""The bounds a counter test puts on a ``while_loop`` node's trips (``WhileScope``'s).

``while err > tol and it < maxit:`` runs at most ``trips_bound`` trips
(``_bound``), ``while err > tol or it < miniter:`` at least ``least_trips``
(``_least``), from the two ints the test compares (``_sides``: a counter the body
steps and an int the loop does not change); a symbol among them (an argument that
changed between calls) gives an affine expression that must be ``>= 0``
(``_symbolic_bound``). ``CounterBounds`` is a part of ``while_scope.WhileScope``:
its methods read the scope's ``test``, ``steps`` and ``entry_locals``
(docs/loops.md, "Python int counters").

Example::

    it = 0                                 _sides()  -> [(0, 1), (500, 0)]
    while err > tol and it < 500:    ->    _bound()  -> 500 (trips_bound)
        ...; it += 1
"""

from __future__ import annotations

from ..symbolic import SymInt
from ..symbolic.sizes import as_size, symbols_of
from ..variables import ConstantVariable
from .loop_exits import stored_in
from .loop_facts import NotALoopNode
from .or_counter_tests import least_trips
from .while_counters import plain_test, trips_bound


class CounterBounds:
    """The counter test's bounds on the trips of a ``WhileScope`` (a part of it)."""

    def _least(self) -> int | SymInt:
        """``while err > tol or it < miniter:``: the number of trips the counter test
        makes the node run whatever the array test says (``or_counter_tests``). Where
        ``miniter`` is a symbol (an argument that changed between calls), a counter
        that steps by 1 towards it holds on the first ``miniter - it0`` tests and on
        none after (``_symbolic_bound``: that expression, required ``>= 0``)."""
        sides = self._sides()
        if any(isinstance(v, SymInt) for v, _ in sides):
            return self._symbolic_bound(*sides)
        least = least_trips(sides[0], sides[1], self.test.compare)
        if least is None:
            raise NotALoopNode("the loop's `or` counter test could hold again after it "
                               "fails, or never fails (while err > tol or it < miniter "
                               "with it += 1 is a node)")
        return least

    def _bound(self) -> int | None:
        """The most trips the counter test allows (``trips_bound``), from the ints the
        test compares: a counter the body steps, and an int it does not change (a
        constant, or a local guarded as the int it is)."""
        sides = self._sides()
        if all(step for _, step in sides):
            raise NotALoopNode("the loop's test compares two counters")
        if any(isinstance(v, SymInt) for v, _ in sides):
            return self._symbolic_bound(*sides)
        return trips_bound(sides[0], sides[1], self.test.compare)

    def _sides(self) -> list:
        """``[(value at the first test, step per trip)]`` of the counter test's two
        ints."""
        sides = []
        for kind, value in self.test.operands:
            if kind == "const":
                if type(value) is not int:      # (``while_clocks``' ``t < 1.0``)
                    raise NotALoopNode(f"the loop's test compares {value!r}, no Python int")
                sides.append((value, 0))
                continue
            var = self.entry_locals.get(value)
            if not isinstance(var, ConstantVariable) or \
                    type(var.value) is not int and not isinstance(var.value, SymInt):
                raise NotALoopNode(f"the loop's test compares {value!r}, no Python int")
            sides.append((var.value, self.steps.get(value, 0)))
        return sides

    def _check_plain_test(self) -> None:
        """``while it < maxit and <array test>:`` asks the counter first; the node asks
        the array test first (``ops.while_loop``), so where the counter ends the loop
        the body graph has computed that test once more than Python. That is exact only
        where the test is a plain comparison of values the body computed
        (``err > tol``, ``not done``: ``while_counters.plain_test``); a test that
        computes (``np.linalg.norm(r) > tol``, ``hi - lo > tol``) could warn or raise
        there."""
        if not plain_test(self.tx.info.insts, self.test.jump + 1, self.inst.index):
            raise NotALoopNode(
                "the loop tests its counter first (while it < maxit and <array test>; or "
                "its clock, t < t_end) "
                "and its array test computes values, which Python does not compute where "
                "the counter ends the loop: compute the value in the body (err = ...; "
                "while it < maxit and err > tol) or test the array first")

    def _symbolic_bound(self, left: tuple, right: tuple, compare: str | None = None) -> SymInt:
        """``trips_bound`` where an int of the test is a symbol (``maxit``, an argument
        that changed between calls): for a counter that steps by 1 towards it
        (``it < maxit``, ``left > 0`` with ``left`` the symbol), the bound is an
        expression, ``maxit - it0``, that must be ``>= 0`` for every value the entry
        serves (proven from the symbols' ranges, or guarded: ``_require``); other
        steps or comparisons are no node (a ceiling is no affine expression).
        ``compare``: the test's, unless given (a cap's "go on": ``while_caps``)."""
        (a0, da), (b0, db) = left, right
        # a trip bound is a size (a changing int in it is guarded >= 2, or pinned)
        as_size(symbols_of((a0, b0)), "a while loop's trip bound")
        d0, dd = a0 - b0, da - db          # as in ``trips_bound``
        e0, ed = {"LT": (d0, dd), "LE": (d0 - 1, dd), "GT": (-d0, -dd),
                  "GE": (-d0 - 1, -dd)}.get(compare or self.test.compare, (None, None))
        if ed != 1:
            raise NotALoopNode("the loop's test bounds the trips by a symbol in a way "
                               "that is no affine expression")
        bound = -e0
        self._require(bound, "the loop's counter test fails at once for some values")
        return bound


    def _counter_in_tail(self) -> None:
        """``while it < maxit: A; if <test>: break; B`` (``while_counter_break``): the
        trace held the first counter test, so the node's trips are the tests that hold
        after it (one fewer). Each counter must be stepped in ``B`` only (after the
        ``break``'s test): after the loop it is then ``it0 + step * (the node's trips +
        the one more run of B where the counter ended the loop)``."""
        insts = self.tx.info.insts
        if set(self.steps) & stored_in(insts, min(self.head, self.start), self.inst.index):
            raise NotALoopNode("a counter is stepped before the loop's break test "
                               "(while it < maxit: it += 1; ...; if <test>: break)")
        if self.bound is not None:
            self.bound = self.bound - 1
            self._require(self.bound, "the loop's counter test fails after one trip")

