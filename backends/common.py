"""Helpers the backends share: running a graph, and "can CuPy run here".

``python_function(graph)`` is the eager backend itself, and every other backend's
fallback (the ``numpy`` backend for ndarray subclasses, ``cupy`` for NumPy graphs,
``cudagraphs`` for graphs it cannot record): the graph's printout, compiled.
``Interpreter(graph).run(*args)`` runs the same ops node by node and keeps every
node's value, for a backend that must see them (the numpy backend's per-size
variants, constant folding). ``cupy_problem()`` is the one probe of CuPy and its GPU;
``unavailable_error(backend, problem)`` the error a backend raises when that probe
found something missing.

Example::

    >>> fn = python_function(graph)      # fn(*arrays) -> tuple of arrays
    >>> run = Interpreter(graph)
    >>> run.run(*arrays)                 # the same tuple; run.env: every node's value
    >>> cupy_problem()                   # on a machine without CuPy
    "CuPy is not installed (No module named 'cupy')"
"""

from __future__ import annotations

import itertools
import types
import weakref
from typing import Any

from dynamo.exc import BackendError
from dynamo.graph import CALL, CONSTANT, OUTPUT, PLACEHOLDER, Graph, Node
from dynamo.ops import NUMPY, impl_table
from dynamo.source import compile_source
from dynamo.symbolic import SymArg
from dynamo.tree import tree_map

_counter = itertools.count()
_BODIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # body graph -> function

HOW_TO_INSTALL = (
    "Install the CuPy wheel that matches the NVIDIA driver's CUDA version (nvidia-smi "
    "shows it): `pip install cupy-cuda13x` for CUDA 13, `pip install cupy-cuda12x` for "
    "CUDA 12, or `pip install -e .[cuda13]` in this repository. On a machine without "
    "an NVIDIA GPU use backend='eager' (or backend='numpy' for fused CPU code).")


def graph_kind(graph: Graph) -> str:
    """The array library the graph computes with (``NUMPY`` or ``CUPY``): its first
    array node's; ``NUMPY`` for a graph without arrays."""
    for node in graph.nodes:
        meta = node.meta.get("array")
        if meta is not None and not isinstance(meta, tuple):
            return meta.kind
    return NUMPY


def one_output(graph: Graph) -> bool:
    """Does the graph return one value, and is it no loop body (whose function returns
    what the next trip carries)? Its code may then return that value ``bare``."""
    return len(graph.outputs) == 1 and \
        not any("loop_index" in n.meta for n in graph.placeholders)


def tuple_of_one(fn):
    """The backend contract's function over ``fn``, a compiled graph of one output that
    returns that output itself (a function, or a runner such as the numpy backend's
    ``PerSize``): ``graph(*args) -> (fn(*args),)``, which keeps ``fn`` as
    ``__dynamo_bare__``. The glue calls ``fn`` (``dynamo.glue``): a cached call then
    builds and unpacks no 1-tuple (about 290 instructions of callgrind's, issue #16);
    anything else calling the backend's result gets the tuple the contract promises.

    Example::

        >>> fn = tuple_of_one(python_function(graph, bare=True))
        >>> fn(x), fn.__dynamo_bare__(x)       # ((add,), add)
    """
    def graph(*args):
        return (fn(*args),)
    # a function's __dynamo_source__ and a backend's notes (__dynamo_groups__); not a
    # runner object's state (the numpy backend's PerSize: its variants change as it
    # runs), nor its ``__dict__`` read at all: reading it makes CPython 3.11 keep the
    # object's attributes in a real dict, whose reads specialize less well
    if isinstance(fn, types.FunctionType):
        graph.__dict__.update(fn.__dict__)
    graph.__dynamo_bare__ = fn
    return graph


def python_function(graph: Graph, kind: str | None = None, name: str = "forward",
                    bare: bool = False):
    """Compile the graph's printout into a function that runs it on ``kind`` arrays.

    ``ops`` in the printout is bound to ``kind``'s implementation table (default: the
    graph's own kind); the source is registered with ``linecache`` so tracebacks show
    its lines, and kept on the function as ``__dynamo_source__``. With ``bare`` (a
    graph of ``one_output``), the function returns that output, not a 1-tuple.
    """
    fn_name = f"{name}_{next(_counter)}"
    src, consts = graph.python_code(fn_name, free=True, bare=bare)

    holder = types.SimpleNamespace(**consts)  # the printout writes consts.<name>
    kind = kind or graph_kind(graph)
    # NumPy's table as a module: CPython specializes ``ops.<name>`` on a module, not
    # on the table's class (it has a __getattr__); see backends/eager_ops.py (imported
    # at the first graph: looking a backend up imports no more than it did)
    from . import eager_ops
    ops = eager_ops.ops_for(src) if kind == NUMPY else impl_table(kind)
    scope = {"ops": ops, "consts": holder}
    compile_source(src, f"<dynamo graph {fn_name}>", scope, user_lines=True)
    fn = scope.pop(fn_name)
    fn.__dynamo_source__ = src
    return fn


class Interpreter:
    """Runs a graph node by node, as torch.fx's ``Interpreter`` does.

    ``run(*args)`` returns what the graph's printout returns (``python_function``: a
    tuple of outputs) and leaves every node's value in ``env`` and each symbolic size's
    int in ``sizes``. Each kind of node has its method; a subclass overrides one to
    change a step (constant folding: placeholders are unknown, and an op runs only on
    known values).

    Example::

        >>> run = Interpreter(graph, impl_table(NUMPY))
        >>> run.run(x, 7)                # (out,)
        >>> run.env[node], run.sizes     # a node's value; {"s0": 7}
    """

    def __init__(self, graph: Graph, ops=None):
        self.graph = graph
        self.ops = ops if ops is not None else impl_table(graph_kind(graph))
        self.env: dict[Node, Any] = {}
        self.sizes: dict[str, int] = {}

    def run(self, *args) -> tuple:
        self.env, self.sizes = {}, {}
        inputs = iter(args)
        outputs: tuple = ()
        for node in self.graph.nodes:
            if node.op == PLACEHOLDER:
                self.env[node] = self.placeholder(node, next(inputs))
            elif node.op == CONSTANT:
                self.env[node] = node.args[0]
            elif node.op == CALL:
                self.env[node] = self.call(node)
            elif node.op == OUTPUT:
                outputs = self.output(node)
        return outputs

    def placeholder(self, node: Node, arg: Any) -> Any:
        if "symbol" in node.meta:   # a symbolic size or changing number of this call
            self.sizes[node.meta["symbol"]] = arg if type(arg) is float else int(arg)
        return arg

    def call(self, node: Node) -> Any:
        value = getattr(self.ops, node.target)(*self.fetch(node.args),
                                               **self.fetch(node.kwargs))
        # an unbacked size (``sym_size``) or number (``sym_number``): read in this run
        if "symbol" in node.meta:
            self.sizes[node.meta["symbol"]] = value if type(value) is float else int(value)
        return value

    def output(self, node: Node) -> tuple:
        return tuple(self.fetch(node.args[0]))

    def fetch(self, value: Any) -> Any:
        """A node's argument with each node replaced by its value, each symbolic size
        (``SymArg``) by its int in this run, and a loop node's body graph by the
        function that runs it (the eager backend's)."""
        return tree_map(_body_function, resolve(value, self.env, self.sizes))


def resolve(value: Any, env: dict, sizes: dict[str, int], keep=frozenset()) -> Any:
    """``value`` with nodes replaced through ``env`` and symbolic sizes by their ints
    at ``sizes`` (symbol name -> int); an expression over a symbol in ``keep`` stays
    an expression, over the nodes ``env`` gives for its placeholders."""
    def leaf(v: Any) -> Any:
        if isinstance(v, Node):
            return env[v]
        if isinstance(v, SymArg):
            if v.sym.symbols & keep:
                return v.map_nodes(env.__getitem__)
            return v.sym.evaluate(sizes)
        return v
    return tree_map(leaf, value)


def _body_function(value: Any) -> Any:
    """A loop node's body graph as the function that runs it (compiled once)."""
    if not isinstance(value, Graph):
        return value
    if value not in _BODIES:
        _BODIES[value] = python_function(value, name="loop_body")
    return _BODIES[value]


class CupyUnavailable(BackendError):
    """A CuPy backend cannot run here: no CuPy, or no usable CUDA device."""


def cupy_problem() -> str | None:
    """Why CuPy cannot run kernels here, or None when it can.

    Imports CuPy only when called (never at import time of a backend), so every
    backend imports and is listed on any machine.
    """
    try:
        import cupy
    except ImportError as e:
        return f"CuPy is not installed ({e})"
    except Exception as e:  # noqa: BLE001 (a broken install raises anything)
        return f"CuPy is installed but fails to import ({type(e).__name__}: {e})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001 (CUDARuntimeError without a driver or device)
        return (f"CuPy is installed but cannot reach a CUDA device ({type(e).__name__}: "
                f"{e}); check the NVIDIA driver (nvidia-smi) and CUDA_VISIBLE_DEVICES")
    if count < 1:
        return ("CuPy is installed but sees no CUDA device; check CUDA_VISIBLE_DEVICES "
                "and the NVIDIA driver (nvidia-smi)")
    return None


def unavailable_error(backend: str, problem: str) -> CupyUnavailable:
    """The error for ``backend`` when ``cupy_problem()`` returned ``problem``."""
    return CupyUnavailable(f"backend {backend!r} needs CuPy and an NVIDIA GPU: {problem}. "
                           f"{HOW_TO_INSTALL}")
