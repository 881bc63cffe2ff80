"""The hostile programs that differ from plain Python today, by probable cause.

Each entry makes ``test_hostile.py`` mark the program a strict xfail on the backends
(and Pythons) it names, so the suite is green now and a fix turns the entry into an
XPASS failure: then delete the entry. The classes, smallest reproductions and the files
that most likely need the fix are in docs/hostile_suite.md.
"""

from __future__ import annotations

import types
from dataclasses import dataclass

BOTH = ("eager", "numpy")


@dataclass(frozen=True)
class Known:
    """A known difference: ``reason`` is "<class>: <one line>"; ``python`` is a
    condition on the running interpreter (None: every version) with ``python_why``."""

    reason: str
    backends: tuple[str, ...] = BOTH
    python: bool | None = None
    python_why: str = ""

    def mark(self, backend: str):
        """The strict xfail mark for ``backend`` (None where this entry does not apply)."""
        import pytest
        if backend not in self.backends:
            return None
        condition = True if self.python is None else self.python
        reason = self.reason + (f" ({self.python_why})" if self.python_why else "")
        return pytest.mark.xfail(condition, reason=reason, strict=True)


# A. (alias-objects, fixed) One Python object reached through two names is one Variable
#    (dynamo/variables/builder.py wrap, OutputGraph.input_alias): no entries left.
ALIAS: dict[str, Known | str] = {}

# B. (identity-in-trace, fixed) An op that returns its argument itself (np.asarray,
#    astype(copy=False), ascontiguousarray...) gives back the argument's Variable
#    (dynamo/ops/identity.py, OutputGraph.call_op): no entries left.
IDENTITY: dict[str, Known | str] = {}

# C/D/E. (rerun-repeats-warnings, raise-loses-mutations, fixed) A graph that may raise
#    for its values runs under the floating-point guard and is rerun, or, when it cannot
#    be rerun and would raise after Python effects, its frame runs eagerly
#    (dynamo/convert.py on_raise): no entries left.
RAISE: dict[str, Known | str] = {}

# F. (generator-finally, fixed) A frame that creates a generator with a yield inside
#    try/finally or with runs eagerly (dynamo/convert.py _skip_whole_frame): dropped
#    mid-function, its finally runs at once.
#    (del-timing, fixed) an object passed to a resume function and then deleted or
#    rebound there is freed at that point: the resume function gets its arguments in a
#    list it empties (dynamo/hook.py run_boxed, bytecode/emit.py unbox), a local dead at
#    a break but still bound to such an object is passed on, and dropping its last
#    binding is a graph break (dynamo/variables/lifetimes.py).
STATE: dict[str, Known | str] = {
    # G. (attr-read-cached, class-attr-write-lost, fixed) property getters run on every
    #    read, a class __getattribute__ breaks, type(o).x is read through type(o)
    #    (dynamo/variables/objects.py ObjectVariable.getattr, builtins.py _type).
}

# H. Guards that are missing. (guard-missing-attr, guard-code-defaults, guard-abc,
#    compiled-object-stale-call and guard-monkeypatch, fixed: ObjectVariable._guard_absent,
#    the __code__ guard of inlined functions, the wrapper's defaults read per call
#    (dynamo/hook.py), the ABC cache token guard (variables/builtins.py),
#    OptimizedModule.__call__, the identity guards on library module attributes
#    (variables/objects.py guard_library_attribute, guards/render.py module_tests).)
GUARDS: dict[str, Known | str] = {}

# I. NumPy scalar arithmetic and warnings. (trace-time-scalar-fold and scalar-as-0d,
#    fixed: dynamo/variables/constant.py fold, ops.operator_op.)
#    (numpy-dup-warnings and numpy-fallback-context, fixed: ops that warn beyond
#    floating-point conditions run outside fused code, dynamo/ops/signals.py
#    barrier; stretches run again outside the except clause, numpy_backend/codegen.py.)
NUMERICS: dict[str, Known | str] = {}

# J. Frames, generated code and the wrapper objects.
FRAMES_API = {
    # (frame-visible, fixed: a function whose own bytecode reads its caller's frame,
    #  sys._getframe(n != 0), f_back, inspect.stack, warn(stacklevel != 1), is called
    #  as it is, uncompiled, by dynamo.compile and at a graph break:
    #  dynamo/bytecode/caller_frames.py, docs/python_semantics.md.)
    # (getframe_name, fixed: a sys._getframe() or inspect.currentframe() call runs the
    #  rest of the frame in that frame, an island; no ___brk temporaries in f_locals.)
    # (warning-location, fixed: graph code is compiled at the program's file and lines,
    #  dynamo/source.py compile_source(user_lines=True).)
}

# K. Programs of prog_more.py (generators, context managers, finalizers, descriptors,
#    dataclasses, caches, closures, loop nodes) that differ.
MORE = {
}

# L. Programs of prog_loops.py (loop nodes, outlined loop bodies) that differ.
LOOPS: dict[str, Known | str] = {
}

# M. Programs of prog_newest.py (data-dependent sizes, outlined while loops, numbers as
#    graph inputs, append-only state, lists of ints as data) that differ.
#    (rerun-repeats-python-warnings, fixed: a graph with an op that may warn at Python
#    level is never rerun, dynamo/writes.py check_warns and convert.on_raise.)
NEWEST: dict[str, Known | str] = {
}

# N. Round 6 (prog_round6_*.py).
#    (frame-reader-first-call, fixed: a function that reads two frames up through a
#    callee it gets otherwise than by name (an argument, an attribute, getattr, a
#    partial, a bound method, a callable object) is found while its first call is
#    traced; dynamo.compile's frame entry (dynamo/hook.py frame_entry) runs the trace
#    from a prologue inside the function's own frame, which then runs the function's
#    own code: the reader sees the program's frames on that first call too.)
#    What the trace meets only after the first graph ran is still seen from dynamo's
#    frames on that call (from the next call on, the function is called as it is): a
#    reader behind a graph break, called by a resume function, which runs in a frame
#    of its own (on 3.11 SimpleNamespace has a __getattribute__ of its own, which the
#    trace does not follow, so getattr(ns, name) breaks); a reader called by an island's code (the rest of the
#    frame after a sys._getframe() call runs uncompiled, in a frame that dynamo's glue
#    calls). Only the frame entry's own frame is the program's.
#    (resize-refcount, 3.14, fixed: a method call in an island or at a break keeps
#    its method load, the callable routed in place (bytecode/emit.py intercept_calls):
#    no bound method holds one more reference to self than plain 3.14's borrowed load,
#    so b.resize(8, refcheck=True) of a local succeeds as plainly.)
ROUND6: dict[str, Known | str] = {
    "round6_runtime/reader_by_getattr": Known(
        "frame-reader-after-break: a two-up reader first met by a resume function sees "
        "the frame that calls it",
        python=types.SimpleNamespace.__getattribute__ is not object.__getattribute__,
        python_why="SimpleNamespace has a __getattribute__ of its own (3.11), which "
                   "the trace does not follow"),
    "round6_runtime/method_reader_in_island": "frame-reader-in-island: a two-up reader "
                                              "called by an island's code sees the "
                                              "frame that calls the island",
    # an island (the comprehension's loop, after a one-up reader broke inside it)
    # calls a two-up reader that the trace never saw and that it loads from a local:
    # only globals and methods are routed through convert._weak_hooks.intercept,
    # which marks the function for its next calls: it is never marked
    "round6_runtime/reader_in_list": "frame-reader-in-island: a two-up reader called "
                                     "from the uncompiled loop of an island sees "
                                     "dynamo's frame",
}

# O. Round 7 (prog_round7_*.py).
#    A loop node drops a temporary that no bytecode reads after the loop
#    (translator/loops.py dead_after: liveness, and reads_its_locals for locals()/vars()/
#    eval). The frame itself still shows it: sys._getframe().f_locals, a callee's
#    sys._getframe(1).f_locals, a traceback's tb_frame.f_locals after the loop see the
#    value the trace kept (the first trip's), not the last trip's. Likewise a local no
#    bytecode reads after a graph break is not passed to the resume function, so
#    sys._getframe().f_locals there lacks it.
ROUND7: dict[str, Known | str] = {
    # a function that names _getframe/f_locals/tb_frame keeps every local (like
    # locals()); a callee reading its caller's f_locals is not seen by name
    "round7_dead/temp_read_by_callee_frame":
        "dead-temp-in-frame: a loop temporary dead by liveness is still read through "
        "the frame (a callee's sys._getframe(1).f_locals) after the loop",
    # tier 2 sums a row of more than 128 elements (NumPy's pairwise block) with eight
    # partial sums throughout; NumPy splits such a row in halves first (pairwise_sum in
    # numpy/_core/src/umath/loops_utils.h.src): last-bit differences, for float32 and
    # float64 (docs/native.md lists it as a tolerance; backends/native/reductions.py)
    "round7_native/reduction_float32_long_row":
        "native-sum-order: a float row sum over more than 128 elements is not NumPy's "
        "pairwise order (last bits differ)",
}

KNOWN: dict[str, Known] = {
    pid: entry if isinstance(entry, Known) else Known(entry)
    for table in (ALIAS, IDENTITY, RAISE, STATE, GUARDS, NUMERICS, FRAMES_API, MORE,
                  LOOPS, NEWEST, ROUND6, ROUND7)
    for pid, entry in table.items()
}
