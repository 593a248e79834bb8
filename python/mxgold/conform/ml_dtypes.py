"""ml_dtypes: numpy scalar casts to the MX element types and to E8M0.

Path: ``x.astype(ml_dtypes.<type>)`` on a numpy array (the ufunc cast, ``ConvertImpl`` with
kSaturate=false, kTruncate=false), from float32, float64, float16 and bfloat16 arrays.
"""
from __future__ import annotations

import numpy as np

from . import Mode

NAME = "ml_dtypes"
PACKAGE = "ml_dtypes"
TESTED = "0.6.0"
LIGHT = True
MAPPING = "the dtype's storage byte is the code (view as uint8); no decoding"
SABOTAGE = {"overflow": "sat"}

_TYPES = {"e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2", "e2m3": "float6_e2m3fn",
          "e3m2": "float6_e3m2fn", "e2m1": "float4_e2m1fn", "e8m0": "float8_e8m0fnu"}


def modes() -> list[Mode]:
    return [Mode(kind="cast", name="astype", profile="ml-dtypes", formats=tuple(_TYPES),
                 inputs=("fp32", "fp64", "fp16", "bf16"),
                 path="numpy ndarray.astype(ml_dtypes.<type>) (ConvertImpl, non-saturating)")]


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None) -> np.ndarray:
    import ml_dtypes

    with np.errstate(all="ignore"):
        y = x.astype(getattr(ml_dtypes, _TYPES[fmt]))
    return y.view(np.uint8)
