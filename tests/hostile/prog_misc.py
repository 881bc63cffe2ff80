"""Everything else a hostile user tries: warnings (how many, in which order), printing
(arrays, ``end=``, ``sys.stdout`` swapped, print options), frames and introspection
(``locals()``, ``sys._getframe``), ``del`` and unbound locals, ``global`` creating a
name, ``exec``/``eval``, classes made inside the function, truthiness and chained
comparisons of arrays, ``match``, walrus, string formatting of array values, hashing."""

import contextlib
import dataclasses
import io
import sys
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("misc")
case, scenario = reg.case, reg.scenario

X = np.linspace(-1, 1, 5)
Z = np.zeros(5)


# -- warnings ---------------------------------------------------------------------------

def _two_divisions(x, y):
    a = x / y
    b = np.log(y)
    return a, b


case(_two_divisions, (X, Z), (X, np.ones(5)))


def _warning_in_loop(x):
    out = []
    for i in range(3):
        out.append(x / (Z * i))
    return out


case(_warning_in_loop, (X,))


def _warn_default_filter(x):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("default")
        for _ in range(3):
            np.log(Z)
        y = x / Z
    return len(w), [str(m.message) for m in w], y


case(_warn_default_filter, (X,))


def _user_warning(x):
    if x.shape[0] > 3:
        warnings.warn(f"big input {x.shape}", UserWarning, stacklevel=2)
    return x * 2


case(_user_warning, (X,), (X[:2],))


def _errstate_ignore(x):
    with np.errstate(all="ignore"):
        y = x / Z
    return y, np.log(Z)


case(_errstate_ignore, (X,))


def _errstate_nested(x):
    with np.errstate(divide="ignore"):
        a = x / Z
        with np.errstate(divide="warn"):
            b = x / Z
        c = x / Z
    return a, b, c


case(_errstate_nested, (X,))


def _seterr_inside(x):
    old = np.seterr(divide="ignore")
    y = x / Z
    np.seterr(**old)
    return y, x / Z


case(_seterr_inside, (X,))


def _large_division_warning(x):
    return x / (x * 0)


case(_large_division_warning, (np.ones(300_000, np.float32),))


def _invalid_and_divide(x):
    return np.sqrt(x) / Z, np.arcsin(x * 2)


case(_invalid_and_divide, (X,))


def _deprecation_warning(x):
    return np.round_(x) if hasattr(np, "round_") else np.trapz(x) if hasattr(np, "trapz") \
        else np.in1d(x, x)


case(_deprecation_warning, (X,))


# -- printing ---------------------------------------------------------------------------

def _print_array(x):
    print(x)
    print(x.sum(), x.dtype, x.shape)
    print(repr(x[:2]), str(x[0]))
    return x


case(_print_array, (X,), (X.astype(np.float32),))


def _print_kwargs(x):
    print("a", "b", sep="|", end="!\n")
    print(x.shape, end="")
    print()
    return x


case(_print_kwargs, (X,))


def _print_to_stderr(x):
    print("to stderr", file=sys.stderr)
    return x


@scenario
def s_print_to_stderr(r):
    f = r.compile(_print_to_stderr)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        r.call(f, X)
        r.call(f, X)
    r.see("stderr", err.getvalue())


def _print_printoptions(x):
    with np.printoptions(precision=2):
        print(x)
    print(x)
    return x


case(_print_printoptions, (X,))


def _set_printoptions_inside(x):
    old = np.get_printoptions()
    np.set_printoptions(precision=1)
    s = str(x)
    np.set_printoptions(**old)
    return s


case(_set_printoptions_inside, (X,))


def _fstring_of_values(x):
    s = x.sum()
    return f"{s:.3f}", f"{x.shape}", f"{x[0]!r}", "%s" % x.dtype, "{:>6}".format(len(x))  # noqa: UP031, UP032


case(_fstring_of_values, (X,), (X.astype(np.float32),))


def _str_repr_of_arrays(x):
    return str(x), repr(x), np.array2string(x, precision=2), format(x[0], ".2e")


case(_str_repr_of_arrays, (X,))


def _sys_stdout_swapped(x):
    buf = io.StringIO()
    old = sys.stdout
    sys.stdout = buf
    try:
        print("captured", x.shape)
    finally:
        sys.stdout = old
    return buf.getvalue()


case(_sys_stdout_swapped, (X,))


def _print_in_helper_between_graphs(x):
    def show(v):
        print("value", v.shape)
        return v
    y = show(x * 2)
    return show(y + 1)


case(_print_in_helper_between_graphs, (X,))


# -- frames, locals, introspection --------------------------------------------------------

def _locals_call(x):
    y = x * 2
    names = sorted(locals())
    return names, y


case(_locals_call, (X,))


def _getframe_name(x):
    f = sys._getframe()
    return f.f_code.co_name, sorted(f.f_locals), x


case(_getframe_name, (X,))


def _caller_name(x):
    return sys._getframe(1).f_code.co_name


@scenario
def s_caller_frame(r):
    f = r.compile(_caller_name)
    r.call(f, X)


def _vars_of_object(o):
    return sorted(vars(o)), o.__dict__.get("a")


case(_vars_of_object, (type("O", (), {})(),))


def _eval_exec(x):
    y = eval("x * 2")
    ns = {"x": x}
    exec("z = x + 1", ns)
    return y, ns["z"]


case(_eval_exec, (X,))


def _code_name(x):
    return _code_name.__code__.co_name, _code_name.__name__, x


case(_code_name, (X,))


# -- names -------------------------------------------------------------------------------

def _unbound_local(x):
    if x.shape[0] > 10:
        y = x
    return y  # noqa: F821


case(_unbound_local, (X,))


def _del_then_use(x):
    y = x * 2
    del y
    try:
        return y  # noqa: F821
    except UnboundLocalError as e:
        return str(e)


case(_del_then_use, (X,))


def _global_created(x):
    global CREATED_HERE
    CREATED_HERE = x.sum()
    return CREATED_HERE * 2


@scenario
def s_global_created_by_function(r):
    globals().pop("CREATED_HERE", None)
    f = r.compile(_global_created)
    r.call(f, X)
    r.see("global", globals().get("CREATED_HERE"))
    r.call(f, X * 2)
    r.see("global", globals().get("CREATED_HERE"))
    globals().pop("CREATED_HERE", None)


def _global_deleted_inside(x):
    global TO_DELETE
    v = TO_DELETE
    del TO_DELETE
    return x * v


@scenario
def s_global_deleted_by_function(r):
    globals()["TO_DELETE"] = 2.0
    f = r.compile(_global_deleted_inside)
    r.call(f, X)
    r.call(f, X)       # NameError now
    r.see("exists", "TO_DELETE" in globals())


def _name_error(x):
    return x * UNDEFINED_NAME  # noqa: F821


case(_name_error, (X,))


# -- classes and objects made inside ----------------------------------------------------

def _class_inside(x):
    class P:
        def __init__(self, v):
            self.v = v

        def __repr__(self):
            return f"P({self.v.shape})"
    p = P(x)
    return repr(p), p.v * 2, type(p).__name__, type(p).__qualname__


case(_class_inside, (X,))


def _dataclass_inside(x):
    @dataclasses.dataclass
    class D:
        a: np.ndarray
        b: float = 1.0
    d = D(x)
    return d.a * d.b, dataclasses.asdict(d)["b"]


case(_dataclass_inside, (X,))


@dataclasses.dataclass(frozen=True)
class Frozen:
    w: float


def _frozen_write(f, x):
    try:
        f.w = 2.0
    except dataclasses.FrozenInstanceError as e:
        return str(e), x * f.w


case(_frozen_write, (Frozen(3.0), X))


class Meta(type):
    def __call__(cls, *args, **kwargs):
        obj = super().__call__(*args, **kwargs)
        obj.made_by_meta = True
        return obj


class WithMeta(metaclass=Meta):
    def __init__(self, v):
        self.v = v


def _metaclass_call(x):
    o = WithMeta(x)
    return o.made_by_meta, o.v + 1


case(_metaclass_call, (X,))


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1.0


def _slots_object(o, x):
    o.b = x.sum()
    try:
        o.c = 1
    except AttributeError as e:
        return str(e), o.b
    return None


case(_slots_object, (Slotted(), X))


def _new_object_identity(x):
    a = []
    b = []
    return a is b, a == b, [] is [], x  # noqa: F632


case(_new_object_identity, (X,))


# -- truthiness and comparisons of arrays -------------------------------------------------

def _chained_comparison(x):
    return 0 < x < 1


case(_chained_comparison, (X,), (np.array([0.5]),))


def _and_of_arrays(x):
    return x and x


case(_and_of_arrays, (X,), (np.array([2.0]),), (np.array([0.0]),), (np.zeros(0),))


def _not_array(x):
    return not x


case(_not_array, (np.array([0.0]),), (X,))


def _if_empty_array(x):
    if x.size and x[0]:
        return "yes"
    return "no"


case(_if_empty_array, (X,), (Z,), (np.zeros(0),))


def _min_of_list_of_arrays(xs):
    return min(xs)


case(_min_of_list_of_arrays, ([X, X],), ([np.ones(1), np.zeros(1)],))


def _array_in_list(x, lst):
    return x in lst


case(_array_in_list, (X, [X]), (X, [1, 2]), (np.ones(1), [np.ones(1)]))


def _sorted_arrays_key(xs):
    return sorted(xs, key=lambda a: a.sum())


case(_sorted_arrays_key, ([X * 3, X, X * 2],))


def _hash_array(x):
    try:
        return hash(x)
    except TypeError as e:
        return str(e)


case(_hash_array, (X,))


def _dict_with_scalar_keys(x):
    d = {}
    for v in x:
        d[v] = d.get(v, 0) + 1
    return d


case(_dict_with_scalar_keys, (np.array([1.0, 1.0, -0.0, 0.0, np.nan, np.nan]),))


def _set_of_numpy_scalars(x):
    return len(set(x.tolist())), len(set(x)), sorted({float(v) for v in x})


case(_set_of_numpy_scalars, (np.array([1.0, 1.0, 2.0]),))


# -- newer syntax -----------------------------------------------------------------------

def _match_shape(x):
    match x.shape:
        case (n,):
            return "vector", n
        case (n, m):
            return "matrix", n * m
        case _:
            return "other"


case(_match_shape, (X,), (X.reshape(1, 5),), (np.float64(1.0),))


def _match_class(o):
    match o:
        case np.ndarray():
            return "array"
        case [a, b]:
            return "pair", a + b
        case {"k": v}:
            return "dict", v
        case _:
            return "other"


case(_match_class, (X,), ([X, X],), ({"k": X},), (3,))


def _walrus(x):
    if (n := x.shape[0]) > 3:
        return n, (s := x.sum()), s * 2
    return n


case(_walrus, (X,), (X[:2],))


def _star_unpack(x):
    first, *rest = x
    *init, last = list(x)
    return first, rest, init, last


case(_star_unpack, (X,), (X[:1],))


def _unpack_wrong_count(x):
    a, b = x
    return a + b


case(_unpack_wrong_count, (X,), (X[:2],))


def _comprehension_scopes(x):
    k = 2
    out = [k * v for v in x]
    d = {i: v for i, v in enumerate(x) if v > 0}
    g = sum(v for v in x)
    return out, d, g, k


case(_comprehension_scopes, (X,))


def _lambda_default_capture(x):
    fs = [lambda v, i=i: v * i for i in range(3)]
    return [f(x) for f in fs]


case(_lambda_default_capture, (X,))


def _nested_functions_closure_loop(x):
    fs = []
    for i in range(3):
        def f(v):
            return v * i  # noqa: B023 (late binding is the point)
        fs.append(f)
    return [f(x) for f in fs]


case(_nested_functions_closure_loop, (X,))


def _string_ops(x, name):
    return name.upper() + str(x.shape[0]), name * 2, name[::-1], name.split("_")


case(_string_ops, (X, "relu_act"), (X, ""))


def _bytes_of_array(x):
    return x.tobytes()[:8], x.astype(np.int8).tobytes()


case(_bytes_of_array, (X,))


def _tolist_types(x):
    lst = x.tolist()
    return lst, type(lst[0]).__name__, x[0].item(), type(x[0].item()).__name__


case(_tolist_types, (X,), (X.astype(np.int32),), (X > 0,))


# -- where warnings point ------------------------------------------------------------------

def _divide_warns(x, y):
    a = x * 2
    return a / y


def _warn_stacklevel2(x):
    def check(v):
        if v.shape[0] > 3:
            warnings.warn("big", UserWarning, stacklevel=2)
    check(x)
    return x * 2


def _where(fn, w):
    """(file name, line offset in ``fn``) of each caught warning."""
    return [(m.filename.rsplit("/", 1)[-1], m.lineno - fn.__code__.co_firstlineno)
            for m in w]


@scenario
def s_numpy_warning_points_at_user_line(r):
    f = r.compile(_divide_warns)
    for _ in range(2):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f(X, Z)
        r.see("where", _where(_divide_warns, w))


@scenario
def s_user_warning_stacklevel_2(r):
    f = r.compile(_warn_stacklevel2)
    for _ in range(2):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f(X)
        r.see("where", _where(_warn_stacklevel2, w))


@scenario
def s_default_filter_stacklevel_2_once(r):
    # the warning's location is the caller's line; a resume function compiled after the
    # first warning must not make it show again (trace-time probes leave the filters'
    # version, and so every __warningregistry__, as it was: dynamo/ops/quiet.py)
    f = r.compile(_warn_stacklevel2)
    with warnings.catch_warnings(record=True) as w:
        warnings.resetwarnings()
        warnings.simplefilter("default")
        for _ in range(3):
            r.call(f, X)
    r.see("where", _where(_warn_stacklevel2, w))


@scenario
def s_default_filter_once_per_location(r):
    f = r.compile(_divide_warns)
    with warnings.catch_warnings(record=True) as w:
        warnings.resetwarnings()
        warnings.simplefilter("default")
        for _ in range(3):
            f(X, Z)
        f(X * 2, Z)
    r.see("how many", len(w))
