"""Shared fixtures of the package tests: the mxgold command they compare with, a case counter
that the summary prints, and a reader of .mxv files into numpy arrays."""
import os
import shutil
import subprocess
from collections import Counter

import numpy as np
import pytest

import mxgold
from mxgold import _core

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COUNTS = Counter()


def cli_path():
    p = os.environ.get("MXGOLD_CLI") or os.path.join(ROOT, "build", "bin", "mxgold")
    return p if os.access(p, os.X_OK) else shutil.which("mxgold")


@pytest.fixture(scope="session")
def cli():
    p = cli_path()
    if not p:
        pytest.skip("the mxgold command is not built (set MXGOLD_CLI or build build/bin/mxgold)")
    return p


def gen(cli, path, *args):
    """mxgold gen ... -o path; returns path."""
    subprocess.run([cli, "gen", "--quiet", "-o", str(path), *map(str, args)], check=True)
    return path


DTYPES = {"fp32": np.float32, "fp64": np.float64, "fp16": np.float16}
UINTS = {"fp32": np.uint32, "fp64": np.uint64, "fp16": np.uint16, "bf16": np.uint16}


def in_dtype(name):
    if name == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(DTYPES[name])


def read_mxv(path):
    """(header, {field: uint64 array}) of a .mxv file, read by libmxvec.  A field that a line
    repeats (a dot's per-block a, b, scale_a, scale_b) is joined case by case, in line order."""
    h, names, data = _core.read_mxv(str(path))
    parts = {}
    for (n, _), d in zip(names, data):
        parts.setdefault(n, []).append(np.frombuffer(d, np.uint64).reshape(h["cases"], -1))
    return h, {n: np.concatenate(v, axis=1).reshape(-1) for n, v in parts.items()}


def policy_kwargs(h):
    return mxgold._formats.policy_dict(h["policy"])


def count(what, n):
    COUNTS[what] += int(n)


def pytest_terminal_summary(terminalreporter):
    if COUNTS:
        terminalreporter.section("cases checked")
        for k, v in sorted(COUNTS.items()):
            terminalreporter.write_line(f"{k}: {v}")
