"""The hostile programs that differ from plain Python today, by probable cause.

Each entry makes ``test_hostile.py`` mark the program a strict xfail on the backends
(and Pythons) it names, so the suite is green now and a fix turns the entry into an
XPASS failure: then delete the entry. The classes, smallest reproductions and the files
that most likely need the fix are in docs/hostile_suite.md.
"""

from __future__ import annotations

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

# C/D/E. A graph that raises: the hook reruns the frame's original code, so warnings
#    the graph emitted before raising come twice; when the graph wrote an input (no
#    rerun), the Python mutations made before the raise are lost (dynamo/convert.py:
#    rerun_on_raise, dynamo/codegen.py glue). (`__context__ = RerunEagerly` on the
#    program's exception was fixed by a concurrent change during this work.)
RAISE = {
    "exceptions/warning_then_raise": "rerun-repeats-warnings: the graph's divide warnings "
                                     "come twice (graph, then rerun)",
    "exceptions/errstate_warn_then_raise": "rerun-repeats-warnings: warnings before the "
                                           "raising op come twice (graph, then rerun)",
    "exceptions/log_and_array_write_then_raise": "raise-loses-mutations: x += 1 then a "
                                                 "raising graph: log.append('before') lost",
    "exceptions/attr_and_item_write_then_raise": "raise-loses-mutations: x[0] = 1 then a "
                                                 "raising graph: o.n = 5 lost",
}

# F. A generator with a yield inside try/finally or with runs as a real generator (its
#    creation is a break, dynamo/variables/containers.py: yields_inside_try), and the
#    tracer drops the call's arguments when it ends (OutputGraph.release). Dropped in
#    the middle of the function (del, rebinding, break out of a loop), its finally
#    still runs at the end of the call: the frame's break temporaries keep it alive
#    (del-timing, dynamo/bytecode/resume.py).
_GEN = "generator-finally: a generator dropped mid-function runs its finally late ({})"
STATE = {
    "state/gen_deleted_mid_function": _GEN.format("del g"),
    "state/gen_rebound_mid_function": _GEN.format("g = None"),
    "state/gen_loop_break": _GEN.format("break out of for"),
    "state/gen_print_del_order": _GEN.format("del g; its print comes late"),
    "state/del_order": "del-timing: __del__ of objects rebound/deleted inside the trace "
                       "runs at another point",
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
#    floating-point conditions run outside fused code, backends/passes/signals.py
#    barrier; stretches run again outside the except clause, numpy_backend/codegen.py.)
NUMERICS: dict[str, Known | str] = {}

# J. Frames, generated code and the wrapper objects.
FRAMES_API = {
    "misc/getframe_name": "frame-visible: sys._getframe().f_locals shows ___brk0",
    "misc/caller_frame": "frame-visible: sys._getframe(1) is dynamo's frame, not the caller",
    "misc/user_warning_stacklevel_2": "frame-visible: warn(stacklevel=2) in a helper points "
                                      "at dynamo/convert.py, not the caller's line",
    "misc/numpy_warning_points_at_user_line": "warning-location: a NumPy RuntimeWarning "
                                              "points at '<dynamo graph ...>', not the "
                                              "user's line",
    "api/isinstance_of_compiled_model": "wrapper-fidelity: isinstance(dynamo.compile(m), "
                                        "Model) is False",
}

KNOWN: dict[str, Known] = {
    pid: entry if isinstance(entry, Known) else Known(entry)
    for table in (ALIAS, IDENTITY, RAISE, STATE, GUARDS, NUMERICS, FRAMES_API)
    for pid, entry in table.items()
}
