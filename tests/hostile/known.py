"""The hostile programs that differ from plain Python today, by probable cause.

Each entry makes ``test_hostile.py`` mark the program a strict xfail on the backends
(and Pythons) it names, so the suite is green now and a fix turns the entry into an
XPASS failure: then delete the entry. The classes, smallest reproductions and the files
that most likely need the fix are in docs/hostile_suite.md.
"""

from __future__ import annotations

import sys
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

# N. Round 6 (prog_round6_*.py). A function that reads two or more frames up through
#    a callee it gets otherwise than by name (an argument, an attribute, getattr, a
#    partial, a bound method) is found only while its first call is traced, inside
#    dynamo's frames: that call's reader sees one of them; from the next call on the
#    function is called as it is (translator/base.py _check_frame_reader,
#    bytecode/caller_frames.py found_reading). Pure Python cannot take the frames of
#    a call already made off the stack.
_FIRST_CALL = ("frame-reader-first-call: the first call of a function that reads two "
               "frames up through an argument runs inside dynamo's frames")
ROUND6: dict[str, Known | str] = {
    **{f"round6_runtime/{name}": _FIRST_CALL for name in (
        "reader_argument_getframe_2", "reader_argument_f_back_f_back",
        "reader_argument_inspect_stack_2", "reader_argument_stacklevel_3",
        "reader_attribute_getframe_2", "reader_attribute_f_back_f_back",
        "reader_by_getattr", "reader_swapped_in_later", "reader_in_partial",
        "callable_object_reader_argument", "bound_method_reader",
        "method_reader_in_island")},
    # an island (the loop after a sys._getframe() call runs uncompiled, its frame
    # called by dynamo's) calls a reader two frames up that the trace never saw and
    # that it loads from a local (only globals and methods are routed through
    # convert._weak_hooks.intercept, which marks the function for its next calls)
    # 3.14 only: at the call of b.resize (a break), one more reference to `b` is alive
    # than in plain Python (plain 3.14 counts its borrowed loads as none), so NumPy's
    # refcheck refuses (not looked into further: dynamo/bytecode/resume.py, the glue)
    "round6_graphs/resize_refcheck": Known(
        "resize-refcount: ndarray.resize(refcheck=True) of a local at a break sees an "
        "extra reference", python=sys.version_info >= (3, 14),
        python_why="3.14 loads borrow references"),
    "round6_runtime/reader_in_list": "frame-reader-in-island: a two-up reader called "
                                     "from the uncompiled loop of an island sees "
                                     "dynamo's frame",
}

KNOWN: dict[str, Known] = {
    pid: entry if isinstance(entry, Known) else Known(entry)
    for table in (ALIAS, IDENTITY, RAISE, STATE, GUARDS, NUMERICS, FRAMES_API, MORE,
                  LOOPS, NEWEST, ROUND6)
    for pid, entry in table.items()
}
