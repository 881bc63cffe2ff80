"""The hint table's part for array operations: ops not in the registry, results whose
shape depends on data, ops that may raise or warn inside a try block, Dask and CuPy
arrays, a graph or an unrolled loop too large, iteration over arrays, indexing.

``dynamo/hints.py`` joins the parts, in order, into its ``TABLE``: the first entry
whose pattern is found in a break's reason wins, so within a part too specific
entries come before general ones.

Example::

    >>> import re
    >>> reason = 'np.piecewise is not in the op registry'
    >>> next(a for a in OPS if re.search(a.pattern, reason)).hint[:26]
    'register it with dynamo.re'
"""

from __future__ import annotations

from .advice import ACCEPT, OUTSIDE, Advice

# This module imports nothing from dynamo but advice.py: dynamo.exc reads the table.

OPS: tuple[Advice, ...] = (
    # ---------------------------------------------------------------- ops not in the registry
    Advice(r"is not in the op registry|^array method \.",
           "The function is not in dynamo's op registry, so the trace has no shape/dtype "
           "rule for it.",
           "register it with dynamo.register_op(fn, meta=...), use an equivalent NumPy "
           "function that is captured (see docs/ops.md), " + ACCEPT),
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
           "u[i]), or pass size=1 and index the result, " + ACCEPT),
    Advice(r"^np\.random\.seed\(\)",
           "Seeding with anything but an int or None changes the global random state in "
           "ways the trace does not model.",
           "seed with an int, or use rng = np.random.default_rng(seed) and its methods"),
    Advice(r"\(\) of anything but an int or None$",     # default_rng, RandomState
           "One made from a seed sequence, a bit generator or a Generator is made eagerly, "
           "at its place in the program; one from an int or None is made by the graph.",
           "seed with an int (rng = np.random.default_rng(seed)), or make the object "
           "before the compiled call and pass it in, " + ACCEPT),
    Advice(r"random state outside the registry|^.+\..+ is not in the op registry",
           "It uses or changes random state; it runs eagerly so the random stream stays "
           "in order.", "use np.random.default_rng(seed) and the Generator methods that are "
           "captured (random, normal, uniform, integers...), " + ACCEPT),
    Advice(r"a slice bound is an array: the result's shape depends on its data",
           "A slice whose start or stop is read from an array (v[p[0]:p[1]]) has a length "
           "the data decides; it is captured (an unbacked length) when each such bound is "
           "a 0-d integer array and the step is 1, not with another step or a float, "
           "boolean or n-d bound.",
           "pass the bounds in as Python ints, or keep the shape fixed with a mask: "
           "np.where((i >= lo) & (i < hi), v, 0) with i = np.arange(len(v)), "
           + ACCEPT),
    Advice(r"is a list holding (\S+ )?arrays",
           "A Python list of graph values is converted by NumPy (np.asarray); CuPy's and "
           "Dask's functions do not take such lists.",
           "build the array with the library's own op (xp.stack([a, b]), "
           "xp.concatenate((a[:1], u))), " + ACCEPT),
    Advice(r"is an array: the result's shape depends on its data",
           "A shape, size or count argument computed from array values (labels.max() + 1) "
           "is known only when the graph runs.",
           "pass the number in as a Python int (n_classes=...) or compute it before the "
           "compiled call, " + ACCEPT),
    Advice(r"^(np|numpy|cupy)\.\S+: .*(shape depends on (the|its) data|from the data)",
           "The result's size depends on array values, known only when the graph runs.",
           "keep shapes static where you can (np.where(mask, x, 0) for x[mask], "
           "np.sum(x, where=mask) for x[mask].sum()), " + ACCEPT),
    Advice(r"the rank of a vector or a number is a Python int",
           "For fewer than 2 dimensions NumPy returns int(not all(A == 0)), a Python int "
           "the data decides; a graph holds arrays.",
           "pass a matrix: np.linalg.matrix_rank(np.atleast_2d(v)) is the same count, as a "
           "NumPy int, and is captured, " + ACCEPT),
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
           "constant.", OUTSIDE),
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
    Advice(r"^the value a loop with code at its exit leaves",
           "The loop's exit runs code (a `return`, or code before its `break`) whose "
           "result is not an array or number both ways agree on (a Python bool, a print, "
           "a value of another kind), so the loop is no loop node.",
           "keep the exit to `break` and compute what it returned after the loop (from "
           "arrays: `np.where`), or accept the graph break (docs/loops.md)"),
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
    Advice(r"^zip\(\) of arrays whose lengths only the data decides",
           "zip stops at the shortest array; with lengths only the data decides the "
           "trace cannot say which one, so the loop is no loop node.",
           "zip slices of one array of bounds (b = np.concatenate(([0], starts, "
           "[len(v)])); zip(b[:-1], b[1:])), which have one length, or accept the graph "
           "break"),
    Advice(r"^iteration over a 0-d array",
           "Iterating a 0-d array raises TypeError in plain NumPy.",
           "index it with x[()] or use x.item() outside the compiled function"),
    Advice(r"^array index ",
           "The translator cannot index an array with this value.",
           "index with ints, slices, arrays or tuples of them"),
    Advice(r"^array operator with ",
           "This operand of an array operator is not a value the trace can pass to NumPy.",
           "convert the operand to an array or a number first (np.asarray)"),
)
