"""gguf: the MXFP4 quantizer of the ``gguf`` Python package (llama.cpp's gguf-py), the NumPy
port of ggml's ``quantize_row_mxfp4_ref``.

Path: ``gguf.quants.quantize(x, GGMLQuantizationType.MXFP4)`` -> ``MXFP4.quantize_rows``
(``rows.astype(np.float32)``) -> ``MXFP4.quantize_blocks``: amax = ``abs(blocks).max()``,
``e = np.where(d > 0, np.floor(np.log2(d)) - 2 + 127, 0).astype(np.uint8)``, then each element
is the argmin over the 16 doubled E2M1 table values ``kvalues`` of the float32 error
``|d/2 * k - x|`` (first index wins ties).  A block is 17 bytes: ``e``, then ``qs[16]`` with
``qs[j] = q[j] | q[j + 16] << 4``.
"""
from __future__ import annotations

import math

import numpy as np

from . import Mode

NAME = "gguf"
PACKAGE = "gguf"
TESTED = "0.19.0"
LIGHT = True
MAPPING = ("byte 0 of each 17-byte block is the E8M0 scale code; qs[j] low nibble is element j, "
           "high nibble element j+16; a nibble is the kvalues index, which is the E2M1 code "
           "(kvalues = 2 x the E2M1 value of code i)")
SABOTAGE = {"scale_rule": "floor"}

_PATH = ("gguf.quants.quantize(x, GGMLQuantizationType.MXFP4) -> gguf/quants.py "
         "MXFP4.quantize_rows (astype float32) -> MXFP4.quantize_blocks")


def modes() -> list[Mode]:
    return [
        Mode(kind="block", name="quantize", path=_PATH, profile="ggml-mxfp4",
             formats=("e2m1",), inputs=("fp32", "fp16", "bf16"),
             note="fp16 and bf16 are widened to fp32 exactly (astype) before quantizing"),
        Mode(kind="block", name="quantize-fp64", path=_PATH, profile="ggml-mxfp4",
             formats=("e2m1",), inputs=("fp64",),
             note="gguf rounds fp64 inputs to fp32 first (astype, RNE, Inf past FLT_MAX): "
                  "the profile's wide-input=fp32"),
    ]


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None):
    from gguf import quants
    from gguf.constants import GGMLQuantizationType

    nb, k = x.shape
    with np.errstate(all="ignore"):
        b = quants.quantize(np.ascontiguousarray(x), GGMLQuantizationType.MXFP4)
    b = np.asarray(b, np.uint8).reshape(nb, 1 + k // 2)
    qs = b[:, 1:]
    codes = np.concatenate([qs & 0x0F, qs >> 4], axis=1)
    return b[:, 0].astype(np.int64), codes.astype(np.int64)


def _in_value(e) -> float:
    return float(e["in"].split("(", 1)[1].rstrip(")"))


def exception(mode, fmt, inp, cls, x_row, described):
    """Input-precise places where gguf's MXFP4 quantizer has undefined or FP32-artefact
    behaviour that no policy expresses."""
    with np.errstate(all="ignore"):
        x = np.asarray(x_row).astype(np.float32)  # what gguf quantizes (quantize_rows)
    sc = described.get("scale", {})
    lib_s = int(sc["lib"], 16)
    el = described.get("elements", [])
    to_inf = " (an fp64 value beyond FLT_MAX becomes Inf in astype(float32))" \
        if inp == "fp64" and not np.isinf(np.asarray(x_row, np.float64)).any() else ""
    if np.isnan(x).any() and lib_s == 0x00:
        return ("NaN in the block (gguf-py only; ggml C leaves NaN out of amax): "
                "abs(blocks).max() is NaN, NaN > 0 is False so e = 0 (scale 2^-127, d = 2^-128), "
                "and each element is the argmin of float32 |k*d - x|, in which k*d vanishes "
                "beside any |x| >= 2^-100 or so (all errors equal: index 0, +0)")
    if np.isinf(x).any() and lib_s == 0x00:
        return ("Inf in the block: e = (floor(log2(inf)) - 2 + 127).astype(np.uint8) converts "
                "Inf to uint8 (undefined in C; 0 with NumPy on x86-64), so scale 2^-127 and "
                "every element is the argmin of float32 |k*2^-128 - x|: Inf and any |x| >= "
                "2^-100 or so give index 0 (+0)" + to_inf)
    a = np.abs(x.astype(np.float64))
    amax = float(a.max()) if a.size else 0.0
    if 0 < amax < 2.0 ** -125 and lib_s >= 0x80 and all(e["lib"] == "0x0" for e in el):
        k = math.frexp(amax)[1] - 1  # floor(log2(amax)), exact
        if lib_s in ((k + 125) % 256, (k + 126) % 256):
            return (f"amax < 2^-125: floor(log2(amax)) - 2 + 127 = {k + 125} is negative and "
                    f"astype(np.uint8) wraps it (x86-64; undefined in C) to 0x{lib_s:02x}, so "
                    "d is at least 2^104 and every element is +0")
    if lib_s == 0xFD and el and all(
            abs(_in_value(e)) >= 3.5 * 2.0 ** 126
            and int(e["lib"], 16) == (0xD if _in_value(e) < 0 else 0x5) for e in el):
        return ("scale 2^126 (fp32 amax within 44 ulps of FLT_MAX, where log2f rounds to 128): "
                "k*d is Inf in float32 for the E2M1 values 4 and 6 (2^128, 1.5*2^128), their "
                "error is Inf, and |x| >= 3.5*2^126 gets 3*2^126 (as in ggml C)")
    return None
