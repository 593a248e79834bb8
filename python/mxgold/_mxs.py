"""The shared-microexponent formats MX9, MX6 and MX4: quantize_mxs, dequantize_mxs and MXSArray
(golden/include/mx/mxs.def; docs/semantics.md section 5b).

A block of k1 = 16 elements has one E8M0 block exponent E; each sub-block of k2 = 2 elements
has a d2 = 1-bit shift s; each element is a sign and an m-bit magnitude M (m = 7, 4, 2), of value
(-1)^sign * M * 2^(1-m) * 2^(E - s).  Every value comes from libmxgold (mx_quantize_mxs,
mx_dequantize_mxs).
"""
from __future__ import annotations

import numpy as np

from . import _core, _names
from ._array import _as_input, _axis, _blocked
from ._formats import (Format, _BUILTIN, _FIELDS, codes_array, format as _custom, input_format,
                       output_dtype, policy_dict, resolve_policy)

FORMATS = tuple(_names.MXS_FORMATS)

# mx.h, mx_quantize_mxs: fields that choose or bump a scale have no MXS meaning and must stay at
# their default; inf-block maxscale and pow128 are refused.  Checked here to name them.
_FIXED = ("scale-rule", "scale-bump", "min-scale-elem", "scale-div")
_INF_REFUSED = ("maxscale", "pow128")
_OCP = _core.profile(0)[0]


def _mxs_format(fmt) -> tuple[str, dict]:
    if not isinstance(fmt, str):
        raise TypeError(f"format must be a name, one of: {', '.join(FORMATS)}")
    if fmt not in _names.MXS_FORMATS:
        raise ValueError(f"format={fmt!r}; accepted: {', '.join(FORMATS)}")
    return fmt, _names.MXS_FORMATS[fmt]


def element_format(fmt: str) -> Format:
    """The element format of an MXS format: E1M(m-1), bias 1, no Inf or NaN, whose codes are
    exactly the sign-magnitude codes ``sign << m | M`` (value (-1)^sign M 2^(1-m)).

    >>> f = mxgold.mxs_element_format("mx9")
    >>> f.bits, float(f.max)
    (8, 1.984375)
    """
    _, d = _mxs_format(fmt)
    return _custom(1, d["m"] - 1, bias=1, specials="finite")


def bits_per_element(fmt: str) -> float:
    """(8 + (k1/k2) d2) / k1 + m + 1: the E8M0 exponent and the shifts spread over the block.

    >>> [mxgold.mxs_bits_per_element(f) for f in ("mx9", "mx6", "mx4")]
    [9.0, 6.0, 4.0]
    """
    _, d = _mxs_format(fmt)
    return (8 + d["k1"] // d["k2"] * d["d2"]) / d["k1"] + d["m"] + 1


def quantize_mxs(x, format: str = "mx9", *, axis: int = -1, rounding: str | None = None,
                 profile: str = "ocp", pad: bool = True, **policy) -> "MXSArray":
    """Quantize x to MX9, MX6 or MX4 blocks of 16 along ``axis``.

    Parameters
    ----------
    x : array_like of float32, float64, float16 or bfloat16 (ml_dtypes), read exactly.
    format : ``"mx9"``, ``"mx6"`` or ``"mx4"`` (``mxgold.MXS_FORMATS``).
    axis : the blocks run along it.  A length that is not a multiple of 16 is padded with +0.0,
        which changes no scale, shift or code of the data (a padded sub-block gets shift 1);
        the padding is dropped from ``codes`` and kept in ``shifts``.  ``pad=False`` rejects
        such a length instead.
    rounding : the element rounding, any deterministic one (``mxgold.ROUNDINGS`` but ``"sr"``);
        None takes the profile's (``"rne"`` for ``"ocp"``).  Quark's ONNX kernel is ``rna``,
        ``rhu`` or ``rne`` by its rounding_mode, its torch path ``rne``.
    profile, **policy : as in :func:`mxgold.quantize`.  The fields that apply: ``nan_block``,
        ``inf_block`` (``nan``, ``sat`` or ``zero``), ``subnormals``, ``zero_sign``,
        ``nan_elem``, ``scale_overflow``, ``wide_input``, ``scale_min``, ``zero_scale``.  The
        block exponent is always floor(log2 amax): ``scale_rule``, ``scale_bump``,
        ``min_scale_elem`` and ``scale_div`` must stay at their defaults.  Quark's torch
        MX9/MX6 is ``subnormals="flush-pos", nan_block="ignore", inf_block="zero"``.

    Returns an :class:`MXSArray`.  Worked example, MX9 (m = 7, M = P * 64): amax 1.0 gives
    E = 0, scale 0x7F.  Sub-block (1.0, -0.5) has an element at 2^E: shift 0, codes 64 = 0x40
    and 0x80 | 32 = 0xA0.  Sub-block (0.25, 0.0) lies below 2^E: shift 1, so 0.25 = P * 2^-1,
    P = 0.5, code 32 = 0x20.  Empty sub-blocks get shift 1.

    >>> x = np.zeros(16, np.float32); x[:4] = [1.0, -0.5, 0.25, 0.0]
    >>> q = mxgold.quantize_mxs(x, "mx9")
    >>> q.scales, q.shifts, q.flags
    (array([127], dtype=uint8), array([0, 1, 1, 1, 1, 1, 1, 1], dtype=uint8), array([0], dtype=uint8))
    >>> [hex(c) for c in q.codes[:4]]
    ['0x40', '0xa0', '0x20', '0x0']
    >>> q.dequantize()[:4]
    array([ 1.  , -0.5 ,  0.25,  0.  ], dtype=float32)
    """
    name, d = _mxs_format(format)
    x = _as_input(x)
    ax = _axis(axis, x.ndim)
    if not isinstance(pad, bool):
        raise TypeError("pad must be True or False")
    pol, rnd = resolve_policy(profile, rounding, policy, "quantize_mxs")
    if _names.ROUNDINGS[rnd] == "sr":
        raise ValueError(f"rounding='sr' is not defined for {name}; accepted: "
                         f"{', '.join(r for r in _names.ROUNDINGS if r != 'sr')}")
    for f in _FIXED:
        i = _FIELDS.index(f)
        if pol[i] != _OCP[i]:
            v = policy_dict(pol)[f.replace("-", "_")]
            ocp = policy_dict(_OCP)[f.replace("-", "_")]
            raise ValueError(f"{f.replace('-', '_')}={v!r} (profile={profile!r}) has no meaning "
                             f"for {name}, whose block exponent is floor(log2 amax); it must be "
                             f"{ocp!r}")
    inf = policy_dict(pol)["inf_block"]
    if inf in _INF_REFUSED:
        raise ValueError(f"inf_block={inf!r} (profile={profile!r}) is not defined for {name}; "
                         "accepted: nan, sat, zero")
    k, nsub = d["k1"], d["k1"] // d["k2"]
    infmt, ubits = input_format(x.dtype)
    xb = _blocked(x, ax, k, pad, "x")
    nb = xb.size // k
    lead = xb.shape[:-1]
    scales = np.zeros(lead + (xb.shape[-1] // k,), np.uint8)
    shifts = np.zeros(lead + (xb.shape[-1] // k * nsub,), np.uint8)
    codes = np.zeros(xb.shape, np.uint8)
    flags = np.zeros(scales.shape, np.uint8)
    if nb:
        _core.quantize_mxs(xb.view(ubits).reshape(-1), infmt.id, nb, d["id"], pol, rnd,
                           scales.reshape(-1), shifts.reshape(-1), codes.reshape(-1),
                           flags.reshape(-1))
    return MXSArray._make(name, x.shape, ax, scales, shifts, codes, flags, pol, rnd, profile)


def dequantize_mxs(scales, shifts, codes, format: str = "mx9", *, axis: int = -1,
                   dtype=np.float32) -> np.ndarray:
    """MXS blocks back to values: each element's exact value (-1)^sign M 2^(1-m) 2^(E - s)
    rounded once (RNE) to ``dtype`` (float32, float64, float16 or bfloat16; into float32 and
    float64 always exact).  A NaN scale (0xFF) gives NaN for the whole block.

    ``codes`` (0..2^(m+1)-1) have the data's shape; ``scales`` (E8M0) that shape with the
    ``axis`` length replaced by the number of blocks of 16; ``shifts`` (0 or 1) by 8 per block.

    >>> mxgold.dequantize_mxs([0x80], [0, 1] + [1] * 6, [0x3, 0x5, 0x1, 0x6] + [0] * 12,
    ...                       "mx4")[:4]
    array([ 3. , -1. ,  0.5, -1. ], dtype=float32)
    """
    name, d = _mxs_format(format)
    outfmt, dt = output_dtype(dtype)
    k, nsub = d["k1"], d["k1"] // d["k2"]
    c = codes_array(codes, element_format(name), "codes")
    s = codes_array(scales, _BUILTIN["e8m0"], "scales")
    sh = np.asarray(shifts)
    if sh.dtype.kind not in "iu":
        raise TypeError(f"shifts must hold integers, not {sh.dtype}")
    if sh.size and (sh.min() < 0 or sh.max() > (1 << d["d2"]) - 1):
        raise ValueError(f"shifts must lie in 0..{(1 << d['d2']) - 1} for {name}")
    if c.ndim == 0:
        raise ValueError("codes must have at least one dimension")
    ax = _axis(axis, c.ndim)
    cb = _blocked(c, ax, k, True, "codes")
    lead, nbl = cb.shape[:-1], cb.shape[-1] // k
    got = []
    for what, a, per in (("scales", s, 1), ("shifts", sh, nsub)):
        b = np.ascontiguousarray(np.moveaxis(a, ax, -1) if a.ndim == c.ndim else a, np.uint8)
        if b.shape != lead + (nbl * per,):
            raise ValueError(f"{what} has shape {a.shape}; codes of shape {c.shape} in blocks of "
                             f"{k} along axis {ax} need "
                             f"{np.moveaxis(np.empty(lead + (nbl * per,)), -1, ax).shape}")
        got.append(b)
    return _dequantize(name, got[0], got[1], cb, outfmt, dt, c.shape[ax], ax)


def _dequantize(name, sb, shb, cb, outfmt, dt, n, ax) -> np.ndarray:
    d = _names.MXS_FORMATS[name]
    out = np.zeros(cb.shape, dt)
    ub = {16: np.uint16, 32: np.uint32, 64: np.uint64}[outfmt.bits]
    if cb.size:
        _core.dequantize_mxs(sb.reshape(-1), shb.reshape(-1), cb.reshape(-1), sb.size, d["id"],
                             outfmt.id, 0, out.view(ub).reshape(-1))
    return np.moveaxis(out[..., :n], -1, ax)


class MXSArray:
    """MX9/MX6/MX4 blocks: what :func:`quantize_mxs` returns.

    Attributes
    ----------
    scales : uint8 E8M0 block exponents, x's shape with the axis length replaced by the number
        of blocks of 16.
    shifts : uint8, one shift (0 or 1) per sub-block of 2: the axis length is 8 per block
        (sub-block j of block b at 8b + j).
    codes : uint8 sign-magnitude element codes ``sign << m | M``, the shape of x; they are
        codes of :attr:`element_format`.
    flags : uint8 per block, the OR of ``mxgold.FLAGS`` bits.
    format (name), element_format, axis, shape, policy (dict), rounding, profile.
    """

    def __init__(self):
        raise TypeError("MXSArray is made by mxgold.quantize_mxs")

    @classmethod
    def _make(cls, name, shape, axis, scales_b, shifts_b, codes_b, flags_b, pol, rnd, profile):
        self = object.__new__(cls)
        self.format, self.shape, self.axis, self.profile = name, tuple(shape), axis, profile
        self._scales_b, self._shifts_b, self._codes_b, self._flags_b = (scales_b, shifts_b,
                                                                        codes_b, flags_b)
        self._pol, self._rnd = pol, rnd
        return self

    @property
    def scales(self) -> np.ndarray:
        return np.moveaxis(self._scales_b, -1, self.axis)

    @property
    def shifts(self) -> np.ndarray:
        return np.moveaxis(self._shifts_b, -1, self.axis)

    @property
    def codes(self) -> np.ndarray:
        return np.moveaxis(self._codes_b[..., :self.shape[self.axis]], -1, self.axis)

    @property
    def flags(self) -> np.ndarray:
        return np.moveaxis(self._flags_b, -1, self.axis)

    @property
    def element_format(self) -> Format:
        return element_format(self.format)

    @property
    def policy(self) -> dict:
        return policy_dict(self._pol)

    @property
    def rounding(self) -> str:
        return _names.ROUNDINGS[self._rnd]

    def dequantize(self, dtype=np.float32) -> np.ndarray:
        """The values, as :func:`dequantize_mxs` computes them."""
        outfmt, dt = output_dtype(dtype)
        return _dequantize(self.format, self._scales_b, self._shifts_b, self._codes_b, outfmt,
                           dt, self.shape[self.axis], self.axis)

    def __repr__(self):
        return (f"MXSArray(format={self.format!r}, shape={self.shape}, axis={self.axis}, "
                f"rounding={self.rounding!r}, profile={self.profile!r})")

