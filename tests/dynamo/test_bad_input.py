"""Bad input gets a clear error when it is given, and names what is allowed."""

import numpy as np
import pytest

import dynamo
from dynamo.config import config


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.79788456 * (x + 0.044715 * x ** 3)))


@pytest.mark.parametrize("name, value, error, words", [
    ("cache_size_limit", "8", TypeError, "must be an int, got str '8'"),
    ("cache_size_limit", -1, ValueError, "must be >= 0, got -1"),
    ("cache_size_limit", True, TypeError, "must be an int, got bool"),
    ("max_unroll", "x", TypeError, "max_unroll must be an int"),
    ("max_graph_nodes", 0, ValueError, ">= 1"),
    ("verbose", 1, TypeError, "True or False"),
    ("cache_size_limt", 16, AttributeError, "did you mean 'cache_size_limit'"),
])
def test_config_rejects_bad_settings_at_assignment(name, value, error, words):
    before = config.describe()
    with pytest.raises(error, match=words):
        setattr(config, name, value)
    assert config.describe() == before            # nothing was changed


def test_config_takes_good_settings(monkeypatch):
    monkeypatch.setattr(config, "cache_size_limit", 3)
    assert config.cache_size_limit == 3


@pytest.mark.parametrize("options, words", [
    ({"skip_passes": ["nope"]}, r"unknown pass\(es\) \['nope'\]"),
    ({"thread": 2}, r"unknown option\(s\).*'thread'"),
    ({"threads": 0}, "'threads'.*>= 1"),
    ({"recycle_outputs": 1}, "True or False"),
])
def test_numpy_backend_options_are_checked_by_compile(options, words):
    with pytest.raises(ValueError, match=words):
        dynamo.compile(gelu, backend="numpy", options=options)


def test_one_pass_name_is_a_name_not_its_letters():
    x = np.linspace(-2, 2, 11)
    fn = dynamo.compile(gelu, backend="numpy", options={"skip_passes": "dce"})
    np.testing.assert_array_equal(fn(x), gelu(x))


@pytest.mark.parametrize("make, words", [
    (lambda g, ex: None, "returned NoneType None, not a callable"),
    (lambda g, ex: 3, "returned int 3, not a callable"),
    (lambda g, ex: (lambda *a: None), "returned NoneType None; it must return a tuple of 1"),
    (lambda g, ex: (lambda *a: ()), "returned 0 values; it must return a tuple of 1"),
    (lambda g, ex: (lambda *a: (a[0], a[0], a[0])), "returned 3 values"),
])
def test_a_backend_that_breaks_its_contract_gets_a_clear_error(make, words):
    def broken(graph, example_inputs):
        return make(graph, example_inputs)
    with pytest.raises(dynamo.BackendError, match=rf"backend 'broken'.*{words}"):
        dynamo.compile(gelu, backend=broken)(np.ones(3))


def test_a_backend_returning_a_list_of_the_right_length_works():
    from dynamo.backends import lookup_backend
    eager = lookup_backend("eager")

    def as_list(graph, example_inputs):
        fn = eager(graph, example_inputs)
        return lambda *a: list(fn(*a))
    x = np.linspace(-1, 1, 5)
    np.testing.assert_array_equal(dynamo.compile(gelu, backend=as_list)(x), gelu(x))


@pytest.mark.parametrize("keyword,words", [
    ("fulgraph", ["'fulgraph'", "did you mean 'fullgraph'?", "backend, fullgraph"]),
    ("threads", ["'threads'", "options={...}"]),
])
def test_a_keyword_compile_does_not_take_names_the_ones_it_does(keyword, words):
    for call in (lambda: dynamo.compile(np.tanh, **{keyword: 1}),
                 lambda: dynamo.compile(**{keyword: 1})):     # as a decorator too
        with pytest.raises(TypeError) as info:
            call()
        assert all(w in str(info.value) for w in words), str(info.value)
