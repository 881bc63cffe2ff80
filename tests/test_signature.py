"""``dynamo.signature.Params``: a code object's parameters in declared and frame order."""

import doctest

from dynamo.bytecode import signature
from dynamo.bytecode.signature import STAR_FLAGS, Params


def test_docstring_examples():
    assert doctest.testmod(signature).failed == 0


def test_every_kind_of_parameter():
    def f(a, b=1, /, c=2, *args, d, e=3, **kw):
        x = 1
        return x

    p = Params.of(f.__code__)
    assert p == Params(("a", "b", "c"), 2, ("d", "e"), "args", "kw")
    assert p.frame_order == ("a", "b", "c", "d", "e", "args", "kw")


def test_no_stars_and_no_parameters():
    def g(x, *, y):
        z = x
        return z

    assert Params.of(g.__code__).frame_order == ("x", "y")
    assert Params.of((lambda: 0).__code__) == Params((), 0, (), None, None)
    assert not g.__code__.co_flags & STAR_FLAGS
