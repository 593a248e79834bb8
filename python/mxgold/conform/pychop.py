"""pychop: the NumPy reference backend of its OCP MX quantizer.

Path: ``pychop.MXTensor(x, format=..., block_size=32, backend="numpy")``, which builds
``pychop.np.mx_formats.MXTensor_``: one ``MXBlock_`` per 32 values, each holding its
``shared_scale`` (a float, 2**scale_exp) and its ``quantized_elements`` (float32 element values
before scaling).  Both are read back and mapped to codes.  pychop's MX path has no rounding
option (elements are ``np.rint``, ties to even), so there is one mode per input dtype: the
backend computes the scale in the input's own dtype, and the modes differ there.
"""
from __future__ import annotations

import math

import numpy as np

from . import Mode

NAME = "pychop"
PACKAGE = "pychop"
TESTED = "0.6.2"
LIGHT = True
MAPPING = ("each block's shared_scale (2**e) gives the E8M0 code e+127 (NaN gives 0xFF; EkM0 "
           "under scale_exp_bits=k: e + 2^(k-1) - 1); each "
           "quantized element value (float32) is looked up in the format's code table; a NaN "
           "value (pychop writes np.nan, whose sign carries nothing) maps to the format's NaN "
           "code of the input's sign, and has no code in FP6/FP4/INT8")
SABOTAGE = {"zero_sign": "keep"}

_NAMES = {"e4m3": "mxfp8_e4m3", "e5m2": "mxfp8_e5m2", "e2m3": "mxfp6_e2m3",
          "e3m2": "mxfp6_e3m2", "e2m1": "mxfp4_e2m1", "int8": "mxint8"}
_PATH = ("pychop.MXTensor(x, format, block_size=32, backend='numpy') -> "
         "pychop/np/mx_formats.py MXTensor_ -> MXBlock_._quantize; ._impl.blocks read back")

NO_CODE = 0x100  # a value or scale with no code in the format (never equal to a real code)
# 2**e is a nonzero finite value of the dtype for lo <= e <= hi (subnormals included)
_DTYPE_EXP = {"fp16": (-24, 15), "bf16": (-133, 127), "fp32": (-149, 127), "fp64": (-1074, 1023)}

# pychop's scale is floor(np.log2(amax)) in the input's dtype: one profile, "pychop", with
# scale-rule floor-log2-input, for every input; each dtype is a mode of its own.
_NOTE = {
    "fp32": "",
    "fp64": "scale = floor(fl64(log2 amax)) - emax (np.log2 on float64)",
    "fp16": "scale = floor(fl16(log2 amax)) - emax; 2**e is then taken in float16 (exceptions)",
    "bf16": "scale = floor(flbf16(log2 amax)) - emax (ml_dtypes log2 rounds to bfloat16)",
}


def _inputs_ok(fmt: str, inp: str) -> bool:
    """False where _inputs.block_inputs cannot build blocks (fp16 x e5m2: its scale range
    _exp_range is empty, lo 1 > hi -1, and it raises)."""
    from mxgold._formats import Format

    from . import _inputs

    lo, hi = _inputs._exp_range(Format.get(fmt), inp)
    return lo <= hi


def modes() -> list[Mode]:
    fm = tuple(_NAMES)
    out = []
    for inp in ("fp32", "fp64", "fp16", "bf16"):
        f = tuple(f for f in fm if _inputs_ok(f, inp))
        out.append(Mode(kind="block", name=f"np-{inp}", path=_PATH, profile="pychop",
                        formats=f, inputs=(inp,), note=_NOTE[inp]))
    # scale_exp_bits: an EkM0 scale, its exponent clipped to [-bias, 2^k - 2 - bias] at both
    # ends (scale-overflow clamp); E5M0 clips FP32 blocks often, E10M0 reaches below 2^-127
    for k in (5, 10):
        out.append(Mode(kind="block", name=f"np-fp32-e{k}m0",
                        path=_PATH.replace("block_size=32", f"block_size=32, scale_exp_bits={k}"),
                        profile="pychop", formats=fm, inputs=("fp32",),
                        policy={"scale_overflow": "clamp"}, scale_format=f"e{k}m0",
                        options={"scale_exp_bits": k}, share=0.5,
                        note=f"scale_exp_bits={k}: shared exponent clipped to the E{k}M0 range"))
    return out


_TABLES: dict = {}


def _table(fmt: str):
    """(sorted float64 bit patterns of every non-NaN code's value, their codes, NaN code of
    sign 0 and 1 or None)."""
    if fmt not in _TABLES:
        import mxgold

        f = mxgold.Format.get(fmt)
        codes = np.arange(1 << f.bits, dtype=np.uint16 if f.bits > 8 else np.uint8)
        vals = mxgold.decode(codes, fmt, np.float64)
        ok = ~np.isnan(vals)
        keys = vals[ok].view(np.uint64)
        cs = codes[ok].astype(np.int64)
        if f.special == "int":  # one zero: -0.0 is code 0 too
            keys = np.concatenate([keys, np.array([-0.0]).view(np.uint64)])
            cs = np.concatenate([cs, [0]])
        order = np.argsort(keys)
        nan = None
        if np.isnan(vals).any():
            nan = tuple(int(mxgold.cast(np.array([np.copysign(np.nan, s)], np.float32), fmt)[0])
                        for s in (1.0, -1.0))
        _TABLES[fmt] = (keys[order], cs[order], nan)
    return _TABLES[fmt]


def _codes(fmt: str, vals: np.ndarray, x: np.ndarray) -> np.ndarray:
    keys, cs, nan = _table(fmt)
    v = np.asarray(vals, np.float64)
    kb = v.view(np.uint64)
    i = np.clip(np.searchsorted(keys, kb), 0, keys.size - 1)
    out = np.where(keys[i] == kb, cs[i], NO_CODE)
    isn = np.isnan(v)
    if isn.any():
        if nan is None:
            out[isn] = NO_CODE
        else:
            neg = np.signbit(np.asarray(x, np.float64))
            out[isn] = np.where(neg[isn], nan[1], nan[0])
    return out


def _scale_code(s, k: int = 8) -> int:
    """The EkM0 code of the power of two s (bias 2^(k-1) - 1), NaN the all-ones code."""
    bias = (1 << (k - 1)) - 1
    s = float(s)
    if math.isnan(s):
        return (1 << k) - 1
    if not (s > 0 and math.isfinite(s)):
        return NO_CODE
    m, e = math.frexp(s)
    if m != 0.5 or not -bias <= e - 1 <= bias:
        return NO_CODE
    return e - 1 + bias


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None):
    import pychop

    nb, k = x.shape
    sk = mode.options.get("scale_exp_bits", 8)
    kw = {"scale_exp_bits": sk} if "scale_exp_bits" in mode.options else {}
    with np.errstate(all="ignore"):
        t = pychop.MXTensor(x.reshape(-1), format=_NAMES[fmt], block_size=k, backend="numpy",
                            **kw)
    blocks = t._impl.blocks
    assert len(blocks) == nb
    scales = np.array([_scale_code(b.shared_scale, sk) for b in blocks], np.int64)
    vals = np.stack([np.asarray(b.quantized_elements) for b in blocks])
    return scales, _codes(fmt, vals, x)


def _elements_all(described, pred) -> bool:
    """True when there are mismatching elements (the runner gives exception() all of them) and
    each one satisfies pred(element)."""
    el = described.get("elements", [])
    return len(el) > 0 and all(pred(e) for e in el)


def _in_value(e) -> float:
    return float(e["in"].split("(", 1)[1].rstrip(")"))


def exception(mode, fmt, inp, cls, x_row, described):
    """The documented, input-precise places where pychop's output has no policy."""
    import mxgold

    x = np.asarray(x_row, np.float64)
    isn = np.isnan(x)
    sc = described.get("scale", {})
    has_nan_code = mxgold.Format.get(fmt).special in ("ieee", "fn")
    sk = mode.options.get("scale_exp_bits", 8)
    bias, nan_scale = (1 << (sk - 1)) - 1, (1 << sk) - 1
    if isn.all() and sc.get("lib") == hex(nan_scale):
        return (f"every element NaN: np.nanmax gives NaN, so shared_scale = 2**NaN (scale "
                f"{nan_scale:#x}); a NaN is otherwise left out of amax")
    # pychop forms 2**e in the input's dtype, or divides the block by a Python float that NumPy
    # casts to it: a scale beyond that dtype's range (FP16 always can; FP32 under E10M0) is 0 or
    # Inf there
    lo, hi = _DTYPE_EXP[inp]
    e_gold = int(sc["mxgold"], 16) - bias if sc.get("mxgold") else None
    if e_gold is not None and sc.get("lib") == hex(NO_CODE) and not lo <= e_gold <= hi:
        return (f"{inp} input: shared_scale = 2.0**e is computed in {inp}, so 2**{e_gold} "
                f"becomes 0 (e < {lo}) or Inf (e > {hi})")
    if isn.any() and np.all(x[~isn] == 0) and sc.get("lib") == "0x00" and _elements_all(
            described, lambda e: math.isnan(_in_value(e)) and e["lib"] == "0x00"):
        return ("NaN among zeros only: amax is 0, and the zero-block path writes +0 for every "
                "element, NaN included")
    why = set()

    def explained(e):
        v = _in_value(e)
        if math.isnan(v) and not has_nan_code and e["lib"] == hex(NO_CODE):
            why.add(f"a NaN element of {fmt}, which has no NaN: pychop keeps it as the value NaN "
                    "(no code; its fake-quantized output is NaN)")
            return True
        nan_codes = (NO_CODE,) + (_table(fmt)[2] or ())
        if math.isinf(v) and int(e["lib"], 16) in nan_codes and e_gold is not None \
                and e_gold > hi:
            why.add(f"{inp} input with an Inf: pychop divides the block by the Python float "
                    f"2.0**{e_gold}, which NumPy casts to {inp} Inf, so Inf/Inf gives a NaN "
                    "element")
            return True
        return False
    if sc.get("lib") == sc.get("mxgold") and _elements_all(described, explained):
        return "; ".join(sorted(why))
    return None
