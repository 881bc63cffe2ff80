"""Dtype questions about traced arrays (np.result_type, promote_types, can_cast,
common_type, iscomplexobj, isrealobj, min_scalar_type) fold to constants computed from
the metas, exactly as NumPy answers them for the real arrays (NEP 50: Python scalars
weak, NumPy scalars and 0-d arrays strong); what NumPy rejects runs eagerly."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, arrays, to_meta

import dynamo
from dynamo import ops

OPERANDS = st.one_of(arrays(DTYPES, max_dims=2, max_side=2),
                     arrays(DTYPES, shape=st.just(())).map(lambda a: a[()]),
                     st.sampled_from([1, 2.5, True, 1j, 300, np.float32, "f2", np.dtype("u1")]))


def folds_like_numpy(fn, *args):
    try:
        expected = fn(*args)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            ops.fold_dtype_query(fn, to_meta(args), {})
        return
    assert ops.fold_dtype_query(fn, to_meta(args), {}) == expected


@given(args=st.lists(OPERANDS, min_size=1, max_size=3))
@settings(max_examples=200, deadline=None)
def test_dtype_queries_agree(args):
    folds_like_numpy(np.result_type, *args)
    folds_like_numpy(np.promote_types, *(args * 2)[:2])
    folds_like_numpy(np.can_cast, args[0], np.float32)
    folds_like_numpy(np.common_type, *args)
    folds_like_numpy(np.iscomplexobj, args[0])
    folds_like_numpy(np.isrealobj, args[0])
    if not (isinstance(args[0], (np.ndarray, np.generic)) and np.ndim(args[0]) == 0):
        folds_like_numpy(np.min_scalar_type, args[0])


def convolve2d(img, kernel):
    out = np.zeros(img.shape, dtype=np.result_type(img, kernel))
    cast = np.promote_types(img.dtype, np.float16)
    return out + img * kernel.sum(), np.can_cast(img, np.float64), cast, \
        np.iscomplexobj(img), np.common_type(img, kernel), np.result_type(img, 1.0)


@pytest.mark.parametrize("img,kernel", [
    (rand(4, 5), rand(3, 3, dtype=np.float64)),
    (rand(4, 5, dtype=np.int8), rand(2, 2, dtype=np.float32)),
])
def test_folded_in_compiled_code(img, kernel):
    check(convolve2d, img, kernel, graphs=1, breaks=0)


def test_value_dependent_and_rejected_calls_run_eagerly():
    def f(x):
        return np.min_scalar_type(x.sum()), x

    check(f, rand(3), breaks=1)

    def g(x):
        return np.promote_types(x, np.float32)   # TypeError in NumPy: runs eagerly

    check(g, rand(3), breaks=1)
    report = dynamo.explain(g, backend="eager")(rand(3))
    assert "np.promote_types" in report.break_reasons[0].reason
