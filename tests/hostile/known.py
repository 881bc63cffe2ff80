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


def numpy_only(reason: str) -> Known:
    return Known(reason, ("numpy",))


def py_from(version: tuple[int, int], reason: str) -> Known:
    """A difference seen only on ``version`` and later Pythons."""
    return Known(reason, BOTH, sys.version_info >= version,
                 f"Python >= {version[0]}.{version[1]} only")


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

# F. Generators called from compiled code are inlined and never exist: their `finally`
#    (GeneratorExit on drop) never runs (dynamo/variables/containers.py:
#    GeneratorVariable); objects made in the trace die at other times.
_GEN = "generator-finally: a generator dropped after next() never runs its finally ({})"
STATE = {
    "state/gen_dropped_after_next": _GEN.format("at return"),
    "state/gen_deleted_mid_function": _GEN.format("del g"),
    "state/gen_rebound_mid_function": _GEN.format("g = None"),
    "state/gen_loop_break": _GEN.format("break out of for"),
    "state/gen_print_order": _GEN.format("its print is missing"),
    "state/gen_print_del_order": _GEN.format("del g; its print is missing"),
    "state/generator_function_argument_advances": "trace-keeps-inputs: the tracing call's "
                                                  "arguments stay alive in a cycle; del g "
                                                  "does not run its finally",
    "state/del_order": "del-timing: __del__ of objects rebound/deleted inside the trace "
                       "runs at another point",
    # G. Attribute reads of input objects run at trace time and are cached per trace
    #    (dynamo/variables/objects.py: ObjectVariable.getattr, self.cache).
    "state/prop_twice": "attr-read-cached: a property read twice runs its getter once "
                        "(self.reads += 1 counted once)",
    "state/prop_in_branch": "attr-read-cached: a property read in the test and the body "
                            "runs its getter once",
    "state/getattribute_side_effect": "attr-read-cached: __getattribute__ runs at trace "
                                      "time only, not on each call",
    "state/class_attribute_counter": "class-attr-write-lost: type(o).calls += 1 is not "
                                     "written back (Calls.calls stays 1)",
}

# H. Guards that are missing.
GUARDS = {
    "guards/instance_attr_shadows_method": "guard-missing-attr: an instance attribute set "
                                           "after the first call does not shadow the method",
    "guards/getattr_default_attribute_appears": "guard-missing-attr: getattr(o, 'scale', "
                                                "1.0) keeps 1.0 after o.scale is set",
    "guards/hasattr_attribute_appears": "guard-missing-attr: hasattr(o, 'bias') stays "
                                        "False after o.bias is set",
    "guards/class_attribute_appears_for_hasattr": "guard-missing-attr: hasattr stays False "
                                                  "after the class gains the attribute",
    "guards/getattr_hook_added_to_class": "guard-missing-attr: a __getattr__ added to the "
                                          "class later is not used",
    "guards/helper_code_replaced": "guard-code-defaults: helper.__code__ replaced after "
                                   "the first call is not seen",
    "guards/own_defaults_replaced": "guard-code-defaults: the compiled function's own "
                                    "__defaults__ replaced is not seen (documented)",
    "guards/own_code_replaced": "guard-code-defaults: the compiled function's own "
                                "__code__ replaced is not seen (documented)",
    "guards/numpy_tanh_monkeypatched": "guard-monkeypatch: np.tanh replaced after the "
                                       "first call is not seen (documented)",
    "guards/numpy_constant_patched": "guard-monkeypatch: np.pi replaced is not seen",
    "guards/numpy_e_patched": "guard-monkeypatch: np.e replaced is not seen",
    "guards/math_patched": "guard-monkeypatch: math.pi / math.sqrt replaced are not seen",
    "guards/numpy_type_alias_patched": "guard-monkeypatch: np.float32 rebound is not seen",
    "guards/abc_register_after_first_call": "guard-abc: isinstance(o, ABC) stays False "
                                            "after ABC.register(type(o))",
    "guards/abc_register_issubclass": "guard-abc: issubclass(C, ABC) stays False after "
                                      "ABC.register(C)",
    "guards/call_replaced_on_class_of_compiled_object": "compiled-object-stale-call: "
                                                        "Model.__call__ replaced is not "
                                                        "run by the compiled object",
}

# I. NumPy scalar arithmetic and warnings. (trace-time-scalar-fold and scalar-as-0d,
#    fixed: dynamo/variables/constant.py fold, ops.operator_op.)
#    (numpy-dup-warnings and numpy-fallback-context, fixed: ops that warn beyond
#    floating-point conditions run outside fused code, backends/passes/signals.py
#    barrier; stretches run again outside the except clause, numpy_backend/codegen.py.)
NUMERICS: dict[str, Known | str] = {}

# J. Frames, generated code and the wrapper objects.
FRAMES_API = {
    "misc/locals_call": "frame-visible: locals() shows ___brk0/___brk1 temporaries",
    "misc/getframe_name": "frame-visible: sys._getframe().f_locals shows ___brk0",
    "misc/caller_frame": "frame-visible: sys._getframe(1) is dynamo's frame, not the caller",
    "misc/user_warning_stacklevel_2": "frame-visible: warn(stacklevel=2) in a helper points "
                                      "at dynamo/convert.py, not the caller's line",
    "misc/numpy_warning_points_at_user_line": "warning-location: a NumPy RuntimeWarning "
                                              "points at '<dynamo graph ...>', not the "
                                              "user's line",
    "misc/slots_object": "deferred-attr-write: o.c = 1 on a __slots__ object raises after "
                         "the graph, outside the program's try",
    "api/parameter_names_like_generated_code": "wrapper-param-names: a parameter named "
                                               "___fn cannot be passed by keyword",
    "api/parameter_names_like_dispatcher_locals": "wrapper-param-names: a parameter named "
                                                  "___ok cannot be passed by keyword",
    "api/returns_closure_over_array": "escaped-closure-cells: a closure returned by the "
                                      "compiled function has an empty cell for x",
    "api/returns_lambdas": "escaped-closure-cells: lambdas returned by the compiled "
                           "function have an empty cell for x",
    "api/callable_with_static_call": "compile-refuses-callable: __call__ = staticmethod(...)",
    "api/callable_with_partialmethod_call": "compile-refuses-callable: __call__ = "
                                            "partialmethod(...)",
    "api/compile_partial": "compile-refuses-callable: functools.partial(f, y=...)",
    "api/compile_ufunc": "compile-refuses-callable: dynamo.compile(np.tanh)",
    "api/compile_builtin": "compile-refuses-callable: dynamo.compile(len)",
    "api/compile_class": "compile-refuses-callable: dynamo.compile(SomeClass)",
    "api/metadata_preserved": "wrapper-fidelity: compiled.__defaults__ is missing",
    "api/isinstance_of_compiled_model": "wrapper-fidelity: isinstance(dynamo.compile(m), "
                                        "Model) is False",
    "api/annotations": py_from((3, 14), "wrapper-fidelity: compiled.__annotations__ is "
                                        "missing (update_wrapper copies __annotate__)"),
    "exceptions/raise_inside_loop_after_mutations": py_from(
        (3, 13), "internal-error: 'Failed to compute stacksize, got negative size' for a "
                 "raise inside a loop (falls back to eager)"),
}

KNOWN: dict[str, Known] = {
    pid: entry if isinstance(entry, Known) else Known(entry)
    for table in (ALIAS, IDENTITY, RAISE, STATE, GUARDS, NUMERICS, FRAMES_API)
    for pid, entry in table.items()
}
