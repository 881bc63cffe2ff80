"""``np.random``'s legacy global functions as graph ops, kept in program order.

``np.random.normal(0, 1, size=(3, 4))`` is an op with no array inputs (``random_normal``)
that draws from NumPy's global ``RandomState`` when the graph runs. The eager backend
runs nodes in program order, so a compiled function consumes the global stream exactly
as the original does: the same seed gives the same numbers (the ops are marked
``random`` so no pass may drop, merge or reorder them). Tracing never touches the
global state: dtypes and argument errors come from a private ``RandomState``, called
with an empty ``size``.

What breaks instead, and why:

- a call that returns a Python float or int (``np.random.rand()``, ``normal()`` with no
  ``size`` and scalar parameters): a graph has no Python scalars;
- ``np.random.seed``, ``get_state``, ``set_state``, ``default_rng`` and every function
  not listed here: they run eagerly, at their place in the program;
- methods of a ``np.random.Generator`` (``rng.normal(...)``): a Generator is not an
  array and has no graph input kind ("opaque inputs" would be needed), so each call is
  a graph break that runs the method eagerly, at its place in the program, with the
  reason "Generator.normal() uses or changes random state outside the registry".

Example::

    >>> op, _ = lookup_function(np.random.normal)
    >>> op.name, op.meta(op, (0.0, 1.0), {"size": (2, 3)}).shape
    ('random_normal', (2, 3))
"""

from __future__ import annotations

import operator

import numpy as np

from . import rules
from .meta import ArrayMeta
from .registry import CREATION, MUTATION, OpDef, register
from .rules import MetaError

_PRIVATE = np.random.RandomState(0)  # for dtypes and argument checks, never the global one

# name -> parameter names before ``size`` (the signature NumPy documents)
_DISTRIBUTIONS = {
    "uniform": ("low", "high"), "normal": ("loc", "scale"), "exponential": ("scale",),
    "gamma": ("shape", "scale"), "standard_gamma": ("shape",), "beta": ("a", "b"),
    "lognormal": ("mean", "sigma"), "laplace": ("loc", "scale"), "logistic": ("loc", "scale"),
    "gumbel": ("loc", "scale"), "chisquare": ("df",), "standard_t": ("df",),
    "rayleigh": ("scale",), "weibull": ("a",), "pareto": ("a",), "power": ("a",),
    "vonmises": ("mu", "kappa"), "wald": ("mean", "scale"), "f": ("dfnum", "dfden"),
    "triangular": ("left", "mode", "right"), "poisson": ("lam",), "binomial": ("n", "p"),
    "negative_binomial": ("n", "p"), "geometric": ("p",), "zipf": ("a",),
    "logseries": ("p",), "hypergeometric": ("ngood", "nbad", "nsample"),
    "noncentral_chisquare": ("df", "nonc"), "noncentral_f": ("dfnum", "dfden", "nonc"),
    "random_sample": (), "random": (), "standard_normal": (), "standard_exponential": (),
    "standard_cauchy": (), "randint": ("low", "high"),
}


def _stand_in(m: ArrayMeta):
    """A 0-d parameter value valid for every distribution, in the parameter's dtype (the
    shapes are checked by the rule; the dtype probe draws an empty ``size``)."""
    return np.full((), 0.5 if m.dtype.kind in "fc" else 1, dtype=m.dtype)


def _sized(name: str, params: dict, size, options: dict | None = None) -> ArrayMeta:
    """Shape from ``size`` (parameters must broadcast to it) or from the parameters;
    ``options`` (``dtype=``) only go to the dtype probe."""
    shapes = [rules.shape_of(v) for v in params.values()]
    if size is None:
        shape = np.broadcast_shapes(*shapes) if shapes else ()
        if shape == ():
            raise MetaError(f"np.random.{name} without size= returns a Python scalar")
    else:
        shape = rules.shape_arg(size)
        if shapes and np.broadcast_shapes(shape, *shapes) != shape:
            raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    value = rules.run_quietly(getattr(_PRIVATE, name), **rules.substitute(params, _stand_in),
                              **(options or {}), size=(0,))
    return ArrayMeta(tuple(shape), value.dtype, rules.array_kind(params), False)


def distribution_rule(op, args, kwargs) -> ArrayMeta:
    name = op.extras["name"]
    params = rules.bound(getattr(_PRIVATE, name), args, kwargs)
    size = rules.static(params.pop("size", None), "size")
    options = {"dtype": rules.static(params.pop("dtype"), "dtype")} if "dtype" in params else {}
    return _sized(name, params, size, options)


def dims_rule(op, args, kwargs) -> ArrayMeta:
    """rand(d0, d1, ...) and randn(...): the dimensions are the arguments."""
    if kwargs:
        raise TypeError(f"{op.extras['name']}() takes no keyword arguments")
    if not args:
        raise MetaError(f"np.random.{op.extras['name']}() returns a Python float")
    return _sized("random_sample", {}, tuple(operator.index(rules.static(d, "a dimension"))
                                               for d in args))


def choice_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bound(_PRIVATE.choice, args, kwargs)
    size = rules.static(params["size"], "size")
    if size is None:
        raise MetaError("np.random.choice without size= returns a scalar")
    a, p = params["a"], params.get("p")
    if isinstance(a, ArrayMeta) and a.ndim != 1:
        raise ValueError("a must be 1-dimensional")
    if isinstance(p, ArrayMeta) or isinstance(a, ArrayMeta) and a.size == 0:
        raise MetaError("np.random.choice with p= an array, or of an empty array")
    n = operator.index(a) if not isinstance(a, ArrayMeta) else a.size
    shape = rules.shape_arg(size)
    dtype = a.dtype if isinstance(a, ArrayMeta) else _PRIVATE.choice(
        max(n, 1), size=(0,), replace=params["replace"], p=p).dtype
    if not params["replace"] and int(np.prod(shape)) > n:
        raise ValueError("Cannot take a larger sample than population when replace is False")
    return ArrayMeta(shape, dtype, rules.array_kind(a), False)


def permutation_rule(op, args, kwargs) -> ArrayMeta:
    (x,) = args
    if isinstance(x, ArrayMeta):
        if x.ndim == 0:
            raise MetaError("permutation of a 0-d array")
        return x.with_(scalar=False)
    n = operator.index(rules.static(x, "x"))
    return ArrayMeta((n,), _PRIVATE.permutation(0).dtype, "numpy", False)


def shuffle_rule(op, args, kwargs) -> ArrayMeta:
    (x,) = args
    if not isinstance(x, ArrayMeta) or x.ndim == 0:
        raise MetaError("shuffle of something other than an array with an axis")
    return x


def shuffle(x):
    np.random.shuffle(x)
    return x


def cupy_shuffle(x):
    import cupy
    cupy.random.shuffle(x)
    return x


def _random_op(name: str, rule, kind=CREATION, impl=None, cupy=None, **extras) -> None:
    fn = getattr(np.random, name)
    register(OpDef(f"random_{name}", impl or fn, rule, kind, cupy=cupy or f"random.{name}",
                   random=True, extras={"name": name, **extras},
                   doc=f"np.random.{name}: draws from the global RandomState"),
             functions=[fn])


for _name in _DISTRIBUTIONS:
    _random_op(_name, distribution_rule)
for _name in ("ranf", "sample"):  # aliases of random_sample with their own objects
    register(OpDef(f"random_{_name}", getattr(np.random, _name), distribution_rule,
                   CREATION, cupy="random.random_sample", random=True,
                   extras={"name": "random_sample"}), functions=[getattr(np.random, _name)])
_random_op("rand", dims_rule)
_random_op("randn", dims_rule)
_random_op("choice", choice_rule)
_random_op("permutation", permutation_rule)
_random_op("shuffle", shuffle_rule, kind=MUTATION, impl=shuffle, cupy=cupy_shuffle,
           returns_none=True)
