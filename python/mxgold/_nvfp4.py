"""NVFP4 two-level scaling as NVIDIA TransformerEngine computes it: quantize_nvfp4,
dequantize_nvfp4, nvfp4_amax, nvfp4_global_scale and NVFP4Array (docs/semantics.md section 9).

Every value comes from libmxgold (mx_nvfp4_amax, mx_nvfp4_global_scale, mx_quantize_nvfp4,
mx_dequantize_nvfp4), which models each FP32 step of TE's kernels exactly with MPFR.  FP32
scalars (amax, S_enc) travel as numpy float32 values, which carry their bit patterns exactly:
``q.s_enc.view(np.uint32)`` gives the bits.
"""
from __future__ import annotations

import numpy as np

from . import _core, _names
from ._array import _as_input, _axis, _blocked, _random_bits
from ._formats import _BUILTIN, codes_array, input_format, output_dtype

BLOCK = _core.NVFP4_BLOCK
ROUNDINGS = ("rne", "sr")
_DTYPES = "float32, float16, bfloat16 (ml_dtypes)"


def _fp32(bits: int) -> np.float32:
    return np.array([bits], np.uint32).view(np.float32)[0]


def _fp32_bits(v, what: str) -> int:
    """The FP32 bit pattern of a float32 value given as np.float32 (any value), or as another
    number that float32 holds exactly; nothing is rounded here."""
    if isinstance(v, np.ndarray) and v.shape == ():
        v = v[()]
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be a float32 value (np.float32), not {type(v).__name__}")
    if isinstance(v, np.float32):
        f = v
    else:
        with np.errstate(over="ignore"):
            f = np.float32(v)
        if isinstance(v, (int, np.integer)):
            exact = bool(np.isfinite(f)) and int(f) == v
        else:
            exact = bool(np.isnan(v)) if np.isnan(f) else float(f) == float(v)
        if not exact:
            raise ValueError(f"{what}={v!r} is not a float32 value; pass np.float32({v!r}) to "
                             "round it to one")
    return int(np.array([f], np.float32).view(np.uint32)[0])


def _check_amax(bits: int, what: str = "amax") -> None:
    if bits >> 31:
        raise ValueError(f"{what}={_fp32(bits)!r} has its sign bit set; an amax is +0 or more "
                         "(or +Inf, or NaN)")


def _nvfp4_input(x) -> np.ndarray:
    x = _as_input(x)
    infmt, _ = input_format(x.dtype)
    if infmt.name == "fp64":
        raise TypeError(f"dtype float64 is not an NVFP4 input; accepted: {_DTYPES} "
                        "(TransformerEngine's input types)")
    return x


def nvfp4_amax(x) -> np.float32:
    """The tensor amax as TE's amax kernel gives it: max |x| over every element (float32,
    float16 or bfloat16), NaNs ignored (fmaxf), +0 when there is no other value.

    >>> mxgold.nvfp4_amax(np.array([1.5, -7.0, np.nan], np.float32))
    np.float32(7.0)
    """
    x = _nvfp4_input(x)
    infmt, ubits = input_format(x.dtype)
    bits = np.ascontiguousarray(x).view(ubits).reshape(-1)
    return _fp32(_core.nvfp4_amax(bits, infmt.id, bits.size))


def nvfp4_global_scale(amax) -> np.float32:
    """The encode scale S_enc = fminf(fl32(2688 / amax), FLT_MAX) of a tensor amax (2688 =
    448 * 6, E4M3's max times E2M1's); 1 where amax is 0 or +Inf, FLT_MAX for NaN.  ``amax`` is
    an np.float32, or a number that float32 holds exactly.

    >>> mxgold.nvfp4_global_scale(np.float32(2688)), mxgold.nvfp4_global_scale(np.float32(7))
    (np.float32(1.0), np.float32(384.0))
    >>> mxgold.nvfp4_global_scale(0.0)
    np.float32(1.0)
    """
    bits = _fp32_bits(amax, "amax")
    _check_amax(bits)
    return _fp32(_core.nvfp4_global_scale(bits))


def quantize_nvfp4(x, *, axis: int = -1, tile_2d: bool = False, amax=None,
                   rounding: str = "rne", random_bits=None, pad: bool = True) -> "NVFP4Array":
    """Quantize x to NVFP4 (TransformerEngine's recipe): E2M1 codes, one UE4M3 decode scale per
    16 consecutive values along ``axis`` (or per 16x16 tile with ``tile_2d``), and an FP32
    tensor amax that sets the encode scale S_enc = 2688 / amax.

    Parameters
    ----------
    x : array_like of float32, float16 or bfloat16 (ml_dtypes)
        The tensor, read exactly.  TE works on a 2D view: ``axis`` is its columns (the 16-value
        blocks run along it) and every other axis, flattened in C order, its rows.
    axis : the blocks run along it.  A length that is not a multiple of 16 is padded with +0.0,
        which changes no amax, scale or code; the padding is dropped from ``codes``.
        ``pad=False`` rejects such a length instead.
    tile_2d : one scale per 16x16 tile (16 rows by 16 columns), repeated in each of the tile's
        rows of ``scales``, as TE's rowwise scale tensor holds it.  A last tile may have fewer
        than 16 rows.
    amax : the tensor amax as np.float32 (a calibrated one, say; a number that float32 holds
        exactly is taken too).  None: :func:`nvfp4_amax` of x, as TE computes it.
    rounding : ``"rne"`` (``cvt.rn.satfinite``) or ``"sr"`` (TE's stochastic rounding).
    random_bits : for ``"sr"`` only: one unsigned 32-bit word per element, shape of x; the low
        8 bits of each are its random byte.  TE's Philox word w for elements 4j..4j+3 is
        ``random_bits[4j+i] = w >> 8i``.

    Returns an :class:`NVFP4Array`.  Worked example (as tests/tcli.sh derives it): amax 7 gives
    S_enc = fl32(2688/7) = 384; the block scale is 7 * fl32(384 * fl32(1/6)) = 448 = UE4M3
    0x7E; each element is x * fl32(1 / fl32(448 * fl32(1/384))) = x * 0.857..., rounded to
    E2M1: 6 -> 5.14 -> 6 (0x7), 3 -> 2.57 -> 3 (0x5), -1.5 -> -1.29 -> -1.5 (0xB), 0.25 -> 0,
    0.75 -> 0.64 -> 0.5 (0x1), 5 -> 4.29 -> 4 (0x6), -7 -> -6 (0xF).

    >>> x = np.zeros(16, np.float32); x[:7] = [6, 3, -1.5, 0.25, 0.75, 5, -7]
    >>> q = mxgold.quantize_nvfp4(x)
    >>> q.amax, q.s_enc, q.scales, q.flags
    (np.float32(7.0), np.float32(384.0), array([126], dtype=uint8), 1)
    >>> [hex(c) for c in q.codes[:7]]
    ['0x7', '0x5', '0xb', '0x0', '0x1', '0x6', '0xf']
    >>> q.dequantize()[:7]
    array([ 7.0000005,  3.5000002, -1.7500001,  0.       ,  0.5833334,  4.666667 ,
           -7.0000005], dtype=float32)
    """
    x = _nvfp4_input(x)
    ax = _axis(axis, x.ndim)
    if not isinstance(tile_2d, bool):
        raise TypeError("tile_2d must be True or False")
    if not isinstance(pad, bool):
        raise TypeError("pad must be True or False")
    if not isinstance(rounding, str):
        raise TypeError(f"rounding must be a name, one of: {', '.join(ROUNDINGS)}")
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding={rounding!r}; accepted: {', '.join(ROUNDINGS)} "
                         "(TransformerEngine's NVFP4 modes)")
    is_sr = rounding == "sr"
    if is_sr and random_bits is None:
        raise ValueError("rounding='sr' needs random_bits: one 32-bit word per element (its "
                         "low 8 bits used)")
    if not is_sr and random_bits is not None:
        raise ValueError("random_bits goes with rounding='sr' only")
    infmt, ubits = input_format(x.dtype)
    if amax is None:
        amax_bits = int(np.asarray(nvfp4_amax(x)).view(np.uint32))
    else:
        amax_bits = _fp32_bits(amax, "amax")
        _check_amax(amax_bits)
    s_enc = _core.nvfp4_global_scale(amax_bits)
    xb = _blocked(x, ax, BLOCK, pad, "x")
    rb = _random_bits(random_bits, x.shape, ax, BLOCK, pad) if is_sr else None
    cols = xb.shape[-1]
    rows = xb.size // cols if cols else 0
    codes = np.zeros(xb.shape, np.uint8)
    scales = np.zeros(xb.shape[:-1] + (cols // BLOCK,), np.uint8)
    flags = 0
    if xb.size:
        flags = _core.quantize_nvfp4(xb.view(ubits).reshape(-1), infmt.id, rows, cols, amax_bits,
                                     tile_2d, _RND[rounding], None if rb is None
                                     else rb.reshape(-1), scales.reshape(-1), codes.reshape(-1))
    return NVFP4Array._make(x.shape, ax, codes, scales, amax_bits, s_enc, flags, tile_2d,
                            rounding)


def dequantize_nvfp4(codes, scales, amax, *, axis: int = -1, dtype=np.float32) -> np.ndarray:
    """NVFP4 data back to values, as TE's dequantize kernel computes them from the tensor
    amax (not S_enc): f = fl32(fl32(scale * amax) * fl32(1/2688)), out = fl32(code * f) rounded
    once (RNE) to ``dtype``: float32, float16 or bfloat16.

    ``codes``: E2M1 codes (0..15) in the data's shape; ``scales``: UE4M3 codes (0..0x7F), that
    shape with the ``axis`` length replaced by ceil(length / 16); ``amax`` as in
    :func:`quantize_nvfp4`.  2D-tiled data dequantizes the same way (each row holds its tile's
    scale).  Worked example: amax 2688 and scale 0x38 (1.0) give f = fl32(2688 * fl32(1/2688))
    = fl32(1 + 2^-25.9) = 1, so codes 0x7 and 0xF are +-6.

    >>> mxgold.dequantize_nvfp4([0x7, 0xF] + [0] * 14, [0x38], np.float32(2688))[:2]
    array([ 6., -6.], dtype=float32)
    """
    outfmt, dt = output_dtype(dtype)
    if outfmt.name == "fp64":
        raise TypeError(f"dtype float64 is not an NVFP4 output; accepted: {_DTYPES}")
    c = codes_array(codes, _BUILTIN["e2m1"], "codes")
    s = codes_array(scales, _BUILTIN["ue4m3"], "scales")
    if c.ndim == 0:
        raise ValueError("codes must have at least one dimension")
    ax = _axis(axis, c.ndim)
    amax_bits = _fp32_bits(amax, "amax")
    _check_amax(amax_bits)
    cb = _blocked(c, ax, BLOCK, True, "codes")
    want = cb.shape[:-1] + (cb.shape[-1] // BLOCK,)
    sb = np.ascontiguousarray(np.moveaxis(s, ax, -1) if s.ndim == c.ndim else s)
    if sb.shape != want:
        raise ValueError(f"scales has shape {s.shape}; codes of shape {c.shape} in blocks of "
                         f"{BLOCK} along axis {ax} need "
                         f"{np.moveaxis(np.empty(want), -1, ax).shape}")
    return _dequantize(cb, sb, amax_bits, outfmt, dt, c.shape[ax], ax)


def _dequantize(cb, sb, amax_bits, outfmt, dt, n, ax) -> np.ndarray:
    out = np.zeros(cb.shape, dt)
    cols = cb.shape[-1]
    if cb.size:
        _core.dequantize_nvfp4(sb.reshape(-1), cb.reshape(-1), cb.size // cols, cols, amax_bits,
                               outfmt.id, out.view(_UINTS[outfmt.bits]).reshape(-1))
    return np.moveaxis(out[..., :n], -1, ax)


_UINTS = {16: np.uint16, 32: np.uint32}
_RND = {r: _names.ROUNDINGS.index(r) for r in ROUNDINGS}


class NVFP4Array:
    """An NVFP4 tensor: what :func:`quantize_nvfp4` returns.

    Attributes
    ----------
    codes : uint8 E2M1 codes (S.EE.M, 0..15), the shape of x.
    scales : uint8 UE4M3 decode scales (0..0x7E), x's shape with the axis length replaced by
        the number of 16-value blocks; with ``tile_2d`` each row holds its tile's scale.
    amax, s_enc : np.float32, the tensor amax and the encode scale 2688 / amax
        (``.view(np.uint32)`` gives their bits).
    flags : int, the OR over the tensor of ``mxgold.FLAGS`` bits: invalid (a NaN input),
        overflow (an element or a scale saturated), inexact.
    axis, shape, tile_2d, rounding.
    """

    def __init__(self):
        raise TypeError("NVFP4Array is made by mxgold.quantize_nvfp4")

    @classmethod
    def _make(cls, shape, axis, codes_b, scales_b, amax_bits, s_enc_bits, flags, tile_2d,
              rounding):
        self = object.__new__(cls)
        self.shape, self.axis, self.tile_2d, self.rounding = tuple(shape), axis, tile_2d, rounding
        self._codes_b, self._scales_b = codes_b, scales_b
        self._amax_bits, self._s_enc_bits, self.flags = amax_bits, s_enc_bits, int(flags)
        return self

    @property
    def codes(self) -> np.ndarray:
        return np.moveaxis(self._codes_b[..., :self.shape[self.axis]], -1, self.axis)

    @property
    def scales(self) -> np.ndarray:
        return np.moveaxis(self._scales_b, -1, self.axis)

    @property
    def amax(self) -> np.float32:
        return _fp32(self._amax_bits)

    @property
    def s_enc(self) -> np.float32:
        return _fp32(self._s_enc_bits)

    def dequantize(self, dtype=np.float32) -> np.ndarray:
        """The values, as :func:`dequantize_nvfp4` computes them from this amax: float32,
        float16 or bfloat16."""
        outfmt, dt = output_dtype(dtype)
        if outfmt.name == "fp64":
            raise TypeError(f"dtype float64 is not an NVFP4 output; accepted: {_DTYPES}")
        return _dequantize(self._codes_b, self._scales_b, self._amax_bits, outfmt, dt,
                           self.shape[self.axis], self.axis)

    def __repr__(self):
        return (f"NVFP4Array(shape={self.shape}, axis={self.axis}, tile_2d={self.tile_2d}, "
                f"amax={float(self.amax)!r}, rounding={self.rounding!r})")
