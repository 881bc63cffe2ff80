"""``[np.zeros(n)] * 4`` is a list of one array four times (issue #16): an in-place
write through any of the four names (``lst[0] += 1``, ``lst[1][:] = x``, ``lst[2] *=
2``) is seen through all four, in eager Python and compiled alike; a rebinding
(``lst[0] = lst[0] + 1``) changes one slot only. Checked against eager for results,
the list's items, their identity (one object, or four), and state kept on an object
across calls, on both CPU backends; a list argument that is aliased on some calls and
not on others gets an entry of each kind.

Example::

    >>> def f(n):
    ...     lst = [np.zeros(n)] * 4
    ...     lst[0] += 1
    ...     return lst
    >>> out = dynamo.compile(f)(3)
    >>> out[3] is out[0], out[3]
    (True, array([1., 1., 1.]))
"""

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]


def _ids(items) -> list[int]:
    """The aliasing pattern of ``items``: the index of each item's first occurrence."""
    return [next(j for j, b in enumerate(items) if b is a) for a in items]


def _same(want, got):
    assert type(got) is type(want)
    if isinstance(want, list | tuple):
        assert len(want) == len(got)
        if all(isinstance(w, np.ndarray) for w in want):
            assert _ids(want) == _ids(got)
        for w, g in zip(want, got):
            _same(w, g)
    else:
        np.testing.assert_array_equal(got, want)
        assert np.asarray(got).dtype == np.asarray(want).dtype


def add_through_first(n):
    lst = [np.zeros(n)] * 4
    lst[0] += 1
    return lst, [a.sum() for a in lst]


def slice_write_through_second(x):
    lst = [np.zeros(x.shape[0])] * 4
    lst[1][:] = x
    return lst[0] + lst[3], lst


def several_writes_then_stack(x):
    lst = [np.zeros_like(x)] * 4
    lst[0] += x
    lst[2] *= 2
    return np.stack(lst)


def rebind_one_slot(x):
    lst = [x * 0] * 4
    lst[0] = lst[0] + 1       # a new array in slot 0 only
    lst[1] += 2               # slots 1-3: still one array
    return lst


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args", [
    (add_through_first, (3,)),
    (slice_write_through_second, (np.arange(3.0),)),
    (several_writes_then_stack, (np.arange(4.0),)),
    (rebind_one_slot, (np.arange(3.0),)),
])
def test_a_repeated_array_is_one_object_in_the_trace(fn, args, backend):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for _ in range(2):   # (the first call traces, the second runs the entry)
        _same(fn(*args), compiled(*args))


class Frames:
    def __init__(self):
        self.frames = [np.zeros(3)] * 4

    def step(self, x):
        self.frames[0] += x
        self.frames[2][1:] = self.frames[3][1:] * 2
        return sum(self.frames)


@pytest.mark.parametrize("backend", BACKENDS)
def test_state_made_of_one_array_four_times(backend):
    plain, traced = Frames(), Frames()
    dynamo.reset()
    with dynamo.explain(traced.step, backend=backend) as f:
        for i in range(4):
            x = np.arange(3.0) + i
            _same(plain.step(x), f(x))
            _same(plain.frames, traced.frames)
            assert traced.frames[0] is traced.frames[3]
    assert f.report.compile_count <= 2


def write_first_read_last(x, lst):
    lst[0] += x
    lst[1][:2] = 7
    return lst[3] * 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_argument_aliased_on_some_calls_only(backend):
    def aliased():
        return [np.zeros(3)] * 4

    def distinct():
        return [np.zeros(3) for _ in range(4)]

    makers = [aliased, distinct, aliased, distinct, aliased]
    dynamo.reset()
    compiled = dynamo.compile(write_first_read_last, backend=backend)
    for make in makers:
        want_list, got_list = make(), make()
        _same(write_first_read_last(np.ones(3), want_list),
              compiled(np.ones(3), got_list))
        _same(want_list, got_list)
