"""The hint table's first part: Python itself, output and logging, control flow that
depends on array data, and array data turned into Python values.

``dynamo/hints.py`` joins the parts, in order, into its ``TABLE``: the first entry
whose pattern is found in a break's reason wins, so within a part too specific
entries come before general ones.

Example::

    >>> import re
    >>> next(a for a in FLOW if re.search(a.pattern, 'call to print()')).hint[:30]
    'move the print out of the loop'
"""

from __future__ import annotations

from .advice import ACCEPT, Advice

# This module imports nothing from dynamo but advice.py: dynamo.exc reads the table.

# A branch on array data: the hint of every such break (``variables/arrays.py`` and
# ``conversions.py`` raise it with their own reasons)
BRANCH_ON_DATA = ("compute both branches with np.where(cond, a, b); in a loop that keeps "
                  "the best value so far or skips some items, compute every candidate at "
                  "once (np.argmax over an array of them, x[~np.isnan(x)] before the "
                  "loop; for a comprehension's condition, [np.log(v) for v in xs if v > "
                  "0], select first: np.log(xs[xs > 0]), one graph), " + ACCEPT)

# A branch on array data whose way keeps an item in a list (``out.append(i)``, a
# comprehension's condition): the list's length is what the data decides
KEEPS_ITEMS = ("The if keeps some items in a list (an append, a comprehension's "
               "condition): the list's length is only known when the program runs, and "
               "a graph holds no Python list of a length the data decides.")
KEEPS_ITEMS_HINT = ("keep them as an array, whose size the data decides, in one graph: "
                    "xs[xs > 0] for [v for v in xs if v > 0], np.flatnonzero(cond) for "
                    "the indices (peaks: np.flatnonzero((x[1:-1] > x[:-2]) & (x[1:-1] > "
                    "x[2:])) + 1); " + ACCEPT)

FLOW: tuple[Advice, ...] = (
    # ---------------------------------------------------------------- Python itself
    Advice(r"^CPython .* is not supported",
           "Each CPython version has its own bytecode; dynamo translates only the versions "
           "it knows.", "use a supported CPython to compile; on this one the code runs "
           "uncompiled"),
    # ---------------------------------------------------------------- text, growing tuples
    Advice(r"^a string that changes between calls, iterated",
           "A string argument or attribute that changed between calls and is iterated "
           "(``for ch in text``) is text: guarded by value it would make an entry per "
           "text, so the loop over its characters runs as Python at this break "
           "(dynamo/variables/text_iterators.py).",
           "nothing to do: two compiles in all, not one per text; a string that is "
           "compared instead (``if mode == 'train'``) keeps its guard and an entry per "
           "value"),
    Advice(r"^a string that changes between calls",
           "A list of strings whose items changed between calls is text (words, tokens): "
           "guarded by value it would make an entry per text, so the code that reads it "
           "runs as Python; what it makes (int ids) reaches the graph as data "
           "(dynamo/variables/text_items.py).",
           "nothing to do: the graph after the break is compiled once for every text; to "
           "keep the loop in the graph too, map the strings to int ids outside the "
           "compiled function and pass the ids"),
    Advice(r"^a tuple of numbers whose length changes every call",
           "Its length is part of what reading its items relies on: an entry per length "
           "would fill the cache, so the code that reads it runs as Python "
           "(dynamo/variables/data_tuples.py).",
           "hand the tuple whole to np.array/np.asarray (one input of symbolic length), "
           "or keep the items in an array, " + ACCEPT),
    # ---------------------------------------------------------------- output, logging
    Advice(r"^sum\(\) of floats where one changes",
           "From 3.12 the builtin sum() adds floats with compensated rounding; the graph "
           "adds one at a time, which can differ in the last bit, so Python adds them.",
           "use math.fsum or np.sum on an array of the values if the last bit does not "
           "matter to you, " + ACCEPT),
    Advice(r"^~ of a bool .* warns on Python 3\.12",
           "From 3.12 ~ of a bool warns (DeprecationWarning) at every call: Python runs "
           "the line, so the warning is its own.",
           "write `not (...)` for the negation (it stays in the graph), or `-(...) - 1` "
           "for the int ~ gives, " + ACCEPT),
    Advice(r"^call to print\(\)",
           "print() writes output, which must happen when the program runs, in order.",
           "move the print out of the loop or the hot function (print results after the "
           "compiled call), " + ACCEPT),
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
    Advice(r"^a Python bool a loop's exit sets is needed while tracing",
           "The loop is one loop node, and the bool its exit set (converged = True; "
           "break) is known only when the graph has run: an `if` on it, or any use but "
           "returning or storing it, needs its value while tracing.",
           "branch on the loop's state as an array instead (x = np.where(converged_arr, "
           "x, -x) with converged_arr = err < tol), or accept the graph break (the code "
           "after it runs as another graph)"),
    Advice(r"^truth value of an array",
           "Which branch runs depends on array data, which the trace does not know.",
           BRANCH_ON_DATA),
    Advice(r"compares array data",
           "The result depends on array values, known only when the graph runs.",
           "use np.maximum/np.minimum (or np.max/np.min) on arrays"),
    Advice(r"^`in` on an array compares data",
           "The answer depends on array values, known only when the graph runs.",
           "use np.any(x == v) (or np.isin) and keep the result as an array"),
    Advice(r"^comparison .* by .*\.__(eq|ne|lt|le|gt|ge)__",
           "The class defines its own comparison, which runs Python code the trace does "
           "not follow.", "compare plain fields (numbers, strings) instead, " + ACCEPT),
    Advice(r"^comparison ",
           "The translator cannot decide this comparison from what the trace knows.",
           "compare arrays with np.equal/np.less (elementwise) or compare Python numbers, "
           + ACCEPT),
    # ---------------------------------------------------------------- array data to Python
    Advice(r"^round\(\) of an array",
           "round() returns a Python number, which needs the array's value.",
           "use np.round(x, n)"),
    Advice(r"^f-string of a .* with a format spec or conversion",
           "An exception's text in an f-string is str() or repr() of it; a format spec, "
           "!a or the class's own __format__ runs code the translator does not model.",
           "format str(e) instead of e (f\"{str(e):>20}\"), " + ACCEPT),
    Advice(r"of an array formats array data|^f-string of",
           "The text depends on array values, known only when the program runs.",
           "format the result after the compiled call, " + ACCEPT),
    Advice(r"converts array data to Python|returns a Python value computed from array data",
           "A Python value made from array data is only known after the graph has run.",
           "keep the value as an array (x[0] instead of float(x[0]), np.where instead of "
           "an if), " + ACCEPT),
    Advice(r"data-dependent output shape|returns residuals whose shape",
           "The result's shape depends on array values, which the trace does not know.",
           "keep shapes fixed: np.where(mask, x, 0) instead of x[mask], "
           "np.sum(x * mask) instead of x[mask].sum(), " + ACCEPT),
    Advice(r"returns real or complex roots",
           "np.roots returns float64 roots when they are all real and complex ones "
           "otherwise, and drops leading zero coefficients: the data decides the result's "
           "dtype and length.",
           "call np.roots before or after the compiled function and pass the roots in, "
           + ACCEPT),
    Advice(r"returns real or complex eigenvalues",
           "The result's dtype depends on the data, which the trace does not know.",
           "use np.linalg.eigh/eigvalsh for symmetric matrices, " + ACCEPT),
    Advice(r"calls a Python function (once per|on index grids)",
           "NumPy calls the Python function itself, in a Python loop, and what it returns "
           "decides the result's values, dtype and shape; the trace does not follow it.",
           "write the function with whole-array operations (ufuncs, np.where, axis= "
           "arguments) and call it on the array directly, which is captured, "
           + ACCEPT),
    Advice(r"returns a contraction plan",
           "The result is Python data (a list and a string), not arrays.",
           "compute the plan outside the compiled function and pass "
           "np.einsum(..., optimize=path)"),
)
