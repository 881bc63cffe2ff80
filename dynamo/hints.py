"""What a user can do about a graph break: one table from break reasons to advice.

Every ``Unsupported`` says *what* could not be captured (its ``reason``). Most raise
sites say no more, so this table adds the rest of the message a user reads in the
``graph_breaks`` log, in ``dynamo.explain`` and in a ``fullgraph=True`` error: *why*
the translator cannot capture it (``explanation``) and what the user can do about it
(``hint``). A raise site that gives its own explanation or hint keeps it; the table
only fills in what is missing (see ``dynamo.exc.Unsupported``).

Entries are tried in order; the first whose pattern is found in the reason wins, so
specific entries come before general ones. Reasons that are wholly data (a Python
error's own message) are matched by their ``cause`` instead (``BY_CAUSE``).
``tests/breaks/test_hints.py`` checks that every ``Unsupported(...)`` raised in
``dynamo/`` reaches an entry here, never the last-resort ``DEFAULT``.

Example::

    >>> advice_for("call to print()", "print").hint[:30]
    'move the print out of the loop'
    >>> advice_for("sorted() of non-constants or with key=", "").hint[:20]
    'sort arrays with np.'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# This module imports nothing from dynamo: dynamo.exc reads it, and everything reads exc.


@dataclass(frozen=True)
class Advice:
    """``pattern``: a regular expression searched in the break's reason."""

    pattern: str
    explanation: str
    hint: str


_OUTSIDE = "compute it before calling the compiled function and pass the result as an argument"
_ACCEPT = "or accept the graph break (the code stays correct; it only runs as more graphs)"
_PY_ERROR = ("Plain Python raises this exception here; the instruction runs eagerly at a "
             "graph break so the program sees the same exception at the same line.")
_UNTRACED_OBJECT = ("The translator models arrays, numbers, strings, containers of them and "
                    "plain Python objects; this value or operation is none of those.")

# Specific entries first: the first match wins.
TABLE: tuple[Advice, ...] = (
    # ---------------------------------------------------------------- Python itself
    Advice(r"^CPython .* is not supported",
           "Each CPython version has its own bytecode; dynamo translates only the versions "
           "it knows.", "use a supported CPython to compile; on this one the code runs "
           "uncompiled"),
    # ---------------------------------------------------------------- output, logging
    Advice(r"^sum\(\) of floats where one changes",
           "From 3.12 the builtin sum() adds floats with compensated rounding; the graph "
           "adds one at a time, which can differ in the last bit, so Python adds them.",
           "use math.fsum or np.sum on an array of the values if the last bit does not "
           "matter to you, " + _ACCEPT),
    Advice(r"^call to print\(\)",
           "print() writes output, which must happen when the program runs, in order.",
           "move the print out of the loop or the hot function (print results after the "
           "compiled call), " + _ACCEPT),
    Advice(r"^print\(\) in a graph that cannot be rerun",
           "A print the glue replays after the graph needs a graph that can run again "
           "when it warns or raises; this one cannot, so the frame runs eagerly.",
           "print after the compiled call, or set dynamo.config.defer_prints = False "
           "(the print is then a graph break)"),
    Advice(r"^call to Logger\.",
           "An enabled log call formats and writes a record when the program runs.",
           "raise the logger's level in production (disabled calls cost no break), or log "
           "after the compiled call"),
    Advice(r"^Logger\.log\(\) with a level",
           "The level decides whether the call does anything, so it must be known.",
           "pass a constant level such as logging.INFO"),
    Advice(r"^a call of .*\(\), which reads .* up",
           "Called at a graph break, a function reading frames above its caller would "
           "see dynamo's frames there; the whole frame runs uncompiled "
           "(docs/python_semantics.md, \"Readers reached otherwise than by name\").",
           "keep frame reads to one level (sys._getframe(1), stacklevel=2), or call the "
           "reader by a global name so it is seen before the call"),
    Advice(r"^it may call .*, which reads .* up, after a graph break",
           "The code after the break runs in a resume function or an island, frames "
           "dynamo calls; a function there reading frames above its caller would see "
           "dynamo's frames, so the whole frame runs uncompiled "
           "(docs/python_semantics.md, \"Readers after a break or in an island\").",
           "keep frame reads to one level (sys._getframe(1), stacklevel=2), or remove the "
           "graph break before the call (dynamo.explain names it)"),
    # ---------------------------------------------------------------- data-dependent control flow
    Advice(r"^a data check in a graph that cannot be rerun",
           "A check on array data stays in the graph only while the frame can run again "
           "from its start when the check fails: the graph may change nothing before it "
           "knows the check passed.",
           "do the checks before the writes, random draws and loops (or after them, past "
           "the graph break), or check the inputs before the call"),
    Advice(r"a check that raises on some data",
           "Whether the check passes depends on array data, which the trace does not know; "
           "the check runs as Python at the break, exactly.",
           "check the inputs before calling the compiled function (or drop the check from "
           "the hot code), or accept the graph break (the code after the check runs as "
           "another graph)"),
    Advice(r"^truth value of an array",
           "Which branch runs depends on array data, which the trace does not know.",
           "compute both branches with np.where(cond, a, b), " + _ACCEPT),
    Advice(r"compares array data",
           "The result depends on array values, known only when the graph runs.",
           "use np.maximum/np.minimum (or np.max/np.min) on arrays"),
    Advice(r"^`in` on an array compares data",
           "The answer depends on array values, known only when the graph runs.",
           "use np.any(x == v) (or np.isin) and keep the result as an array"),
    Advice(r"^comparison .* by .*\.__(eq|ne|lt|le|gt|ge)__",
           "The class defines its own comparison, which runs Python code the trace does "
           "not follow.", "compare plain fields (numbers, strings) instead, " + _ACCEPT),
    Advice(r"^comparison ",
           "The translator cannot decide this comparison from what the trace knows.",
           "compare arrays with np.equal/np.less (elementwise) or compare Python numbers, "
           + _ACCEPT),
    # ---------------------------------------------------------------- array data to Python
    Advice(r"^round\(\) of an array",
           "round() returns a Python number, which needs the array's value.",
           "use np.round(x, n)"),
    Advice(r"^f-string of a .* with a format spec or conversion",
           "An exception's text in an f-string is str() or repr() of it; a format spec, "
           "!a or the class's own __format__ runs code the translator does not model.",
           "format str(e) instead of e (f\"{str(e):>20}\"), " + _ACCEPT),
    Advice(r"of an array formats array data|^f-string of",
           "The text depends on array values, known only when the program runs.",
           "format the result after the compiled call, " + _ACCEPT),
    Advice(r"converts array data to Python|returns a Python value computed from array data",
           "A Python value made from array data is only known after the graph has run.",
           "keep the value as an array (x[0] instead of float(x[0]), np.where instead of "
           "an if), " + _ACCEPT),
    Advice(r"data-dependent output shape|returns residuals whose shape",
           "The result's shape depends on array values, which the trace does not know.",
           "keep shapes fixed: np.where(mask, x, 0) instead of x[mask], "
           "np.sum(x * mask) instead of x[mask].sum(), " + _ACCEPT),
    Advice(r"returns real or complex roots",
           "np.roots returns float64 roots when they are all real and complex ones "
           "otherwise, and drops leading zero coefficients: the data decides the result's "
           "dtype and length.",
           "call np.roots before or after the compiled function and pass the roots in, "
           + _ACCEPT),
    Advice(r"returns real or complex eigenvalues",
           "The result's dtype depends on the data, which the trace does not know.",
           "use np.linalg.eigh/eigvalsh for symmetric matrices, " + _ACCEPT),
    Advice(r"calls a Python function (once per|on index grids)",
           "NumPy calls the Python function itself, in a Python loop, and what it returns "
           "decides the result's values, dtype and shape; the trace does not follow it.",
           "write the function with whole-array operations (ufuncs, np.where, axis= "
           "arguments) and call it on the array directly, which is captured, "
           + _ACCEPT),
    Advice(r"returns a contraction plan",
           "The result is Python data (a list and a string), not arrays.",
           "compute the plan outside the compiled function and pass "
           "np.einsum(..., optimize=path)"),
    # ---------------------------------------------------------------- ops not in the registry
    Advice(r"is not in the op registry|^array method \.",
           "The function is not in dynamo's op registry, so the trace has no shape/dtype "
           "rule for it.",
           "register it with dynamo.register_op(fn, meta=...), use an equivalent NumPy "
           "function that is captured (see docs/ops.md), " + _ACCEPT),
    Advice(r"^array attribute \..* is not supported",
           "The translator knows only NumPy's array attributes.",
           "use the equivalent NumPy function, or dynamo.register_op"),
    Advice(r"^array attribute \.",
           "Memory layout (strides, flags, base, ctypes) is decided by the backend, not the "
           "trace.", "read the layout outside the compiled function, or use "
           "np.ascontiguousarray where you need a layout"),
    Advice(r"np\.poly1d",
           "np.poly1d is a Python polynomial object, not an array op: the translator does "
           "not model it (it drops leading zero coefficients by their values).",
           "evaluate with np.polyval(coeffs, x) on the coefficient array (captured), e.g. "
           "np.polyval(np.polyfit(x, y, 2), t), or pass p.coeffs in, not p"),
    Advice(r"^attribute .* of np\.|^attribute .* of numpy\.|^attribute .* of cupy\.",
           "Only a ufunc's reduce, accumulate, reduceat and outer methods are captured.",
           "call the ufunc itself, or one of its captured methods"),
    Advice(r"without size= returns a Python (scalar|float|int|bool)|"
           r"np\.random\.\w+\(\) returns a Python (float|int)",
           "One number drawn without size= is a Python float or int; a graph holds arrays, "
           "so the draw runs eagerly, at its place in the random stream.",
           "draw the numbers a loop needs at once before it (u = np.random.random(n), then "
           "u[i]), or pass size=1 and index the result, " + _ACCEPT),
    Advice(r"^np\.random\.seed\(\)",
           "Seeding with anything but an int or None changes the global random state in "
           "ways the trace does not model.",
           "seed with an int, or use rng = np.random.default_rng(seed) and its methods"),
    Advice(r"\(\) of anything but an int or None$",     # default_rng, RandomState
           "One made from a seed sequence, a bit generator or a Generator is made eagerly, "
           "at its place in the program; one from an int or None is made by the graph.",
           "seed with an int (rng = np.random.default_rng(seed)), or make the object "
           "before the compiled call and pass it in, " + _ACCEPT),
    Advice(r"random state outside the registry|^.+\..+ is not in the op registry",
           "It uses or changes random state; it runs eagerly so the random stream stays "
           "in order.", "use np.random.default_rng(seed) and the Generator methods that are "
           "captured (random, normal, uniform, integers...), " + _ACCEPT),
    Advice(r"a slice bound is an array: the result's shape depends on its data",
           "A slice whose start or stop is read from an array (v[p[0]:p[1]]) has a length "
           "the data decides; it is captured (an unbacked length) when each such bound is "
           "a 0-d integer array and the step is 1, not with another step or a float, "
           "boolean or n-d bound.",
           "pass the bounds in as Python ints, or keep the shape fixed with a mask: "
           "np.where((i >= lo) & (i < hi), v, 0) with i = np.arange(len(v)), "
           + _ACCEPT),
    Advice(r"is an array: the result's shape depends on its data",
           "A shape, size or count argument computed from array values (labels.max() + 1) "
           "is known only when the graph runs.",
           "pass the number in as a Python int (n_classes=...) or compute it before the "
           "compiled call, " + _ACCEPT),
    Advice(r"^(np|numpy|cupy)\.\S+: .*(shape depends on (the|its) data|from the data)",
           "The result's size depends on array values, known only when the graph runs.",
           "keep shapes static where you can (np.where(mask, x, 0) for x[mask], "
           "np.sum(x, where=mask) for x[mask].sum()), " + _ACCEPT),
    Advice(r"the rank of a vector or a number is a Python int",
           "For fewer than 2 dimensions NumPy returns int(not all(A == 0)), a Python int "
           "the data decides; a graph holds arrays.",
           "pass a matrix: np.linalg.matrix_rank(np.atleast_2d(v)) is the same count, as a "
           "NumPy int, and is captured, " + _ACCEPT),
    Advice(r"\(retstep=True\) returns the step",
           "The step is a constant only when start, stop, num and endpoint are Python "
           "numbers the trace knows; from arrays (or numbers that change between calls) "
           "it is a value of the data.",
           "compute the step yourself, dx = (stop - start) / (num - 1), or pass start and "
           "stop as Python numbers"),
    Advice(r"^(np|numpy|cupy)\.\S+: \w+(Error|Exception)",
           "The op's shape/dtype rule rejected these arguments; the call runs eagerly so "
           "NumPy itself decides (and raises if it must).",
           "check the arguments' shapes and dtypes (the eager call raises NumPy's own error "
           "if they are wrong)"),
    Advice(r" on constants makes a | of constants: ",
           "The call on constant arguments does not give a value the trace can keep as a "
           "constant.", _OUTSIDE),
    Advice(r"an op inside a try block, in a graph that cannot be rerun",
           "The except clause sees an error the graph raises only through a rerun of the "
           "frame, and this graph (a loop node whose body draws random numbers or reports "
           "floating-point conditions itself) cannot run again.",
           "move the try/except out of the compiled function, or the loop out of the "
           "function that holds the try block"),
    Advice(r"inside a try block after a write|after an array op inside a try block",
           "Inside a try block an exception must leave memory exactly as plain Python "
           "would; a graph cannot undo a write or a random draw.",
           "move the try/except out of the compiled function, or do the writes and random "
           "draws after the try block"),
    Advice(r"may raise after Python objects were changed",
           "If the op raised, the Python objects already changed could not be put back.",
           "do the Python mutations (appends, attribute writes) after the array work, or "
           "make sure the op cannot raise"),
    Advice(r"^a write into the dask array",
           "A dask array is read as chunks; writing into it is not captured.",
           "write into a NumPy copy (x = np.asarray(x)), or build a new dask array"),
    Advice(r"^a write into the read-only array",
           "Writing into a read-only array raises in plain NumPy.",
           "copy it first (x = x.copy()) or make it writeable"),
    Advice(r"^a dask array",
           "Dask arrays are traced only with NumPy chunks of known sizes, given as "
           "arguments.", "call x.compute_chunk_sizes() first, or pass NumPy chunks"),
    Advice(r"^dask arrays of Python objects|^arrays of Python objects",
           "Object arrays hold Python objects; their ops run Python code per element.",
           "use a numeric dtype, or keep object arrays outside the compiled function"),
    Advice(r"^one graph mixes NumPy and CuPy",
           "One graph runs on one library.", "move data between libraries outside the "
           "compiled code"),
    Advice(r"^`is` between an array and the result",
           "Whether the op returns its argument itself or a copy is decided by the backend.",
           "compare values (np.array_equal) or use np.shares_memory instead of `is`"),
    Advice(r"^np\.errstate\(\) with other arguments|^entering one np\.errstate|"
           r"^np\.errstate\.__exit__|^an entered np\.errstate",
           "Only `with np.errstate(...)` of constant modes, entered and left inside the "
           "function, is captured.",
           "write `with np.errstate(divide='ignore'):` with constant modes around the "
           "ops, inside the compiled function"),
    Advice(r"^graph larger than config\.max_graph_nodes",
           "Very large graphs take long to compile.",
           "raise dynamo.config.max_graph_nodes, or use a loop the translator turns into a "
           "loop node (docs/loops.md)"),
    Advice(r"^loop node: ",
           "The loop could not become one loop node; it is unrolled instead.",
           "see the `loops` log channel for the check that failed (docs/loops.md)"),
    Advice(r"^(a loop of .* exceeds|loop ran more than) config\.max_unroll",
           "Unrolling this loop would make a very large graph.",
           "raise dynamo.config.max_unroll, or vectorize the loop"),
    Advice(r"^a loop of .* would unroll into about .* ops on small arrays",
           "Unrolled, each op is the NumPy call the loop makes anyway, and compiling "
           "thousands of them costs seconds that arrays this small cannot win back.",
           "vectorize the loop: one array op over all its trips rather than one small op "
           "per trip"),
    Advice(r"^iteration over an array of \d+ rows",
           "Unrolling a loop over this many rows would make a very large graph.",
           "vectorize over the first axis (x.sum(axis=1) instead of a loop over rows), or "
           "raise dynamo.config.max_unroll"),
    Advice(r"^iteration over a 0-d array",
           "Iterating a 0-d array raises TypeError in plain NumPy.",
           "index it with x[()] or use x.item() outside the compiled function"),
    Advice(r"^array index ",
           "The translator cannot index an array with this value.",
           "index with ints, slices, arrays or tuples of them"),
    Advice(r"^array operator with ",
           "This operand of an array operator is not a value the trace can pass to NumPy.",
           "convert the operand to an array or a number first (np.asarray)"),
    # ---------------------------------------------------------------- calls
    Advice(r"^call to .+\(\) from ",
           "Library code (the standard library, installed packages) is not traced; it "
           "runs eagerly.", "move the call out of hot code (call it before the compiled "
           "function and pass the result in), " + _ACCEPT),
    Advice(r"^call to .+\(\) \(implemented in C\)",
           "The function is implemented in C, so the translator cannot look inside it.",
           "if it computes on arrays, register it with dynamo.register_op; otherwise "
           + _OUTSIDE),
    Advice(r"^call to .+\(\) with these arguments",
           "The translator cannot see inside this builtin, or cannot call it with these "
           "arguments.", _OUTSIDE + ", " + _ACCEPT),
    Advice(r"^sorted\(\) of non-constants",
           "Sorting compares the values, which the trace knows only as symbols (or calls "
           "the key function for each item).",
           "sort arrays with np.sort/np.argsort, or sort the Python values before the "
           "compiled call"),
    Advice(r"^math\.prod of non-constants",
           "math.prod multiplies Python numbers that are only known when the program runs.",
           "use np.prod on an array of the values"),
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
           "pass integer index arrays (np.flatnonzero(mask) for a mask), " + _ACCEPT),
    Advice(r"^the last reference of an? .+ object, dropped here",
           "Freeing this object runs its __del__ or weakref callbacks, which must happen at "
           "this point of the program: the frame deletes or rebinds it for real.",
           "del or rebind it outside the hot code, " + _ACCEPT),
    Advice(r"^an? .+ object dropped from ",
           "Overwriting or deleting this attribute, dict entry or list item frees an "
           "object whose __del__ or weakref callbacks must run at this point of the "
           "program: the frame makes the store for real.",
           "clear it outside the hot code, " + _ACCEPT),
    Advice(r"\[\.\.\.\] runs the program's ",
           "Indexing this object runs its class's own __getitem__/__class_getitem__, "
           "which may have effects.", "index a plain list, tuple, dict or array, or read "
           "the item before the compiled call"),
    Advice(r"^call of ",
           "The translator cannot call this object.",
           "call a plain Python function, a NumPy function or a registered op "
           "(dynamo.register_op); otherwise " + _OUTSIDE),
    Advice(r" returned a ",
           "The function's result is not a value the trace can keep.",
           "return arrays, numbers or containers of them"),
    Advice(r"\(\) of NumPy scalars: ",
           "NumPy raises or warns on these scalars; the call runs eagerly so it does so "
           "for real.", "check the scalar values (overflow, division by zero)"),
    # ---------------------------------------------------------------- Python errors (exact)
    Advice(r"missing dict key|^dict\.pop of a missing key|^del of a missing dict key|"
           r"^popitem of an empty dict|^set\.remove of a missing",
           _PY_ERROR, "check `key in d` first, or use d.get(key, default), "
           "d.pop(key, default), set.discard"),
    Advice(r"exhausted iterator", _PY_ERROR, "pass a default: next(it, default)"),
    Advice(r"^next\(\) of a non-iterator", _PY_ERROR, "call iter(obj) first"),
    Advice(r"^index\(\) of a value that is not there", _PY_ERROR,
           "check `v in seq` before seq.index(v)"),
    Advice(r"^pop from an empty list|^IndexError: pop from", _PY_ERROR,
           "check that the list is not empty"),
    Advice(r"^(ValueError: )?unpacking .* values into|^not enough values to unpack", _PY_ERROR,
           "make the number of targets match the number of values"),
    Advice(r"^reduce\(\) of an empty sequence", _PY_ERROR,
           "pass an initial value: functools.reduce(f, seq, initial)"),
    Advice(r"\(\) of an empty sequence", _PY_ERROR, "pass default=..., or check that the "
           "sequence is not empty"),
    Advice(r"^len\(\) of a 0-d array", _PY_ERROR, "use x.size or x.ndim"),
    Advice(r"changed size during iteration|changed during iteration", _PY_ERROR,
           "iterate over a copy (list(d)) while changing the container"),
    Advice(r"^zip\(strict=True\) of unequal lengths", _PY_ERROR,
           "make the sequences the same length"),
    Advice(r"referenced before assignment|is not defined \(NameError\)", _PY_ERROR,
           "assign the variable on every path before this line"),
    Advice(r"got too many positional arguments|got multiple values for|got an unexpected "
           r"keyword|missing argument|missing keyword argument|^keywords must be strings|"
           r"^keyword argument repeated|with the wrong number of arguments|"
           r"with a bad argument|with these arguments \(raises TypeError\)|"
           r"with keywords \(TypeError\)|\(TypeError unless a str\)|"
           r"positional arguments \(it takes at most",
           _PY_ERROR, "fix the call's arguments to match the function's signature"),
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
           "read them inside an except block of the compiled function, " + _ACCEPT),
    Advice(r"^except clause (of|for) ",
           "Which exceptions the clause catches is only known when the program runs.",
           "name the exception classes directly (except ValueError, except (A, B)), "
           + _ACCEPT),
    Advice(r" that Python raises here$",
           "The translator knows which exception the operation raises, not its exact "
           "message; the whole try statement runs eagerly.",
           "catch it without reading its message (except KeyError: ...), or test first "
           "(if k in d), " + _ACCEPT),
    Advice(r"raised and caught in the trace is used after it",
           "A raised exception carries a traceback and a context that the generated code "
           "cannot rebuild; the frame runs eagerly.",
           "keep the exception inside its except block (read e.args there), " + _ACCEPT),
    Advice(r"^exception handler",
           "A break inside try/except runs the whole block eagerly, so that handlers see "
           "exactly what plain Python raises.",
           "move the try/except out of the compiled function (around the call), " + _ACCEPT),
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
           "rewrite the statement in a simpler form, " + _ACCEPT + "; please report it"),
    Advice(r"^intrinsic ",
           "The translator has no handler for this interpreter intrinsic.",
           "rewrite the statement in a simpler form (e.g. without * unpacking into a "
           "call), " + _ACCEPT),
    Advice(r"^cannot resume after ",
           "The frame cannot continue in a resume function after this instruction.",
           "move the statement into a helper function, " + _ACCEPT),
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
           "index lists, tuples, dicts and arrays; for other objects " + _OUTSIDE),
    Advice(r"^in-place matmul",
           "`a @= b` writes into `a` through a path NumPy restricts.",
           "write a = a @ b (a new array) instead of a @= b"),
    Advice(r"^operator .* on NumPy scalars",
           "NumPy raises or warns on these scalars; the operation runs eagerly so it does "
           "so for real.", "check the values (overflow, division by zero)"),
    Advice(r"^operator |^unary |^identity of |^`in` ",
           "The translator cannot apply this operator to these values.",
           "use arrays or Python numbers as operands, " + _ACCEPT),
    Advice(r"^\*\* of .* \(not a dict\)",
           "`**` unpacking calls the object's keys() and __getitem__.",
           "pass a dict: f(**dict(obj))"),
    Advice(r"^list\.|^dict\.|^set\.|^tuple\.|\.isdisjoint of non-constants|"
           r"\._replace of unknown fields",
           "The translator does not model this container method with these arguments.",
           "use a plain loop or list/dict operations, " + _ACCEPT),
    Advice(r"used as a dict key or set element",
           "Hashing the key needs its value (or runs the class's __hash__/__eq__).",
           "use ints or strings as keys"),
    Advice(r"^defaultdict\(\) of these arguments",
           "Python checks that the factory is callable or None (TypeError otherwise); "
           "the translator tells that only for functions, classes and builtins.",
           "pass a function, a class or None as the factory, " + _ACCEPT),
    Advice(r"^\| of a defaultdict",
           "Python's | makes a new defaultdict (with the factory of the defaultdict "
           "operand); the translator builds only plain dicts this way.",
           "use d2 = d.copy(); d2.update(other), " + _ACCEPT),
    Advice(r"^a dict with non-constant keys|^a defaultdict with non-constant keys|"
           r"^a dict key that generated code cannot write",
           "The graph's glue code must write the keys back as Python source.",
           "use ints or strings as dict keys"),
    Advice(r"too big to trace",
           "Each item of a Python container is traced separately.",
           "use an array instead of a large Python container"),
    # ---------------------------------------------------------------- values
    Advice(r"^values of type .* are not traced|^value of type .* is not a constant|"
           r"^type\(\) of |^truth value of |is not a Python constant|"
           r"as an argument of an array op|^ndarray subclass",
           _UNTRACED_OBJECT,
           "pass arrays (np.asarray for subclasses), numbers and containers of them; "
           "keep other objects outside the compiled function"),
    Advice(r"^an array with no source",
           "A constant array made outside the trace has no place the glue can read it "
           "from.", "pass the array as an argument, or make it inside the function"),
    Advice(r"^cannot rebuild |^cannot write back a mutated |cannot be rebuilt as a value",
           "After the graph, the glue code must rebuild this value (or write its changes "
           "back) as Python, which it cannot do for this object.",
           "keep such objects out of the code around a graph break (create them after "
           "it), " + _ACCEPT),
    Advice(r" with these arguments$",
           "The translator cannot call this with these arguments.", _OUTSIDE),
)

# Reasons that are wholly data (a Python error's message): matched by cause.
BY_CAUSE: dict[str, Advice] = {
    "python_error": Advice("", _PY_ERROR, "fix the error the eager traceback shows; if the "
                           "code catches it on purpose, move the try/except out of the hot "
                           "path"),
    "op_rule": TABLE[[a.pattern for a in TABLE].index(
        r"^(np|numpy|cupy)\.\S+: \w+(Error|Exception)")],
    "data_dependent_shape": TABLE[[a.pattern for a in TABLE].index(
        r"data-dependent output shape|returns residuals whose shape")],
    "array_to_python": TABLE[[a.pattern for a in TABLE].index(
        r"converts array data to Python|returns a Python value computed from array data")],
}

# Python errors (cause "python_error", reason "KeyError: ...") with a hint of their own.
BY_ERROR: dict[str, Advice] = {
    "KeyError": Advice("", _PY_ERROR, "check `key in d` first, or use d.get(key, default) "
                       "or d.pop(key, default)"),
}

DEFAULT = Advice("", "The translator cannot capture this instruction.",
                 "see docs/graph_breaks.md; " + _ACCEPT)


@functools.lru_cache(maxsize=1024)
def advice_for(reason: str, cause: str = "") -> Advice:
    """The table's advice for a break, or ``DEFAULT`` when nothing matches."""
    if cause == "python_error" and re.match(r"\w+: ", reason):
        # "KeyError: 'x'": the message is the program's, not ours; its class may say more
        return BY_ERROR.get(reason.split(":", 1)[0], BY_CAUSE[cause])
    for entry in TABLE:
        if re.search(entry.pattern, reason):
            return entry
    return BY_CAUSE.get(cause, DEFAULT)
