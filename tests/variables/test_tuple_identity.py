"""A tuple the trace made is one object wherever the glue puts it (issue #17, hostile
round 45): ``t = (x * 2, 1); return t, [t]`` gives ``r[0] is r[1][0]``, as plain
Python does. The glue wrote the tuple's display at each place it was reached, so each
was a tuple of its own (``box.append(t); return t``: ``t[0][0] is t`` was False). It is
now built once, as a list is (``SequenceVariable.reconstruct`` through
``GlueCodegen.mutable``); a tuple of constants stays a constant.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]


class Holder:
    last = None


def returned_twice(x):
    t = (x * 2, 1)
    return t, [t]


def stored_and_returned(x, o):
    t = (x + 1, x.shape)
    o.last = t
    return t


def in_its_own_list(x):
    box = []
    t = (box, x * 2)
    box.append(t)
    return t


def in_a_dict_and_a_list(x):
    t = (x - 1, "k")
    return {"a": t}, [t, t]


def _identities(fn, backend):
    f = fn if backend is None else dynamo.compile(fn, backend=backend)
    out = []
    for _ in range(3):
        x, o = np.arange(3.0), Holder()
        if fn is returned_twice:
            r = f(x)
            out.append(r[0] is r[1][0])
        elif fn is stored_and_returned:
            r = f(x, o)
            out.append(r is o.last)
        elif fn is in_its_own_list:
            r = f(x)
            out.append(r[0][0] is r)
        else:
            d, lst = f(x)
            out.append((d["a"] is lst[0], lst[0] is lst[1]))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [returned_twice, stored_and_returned, in_its_own_list,
                                in_a_dict_and_a_list])
def test_one_tuple_is_one_object(fn, backend):
    dynamo.reset()
    want = _identities(fn, None)
    assert want[0] not in (False, (False, False))
    assert _identities(fn, backend) == want
