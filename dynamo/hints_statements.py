"""The hint table's last part: Python errors the translator knows exactly, statements
(raise, except, with, import, class, opcodes it lacks), globals and closures,
attributes and items, and operators on values of other kinds.

``dynamo/hints.py`` joins the parts, in order, into its ``TABLE``: the first entry
whose pattern is found in a break's reason wins, so within a part too specific
entries come before general ones.

Example::

    >>> import re
    >>> next(a for a in STATEMENTS if re.search(a.pattern, 'raise statement')).hint[:16]
    'raising is exact'
"""

from __future__ import annotations

from .advice import ACCEPT, OUTSIDE, PY_ERROR, UNTRACED_OBJECT, Advice

# This module imports nothing from dynamo but advice.py: dynamo.exc reads the table.

STATEMENTS: tuple[Advice, ...] = (
    # ---------------------------------------------------------------- Python errors (exact)
    Advice(r"missing dict key|^dict\.pop of a missing key|^del of a missing dict key|"
           r"^popitem of an empty dict|^set\.remove of a missing",
           PY_ERROR, "check `key in d` first, or use d.get(key, default), "
           "d.pop(key, default), set.discard"),
    Advice(r"exhausted iterator", PY_ERROR, "pass a default: next(it, default)"),
    Advice(r"^next\(\) of a non-iterator", PY_ERROR, "call iter(obj) first"),
    Advice(r"^next\(\) of an? .+ object \(not traced\)",   # variables/builtin_call_breaks.py
           "The iterator was made before this call (kept in an attribute or passed in); "
           "only advancing it reads its next item, which runs its own Python code, so "
           "next() runs as Python at a break.",
           "keep the state the iterator holds as a number (a step counter, self.t += 1, "
           "and compute the item from it: lr = 0.1 * 0.9 ** self.t), or call next() "
           "before the compiled call and pass the item in, or accept the graph break"),
    Advice(r"^index\(\) of a value that is not there", PY_ERROR,
           "check `v in seq` before seq.index(v)"),
    Advice(r"^pop from an empty list|^IndexError: pop from", PY_ERROR,
           "check that the list is not empty"),
    Advice(r"^(ValueError: )?unpacking .* values into|^not enough values to unpack", PY_ERROR,
           "make the number of targets match the number of values"),
    Advice(r"^reduce\(\) of an empty sequence", PY_ERROR,
           "pass an initial value: functools.reduce(f, seq, initial)"),
    Advice(r"\(\) of an empty sequence", PY_ERROR, "pass default=..., or check that the "
           "sequence is not empty"),
    Advice(r"^len\(\) of a 0-d array", PY_ERROR, "use x.size or x.ndim"),
    Advice(r"changed size during iteration|changed during iteration", PY_ERROR,
           "iterate over a copy (list(d)) while changing the container"),
    Advice(r"^zip\(strict=True\) of unequal lengths", PY_ERROR,
           "make the sequences the same length"),
    Advice(r"referenced before assignment|is not defined \(NameError\)", PY_ERROR,
           "assign the variable on every path before this line"),
    Advice(r"got too many positional arguments|got multiple values for|got an unexpected "
           r"keyword|missing argument|missing keyword argument|^keywords must be strings|"
           r"^keyword argument repeated|with the wrong number of arguments|"
           r"with a bad argument|with these arguments \(raises TypeError\)|"
           r"with keywords \(TypeError\)|\(TypeError unless a str\)|"
           r"positional arguments \(it takes at most",
           PY_ERROR, "fix the call's arguments to match the function's signature"),
    # ---------------------------------------------------------------- statements
    Advice(r"^raise statement",
           "The exception is raised by the program itself, eagerly.",
           "raising is exact; to keep the work before it in one graph, check inputs at the "
           "start of the function, before the array work"),
    Advice(r"raised and not caught in the function$|^bare raise outside a handler|"
           r"^re-raise of |^raise of |of a builtin that calls the program's code$",
           "An exception that leaves the compiled function, or one the translator does not "
           "model, is raised by the program itself, eagerly, so its traceback is Python's.",
           "raising is exact; catch it inside the function, or raise an exception built "
           "from a builtin class (or a subclass without __init__) to keep one graph"),
    Advice(r"^the exception being handled outside the compiled function",
           "sys.exc_info(), sys.exception() and the __context__ there depend on what the "
           "caller is handling, which the trace does not know.",
           "read them inside an except block of the compiled function, " + ACCEPT),
    Advice(r"^except clause (of|for) ",
           "Which exceptions the clause catches is only known when the program runs.",
           "name the exception classes directly (except ValueError, except (A, B)), "
           + ACCEPT),
    Advice(r" that Python raises here$",
           "The translator knows which exception the operation raises, not its exact "
           "message; the whole try statement runs eagerly.",
           "catch it without reading its message (except KeyError: ...), or test first "
           "(if k in d), " + ACCEPT),
    Advice(r"raised and caught in the trace is used after it",
           "A raised exception carries a traceback and a context that the generated code "
           "cannot rebuild; the frame runs eagerly.",
           "keep the exception inside its except block (read e.args there), " + ACCEPT),
    Advice(r"^exception handler",
           "A break inside try/except runs the whole block eagerly, so that handlers see "
           "exactly what plain Python raises.",
           "move the try/except out of the compiled function (around the call), " + ACCEPT),
    Advice(r"^with block",
           "Context managers other than np.errstate run eagerly.",
           "enter the context manager around the call of the compiled function, or use "
           "np.errstate for floating-point modes"),
    Advice(r"^import inside the traced function",
           "An import statement runs module code.", "import at module level"),
    Advice(r"^class definition inside the traced function",
           "Creating a class runs its body and metaclass.", "define the class at module "
           "level"),
    Advice(r"^function attribute flag",
           "The translator cannot build a function with these extras (annotations, "
           "keyword defaults).", "define the function at module level and call it"),
    Advice(r"^opcode .* is not supported",
           "The translator has no handler for this bytecode instruction.",
           "rewrite the statement in a simpler form, " + ACCEPT + "; please report it"),
    Advice(r"^intrinsic ",
           "The translator has no handler for this interpreter intrinsic.",
           "rewrite the statement in a simpler form (e.g. without * unpacking into a "
           "call), " + ACCEPT),
    Advice(r"^cannot resume after ",
           "The frame cannot continue in a resume function after this instruction.",
           "move the statement into a helper function, " + ACCEPT),
    Advice(r"^LOAD_NAME",
           "Module and class bodies are not compiled.", "put the code in a function"),
    Advice(r"^del of a closure variable",
           "Deleting a variable shared with an inner function is not traced.",
           "rebind it (x = None) instead of del"),
    Advice(r"^global .* of a function with private globals|^global write from an inlined",
           "The function's globals are not the module's the trace guards.",
           "return the value and assign the global in the caller, or pass state as an "
           "argument"),
    Advice(r"^cell .* unknown to the translator|^closure of a function with no source|"
           r"^default argument of a function with no source",
           "The translator cannot read this function's closure or defaults back after "
           "the graph.", "pass the value as an argument instead of capturing it"),
    Advice(r"is not an entry of the module's namespace",
           "The value is computed by the module's __getattr__, so a change to it could "
           "not be guarded.", "read it into a variable before the compiled call and pass "
           "it as an argument"),
    # ---------------------------------------------------------------- attributes and items
    Advice(r"^attribute .* of a (nested )?function",
           "The translator reads only a function's standard attributes (__name__, "
           "__doc__, ...).", "store the value elsewhere (a module constant or an argument)"),
    Advice(r"^assignment to function attribute|set to .* \(TypeError",
           "Writing a function attribute is not replayed after the graph.",
           "keep the value in a module variable or an object attribute"),
    Advice(r"__getattr__ for|__getattribute__ for|^descriptor .* for attribute|"
           r"^assignment through descriptor|defines __setattr__",
           "The attribute is computed by Python code of the class (__getattr__, a "
           "descriptor, __setattr__), which the trace does not follow.",
           "store the value in a plain attribute, or read it before the compiled call and "
           "pass it as an argument"),
    Advice(r"read after the trace wrote a descriptor|read through an instance after the "
           r"trace wrote|^a class's __dict__ read after the trace wrote",
           "The trace's write to the class attribute is replayed after the graph; this "
           "read needs Python's own lookup of the written value (a function binds to the "
           "instance, a descriptor runs, the class's mapping shows the write).",
           "read what you need before writing the class attribute, or keep plain values "
           "(numbers, arrays) in class attributes the compiled code writes"),
    Advice(r"read through a subclass of a class the trace wrote it into",
           "The trace's write to the class attribute is replayed after the graph; a read "
           "through a subclass must be guarded that no class between them defines the "
           "name, and this subclass has no source (it was made in the trace) to guard.",
           "read the attribute through the class the compiled code writes "
           "(Base.n, not Sub.n), or write it through the subclass"),
    Advice(r"deque changed while iterated|^an iterator of a deque that changed",
           PY_ERROR, "iterate over a copy (for v in list(d)) when the loop changes the deque"),
    Advice(r"of an itertools iterator is not a constant",
           "The number of items an itertools iterator makes (`r`, `repeat`) is a value "
           "the trace does not know.",
           "pass `r`/`repeat` as a Python int the function does not compute from data, or "
           "build the index arrays with np.indices / np.triu_indices"),
    Advice(r"^deque\.",
           "The translator models a deque's append, appendleft, extend, extendleft, pop, "
           "popleft and clear (with their usual arguments), len(), truth, iteration, "
           "an int index and maxlen; not this method or these arguments.",
           "use those methods, or " + OUTSIDE),
    Advice(r"(set|frozenset) from outside the trace|^frozenset\.|"
           r"of one from outside the trace$",
           "A set kept between calls is traced by the elements the call touches: add, "
           "discard, remove, update and |= of a list or a set made in the call, clear, "
           "`k in s`, len() and truth; not iterating it, sorting it, copying it, "
           "operators that make a new set, nor an element a guard cannot spell "
           "(docs/dynamic_shapes.md, unread_sets).",
           "keep the set's reads to membership and len(), or accept the graph break "
           "(the code stays correct)"),
    Advice(r"^a dict from outside the trace iterated past its first key",
           "A dict kept between calls is traced by the keys the call touches, and "
           "next(iter(d)) by its first key at the start (an LRU's eviction); changed "
           "by the call before its next key is taken, Python raises RuntimeError or "
           "iterates in an order its hash table decides: that runs for real.",
           "take the first key before changing the dict (del d[next(iter(d))]), or "
           "accept the graph break (the code stays correct)"),
    Advice(r"^an OrderedDict from outside the trace|^OrderedDict\.move_to_end",
           "An OrderedDict kept between calls is traced by the keys the call touches "
           "(in, [], get, setdefault, pop, writes, move_to_end of a key known present, "
           "len()); its order (iteration, popitem, keys()) is not known to the trace.",
           "accept the graph break at the read of its order (an LRU's popitem runs "
           "there), or keep the order in a structure the call does not read whole"),
    Advice(r"^an object and its own __dict__ under two names",
           "The object and its instance dict reach the trace as two inputs (vars(o) "
           "kept over a graph break, or passed beside o), and one of them is written: "
           "the trace cannot keep a write through one seen through the other.",
           "write the attributes through the object (o.a = v) and read them through it, "
           "or accept the graph break"),
    Advice(r"^a module's globals dict as an input",
           "A module's namespace (globals(), vars(module)) reaches the trace as a dict "
           "or as an object's __dict__, beside the globals the trace reads and writes: "
           "the trace cannot keep a write through one seen through the other.",
           "pass a plain dict, or read and write the globals by name"),
    Advice(r"^two objects that share one __dict__ under two names",
           "Two objects whose instance dict is one dict (p.__dict__ = o.__dict__) reach "
           "the trace as two inputs, and one of them is written: the trace cannot keep "
           "a write through one seen through the other.",
           "give each object its own __dict__, or accept the graph break"),
    Advice(r"^assignment to .* object without __dict__|^attribute assignment on |"
           r"^del of an attribute",
           "The translator cannot replay this attribute change after the graph.",
           "keep the state in a plain Python object's attributes, or return the value "
           "and assign it after the compiled call"),
    Advice(r"^dunder attribute .* of a constant|^attribute .* of |^library value of type",
           "The translator cannot read this attribute from what it knows about the "
           "object.", "read the attribute before the compiled call and pass it as an "
           "argument"),
    Advice(r"^subscript of |^item assignment on |^del of an item of |^[\w ]+ index ",
           "The translator cannot index this object.",
           "index lists, tuples, dicts and arrays; for other objects " + OUTSIDE),
    Advice(r"^in-place matmul",
           "`a @= b` writes into `a` through a path NumPy restricts.",
           "write a = a @ b (a new array) instead of a @= b"),
    Advice(r"^operator .* on NumPy scalars",
           "NumPy raises or warns on these scalars; the operation runs eagerly so it does "
           "so for real.", "check the values (overflow, division by zero)"),
    Advice(r"^operator |^unary |^identity of |^`in` ",
           "The translator cannot apply this operator to these values.",
           "use arrays or Python numbers as operands, " + ACCEPT),
    Advice(r"^\*\* of .* \(not a dict\)",
           "`**` unpacking calls the object's keys() and __getitem__.",
           "pass a dict: f(**dict(obj))"),
    Advice(r"^list\.|^dict\.|^set\.|^tuple\.|\.isdisjoint of non-constants|"
           r"\._replace of unknown fields",
           "The translator does not model this container method with these arguments.",
           "use a plain loop or list/dict operations, " + ACCEPT),
    Advice(r"^a text picked from a list by array data",   # translator/picked_items.py
           "names[i] with i from array data is picked by the glue once the graph has run; "
           "this use needs the text while tracing.",
           "use the index itself (count with np.bincount(idx), key by int), or map to "
           "names after the compiled call, or accept the graph break"),
    Advice(r"^(int|float|bool)\(\) of an array used as a dict key or set element",
           "The key is array data converted to Python (int(v) of an element), known "
           "only when the graph has run, and which entry it adds or changes depends "
           "on it.",
           "count or group by value with array ops: vals, counts = np.unique(x, "
           "return_counts=True) (dict(zip(vals.tolist(), counts.tolist())) where a dict "
           "is needed), np.bincount(x) for small non-negative ints; else accept the "
           "graph break (the loop runs as Python)"),
    Advice(r"used as a dict key or set element",
           "Hashing the key needs its value (or runs the class's __hash__/__eq__).",
           "use ints or strings as keys"),
    Advice(r"^defaultdict\(\) of these arguments",
           "Python checks that the factory is callable or None (TypeError otherwise); "
           "the translator tells that only for functions, classes and builtins.",
           "pass a function, a class or None as the factory, " + ACCEPT),
    Advice(r"^\| of a defaultdict",
           "Python's | makes a new defaultdict (with the factory of the defaultdict "
           "operand); the translator builds only plain dicts this way.",
           "use d2 = d.copy(); d2.update(other), " + ACCEPT),
    Advice(r"^a dict with non-constant keys|^a defaultdict with non-constant keys|"
           r"^a dict key that generated code cannot write",
           "The graph's glue code must write the keys back as Python source.",
           "use ints or strings as dict keys"),
    Advice(r"too big to trace",
           "Each item of a Python container is traced separately.",
           "use an array instead of a large Python container"),
    # ---------------------------------------------------------------- values
    Advice(r"^array \S+ is not a Python constant",
           "A number read from an array (``range(bins[m - 1], bins[m])``) is array data: "
           "the graph computes it, and the trace cannot use it as a Python value (a "
           "range() bound, a size, a key) while tracing.",
           "compute such bounds and sizes from Python numbers (len(x), x.shape, int and "
           "math arithmetic) rather than from array elements, or write the loop over "
           "them as array ops (masks, np.where, fancy indexing); " + ACCEPT),
    Advice(r"^values of type .* are not traced|^value of type .* is not a constant|"
           r"^type\(\) of |^truth value of |is not a Python constant|"
           r"as an argument of an array op|^ndarray subclass|^NumPy scalar ",
           UNTRACED_OBJECT,
           "pass arrays (np.asarray for subclasses), numbers and containers of them; "
           "keep other objects outside the compiled function"),
    Advice(r"^an array with no source",
           "A constant array made outside the trace has no place the glue can read it "
           "from.", "pass the array as an argument, or make it inside the function"),
    Advice(r"^cannot rebuild |^cannot write back a mutated |cannot be rebuilt as a value",
           "After the graph, the glue code must rebuild this value (or write its changes "
           "back) as Python, which it cannot do for this object.",
           "keep such objects out of the code around a graph break (create them after "
           "it), " + ACCEPT),
    Advice(r" with these arguments$",
           "The translator cannot call this with these arguments.", OUTSIDE),
)
