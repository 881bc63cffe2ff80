"""Which input dimensions (and Python int arguments) a trace makes symbolic:
``dynamic=``, ``mark_dynamic``, and automatic dynamic from earlier entries' guards.

Example::

    >>> dynamo.mark_dynamic(x, 0)       # x's first dimension is symbolic when traced
"""

from __future__ import annotations

_marked: dict[int, tuple] = {}   # id(array) -> (weakref, dims) for mark_dynamic


def mark_dynamic(array, dim: int) -> None:
    """Make dimension ``dim`` of ``array`` symbolic the first time it is traced."""
    import weakref

    ndim = getattr(array, "ndim", None)
    if ndim is None:
        raise TypeError(f"mark_dynamic expects an array, got {type(array).__name__}")
    if not -ndim <= dim < ndim:
        raise IndexError(f"dimension {dim} out of range for an array of {ndim} dimensions")
    key = id(array)
    entry = _marked.get(key)
    dims = set(entry[1]) if entry is not None and entry[0]() is array else set()
    dims.add(dim % ndim)
    ref = weakref.ref(array, lambda _r, key=key: _marked.pop(key, None))
    _marked[key] = (ref, frozenset(dims))


def marked_dims(array) -> frozenset:
    entry = _marked.get(id(array))
    return entry[1] if entry is not None and entry[0]() is array else frozenset()


class DynamicPolicy:
    """Which input dimensions a trace makes symbolic.

    ``mode``: True (every dimension), False (none), None (automatic: a dimension whose
    size differed from an earlier entry's, or that ``mark_dynamic`` named).
    ``previous`` maps sources to the ArraySpecs earlier entries guarded; ``static`` holds
    dimensions a trace had to specialize.
    """

    def __init__(self, mode: bool | None = None, previous: dict | None = None,
                 previous_ints: dict | None = None):
        self.mode = mode
        self.previous = previous or {}
        self.previous_ints = previous_ints or {}   # source -> numbers earlier entries pinned
        self.previous_lengths: dict = {}   # source -> lengths earlier entries guarded
        # source -> strings earlier entries guarded: an item of a list of strings
        # (``text_lists``, this trace's) whose string changed is text, read as Python at
        # a break (variables/text_items.py)
        self.previous_texts: dict = {}
        self.text_lists: set = set()
        self.changed_tuples: set = set()   # sources of tuples of numbers whose items changed
        self.changing_numbers: set = set()   # sources earlier entries read as changing numbers
        self.static: set = set()
        self._names: dict = {}
        # may ops make unbacked sizes (x[mask], np.nonzero: known only when the graph
        # runs)? Only for a backend that takes symbolic sizes (dynamic_shapes)
        self.unbacked = True
        # changing Python floats as graph inputs where ``mode`` is False only because the
        # backend takes static shapes (a user's backend function): a float is never a
        # size, so the graph's shapes stay static, and the backend gets the float as an
        # ordinary input (``_dynamic_policy`` in convert.py; issue #16)
        self.static_shape_floats = False
        # changing Python ints likewise (a step counter ``t`` in ``0.9 ** t``): an input
        # while the trace uses it only as a value; one it needs as a size is pinned
        # (``sizes.as_size`` with ``Trace.static_shapes``), as every int was before
        self.static_shape_ints = False

    def is_dynamic_number(self, source, value: int | float) -> bool:
        """A Python int or float argument is symbolic once an earlier entry guarded
        another value of its type at its source (``f(x, n)`` called with n = 2, 3, 4...:
        one entry, not one per n; automatic dynamic), unless a trace had to use it as a
        plain value (then it stays static). A float or int also for a backend of
        static shapes (``static_shape_floats``, ``static_shape_ints``). Also once an
        earlier entry read it as a changing number (``written_numbers.changing_sources``):
        a best loss written in one branch only is not a constant of the entries of the
        other branch. And an item of a window of a growing list (a source whose base ``items_move``,
        ``list_windows.WindowSource``) from the first trace: the list grows under the
        window, so the item at each place changes every call."""
        if source in self.static or self.mode is False and \
                not (self.static_shape_floats and type(value) is float or
                     self.static_shape_ints and type(value) is int):
            return False
        if value != value:   # a NaN: its identity decides ``k in items`` and
            return False     # ``items.index(k)``, which a changing number has not
            # (builder._guard_nan_identity guards it; hostile round9 float_in_list_identity)
        if source in self.changing_numbers or \
                getattr(getattr(source, "base", None), "items_move", False):
            return True
        if self._in_changed_tuple(source):
            return True
        return any(type(v) is type(value) and v != value
                   for v in self._previous_at(source))

    def _in_changed_tuple(self, source) -> bool:
        """Is ``source`` an item of a tuple (or window) whose items changed, or an item
        of an item of one: ``self.buf[0][1]``, the reward of a deque of ``(obs,
        reward)`` tuples that slides, moves from tuple to tuple as the window does."""
        from dynamo.guards import ItemSource

        base = getattr(source, "base", None)
        if base in self.changed_tuples:
            return True
        return isinstance(source, ItemSource) and isinstance(base, ItemSource) and \
            base.base in self.changed_tuples

    def _previous_at(self, source):
        """The numbers earlier entries pinned at ``source``; for ``tokens[-1]`` also those
        pinned at the position it named then (``tokens[0]`` of a list of 1 item: a
        decoder's last token, read item by item while its length was one entry's)."""
        from dynamo.guards import ItemSource

        found = list(self.previous_ints.get(source, ()))
        key = getattr(source, "key", None)
        if isinstance(source, ItemSource) and type(key) is int and key < 0:
            for n in self.previous_lengths.get(source.base, ()):
                if n + key >= 0:
                    found += self.previous_ints.get(ItemSource(source.base, n + key), ())
        return found

    def items_changed(self, source, value: list) -> bool:
        """Did an item of the list ``value`` at ``source``, read item by item, hold
        another number of its type in an earlier entry? Then every item is a changing
        number (``changed_tuples``), as ``note_tuple`` makes a tuple's: a fresh list of
        rewards each call, whose returns a loop computes backwards, changes
        ``rewards[0]`` at the second call and ``rewards[1]`` at the third; one item at a
        time, each would cost a recompile of its own.

            >>> policy.previous_ints = {ItemSource(L, 0): {0.0}, ItemSource(L, 1): {1.0}}
            >>> policy.items_changed(L, [0.5, 1.0])
            True
        """
        from dynamo.guards import ItemSource

        if self.mode is False and not (self.static_shape_floats or self.static_shape_ints):
            return False
        return any(type(v) is type(value[i]) and v != value[i]
                   for i in range(len(value)) if type(value[i]) in (int, float)
                   for v in self.previous_ints.get(ItemSource(source, i), ()))

    def note_tuple(self, source, value: tuple) -> None:
        """A tuple of numbers is wrapped item by item (its length is part of its type);
        once any item differs from an earlier entry's (ids ``(2, 2, 2)``, then ``(2, 2,
        3)``), every item is a changing number, not just the one that changed first:
        otherwise ``(2, 3, 2)`` next would miss both entries and make a third."""
        if self.is_dynamic_sequence(source, value):
            self.changed_tuples.add(source)

    def is_dynamic_sequence(self, source, value: list | tuple) -> bool:
        """A list or tuple of Python ints is array data with a symbolic length (see
        ``builder``) once an earlier entry guarded another length or other items at its
        source (a token list that grows, a fresh list of ids each call), unless a trace
        had to pin its length."""
        from dynamo.guards import AsArraySource, ItemSource, ShapeSource

        if self.mode is False or ShapeSource(AsArraySource(source), 0) in self.static:
            return False
        if self.mode is True:
            return True
        if any(n != len(value) for n in self.previous_lengths.get(source, ())):
            return True
        return any(v != value[i] for i in range(len(value))
                   for v in self.previous_ints.get(ItemSource(source, i), ()))

    def is_changing_length(self, source, value: list) -> bool:
        """A list's length is a changing int (``len(memory) < capacity`` guards the
        comparison, not the length) once an earlier entry guarded another length at its
        source, unless a trace had to pin it."""
        from dynamo.guards import FormSource

        if self.mode is False or FormSource(source, "len({})") in self.static:
            return False
        return any(n != len(value) for n in self.previous_lengths.get(source, ()))

    def dims(self, source, value) -> list[int]:
        from dynamo.guards import ShapeSource

        if self.mode is False:
            return []
        ndim = value.ndim
        if self.mode is True:
            dims = set(range(ndim))
        else:
            dims = set(marked_dims(value))
            for spec in self.previous.get(source, ()):
                if spec.cls is type(value) and spec.dtype == value.dtype and \
                        len(spec.shape) == ndim:
                    dims |= {d for d, want in enumerate(spec.shape)
                             if want is None or want != value.shape[d]}
        return sorted(d for d in dims if ShapeSource(source, d) not in self.static)

    def symbol_for(self, dim_source) -> str:
        """The symbol of a dynamic size or int, by its source (``s0``, ``s1``, ...)."""
        if dim_source not in self._names:
            self._names[dim_source] = f"s{len(self._names)}"
        return self._names[dim_source]

    def new_trace(self) -> None:
        self._names = {}

    def pinned_for_static_backend(self, env) -> bool:
        """For a backend of static shapes (``static_shape_ints``): make the changing ints
        that the finished trace ``env`` pinned (needed as a size or a plain int) static,
        and say whether one was new, so that the trace starts over with it a constant.
        Such a backend then never gets an int input in a shape's place (``np.ones(s0)``
        with ``s0`` guarded ``== 2``); one used only in arithmetic stays an input.

            >>> policy.pinned_for_static_backend(output.shape_env)   # np.zeros(t)
            True        # the next attempt reads L['t'] as a constant (issue #16)
        """
        trace = env.trace
        if not self.static_shape_ints or trace is None:
            return False
        pinned = {env.symbols[n] for n in env.pinned_symbols() & trace.numbers.keys()}
        new = pinned - self.static
        self.static |= new
        return bool(new)
