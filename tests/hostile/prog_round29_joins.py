"""Round 29, the other guards issue #16 changed: ``np.concatenate`` of a list of rows
that grows between calls (``variables/stacked_lists.py``: the stacked input reshaped,
then the appended rows), ``max``/``min`` of a slice whose size is symbolic (an empty
one raises ``ValueError``, ``ops/signals.py``), f-strings of changing numbers formatted
after the graph (``variables/formatted.py`` ``changing_number``), numbers written back
computed from a changing number (``symbolic/written_numbers.py``) and dict merges
after a break (``translator/containers.py`` ``DICT_MERGE``/``DICT_UPDATE``/``MAP_ADD``
through ``store``). Rows change width and dtype (NumPy's error and promotion, as
eager), the list empties, the slice empties inside a ``try``, format specs and
conversions vary (``{x:.3f}``, ``{n:>5}``, ``{x!r}``), a float subclass formats
itself, the text is a dict key or compared later.

    >>> def _cat(c, x):
    ...     c.rows.append(x[None, :] * 2)
    ...     return np.concatenate(c.rows)
"""

import collections
import types

import numpy as np
from hostile_check import Programs

reg = Programs("round29_joins")

X = np.arange(4.0)


class Cache:
    def __init__(self):
        self.rows = [np.ones((1, 4)), np.zeros((1, 4))]
        self.n = 0
        self.t = 0.5
        self.avg = 1.0
        self.log = []
        self.d = {"a": 1}


class Money(float):
    """A float subclass with its own ``__format__`` and ``__repr__``."""

    def __format__(self, spec):
        return "$" + float.__format__(self, spec or ".2f")

    def __repr__(self):
        return f"Money({float(self)})"


def _apply(c, step):
    kind, value = step
    if kind == "row":
        c.rows.append(value)
    elif kind == "rows":
        c.rows = value()
    elif kind == "pop":
        for _ in range(value):
            if c.rows:
                c.rows.pop()
    else:
        setattr(c, kind, value)


def _run(name, fn, steps):
    def run(r):
        c = Cache()
        f = r.compile(fn)
        r.call(f, c, X.copy())
        for step in steps:
            _apply(c, step)
            r.call(f, c, X.copy())
            r.see("cache", (c.rows, c.n, c.t, c.avg, c.log, c.d))
    reg._add(name, run, (fn.__doc__ or "").strip())


# --------------------------------------------------------------- np.concatenate

def _cat(c, x):
    return np.concatenate(c.rows)


def _cat_axis0(c, x):
    return np.concatenate(c.rows, axis=0).sum(axis=0) + x


def _cat_append(c, x):
    c.rows.append(x[None, :] * 2)
    return np.concatenate(c.rows)


def _cat_try(c, x):
    try:
        return np.concatenate(c.rows)
    except ValueError as e:
        return "error", str(e)


def _cat_dtype(c, x):
    out = np.concatenate(c.rows)
    return out.dtype, out.shape


def _stack_rows(c, x):
    try:
        return np.vstack(c.rows)
    except ValueError as e:
        return str(e)


def _cat_axis1(c, x):
    try:
        return np.concatenate(c.rows, axis=1)
    except ValueError as e:
        return str(e)


def _cat_axis_none(c, x):
    return np.concatenate(c.rows, axis=None)


ROWS = [("row", np.full((1, 4), 2.0)), ("row", np.full((1, 4), 3.0))]
CATS = {
    "grow": ROWS + [("row", np.full((1, 4), 4.0))],
    "wide": ROWS + [("row", np.ones((1, 5))), ("pop", 1), ("row", np.ones((1, 4)))],
    "tall": ROWS + [("row", np.ones((3, 4))), ("row", np.ones((1, 4)))],
    "int_rows": ROWS + [("row", np.ones((1, 4), dtype=np.int64)), ("row", np.ones((1, 4)))],
    "f32_rows": ROWS + [("rows", lambda: [np.ones((1, 4), np.float32)] * 3),
                        ("row", np.ones((1, 4), np.float32))],
    "complex_row": ROWS + [("row", np.ones((1, 4), complex))],
    "empty": ROWS + [("pop", 10), ("row", np.ones((1, 4)))],
    "one_d": ROWS + [("row", np.ones(4)), ("pop", 1)],
    "bool_rows": ROWS + [("rows", lambda: [np.ones((1, 4), bool)] * 3),
                         ("row", np.zeros((1, 4), bool))],
    "list_row": ROWS + [("row", [[1.0, 2.0, 3.0, 4.0]]), ("row", np.ones((1, 4)))],
    "zero_rows": ROWS + [("row", np.ones((0, 4))), ("row", np.ones((1, 4)))],
}
CAT_PICKS = {
    "cat": ("grow", "wide", "tall", "int_rows", "f32_rows", "complex_row", "empty",
            "one_d", "bool_rows", "list_row", "zero_rows"),
    "cat_axis0": ("grow", "wide", "int_rows", "empty", "zero_rows"),
    "cat_append": ("grow", "wide", "tall", "int_rows", "f32_rows", "empty", "one_d"),
    "cat_try": ("wide", "empty", "one_d", "complex_row"),
    "cat_dtype": ("int_rows", "f32_rows", "bool_rows", "complex_row"),
    "stack_rows": ("grow", "wide", "empty", "tall"),
    "cat_axis1": ("grow", "tall", "empty"),
    "cat_axis_none": ("grow", "wide", "int_rows"),
}
CAT_FUNCS = {"cat": _cat, "cat_axis0": _cat_axis0, "cat_append": _cat_append,
             "cat_try": _cat_try, "cat_dtype": _cat_dtype, "stack_rows": _stack_rows,
             "cat_axis1": _cat_axis1, "cat_axis_none": _cat_axis_none}
for fname, seqs in CAT_PICKS.items():
    for sname in seqs:
        _run(f"{fname}_{sname}", CAT_FUNCS[fname], CATS[sname])


# ----------------------------------------------------- max/min of symbolic slices

def _max_head(c, x):
    try:
        return x[:c.n].max()
    except ValueError as e:
        return "error", str(e)


def _min_tail(c, x):
    try:
        return x[c.n:].min()
    except ValueError as e:
        return "error", str(e)


def _max_selected(c, x):
    try:
        return x[x > c.t].max()
    except ValueError as e:
        return "error", str(e)


def _max_of_stack(c, x):
    s = np.concatenate(c.rows)
    try:
        return s[:, 0].max(), s.min()
    except ValueError as e:
        return "error", str(e)


def _max_then_python(c, x):
    try:
        m = x[:c.n].max()
    except ValueError:
        c.log.append("empty")
        return None
    c.log.append("ok")
    return m * 2


def _argmax_head(c, x):
    try:
        return x[:c.n].argmax()
    except ValueError as e:
        return "error", str(e)


def _max_initial(c, x):
    return x[:c.n].max(initial=-1.0), x[:c.n].min(initial=9.0)


def _np_max_head(c, x):
    try:
        return np.max(x[:c.n]), np.amin(x[:c.n])
    except ValueError as e:
        return "error", str(e)


MAXES = {
    "to_empty": [("n", 2), ("n", 3), ("n", 0), ("n", 1), ("n", 0)],
    "negative": [("n", 2), ("n", 3), ("n", -4), ("n", -5), ("n", 1)],
    "past_end": [("n", 2), ("n", 3), ("n", 4), ("n", 9), ("n", 0)],
}
SELECTS = [("t", 0.2), ("t", 5.0), ("t", float("nan")), ("t", -1.0), ("t", 2.5)]
for fname, fn in {"max_head": _max_head, "min_tail": _min_tail,
                  "max_then_python": _max_then_python, "argmax_head": _argmax_head,
                  "max_initial": _max_initial, "np_max_head": _np_max_head}.items():
    for sname, steps in MAXES.items():
        _run(f"{fname}_{sname}", fn, steps)
_run("max_selected", _max_selected, SELECTS)
_run("max_of_stack_grow", _max_of_stack, CATS["grow"])
_run("max_of_stack_empty", _max_of_stack, CATS["empty"])


# ------------------------------------------------- f-strings of changing numbers

def _fmt_float(c, x):
    return f"{c.t:.3f}", x * 2


def _fmt_int(c, x):
    return f"[{c.n:>5}]", x


def _fmt_repr(c, x):
    return f"{c.t!r} {c.n!r}", x


def _fmt_str_conv(c, x):
    return f"{c.t!s}|{c.n!a}", x


def _fmt_log(c, x):
    c.log.append(f"step {c.n}: t={c.t}")
    return x + c.n


def _fmt_after_graph(c, x):
    y = x * c.t
    c.log.append(f"t={c.t:.2e} n={c.n:03d}")
    return y


def _fmt_key(c, x):
    key = f"n{c.n}"
    c.d[key] = c.d.get(key, 0) + 1
    return x


def _fmt_compared(c, x):
    s = f"{c.t:.1f}"
    if s == "0.5":
        return "half", x
    return "other", s


def _fmt_percent(c, x):
    return f"{c.t:%}", f"{c.n:,}", f"{c.t:g}", f"{c.n:x}", x


def _fmt_width_from(c, x):
    return f"{c.t:{c.n}.2f}", x


def _fmt_then_len(c, x):
    s = f"{c.t}"
    return len(s), x * len(s)


def _fmt_written(c, x):
    c.avg = 0.9 * c.avg + 0.1 * c.t
    c.log.append(f"avg {c.avg:.4f}")
    return x * c.avg


FMTS = {
    "numbers": [("n", 1), ("t", 0.25), ("n", 2), ("t", 0.75), ("n", 12345),
                ("t", 1e-9), ("n", -3)],
    "specials": [("n", 1), ("t", 0.25), ("t", float("nan")), ("t", float("inf")),
                 ("t", -0.0), ("n", 0), ("t", 0.5)],
    "types": [("n", 1), ("t", 0.25), ("t", Money(2.5)), ("n", True), ("t", np.float64(0.3)),
              ("n", np.int64(7)), ("t", 3), ("n", 2)],
}
FMT_FUNCS = {"fmt_float": _fmt_float, "fmt_int": _fmt_int, "fmt_repr": _fmt_repr,
             "fmt_str_conv": _fmt_str_conv, "fmt_log": _fmt_log,
             "fmt_after_graph": _fmt_after_graph, "fmt_key": _fmt_key,
             "fmt_compared": _fmt_compared, "fmt_percent": _fmt_percent,
             "fmt_width_from": _fmt_width_from, "fmt_then_len": _fmt_then_len,
             "fmt_written": _fmt_written}
for fname, fn in FMT_FUNCS.items():
    for sname, steps in FMTS.items():
        if fname == "fmt_width_from" and sname != "numbers":
            steps = [s for s in steps if s[0] != "n"] + [("n", 8)]
        _run(f"{fname}_{sname}", fn, steps)


# ---------------------------------------------------------- dict merges after a break

def _merge_star(c, x):
    print("break")
    return {**c.d, **{"n": c.n, "t": c.t}}, x


def _merge_call(c, x):
    print("break")
    return dict(c.d, n=c.n, **{"t": c.t})


def _merge_or(c, x):
    print("break")
    m = c.d | {"n": c.n}
    m |= {"t": c.t}
    return m, x * c.n


def _merge_into_self(c, x):
    y = x * c.t
    print("break")
    c.d.update({f"p{c.n}": c.t})
    c.d = {**c.d, "last": c.n}
    return y


def _merge_comprehension(c, x):
    print("break")
    c.d = {"n": 1, **{f"p{q}": q * c.t for q in range(c.n)}}
    return x


def _merge_kwargs(c, x):
    def g(**kw):
        return sorted(kw.items())
    print("break")
    try:
        return g(**c.d, **{"n": c.n})
    except TypeError as e:
        return str(e)


MERGES = {
    "numbers": [("n", 1), ("t", 0.25), ("n", 3), ("t", 0.75)],
    "clash": [("n", 1), ("d", {"n": 5, "a": 2}), ("n", 2), ("d", {"b": 1}), ("n", 3)],
    "types": [("n", 1), ("n", 2), ("t", np.float64(0.5)), ("d", {"a": [1]}), ("n", True),
              ("d", {1: "int key"})],
}
MERGE_FUNCS = {"merge_star": _merge_star, "merge_call": _merge_call, "merge_or": _merge_or,
               "merge_into_self": _merge_into_self,
               "merge_comprehension": _merge_comprehension, "merge_kwargs": _merge_kwargs}
for fname, fn in MERGE_FUNCS.items():
    for sname, steps in MERGES.items():
        _run(f"{fname}_{sname}", fn, steps)


# ------------------------------------------- merges of mappings that are not dicts

class KeysSub(dict):
    """A dict subclass whose ``keys``/``__getitem__`` a ``{**m}`` does not use."""

    def keys(self):
        return ["a"]

    def __getitem__(self, k):
        return 100


class IterSub(dict):
    """A dict subclass with its own ``__iter__``: ``{**m}`` uses ``keys``/``[]``."""

    def __iter__(self):
        return iter(["a"])

    def keys(self):
        return ["a"]

    def __getitem__(self, k):
        return -1


class KeysMap:
    """Not a dict: ``keys`` and ``__getitem__`` only."""

    def __init__(self, n):
        self.n = n

    def keys(self):
        return ["m", "n"]

    def __getitem__(self, k):
        return self.n if k == "n" else "m"


def _merge_star_m(c, x, m):
    y = x * c.t
    print("break")
    return {**c.d, **m, "n": c.n}, y


def _merge_star_first(c, x, m):
    print("break")
    return {"n": c.n, **m, **c.d}


def _merge_call_m(c, x, m):
    print("break")
    try:
        return dict(m, **{"n": c.n})
    except TypeError as e:
        return str(e)


def _merge_or_m(c, x, m):
    print("break")
    try:
        out = c.d | m
    except TypeError as e:
        return str(e)
    return type(out).__name__, out


def _merge_ior_m(c, x, m):
    y = x + c.n
    print("break")
    try:
        c.d |= m
    except TypeError as e:
        return str(e)
    return y, c.d


def _merge_kwargs_m(c, x, m):
    def g(**kw):
        return kw
    print("break")
    try:
        return g(**m, n=c.n)
    except TypeError as e:
        return str(e)


def _merge_update_m(c, x, m):
    print("break")
    d = {}
    d.update(m, n=c.n)
    d.update(c.d)
    return d


def _merge_no_break_m(c, x, m):
    return {**c.d, **m, "n": c.n}, x * c.t


MAPPINGS = [lambda: {"b": 2}, lambda: {"b": 3}, lambda: KeysSub(b=5), lambda: IterSub(b=6),
            lambda: KeysMap(3), lambda: collections.OrderedDict(z=1, a=2),
            lambda: collections.Counter("aab"),
            lambda: collections.defaultdict(list, {"q": [1]}),
            lambda: types.MappingProxyType({"p": 1}), lambda: {1: "x"}, lambda: {"n": 9},
            lambda: {"b": 2}]


def _mapped(name, fn):
    def run(r):
        c = Cache()
        f = r.compile(fn)
        for k, m in enumerate(MAPPINGS):
            c.n, c.t = k, 0.5 + k
            r.call(f, c, X.copy(), m())
            r.see("cache", (c.n, c.t, c.d))
    reg._add(name, run, (fn.__doc__ or "").strip())


for _fn in (_merge_star_m, _merge_star_first, _merge_call_m, _merge_or_m, _merge_ior_m,
            _merge_kwargs_m, _merge_update_m, _merge_no_break_m):
    _mapped("mapping" + _fn.__name__, _fn)


# ------------------------------- more reductions of slices whose size changes

M34 = np.arange(12.0).reshape(3, 4)


def _max_unused(c, x):
    x[:c.n].max()                 # (a check: eagerly it raises for an empty slice)
    return x * 2


def _min_unused_try(c, x):
    try:
        x[:c.n].min()
    except ValueError:
        return "empty"
    return x * 2


def _max_after_log(c, x):
    c.log.append("a")
    y = x * 2
    return y[:c.n].max() + y


def _max_axis0(c, x):
    try:
        return M34[:c.n].max(axis=0)
    except ValueError as e:
        return str(e)


def _max_other_axis(c, x):
    try:
        return M34[:c.n].max(axis=1), M34[:, :c.n].min(axis=0)
    except ValueError as e:
        return str(e)


def _max_columns(c, x):
    try:
        return M34[:, :c.n].max(axis=1)
    except ValueError as e:
        return str(e)


def _nanmax_head(c, x):
    try:
        return np.nanmax(x[:c.n])
    except ValueError as e:
        return str(e)


def _ptp_head(c, x):
    try:
        return np.ptp(x[:c.n])
    except ValueError as e:
        return str(e)


def _max_where(c, x):
    return x[:c.n].max(where=x[:c.n] > 1, initial=-1.0)


def _builtin_max_head(c, x):
    try:
        return max(x[:c.n])
    except ValueError as e:
        return str(e)


def _max_of_tail_logged(c, x):
    s = x[c.n:]
    c.log.append(len(s))
    try:
        m = s.max()
    except ValueError:
        m = -1.0
    c.log.append(float(m))
    return s * m


SIZES = [("n", n) for n in (2, 3, 4, 0, 1, 0, 5, -4, 2)]
for _fn in (_max_unused, _min_unused_try, _max_after_log, _max_axis0, _max_other_axis,
            _max_columns, _nanmax_head, _ptp_head, _max_where, _builtin_max_head,
            _max_of_tail_logged):
    _run("sizes" + _fn.__name__, _fn, SIZES)
