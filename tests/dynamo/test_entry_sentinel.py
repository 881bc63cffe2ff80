"""A frame entry's hidden keyword (``___entry``) passed by the program with dynamo's
own warming sentinel (``dispatch.WARMING``): plain Python raises TypeError (no such
parameter); the compiled function returned None, as ``frame_entries._warm``'s calls
do (hostile round 44, ``round44_state/warming_as_hidden_keyword``). The sentinel now
counts only while ``_warm`` runs in this thread (``frame_entries._WARMING_NOW``)."""

import numpy as np
import pytest

import dynamo
from dynamo import dispatch


def add(x, y):
    return x + y


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_the_warming_sentinel_passed_by_the_program_raises_as_plain_python(backend):
    dynamo.reset()
    f = dynamo.compile(add, backend=backend)
    x = np.ones(3)
    for _ in range(3):
        np.testing.assert_array_equal(f(x, x), add(x, x))
    for hidden in (dispatch.WARMING, None, 5):
        with pytest.raises(TypeError) as plain:
            add(x, x, ___entry=hidden)
        with pytest.raises(TypeError) as got:
            f(x, x, ___entry=hidden)
        assert str(got.value) == str(plain.value)
    np.testing.assert_array_equal(f(x, x), add(x, x))
