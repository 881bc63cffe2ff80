"""What the numpy backend's generated code costs beyond plain NumPy (issue #15).

Each mechanism is shown on the generated source (what is no longer there) and
checked against plain NumPy by ``agree`` (results bit for bit, every floating-point
report, ``seterrcall`` calls, exceptions), on the programs of
``scripts/realworld_programs.py`` that showed it.
"""

import tracemalloc

import numpy as np
import pytest
from script_modules import load_script
from test_numpy_backend_inline import generated
from test_numpy_never_wrong import BLOCKED, agree, source

import dynamo

_rw = load_script("realworld_programs")


# --------------------------------------------------------------- the guard per loop trip

def cg_step(A, b, iters=12):
    """Conjugate gradient: partition merges ``x + alpha * p`` with ``r + beta * p``
    (both read ``p``), whose ops still run one by one in program order."""
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rs = r @ r
    for _ in range(iters):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x


def _spd(n, seed=0):
    m = np.random.default_rng(seed).standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


def test_a_loop_body_in_program_order_runs_unguarded():
    # ops that may signal, in eager's order on the plain path: no guard, no fallback
    A, b = _spd(30), np.random.default_rng(1).standard_normal(30)
    code = generated(cg_step, A, b)
    body = code[code.index("_taking("):]
    assert "_raising_of(" not in body and "_redo" not in body, body


@pytest.mark.parametrize("errstate", [None, {"all": "raise"}, {"all": "call"}])
def test_an_unguarded_loop_body_reports_as_eager(errstate):
    A = _spd(30)
    b = np.random.default_rng(1).standard_normal(30)
    agree(cg_step, A, b, errstate=errstate)
    agree(cg_step, A, np.zeros(30), errstate=errstate)        # 0 / 0 in the first trip
    agree(cg_step, A, np.full(30, np.inf), errstate=errstate)  # inf - inf, then NaN
    agree(_rw.conjugate_gradient, _spd(40, 2), np.ones(40), errstate=errstate)


def divide_then_scale(x, y):
    return (x / y) * 2 + y


def test_a_block_wise_group_that_may_signal_stays_guarded():
    # blocks report a condition once per block: the guard and eager's rerun stay
    x, y = np.ones((64, 64)), np.ones((64, 64))
    y[5, 7] = y[60, 3] = 0.0
    assert "_ufunc_set(_raising_of(_caller))" in source(divide_then_scale, x, y, **BLOCKED)
    agree(divide_then_scale, x, y, options=BLOCKED)
    agree(divide_then_scale, x, y, options=BLOCKED, errstate={"all": "raise"})
    agree(divide_then_scale, x, y, options=BLOCKED, errstate={"all": "call"})


# --------------------------------------------------------------- the layout check per trip

def test_a_loop_body_checks_no_layout_it_does_not_use():
    zs = np.cumsum(np.random.default_rng(2).standard_normal(30))
    code = generated(_rw.kalman_filter, zs)
    body = code[code.index("_taking("):]
    assert "_layout" not in body, body
    agree(_rw.kalman_filter, zs)


def jacobi_pair(A, B, steps=12):
    # a per-trip reuse of a 2-D buffer: the check stays, and its fallback (out=None)
    for _ in range(steps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[:-2, 1:-1] + A[2:, 1:-1]
                               + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A, B


def test_a_layout_check_that_a_reuse_needs_stays():
    rng = np.random.default_rng(3)
    A, B = rng.random((20, 20)), rng.random((20, 20))
    agree(jacobi_pair, A, B)
    agree(jacobi_pair, np.asfortranarray(A), B)


# --------------------------------------------------------------- methods, not wrappers

def transposes(F, P, x, Q):
    for _ in range(12):
        P = F @ P @ F.T + Q
        x = np.transpose(F) @ x
        y = np.swapaxes(P, 0, 1).copy()
        z = np.reshape(y, -1).astype(np.float32)
    return P, x, y, z


def test_transposes_copies_and_astype_are_methods():
    rng = np.random.default_rng(4)
    args = (rng.random((3, 3)), np.eye(3), rng.random(3), 0.01 * np.eye(3))
    code = generated(transposes, *args)
    assert "F.T" in code and ".copy()" in code and ".astype(" in code, code
    assert "_transpose(" not in code and "_copy_method(" not in code, code
    assert "_swapaxes(" not in code and "_reshape(" not in code, code
    agree(transposes, *args)
    agree(transposes, np.asfortranarray(args[0]), *args[1:])


def scalar_transpose(a, s):
    return np.transpose(s) + a.T, np.reshape(s, (1,)), np.transpose(a, (1, 0)).copy("F")


def test_method_forms_keep_numpys_results_for_scalars_and_axes():
    # a NumPy scalar keeps np.transpose (a 0-d result, not the scalar's method)
    a = np.arange(6.0).reshape(2, 3)
    agree(scalar_transpose, a, np.float64(2.5))
    body = source(scalar_transpose, a, np.float64(2.5))
    assert "_transpose(s)" in body and "a.T" in body and "a.transpose((1, 0, ))" in body, body


# --------------------------------------------------------------- memory of a loop trip

def _peak(fn, *args) -> int:
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_trip_frees_the_carried_values_it_replaces():
    # v and count die at their last reader (eager's rebinding frees them there), and
    # what only the handed-over value read dies after the hand-over
    current = 2 * np.random.default_rng(5).random(5000)
    code = generated(_rw.lif_neurons, current)
    body = code[code.index("_taking("):]
    assert "del v" in body and "del count" in body and "del add" in body, body
    compiled = dynamo.compile(_rw.lif_neurons, backend="numpy")
    compiled(current)
    assert _peak(compiled, current) <= _peak(_rw.lif_neurons, current), code
    agree(_rw.lif_neurons, current)


def carried_read_late(x, y, steps=12):
    for _ in range(steps):
        old = x
        x = np.sqrt(x) + y
        y = y / old          # the replaced x read after its replacement
    return x, y


@pytest.mark.parametrize("options", [{}, BLOCKED])
def test_replaced_carried_values_keep_eager_results(options):
    rng = np.random.default_rng(6)
    x, y = rng.random(300) + 0.5, rng.random(300)
    for errstate in (None, {"all": "raise"}):
        agree(carried_read_late, x, y, options=options, errstate=errstate)
        agree(carried_read_late, x - 1.0, y, options=options, errstate=errstate)
        agree(_rw.lif_neurons, 2 * x, options=options, errstate=errstate)
        agree(jacobi_pair, rng.random((20, 20)), rng.random((20, 20)), options=options,
              errstate=errstate)
