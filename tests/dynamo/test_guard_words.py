"""Guards in words (dynamo/guard_words.py): the program's names and the expected values,
never a name of generated code (issue #19)."""

import numpy as np
from dynamo.guards import (
    ARRAY,
    CONSTANT,
    EXPR,
    ID,
    TYPE,
    ArraySpec,
    AttrSource,
    ClosureSource,
    GlobalSource,
    Guard,
    LocalSource,
    ShapeSource,
)

from dynamo.guard_words import entry_text, guard_lines, readable, readable_expr


def _code(name: str, params: str):
    """A code object named like the function (or resume function) ``name``."""
    scope = {}
    exec(f"def {name}({params}):\n    pass\n", scope)
    return scope[name].__code__


F = _code("f", "x, n")
RESUMED = _code("f_resume_at_L6", "___stack0, y")
RESUMED_TWO = _code("f_resume_at_L6", "___stack0, ___stack1, y")


def helper(x):
    return x


def test_an_entry_in_words_with_the_values_inline():
    spec = ArraySpec(np.ndarray, np.dtype("float64"), (3,))
    guards = [Guard(LocalSource("x"), TYPE, np.ndarray), Guard(LocalSource("x"), ARRAY, spec),
              Guard(GlobalSource("helper"), ID, helper), Guard(LocalSource("n"), CONSTANT, 3)]
    assert entry_text(F, guards) == (
        "guards of f (x, n):\n"
        "  type(x) is numpy.ndarray\n"         # (said once: the ARRAY guard's is the same)
        "  x.shape == (3,)\n"
        "  x.dtype == float64\n"
        f"  helper (global) is {helper!r}\n"
        "  n == 3")


def test_a_value_carried_over_a_break_is_named_by_the_break():
    assert readable(LocalSource("___stack0"), RESUMED) == \
        "the value carried over the break at line 6"
    assert readable(AttrSource(LocalSource("___stack1"), "w"), RESUMED_TWO) == \
        "(value 2 of the 2 carried over the break at line 6).w"
    assert entry_text(RESUMED, [Guard(LocalSource("___stack0"), CONSTANT, None)]) == (
        "guards of f, after the break at line 6 (y):\n"
        "  the value carried over the break at line 6 == None")


def test_dynamic_sizes_and_where_a_root_lives():
    spec = ArraySpec(np.ndarray, np.dtype("float32"), (None, 4))
    w = GlobalSource("W")
    lines = guard_lines([Guard(w, ARRAY, spec),
                         Guard(ShapeSource(w, 0), EXPR, "___G['W'].shape[0] >= 2",
                               note="a dynamic size"),
                         Guard(ClosureSource("k", 0), CONSTANT, 3)], F)
    assert lines == ["type(W) is numpy.ndarray  (W: a global)", "W.ndim == 2  (W: a global)",
                     "W.shape[1] == 4  (W: a global)", "W.dtype == float32  (W: a global)",
                     "W.shape[0] >= 2  (a dynamic size)", "k (free variable) == 3"]


def test_generated_code_in_an_expression_reads_as_the_programs_names():
    code = _code("g_resume_at_L9", "___stack0, ___dot0")
    text = readable_expr("(______stack0.shape[0] == ___G['n']) and ___dot0 is not None and "
                         "___builtins.len(___modules['numpy'].__dict__['pi']) > "
                         "___closure[0].cell_contents", code)
    assert "___" not in text, text
    assert text == ("((the value carried over the break at line 9).shape[0] == n) and "
                    "(the comprehension's iterable) is not None and len(numpy.pi) > "
                    "a free variable")


def test_a_source_of_another_module_reads_in_the_programs_names():
    """``type(self).act`` (variables.objects.TypeSource, where a method is found): its
    own text around the base's words, not ``type(L['self'])``."""
    from dynamo.variables.objects import TypeSource
    method = AttrSource(TypeSource(LocalSource("self")), "act")
    assert readable(method, _code("forward", "self, x")) == "type(self).act"
    assert readable(AttrSource(TypeSource(LocalSource("___stack0")), "act"), RESUMED) == \
        "type(the value carried over the break at line 6).act"


class _Loud(type):
    """A metaclass that records every read of a class's names, and its repr."""
    reads: list = []

    def __getattribute__(cls, name):
        if name in ("__qualname__", "__name__", "__module__"):
            _Loud.reads.append(name)
        return super().__getattribute__(name)

    def __repr__(cls):
        _Loud.reads.append("repr")
        return "loud"


class _LoudRepr:
    def __repr__(self):
        _Loud.reads.append("object repr")
        raise RuntimeError("no repr")


def test_words_run_none_of_the_programs_code():
    # (issue #17, round 23: the words of a full cache are made on every program's
    # first call past the limit; they read class names from type slots and show a
    # program's object by its class)
    cls, obj = _Loud("C", (), {}), _LoudRepr()
    _Loud.reads.clear()
    words = guard_lines([Guard(LocalSource("k"), TYPE, cls),
                         Guard(GlobalSource("o"), ID, obj)], F)
    failure = Guard(LocalSource("k"), TYPE, cls).failure(7)
    assert _Loud.reads == []
    assert words[0] == f"type(k) is {__name__}.C"
    assert words[1].startswith("o (global) is <_LoudRepr object at 0x")
    assert failure == f"L['k']: expected type {__name__}.C, got int"


def test_odd_expected_values_are_shown_short():
    lines = guard_lines([Guard(LocalSource("n"), CONSTANT, 10 ** 5000),
                         Guard(LocalSource("t"), CONSTANT, tuple(range(100)))], F)
    assert lines[0].startswith("n == <int object at 0x")
    assert lines[1] == "t == (" + ", ".join(map(str, range(20))) + ", ...)"


_LOUD_OBJECT = _LoudRepr()


def _reads_a_loud_global(x):
    return x * 2.0 if isinstance(_LOUD_OBJECT, _LoudRepr) else x


def test_the_guards_code_log_runs_none_of_the_programs_code(caplog):
    # (issue #17: ``DYNAMO_LOGS=+guards`` shows the check function's stored values,
    # ``# where ___c2 = ...``; they were shown with repr(): a metaclass's __repr__ ran,
    # from dynamo's debug log)
    import logging

    import dynamo
    from dynamo import logs
    cls = _Loud("K", (), {"scale": 1.0})
    _Loud.reads.clear()
    f = dynamo.compile(lambda x, k: _reads_a_loud_global(x) + k.scale, backend="eager")
    was = logs.guards_code.level
    logs.guards_code.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger=logs.guards_code.name):
            out = f(np.ones(2), cls())
    finally:
        logs.guards_code.setLevel(was)
    np.testing.assert_array_equal(out, np.ones(2) * 3.0)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "# where" in text and f"{__name__}.K" in text
    assert _Loud.reads == []


class _Steps:
    """A global class whose attribute is a counter (issue #19's ``IdAssigner.next_id``)."""

    n = 0


def _every_other(x):
    _Steps.n += 1
    if _Steps.n % 2 == 0:        # a decision on a changing int: guarded as an expression
        return x * 2.0
    return x - 1.0


def test_a_recompile_names_a_global_classs_attribute_in_the_programs_words():
    """The recompile log read ``___G['_Steps'].n % 2 == 0 no longer holds``: the guard's
    generated text, now in the program's names."""
    import dynamo

    _Steps.n = 0
    with dynamo.explain(_every_other, backend="eager") as f:
        for _ in range(4):
            f(np.ones(3))
    reasons = [r for rec in f.report.recompiles for r in rec.reasons]
    assert any("_Steps.n" in r for r in reasons), reasons
    assert not any("___" in r for r in reasons), reasons
