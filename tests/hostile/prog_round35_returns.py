"""Round 35, what the caller gets back from block-wise groups and elementwise chains
(``backends/numpy_backend/groups.py``, ``reuse.py``: ``reaches_caller``,
``_block_dels``): arrays of 1 MiB and more returned fresh, or as views (``t[1:]``,
``.T``, ``[::2]``, ``np.split(t, 2)[0]``), or as the input itself written in place;
looked at from outside: ``.base`` (None, the chain's array, the input),
``sys.getrefcount``, ``z.resize`` (needs the caller to hold the array alone), a weak
reference dying when the result is dropped, writes through a returned view into
what another result shows, a result fed back as the next call's input, and an
intermediate both returned and read by later ops (the block must not free it).

    >>> def _fresh(x):
    ...     return np.sin(x) * 2.0 + 1.0      # one block-wise group, a fresh output
"""

import gc
import sys
import warnings
import weakref

import numpy as np
from hostile_check import Programs

reg = Programs("round35_returns")

N = 300_000      # 2.4 MB of float64: with _pre's temporaries, block-wise (numpy backend)


def _pre(x):     # full-size temporaries past twice the L2 cache: block-wise groups
    return np.cos(x) * 0.5 + np.tanh(x) * 0.25 - np.sin(x)


def _fresh(x):
    return np.sin(x) * 2.0 + _pre(x)


def _cubes(x):                      # x ** 3 makes its own array in each block (dels)
    v = x
    for _ in range(3):
        v = v + 0.01 * (np.cos(v) - v ** 3)
    return v


def _view_tail(x):
    t = x * 2.0 + _pre(x)
    return t[1:]


def _view_step(x):
    t = np.exp(-x * x) - _pre(x)
    return t[::2]


def _split_half(x):
    t = np.abs(x) * 3.0 - _pre(x)
    return np.split(t, 2)[0]


def _both_and_view(x):               # two results, one a view of the other
    t = x * x + _pre(x)
    return t, t[::-1]


def _intermediate_returned(x):       # returned and read by later ops: not freed
    a = x ** 3
    b = a * 2.0 + np.tanh(a) + _pre(x)
    return a, b


def _inplace_input(x):               # the input itself, written by the chain
    x *= 2.0
    x += _pre(x)
    return x


def _input_view(x):
    np.multiply(x, _pre(x), out=x)
    return x[::2], x


def _out_arg(x, out):
    np.add(np.sin(x), _pre(x), out=out)
    return out


def _reshaped(x):
    t = np.sqrt(np.abs(x)) + _pre(x)
    return t.reshape(600, -1).T


def _deleted_input(x):
    y = x * 2.0 - _pre(x)
    del x
    return y * y


def _float32(x):
    y = x.astype(np.float32)
    return y * np.float32(3.0) + y * y + _pre(y)


def _float16_overflow(x):            # overflows (a warning, once per call)
    y = x.astype(np.float16) * 300.0
    return y * y - _pre(y)


FNS = (_fresh, _cubes, _view_tail, _view_step, _split_half, _both_and_view,
       _intermediate_returned, _inplace_input, _input_view, _out_arg, _reshaped,
       _deleted_input, _float32, _float16_overflow)


def _x(k):
    x = np.linspace(-3.0 - k, 3.0 + k, N)
    x[7] = np.nan
    x[11] = np.inf if k % 2 else -np.inf
    return x


def _args(fn, k):
    x = _x(k)
    return (x, np.empty(N)) if fn is _out_arg else (x,)


def _arrays(value):
    if isinstance(value, np.ndarray):
        return [value]
    return [v for v in value if isinstance(v, np.ndarray)]


# ---------------------------------------------------------------- what is looked at
def _direct(r, f, *args):
    """``f(*args)`` called outside ``r.call`` (the probe holds the result alone), its
    warnings recorded."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = f(*args)
    r.see("warnings", [(w.category.__name__, str(w.message)) for w in seen])
    return out


def _probe_identity(r, fn):
    """``.base`` of each result: None, another result, the input, or an array of its
    own (its size), and reference counts of the results and their bases."""
    f = r.compile(fn)
    for k in range(3):
        args = _args(fn, k)
        out = r.call(f, *args)
        arrays = _arrays(out)
        bases = []
        for a in arrays:
            b = a.base
            where = None if b is None else \
                next((f"arg{i}" for i, v in enumerate(args) if b is v), None) or \
                next((f"result{i}" for i, v in enumerate(arrays) if b is v), None) or \
                ("own", b.size, b.dtype.str, sys.getrefcount(b))
            bases.append(where)
        r.see("bases", bases)
        r.see("refcounts", [sys.getrefcount(a) for a in arrays])
        del out, arrays


def _probe_resize(r, fn):
    """The caller resizes a result it holds alone (fresh arrays only)."""
    f = r.compile(fn)
    for k in range(3):
        z = _direct(r, f, *_args(fn, k))
        z = z if isinstance(z, np.ndarray) else z[-1]
        size = z.size
        try:
            z.resize(size + 3)
            r.see("resized", (z.shape, z[-3:].tolist()))
        except ValueError as e:
            r.see("resize refused", str(e))
        del z


def _probe_weakref(r, fn):
    """A dropped result dies at once (and so does its base, for a view)."""
    f = r.compile(fn)
    calls = []
    for k in range(3):
        out = _direct(r, f, *_args(fn, k))
        arrays = _arrays(out)
        refs = [weakref.ref(a) for a in arrays] + \
            [weakref.ref(a.base) for a in arrays if isinstance(a.base, np.ndarray)]
        del out, arrays
        r.see("alive after drop", [ref() is not None for ref in refs])
        calls.append(refs)
    gc.collect()   # (once for the three calls: a full collection is slow in a big suite)
    for refs in calls:
        r.see("alive after collect", [ref() is not None for ref in refs])


def _probe_write_through(r, fn):
    """Writes through a returned result: seen in the other results and the input as
    eager's, and not in the next call's results."""
    f = r.compile(fn)
    kept = []
    for k in range(3):
        args = _args(fn, k)
        out = r.call(f, *args)
        arrays = _arrays(out)
        arrays[0][:5] = -7.0 * (k + 1)
        r.see("after write", [a[:6].tolist() for a in arrays] + [args[0][:6].tolist()])
        kept.append(out)
    r.see("earlier", [[a[:6].tolist() for a in _arrays(o)] for o in kept])


def _probe_fed_back(r, fn):
    """The result (its last array) is the next call's input."""
    f = r.compile(fn)
    args = _args(fn, 0)
    for _ in range(4):
        out = r.call(f, *args)
        z = _arrays(out)[-1]
        if z.shape != (N,):
            z = np.ascontiguousarray(z).ravel()[:N]
            z = np.resize(z, N)
        args = (z, np.empty(N)) if fn is _out_arg else (z,)


PROBES = {"identity": _probe_identity, "resize": _probe_resize,
          "weakref": _probe_weakref, "write": _probe_write_through,
          "fed_back": _probe_fed_back}

for _i, _fn in enumerate(FNS):
    for _j, (_pname, _probe) in enumerate(PROBES.items()):
        if (_i + _j) % 3 == 2 and _pname != "identity":
            continue

        def _scenario(r, fn=_fn, probe=_probe):
            probe(r, fn)
        reg._add(f"{_fn.__name__.removeprefix('_')}_{_pname}", _scenario, "")


# ---------------------------------------------------------------- kept elsewhere too
class Keeper:
    last = None


def _stored_and_returned(k, x):     # a view stored on an object, the array returned
    t = np.sin(x) + _pre(x)
    k.last = t[1:]
    return t


def _same_input_twice(x, y):        # x is y: one array, returned through both names
    x += _pre(y)
    return x, y


def _s_stored_and_returned(r):
    k = Keeper()
    f = r.compile(_stored_and_returned)
    for j in range(3):
        out = r.call(f, k, _x(j))
        r.see("stored", (k.last.base is out, sys.getrefcount(out)))
        del out


def _s_same_input_twice(r):
    f = r.compile(_same_input_twice)
    for j in range(3):
        x = _x(j)
        r.call(f, x, x)


reg._add("stored_and_returned", _s_stored_and_returned, "")
reg._add("same_input_twice", _s_same_input_twice, "")
