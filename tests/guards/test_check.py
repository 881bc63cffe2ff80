"""Guard rendering and failure words: every guard kind holds exactly when it should.

The generated check (fast path) and ``failures`` (the words in the recompile log)
are two implementations of one meaning; the property tests hold them to each other.
"""

import math
import types
import weakref

import numpy as np
import pytest
from dynamo.guards import (
    ARRAY,
    CONSTANT,
    DICT_KEYS,
    EXPR,
    ID,
    LENGTH,
    NOT_PRESENT,
    TYPE,
    ArraySpec,
    AttrSource,
    BuiltinSource,
    CheckFunction,
    GlobalSource,
    Guard,
    GuardSet,
    ItemSource,
    LocalSource,
    ShapeSource,
    typed,
)
from hypothesis import given, settings
from hypothesis import strategies as st

X = LocalSource("x")


def make(guards, params=("x",), fn_globals=None):
    return CheckFunction(list(guards), list(params), "f", {} if fn_globals is None else fn_globals,
                         has_closure=False)


def f4(*shape):
    return ArraySpec(np.ndarray, np.dtype("float32"), shape)


# ---------------------------------------------------------------------------- arrays

def test_array_guard_shape_dtype_type_and_words():
    check = make([Guard(X, ARRAY, f4(3, 4))])
    assert check(np.zeros((3, 4), "f4"))
    cases = [
        (np.zeros((3, 5), "f4"), "L['x'] shape[1]: expected 4, got 5"),
        (np.zeros((3, 4), "f8"), "L['x'] dtype: expected float32, got float64"),
        (np.zeros((3, 4, 1), "f4"), "L['x'] ndim: expected 2, got 3"),
        ([[0.0] * 4] * 3, "L['x']: expected numpy.ndarray, got list"),
        (np.float32(1), "L['x']: expected numpy.ndarray, got numpy.float32"),
    ]
    for value, words in cases:
        assert not check(value)
        assert check.failures((value,)) == [words]



def test_lone_dtype_is_tested_by_identity_then_equality_read_once():
    """A check of one array tests its dtype with ``is`` first (``render._compare``):
    an equal dtype that is another object passes as before, another dtype fails, and
    the dtype is read once (a subclass's ``dtype`` property counts the reads)."""
    reads = []

    class Counting(np.ndarray):
        @property
        def dtype(self):
            reads.append(1)
            return super().dtype

    check = make([Guard(X, ARRAY, ArraySpec(Counting, np.dtype("float32"), (3,)))])
    assert " is ___dtype or " in check.source
    same = np.zeros(3, "f4").view(Counting)
    equal = np.zeros(3, np.dtype("f4", metadata={"k": 1})).view(Counting)
    assert equal.dtype is not np.dtype("float32") and equal.dtype == np.dtype("float32")
    other = np.zeros(3, "f8").view(Counting)
    for value, holds in [(same, True), (equal, True), (other, False)]:
        reads.clear()
        assert check(value) is holds
        assert len(reads) == 1
    assert check.failures((other,)) == ["L['x'] dtype: expected float32, got float64"]
    # with more values to compare, one tuple compare as before
    two = make([Guard(X, ARRAY, f4(3)), Guard(LocalSource("y"), ARRAY, f4(3))], ("x", "y"))
    assert " is ___dtype" not in two.source
    assert two(np.zeros(3, "f4"), equal.view(np.ndarray))
    assert not two(np.zeros(3, "f4"), np.zeros(3, "f8"))

def test_dynamic_dimension_is_not_checked():
    check = make([Guard(X, ARRAY, ArraySpec(np.ndarray, np.dtype("f4"), (None, 4)))])
    assert check(np.zeros((7, 4), "f4")) and check(np.zeros((1, 4), "f4"))
    assert not check(np.zeros((7, 5), "f4")) and not check(np.zeros((7,), "f4"))


def test_layout_guards_strides_contiguity_writeable():
    a = np.zeros((4, 6), "f4")
    strided = make([Guard(X, ARRAY, ArraySpec(np.ndarray, a.dtype, (4, 3), strides=(24, 8)))])
    assert strided(a[:, ::2]) and not strided(np.zeros((4, 3), "f4"))
    assert strided.failures((np.zeros((4, 3), "f4"),)) == \
        ["L['x'] strides: expected (24, 8), got (12, 4)"]
    contig = make([Guard(X, ARRAY, ArraySpec(np.ndarray, a.dtype, (4, 6),
                                             contiguity=(True, False)))])
    assert contig(a) and not contig(np.asfortranarray(a))
    assert contig.failures((np.asfortranarray(a),)) == \
        ["L['x'] layout: expected C contiguous, got F contiguous"]
    writeable = make([Guard(X, ARRAY, ArraySpec(np.ndarray, a.dtype, (4, 6), writeable=True))])
    ro = a.copy()
    ro.flags.writeable = False
    assert writeable(a) and not writeable(ro)
    assert writeable.failures((ro,)) == ["L['x'] writeable: expected True, got False"]


def test_device_guard_reads_device_id():
    """CuPy arrays carry ``.device.id``; a stand-in class checks the rendering here."""
    class FakeCupy:
        def __init__(self, dev):
            self.shape, self.ndim, self.dtype = (2,), 1, np.dtype("f4")
            self.device = types.SimpleNamespace(id=dev)
    check = make([Guard(X, ARRAY, ArraySpec(FakeCupy, np.dtype("f4"), (2,), device=0))])
    assert check(FakeCupy(0)) and not check(FakeCupy(1))
    assert check.failures((FakeCupy(1),)) == ["L['x'] device: expected 0, got 1"]


def test_array_guards_of_one_source_merge():
    gs = GuardSet()
    gs.add(Guard(X, ARRAY, f4(2)))
    gs.add(Guard(X, ARRAY, ArraySpec(np.ndarray, np.dtype("f4"), (2,), writeable=True)))
    gs.add(Guard(X, ARRAY, f4(2)))
    (only,) = list(gs)
    assert only.expected.writeable is True and only.expected.shape == (2,)
    with pytest.raises(ValueError, match="conflicting array guards"):
        gs.add(Guard(X, ARRAY, f4(3)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=0, max_size=3),
       st.lists(st.integers(0, 4), min_size=0, max_size=3),
       st.sampled_from(["f4", "f8", "i4", "?"]), st.sampled_from(["f4", "f8", "i4", "?"]))
def test_array_check_agrees_with_failures(shape1, shape2, dt1, dt2):
    check = make([Guard(X, ARRAY, ArraySpec(np.ndarray, np.dtype(dt1), tuple(shape1)))])
    value = np.zeros(shape2, dt2)
    same = tuple(shape1) == tuple(shape2) and dt1 == dt2
    assert check(value) is same
    assert (check.failures((value,)) == []) is same


# ---------------------------------------------------------------------------- constants

CONSTANTS = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(
        [0.0, -0.0, 1.0, 1.5, math.inf, -math.inf, math.nan]) | st.sampled_from(
        ["", "a", "b"]) | st.sampled_from([b"", b"a"]) | st.sampled_from(
        [1j, complex(0.0, -0.0), range(3), range(0), range(5, 5), slice(1, 2), slice(1, 2.0),
         np.dtype("f4"), np.dtype("i4"), Ellipsis]),
    lambda inner: st.tuples(inner) | st.tuples(inner, inner), max_leaves=4)


@settings(max_examples=300, deadline=None)
@given(CONSTANTS, CONSTANTS)
def test_constant_guard_is_exact(expected, value):
    """Type and value, exactly: 1, 1.0 and True differ, 0.0 and -0.0 differ, nan is nan."""
    check = make([Guard(X, CONSTANT, expected)])
    same = typed(expected) == typed(value)
    assert check(value) is same, check.source
    assert (check.failures((value,)) == []) is same


def test_constant_words():
    check = make([Guard(X, CONSTANT, 3)])
    assert check.failures((4,)) == ["L['x']: expected 3, got 4"]
    assert check.failures((3.0,)) == ["L['x']: expected type int, got float"]
    assert make([Guard(X, CONSTANT, "relu")]).failures(("gelu",)) == \
        ["L['x']: expected 'relu', got 'gelu'"]


# ---------------------------------------------------------------------------- structure

def test_cache_full_advice_fits_a_string():
    """A string guarded by value (a word looked up in a vocabulary) gets advice that
    fits a string (ids instead of words), not "pass the data as an array"; a number
    keeps its own advice."""
    from dynamo.guards.check import keeps_failing
    word = Guard(ItemSource(X, 0), CONSTANT, "the")
    text = keeps_failing([(word, "x[0]: expected 'the', got 'a'")] * 2)
    assert "is a string" in text and "int ids" in text and "as an array" not in text
    step = Guard(LocalSource("k"), CONSTANT, 3)
    assert "is a number that changes" in keeps_failing([(step, "k: expected 3, got 4")])


def test_length_and_dict_keys():
    check = make([Guard(X, TYPE, list), Guard(X, LENGTH, 2)])
    assert check([1, 2]) and not check([1]) and not check((1, 2))
    assert check.failures(([1],)) == ["len(L['x']): expected 2, got 1"]
    keys = make([Guard(X, TYPE, dict), Guard(X, DICT_KEYS, ("a", "b"))])
    assert keys({"a": 1, "b": 2}) and not keys({"b": 2, "a": 1}) and not keys({"a": 1})
    assert keys.failures(({"a": 1},)) == ["L['x'] keys: expected ['a', 'b'], got ['a']"]
    mixed = make([Guard(X, TYPE, dict), Guard(X, DICT_KEYS, (1,))])
    assert mixed({1: 0}) and not mixed({True: 0}) and not mixed({1.0: 0})


def test_identity_guards_hold_user_objects_weakly():
    class Model:
        def forward(self):
            pass
    fn = Model.forward
    check = make([Guard(X, TYPE, Model), Guard(AttrSource(X, "f"), ID, fn)])
    m = Model()
    m.f = fn
    assert check(m)
    m.f = len
    assert not check(m)
    assert check.failures((m,)) == [f"L['x'].f: expected {fn.__module__}.{fn.__qualname__}, "
                                    f"got len"]
    alive = weakref.ref(Model)
    del Model, m, fn
    import gc
    gc.collect()
    assert alive() is None, "a guard kept the user's class alive"
    assert not check(object())


def test_builtin_shadowing_and_globals():
    g = {}
    check = make([Guard(BuiltinSource("len"), NOT_PRESENT, None),
                  Guard(GlobalSource("K"), CONSTANT, 2)], params=(), fn_globals=g)
    g["K"] = 2
    assert check()
    g["K"] = 3
    assert check.failures(()) == ["G['K']: expected 2, got 3"]
    g["K"] = 2
    g["len"] = print
    assert not check() and check.failures(()) == ["G['len'] now shadows the builtin"]
    del g["K"], g["len"]
    assert not check()
    assert check.failures(()) == ["G['K']: could not be read (KeyError: 'K')"]


def test_expr_guard():
    check = make([Guard(X, EXPR, "x > 2", note="the trace branched on it")])
    assert check(3) and not check(1)
    assert check.failures((1,)) == ["x > 2 no longer holds (the trace branched on it)"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 80), st.integers(0, 6), st.integers(0, 80))
def test_bound_implied_by_a_pin_is_not_rendered(n, k, pin):
    """``s >= k`` next to ``s == pin`` (``pin >= k``) is left out of the expression, not
    out of the meaning: the check holds exactly when both do, and the failure words
    still name the bound first. A bound the pin does not imply, or one on another
    source, stays."""
    s, other = ShapeSource(X, 0), ShapeSource(X, 1)
    guards = [Guard(s, EXPR, f"x.shape[0] >= {k}", note="size"),
              Guard(s, EXPR, f"x.shape[0] == {pin}", note="pinned"),
              Guard(other, EXPR, "x.shape[1] >= 2", note="size")]
    check = make(guards)
    assert ("x.shape[0] >= " in check.source) == (pin < k)
    assert "x.shape[1] >= 2" in check.source
    x = np.zeros((n, 3))
    assert check(x) == (n >= k and n == pin)
    words = check.failures((x,))
    if n < k:
        assert words == [f"x.shape[0] >= {k} no longer holds (size)"]
    elif n != pin:
        assert words == [f"x.shape[0] == {pin} no longer holds (pinned)"]
    else:
        assert words == []


def test_parameter_named_like_a_builtin():
    """``def f(type, len)``: the check must not call the arguments."""
    guards = [Guard(LocalSource("type"), TYPE, list), Guard(LocalSource("type"), LENGTH, 1),
              Guard(LocalSource("len"), CONSTANT, 3)]
    check = make(guards, params=("type", "len"))
    assert check([0], 3) and not check([0], 4) and not check([], 3)
    assert "___type(type)" in check.source and "___len(type)" in check.source


# ---------------------------------------------------------------------------- order

def test_bases_before_reads_through_them():
    """``type(self) is M`` is checked before ``self.w`` is read: a wrong object never
    has its attributes (properties: user code) evaluated by a check."""
    calls = []

    class M:
        pass

    class Other:
        @property
        def w(self):
            calls.append(1)
            return np.zeros(2, "f4")

    self_ = LocalSource("self")
    gs = GuardSet()
    gs.add(Guard(AttrSource(self_, "w"), ARRAY, f4(2)))
    gs.add(Guard(ItemSource(AttrSource(self_, "d"), "k"), CONSTANT, 1))
    gs.add(Guard(self_, TYPE, M))
    ordered = gs.ordered()
    assert ordered[0].source == self_
    check = CheckFunction(ordered, ["self"], "f", {}, has_closure=False)
    assert not check(Other()) and calls == []
    m = M()
    m.w, m.d = np.zeros(2, "f4"), {"k": 1}
    assert check(m)


def test_describe_lines():
    assert Guard(X, ARRAY, ArraySpec(np.ndarray, np.dtype("f4"), (None, 3), writeable=True)
                 ).describe() == "L['x']: numpy.ndarray float32[*, 3] writeable"
    assert Guard(X, LENGTH, 2).describe() == "len(L['x']) == 2"
