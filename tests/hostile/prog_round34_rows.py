"""Round 34, lists appended once per trip of a loop over a count only the data knows and
then stacked (``variables/trip_rows.py``, ``translator/per_trip_lists.py``): 0, 1 and
many trips, counts changing between calls, items whose dtype or shape changes across
trips or calls, the list also read (``len``, an item, iterated, returned beside the
stack), aliased before or after the loop, stored on an object or a global, an
exception mid-loop, the same array appended twice, an item written after its append or
carried to the next trip, ``continue``/``break`` skipping appends, comprehensions,
``np.stack(rows, axis=1)``, ``np.array(rows, dtype=...)``, items that warn.

    >>> def _sums(X, y):
    ...     rows = []
    ...     for c in np.unique(y):
    ...         rows.append(X[y == c].sum(axis=0))
    ...     return np.array(rows)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round34_rows")

RNG = np.random.default_rng(34)
X = RNG.normal(size=(12, 3))
# 3 classes, 0 samples, 1 class, float32, int64, 5 classes, another width, NaN rows
INPUTS = [
    (X, np.arange(12) % 3),
    (X[:0], np.zeros(0, np.int64)),
    (X, np.zeros(12, np.int64)),
    (X.astype(np.float32), np.arange(12) % 5),
    (np.arange(36).reshape(12, 3), np.arange(12) % 2),
    (X, np.arange(12) % 5 - 2),
    (X[:, :2].copy(), np.arange(12) % 4),
    (np.where(X > 1.0, np.nan, X), np.arange(12) % 3),
]

SHARED = []       # a module-level list a program appends to
LAST = {}


class Box:
    pass


def _sums(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows)


def _stack_max(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].max(axis=0) - X.min())
    return np.stack(rows) * 2.0


def _vstack_scaled(X, y):
    rows = []
    for c in np.unique(y):
        m = y == c
        rows.append(X[m].sum(axis=0) / max(m.sum(), 1))
    return np.vstack(rows)


def _asarray_counts(X, y):
    counts = []
    for c in np.unique(y):
        counts.append((y == c).sum())
    return np.asarray(counts), X.sum()


def _means_warn(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].mean(axis=0))
    return np.array(rows)


def _returned_list(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return rows


def _stacked_and_list(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows), rows


def _len_after(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows), len(rows)


def _item_after(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    s = np.stack(rows)
    return s, rows[0] if rows else None


def _alias_before(X, y):
    rows = []
    other = rows
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows), len(other)


def _alias_after(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    keep = rows
    keep.append(X[0])
    return np.array(rows[:-1]), len(keep)


def _stored_on_box(X, y):
    b = Box()
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].min(axis=0))
    b.rows = rows
    return np.array(rows), b


def _global_rows(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    SHARED.append(len(rows))
    return np.array(rows), list(SHARED)


def _raise_mid(X, y):
    rows = []
    for c in np.unique(y):
        if c == 2:
            raise ValueError(f"class {c} after {len(rows)} rows")
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows)


def _raise_after_stack(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    s = np.array(rows)
    if s.shape[0] > 3:
        raise RuntimeError(s.shape)
    return s


def _append_twice(X, y):
    rows = []
    for c in np.unique(y):
        r = X[y == c].sum(axis=0)
        rows.append(r)
        rows.append(r)
    return np.array(rows)


def _append_then_write(X, y):
    rows = []
    for c in np.unique(y):
        r = X[y == c].sum(axis=0)
        rows.append(r)
        r *= 10
    return np.array(rows)


def _append_then_write_slice(X, y):
    rows = []
    for c in np.unique(y):
        r = X[y == c].sum(axis=0)
        rows.append(r)
        r[0] = -1
    return np.array(rows)


def _carried(X, y):
    acc = np.zeros(X.shape[1])
    rows = []
    for c in np.unique(y):
        acc = acc + X[y == c].sum(axis=0)
        rows.append(acc)
    return np.array(rows)


def _carried_inplace(X, y):
    acc = np.zeros(X.shape[1])
    rows = []
    for c in np.unique(y):
        acc += 1.0
        rows.append(acc)
    return np.array(rows)


def _view_item(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[0])
    return np.array(rows)


def _view_of_made(X, y):
    rows = []
    for c in np.unique(y):
        rows.append((X[y == c].sum(axis=0) * 2)[::-1])
    return np.array(rows)


def _dtype_changes(X, y):
    rows = []
    for c in np.unique(y):
        s = X[y == c].sum(axis=0)
        rows.append(s if c % 2 else s.astype(np.int64))
    return np.array(rows)


def _shape_changes(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c][:1].ravel())
    return np.array(rows, dtype=object) if rows and len({r.shape for r in rows}) > 1 \
        else np.array(rows)


def _scalar_items(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c, 0].sum())
    return np.array(rows), rows


def _zero_d_items(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(np.array(X[y == c].sum()))
    return np.stack(rows)


def _continue_skips(X, y):
    rows = []
    for c in np.unique(y):
        if c == 1:
            continue
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows)


def _break_early(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
        if c >= 1:
            break
    return np.array(rows)


def _comprehension(X, y):
    return np.array([X[y == c].sum(axis=0) for c in np.unique(y)])


def _stack_axis1(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.stack(rows, axis=1)


def _array_dtype(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows, dtype=np.float32)


def _two_lists(X, y):
    lo, hi = [], []
    for c in np.unique(y):
        m = y == c
        lo.append(X[m].min(axis=0))
        hi.append(X[m].max(axis=0))
    return np.array(lo), np.stack(hi)


def _one_stacked_one_returned(X, y):
    lo, hi = [], []
    for c in np.unique(y):
        m = y == c
        lo.append(X[m].min(axis=0))
        hi.append(X[m].max(axis=0))
    return np.array(lo), hi


def _print_in_loop(X, y):
    rows = []
    for c in np.unique(y):
        print("class", c)
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows)


def _enumerate_rows(X, y):
    rows = []
    for i, c in enumerate(np.unique(y)):
        rows.append(X[y == c].sum(axis=0) * i)
    return np.array(rows)


def _range_len(X, y):
    classes = np.unique(y)
    rows = []
    for i in range(len(classes)):
        rows.append(X[y == classes[i]].sum(axis=0))
    return np.array(rows)


def _stack_then_inplace(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    s = np.array(rows)
    s += 1
    return s, X


def _mutate_input_in_loop(X, y):
    rows = []
    for c in np.unique(y):
        X[y == c] += 1
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows), X


def _closure_reads(X, y):
    rows = []

    def count():
        return len(rows)
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows), count()


def _overflow_items(X, y):
    rows = []
    for c in np.unique(y):
        rows.append((X[y == c].astype(np.int8) * 100).sum(axis=0, dtype=np.int8))
    return np.array(rows)


def _divide_items(X, y):
    rows = []
    for c in np.unique(y):
        m = y == c
        rows.append(X[m].sum(axis=0) / (m.sum() - 1))
    return np.array(rows)


def _errstate_raise(X, y):
    rows = []
    with np.errstate(divide="raise", invalid="raise"):
        for c in np.unique(y):
            m = y == c
            rows.append(X[m].sum(axis=0) / (m.sum() - 4))
        return np.array(rows)


def _last_stored(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    LAST["rows"] = rows
    return np.array(rows)


def _vstack_2d_items(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c][:1] * 0 + c)
    return np.vstack(rows)


def _last_item_kept(X, y):
    rows = []
    for c in np.unique(y):
        r = X[y == c].sum(axis=0)
        rows.append(r)
    return np.array(rows), rows, r


def _last_item_aliased(X, y):
    rows = []
    s = None
    for c in np.unique(y):
        r = X[y == c].sum(axis=0)
        rows.append(r)
        s = r
    return np.array(rows), s


def _item_stored_in_dict(X, y):
    rows, seen = [], {}
    for c in np.unique(y):
        r = X[y == c].sum(axis=0)
        rows.append(r)
        seen[int(c)] = r
    return np.stack(rows), seen


def _input_written_before(X, y):
    X += 1
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows)


def _global_before(X, y):
    SHARED.append("before")
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows)


def _print_before_and_after(X, y):
    print("classes of", X.shape)
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    out = np.array(rows)
    print("stacked", out.shape)
    return out


def _input_written_after(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    out = np.stack(rows)
    X[:1] = -1
    return out, X


def _written_in_loop_before_append(X, y):
    rows = []
    for c in np.unique(y):
        X[0] += 1
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows)


FNS = (_input_written_before, _global_before, _print_before_and_after,
       _input_written_after, _written_in_loop_before_append, _last_item_kept, _last_item_aliased, _item_stored_in_dict, _sums, _stack_max, _vstack_scaled, _asarray_counts, _means_warn, _returned_list,
       _stacked_and_list, _len_after, _item_after, _alias_before, _alias_after,
       _stored_on_box, _global_rows, _raise_mid, _raise_after_stack, _append_twice,
       _append_then_write, _append_then_write_slice, _carried, _carried_inplace,
       _view_item, _view_of_made, _dtype_changes, _shape_changes, _scalar_items,
       _zero_d_items, _continue_skips, _break_early, _comprehension, _stack_axis1,
       _array_dtype, _two_lists, _one_stacked_one_returned, _print_in_loop,
       _enumerate_rows, _range_len, _stack_then_inplace, _mutate_input_in_loop,
       _closure_reads, _overflow_items, _divide_items, _errstate_raise, _last_stored,
       _vstack_2d_items)


def _reset():
    SHARED.clear()
    LAST.clear()


for _fn in FNS:
    reg.case(_fn, *INPUTS, calls=1, setup=_reset,
             watch=lambda: (list(SHARED), [r.tolist() for r in LAST.get("rows", [])]))
