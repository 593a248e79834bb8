"""gfloat (graphcore-research): the MX block API and the vectorized rounding.

Paths, for the six MX block formats ``gfloat.formats.format_info_mx*`` (E8M0 scale, k=32):

``encode_block``   the block API, per block as ``quantize_block`` composes it:
                   ``s = compute_scale_amax(etype.emax, vals)`` then
                   ``encode_block(fi, s, vals / s, round)`` (scalar ``round_float(sat=True)`` +
                   ``encode_float`` per element; the first code is the scale).
``quantize_block`` the same, returning decoded values (compared as values).
``round_ndarray``  the same scale and division, then ``round_ndarray(etype, scaled, rnd, sat=True,
                   srbits, srnumbits)`` + ``encode_ndarray`` over the whole array: the only path
                   that takes random bits (``encode_block`` has no ``srbits`` argument).

Random bits: the runner's uint32 word per element, low ``N`` bits (``srbits = rbits & (2^N-1)``,
``srnumbits = N``), exactly the bits mxgold's ``sr`` uses with ``sr_bits = N``.

What gfloat 0.5.2 does (gfloat/block.py, round.py, round_ndarray.py, encode*.py):

- scale: ``compute_scale_amax``: ``amax = xp.max(xp.abs(vals))`` (NaN propagates), 0 gives
  2^-127, else ``floor(xp.log2(amax)) - emax`` clipped to [-127, 127], ``2.0**q``: every step in
  the input dtype (``floor-log2-input``; an Inf amax clips to 127: 0xFE; FP64 past 2^127 clamps).
- elements: ``vals / scale`` in the input dtype, then rounded with ``sat=True`` (Inf -> +-max);
  -0 and negative underflow keep the -0 code; INT8 reaches -2.0 (code 0x80); subnormals kept.
- a NaN makes the scale NaN (0xFF); FP6/FP4/INT8 then raise (no NaN to encode).
- ``encode_block`` raises ValueError for a scale outside [2^-127, 2^127], which
  ``compute_scale_amax`` never returns; in FP16 the check compares in float16 and lets 0 and
  Inf through (FP16 scale exponents outside [-24, 15], zero blocks and Inf: see exception()).
- stochastic: round away iff F + srbits >= 2^N, F the discarded fraction times 2^N reduced to an
  integer by truncation (StochasticFastest: mxgold's ``sr``), RNE (Stochastic), ties to odd
  (StochasticOdd) or ties up (StochasticFast); round_ndarray converts srbits to the input dtype,
  so FP16 needs N <= 10.

bfloat16 is not run: ``compute_scale_amax`` raises on ml_dtypes bfloat16 (``xp.clip`` with
``casting="no"``), so gfloat's block path does not take bf16.
"""
from __future__ import annotations

import warnings

import numpy as np

from . import Mode

NAME = "gfloat"
PACKAGE = "gfloat"
TESTED = "0.5.2"
LIGHT = True
# ctest's light run (tests/CMakeLists.txt) at these random and probe counts: gfloat's paths are
# Python per element, and the default 500/100 took 129 s against 34 (AMD EPYC family 25, one core)
CI_COUNTS = (150, 50)
MAPPING = ("encode_block's integers (scale code first, then element codes) are the codes; "
           "round_ndarray values are encoded by gfloat's encode_ndarray; quantize_block values "
           "are compared as values; a block gfloat raises on is scale 0x100 (no result)")
SABOTAGE = {"inf_block": "nan"}

RAISED = 0x100  # scale code returned for a block on which gfloat raised (never an E8M0 code)

_FMT = {"e4m3": "format_info_mxfp8_e4m3", "e5m2": "format_info_mxfp8_e5m2",
        "e2m3": "format_info_mxfp6_e2m3", "e3m2": "format_info_mxfp6_e3m2",
        "e2m1": "format_info_mxfp4_e2m1", "int8": "format_info_mxint8"}
_NO_NAN = ("e2m3", "e3m2", "e2m1", "int8")
_QUANTUM = {"e4m3": 2.0 ** -9, "e5m2": 2.0 ** -16, "e2m3": 2.0 ** -3, "e3m2": 2.0 ** -4,
            "e2m1": 2.0 ** -1, "int8": 2.0 ** -6}  # smallest subnormal (INT8: 2^-6)
_BITS = {"e4m3": 8, "e5m2": 8, "e2m3": 6, "e3m2": 6, "e2m1": 4, "int8": 8}


def _in64(s: str) -> float:
    """The FP64 value of the runner's "0x<bits> (<value>)" string."""
    return float(np.array(int(s.split()[0], 16), np.uint64).view(np.float64))


def _is_min_sub(fmt: str, code: str) -> bool:
    c = int(code, 16)
    if fmt == "int8":
        return c in (0x01, 0xFF)
    return c & ~(1 << (_BITS[fmt] - 1)) == 1

# gfloat RoundMode -> mxgold rounding
_ROUND = {"TiesToEven": "rne", "TiesToAway": "rna", "TowardZero": "rtz",
          "TowardPositive": "rup", "TowardNegative": "rdn"}
_STOCH = ("StochasticFastest", "Stochastic", "StochasticOdd", "StochasticFast")
# how each stochastic mode reduces the discarded fraction to N bits before adding srbits
_SR_FRAC = {"StochasticFastest": "truncate", "Stochastic": "to nearest, ties to even",
            "StochasticOdd": "to nearest, ties to odd", "StochasticFast": "to nearest, ties up"}
SR_N = 16  # srnumbits for FP32/FP64 inputs
SR_N16 = 8  # srnumbits for FP16 inputs: round_ndarray converts srbits to the input dtype

# Profile "gfloat" (proposed; not yet in profiles.def): ocp plus these fields.
POLICY = {}  # the profile "gfloat" holds every field; stochastic modes add sr-bits and sr-frac
# how each stochastic mode reduces the discarded fraction to N bits: mxgold's sr-frac
_SR_POLICY = {"StochasticFastest": "trunc", "Stochastic": "rne", "StochasticOdd": "tto",
              "StochasticFast": "up"}
# encode_block and quantize_block are per-element Python (about 0.4 ms a block): a fifth of the
# counts; round_ndarray, vectorized, takes them all
_SLOW_SHARE = 0.2

INPUTS = ("fp32", "fp64", "fp16")
_NOTE = ""


def modes() -> list[Mode]:
    fmts = tuple(_FMT)
    out = []
    for rm, rnd in _ROUND.items():
        out.append(Mode(kind="block", name=f"encode_block/{rm}", profile="gfloat", policy=POLICY,
                        rounding=rnd, formats=fmts, inputs=INPUTS, note=_NOTE,
                        path=f"gfloat.encode_block(fi, s, vals/s, RoundMode.{rm}), "
                             "s = compute_scale_amax(fi.etype.emax, vals)",
                        options={"path": "block", "round": rm}, share=_SLOW_SHARE))
    out.append(Mode(kind="block", name="quantize_block/TiesToEven", profile="gfloat", policy=POLICY,
                    rounding="rne", formats=fmts, inputs=INPUTS, output="values", note=_NOTE,
                    path="gfloat.quantize_block(fi, vals, compute_scale_amax, "
                         "RoundMode.TiesToEven)",
                    options={"path": "quantize", "round": "TiesToEven"}, share=_SLOW_SHARE))
    # encode_block takes no srbits: its stochastic modes run with srbits=-1, srnumbits=0
    out.append(Mode(kind="block", name="encode_block/Stochastic", profile="gfloat", policy=POLICY,
                    rounding="rtz", formats=fmts, inputs=("fp32",), note=_NOTE +
                    "encode_block passes no srbits, so every stochastic mode truncates",
                    path="gfloat.encode_block(fi, s, vals/s, RoundMode.Stochastic)",
                    options={"path": "block", "round": "Stochastic"}, share=_SLOW_SHARE))
    for rm, rnd in _ROUND.items():
        out.append(Mode(kind="block", name=f"round_ndarray/{rm}", profile="gfloat", policy=POLICY,
                        rounding=rnd, formats=fmts, inputs=INPUTS, note=_NOTE,
                        path=f"gfloat.round_ndarray(fi.etype, vals/s, RoundMode.{rm}, sat=True)"
                             " + encode_ndarray",
                        options={"path": "ndarray", "round": rm}))
    for rm in _STOCH:
        for n, inputs in ((SR_N, ("fp32", "fp64")), (SR_N16, ("fp16",))):
            note = f"the discarded fraction is reduced to N bits {_SR_FRAC[rm]}"
            out.append(Mode(kind="block", name=f"round_ndarray/{rm}/N={n}", profile="gfloat",
                            policy={**POLICY, "sr_bits": n, "sr_frac": _SR_POLICY[rm]},
                            rounding="sr", random=True,
                            formats=fmts, inputs=inputs, note=note,
                            path=f"gfloat.round_ndarray(fi.etype, vals/s, RoundMode.{rm}, "
                                 f"sat=True, srbits=rbits & {(1 << n) - 1:#x}, srnumbits={n})"
                                 " + encode_ndarray",
                            options={"path": "ndarray", "round": rm, "n": n}))
    return out


def _scales(gf, fi, x):
    """compute_scale_amax per block, and each block divided by its scale as quantize_block
    does (``vals / q_scale``, in the input dtype)."""
    s = [gf.compute_scale_amax(fi.etype.emax, row) for row in x]
    scaled = np.stack([row / si for row, si in zip(x, s)])
    return s, scaled


def _run_block(gf, fi, x, rnd):
    nb, k = x.shape
    scales = np.zeros(nb, np.int64)
    codes = np.zeros((nb, k), np.int64)
    s, scaled = _scales(gf, fi, x)
    for i in range(nb):
        try:
            enc = list(gf.encode_block(fi, s[i], scaled[i], rnd))
        except (ValueError, AssertionError):
            scales[i] = RAISED
            continue
        scales[i] = enc[0]
        codes[i] = enc[1:]
    return scales, codes


def _run_quantize(gf, fi, x, rnd):
    nb, k = x.shape
    out = np.zeros((nb, k), np.float64)
    for i in range(nb):
        try:
            out[i] = gf.quantize_block(fi, x[i], gf.compute_scale_amax, rnd)
        except (ValueError, AssertionError):
            # no result: a row mxgold never gives (NaN beside finite values needs a finite
            # scale and a NaN element, which nan-block=propagate never encodes)
            out[i] = 0.0
            out[i, 0] = np.nan
    return out.astype(x.dtype)


def _nd_elements(gf, fi, scaled, rnd, srbits, n):
    kw = {} if srbits is None else {"srbits": srbits, "srnumbits": n}
    r = gf.round_ndarray(fi.etype, scaled, rnd, sat=True, **kw)
    return gf.encode_ndarray(fi.etype, r)


def _run_ndarray(gf, fi, x, rnd, rbits, n):
    nb, k = x.shape
    s, scaled = _scales(gf, fi, x)
    srbits = None if rbits is None else (rbits.astype(np.int64) & ((1 << n) - 1))
    # the scale: encode_block's own steps (round with sat, encode) on the scale array
    sa = np.array([float(v) for v in s], np.float64)
    sc = gf.encode_ndarray(fi.stype, gf.round_ndarray(fi.stype, sa, gf.RoundMode.TiesToEven,
                                                      sat=True)).astype(np.int64)
    try:
        codes = _nd_elements(gf, fi, scaled, rnd, srbits, n).astype(np.int64)
        return sc, codes
    except (ValueError, AssertionError):
        pass
    # some block made the whole call raise: run it block by block to find which
    codes = np.zeros((nb, k), np.int64)
    for i in range(nb):
        try:
            codes[i] = _nd_elements(gf, fi, scaled[i], rnd,
                                    None if srbits is None else srbits[i], n)
        except (ValueError, AssertionError):
            sc[i] = RAISED
    return sc, codes


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None):
    import gfloat as gf
    import gfloat.formats as gff

    fi = getattr(gff, _FMT[fmt])
    rnd = getattr(gf.RoundMode, mode.options["round"])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = mode.options["path"]
        if path == "block":
            return _run_block(gf, fi, x, rnd)
        if path == "quantize":
            return _run_quantize(gf, fi, x, rnd)
        return _run_ndarray(gf, fi, x, rnd, rbits, mode.options.get("n", 0))


def exception(mode: Mode, fmt: str, inp: str, cls: str, x_row: np.ndarray, described: dict):
    """Blocks gfloat cannot quantize, decided from the input alone."""
    v = x_row.astype(np.float64)
    sc = described.get("scale")  # absent for values (quantize_block: the raise is the result)
    raised = sc is None or sc["lib"] == f"0x{RAISED:x}"
    if np.isnan(v).any() and fmt in _NO_NAN and raised:
        # amax is NaN, so the scale is NaN and every element is NaN: FP6/FP4/INT8 have none
        return ("gfloat raises on a NaN in a block of a format without NaN (round_float: "
                "'No NaN in format'; encode_ndarray: assert not any(nan_mask))")
    if (mode.options.get("path") == "block" and mode.options.get("round") == "TiesToAway"
            and inp == "fp64" and sc is not None and described["elements"]):
        # round_float tests ties as `delta + 0.5 >= 1.0` in double: delta = 1/2 - 2^-54 (an FP64
        # quotient just below half the smallest subnormal) sums to 1.0 and rounds away
        q = _QUANTUM[fmt] * 2.0 ** (int(sc["lib"], 16) - 127)
        if all(abs(_in64(e["in"])) == q * (0.5 - 2.0 ** -54) and _is_min_sub(fmt, e["lib"])
               for e in described["elements"]):
            return ("round_float tests TiesToAway as delta + 0.5 >= 1.0 in double: an FP64 "
                    "element at (1/2 - 2^-54) x the smallest subnormal rounds away from zero")
    if inp == "fp16" and not np.isnan(v).any():
        import gfloat.formats as gff

        emax = getattr(gff, _FMT[fmt]).etype.emax
        a = np.max(np.abs(x_row))
        if a == 0:
            return ("FP16 all-zero block: the scale 2^-127 is a Python float, vals / 2^-127 "
                    "in float16 is 0/0 = NaN")
        if np.isinf(a):
            return ("FP16 Inf in block: the scale 2.0**127 computed in float16 is Inf, "
                    "Inf/Inf = NaN elements, finite/Inf = 0")
        with np.errstate(all="ignore"):
            q = np.floor(np.log2(a)) - emax
        if q < -24:
            return (f"FP16 block with scale exponent {int(q)} < -24: 2.0**q in float16 is 0, "
                    "the scale encodes as NaN and vals/0 is +-Inf or NaN")
        if q > 15:
            return (f"FP16 block with scale exponent {int(q)} > 15: 2.0**q in float16 is Inf, "
                    "the scale encodes as 0xFE and vals/Inf is +-0")
    return None
