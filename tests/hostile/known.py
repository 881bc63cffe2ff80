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

# C/D/E. (rerun-repeats-warnings, raise-loses-mutations, fixed) A graph that may raise
#    for its values runs under the floating-point guard and is rerun, or, when it cannot
#    be rerun and would raise after Python effects, its frame runs eagerly
#    (dynamo/raising.py on_raise): no entries left.
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
#    level is never rerun, dynamo/writes.py check_warns and raising.on_raise.)
NEWEST: dict[str, Known | str] = {
}

# N. Round 6 (prog_round6_*.py).
#    (frame-reader-first-call, fixed: a function that reads two frames up through a
#    callee it gets otherwise than by name (an argument, an attribute, getattr, a
#    partial, a bound method, a callable object) is found while its first call is
#    traced; dynamo.compile's frame entry (dynamo/frame_entries.py frame_entry) runs the trace
#    from a prologue inside the function's own frame, which then runs the function's
#    own code: the reader sees the program's frames on that first call too.)
#    Still different (docs/python_semantics.md): a two-up reader the trace meets only
#    after the first graph ran and that is not within the frame's reach at the break
#    (deeper than one level, or made after it) is seen from dynamo's frames on that call.
#    (resize-refcount, 3.14, fixed: a method call in an island or at a break keeps
#    its method load, the callable routed in place (bytecode/emit.py intercept_calls):
#    no bound method holds one more reference to self than plain 3.14's borrowed load,
#    so b.resize(8, refcheck=True) of a local succeeds as plainly.)
#    (frame-reader-after-break, frame-reader-in-island, fixed: at a graph break, before
#    the first graph runs, the functions within the frame's reach (arguments, locals,
#    the globals it names, one level into each) are looked at; one that reads two or
#    more frames up makes the whole frame run uncompiled, in the program's frame
#    (dynamo/convert.py _reader_after_break, caller_frames.reader_within).)
ROUND6: dict[str, Known | str] = {}

# O. Round 7 (prog_round7_*.py).
#    (dead-temp-in-frame, fixed) A loop node drops a temporary that no bytecode reads
#    after the loop (translator/loops.py dead_after: liveness), except where the frame
#    shows its locals: a function that names locals()/vars()/eval/_getframe/f_locals/
#    tb_frame (reads_its_locals), and an island after the loop, whose code runs with
#    every local bound where a callee may read them (sys._getframe(1).f_locals): the
#    trace then starts over with every loop node keeping its temporaries' last values
#    (translator/frames.py keeps_temporaries).
#    (dead-local-after-break, fixed) a function that may call a function reading its
#    caller's frame (sys._getframe(1).f_locals), by a global or closure name or held by
#    its frame (an argument or local, one level in: a method, an attribute, an item),
#    passes every bound local on at a break, dead or not (break_entry._compile_break,
#    caller_frames.calls_caller_reader). Still different: such a reader reached
#    deeper, or made after the break (docs/python_semantics.md, "Locals").
ROUND7: dict[str, Known | str] = {}

# P. Round 8 (prog_round8_*.py).
#    (hidden-entry-keyword, fixed: a function with **kwargs is compiled through
#    intercept's wrapper, not a frame entry, whose hidden keyword-only parameter took
#    the caller's ___entry=... away from kwargs: dynamo/frame_entries.py frame_entry.)
#    (compiled-function-unwrapped, fixed: a compiled function that compiled code
#    reads (a global, a dict item) is inlined when called, but code after a graph
#    break got its original function back, so `me = REG["f"]; me.calls += 1` counted
#    on the wrong object: dynamo/variables/functions.py CompiledFunctionVariable.)
#    (chosen-number-identity, fixed: `min(s, c) is s` of a NumPy scalar and a Python
#    number breaks there (the object is the data's choice); `is None` stays False:
#    dynamo/translator/compare.py identical.)
#    (traceback-extra-frames, fixed: an exception raised after a graph break came out
#    of the resume function through dynamo's frames and the frame entry's at its `def`
#    line; the frame entry's prologue and intercept's wrapper rebuild its traceback
#    without them on the way out: dynamo/tracebacks.py for_program.)
#    (compiled-object-attributes, fixed: an attribute set on the function after
#    compiling was not seen through the compiled object, nor one set on the compiled
#    object on the function, and inspect.signature(f, follow_wrapped=False) raised:
#    every attribute but its own slots is the function's, dynamo/api.py
#    OptimizedFunction.)
#    (code-replaced-signature, fixed from the first call that reaches the prologue:
#    the frame entry's prologue, seeing fn.__code__ replaced, has the compiled object
#    make an entry of the new code (frame_entries._Entry.recall, api.OptimizedFunction
#    .code_replaced); set through the compiled object, at once.)
ROUND8: dict[str, Known | str] = {
    # the frame entry binds the arguments by the parameters of the code it was made
    # for: a call only the new code's parameters accept fails before its prologue
    # could see the replacement (a C-level frame would be needed; no Python frame may
    # run between the caller and the function's own). Not fixable without a cost on
    # every call (an entry taking *args/**kwargs: +354 instructions a call on 3.11) or
    # on every function made (3.12's C function watchers; 3.11 has none): measured in
    # docs/python_semantics.md, "A replaced __code__"
    "round8_frames/code_replaced_first_call_new_shape":
        "code-replaced-signature: the first call after fn.__code__ is replaced by code "
        "with other parameters binds by the old code's parameters",
}

# Q. Round 9 (prog_round9_*.py). (sym-float-raise-unpinned, nan-identity,
#    weakref-taken-at-break, int-typed-by-size, number-identity, fixed: a float op that
#    raises at the hints pins its symbols (dynamo/symbolic/scalars.py binary); NaN
#    inputs are guarded one object or distinct (variables/builder.py
#    _guard_nan_identity); a dead local bound to a weak-referenceable user object is
#    passed on at a break (variables/lifetimes.py may_end_visibly); int symbols and
#    their sums are guarded within int64 (builder._symbolic_int,
#    OutputGraph._guard_int64); `is` of two sourced numbers is guarded
#    (translator/identity.py is_same_object).) No entries.
ROUND9: dict[str, Known | str] = {}

# R. Round 10 (prog_round10_*.py). (compiled-recursion-depth, fixed: each level of a
#    recursion through a compiled global took about 5 Python frames (frame entry,
#    dispatcher, runner, run_break_code, the code after the break), so depth 200 raised
#    RecursionError; a call nested in its own code after a break now runs its original
#    code in its frame entry's frame, one frame a level: dynamo/reentry.py. On 3.11 a
#    call of a compiled object still costs CPython two recursion units (its tp_call
#    and the frame), so there the depth reached is about half plain Python's.)
#    (compiled-object-own-slots, fixed: f._orig_fn, f._settings and f._ctx read after a
#    program set them gave the compiled object's own slots; dynamo's state is in
#    _dynamo_* slots and those three names read them only until the program writes or
#    deletes the name: dynamo/api.py _Internal.)
ROUND10: dict[str, Known | str] = {}

# S. Round 11 (prog_round11_*.py).
#    (frame-reader-made-later, fixed: the check at a break holds only while what it
#    looked at does: an entry with a break guards each global its code names that holds
#    a function, method, partial, class or None by identity, each function argument by
#    its __code__, and the class of each global or argument that is a program's object
#    (dynamo/reach_guards.py); a rebinding makes the frame trace and check again.)
#    (compiled-object-call-slot, fixed: f.__call__ read after a program set it gave the
#    compiled object's call slot; OptimizedFunction.__getattribute__ answers it from the
#    function's __dict__, and no call runs __getattribute__: dynamo/api.py.)
ROUND11: dict[str, Known | str] = {}

# T. Round 12 (prog_round12_*.py).
#    (isinstance-class-attribute, fixed: isinstance(o, C) was decided by type(o) alone,
#    where Python asks o.__class__ when the type does not decide (a __class__ property
#    or class attribute of the program's, or its __getattribute__, answers): such an
#    isinstance is a break, variables/builtins.py _isinstance.)
#    (guard-reads-class-code, fixed in part: a property added to the class over an
#    instance's entry was taken for the entry, its getter run while tracing and by the
#    guards on every call (2 reads a call, plainly 1); a data descriptor of the class is
#    now read as one (variables/class_facts.py data_descriptor), and the instance functions
#    the frame-reader check guards are tested to be the instance's entry first
#    (reach_guards._still_own_entry). Left: the entries made before the class changed.)
#    (metaclass-getattribute, fixed: a method read through a class whose
#    metaclass has its own __getattribute__ was guarded by reading type(o).name, which
#    runs it; such a read is a break: variables/objects.py ObjectVariable.getattr.)
#    (metaclass-eq-internal-error, fixed: the frame-reader check compared classes with
#    `in` (a metaclass __eq__ that raises was an internal error) and read __module__
#    through the metaclass: bytecode/caller_frames.py, reach_guards.py, guards/guards.py.)
#    (metaclass-module-property, fixed: a metaclass __module__ property that raised was an
#    internal error; dynamo reads a class's __module__, __name__, __qualname__, __mro__
#    and __dict__ from its type slots, never through the metaclass: guards/type_slots.py.)
ROUND12: dict[str, Known | str] = {
    # the entry made before a property (or __getattr__) was added to the class guards
    # o.read by reading it, so on the first call after, the guard runs the class's new
    # code once or twice besides the program's read (every later call is right); a test
    # of the class before each instance-attribute guard cost 1.6 us a call for four
    # attributes (process_time, 20,000 calls), half again the hit path. Round 14
    # measured the cheapest forms (callgrind, 3.11, a check of two instance functions):
    # `not in` the class's namespace read through its weak reference, +1853
    # instructions on 1983; held strongly, +1145 on 1742; no zero-cost form exists in
    # Python (the class's version tag is not readable): docs/hostile_suite.md
    "round12_reach/instance_function_shadowed_by_property":
        "guard-reads-class-code: on the first call after a property shadows an instance "
        "attribute, the old entry's guard runs the getter too",
    "round12_reach/getattr_added_to_class":
        "guard-reads-class-code: on the first call after __getattr__ is added and the "
        "instance attribute deleted, the old entry's guard runs __getattr__ too",
}

# U. Round 14 (prog_round14_*.py).
#    (meta-class-property, fixed: `C.factor` of a metaclass property was read once while
#    tracing and kept, then read again by the guards: a class attribute a program's
#    metaclass answers (an entry of its own, __getattr__, __getattribute__) is a break,
#    variables/class_facts.py program_metaclass_answers; a metaclass __getattr__ no longer
#    runs for dynamo's own `hasattr(cls, "__del__")`, variables/lifetimes.py.)
#    (fake-library-module, fixed: a class whose body says `__module__ = "numpy"` had its
#    attributes read as NumPy's, unguarded: a library class is a C type or one its
#    module holds by name, variables/objects.py _library_class.)
ROUND14: dict[str, Known | str] = {
    # (weakref-callback-lost, fixed) after a break, the resume function got the value
    # the breaking call left on the stack (`r = weakref.ref(p, cb)`'s weakref) in an
    # earlier slot than the locals passed on (its referent), so at the return the
    # weakref was dropped first and cb never ran. A resume function's glue now drops its
    # values in the order the program's frame would (3.11-3.13 clear slots first to
    # last, 3.14 last to first: variables/lifetimes.py glue_slot_order, codegen.py
    # finish), and a weakref with a callback whose referent lives is a value whose end
    # the program sees, passed on at a break where it is dead (weak_end_is_visible):
    # no entries left.
}

# V. Round 16 (prog_round16_*.py).
#    (caught-error-keeps-arguments, fixed: an error Python raised while tracing and the
#    program's `except` caught kept, through its traceback, the translator's frames and
#    the call's arguments in a cycle until the cyclic GC, so on the first call a
#    `__del__` of the frame's local ran late: translator/base.py step drops the
#    traceback.) (class-gains-del, fixed: an object made and dropped in the trace never
#    exists, so a `__del__` or `__init__` its class gained after the trace never ran:
#    variables/objects.py _guard_still_modelled guards both absent.)
# (7 of the 9 drop-at-replay programs are fixed by round 17: a store into an object,
# a dict or a list that drops a value whose end is visible breaks,
# lifetimes.break_at_drop.)
ROUND16: dict[str, Known | str] = {
    # (drop-at-replay, the last 2 fixed in round 18: a POP_TOP that drops a value whose
    # end the program sees breaks, translator/names.py drop_stack_top; a local bound to
    # a tuple of such values is dropped like one bound to the value itself,
    # lifetimes.visible_ends_held.)
}

# W. Round 17 (prog_round17_*.py). (recycled-output-lifetime, fixed: a large result
#    (1 MiB and more) the caller could get (returned, or a view of it returned) came from
#    a buffer the numpy backend kept for the next call (runtime.Recycler for a
#    block-wise group's output, scratch.Scratch for a plain-path op): one reference more
#    than eager's (``z.resize`` raised), and a weak reference to a dropped result lived
#    until that site's next call. Such an output is a fresh array now, as eager's;
#    only buffers the caller never sees are kept (reuse.reaches_caller).)
ROUND17: dict[str, Known | str] = {}

# X. Round 22 (prog_round22_*.py). (class-attribute-unguarded, fixed: ``type(v).attr``
#    of an object held opaque (its class defines ``__getattribute__``), of an exception
#    built in the trace (also ``e.__class__``, ``sys.exc_info()[0]``) and of a named
#    tuple was read once while tracing and kept; it is read and guarded through
#    ``type(<v's source>)`` or the class's own source, variables/builtins.py _type.)
#    (print-raises-after-effects, fixed: a deferred print to a closed ``sys.stdout``, or
#    of a text its encoding cannot encode, raised after the glue had written back the
#    effects that came after it; such a print is a break, translator/deferred_prints.py
#    _writes_cleanly.)
ROUND22: dict[str, Known | str] = {
    # the compiled call enters the function through a few frames of its own (the
    # frame entry, dispatch, the code after a break), so an unbounded recursion meets
    # the recursion limit some levels earlier: fewer deferred prints before the same
    # RecursionError (round 10's compiled-recursion-depth, measured: 998 levels plainly,
    # 991-992 compiled on 3.11; 2026-12-05, the frame runner and run_break_code pasted
    # into the dispatcher and a nested call kept out of it: 997 plainly from a script's
    # top, 994 on a hit and 990 on the first call, which compiles, compiled on 3.11)
    "round22_objects/deep_recursion":
        "compiled-recursion-depth: an unbounded recursion raises RecursionError a few "
        "levels earlier compiled (the entry's own frames), so fewer lines are printed",
}

# Y. Round 23 (prog_round23_*.py). (info-attribute-written, fixed: an np.finfo/np.iinfo
#    from outside the trace had its attributes read once and kept; each attribute read is
#    guarded by value, variables/constant.py NumericInfoVariable.) (maximum-positional-out,
#    fixed: np.maximum(a, b, c) warns DeprecationWarning on NumPy 2.4+, which the graph's
#    out=c did not: such a call is not modelled, ops/elementwise.py _positional_out.)
#    (words-run-program-code, fixed: the words of a full cache's guards read a class's
#    names through its metaclass and showed objects by their own __repr__; they read type
#    slots and show a program's object by its class, guards/guards.py _obj_name,
#    guard_words._shown.) (deep-input-recursion, fixed: a tuple nested 2000 deep was an
#    internal RecursionError; inputs are traced 64 reads deep, variables/builder.py wrap.)
#    (chosen-zero-d-written, fixed: max(z, 0.5) of a 0-d view chose after the graph, by
#    the value a later write in the graph gave z; the comparison is made in the graph at
#    the call, variables/iteration.py _taken_now.) (constant-key-repr, fixed: a guard on
#    an int of 5000 digits keyed itself by repr, which raises; guards/guards.py
#    _constant_key.)
ROUND23: dict[str, Known | str] = {
    # np.finfo(x.dtype) made in the trace is NumPy's cached object, folded to a constant
    # with no source to guard; the program then writes its attribute (fi.eps = 0.5 on
    # NumPy's own cache). A guard would have to call np.finfo(dtype) on every call of
    # every function that reads an info object it makes (safe_log's np.finfo(x.dtype)
    # .tiny), a cost on a common path for a program that writes NumPy's internals
    "round23_infos/cached_info_written":
        "info-cache-written: an attribute of NumPy's cached np.finfo object written after "
        "the first call is not seen by np.finfo(x.dtype) made in the trace (a constant)",
}

# Z. Round 24 (prog_round24_*.py). (size-float-raises-outside-try, fixed: ``1.0 /
#    len(seg)`` and ``math.log(len(seg))`` of an empty segment were SymFloats computed
#    after the graph, so their ZeroDivisionError/ValueError escaped the program's own
#    ``try``; a division by, or a math function of, a data-dependent int breaks there,
#    symbolic/scalars.py _data_decided; ``7 / max(n, 1)`` stays, scalars.least_value.)
#    (symint-method-leaked, fixed: ``n.bit_length()`` of a data-dependent count raised
#    the internal ``Specialize`` at the user: the bound method of the trace's SymInt reached
#    the code after the break; an attribute of a symbolic number reads its value,
#    variables/constant.py ConstantVariable.getattr.) (numpy-zero-guard, fixed: a CONSTANT
#    guard on ``np.float32(0.0)`` held for ``np.float32(-0.0)``; NumPy float and complex
#    scalars compare by typed keys, guards/guards.py equal_is_not_same.) (info-repr-cached,
#    fixed: an info object written in the trace was described by its ``repr``, which
#    finfo caches in the object as ``_repr``; NumericInfoVariable.describe.)
ROUND24: dict[str, Known | str] = {}

# Z2. Round 25 (prog_round25_*.py): tier 2's scatters, mask stores, run-time-bound
#    slices and small-dtype gathers with hostile values, one-output graphs returned bare,
#    short-axis sums and norms (the numpy backend's short_sum from 512 rows), lengths of
#    data-dependent sizes as numbers. No program differed: no entries.
ROUND25: dict[str, Known | str] = {}

# Z3. Round 26 (prog_round26_*.py): long tuples and lists as arguments, breaking cache
#    hits (recursion, threads, re-entry, raising after the break, generators), size
#    comparisons beside Python numbers and NumPy scalars, sizes in loop bodies,
#    np.poly1d made in the trace, guards in words over objects whose dunders print or
#    raise. (long-list-append-lost, fixed: a list of more than 1,000 items appended to
#    and then read lost every item at the break: ``ListVariable.items`` marked the list
#    read before the read raised Unsupported, so the glue wrote back an empty list;
#    variables/sequences.py reads first.) (truth-beside-scalar-warnings, fixed:
#    ``(n > 0) + np.int8(127)`` ran a 0-d bool array through the ufunc, which neither
#    checks overflow nor says "scalar" in its warnings; the comparison is now a scalar
#    of the other scalar's dtype, as NEP 50 makes the Python bool, ops/data_sizes.py
#    sym_truth_scalar, size_values.truth_operands.) No entries.
ROUND26: dict[str, Known | str] = {}

# Z4. Round 27 (prog_round27_*.py): array kinds users pass in (read-only, frombuffer,
#    broadcast views, memmap, F order, negative strides, byte-swapped, records, dates,
#    objects, str/bytes, matrix, masked, subclasses, NumPy's protocols), NumPy's global
#    state around the call (print options, warning filters, error state) and NEP 50's
#    promotion corners. (text-width-probe, fixed: ``(s + s).dtype`` of two 'U3' arrays
#    was '<U1' in the trace: the rule ran the ufunc on 0-d probes of zeros, whose result
#    is a scalar as wide as its value; text operands are probed with their own
#    dimensions and a 0-d text result runs eagerly, ops/rules.py elementwise.)
#    (duration-divide-reduced, fixed: ``t / np.timedelta64(1, "m")`` failed the numpy
#    backend's compile, BackendError: np.timedelta64 is an np.signedinteger, and
#    strength_reduce took it for a number to multiply by its reciprocal; passes/
#    strength.py _NOT_NUMBER.) (caller-raise-rewarns, fixed: under the caller's
#    ``np.errstate(divide="raise")`` a rerun graph of ``np.sqrt(x) + 1 / x`` warned at
#    the sqrt, raised at the divide, and the rerun warned again (3 times on the numpy
#    backend): such a graph runs under the floating-point guard on calls whose settings
#    raise, raising.OnRaise.guard_if_raising, codegen.finish; one whose own errstate
#    block warns runs eagerly on such calls, eager_if_raising.) No entries.
ROUND27: dict[str, Known | str] = {}

# Z5. Round 28 (prog_round28_*.py): np.poly1d arithmetic in the graph, ``not``/``~``/``-``
#    of size comparisons and counts, ``round`` of graph floats, the compiled objects after
#    api.py's split, the native tier after tier.py's. (round-may-overflow, fixed:
#    ``round(v, -307)`` of a graph float near the largest float raised OverflowError from
#    the graph, past the program's own ``try``: digits from -308 to -1 read the value,
#    symbolic/math_calls.round_call.) (compiled-builtin-wrapper, fixed:
#    ``dynamo.compile(np.add)`` was a wrapper function without ``reduce``/``nin``, a
#    compiled class failed ``isinstance``, a compiled ``log.append`` had no ``__self__``:
#    a callable with no code is returned itself, api._plain_call.) (poly-empty-len,
#    fixed: ``len(p)`` of a poly1d whose ``_coeffs`` was rebound to an empty array was -1,
#    not Python's ValueError, variables/builtins._len.) No entries.
ROUND28: dict[str, Known | str] = {}

# Z6. Round 29 (prog_round29_*.py): the guards issue #16 changed. Order comparisons of a
#    changing float kept as decisions (``t >= 0.35`` with NaN, -0.0, inf, ints past
#    2**53, bools, float subclasses, NumPy scalars, chained, of sums of two changing
#    floats, a global threshold), ``lst[-k]`` of a growing list and ``lrs[self.i]`` at a
#    changing int (items changing type, the list emptied, replaced, a subclass, the
#    index negative, out of range, a bool, an np.int64), ``np.concatenate`` of growing
#    rows, ``max``/``min`` of slices that empty, f-strings of changing numbers and dict
#    merges after a break. No differences found; no entries.
ROUND29: dict[str, Known | str] = {}

# Z7. Round 30 (prog_round30_*.py): what commit 8996ad5 added. Deques modelled with
#    their writes replayed (two names for one deque, subclasses, maxlen=0, the
#    unmodelled methods, mutation while iterating, a raise after an append, a deque
#    replaced by a list, threads), class attribute writes replayed, loops over a
#    data-dependent count as loop nodes (raises, warnings and errstate per trip, writes
#    into arguments, nested, reversed and empty ranges). Found and fixed:
#    (class-write-shadowed, fixed) a read of the trace's own class write (``self.n``
#    after ``type(self).n += 1``; ``Sub.n`` after ``Base.n += 1``) was not guarded by
#    the lookup that found it: ``o.n = -3``, ``Sub.n = 50`` or ``del Sub.n`` between
#    calls reused the trace and read the write (class_writes.read guards the instance's
#    and the subclasses' namespaces). No entries.
ROUND30: dict[str, Known | str] = {}

# Z8. Round 31 (prog_round31_*.py): mechanisms with no round of their own. np.einsum of
#    2-3 operands in tier 2 (traces, diagonals, ``...``, optimize=, out=, dtype=; int8,
#    int32, bool, float32, complex, F-ordered, strided, empty and mismatched operands),
#    3-D gathers ``x[:, idx]``/``x[idx, :, j]``, index stores into views and loop-carried
#    arrays, int8 wrap; loops over data-dependent counts and rows of np.unique as loop
#    nodes (zero trips, counts changing between calls, break/continue/return, effects
#    and raises at trip k, the iterated array written, carried values that change type);
#    truths of size comparisons (not, ~, and/or, chained, as ints, indices, f-strings,
#    short-circuited right operands). No differences found; no entries.
ROUND31: dict[str, Known | str] = {}

# Z9. Round 32 (prog_round32_*.py): what commit 9df4cee added. Changing ints as array
#    data (int64 limits, bools, IntEnum and int subclasses, floats, None and NumPy ints
#    in their place, dtype=, nested, NEP 50), maxlen deque windows stacked and reduced
#    (filling, full, appendleft, extend, clear, rotate, maxlen replaced, rows changing
#    shape or dtype, aliased, subclasses), ``self.__class__.n += 1`` through a property,
#    a class attribute, ``__getattribute__``, a reassigned class; chained size
#    comparisons with effectful right operands and enumerate over data-dependent rows;
#    dead carried loop slots, tier 2 non-C layouts and shape-only warnings. Found and
#    fixed: (class-property-read, fixed) building a frame's break code asked
#    ``isinstance`` of the arguments the trace had not read, which runs a ``__class__``
#    property once more than Python (break_entry._largest_array);
#    (probe-warning-leak, fixed) tier 2's layout probe ran the reduction on lengths
#    cut to 3 with only the error state quiet, so ``e.var(axis=0, ddof=4)`` of 6 rows
#    showed NumPy's "Degrees of freedom <= 0" (native/strided.probe). No entries.
ROUND32: dict[str, Known | str] = {}

# Z10. Round 37, loop bodies (prog_round37_bodies.py): the three newer loop-node rules
#    (body-made lists, arrays held in containers, ``obj.t += 1`` counters). Found and
#    fixed: a reached array as the only carried one went before the trip's placeholder
#    (reached_carries._carry); a body's list kept in a closure cell or on a function made
#    before the loop was no logged change (variables/functions.py). Fixed too
#    (pow-raise-effects, issue #17): ``o.t += 1; o.w -= 0.5 ** o.t * g`` with ``o.t`` a
#    changing int raised OverflowError from a graph that writes ``o.w`` before ``o.t``'s
#    write was replayed: a number that may raise (``Expr.raises``) makes its node a
#    raising one (raising.py), and the glue computes such numbers before its writes,
#    rerunning the frame where they raise (codegen.check_raising_values). No entries.
ROUND37_BODIES: dict[str, Known | str] = {}

# Z11. Round 38, state (prog_round38_state*.py): sets, OrderedDicts, attribute counters,
#    reached arrays and numbers that raise after effects. Found and fixed: the order of
#    a set made in the trace (rebuilt element by element, not as the program made it:
#    variables/sets.py SetVariable.recipe); in-place operations of a cleared set from
#    outside were not written back (a break now: unread_sets.py); an internal error
#    of super() with a keyword after a break (bytecode/instructions.py loads_super).
#    No entries.
ROUND38_STATE: dict[str, Known | str] = {}

# Z12. Round 40, native half (prog_round40_native_*.py): tier 2 (the default "auto"
#    reaches it) forced. (native-ulp-tolerance, fixed 2026-12-06 in round 41) tier 2's
#    float32 ``exp`` was fastexp.exp32 (within the stated 4 ulp of NumPy's SIMD exp;
#    ``exp(y * 0.01) - 1`` cancelled that into a 4 % relative difference): it is NumPy's
#    own call now (native/elementwise.py no_loop_for), bit for bit. Found and fixed: a
#    NumPy scalar stored by a basic index into a narrower integer array
#    (``out[i] = a[i].sum()``, int8 ``out``) wrapped in tier 2 where NumPy raises
#    OverflowError (native/stencils.py setitem). No entries.
ROUND40_NATIVE: dict[str, Known | str] = {}

# Z13. Round 48 (prog_round48_*.py): arrays that share memory (one array passed twice,
#    overlapping and reversed views, transposes, reshape views, out= into another input,
#    views kept on objects and globals, read-only and frombuffer inputs, 0-d and record
#    views, the stencil trap) on eager and numpy: no differences. (tier2-result-base,
#    open) a new array tier 2 returns under 1 MiB (``emitter.LIFT_MIN_BYTES``) is made
#    by Numba: its ``.base`` is Numba's memory owner and ``flags.owndata`` is False, so
#    ``y.base is None`` differs from eager and ``y.resize(n)`` raises "cannot resize this
#    array: it does not own its data" (docs/native.md "Identity" states the ``.base``).
ROUND48: dict[str, Known | str] = {
    "round48_views/fresh_result_owns_data_native":
        "tier2-result-base: tier 2's new array has Numba's memory owner as .base",
    "round48_views/fresh_result_owns_data_auto":
        "tier2-result-base: tier 2's new array has Numba's memory owner as .base",
    "round48_views/fresh_result_resized_auto":
        "tier2-result-base: resize of tier 2's new array raises (it does not own its data)",
}

KNOWN: dict[str, Known] = {
    pid: entry if isinstance(entry, Known) else Known(entry)
    for table in (ALIAS, IDENTITY, RAISE, STATE, GUARDS, NUMERICS, FRAMES_API, MORE,
                  LOOPS, NEWEST, ROUND6, ROUND7, ROUND8, ROUND9, ROUND10, ROUND11,
                  ROUND12, ROUND14, ROUND16, ROUND17, ROUND22, ROUND23, ROUND24,
                  ROUND25, ROUND26, ROUND27, ROUND28, ROUND29, ROUND30, ROUND31,
                  ROUND32, ROUND37_BODIES, ROUND38_STATE, ROUND40_NATIVE, ROUND48)
    for pid, entry in table.items()
}
