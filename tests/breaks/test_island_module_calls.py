"""A function of a submodule called in an island (a loop that runs as Python after a
break): ``np.linalg.norm(force)`` calls NumPy's function as written, not through the
island's ``intercept`` (``dynamo/bytecode/emit.py``'s ``module_chain``). 3.11 loads
the callable as a method of ``np.linalg`` (``LOAD_GLOBAL np; LOAD_ATTR linalg;
LOAD_METHOD norm``), which the global chain of a call never reached: two calls of
``intercept`` a trip made corpus 14's potential-field planning 0.93x plain (issue
#15). A user module's function still goes through the hook, and still runs compiled."""

import types

import numpy as np
from bytecode import Instr
from test_island_calls import intercept_calls

import dynamo
from dynamo import pyversion
from dynamo.bytecode.emit import module_chain


def descend(p, goal, obstacles):
    """Potential-field steps: ``if near.any()`` on data, with a data-sized selection
    under it, makes the loop an island; ``np.linalg.norm`` twice a trip is a
    submodule's function."""
    for _ in range(40):
        force = goal - p
        diff = p - obstacles
        near = (diff ** 2).sum(axis=1) < 0.04
        if near.any():
            force = force + diff[near].sum(axis=0)
        p = p + 0.05 * force / max(np.linalg.norm(force), 1e-9)
        if np.linalg.norm(goal - p) < 0.05:
            break
    return p


# a user "module" whose function is Python code: its calls must keep the hook
helpers = types.ModuleType("helpers")
exec("import numpy as np\ndef step(p):\n    return p * 0.5 + np.float64(1.0)\n",
     helpers.__dict__)
helpers.inner = types.ModuleType("helpers.inner")
helpers.inner.step = helpers.step


def descend_with_user_step(p, goal):
    for _ in range(20):
        if (goal - p).sum() > 100.0:
            break
        p = helpers.inner.step(p)
    return p


P0, GOAL = np.zeros(2), np.array([1.0, 2.0])
OBST = np.array([[0.3, 0.4], [0.8, 1.5]])
TRIPS = 40   # (the goal is 2.2 away, 0.05 a step: the loop runs all its trips)


def test_submodule_functions_skip_the_hook():
    compiled = dynamo.compile(descend, backend="eager")
    for _ in range(3):
        np.testing.assert_array_equal(compiled(P0, GOAL, OBST), descend(P0, GOAL, OBST))
    # the methods of locals the loop rebinds still ask (the sum, ``near.any()``, the
    # selection's sum: at most 3 a trip); the two norms a trip do not (174 calls with
    # them on 3.11-3.14, 94 without)
    assert intercept_calls(compiled, P0, GOAL, OBST) <= 3 * TRIPS


def test_user_module_functions_keep_the_hook():
    compiled = dynamo.compile(descend_with_user_step, backend="eager")
    for _ in range(3):
        np.testing.assert_array_equal(compiled(P0, GOAL), descend_with_user_step(P0, GOAL))
    assert intercept_calls(compiled, P0, GOAL) > 0


def test_module_chain_reads_plain_loads_only():
    attr = (False, "linalg") if pyversion.PY312 else "linalg"   # (3.12+: (method, name))
    assert module_chain([Instr("LOAD_GLOBAL", (False, "np")),
                         Instr("LOAD_ATTR", attr)]) == ("np", "linalg")
    assert module_chain([Instr("LOAD_GLOBAL", (True, "np"))]) == ()   # (a call's NULL)
    assert module_chain([Instr("LOAD_FAST", "x"), Instr("LOAD_ATTR", attr)]) == ()
    assert module_chain([]) == ()
