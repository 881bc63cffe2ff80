"""Is CuPy installed, and can it use a GPU? If not, the error says what to do.

The ``cupy`` backend imports and registers on any machine; ``require_cupy()`` runs
when it compiles a graph, and the compiled function raises ``CupyUnavailable`` at
its first call when something is missing, so the program stops with the reason
instead of silently running eagerly.

Example::

    >>> cupy_problem()            # on a machine without CuPy
    "CuPy is not installed (No module named 'cupy')"
"""

from __future__ import annotations

from dynamo.exc import BackendError

HOW_TO_INSTALL = (
    "Install the CuPy wheel that matches the NVIDIA driver's CUDA version (nvidia-smi "
    "shows it): `pip install cupy-cuda13x` for CUDA 13, `pip install cupy-cuda12x` for "
    "CUDA 12, or `pip install -e .[cuda13]` in this repository. On a machine without "
    "an NVIDIA GPU use backend='eager' (or backend='numpy' for fused CPU code).")


class CupyUnavailable(BackendError):
    """The cupy backend cannot run here: no CuPy, or no usable CUDA device."""


def cupy_problem() -> str | None:
    """Why CuPy cannot run kernels here, or None when it can."""
    try:
        import cupy
    except ImportError as e:
        return f"CuPy is not installed ({e})"
    except Exception as e:  # noqa: BLE001 (a broken install raises anything)
        return f"CuPy is installed but fails to import ({type(e).__name__}: {e})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001 (CUDARuntimeError without a driver or device)
        return f"CuPy is installed but cannot reach a CUDA device ({type(e).__name__}: {e})"
    if count < 1:
        return "CuPy is installed but the machine has no CUDA device"
    return None


def unavailable_error(problem: str) -> CupyUnavailable:
    return CupyUnavailable(f"backend 'cupy' needs CuPy and an NVIDIA GPU: {problem}. "
                           f"{HOW_TO_INSTALL}")


def require_cupy():
    """The cupy module, or raise ``CupyUnavailable``."""
    problem = cupy_problem()
    if problem is not None:
        raise unavailable_error(problem)
    import cupy
    return cupy
