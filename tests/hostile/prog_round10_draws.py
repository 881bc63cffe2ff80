"""Round 10, random draws in tier 2 (``backends/native/draws.py``, ``tier.py``'s saved
generator states): the generator's state after a call whose draw raised (a negative
scale, a bad size) or whose kernel was undone and rerun by tier 1 (a NaN or infinity
eager reports, a draw with NaN parameters), one generator passed twice or shared with
the caller between calls, two Generators over one bit generator, the legacy global
state (``np.random.seed`` between calls, a cached Gaussian left by an odd ``randn``),
draws in a loop, ``integers`` with 32-bit buffering, Generators made in the graph, and
draws next to writes of an input. Each program runs compiled with ``backend="native"``
and tier 2 forced from the second call (``after_calls=1, background=False,
prefer="native"``); each generator's state is recorded after every call."""

import copy

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round10_draws")
NATIVE = {"after_calls": 1, "background": False, "prefer": "native"}
X = np.array([1.0, -2.0, 0.5, 4.0, -0.0])
XN = np.array([1.0, np.nan, 0.5, 4.0, 3.0])
XI = np.array([1.0, np.inf, 0.5, -4.0, 3.0])


def _state(g):
    if isinstance(g, np.random.Generator):
        return g.bit_generator.state
    if isinstance(g, np.random.RandomState):
        return g.get_state(legacy=False)
    return g


def native(fn, make, calls=4, name=None, global_seed=None, between=None):
    """``fn(*make())`` compiled for the native tier, ``calls`` times; every Generator
    among the arguments is recorded after each call (and NumPy's global state)."""
    def s(r):
        f = dynamo.compile(fn, backend="native", options=NATIVE) if r.compiled else fn
        if global_seed is not None:
            np.random.seed(global_seed)
        args = make()
        for k in range(calls):
            if between is not None and k:
                between(k, args)
            call_args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
            r.call(f, *call_args)
            r.see("states", [_state(a) for a in args
                             if isinstance(a, (np.random.Generator, np.random.RandomState))])
            if global_seed is not None:
                r.see("global", str(np.random.get_state(legacy=False)))
    s.__name__ = name or fn.__name__.removeprefix("_")
    reg.scenario(s)


def _rng(seed=1):
    return np.random.default_rng(seed)


# ============================================================ plain draws

def _normal_plus(x, g):
    return x + g.normal(0.0, 1.0, size=x.shape)


native(_normal_plus, lambda: (X, _rng()))
native(_normal_plus, lambda: (XN, _rng()), name="normal_plus_nan_input")
native(_normal_plus, lambda: (XI, _rng()), name="normal_plus_inf_input")


def _draw_with_parameters(x, g):
    return g.normal(x, np.abs(x) + 1.0) * 2.0


native(_draw_with_parameters, lambda: (X, _rng()))
native(_draw_with_parameters, lambda: (XN, _rng()), name="draw_nan_parameters")


def _negative_scale(x, g):
    return g.normal(0.0, x) + x


native(_negative_scale, lambda: (np.abs(X) + 1, _rng()), name="scale_positive")
native(_negative_scale, lambda: (X, _rng()), name="scale_negative_raises")


def _first_ok_then_raises(x, g):
    a = g.random(x.shape)
    b = g.normal(0.0, x)
    return a + b


native(_first_ok_then_raises, lambda: (X, _rng()))
native(_first_ok_then_raises, lambda: (np.abs(X) + 0.1, _rng()), name="first_ok_then_ok")


def _draw_then_raise(x, g):
    d = g.standard_normal(x.shape)
    return np.linalg.cholesky(np.outer(d, d) - np.eye(x.size) * x.sum())


native(_draw_then_raise, lambda: (X, _rng()))


def _draw_then_overflow(x, g):
    d = g.random(x.shape)
    return np.exp(x * 400.0) * d


native(_draw_then_overflow, lambda: (X, _rng()))


def _draw_under_errstate(x, g):
    d = g.random(x.shape)
    with np.errstate(over="raise"):
        return np.exp(x * 400.0) * d


native(_draw_under_errstate, lambda: (X, _rng()))
native(_draw_under_errstate, lambda: (X * 0.001, _rng()), name="draw_under_errstate_quiet")


def _draws_in_loop(x, g, n):
    walk = x.copy()
    for _ in range(n):
        walk = walk + g.normal(0.0, 0.1, size=x.shape)
    return walk


native(_draws_in_loop, lambda: (X, _rng(), 5))
native(_draws_in_loop, lambda: (XN, _rng(), 3), name="draws_in_loop_nan")


def _integers_buffered(x, g):
    a = g.integers(0, 2 ** 31, size=x.shape, dtype=np.int32)
    b = g.integers(0, 10, size=3, dtype=np.int8)
    return x + a, b


native(_integers_buffered, lambda: (X, _rng()))
native(_integers_buffered, lambda: (np.ones(3), _rng()), name="integers_odd_count")


def _many_methods(x, g):
    return (x + g.uniform(-1, 1, x.shape) + g.exponential(2.0, x.shape)
            + g.standard_normal(x.shape, dtype=np.float32) + g.gamma(2.0, 1.0, x.shape))


native(_many_methods, lambda: (X, _rng()))


def _float32_draw(x, g):
    return g.random(x.shape, dtype=np.float32) * x.astype(np.float32)


native(_float32_draw, lambda: (X, _rng()))


# ============================================================ shared generators

def _same_generator_twice(x, g, h):
    return g.random(x.shape) - h.random(x.shape) + x


native(_same_generator_twice, lambda: (lambda g: (X, g, g))(_rng(3)))


def _one_bit_generator(x, g, h):
    return g.random(x.shape) * 2 + h.standard_normal(x.shape) + x


native(_one_bit_generator, lambda: (lambda g: (X, g, np.random.Generator(g.bit_generator)))(
    _rng(4)))
native(_one_bit_generator, lambda: (lambda g: (XN, g, np.random.Generator(g.bit_generator)))(
    _rng(4)), name="one_bit_generator_nan")


def _caller_draws_between(k, args):
    args[1].random(k)


native(_normal_plus, lambda: (X, _rng(5)), name="caller_draws_between",
       between=_caller_draws_between)


def _reseed_between(k, args):
    args[1].bit_generator.state = np.random.default_rng(k % 2).bit_generator.state


native(_normal_plus, lambda: (X, _rng(5)), name="state_set_between", between=_reseed_between)


class Holder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)


def _from_attribute(x, o):
    return x * o.rng.random(x.shape)


@reg.scenario
def s_generator_attribute_replaced(r):
    f = dynamo.compile(_from_attribute, backend="native", options=NATIVE) if r.compiled \
        else _from_attribute
    o = Holder(7)
    for k in range(5):
        if k == 3:
            o.rng = np.random.default_rng(8)
        r.call(f, X.copy(), o)
        r.see("state", o.rng.bit_generator.state)


def _global_generator(x):
    return x + GEN.normal(size=x.shape)


GEN = np.random.default_rng(9)


@reg.scenario
def s_global_generator_rebound(r):
    f = dynamo.compile(_global_generator, backend="native", options=NATIVE) if r.compiled \
        else _global_generator
    r.patch(globals(), "GEN", np.random.default_rng(9))
    for k in range(5):
        if k == 3:
            r.patch(globals(), "GEN", np.random.default_rng(10))
        r.call(f, X.copy())
        r.see("state", GEN.bit_generator.state)


# ============================================================ legacy global state

def _legacy_rand(x):
    return x + np.random.rand(*x.shape)


native(_legacy_rand, lambda: (X,), global_seed=0)
native(_legacy_rand, lambda: (XN,), global_seed=0, name="legacy_rand_nan")


def _legacy_randn_odd(x):
    return x + np.random.randn(3).sum() + np.random.standard_normal(x.shape)


native(_legacy_randn_odd, lambda: (X,), global_seed=1)
native(_legacy_randn_odd, lambda: (XI,), global_seed=1, name="legacy_randn_odd_inf")


def _seed_between(k, args):
    np.random.seed(k // 2)


native(_legacy_rand, lambda: (X,), global_seed=0, name="legacy_seeded_between",
       between=_seed_between)


def _legacy_and_generator(x, g):
    return x + np.random.random(x.shape) - g.random(x.shape)


native(_legacy_and_generator, lambda: (X, _rng(2)), global_seed=3)
native(_legacy_and_generator, lambda: (XN, _rng(2)), global_seed=3,
       name="legacy_and_generator_nan")


def _random_state_input(x, rs):
    return x + rs.random_sample(x.shape)


native(_random_state_input, lambda: (X, np.random.RandomState(4)))


# ============================================================ generators made in the graph

def _made_here(x, seed):
    g = np.random.default_rng(seed)
    return x + g.random(x.shape), g.random()


native(_made_here, lambda: (X, 11))
native(_made_here, lambda: (XN, 11), name="made_here_nan")


def _made_here_returned(x, seed):
    g = np.random.default_rng(seed)
    return x * g.random(x.shape), g


native(_made_here_returned, lambda: (X, 12))


# ============================================================ draws next to writes

def _draw_and_write(x, g):
    x[:2] = g.random(2)
    return x * 2 + g.random(x.shape)


native(_draw_and_write, lambda: (X, _rng(13)))
native(_draw_and_write, lambda: (XN, _rng(13)), name="draw_and_write_nan")


def _draw_into_out(x, g):
    g.random(out=x)
    return x + 1


native(_draw_into_out, lambda: (X, _rng(14)))


def _shuffle_then(x, g):
    g.shuffle(x)
    return x + g.random(x.shape)


native(_shuffle_then, lambda: (X, _rng(15)))


def _choice_and_permutation(x, g):
    return g.permutation(x.size) + x, g.choice(x, size=3)


native(_choice_and_permutation, lambda: (X, _rng(16)))


def _draw_size_from_data(x, g):
    return g.random(int(np.count_nonzero(x > 0)))


native(_draw_size_from_data, lambda: (X, _rng(17)))


def _draw_copies_generator(x, g):
    h = copy.deepcopy(g)
    return x + g.random(x.shape) - h.random(x.shape)


native(_draw_copies_generator, lambda: (X, _rng(18)))
