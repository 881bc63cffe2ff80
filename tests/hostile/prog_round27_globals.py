"""Round 27, NumPy's and Python's global state around the call: print options
(``np.printoptions`` inside the function, ``np.set_printoptions`` between calls and
inside, ``precision``/``suppress``/``threshold``/``formatter``/``sign``/``legacy``)
shaping ``print``/``str``/``repr``/f-strings of arrays and NumPy scalars made in the
graph; warning filters (``simplefilter("error")`` turning a RuntimeWarning of a graph
op into an exception the program catches, ``catch_warnings(record=True)`` inside the
function, ``"ignore"``, ``"once"``, ``filterwarnings`` by message, module and line,
Python-level warnings such as "Mean of empty slice" made errors); the scenarios restore
print options. (NumPy's error state: ``prog_round27_errstate.py``.)

    >>> def _warn_as_error(x):
    ...     with warnings.catch_warnings():
    ...         warnings.simplefilter("error")
    ...         try:
    ...             return np.log(x)       # RuntimeWarning -> an exception
    ...         except RuntimeWarning as e:
    ...             return "caught: " + str(e)
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round27_globals")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.0, 3.14159265, 1e-9])
BIG = np.arange(2000.0)
INTS = np.array([7, 0, -3, 2])
INPUTS = ((X,), (BIG,), (INTS,))


def _restore_print():
    np.set_printoptions(**_DEFAULT_PRINT)


_DEFAULT_PRINT = np.get_printoptions()

# ------------------------------------------------------------------------- print options


def _print_inside_options(x):
    with np.printoptions(precision=2, suppress=True):
        y = x * 1000
        print(y)
        s = str(y)
    return s, repr(x * 2)


def _print_threshold(x):
    with np.printoptions(threshold=5, edgeitems=1):
        print(x + 1)
        return repr(x[:10] * 2)


def _print_formatter(x):
    with np.printoptions(formatter={"float": lambda v: f"<{v:.1f}>",
                                    "int": lambda v: f"#{v}"}):
        return str(x - 1), f"{x[:2] + 0}"


def _print_sign_floatmode(x):
    with np.printoptions(sign="+", floatmode="fixed", precision=3):
        print(x[:3] / 3)
    return str(x[:3] / 3)


def _scalar_repr_legacy(x):
    s = x.sum()
    with np.printoptions(legacy="1.25"):
        a = repr(s)
    return a, repr(s), str(s), f"{s}", repr(x[0] * 2)


def _set_inside(x):
    old = np.get_printoptions()["precision"]
    np.set_printoptions(precision=1)
    s = str(x / 7)
    np.set_printoptions(precision=old)
    return s, str(x / 7)


def _set_inside_kept(x):
    np.set_printoptions(precision=3, linewidth=40)
    print(x / 3)
    return np.get_printoptions()["precision"]


def _array2string(x):
    return (np.array2string(x / 3, precision=2, separator=";"),
            np.array_repr(x[:3] * 1.5), np.array_str(x[:3] - 0.25, precision=1),
            np.format_float_positional(x.sum() / 7, precision=4))


def _print_in_loop(x):
    out = []
    for p in (1, 3):
        with np.printoptions(precision=p):
            out.append(str(x[:3] / 3))
    return out


for _fn in (_print_inside_options, _print_threshold, _print_formatter,
            _print_sign_floatmode, _scalar_repr_legacy, _set_inside, _array2string,
            _print_in_loop):
    case(_fn, *INPUTS)

case(_set_inside_kept, *INPUTS, setup=_restore_print,
     watch=lambda: sorted((k, str(v)) for k, v in np.get_printoptions().items()))


def _show(x):
    y = x / 3
    print(y, y.sum())
    return str(y), repr(y.max()), f"{y[0]!r} {y[:2]}"


@scenario
def s_options_between_calls(r):
    """Print options changed by the caller between calls of one compiled function."""
    f = r.compile(_show)
    try:
        for opts in ({}, {"precision": 2}, {"suppress": True, "precision": 4},
                     {"threshold": 3, "edgeitems": 1}, {"legacy": "1.25"},
                     {"sign": " "}, {"floatmode": "unique"}, {}):
            np.set_printoptions(**{**_DEFAULT_PRINT, **opts})
            r.call(f, X)
            r.call(f, BIG[:8])
    finally:
        _restore_print()


@scenario
def s_options_context_around_call(r):
    """The compiled function called inside the caller's ``np.printoptions``."""
    f = r.compile(_show)
    r.call(f, X)
    with np.printoptions(precision=1):
        r.call(f, X)
        with np.printoptions(formatter={"float": lambda v: "F"}):
            r.call(f, X)
    r.call(f, X)


@scenario
def s_options_inside_then_outside(r):
    """``_set_inside_kept`` leaves print options changed: the next compiled call of
    another function prints with them."""
    f = r.compile(_set_inside_kept)
    g = r.compile(_show)
    try:
        r.call(g, X)
        r.call(f, X)
        r.call(g, X)
        _restore_print()
        r.call(g, X)
    finally:
        _restore_print()


# ------------------------------------------------------------------------- warning filters

def _warn_as_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return np.log(x)
        except RuntimeWarning as e:
            return "caught: " + str(e)


def _warn_as_error_after_work(x, log):
    y = x * 2
    log.append(float(y[0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            z = np.sqrt(y) + 1 / y
        except RuntimeWarning as e:
            log.append(str(e))
            z = None
    return y, z


def _warn_as_error_uncaught(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return 1.0 / x


def _record_inside(x):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        y = np.log(x) + 1 / x
        z = np.arcsin(x)
    return y, z, [(w.category.__name__, str(w.message)) for w in seen]


def _record_default_filter(x):
    with warnings.catch_warnings(record=True) as seen:
        y = 1 / x
        y2 = 1 / x
    return y, y2, len(seen) >= 1, sorted({str(w.message) for w in seen})


def _ignore_inside(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = np.log(x)
    return y, np.log(x + 10)


def _filter_by_message(x):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="divide by zero")
        try:
            return 1 / x, np.log(x)
        except RuntimeWarning as e:
            return "caught: " + str(e)


def _filter_left_set(x):
    warnings.simplefilter("error")
    try:
        return np.log(x)
    except RuntimeWarning as e:
        return "caught: " + str(e)


def _error_in_int_op(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return x // np.zeros_like(x)
        except RuntimeWarning as e:
            return "caught: " + str(e)


def _error_then_errstate(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(divide="ignore", invalid="ignore"):
            y = np.log(x)
        try:
            z = 1 / x
        except RuntimeWarning as e:
            z = str(e)
    return y, z


def _complex_warning_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        try:
            return (x + 1j).astype(np.float64)
        except np.exceptions.ComplexWarning as e:
            return "caught: " + str(e)


def _user_warning_then_numpy(x):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        warnings.warn("mine", stacklevel=1)
        y = np.log(x)
    return y, [str(w.message) for w in seen]


for _fn in (_warn_as_error, _warn_as_error_uncaught, _record_inside,
            _record_default_filter, _ignore_inside, _filter_by_message, _filter_left_set,
            _error_in_int_op, _error_then_errstate, _complex_warning_error,
            _user_warning_then_numpy):
    case(_fn, (X,), (np.abs(X) + 1,), (np.array([0.0, -1.0]),))

case(_warn_as_error_after_work, (X, []), (np.abs(X) + 1, []), (np.array([-1.0]), []))


@scenario
def s_filters_between_calls(r):
    """A function that divides; the recorder's ``"always"`` filter is replaced inside the
    function by a filter passed in, a different one each call."""
    def f(x, action):
        with warnings.catch_warnings():
            warnings.simplefilter(action)
            try:
                return 1 / x
            except RuntimeWarning as e:
                return "caught: " + str(e)
    g = r.compile(f)
    for action in ("always", "error", "ignore", "error", "default", "always"):
        r.call(g, X, action)

# ------------------------------------------------------------------------- where a warning is

def _line_of(fn, text):
    """The line of ``fn``'s source that contains ``text`` (a warning filter's lineno)."""
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def _filter_by_module(x):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module=__name__)
        try:
            return np.log(x)
        except RuntimeWarning as e:
            return "caught: " + str(e)


def _filter_other_module(x):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module="numpy")
        try:
            return np.log(x)
        except RuntimeWarning as e:
            return "caught: " + str(e)


def _filter_by_line(x):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", lineno=_LOG_LINE)
        try:
            a = np.sqrt(x)
            b = np.log(x)  # the line filtered
            return a, b
        except RuntimeWarning as e:
            return "caught: " + str(e)


_LOG_LINE = _line_of(_filter_by_line, "# the line filtered")


def _once_filter(x):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("once")
        a = 1 / x
        b = 1 / x
        c = np.log(x)
    return a, b, c, [str(w.message) for w in seen]


def _record_lines(x):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        a = np.log(x)
        b = 1 / x
    return a, b, [(w.lineno - _RECORD_FIRST, w.filename == __file__) for w in seen]


_RECORD_FIRST = _line_of(_record_lines, "a = np.log(x)")


def _scalar_warning_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = x.sum()
        try:
            return s / 0.0
        except (RuntimeWarning, ZeroDivisionError) as e:
            return type(e).__name__, str(e)


def _errstate_under(x):
    with np.errstate(under="raise"):
        try:
            return x * 1e-320
        except FloatingPointError as e:
            return str(e)


def _print_numpy_scalars(x):
    s = x.sum()
    print(s, x[0], np.float32(x[0]), x.dtype, repr(x.max()), [x[0], s])
    with np.printoptions(legacy="1.25"):
        print([x[0], s], repr(x[1]))
    return f"{s:.3f}", f"{x[:2]}"


def _override_repr(x):
    with np.printoptions(override_repr=lambda a: f"ARRAY{a.shape}"):
        return repr(x + 1), str(x + 1), repr([x[:1]])


for _fn in (_filter_by_module, _filter_other_module, _filter_by_line, _once_filter,
            _record_lines, _scalar_warning_error, _errstate_under, _print_numpy_scalars,
            _override_repr):
    case(_fn, (X,), (np.abs(X) + 1,), (np.array([0.0, -1.0]),))


@np.printoptions(precision=1, sign="+")
def _printed_decorated(x):
    print(x / 3)
    return str(x / 3)


def _python_level_warnings_as_errors(x):
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for make in (lambda: np.mean(x[x > 100]), lambda: np.nanmax(x * np.nan),
                     lambda: np.var(x[:1], ddof=1), lambda: np.nanmean(x[:0])):
            try:
                out.append(make())
            except RuntimeWarning as e:
                out.append(("caught", str(e)))
    return out


def _python_level_warnings_recorded(x):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        a = np.mean(x[x > 100])
        b = np.nanmax(x * np.nan)
        c = np.std(x[:1], ddof=1)
    return a, b, c, [(w.category.__name__, str(w.message)) for w in seen]


for _name, _fn in (("printoptions_decorated", _printed_decorated),
                   ("python_level_warnings_as_errors", _python_level_warnings_as_errors),
                   ("python_level_warnings_recorded", _python_level_warnings_recorded)):
    case(_fn, (X,), (np.abs(X) + 1,), (np.array([0.0, -1.0]),), name=_name)


def _repr_in_message(x):
    with np.printoptions(precision=2):
        try:
            raise ValueError(f"bad values {x / 3}")
        except ValueError as e:
            return str(e), repr(x[:2] / 3)


def _complex_and_ints_printed(x):
    with np.printoptions(precision=2, floatmode="maxprec_equal"):
        c = x / 3 + 1j * x
        print(c, x.astype(np.int64), x.astype(np.float32) / 7)
        return str(c[:2])


def _filter_base_category(x):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", category=Warning)
        try:
            return np.log(x)
        except Warning as e:
            return type(e).__name__, str(e)


def _default_action_twice(x):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        for _ in range(2):
            y = np.log(x)
    return y, [str(w.message) for w in seen]


for _fn in (_repr_in_message, _complex_and_ints_printed, _filter_base_category,
            _default_action_twice):
    case(_fn, (X,), (np.abs(X) + 1,), (np.array([0.0, -1.0]),))


def _print_between_set_options(x):
    np.set_printoptions(precision=1)
    print(x / 7)
    np.set_printoptions(precision=8)
    print(x / 7)
    return x * 2


def _print_restored_by_dict(x):
    opts = np.get_printoptions()
    np.set_printoptions(precision=2)
    print(x / 3, np.float64(1 / 3))
    np.set_printoptions(**opts)
    return x + 1


def _print_inside_and_after_block(x):
    with np.printoptions(precision=2):
        print(x / 3)
        y = x / 3
    print(y)
    return y


for _fn in (_print_between_set_options, _print_restored_by_dict,
            _print_inside_and_after_block):
    case(_fn, *INPUTS, setup=_restore_print)
