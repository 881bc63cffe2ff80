"""The benchmark scripts of scripts/, loaded as modules from their files.

Tests of a script (its dry run on the CPU, its helpers) load it with ``load_script``;
``scripts/`` itself never goes on ``sys.path``, so a test cannot import a script by
accident, and the scripts import the project only as installed (``dynamo``,
``dynamo.models``), as they do when they run.

Example::

    >>> bench = load_script("bench_cupy_backend")
    >>> bench.run(argparse.Namespace(), bench.Setup(gpu=False))
    []
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str) -> types.ModuleType:
    """``scripts/<name>.py`` as a module (loaded once, kept as ``scripts.<name>``)."""
    key = f"scripts.{name}"
    module = sys.modules.get(key)
    if module is None:
        spec = importlib.util.spec_from_file_location(key, SCRIPTS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module    # (dataclasses look their module up while it runs)
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[key]
            raise
    return module
