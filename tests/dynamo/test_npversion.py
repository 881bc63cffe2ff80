"""The NumPy versions dynamo runs on (``dynamo/npversion.py``): the floor pip installs is
the floor the import checks, and an older NumPy stops the import with a message that says
what to do (on NumPy 1.26 the import used to fail inside the op catalog with an
AttributeError about ``np.unique_values``)."""

from __future__ import annotations

import pathlib
import tomllib

import numpy as np
import pytest

from dynamo import npversion

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_running_numpy_is_one_dynamo_runs_on():
    assert npversion.NUMPY >= npversion.FLOOR
    assert npversion.NUMPY == tuple(int(p) for p in np.__version__.split(".")[:2])


def test_pyproject_asks_pip_for_the_floor_the_import_checks():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    floor = ".".join(map(str, npversion.FLOOR))
    assert f"numpy>={floor}" in project["dependencies"]


def test_an_older_numpy_stops_the_import_saying_what_to_do(monkeypatch):
    monkeypatch.setattr(npversion, "NUMPY", (1, 26))
    with pytest.raises(ImportError, match=r"needs NumPy 2\.4 or newer.*pip install"):
        npversion.require()


@pytest.mark.parametrize("text,expected", [("2.5.0rc1", (2, 5)), ("2.6.0.dev0+git1", (2, 6)),
                                           ("2.4.6", (2, 4))])
def test_version_texts_read_as_major_minor(text, expected):
    assert npversion.parse(text) == expected
