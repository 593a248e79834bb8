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

Three behaviours no current policy field expresses (the proposed fields: ``PROPOSED``):

1. ``astype`` from FP64 first rounds to FP32 (``wide-input=fp32``).
2. A NaN into FP6/FP4 gives ``-quiet_NaN()`` for a negative NaN, and FP6/FP4 ``quiet_NaN()`` is
   the -0 code while ``operator-`` flips the sign bit: +NaN gives the -0 code, -NaN the +0 code
   (``nan-elem=flipzero``).
3. E8M0 has no zero but ConvertImpl treats biased exponent 0 as a subnormal binade of quantum
   2^-126: 0 < x < 2^-126 rounds (RNE) onto {0, 2^-126} and 0 is written as code 0x00, so
   2^-127 < x < 1.5*2^-127 gives 0x01 where the E8M0 grid gives 0x00 (``e8m0-bottom=subnormal``).

Until mxgold implements them, ``exception()`` accepts a mismatch only where the library's code
equals this module's emulation of exactly these rules on top of the mode's profile, and the
rule changes the result (and mxgold's code is the mode's own, so sabotage runs still fail).
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
_NO_NAN = {"e2m3": 6, "e3m2": 6, "e2m1": 4}  # formats without NaN: their width

# Policy values the library needs that mxgold does not have yet (policy key -> value), per mode.
# A rule moves from the emulation in exception() into Mode.policy as soon as mxgold knows it.
PROPOSED = {
    "astype": {"wide_input": "fp32", "nan_elem": "flipzero", "e8m0_bottom": "subnormal"},
    "pyfloat": {"wide_input": "exact", "nan_elem": "flipzero", "e8m0_bottom": "subnormal"},
}
_PATHS = {
    "astype": "numpy ndarray.astype(ml_dtypes.<type>): NPyCast<From,T> = T(static_cast<float>(x)), "
              "ConvertImpl<float,T,kSaturate=false,kTruncate=false>",
    "pyfloat": "np.array(x.astype(float64).tolist(), dtype=ml_dtypes.<type>) (as the scalar "
               "constructor): CastToCustomFloat -> T(double), "
               "ConvertImpl<double,T,kSaturate=false,kTruncate=false>",
}


def _known(key: str, value: str) -> bool:
    """True if mxgold's policy field ``key`` (python spelling) accepts ``value``."""
    from .. import _names

    f = _names.POLICY_FIELDS.get(key.replace("_", "-"))
    return f is not None and value in f[0]


# proposed values that are what mxgold does today without the field (nothing to emulate)
_TODAY = {("wide_input", "exact")}


def _split(name: str) -> tuple[dict, dict]:
    """(policy mxgold accepts, rules still emulated) for a mode."""
    have, todo = {}, {}
    for k, v in PROPOSED[name].items():
        if _known(k, v):
            have[k] = v
        elif (k, v) not in _TODAY:
            todo[k] = v
    return have, todo


def modes() -> list[Mode]:
    out = []
    for name in ("astype", "pyfloat"):
        have, todo = _split(name)
        note = ("emulated until mxgold has them: " + ", ".join(
            f"{k.replace('_', '-')}={v}" for k, v in todo.items())) if todo else ""
        out.append(Mode(kind="cast", name=name, profile="ml-dtypes", formats=tuple(_TYPES),
                        inputs=("fp32", "fp64", "fp16", "bf16"), path=_PATHS[name],
                        policy=have, note=note))
    return out


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


def _emulate(mode: Mode, fmt: str, x: np.ndarray, todo: dict) -> int:
    """mxgold at the mode's profile and policy, plus the still-missing rules ``todo``."""
    import mxgold

    v = x
    if todo.get("wide_input") == "fp32" and v.dtype == np.float64:
        with np.errstate(all="ignore"):
            v = v.astype(np.float32)  # RNE, overflow to Inf, FP32 subnormals kept, NaN sign kept
    code = int(mxgold.cast(v, fmt, profile=mode.profile, rounding=mode.rounding,
                           **mode.policy)[0])
    with np.errstate(all="ignore"):
        d = float(v.astype(np.float64)[0])
    if todo.get("nan_elem") == "flipzero" and fmt in _NO_NAN and d != d:
        code = 0 if np.signbit(d) else 1 << (_NO_NAN[fmt] - 1)
    if todo.get("e8m0_bottom") == "subnormal" and fmt == "e8m0" and 2.0**-127 < d < 2.0**-126:
        code = 0x01
    return code


# Library bug (0.6.0, pyfloat path only): ConvertImpl<double, float8_e8m0fnu> packs
# aligned_mantissa + (target_exp_bits << 0) in uint8.  For 1.5*2^128 <= x < 2^129 the exponent
# base is 254 and RNE carries the mantissa to 2, so 254 + 2 wraps to 0, which passes the
# `result_bits > 0xFE` overflow test: the result is 0x00 (2^-127) instead of NaN.  FP32 inputs
# cannot reach it (their exponent is at most 127), nor can astype (it narrows to FP32 first).
_WRAP_LO, _WRAP_HI = 1.5 * 2.0**128, 2.0**129


def exception(mode, fmt, inp, cls, x_row, described):
    """A mismatch that exactly the proposed rules (PROPOSED, not yet in mxgold) explain, or the
    E8M0 exponent wrap-around of the pyfloat path."""
    import mxgold

    x = np.array([x_row], dtype=np.asarray(x_row).dtype)
    gold = int(mxgold.cast(x, fmt, profile=mode.profile, rounding=mode.rounding,
                           **mode.policy)[0])
    if gold != int(described["mxgold"], 16):
        return None  # mxgold ran at other settings (a sabotage run): no excuse
    lib = int(described["lib"], 16)
    if (mode.name == "pyfloat" and fmt == "e8m0" and x.dtype == np.float64
            and _WRAP_LO <= float(x[0]) < _WRAP_HI and lib == 0x00 and gold == 0xFF):
        return ("ml_dtypes bug: ConvertImpl<double,e8m0> uint8 wrap-around, "
                "1.5*2^128 <= x < 2^129 gives 0x00 instead of NaN")
    have, todo = _split(mode.name)
    if not todo:
        return None
    for k in todo:  # name the one rule that alone explains it
        if _emulate(mode, fmt, x, {k: todo[k]}) == lib != gold:
            return f"{k.replace('_', '-')}={todo[k]} (proposed policy, emulated)"
    if _emulate(mode, fmt, x, todo) == lib != gold:
        return ", ".join(f"{k.replace('_', '-')}={v}" for k, v in todo.items()) + \
            " (proposed policies, emulated)"
    return None
