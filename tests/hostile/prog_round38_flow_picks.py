"""Round 38, flow continued (the category of ``prog_round38_flow.py``): ``names[i]`` of a
list of strings at a graph-computed index, the text the glue picks after the graph
(``dynamo/translator/picked_items.py``): ``argmax``/``argmin``/``searchsorted``
indices, negative and out-of-range ones (the ``IndexError`` and what ``except`` sees),
unsigned and wrapped int8 indices, a bool index, a tuple, lists of lists and of mixed
objects, str subclasses, a list subclass counting its reads, the list mutated between
calls and by the program after the read, the text compared, joined, used as a key.

    >>> def _pick_argmax(x, names):
    ...     return names[np.argmax(x)], x * 2
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round38_flow")
POS = np.array([1.0, 2.0, 3.0, 4.0])
NEG = np.array([-1.0, -2.0, 0.5, -4.0])
NANS = np.array([np.nan, 1.0, 2.0, 3.0])


class Box:
    def __init__(self):
        self.p = None


NAMES = ["alpha", "beta", "gamma", "delta"]


def _pick_argmax(x, names):
    return names[np.argmax(x)], x * 2


def _pick_argmin_fstring(x, names):
    i = np.argmin(x)
    return f"{names[i]}={x[i]:.2f}"


def _pick_negative(x, names):
    return names[np.argmax(x) - 4]


def _pick_out_of_range(x, names):
    try:
        return names[np.argmax(x) + 2]
    except IndexError as e:
        return f"caught {e}"


def _pick_out_of_range_raised(x, names):
    return names[np.argmax(x) + 2], x


def _pick_searchsorted(x, names):
    k = np.searchsorted(np.array([0.0, 1.5, 3.5]), x.max())
    return names[k]


def _pick_tuple(x, names):
    return names[np.argmax(x)]


def _pick_lists(x, rows):
    return rows[np.argmax(x)]


def _pick_mixed(x, items):
    return items[np.argmax(x)]


def _pick_then_mutate(x, names):
    s = names[np.argmax(x)]
    names[np.argmax(x)] = "changed"
    return s, list(names)


def _pick_then_append(x, names):
    s = names[np.argmax(x)]
    names.append(s)
    return len(names)


def _pick_bool_index(x, names):
    return names[x.max() > 2]


def _pick_key(x, names, table):
    return table.get(names[np.argmax(x)], -1)


def _pick_compared(x, names):
    return names[np.argmax(x)] == "beta"


def _pick_is(x, names):
    return names[np.argmax(x)] is names[1]


def _pick_joined(x, names):
    order = np.argsort(x)[::-1][:2]
    return ", ".join(names[i] for i in order)


def _pick_len(x, names):
    return len(names[np.argmax(x)])


def _pick_upper(x, names):
    return names[np.argmax(x)].upper()


def _pick_uint(x, names):
    return names[np.argmax(x).astype(np.uint8)]


def _pick_int8_wrap(x, names):
    return names[(np.argmax(x) + 125).astype(np.int8) - 125]


def _pick_two(x, names):
    return names[np.argmax(x)] + "/" + names[np.argmin(x)]


def _pick_stored(x, names, o):
    o.p = names[np.argmax(x)]
    return x + 1


def _pick_after_write(x, names):
    i = np.argmax(x)
    x[i] = -100.0                  # the index was read before the write
    return names[i], x


def _pick_str_subclass(x, names):
    return names[np.argmax(x)]


class Tag(str):
    pass


def _s_list_changed_between_calls(r):
    """The list the trace read is changed between calls (an item, its length)."""
    names = list(NAMES)
    g = r.compile(_pick_argmax)
    r.call(g, POS, names)
    names[3] = "DELTA"
    r.call(g, POS, names)
    names.pop()
    r.call(g, POS, names)
    names.append(7)
    r.call(g, POS, names)
    r.call(g, NEG, names)


reg._add("list_changed_between_calls", _s_list_changed_between_calls, "")
for _fn in (_pick_argmax, _pick_argmin_fstring, _pick_negative, _pick_out_of_range,
            _pick_out_of_range_raised, _pick_searchsorted, _pick_then_mutate,
            _pick_then_append, _pick_bool_index, _pick_compared, _pick_is, _pick_joined,
            _pick_len, _pick_upper, _pick_uint, _pick_int8_wrap, _pick_two,
            _pick_after_write):
    reg.case(_fn, (POS.copy(), list(NAMES)), (NEG.copy(), list(NAMES)),
             (NANS.copy(), ["x", "y", "z", "w"]), calls=1)
reg.case(_pick_tuple, (POS, tuple(NAMES)), (NEG, ("a", "b", "c", "d")), calls=2)
reg.case(_pick_lists, (POS, [[1], [2], [3], [4]]), (NEG, [[1], [2], [3], [4]]), calls=2)
reg.case(_pick_mixed, (POS, ["a", 1, None, 2.5]), (NEG, ["a", 1, None, 2.5]), calls=2)
reg.case(_pick_key, (POS, NAMES, {"delta": 4, "beta": 2}),
         (NEG, NAMES, {"delta": 4, "beta": 2}), calls=2)
reg.case(_pick_stored, (POS, NAMES, Box()), (NEG, NAMES, Box()), calls=2)
reg.case(_pick_str_subclass, (POS, [Tag("a"), "b", Tag("c"), Tag("d")]),
         (NEG, [Tag("a"), "b", Tag("c"), Tag("d")]), calls=2)
reg.case(_pick_argmax, (POS[:0], NAMES), (POS, NAMES), calls=1, name="pick_empty")
reg.case(_pick_argmax, (POS, []), (POS, NAMES), calls=1, name="pick_from_empty")


class Counted(list):
    reads = 0

    def __getitem__(self, i):
        Counted.reads += 1
        return list.__getitem__(self, i)


def _pick_counted(x, names):
    return names[np.argmax(x)], Counted.reads



reg.case(_pick_counted, (POS, Counted(NAMES)), (NEG, Counted(NAMES)), calls=2,
         setup=lambda: setattr(Counted, "reads", 0))
reg.case(_pick_argmax, (POS, ["a", "a", "b", "a"]), (NEG, ["a", "a", "b", "a"]), calls=1,
         name="pick_duplicates")
reg.case(_pick_tuple, (POS, (("a", 1), ("b", 2), ("c", 3), ("d", 4))),
         (NEG, (("a", 1), ("b", 2), ("c", 3), ("d", 4))), calls=2, name="pick_tuples")
