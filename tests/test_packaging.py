"""The distribution installs one package, ``dynamo``: the folders ``guards/`` and
``backends/`` become ``dynamo.guards`` and ``dynamo.backends`` (a ``package-dir``
mapping in pyproject.toml), so nothing generic lands at the top of site-packages.

pyproject.toml lists the packages by hand (setuptools cannot find packages under a
remapped folder): this test fails when a folder with an ``__init__.py`` is missing
from the list, and checks the rest of the metadata the README promises.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
FOLDERS = {"dynamo": "dynamo", "dynamo.guards": "guards", "dynamo.backends": "backends"}


def _packages_in_tree() -> set[str]:
    found = set()
    for name, folder in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            if "__pycache__" not in rel:
                found.add(".".join((name, *rel)))
    return found


def test_every_package_of_the_tree_is_installed_under_dynamo():
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert setuptools["package-dir"] == FOLDERS
    assert set(setuptools["packages"]) == _packages_in_tree()
    assert {p.split(".")[0] for p in setuptools["packages"]} == {"dynamo"}


def test_metadata_lives_in_pyproject():
    project = PYPROJECT["project"]
    assert not (ROOT / "setup.cfg").exists() and not (ROOT / "setup.py").exists()
    assert project["license"] == "MIT" and (ROOT / "LICENSE").is_file()
    assert "the dynamo authors" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert {"cuda12", "cuda13", "test"} <= set(project["optional-dependencies"])
    assert "Programming Language :: Python :: 3.14" in project["classifiers"]


def test_the_console_script_is_the_cli():
    module, _, name = PYPROJECT["project"]["scripts"]["dynamo"].partition(":")
    main = getattr(importlib.import_module(module), name)
    assert main is importlib.import_module("dynamo.__main__").main


def test_guards_and_backends_import_inside_dynamo():
    guards = importlib.import_module("dynamo.guards")
    backends = importlib.import_module("dynamo.backends")
    assert Path(guards.__file__).resolve().parent == ROOT / "guards"
    assert Path(backends.__file__).resolve().parent == ROOT / "backends"
