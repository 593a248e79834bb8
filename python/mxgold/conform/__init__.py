"""Third-party conformance: run real MX implementations on the same inputs as mxgold and compare
bit for bit with the profile that claims to reproduce them (and with ``ocp``).

``python -m mxgold.conform`` is the runner (``--help``); ``ci/conform.sh`` runs it in a venv
with the pinned versions of ``python/mxgold/conform/requirements*.txt`` and writes the matrix
(``docs/conformance.md``).  Guide: ``docs/conformance.md``.

One adapter per implementation, one module each in this package.  An adapter module defines

``NAME``      the implementation as the matrix names it ("torchao", "onnxruntime")
``PACKAGE``   its PyPI distribution, whose installed version is reported
``TESTED``    the versions it was run against (the pins of requirements*.txt)
``LIGHT``     True if it runs in the light venv (no torch): ``ci/test.sh`` runs it
``CI_COUNTS`` optional (random, probe): that run's counts, where the defaults (500, 100) are slow
``MAPPING``   one sentence: how the library's output becomes codes (or why values are compared)
``modes()``   the :class:`Mode` list: one entry per code path x option it exercises
``run(mode, fmt, x, rbits)``  the library's real output for inputs ``x`` (see :class:`Mode`)

An adapter must not import its library at module import time (the runner lists adapters whose
library is absent, and reports them as not run); ``run`` imports it.

>>> from mxgold import conform
>>> sorted(conform.ADAPTERS)[:2]
['gfloat', 'gguf']
"""
from __future__ import annotations

import dataclasses
from typing import Any

# the adapters, in the matrix's row order
ADAPTERS = ("ml_dtypes", "gfloat", "pychop", "onnx_reference", "onnxruntime", "gguf",
            "torchao", "quark", "inc", "transformers")

# Implementations whose profile stays derived from their source, and why they cannot run here.
NOT_RUN = [
    {"name": "TransformerEngine", "profile": "te-mxfp8",
     "path": "common/cast/mxfp8 (cvt.rp.satfinite.ue8m0x2.f32, cvt.rn.satfinite.e4m3x2)",
     "reason": "CUDA only (sm_100 PTX); no GPU on the conformance machine"},
    {"name": "microxcaling", "profile": "microxcaling",
     "path": "mx/mx_ops.py _quantize_mx, round='nearest'",
     "reason": "not on PyPI (github.com/microsoft/microxcaling)"},
    {"name": "torchao (GPU)", "profile": "torchao-rceil",
     "path": "mx_formats triton/CUDA kernels, torch.compile to_mx",
     "reason": "needs a CUDA GPU; the CPU eager path is run"},
    {"name": "ggml (C)", "profile": "ggml-mxfp4",
     "path": "ggml-quants.c quantize_row_mxfp4_ref",
     "reason": "C library, not on PyPI; its Python port in gguf is run"},
]

@dataclasses.dataclass(frozen=True)
class Mode:
    """One code path of one implementation, and the mxgold profile that claims it.

    kind      "cast": ``x`` is a 1-D array of values, ``run`` returns one code per value
              (unsigned ints of the format's width);
              "block": ``x`` is (blocks, block) values, ``run`` returns ``(scales, codes)``
              (uint8 E8M0 scale per block, codes per element) or, with ``output="values"``, the
              library's dequantized (fake-quantized) values in ``x``'s dtype, compared with
              mxgold's dequantize of its own result, bit for bit (every NaN equal to every NaN).
              "mxs": ``x`` is (blocks, 16) values of a two-level format (MX9, MX6), ``run``
              returns ``(scales, shifts, codes)``, compared with ``mxgold.quantize_mxs``.
    name      short label ("sat=False", "scale=even"), unique within the adapter
    path      the exact entry point and code path called
    profile   the mxgold profile that must reproduce it
    formats   element format names run in this mode
    inputs    input dtypes: "fp32", "fp64", "fp16", "bf16"
    rounding  mxgold rounding when it is an option of the mode rather than of the profile
    policy    policy overrides applied on top of the profile (an option of the mode)
    random    True if the mode is stochastic: ``run`` gets the same random bits as mxgold
    block     elements per block (block kind)
    output    "codes" or "values"
    note      what the comparison leaves out, if anything (shown in the matrix)
    options   the adapter's own settings of the mode
    share     the fraction of --random and --probe this mode runs (a slow per-element path)
    scale_format  the scale format of the mode's blocks (an EkM0 name such as "e5m0"; block kind)
    """

    kind: str
    name: str
    path: str
    profile: str
    formats: tuple
    inputs: tuple = ("fp32",)
    rounding: str | None = None
    policy: dict = dataclasses.field(default_factory=dict)
    random: bool = False
    block: int = 32
    output: str = "codes"
    note: str = ""
    options: dict = dataclasses.field(default_factory=dict)
    share: float = 1.0  # of the run's counts this mode takes (per-element Python paths: less)
    scale_format: str = "e8m0"

    def label(self) -> str:
        return self.name


class NotRunnable(Exception):
    """Raised by an adapter's ``run`` when this code path cannot run here (no GPU, say): the
    matrix shows the mode as not run, with the message as the reason."""


def adapter(name: str) -> Any:
    """The adapter module ``name`` (one of ADAPTERS)."""
    import importlib

    if name not in ADAPTERS:
        raise ValueError(f"unknown adapter {name!r}; known: {', '.join(ADAPTERS)}")
    return importlib.import_module(f"{__name__}.{name}")


__all__ = ["ADAPTERS", "NOT_RUN", "Mode", "NotRunnable", "adapter"]
