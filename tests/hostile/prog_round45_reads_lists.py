"""Round 45, reads that run the program's code (4 of 4): read lists and cycles. Read
list appends (``ListVariable.read_items``/``kept_prefix``: the glue extends a list the
trace read and only appended to) where the list is also a global, a default argument,
an attribute, holds itself, is extended by itself, has items inserted in front, or is
changed by an item's ``__eq__``; containers that hold themselves
(``dynamo/rebuilt_cycles.py``): dicts, objects, lists and tuples made in the trace or
passed in, printed, searched, compared, deep-copied, one tuple reached twice.

    >>> def f(log, x):
    ...     log.append(log)                     # the glue rebuilds a cycle
    ...     return x * len(log), log[-1] is log
"""

from hostile_check import Programs
from round45_support import _run, _x

reg = Programs("round45_reads")


# ----------------------------------------------------------------------------- read lists

LOG = []


def _append_global_alias(x, log):
    n = len(log)
    log.append(float(x.sum()))
    LOG.append(n)
    return x * n, len(LOG), len(log)


@reg.scenario
def s_append_after_read_global_alias(r):
    LOG.clear()
    f = r.compile(_append_global_alias)
    for _ in range(3):
        r.call(f, _x(), LOG)
        r.see("LOG", list(LOG))
    mine = []
    for _ in range(2):
        r.call(f, _x(), mine)
        r.see("LOG", list(LOG))
    r.call(f, _x(), LOG)
    r.see("LOG", list(LOG))


def _append_default(x, acc=[]):  # noqa: B006 (the point: a default shared by calls)
    n = len(acc)
    acc.append(n)
    return x * n, acc[-1], list(acc)


@reg.scenario
def s_append_to_default_arg(r):
    _append_default.__defaults__[0].clear()
    f = r.compile(_append_default)
    for _ in range(4):
        r.call(f, _x())
    r.call(f, _x(), [7])
    r.call(f, _x())
    r.see("default", list(_append_default.__defaults__[0]))


class _Logger:
    def __init__(self, log):
        self.log = log


def _append_attr_alias(o, log, x):
    first = log[0] if log else None
    o.log.append(len(log))
    log.append(first)
    return x * len(o.log), o.log is log


@reg.scenario
def s_append_attribute_and_argument_alias(r):
    shared = [1.0]
    o = _Logger(shared)
    _run(r, _append_attr_alias, (o, shared, _x()), watch=lambda: list(shared))
    _run(r, _append_attr_alias, (o, [2.0], _x()), times=2, watch=lambda: list(shared))


def _reads_items_appends(log, x):
    s = 0.0
    for v in log:
        s += v
    log.append(s)
    return x * s, log[-1]


@reg.scenario
def s_read_items_then_append_grows(r):
    log = [1.0, 2.0]
    _run(r, _reads_items_appends, (log, _x()), times=4, watch=lambda: list(log))


def _read_prefix_insert(log, x):
    head = log[0]
    log.insert(0, head * 2)
    log.append(head)
    return x * head, len(log)


@reg.scenario
def s_read_then_insert_front(r):
    log = [1.0]
    _run(r, _read_prefix_insert, (log, _x()), times=4, watch=lambda: list(log))


def _append_self(log, x):
    n = len(log)
    log.append(log)
    log.append(n)
    return x * n, log[-1], log[-2] is log


@reg.scenario
def s_append_list_to_itself(r):
    log = []
    _run(r, _append_self, (log, _x()), times=3, watch=lambda: len(log))


def _extend_self(log, x):
    log.extend(log)
    log += log[:1]
    return x * len(log), list(log)


@reg.scenario
def s_extend_list_with_itself(r):
    log = [1.0]
    _run(r, _extend_self, (log, _x()), times=4, watch=lambda: list(log))


class _Appender:
    """Equal to nothing, but appends to the list it is compared in."""

    def __init__(self, target):
        self.target = target

    def __eq__(self, other):
        self.target.append("eq")
        return False

    __hash__ = object.__hash__


def _member(log, x, probe):
    n = len(log)
    hit = probe in log
    return x * n, hit, len(log)


@reg.scenario
def s_eq_appends_to_the_list_searched(r):
    log = []
    log.append(_Appender(log))
    _run(r, _member, (log, _x(), 3), times=3, watch=lambda: len(log))


def _pop_front_append(buf, x):
    old = buf.pop(0)
    buf.append(float(x[0]) + old)
    return x * old, list(buf)


@reg.scenario
def s_ring_list_pop_append(r):
    buf = [0.0, 1.0, 2.0]
    _run(r, _pop_front_append, (buf, _x()), times=5, watch=lambda: list(buf))


def _append_after_read_cleared(log, x):
    n = len(log)
    log.append(n)
    return x + n


@reg.scenario
def s_append_then_cleared_outside(r):
    log = []
    f = r.compile(_append_after_read_cleared)
    for k in range(6):
        r.call(f, log, _x())
        if k % 2:
            log.clear()
        r.see("log", list(log))


# ----------------------------------------------------------------------------- cycles

def _dict_holds_itself(d, x):
    d["n"] += 1
    d["me"]["k"] = d["n"] * 2
    return x * d["n"], d["me"] is d


@reg.scenario
def s_dict_holds_itself(r):
    d = {"n": 0}
    d["me"] = d
    _run(r, _dict_holds_itself, (d, _x()), watch=lambda: (d["n"], d.get("k")))


class _Node:
    def __init__(self):
        self.me = self
        self.n = 0


def _object_holds_itself(o, x):
    o.me.me.n += 1
    return x * o.n, o.me.me is o


@reg.scenario
def s_object_holds_itself(r):
    o = _Node()
    _run(r, _object_holds_itself, (o, _x()), watch=lambda: o.n)


def _made_cycle(x):
    log = [float(x[0])]
    log.append(log)
    d = {"log": log}
    d["d"] = d
    return x * 2, log, d


@reg.scenario
def s_cycles_made_in_trace(r):
    _run(r, _made_cycle, (_x(),))


class _Hist:
    def __init__(self):
        self.hist = []


def _hist_cycle(p, x):
    v = float(x.sum())
    p.hist = p.hist + [v]
    p.hist.append(p.hist)
    return x * len(p.hist), p.hist[-1] is p.hist


@reg.scenario
def s_rebuilt_list_holds_itself_each_call(r):
    p = _Hist()
    _run(r, _hist_cycle, (p, _x()), times=3, watch=lambda: len(p.hist))


def _tuple_cycle(x):
    box = []
    t = (box, x * 2)
    box.append(t)
    return t, box[0] is t


@reg.scenario
def s_tuple_in_list_in_tuple(r):
    _run(r, _tuple_cycle, (_x(),))


def _nested_cycle(x):
    a = []
    b = [a]
    a.append(b)
    a.append(float(x.sum()))
    return x + 1, a, b[0] is a


@reg.scenario
def s_two_lists_hold_each_other(r):
    _run(r, _nested_cycle, (_x(),))


class _Pair:
    pass


def _object_cycle_made(x):
    p, q = _Pair(), _Pair()
    p.other, q.other = q, p
    p.v = x * 2
    q.v = p.v + 1
    return p, q.other is p


@reg.scenario
def s_objects_made_in_trace_hold_each_other(r):
    _run(r, _object_cycle_made, (_x(),))


def _cycle_arg_grows(log, x):
    log.append([log, float(x[0])])
    return x * len(log), log[-1][0] is log


@reg.scenario
def s_argument_gets_cycle_each_call(r):
    log = []
    _run(r, _cycle_arg_grows, (log, _x()), times=4, watch=lambda: len(log))


# ----------------------------------------------------------------------------- printed cycles

def _print_cycle(x):
    log = [1]
    log.append(log)
    print(log, len(log))
    return x * 2


@reg.scenario
def s_print_list_holding_itself(r):
    r.patch(__import__("dynamo").config, "defer_prints", True)
    _run(r, _print_cycle, (_x(),))


def _cycle_ops(log, x):
    n = log.count(log)
    hit = log in log
    i = log.index(log)
    return x * (n + i), hit, repr(log)


@reg.scenario
def s_list_holding_itself_searched(r):
    log = [0.5]
    log.append(log)
    _run(r, _cycle_ops, (log, _x()))


def _cycle_equal(a, b, x):
    try:
        same = a == b
    except RecursionError:
        same = "recursion"
    return x + 1, same


@reg.scenario
def s_two_self_holding_lists_compared(r):
    a, b = [1.0], [1.0]
    a.append(a)
    b.append(b)
    _run(r, _cycle_equal, (a, b, _x()), (a, a, _x()))


def _cycle_deepcopy(log, x):
    import copy
    c = copy.deepcopy(log)
    return x * len(c), c[-1] is c, c is log


@reg.scenario
def s_self_holding_list_deepcopied(r):
    log = [2.0]
    log.append(log)
    _run(r, _cycle_deepcopy, (log, _x()))


def _dict_cycle_arg(d, x):
    d["n"] = d.get("n", 0) + 1
    d["hist"] = d.get("hist", []) + [d]
    return x * d["n"], d["hist"][-1] is d, len(d["hist"])


@reg.scenario
def s_dict_history_holds_itself(r):
    d = {}
    _run(r, _dict_cycle_arg, (d, _x()), times=4)
