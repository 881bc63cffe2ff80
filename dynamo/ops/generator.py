"""Methods of ``np.random.Generator`` and ``np.random.RandomState`` objects as graph ops.

A Generator that comes from outside the compiled function (an argument, an attribute,
a global) is guarded by type and becomes an input of the graph (a placeholder that is
no array: ``OutputGraph.object_input``), the first argument of its method's op::

    def noisy(x, rng):
        return x + rng.normal(0.0, 0.1, size=x.shape)

    # graph: def forward(x, rng):
    #            generator_normal = ops.generator_normal(rng, 0.0, 0.1, size=(3, 4))
    #            add = ops.add(x, generator_normal)

The op calls ``rng.normal(...)`` when the graph runs. Random ops are marked ``random``:
no pass drops, merges or reorders them, so a compiled function draws from the same
Generator the same numbers, in the same order, as the eager function. A RandomState
object (``rs = np.random.RandomState(0)``) works the same way with the legacy rules
of :mod:`dynamo.ops.random`. Shapes and dtypes of draws depend on the object's type
only, so any Generator serves the same entry: a fresh ``default_rng(seed)`` per call
compiles once.

A Generator made inside the compiled function, ``rng = np.random.default_rng(seed)``
with an int (a constant or an int argument) or None, is made by the graph: the op
``random_default_rng`` (:mod:`dynamo.ops.random`) runs when the graph runs, in program
order, and its node's value is the Generator, which the method ops take first as they
take one passed in. When the program keeps it (returns it, stores it, holds it at a
break) the glue reads it from the graph's outputs: the very object the graph drew from.

What breaks instead, and why:

- ``np.random.default_rng`` of a seed sequence, a bit generator or a Generator (made
  eagerly; the code after it is traced with the new Generator as an input);
- methods whose result is no array: ``bytes`` and ``spawn``; a draw without ``size=``
  and with scalar parameters returns a Python float or int (``integers``: a NumPy
  scalar, captured), which the graph draws too (``python_draw`` in ``random.py``) and
  the program gets as that number: a use that needs the number while tracing
  (arithmetic, a branch) breaks there, and so does a draw with a traced parameter;
- ``out=`` (NumPy needs a C-contiguous ``out``, a layout the trace does not know),
  ``multinomial`` and ``multivariate_hypergeometric``, and every attribute that is no
  method (``rng.bit_generator``).

Example::

    >>> hit = lookup_random_method(np.random.default_rng(0), "normal")
    >>> op, adapt = hit
    >>> op.name, op.random
    ('generator_normal', True)
"""

from __future__ import annotations

import operator

import numpy as np

from . import random as legacy
from . import rules
from .meta import ArrayMeta, probe
from .registry import CREATION, MUTATION, OpDef, register, same
from .rules import MetaError

_PRIVATE_GENERATOR = np.random.Generator(np.random.PCG64(0))  # dtypes, never a user's

# Generator methods of the form name(parameters..., size=None[, dtype, method, out]).
GENERATOR_DRAWS = (
    "beta binomial chisquare exponential f gamma geometric gumbel hypergeometric laplace "
    "logistic lognormal logseries negative_binomial noncentral_chisquare noncentral_f "
    "normal pareto poisson power rayleigh standard_cauchy standard_t triangular uniform "
    "vonmises wald weibull zipf random standard_normal standard_exponential "
    "standard_gamma integers").split()

_METHODS: dict[tuple[type, str], tuple[OpDef, object]] = {}


def is_random_object(value) -> bool:
    """A NumPy Generator or RandomState instance (CuPy's are not traced)."""
    return type(value) in (np.random.Generator, np.random.RandomState)


def lookup_random_method(obj, name: str):
    """``(op, adapter)`` for ``obj.<name>(...)``, or None when that method breaks. The op
    is called as ``op(obj, *args, **kwargs)`` after the adapter."""
    return _METHODS.get((type(obj), name))


def method_label(obj, name: str) -> str:
    return f"{type(obj).__name__}.{name}"


def _method_op(cls: type, name: str, rule, kind=CREATION, impl=None, adapter=same,
               **extras) -> None:
    prefix = "generator" if cls is np.random.Generator else "randomstate"
    params = set(rules.signature_of(getattr(cls, name)).parameters) - set(legacy.OPTIONS) - \
        {"self", "size", "out", "x", "axis", "args"}
    raises = {"raises": legacy.RAISES} if params else {}   # values of array parameters
    # the class's own method, called with the object first: the op's argument is
    # always an object of exactly this class (``lookup_random_method`` looks up
    # ``type(obj)``), and a Python wrapper (``getattr(gen, name)(...)``) is one Python
    # call and one attribute lookup more per draw
    op = OpDef(f"{prefix}_{name}", impl or getattr(cls, name), rule, kind, random=True,
               extras={"name": name, "method_of": cls.__name__, **raises, **extras},
               doc=f"{cls.__name__}.{name}: calls the method of the object passed in, "
                   "when the graph runs")
    register(op)
    _METHODS[(cls, name)] = (op, adapter)


def _source(gen):
    """The private object whose methods give dtypes and check arguments."""
    if type(gen) is np.random.Generator:
        return _PRIVATE_GENERATOR
    if type(gen) is np.random.RandomState:
        return legacy._PRIVATE
    raise MetaError(f"{type(gen).__name__} is not a NumPy Generator or RandomState")


# --------------------------------------------------------------------------- rules

def draw_rule(op, args, kwargs) -> ArrayMeta:
    """Every ``rng.<distribution>(params..., size=None)``."""
    gen, *rest = args
    name = op.extras["name"]
    return legacy.draws(_source(gen), method_label(gen, name), rest, kwargs,
                        numpy_scalar=name == "integers")


def choice_rule(op, args, kwargs) -> ArrayMeta:
    gen, *rest = args
    source = _source(gen)
    params = rules.bound(source.choice, rest, kwargs)
    return legacy.choice_meta(source, method_label(gen, "choice"), params,
                              legacy=source is legacy._PRIVATE)


def permutation_rule(op, args, kwargs) -> ArrayMeta:
    """``rng.permutation(n)``: ``arange(n)`` shuffled; of an array: a shuffled copy."""
    gen, *rest = args
    source = _source(gen)
    params = rules.bound(source.permutation, rest, kwargs)
    x = params["x"]
    if isinstance(x, ArrayMeta):
        if x.ndim == 0:
            raise MetaError("permutation of a 0-d array")
        rules.axis_index(rules.static(params.get("axis", 0), "axis"), x.ndim)
        return x.with_(scalar=False)
    if np.ndim(rules.static(x, "x")):
        value = np.asarray(x)
        rules.axis_index(rules.static(params.get("axis", 0), "axis"), value.ndim)
        return ArrayMeta(value.shape, value.dtype, "numpy", False)
    n = operator.index(x)
    return ArrayMeta((max(n, 0),), source.permutation(0).dtype, "numpy", False)


def permuted_rule(op, args, kwargs) -> ArrayMeta:
    """``rng.permuted(x, axis=None)``: a shuffled copy of the same shape and dtype."""
    gen, *rest = args
    params = rules.bound(_PRIVATE_GENERATOR.permuted, rest, kwargs)
    x = rules.first_array(params, "x")
    if params.get("out") is not None:
        raise MetaError("Generator.permuted(out=) writes into out")
    axis = rules.static(params.get("axis"), "axis")
    value = rules.run_quietly(_PRIVATE_GENERATOR.permuted, probe(x, keep_ndim=True), axis=axis)
    return ArrayMeta(x.shape, value.dtype, x.kind, False)


def shuffle_rule(op, args, kwargs) -> ArrayMeta:
    """``rng.shuffle(x, axis=0)``: in place (``x`` comes first in the op); returns None."""
    x, gen, *rest = args
    source = _source(gen)
    if not isinstance(x, ArrayMeta) or x.scalar or x.ndim == 0:
        raise MetaError("shuffle of something other than an array with an axis")
    if rest or kwargs:
        params = rules.bound(source.shuffle, (None, *rest), kwargs)
        rules.axis_index(rules.static(params.get("axis", 0), "axis"), x.ndim)
    return x


def _vector_rule(param: str, square: str | None = None):
    """dirichlet(alpha) and multivariate_normal(mean, cov): ``size + (len(alpha),)``;
    the dtype comes from a draw of ``size=(0,)`` with one-element parameters."""
    def rule(op, args, kwargs) -> ArrayMeta:
        gen, *rest = args
        name = op.extras["name"]
        source = _source(gen)
        params = rules.bound(getattr(source, name), rest, kwargs)
        size = rules.static(params.pop("size"), "size")
        rules.static({k: v for k, v in params.items() if k not in (param, square)},
                     f"{name}'s options")
        vec = rules.shape_of(params[param])
        if len(vec) != 1:
            raise ValueError(f"{param} must be 1 dimensional")
        if vec[0] == 0:
            raise MetaError(f"{method_label(gen, name)} of an empty {param}")
        if square is not None and rules.shape_of(params[square]) != vec * 2:
            raise ValueError(f"{param} and {square} must have same length")
        tiny = dict(params)
        tiny[param] = np.ones(1, _dtype_of(params[param]))
        if square is not None:
            tiny[square] = np.eye(1, dtype=_dtype_of(params[square]))
        value = rules.run_quietly(getattr(source, name), size=(0,), **tiny)
        shape = (() if size is None else rules.shape_arg(size)) + vec
        return ArrayMeta(shape, value.dtype, rules.array_kind(params), False)
    return rule


def _dtype_of(value) -> np.dtype:
    return value.dtype if isinstance(value, ArrayMeta) else np.asarray(value).dtype


def _shuffle_first(args, kwargs):
    """``rng.shuffle(x)`` -> ``generator_shuffle(x, rng)``: the written array first, as
    every in-place op has it (so its aliases see the write)."""
    if len(args) < 2:
        raise TypeError("shuffle() missing required argument 'x'")
    gen, x, *rest = args
    return (x, gen, *rest), kwargs


def _shuffle_impl(x, gen, *args, **kwargs):
    gen.shuffle(x, *args, **kwargs)
    return x


def _register_all() -> None:
    gen, rs = np.random.Generator, np.random.RandomState
    for name in GENERATOR_DRAWS:
        _method_op(gen, name, draw_rule)
    _method_op(gen, "choice", choice_rule)
    _method_op(gen, "permutation", permutation_rule)
    _method_op(gen, "permuted", permuted_rule)
    _method_op(gen, "dirichlet", _vector_rule("alpha"))
    _method_op(gen, "multivariate_normal", _vector_rule("mean", "cov"))
    _method_op(gen, "shuffle", shuffle_rule, MUTATION, impl=_shuffle_impl,
              adapter=_shuffle_first, returns_none=True)

    def on_object(rule):  # the legacy rules, with the RandomState as first argument
        def meta(op, args, kwargs):
            obj, *rest = args
            _source(obj)
            return rule(op, tuple(rest), kwargs)
        return meta

    for name in legacy._DISTRIBUTIONS:
        if hasattr(rs, name):
            _method_op(rs, name, on_object(legacy.distribution_rule))
    for name in ("rand", "randn"):
        _method_op(rs, name, on_object(legacy.dims_rule))
    _method_op(rs, "choice", choice_rule)
    _method_op(rs, "permutation", permutation_rule)
    _method_op(rs, "shuffle", shuffle_rule, MUTATION, impl=_shuffle_impl,
              adapter=_shuffle_first, returns_none=True)


_register_all()
