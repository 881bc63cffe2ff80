"""Whether the program's code could run in this thread between a pass's NumPy calls.

A flat pass with gaps (``flat_direct.py``, ``flat_updates.py``) holds other values in
an array's elements outside the window it writes, and puts them back after; the pass
is several NumPy calls, and CPython may run Python code of the program's between
them, in this thread, with the gaps in place:

- a trace or profile function (``sys.settrace``: a debugger, a coverage tool;
  ``sys.setprofile``: a profiler), at each line, call or C call;
- a ``sys.monitoring`` tool (3.12+: ``pdb``, ``coverage`` with ``sysmon``, a
  profiler), at the events it asked for (``CALL``, ``C_RETURN``, ``LINE``,
  ``PY_START`` ...), globally or for chosen code objects
  (``pyversion.monitoring_tool_in_use``: a tool id in use, or global events left on
  by a freed one, which 3.12 and 3.13 keep running);
- a Python signal handler (``signal.signal(signal.SIGALRM, handler)``), which CPython
  runs in the main thread between bytecodes soon after the signal arrives: NumPy's C
  loops do not run it mid-loop, but the pass's next bytecode does.

``no_program_hooks()`` is True when none of these is set (so none can run):

    >>> no_program_hooks()
    True
    >>> old = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    >>> no_program_hooks()
    False
    >>> _ = signal.signal(signal.SIGALRM, old)

It is asked per call (``runtime.alone``), and the handlers may change between calls
(the program calls ``signal.signal``), so nothing is cached but the list of signals:
60 reads of ``_signal.getsignal`` in one ``map`` cost about 1-1.8 us (3.11-3.14,
2026-12-05, shared 2-core container at load 1), the monitoring tools 0.3 us. (``signal.
getsignal`` wraps each answer in an enum on 3.11: 27 us for the 60, so the raw one.)

``signal.SIG_DFL``, ``SIG_IGN`` (0 and 1 from ``_signal``) and Python's own
``default_int_handler`` for SIGINT are not the program's code: SIGINT's raises
KeyboardInterrupt, which the pass's ``finally`` meets like any exception.
"""

from __future__ import annotations

import _signal
import signal
import sys

from dynamo import pyversion

# every signal a Python handler can be set for (SIGKILL and SIGSTOP never have one)
_SIGNALS = tuple(sorted(s for s in signal.valid_signals()
                        if s not in {getattr(signal, "SIGKILL", None),
                                     getattr(signal, "SIGSTOP", None)}))
# the handlers that run none of the program's code
_NOT_PROGRAM = frozenset({signal.SIG_DFL, signal.SIG_IGN, 0, 1, None,
                          _signal.default_int_handler})
_getsignal = _signal.getsignal


def no_python_signal_handler() -> bool:
    """No signal has a Python handler of the program's (module docstring)."""
    return _NOT_PROGRAM.issuperset(map(_getsignal, _SIGNALS))


def no_program_hooks() -> bool:
    """No trace, profile or monitoring function and no Python signal handler is set:
    no code of the program's can run between this thread's next bytecodes."""
    return (sys.gettrace() is None and sys.getprofile() is None
            and not pyversion.monitoring_tool_in_use() and no_python_signal_handler())
