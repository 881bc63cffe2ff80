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
- ``np.random.seed`` of anything but an int or None, ``get_state``, ``set_state``,
  and every function not listed here: they run eagerly, at their place in the
  program. (``np.random.seed(n)`` itself is the op ``random_seed``, and
  ``np.random.default_rng(n)`` the op ``random_default_rng``, whose value is the new
  Generator: :mod:`dynamo.ops.generator`.)

Methods of ``Generator`` and ``RandomState`` objects (``rng.normal(...)``) are ops of
:mod:`dynamo.ops.generator`, built from the tools here (``draws``, ``choice_meta``).

Example::

    >>> op, _ = lookup_function(np.random.normal)
    >>> op.name, op.meta(op, (0.0, 1.0), {"size": (2, 3)}).shape
    ('random_normal', (2, 3))
"""

from __future__ import annotations

import math
import operator

import numpy as np

from . import rules
from .meta import ArrayMeta
from .registry import CREATION, MUTATION, OPAQUE, REGISTRY, OpDef, no_array, register
from .rules import MetaError

_PRIVATE = np.random.RandomState(0)  # for dtypes and argument checks, never the global one


class PythonNumberDraw(MetaError):
    """A draw that returns a Python number, not an array: ``rng.random()``,
    ``np.random.randint(n)``, ``rng.choice(n, p=p)`` (no ``size=``, scalar parameters).
    ``number`` is that type, ``int`` or ``float``, the very type eager gets.

    The translator draws it in the graph all the same (``python_draw``: the method's own
    call, its result as a 0-d array), and hands the program the number as the glue's
    ``int()``/``float()`` of it: used only as an array index or returned, it needs no
    break; arithmetic or a branch on it breaks there, with this reason."""

    def __init__(self, text: str, number: type):
        super().__init__(text)
        self.number = number


def _scalar_draw_error(source, name: str, params: dict, options: dict | None,
                       text: str) -> MetaError:
    """The error of a draw without ``size=`` that returns a scalar: ``PythonNumberDraw``
    when that scalar is a Python int or float, told by making the same call, with the
    same constant parameters, on a private source of the same kind (the type depends on
    the method, its parameters' types and ``dtype=``, never on the drawn value); a plain
    ``MetaError`` for a traced parameter (its value is unknown here) or any other type
    (``randint(5, dtype=np.int32)`` gives a NumPy scalar)."""
    if any(isinstance(v, ArrayMeta) for v in params.values()):
        return MetaError(text)
    try:
        one = rules.run_quietly(getattr(source, name), **params, **(options or {}))
    except Exception:  # noqa: BLE001 (NumPy rejects them: the call runs eagerly)
        return MetaError(text)
    if type(one) in (int, float):
        return PythonNumberDraw(text, type(one))
    return MetaError(text)

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


def stand_in(value):
    """A parameter for the dtype probe, which draws ``size=(0,)``: an array (traced,
    or a constant sequence) becomes an empty 1-d array of its dtype (it broadcasts with
    the empty size and has no values to reject: value errors of arrays happen when the
    graph runs, as eagerly); a Python or NumPy scalar stays itself, so NumPy checks it
    while tracing (``scale=-1`` raises, and the call runs eagerly to raise it)."""
    if isinstance(value, ArrayMeta):
        return np.zeros((0,), value.dtype)
    if value is None or isinstance(value, (str, bytes)) or np.ndim(value) == 0:
        return value
    return np.zeros((0,), np.asarray(value).dtype)


def sized(source, label: str, params: dict, size, options: dict | None = None,
          numpy_scalar: bool = False) -> ArrayMeta:
    """The draw of ``source.<name>``: its shape is ``size`` (every parameter must
    broadcast to it) or, without ``size``, the parameters' broadcast shape. Without
    ``size`` and with scalar parameters NumPy returns a Python number (a break), or a
    NumPy scalar when ``numpy_scalar`` (``Generator.integers``). ``options``
    (``dtype=``, ``method=``, ``endpoint=``) only go to the dtype probe."""
    shapes = [rules.shape_of(v) for v in params.values()]
    scalar, shape = False, ()
    if size is None:
        shape = np.broadcast_shapes(*shapes) if shapes else ()
        if shape == ():
            if not numpy_scalar:
                raise _scalar_draw_error(source, label.rsplit(".", 1)[-1], params, options,
                                         f"{label} without size= returns a Python scalar")
            scalar = True
    name = label.rsplit(".", 1)[-1]
    bounds = name in ("integers", "randint")  # their own checks: see below
    if size is not None:
        shape = rules.shape_arg(size)
        # integers/randint return size's shape when the bounds broadcast with it (and
        # check nothing at all for an empty size); other draws need the parameters to
        # broadcast to size
        if shapes and not (bounds and math.prod(shape) == 0):
            common = np.broadcast_shapes(shape, *shapes)
            if common != shape and not bounds:
                raise ValueError("shape mismatch: objects cannot be broadcast to a single "
                                 "shape")
    # The probe draws nothing: size (0,), with arrays as empty stand-ins. integers and
    # randint skip their checks of constant bounds for an empty size, so they draw one.
    empty = not bounds or (size is not None and math.prod(shape) == 0)
    value = rules.run_quietly(getattr(source, name),
                              **{k: stand_in(v) for k, v in params.items()},
                              **(options or {}), size=(0,) if empty else (1,))
    if scalar:   # integers(...) without size: a NumPy scalar, or (dtype=bool) a Python bool
        one = rules.run_quietly(getattr(source, name), 0, 1, **(options or {}))
        if not isinstance(one, np.generic):
            raise MetaError(f"{label} without size= returns a Python "
                            f"{type(one).__name__} here")
    return ArrayMeta(tuple(shape), value.dtype, rules.array_kind(params), scalar)


OPTIONS = ("dtype", "method", "endpoint")  # keywords that are not distribution parameters


def draws(source, label: str, args, kwargs, numpy_scalar: bool = False) -> ArrayMeta:
    """The rule of every ``name(params..., size=None, [dtype, method, out])`` method."""
    name = label.rsplit(".", 1)[-1]
    params = rules.bound(getattr(source, name), args, kwargs)
    size = rules.static(params.pop("size", None), "size")
    if params.pop("out", None) is not None:
        raise MetaError(f"{label}(out=): NumPy needs a C-contiguous out, a memory layout "
                        "the trace does not know")
    options = {k: rules.static(params.pop(k), k) for k in OPTIONS if k in params}
    return sized(source, label, params, size, options, numpy_scalar)


def distribution_rule(op, args, kwargs) -> ArrayMeta:
    return draws(_PRIVATE, f"np.random.{op.extras['name']}", args, kwargs)


def dims_rule(op, args, kwargs) -> ArrayMeta:
    """rand(d0, d1, ...) and randn(...): the dimensions are the arguments."""
    if kwargs:
        raise TypeError(f"{op.extras['name']}() takes no keyword arguments")
    if not args:
        raise PythonNumberDraw(f"np.random.{op.extras['name']}() returns a Python float",
                               float)
    return sized(_PRIVATE, "np.random.random_sample", {},
                 tuple(operator.index(rules.static(d, "a dimension")) for d in args))


def choice_meta(source, label: str, params: dict, legacy: bool) -> ArrayMeta:
    """``choice(a, size, replace, p[, axis])`` of a RandomState (``legacy``: ``a`` is an
    int or 1-d) or a Generator (``a`` may have any ndim; ``axis`` picks the samples).

    The result is ``size`` indices (an int population) or ``a`` with the axis replaced
    by ``size``; without ``size`` one element (a NumPy scalar) or one slice. The checks
    NumPy makes from shapes are made here; those it makes from values of a traced ``p``
    (probabilities that do not sum to 1) happen when the graph runs, as eagerly.
    """
    a, p, replace = params["a"], params.get("p"), rules.static(params["replace"], "replace")
    size, axis = rules.static(params["size"], "size"), rules.static(params.get("axis", 0), "axis")
    shape = None if size is None else rules.shape_arg(size)
    count = None if shape is None else math.prod(shape)  # None: one sample, never 0
    if isinstance(a, ArrayMeta):
        if a.ndim == 0:
            raise MetaError(f"{label} of a 0-d array: the population is the array's value")
        kind, dtype, population = a.kind, a.dtype, a.shape
    else:
        value = np.asarray(rules.static(a, "a"))
        kind, dtype, population = "numpy", value.dtype, value.shape
        if value.ndim == 0:
            n = operator.index(value.item())
            if n <= 0 and count != 0:
                raise ValueError(f"{label}: a must be a positive integer unless no samples "
                                 "are taken")
            dtype, population = source.choice(1, size=(0,)).dtype, None
    if population is not None:
        if legacy and len(population) != 1:
            raise ValueError("a must be 1-dimensional")
        ax = rules.axis_index(axis, len(population))
        n = population[ax]
        if n == 0 and count != 0:
            raise ValueError(f"{label}: a cannot be empty unless no samples are taken")
    if p is not None:
        p_shape = rules.shape_of(p)
        if len(p_shape) != 1 or p_shape[0] != n:
            raise ValueError("p must be 1-dimensional, of the population's size")
        if not isinstance(p, ArrayMeta):  # constant probabilities: NumPy checks them now
            rules.run_quietly(source.choice, max(n, 1), size=(0,), p=p)
            if not replace and count is not None and np.count_nonzero(np.asarray(p) > 0) < count:
                raise ValueError("Fewer non-zero entries in p than size")
    if not replace and (1 if count is None else count) > n:
        raise ValueError("Cannot take a larger sample than population when replace is False")
    if population is None:
        if shape is None:
            # an int population without size: a Python int, whatever p holds
            raise PythonNumberDraw(f"{label}(n) without size= returns a Python int", int)
        return ArrayMeta(shape, dtype, kind, False)
    if shape is None:
        if len(population) == 1:  # one element: a NumPy scalar (a 0-d array on CuPy)
            return ArrayMeta((), dtype, kind, kind == "numpy")
        shape = ()
    out = population[:ax] + shape + population[ax + 1:]
    return ArrayMeta(tuple(out), dtype, kind, False)


def choice_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bound(_PRIVATE.choice, args, kwargs)
    return choice_meta(_PRIVATE, "np.random.choice", params, legacy=True)


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


RAISES = "raises ValueError for invalid parameter values in arrays (scale < 0...)"


def _random_op(name: str, rule, kind=CREATION, impl=None, cupy=None, **extras) -> None:
    fn = getattr(np.random, name)
    register(OpDef(f"random_{name}", impl or fn, rule, kind, cupy=cupy or f"random.{name}",
                   random=True, extras={"name": name, **extras,
                                        **({"raises": RAISES} if _DISTRIBUTIONS.get(name)
                                           or name == "choice" else {})},
                   doc=f"np.random.{name}: draws from the global RandomState"),
             functions=[fn])


for _name in _DISTRIBUTIONS:
    _random_op(_name, distribution_rule)
for _name in ("ranf", "sample"):  # aliases of random_sample with their own objects
    register(OpDef(f"random_{_name}", getattr(np.random, _name), distribution_rule,
                   CREATION, cupy="random.random_sample", random=True,
                   extras={"name": "random_sample"}),
             functions=[getattr(np.random, _name)])
_random_op("rand", dims_rule)
_random_op("randn", dims_rule)
_random_op("choice", choice_rule)
_random_op("permutation", permutation_rule)
_random_op("shuffle", shuffle_rule, kind=MUTATION, impl=shuffle, cupy=cupy_shuffle,
           returns_none=True)


def python_draw(name: str, *args, **kwargs) -> np.ndarray:
    """The draw of the random op ``name`` that returns a Python number, made as the
    program makes it (the same method, the same arguments, so the same stream), as a
    0-d array: int64 for an int, float64 for a float, both exact.

        >>> python_draw("random_randint", 10)      # np.random.randint(10)
        array(5)
    """
    return np.asarray(REGISTRY[name].impl(*args, **kwargs))


def python_draw_rule(op, args, kwargs) -> ArrayMeta:
    """A 0-d int64 or float64 array, when the op ``args[0]``'s own rule says its draw is
    a Python number (``PythonNumberDraw``); the op's other errors are this op's."""
    inner = REGISTRY[args[0]]
    try:
        inner.meta(inner, args[1:], kwargs)
    except PythonNumberDraw as e:
        return ArrayMeta((), np.dtype(np.int64 if e.number is int else np.float64), "numpy")
    raise MetaError(f"np.{inner.name}: its draw is no Python number")


register(OpDef("python_draw", python_draw, python_draw_rule, OPAQUE, cupy=None, random=True,
               doc="a random draw that returns a Python int or float, as a 0-d array"))


# np.random.seed(n): reseeds the global RandomState, in program order among the draws
# (random: no pass moves it). No array result, so the translator adds it itself
# (``OutputGraph.effect_op``), for an int or None seed.
# A seed's value may raise (ValueError for a negative one, or one past 2**32 - 1 for
# the legacy RandomState): the three ops below are marked "raises", so a graph holding
# one replays the Python effects traced before it when it raises (raising.on_raise).
SEED_RAISES = "raises ValueError for a negative seed (past 2**32 - 1: RandomState's)"
register(OpDef("random_seed", np.random.seed, no_array, OPAQUE, cupy="random.seed",
               random=True, extras={"name": "seed", "raises": SEED_RAISES},
               doc="np.random.seed: reseeds the global RandomState"))

# np.random.default_rng(seed): a new Generator, made when the graph runs at its place in
# the program (random: kept in order, never merged with another one of the same seed).
# Its node's value is the Generator object, which the Generator methods' ops take first
# and the glue reads when the program keeps it (``RandomObjectVariable.node``). The
# translator adds it itself, for an int or None seed.
register(OpDef("random_default_rng", np.random.default_rng, no_array, OPAQUE, cupy=None,
               random=True, extras={"name": "default_rng", "raises": SEED_RAISES},
               doc="np.random.default_rng: a new Generator, an object of the graph"))
# np.random.RandomState(seed): the same for a legacy RandomState object.
register(OpDef("random_randomstate", np.random.RandomState, no_array, OPAQUE, cupy=None,
               random=True, extras={"name": "RandomState", "raises": SEED_RAISES},
               doc="np.random.RandomState: a new RandomState, an object of the graph"))
