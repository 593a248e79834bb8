"""The docstring examples of every module run and give what they show."""
import doctest

import numpy as np
import pytest

import mxgold
from mxgold import _array, _formats, _mxs, _nvfp4, _ops, _plan, _table


@pytest.mark.parametrize("mod", [mxgold, _formats, _array, _ops, _plan, _table, _nvfp4, _mxs])
def test_doctests(mod):
    r = doctest.testmod(mod, extraglobs={"mxgold": mxgold, "np": np},
                        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert r.attempted > 0 and r.failed == 0


def test_python_md_examples():
    """The >>> examples of docs/python.md (the NVFP4 and MXS sections) give what they show."""
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")
    r = doctest.testfile(path, module_relative=False, globs={"mxgold": mxgold, "np": np},
                         optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert r.attempted > 0 and r.failed == 0


def test_version_matches_the_cli(cli):
    import subprocess
    import sys
    a = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True)
    b = subprocess.run([sys.executable, "-m", "mxgold", "--version"], capture_output=True,
                       text=True, check=True)
    assert a.stdout.splitlines()[0] == b.stdout.strip()


def test_names_come_from_the_tables():
    assert mxgold.ROUNDINGS[0] == "rne" and "sr" in mxgold.ROUNDINGS
    assert list(mxgold.profiles())[0] == "ocp"
    for name, p in mxgold.profiles().items():
        assert set(p["policy"]) == {f.replace("-", "_") for f in mxgold._names.POLICY_FIELDS}
    e4 = mxgold.formats()["e4m3"]
    assert (float(e4.max), float(e4.min_normal), float(e4.min_subnormal)) == (448.0, 2**-6, 2**-9)
    i8 = mxgold.formats()["int8"]
    assert (float(i8.max), float(i8.min_subnormal)) == (127 / 64, 1 / 64)
