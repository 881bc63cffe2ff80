"""Direct writes (``flat_direct.py``) inside a graph the frontend runs under its own
floating-point guard (``dynamo/raising.py``: a graph that may raise for its values,
``np.bincount`` here, and that the frame's original code reruns when it does).

The backend asks ``runtime.eager_goes_on`` before writing a value straight into the
array a ``setitem`` fills. Under the glue's guard the settings the backend saw as the
caller's already raised, so it always said no and every such graph wrote its windows
through a buffer and a copy (corpus 6's gradient direction histogram: 0.93x plain,
docs/benchmarks.md). There a raise reruns the whole frame, which sees no array the
graph made (such a graph writes no input), so a direct write is safe; these tests pin
that, and that results, warnings and exceptions stay eager's under the caller's
settings (warn, raise, ignore, call).
"""

import numpy as np
import pytest
from dynamo.backends.numpy_backend import runtime
from test_numpy_backend_inplace import differential

from dynamo.ops import errstate


def gradient_bins(img, scale):
    """Central differences written into zero arrays the frame made, then a bincount
    (an op that raises for its values: the frontend runs the graph under its guard)."""
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, 1:-1] = scale * (img[:, 2:] - img[:, :-2])
    gy[1:-1, :] = scale * (img[2:, :] - img[:-2, :])
    bins = (gx > gy).astype(np.int64)
    return gx, gy, np.bincount(bins.ravel(), minlength=2)


def image(overflow: bool):
    img = np.random.default_rng(3).uniform(-1, 1, (200, 300))
    if overflow:            # img[:, 2:] - img[:, :-2] overflows in one place
        img[7, 40], img[7, 42] = -1.5e308, 1.5e308
    return img


@pytest.mark.parametrize("caller", [{}, {"over": "raise"}, {"all": "ignore"}])
def test_eager_goes_on_under_the_glues_guard(caller):
    with np.errstate(**caller):
        glue = errstate.raising()                 # what the glue enters (GUARD_ENTER)
        try:
            token = runtime.guard()               # what the backend's code enters then
            try:
                # a raise here reruns the frame, which never sees the graph's arrays
                assert runtime.eager_goes_on()
            finally:
                runtime.unguard(token)
        finally:
            errstate.UFUNC_STATE.reset(glue)
        token = runtime.guard()                   # the caller's own settings: as before
        try:
            assert runtime.eager_goes_on() == (caller != {"over": "raise"})
        finally:
            runtime.unguard(token)


def _record(*args):
    _record.calls.append(args)


_record.calls = []


@pytest.mark.parametrize("caller", [{}, {"over": "raise"}, {"all": "ignore"},
                                    {"over": "call"}])
@pytest.mark.parametrize("overflow", [False, True])
def test_direct_writes_under_the_glues_guard_are_eagers(caller, overflow):
    # results, warnings (or the FloatingPointError) as eager, with the windows written
    # straight into gx and gy; the bincount keeps the graph under the glue's guard
    _record.calls = []
    with np.errstate(**caller):
        old = np.seterrcall(_record)
        try:
            differential(gradient_bins, image(overflow), 0.5, graphs=1)
        finally:
            np.seterrcall(old)
    # once per run, as eager: eager's, two compiled calls (each reruns the frame on the
    # overflow, which calls it once) and dynamo.explain's
    calls = 4 if overflow and caller == {"over": "call"} else 0
    assert len(_record.calls) == calls
