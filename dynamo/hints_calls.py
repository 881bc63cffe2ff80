"""The hint table's part for calls: library and C code, builtins of non-constants,
``super()``, ``isinstance``, inlining too deep, generators and iterators that escape,
objects the program builds and drops.

``dynamo/hints.py`` joins the parts, in order, into its ``TABLE``: the first entry
whose pattern is found in a break's reason wins, so within a part too specific
entries come before general ones.

Example::

    >>> import re
    >>> next(a for a in CALLS if re.search(a.pattern, 'call to json.dumps() from json')).hint[:29]
    'move the call out of hot code'
"""

from __future__ import annotations

from .advice import ACCEPT, OUTSIDE, Advice

# This module imports nothing from dynamo but advice.py: dynamo.exc reads the table.

CALLS: tuple[Advice, ...] = (
    # ---------------------------------------------------------------- calls
    Advice(r"^call to .+\(\) from ",
           "Library code (the standard library, installed packages) is not traced; it "
           "runs eagerly.", "move the call out of hot code (call it before the compiled "
           "function and pass the result in), " + ACCEPT),
    Advice(r"^call to .+\(\) \(implemented in C\)",
           "The function is implemented in C, so the translator cannot look inside it.",
           "if it computes on arrays, register it with dynamo.register_op; otherwise "
           + OUTSIDE),
    Advice(r"^call to .+\(\) with these arguments",
           "The translator cannot see inside this builtin, or cannot call it with these "
           "arguments.", OUTSIDE + ", " + ACCEPT),
    Advice(r"^sorted\(\) of non-constants",
           "Sorting compares the values, which the trace knows only as symbols (or calls "
           "the key function for each item).",
           "sort arrays with np.sort/np.argsort (items sorted by a key: keep the keys in an "
           "array, order = np.argsort(keys, kind=\"stable\"), stable as sorted() is), or "
           "sort the Python values before or after the compiled call"),
    Advice(r"^(subscript of|iteration over a|item assignment on|del of an item of) "
           r"Counter object|^Counter\.__getattribute__ for|^call to Counter\.\w+\(\)",
           "collections.Counter is a dict whose methods (update, most_common, missing "
           "keys read as 0) are Python code of the standard library, which the trace does "
           "not follow.",
           "count into a plain dict (d[k] = d.get(k, 0) + 1), or with np.unique(x, "
           "return_counts=True) / np.bincount on an array of the keys; or accept the graph "
           "break"),
    Advice(r"^list\.sort\(\) (with key=|of values known only|with a reverse=)",
           "The trace does not call a key function (user code, once per item) while "
           "sorting, nor sort items known only when the program runs (their values "
           "decide the order).",
           "keep the sort keys in an array and use order = np.argsort(keys, "
           "kind=\"stable\") (stable, as list.sort is), then index with order; or sort "
           "after the compiled call, or accept the graph break"),
    Advice(r"^math\.prod of non-constants",
           "math.prod multiplies Python numbers that are only known when the program runs.",
           "use np.prod on an array of the values"),
    Advice(r"^math\.\w+\(\) of array data",
           "The math function returns a Python float of a value only the data decides and "
           "raises for some values; the graph cannot check the value first here.",
           "use the NumPy function (np.sqrt(x), a NumPy scalar of the same value), or "
           + ACCEPT),
    Advice(r"^deque\(\) with a maxlen that is not",
           "The deque's length limit decides which items it keeps.",
           "pass maxlen as a constant, or make the deque before the compiled call"),
    Advice(r"^frozenset\(\) of non-constants",
           "Hashing the items needs their values.", "build the set from constants, or "
           "before the compiled call"),
    Advice(r"^iter\(callable, sentinel\)",
           "The two-argument iter() calls a function until it returns the sentinel.",
           "write it as a while loop"),
    Advice(r"^super\(\) outside a method|^super\(\)\.",
           "super() here needs the class and instance, which the trace does not know.",
           "call the base class method explicitly (Base.method(self, ...))"),
    Advice(r"^type\(\) with three arguments",
           "type(name, bases, dict) creates a class.", "create the class at module level"),
    Advice(r"^isinstance of an object whose class defines __class__ or __getattribute__",
           "Python reads the object's __class__ when its type does not decide, and the "
           "class's own __class__ or __getattribute__ answers (it may run code).",
           "test type(o) instead, or do the test before the compiled call"),
    Advice(r"read through its metaclass",
           "A class attribute the program's metaclass answers (a property, its "
           "__getattr__ or __getattribute__) runs the metaclass's code on every read.",
           "read it once before the compiled call, or keep it a plain class attribute"),
    Advice(r"read through its descriptor .*\.__get__$",
           "A class attribute that is the program's own descriptor runs its __get__ on "
           "every read through the class, which the trace would not repeat.",
           "read it once before the compiled call, or read it through an instance"),
    Advice(r"^module attribute .* read through ",
           "The module answers this name with code of the program's (its __getattr__ "
           "or a ModuleType subclass), which runs on every read.",
           "read it once before the compiled call, or set it as a plain module global"),
    Advice(r"^isinstance/issubclass against",
           "The class's metaclass may run Python code for isinstance.",
           "test against plain classes, or do the test before the compiled call"),
    Advice(r"^inlining deeper than config\.inline_depth_limit",
           "The translator inlines every call it follows; deep recursion would never end.",
           "rewrite the recursion as a loop, or raise dynamo.config.inline_depth_limit"),
    Advice(r"^inlining .* would come near sys\.getrecursionlimit\(\)",
           "Each inlined call costs the translator several Python frames; this one would "
           "come near the recursion limit, so it runs as plain Python.",
           "rewrite the recursion as a loop, or compile a function lower in the call chain"),
    Advice(r"^a value nested more than .* reads deep",
           "Each value read from an input (items of items, attributes of attributes) is "
           "guarded on its path; past this depth the paths would exhaust the translator's "
           "recursion, so the rest of the frame runs as plain Python.",
           "pass the deeply nested value itself as an argument, or flatten the structure "
           "(a list instead of a chain of nested tuples or linked nodes)"),
    Advice(r"^a tuple of .* items \(more than .*, not all Python numbers",
           "A tuple of more than 1,000 items is not traced item by item (each item would "
           "be an input with its own guards); only one of Python numbers, strings or None "
           "is taken whole, as one guarded constant.",
           "pass the data as a NumPy array (one input, any length), or as a tuple of "
           "numbers"),
    Advice(r"^the items of a (list|deque) of .* items \(more than",
           "A list or deque of more than 1,000 items is not traced item by item (each item "
           "would be an input with its own guards, and it can be written in place).",
           "pass the data as a NumPy array (one input, any length), or as a tuple of "
           "numbers"),
    Advice(r"^an object of .*, which defines __getattribute__",
           "Its class runs Python code for every attribute read (even __class__), which "
           "the program would see run more often under the trace.",
           "pass the values the function needs as arguments instead of the object"),
    Advice(r" of constants warns \(",
           "Python warns each time this expression runs; folded while tracing, it would "
           "warn once, so it runs as plain Python.",
           "write the expression without the deprecated form (e.g. `not b` for `~b` on "
           "a bool)"),
    Advice(r"may warn at Python level .* inside a try block",
           "If an op of the graph raised, the handler would see it only through a rerun "
           "of the frame, which would repeat this warning; the block runs eagerly.",
           "move the op that may warn (a mean of a possibly empty slice, ...) out of the "
           "try block, or check the data before it"),
    Advice(r"^async functions are not traced|^generators and coroutines are not compiled",
           "Their frames suspend and resume, which a graph cannot do.",
           "compile the function that calls the generator or awaits the coroutine "
           "instead; generators called from compiled code are inlined"),
    Advice(r"^a generator with a yield inside try/finally or with",
           "Closing the generator early must run its finally/with exit, which the trace "
           "cannot do.", "move the try/finally or with out of the generator, or build a "
           "list instead of yielding"),
    Advice(r"^a generator escapes the traced region",
           "A generator that lives on after the graph would have to be rebuilt half-way "
           "through.", "consume it inside the function (list(gen)), or create it outside "
           "the compiled function"),
    Advice(r"^rebuilding an? .* that holds itself",
           "A value the trace made is rebuilt after the graph from its parts, and one of "
           "its parts is the value itself (through a kind that cannot be made empty "
           "first and filled after); the frame runs as it is.",
           "keep the self-reference in a list, dict or object, or store it after the "
           "compiled call"),
    Advice(r"^a list that holds itself as an op's argument",
           "NumPy walks a list argument item by item; this one is among its own items, "
           "so the call runs when the program runs (NumPy decides what it does).",
           "pass an array or a list without the self-reference"),
    Advice(r"^comparing containers that hold themselves",
           "Comparing two containers that each hold themselves recurses without end in "
           "Python too (RecursionError); the comparison runs when the program runs.",
           "compare the parts that do not refer back (or compare with `is`)"),
    Advice(r"^(an iterator .* escapes the traced region)",
           "The iterator's position would have to be rebuilt after the graph.",
           "finish iterating before the break, or iterate over a list(...) copy"),
    Advice(r"^iteration over a .* \(not traced\)|^iteration over |^iter\(\) of a .* with its "
           r"own __iter__|^reversed\(\) of ",
           "The translator iterates lists, tuples, dicts, ranges, arrays and generators; "
           "this object iterates with its own Python code.",
           "iterate over a list or tuple of the items (list(obj) before the compiled call)"),
    Advice(r"^creating an instance of ",
           "Objects are built in the trace only where object.__new__ builds them and "
           "__init__ is the program's own code; this class customizes creation, "
           "attribute access or finalization, which runs code the trace does not model.",
           "create the object before the compiled function and pass it as an argument"),
    Advice(r"\.__init__ returns a value",
           "__init__ must return None; Python raises TypeError here.",
           "return nothing from __init__"),
    Advice(r"\(\) of an? .+ object without its own ",
           "object's own __repr__ names the object's address, which only the program run "
           "knows.", "define __repr__ (or __str__) on the class, or format the object "
           "after the compiled call"),
    Advice(r" returns .+, not a str known while tracing",
           "The method's result is not a plain str made from values known while tracing "
           "(or Python would raise TypeError).",
           "build the text from constants and attributes that are not arrays, "
           "or format it after the compiled call"),
    Advice(r"^np\.ix_ ",
           "np.ix_ is captured for non-empty 1-d integer index arrays (reshaped views); "
           "a mask becomes its nonzero indices, whose number only the data knows.",
           "pass integer index arrays (np.flatnonzero(mask) for a mask), " + ACCEPT),
    Advice(r"^the last reference of an? .+ object, dropped here",
           "Freeing this object runs its __del__ or weakref callbacks, which must happen at "
           "this point of the program: the frame deletes or rebinds it for real.",
           "del or rebind it outside the hot code, " + ACCEPT),
    Advice(r"^an? .+ object dropped from ",
           "Overwriting or deleting this attribute, dict entry or list item frees an "
           "object whose __del__ or weakref callbacks must run at this point of the "
           "program: the frame makes the store for real.",
           "clear it outside the hot code, " + ACCEPT),
    Advice(r"\[\.\.\.\] runs the program's ",
           "Indexing this object runs its class's own __getitem__/__class_getitem__, "
           "which may have effects.", "index a plain list, tuple, dict or array, or read "
           "the item before the compiled call"),
    Advice(r"^call of a _lru_cache_wrapper object",
           "A functools.lru_cache/cache helper runs in Python here, on purpose: its hits, "
           "misses, eviction and cached values stay exactly eager's; a number it returns "
           "is a graph input of the rest of the frame, not a constant "
           "(dynamo/cached_call_results.py).",
           "nothing to change; to drop the break, call the helper before the compiled "
           "function and pass its result as an argument"),
    Advice(r"^call of ",
           "The translator cannot call this object.",
           "call a plain Python function, a NumPy function or a registered op "
           "(dynamo.register_op); otherwise " + OUTSIDE),
    Advice(r" returned a ",
           "The function's result is not a value the trace can keep.",
           "return arrays, numbers or containers of them"),
    Advice(r"\(\) of NumPy scalars: ",
           "NumPy raises or warns on these scalars; the call runs eagerly so it does so "
           "for real.", "check the scalar values (overflow, division by zero)"),
)
