"""Large intermediates in buffers kept across calls (``scratch.py``), against eager NumPy.

A site's buffer is written again only when nothing but the site reaches it: a result
the caller holds, directly or through a view, a container or a weak reference, is
never overwritten, and every compiled result equals eager's in values, dtype, shape
and strides (the any-layout variant keeps eager's layout for F-ordered inputs).
"""

import re
import sys
import threading
import weakref

import numpy as np
import pytest
from dynamo.backends.numpy_backend import scratch
from dynamo.backends.numpy_backend.scratch import Scratch
from test_numpy_backend import compiled_graph
from test_numpy_backend_runtime import change_as_a_caller

import dynamo

BIG = (400, 400)          # 1.28 MB of float64: over scratch.MIN_BYTES
# Sites are the plain path's: a group whose plain path spills the L2 cache would run
# block by block (``plan._spills_cache``), with block-sized scratch buffers instead.
PLAIN_PATH = {"blocked_working_set": 0.0}


def tone(rgb):
    # the shape of the tone-mapping row of corpus 4: every op a large fresh ufunc result,
    # some with a scalar operand (``Ls.max() ** 2``)
    L = 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]
    Ls = 0.18 / np.exp(np.mean(np.log(L + 1e-6))) * L
    Ld = Ls * (1 + Ls / Ls.max() ** 2) / (1 + Ls)
    return rgb * (Ld / (L + 1e-6))[..., None]


def chain(x, y):
    t = np.exp(x)            # a root: no donor, from its site's buffer
    u = np.sin(y)            # another
    return t * u + 1.0, u    # u is returned: held by the caller


def images(n, order="C"):
    rng = np.random.default_rng(n)
    return [np.asarray(rng.random((*BIG, 3)) * 4, order=order) for _ in range(3)]


def assert_same(got, want):
    np.testing.assert_array_equal(got, want, strict=True)
    assert got.strides == want.strides


# --------------------------------------------------------------------------- Scratch


def test_scratch_reuses_only_what_nobody_holds():
    site = Scratch((512, 64), np.dtype(np.float64))
    a = site.take()
    address = a.ctypes.data
    assert site.take() is not a                      # held by a local
    holder, view = [a], a[3:]
    del a
    b = site.take()
    assert not np.shares_memory(b, holder[0])        # held by a list and a view
    del b
    c = site.take()
    assert site.take() is not c                      # held by c
    del holder, view, c
    assert site.take().shape == (512, 64)
    d = site.take()
    e = memoryview(d)
    assert not np.shares_memory(site.take(), d)      # an exported buffer holds it
    del e, d
    assert address is not None


def test_scratch_lets_a_weakly_referenced_array_go():
    site = Scratch((8, 8), np.dtype(np.float32))
    a = site.take()
    ref = weakref.ref(a)
    del a
    assert ref() is not None                          # kept: the documented delay
    b = site.take()
    assert ref() is None and b.shape == (8, 8)


@pytest.mark.filterwarnings("ignore:Setting the:DeprecationWarning")   # NumPy 2.5
@pytest.mark.parametrize("change", ["reshape", "readonly", "dtype"])
def test_scratch_leaves_arrays_the_caller_changed(change):
    site = Scratch((8, 8), np.dtype(np.float64))
    a = site.take()
    change_as_a_caller(a, change)
    changed = id(a)
    del a
    b = site.take()
    assert id(b) != changed and b.shape == (8, 8) and b.dtype == np.float64 and \
        b.flags.writeable and b.flags.c_contiguous


def test_scratch_never_hands_one_array_to_two_threads():
    # four threads start together and each holds what it took while it checks it: the
    # fast path's count includes another thread's local, so no array is handed out twice
    site = Scratch((256,), np.dtype(np.int64))
    start = threading.Barrier(4)
    clashes = []

    def work(tag):
        start.wait()
        for _ in range(300):
            a = site.take()
            a.fill(tag)
            clashes.extend(tag for _ in range(3) if not (a == tag).all())
            del a

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert clashes == []


# --------------------------------------------------------------------------- generated code


def _sites(fn) -> list:
    """The scratch sites of a compiled graph's generated code (the numpy backend hands
    back a 1-tuple wrapper over a one-output graph: its code is ``__dynamo_bare__``)."""
    code = getattr(fn, "__dynamo_bare__", fn)
    return [v for v in code.__globals__.values() if isinstance(v, Scratch)]


def test_large_intermediates_keep_their_buffer_from_call_to_call():
    rgb = images(0)[0]
    fn = compiled_graph(tone, rgb)
    src = fn.__dynamo_source__
    assert ".take()" in src, src
    sites = _sites(fn)
    assert sites
    fn(rgb)
    held = [id(s._issued[0]) for s in sites]
    assert_same(fn(rgb)[0], tone(rgb))
    assert [id(s._issued[0]) for s in sites] == held     # no new allocation


def test_scalar_operands_leave_the_layout_known():
    # ``Ls / Ls.max() ** 2`` and the ops after it borrow buffers: a scalar operand has no
    # axes, so their results are C-ordered when ``rgb`` is (the entry check runs)
    src = compiled_graph(tone, images(1)[0], **PLAIN_PATH).__dynamo_source__
    assert _buffer_writes(src) >= 10, src


def _buffer_writes(src: str) -> int:
    """Ufunc calls that write into a buffer: ``out=``, or the buffer passed last
    (``positional_out.py``): a scratch site's, or one of the call's own operands."""
    n = src.count("out=")
    for line in src.splitlines():
        m = re.match(r"\s*\w+ = _\w+\((.*), (_scratch\d+\.take\(\)|\w+)\)$", line)
        if m and (m[2].startswith("_scratch") or m[2] in re.findall(r"\w+", m[1])):
            n += 1
    return n


@pytest.mark.parametrize("order", ["C", "F"])
def test_results_equal_eager_call_after_call(order):
    fn = dynamo.compile(tone, backend="numpy")
    kept = []
    for rgb in images(2, order) * 2:
        got = fn(rgb)
        assert_same(got, tone(rgb))
        kept.append((got, rgb))
    for got, rgb in kept:                            # nothing the caller held changed
        assert_same(got, tone(rgb))


def test_returned_and_held_results_are_never_written_again():
    fn = dynamo.compile(chain, backend="numpy")
    rng = np.random.default_rng(3)
    pairs = [(rng.random(BIG), rng.random(BIG)) for _ in range(4)]
    results = []
    for x, y in pairs * 2:
        got = fn(x, y)
        want = chain(x, y)
        for g, w in zip(got, want):
            assert_same(g, w)
        results.append((got, want))
    views = [fn(x, y)[1][10:] for x, y in pairs]    # the rest dropped, a view kept
    for (got, want) in results:
        for g, w in zip(got, want):
            assert_same(g, w)
    for v, (x, y) in zip(views, pairs):
        assert_same(v, np.sin(y)[10:])


def conv3x3(img, k):
    out = np.zeros_like(img[1:-1, 1:-1])
    h, w = img.shape
    for i in range(3):
        for j in range(3):
            out += k[i, j] * img[i:h - 2 + i, j:w - 2 + j]
    return out


def two_alive(x):
    a = np.exp(x)
    b = np.sin(x)             # a is alive: another site
    c = a * b                 # a's buffer (a dies here)
    d = np.cos(x)             # b dies at c: b's site again
    return (c + d).sum(axis=0)    # (a returned chain would take no site)


def _kept(fn) -> int:
    """Arrays the holders of ``fn``'s sites keep (holders are per shape and dtype for
    the process: each test below uses shapes of its own)."""
    return sum(len(s._issued) for s in _sites(fn))


def test_values_that_never_live_together_share_a_site():
    # (403, 402): products of (401, 400), a shape no other test here uses
    img, k = np.random.default_rng(5).random((403, 402)), np.arange(9.0).reshape(3, 3)
    fn = compiled_graph(conv3x3, img, k, **PLAIN_PATH)
    assert fn.__dynamo_source__.count(".take()") == 9 and len(_sites(fn)) == 1
    for _ in range(3):
        assert_same(fn(img, k)[0], conv3x3(img, k))
    assert _kept(fn) == 1                     # one hot buffer for the nine products
    x = np.random.default_rng(6).random((399, 401))
    fn = compiled_graph(two_alive, x, **PLAIN_PATH)
    for _ in range(3):
        assert_same(fn(x)[0], two_alive(x))
    assert _kept(fn) == 2, fn.__dynamo_source__     # a and b alive at once


def test_sites_of_one_shape_share_their_arrays_across_sites_and_graphs():
    # One array kept per site held every site's array between calls, though a call held
    # fewer at once: sites taken again after a view or an ``out=`` write never went
    # back to the free ones (``reuse._Sites.escape``), so unsharp masking kept 8 arrays
    # of 1.25 MB where its calls hold 5 (1.79x plain NumPy's peak, #15). Now the sites of
    # one shape and dtype share one holder for the process (``scratch.scratch_site``).
    img = np.random.default_rng(11).random((398, 401))
    fn = compiled_graph(blur_rounds, img, **PLAIN_PATH)
    assert fn.__dynamo_source__.count(".take()") >= 6, fn.__dynamo_source__
    for _ in range(3):
        assert_same(fn(img)[0], blur_rounds(img))
    # two arrays of each shape held at once (``0.25 * a + 0.5 * b``); one kept per site
    # was 8 arrays (the sites taken after ``rows``'s views)
    assert _kept(fn) == 4, fn.__dynamo_source__
    other = compiled_graph(blur_rounds, img[::-1].copy(), **PLAIN_PATH)   # another graph
    assert set(map(id, _sites(other))) == set(map(id, _sites(fn)))


def blur_rounds(img):
    # the shape of unsharp masking (corpus 6): each round's value read through views
    for _ in range(3):
        rows = 0.25 * img[:-2, :] + 0.5 * img[1:-1, :] + 0.25 * img[2:, :]
        img = np.pad(0.5 * rows[:, :-2] + 0.5 * rows[:, 2:], 1, mode="edge")
    return img.sum()


def test_small_results_allocate_as_before():
    small = np.ones((10, 10))
    assert ".take()" not in compiled_graph(chain, small, small).__dynamo_source__
    below = np.ones(scratch.MIN_BYTES // 8 - 1)
    assert ".take()" not in compiled_graph(chain, below, below,
                                           **PLAIN_PATH).__dynamo_source__
    at = np.ones(scratch.MIN_BYTES // 8)
    assert ".take()" in compiled_graph(chain_sum, at, at, **PLAIN_PATH).__dynamo_source__


def chain_sum(x, y):
    return (np.exp(x) * np.sin(y) + 1.0).sum()     # no large value returned


def standardize(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)    # the site's op would reach the caller


def standardize_sq(X):
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    return Z, (Z * Z).sum(axis=0)                  # Z returned, Z * Z not


def test_returned_results_are_held_by_the_caller_alone():
    # A returned chain writes fresh arrays, as eager: a kept buffer returned would be
    # referenced by its site too (``z.resize`` raises), and in ``z = f(x)`` the
    # previous ``z`` is alive during the call, so the site could never hand it out again
    X = np.random.default_rng(7).normal(size=BIG)
    for fn, n_sites in ((standardize, 0), (standardize_sq, 1)):
        code = compiled_graph(fn, X, **PLAIN_PATH)
        assert len(_sites(code)) == n_sites, code.__dynamo_source__
        f = dynamo.compile(fn, backend="numpy", options=PLAIN_PATH)
        held = []
        for _ in range(3):
            got, want = f(X), fn(X)
            got, want = (got, want) if isinstance(got, tuple) else ((got,), (want,))
            for g, w in zip(got, want):
                assert_same(g, w)
                assert sys.getrefcount(g) == sys.getrefcount(w)
            held.append((got, want))
        z = f(X)
        z = z[0] if isinstance(z, tuple) else z
        z.resize(X.size + 1)                         # only the caller refers to it
        for got, want in held:                       # nothing the caller held changed
            for g, w in zip(got, want):
                assert_same(g, w)


def rows_after_first(X):
    return ((X - X.mean(axis=0)) / X.std(axis=0))[1:]    # a view of the chain returned


def test_a_returned_view_of_a_chain_is_held_by_the_caller_alone():
    # the view's base would be the site's buffer: referenced by the site too, and a weak
    # reference to it (a dropped result's) lived on until the next call
    X = np.random.default_rng(8).normal(size=BIG)
    assert not _sites(compiled_graph(rows_after_first, X, **PLAIN_PATH))
    f = dynamo.compile(rows_after_first, backend="numpy", options=PLAIN_PATH)
    for _ in range(3):
        got, want = f(X), rows_after_first(X)
        assert_same(got, want)
        assert sys.getrefcount(got.base) == sys.getrefcount(want.base)
        dead = weakref.ref(got.base)
        del got
        assert dead() is None


def test_recycle_outputs_false_turns_it_off():
    rgb = images(4)[0]
    assert ".take()" not in compiled_graph(tone, rgb, recycle_outputs=False).__dynamo_source__



def heat_steps(u, alpha=0.1, steps=4):
    # a copy per step, its interior written from shifted views (the last op writes
    # straight into the copy's window: fresh_targets.py; on thin planes, so no 1-D pass:
    # the boundary rows would be over half of its range, flat.py)
    for _ in range(steps):
        c = u[1:-1, 1:-1, 1:-1]
        lap = (u[2:, 1:-1, 1:-1] + u[:-2, 1:-1, 1:-1] + u[1:-1, 2:, 1:-1]
               + u[1:-1, :-2, 1:-1] + u[1:-1, 1:-1, 2:] + u[1:-1, 1:-1, :-2] - 6.0 * c)
        new = u.copy()
        new[1:-1, 1:-1, 1:-1] = c + alpha * lap
        u = new
    return u


def jacobi3(A, B, steps=4):
    # each step's value copied into another array's window (thin planes: no 1-D pass)
    for _ in range(steps):
        B[1:-1, 1:-1, 1:-1] = 0.5 * (A[2:, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = 0.5 * (B[2:, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
    return A


def test_sites_do_not_grow_with_the_steps_of_a_stencil():
    # Before, each step's last op took a site (``reuse.donors``) that it never used,
    # since it writes into the copy's window, and whose array "escaped" into the copy:
    # one more 1.3 MB buffer per step (5 sites for 4 steps), out of the cache. A value
    # copied in by ``B[...] = v`` escaped the same way (8 sites for 8 assignments).
    u = np.random.default_rng(7).random((100, 4, 700))
    fn = compiled_graph(heat_steps, u, **PLAIN_PATH)
    for _ in range(3):
        assert_same(fn(u)[0], heat_steps(u))
    assert _kept(fn) == 2, fn.__dynamo_source__
    v = np.random.default_rng(8).random((100, 4, 701))
    fn = compiled_graph(jacobi3, v.copy(), v.copy(), **PLAIN_PATH)
    for _ in range(3):
        a, b, a0, b0 = v.copy(), v[::-1].copy(), v.copy(), v[::-1].copy()
        fn(a, b)
        jacobi3(a0, b0)
        assert_same(a, a0)
        assert_same(b, b0)
    assert _kept(fn) == 1, fn.__dynamo_source__


def into_objects(x, y):
    holder = np.empty(2, dtype=object)
    t = x + y                  # large: from a site
    holder[0] = t              # an object array keeps t itself
    return holder, np.exp(x)   # exp may not reuse t's site: holder still holds t


def test_a_value_kept_by_an_object_array_keeps_its_buffer():
    x, y = np.random.default_rng(9).random(BIG), np.random.default_rng(10).random(BIG)
    fn = dynamo.compile(into_objects, backend="numpy")
    kept = [fn(x, y) for _ in range(3)]
    for holder, e in kept:
        assert_same(holder[0], x + y)
        assert_same(e, np.exp(x))
