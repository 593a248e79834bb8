"""ml_dtypes: numpy casts to the MX element types and to E8M0 (float8_e8m0fnu).

ml_dtypes 0.6.0 converts with one template, ``float8_internal::ConvertImpl<From, To,
kSaturate=false, kTruncate=false>::run`` (``ml_dtypes/include/float8.h``; the FP6/FP4 limits are in
``mxfloat.h``), reached by two public paths that differ for FP64 inputs:

``astype``  ``ndarray.astype(ml_dtypes.<type>)`` (also ``np.asarray(arr, dtype=...)``): the numpy
            cast function ``NPyCast<From, T>`` (``_src/custom_float.h``) is
            ``static_cast<T>(CastToFloat(from))``: every input goes through C++ ``float`` first, so
            an FP64 input is rounded to FP32 (RNE, x86 ``cvtsd2ss``) and then to the target: double
            rounding.  FP32, FP16 and BF16 inputs are exact in FP32.  (BF16 uses
            ``PyCast<bfloat16, T, float>`` of ``_src/dtypes.cc``, also through ``float``.)
``pyfloat`` a Python float into the type: ``np.array(list_of_floats, dtype=ml_dtypes.<type>)``
            (numpy calls the dtype's setitem, ``NPyCustomFloat_SetItem``), the scalar constructor
            ``ml_dtypes.<type>(f)`` and ``arr[i] = f`` all reach ``CastToCustomFloat``:
            ``PyFloat_Check`` then ``T(double)``, i.e. ``ConvertImpl<double, T>``: one rounding
            from binary64.  Every input is widened exactly to a Python float first.

There is no public saturating (``kSaturate=true``) or truncating path in the Python extension.

The profile ``ml-dtypes`` holds what sets ml_dtypes apart: ``wide-input=fp32`` (the astype path
narrows FP64 to FP32 first; ``pyfloat`` overrides it to ``exact``), ``nan-elem=flipzero``
(FP6/FP4 ``quiet_NaN()`` is the -0 code and ``operator-`` flips it), ``scale-bottom=subnormal``
(E8M0 biased exponent 0 is taken as a subnormal binade of quantum 2^-126) and ``overflow=ovf``.
The one documented exception is a library bug of the pyfloat path (``exception``).
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

_POLICY = {"astype": {}, "pyfloat": {"wide_input": "exact"}}
_PATHS = {
    "astype": "numpy ndarray.astype(ml_dtypes.<type>): NPyCast<From,T> = T(static_cast<float>(x)), "
              "ConvertImpl<float,T,kSaturate=false,kTruncate=false>",
    "pyfloat": "np.array(x.astype(float64).tolist(), dtype=ml_dtypes.<type>) (as the scalar "
               "constructor): CastToCustomFloat -> T(double), "
               "ConvertImpl<double,T,kSaturate=false,kTruncate=false>",
}


def modes() -> list[Mode]:
    return [Mode(kind="cast", name=name, profile="ml-dtypes", formats=tuple(_TYPES),
                 inputs=("fp32", "fp64", "fp16", "bf16"), path=_PATHS[name],
                 policy=_POLICY[name]) for name in ("astype", "pyfloat")]


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None) -> np.ndarray:
    import ml_dtypes

    t = getattr(ml_dtypes, _TYPES[fmt])
    if mode.name == "astype":
        with np.errstate(all="ignore"):
            y = x.astype(t)
    else:
        # exact widening to binary64 (NaN signs kept), then Python floats: numpy packs each with
        # the dtype's setitem (CastToCustomFloat -> T(double)), as t(v) would
        with np.errstate(all="ignore"):
            vals = x.astype(np.float64).tolist()
        y = np.array(vals, dtype=t)
    return np.ascontiguousarray(y).view(np.uint8)


# Library bug (0.6.0, pyfloat path only): ConvertImpl<double, float8_e8m0fnu> packs
# aligned_mantissa + (target_exp_bits << 0) in uint8.  For 1.5*2^128 <= x < 2^129 the exponent
# base is 254 and RNE carries the mantissa to 2, so 254 + 2 wraps to 0, which passes the
# `result_bits > 0xFE` overflow test: the result is 0x00 (2^-127) instead of NaN.  FP32 inputs
# cannot reach it (their exponent is at most 127), nor can astype (it narrows to FP32 first).
_WRAP_LO, _WRAP_HI = 1.5 * 2.0**128, 2.0**129


def exception(mode, fmt, inp, cls, x_row, described):
    """The E8M0 exponent wrap-around of the pyfloat path, input by input."""
    x = float(np.asarray(x_row).astype(np.float64))
    if (mode.name == "pyfloat" and fmt == "e8m0" and inp == "fp64" and _WRAP_LO <= x < _WRAP_HI
            and described["lib"] == "0x00" and described["mxgold"] == "0xff"):
        return ("ml_dtypes bug: ConvertImpl<double,e8m0> uint8 wrap-around, "
                "1.5*2^128 <= x < 2^129 gives 0x00 instead of NaN")
    return None
