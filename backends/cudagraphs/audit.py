"""Audit a recorded CUDA graph before its first replay: no host memory, no host code.

The planner (:mod:`.plan`) knows the CuPy calls that copy host data to the GPU while
recording; this audit catches the ones it does not know. A copy from host memory
recorded into a graph is replayed from the same host address forever after, long
after CuPy has reused that (pinned staging) memory: a silent wrong result. So the
runner rejects a recording that holds

- a memcpy node with a host-side end (``CU_MEMORYTYPE_HOST``, or a unified address
  the driver reports as host memory, or one it does not know),
- a host-function node, a child graph, an external semaphore or event *wait*, a
  batch memory op or a conditional node (none of which CuPy should record).

It reads the graph with the CUDA driver API (``libcuda.so.1``) through ctypes, the
same way on every CUDA version: ``cuGraphGetNodes``, ``cuGraphNodeGetType``,
``cuGraphMemcpyNodeGetParams`` and ``cuPointerGetAttribute``. If the driver API
cannot be read, the audit reports that as a problem (the graph runs uncaptured),
never as a pass.

Example::

    >>> audit_graph(cupy_graph.graph)       # the cudaGraph_t of a cupy.cuda.Graph
    []
    >>> audit_graph(bad.graph)
    ['node 3: memcpy from host memory (64 bytes)']
"""

from __future__ import annotations

import ctypes

KERNEL, MEMCPY, MEMSET, HOST, CHILD, EMPTY = 0, 1, 2, 3, 4, 5
WAIT_EVENT, EVENT_RECORD, SEM_SIGNAL, SEM_WAIT = 6, 7, 8, 9
MEM_ALLOC, MEM_FREE, BATCH_MEM_OP, CONDITIONAL = 10, 11, 12, 13
ALLOWED = {KERNEL, MEMCPY, MEMSET, EMPTY, EVENT_RECORD, MEM_ALLOC, MEM_FREE}
NAMES = {HOST: "a host function", CHILD: "a child graph", WAIT_EVENT: "an event wait",
         SEM_SIGNAL: "an external semaphore signal", SEM_WAIT: "an external semaphore wait",
         BATCH_MEM_OP: "a batch memory op", CONDITIONAL: "a conditional node"}

MEMORYTYPE_HOST, MEMORYTYPE_DEVICE, MEMORYTYPE_ARRAY, MEMORYTYPE_UNIFIED = 1, 2, 3, 4
POINTER_ATTRIBUTE_MEMORY_TYPE = 2


class Memcpy3D(ctypes.Structure):
    """``CUDA_MEMCPY3D`` of cuda.h (200 bytes on 64-bit; the tests check the layout)."""

    _fields_ = [
        ("srcXInBytes", ctypes.c_size_t), ("srcY", ctypes.c_size_t),
        ("srcZ", ctypes.c_size_t), ("srcLOD", ctypes.c_size_t),
        ("srcMemoryType", ctypes.c_int), ("srcHost", ctypes.c_void_p),
        ("srcDevice", ctypes.c_uint64), ("srcArray", ctypes.c_void_p),
        ("reserved0", ctypes.c_void_p), ("srcPitch", ctypes.c_size_t),
        ("srcHeight", ctypes.c_size_t),
        ("dstXInBytes", ctypes.c_size_t), ("dstY", ctypes.c_size_t),
        ("dstZ", ctypes.c_size_t), ("dstLOD", ctypes.c_size_t),
        ("dstMemoryType", ctypes.c_int), ("dstHost", ctypes.c_void_p),
        ("dstDevice", ctypes.c_uint64), ("dstArray", ctypes.c_void_p),
        ("reserved1", ctypes.c_void_p), ("dstPitch", ctypes.c_size_t),
        ("dstHeight", ctypes.c_size_t),
        ("WidthInBytes", ctypes.c_size_t), ("Height", ctypes.c_size_t),
        ("Depth", ctypes.c_size_t),
    ]


_driver: list = []


def _cuda():
    if not _driver:
        lib = ctypes.CDLL("libcuda.so.1")
        lib.cuGraphGetNodes.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                        ctypes.POINTER(ctypes.c_size_t)]
        lib.cuGraphNodeGetType.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
        lib.cuGraphMemcpyNodeGetParams.argtypes = [ctypes.c_void_p, ctypes.POINTER(Memcpy3D)]
        lib.cuPointerGetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64]
        for fn in (lib.cuGraphGetNodes, lib.cuGraphNodeGetType,
                   lib.cuGraphMemcpyNodeGetParams, lib.cuPointerGetAttribute):
            fn.restype = ctypes.c_int
        _driver.append(lib)
    return _driver[0]


def audit_graph(graph_handle: int) -> list[str]:
    """Problems that make the recorded graph unsafe to replay; ``[]`` when it is safe."""
    try:
        lib = _cuda()
        count = ctypes.c_size_t(0)
        _check(lib.cuGraphGetNodes(graph_handle, None, ctypes.byref(count)), "cuGraphGetNodes")
        nodes = (ctypes.c_void_p * max(count.value, 1))()
        _check(lib.cuGraphGetNodes(graph_handle, nodes, ctypes.byref(count)), "cuGraphGetNodes")
        problems = []
        for i in range(count.value):
            kind = ctypes.c_int(-1)
            _check(lib.cuGraphNodeGetType(nodes[i], ctypes.byref(kind)), "cuGraphNodeGetType")
            if kind.value not in ALLOWED:
                what = NAMES.get(kind.value, f"a node of type {kind.value}")
                problems.append(f"node {i}: {what}")
            elif kind.value == MEMCPY:
                problems += _memcpy_problems(lib, i, nodes[i])
        return problems
    except Exception as e:  # noqa: BLE001 (an unreadable graph is not a safe one)
        return [f"cannot audit the recorded graph ({type(e).__name__}: {e})"]


def _memcpy_problems(lib, i: int, node) -> list[str]:
    params = Memcpy3D()
    _check(lib.cuGraphMemcpyNodeGetParams(node, ctypes.byref(params)),
           "cuGraphMemcpyNodeGetParams")
    size = params.WidthInBytes * max(params.Height, 1) * max(params.Depth, 1)
    problems = []
    for end, mtype, host, device in (("from", params.srcMemoryType, params.srcHost,
                                      params.srcDevice),
                                     ("to", params.dstMemoryType, params.dstHost,
                                      params.dstDevice)):
        where = memory_kind(lib, mtype, host, device)
        if where != "device":
            problems.append(f"node {i}: memcpy {end} {where} memory ({size} bytes)")
    return problems


def memory_kind(lib, mtype: int, host, device: int) -> str:
    """'device', 'host', 'array' or 'unknown' for one end of a recorded copy."""
    if mtype == MEMORYTYPE_DEVICE:
        return "device"
    if mtype == MEMORYTYPE_HOST:
        return "host"
    if mtype == MEMORYTYPE_UNIFIED:
        value = ctypes.c_int(0)
        status = lib.cuPointerGetAttribute(ctypes.byref(value), POINTER_ATTRIBUTE_MEMORY_TYPE,
                                           device)
        if status != 0:
            return "unknown"           # pageable host memory the driver has never seen
        return {MEMORYTYPE_DEVICE: "device", MEMORYTYPE_HOST: "host"}.get(value.value,
                                                                         "unknown")
    return "array" if mtype == MEMORYTYPE_ARRAY else "unknown"


def _check(status: int, what: str) -> None:
    if status != 0:
        raise RuntimeError(f"{what} returned CUDA error {status}")
