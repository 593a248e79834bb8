"""quantize, fake_quantize, MXArray and PackedMXArray."""
from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from . import _core, _names
from ._formats import (FLAG_OVERFLOW, Format, FormatLike, _BUILTIN, _FIELDS, _uint, codes_array,
                       input_format, output_dtype, policy_dict, resolve_format, resolve_policy,
                       _check_int)

ENGINES = ("auto", "exact", "fast")
# What libmxk implements (kernels/cpu/include/mxk.h): block 32, E8M0 scales, FP32 or BF16 input,
# these roundings (sr with sr_bits 16, mxk_quantize_sr) and scale rules, every other policy
# field at its OCP default.
_FAST_ROUNDINGS = {"rne", "rna", "rtz", "rup", "rdn", "sr"}
_FAST_RULES = {"floor", "rceil-fp32"}
_OCP = _core.profile(0)[0]
_RULE = _FIELDS.index("scale-rule")
_SR_BITS = _FIELDS.index("sr-bits")


def _fast_refusal(elem: Format, sfmt: Format, infmt: Format, block: int, pol: tuple,
                  rnd: int) -> str | None:
    """Why libmxk cannot give this quantization, or None if it can."""
    if not elem.builtin:
        return "a custom element format"
    if sfmt != _BUILTIN["e8m0"]:
        return f"scale format {sfmt.name} (only e8m0)"
    if block != 32:
        return f"block={block} (only 32)"
    if infmt.name not in ("fp32", "bf16"):
        return f"{infmt.name} input (only float32 and bfloat16)"
    if _names.ROUNDINGS[rnd] not in _FAST_ROUNDINGS:
        return f"rounding {_names.ROUNDINGS[rnd]!r} (only {', '.join(sorted(_FAST_ROUNDINGS))})"
    if _names.ROUNDINGS[rnd] == "sr" and pol[_SR_BITS] != 16:
        return f"sr_bits={pol[_SR_BITS]} (only 16)"
    rule = _names.POLICY_FIELDS["scale-rule"][0][pol[_RULE]]
    if rule not in _FAST_RULES:
        return f"scale_rule {rule!r} (only {', '.join(sorted(_FAST_RULES))})"
    for i, (v, o) in enumerate(zip(pol, _OCP)):
        if i not in (_RULE, _SR_BITS) and v != o:
            return f"policy field {_FIELDS[i].replace('-', '_')} away from its OCP default"
    return None


def _axis(axis, ndim: int) -> int:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"axis must be an integer, not {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis={axis} is out of range for an array of {ndim} dimensions")
    return int(axis) % ndim


def _as_input(x) -> np.ndarray:
    if not isinstance(x, np.ndarray):
        x = np.asarray(x)
        if x.dtype.kind in "iub":
            raise TypeError(f"x holds {x.dtype} values; quantize takes floating-point arrays")
    input_format(x.dtype)  # raises TypeError naming the accepted dtypes
    if x.ndim == 0:
        raise ValueError("x must have at least one dimension (the blocks run along axis)")
    return x


def _blocked(a: np.ndarray, axis: int, block: int, pad: bool, what: str) -> np.ndarray:
    """a with axis moved last and padded with zeros to whole blocks, C-contiguous (no copy when
    axis is already last, contiguous and whole)."""
    a = np.moveaxis(a, axis, -1)
    n = a.shape[-1]
    whole = -(-n // block) * block
    if whole != n:
        if not pad:
            raise ValueError(f"{what}: the length {n} along axis is not a multiple of block="
                             f"{block} (pad=True pads with zeros)")
        p = np.zeros(a.shape[:-1] + (whole,), a.dtype)
        p[..., :n] = a
        return p
    return np.ascontiguousarray(a)


def _random_bits(random_bits, shape, axis, block, pad) -> np.ndarray:
    r = np.asarray(random_bits)
    if r.dtype.kind not in "iu":
        raise TypeError(f"random_bits must hold integers, not {r.dtype}")
    if r.shape != shape:
        raise ValueError(f"random_bits has shape {r.shape}; one word per element of x "
                         f"{shape} is needed")
    if r.size and (r.min() < 0 or r.max() > 0xFFFFFFFF):
        raise ValueError("random_bits must lie in 0..2^32-1")
    return _blocked(r.astype(np.uint32, copy=False), axis, block, pad, "random_bits")


def quantize(x, fmt: FormatLike, *, axis: int = -1, block: int = 32,
             rounding: str | None = None, scale_rule: str | None = None, profile: str = "ocp",
             scale_format: FormatLike = "e8m0", random_bits=None, engine: str = "auto",
             pad: bool = True, element_flags: bool = False, out: "MXArray | None" = None,
             **policy) -> "MXArray":
    """Quantize x to MX blocks of ``block`` elements along ``axis``.

    Parameters
    ----------
    x : array_like of float32, float64, float16 or bfloat16 (ml_dtypes)
        The values, read exactly as their bit patterns.
    fmt : str, Format or (exp_bits, man_bits)
        The element format: ``"e4m3" "e5m2" "e2m3" "e3m2" "e2m1" "int8"`` (or their OCP
        aliases), or a custom one from :func:`mxgold.format`.
    axis, block : the blocks run along ``axis``, ``block`` elements each (1..4096).  A length
        that is not a multiple of ``block`` is padded at its end with +0.0, which changes no
        block's amax and so no scale or code; the padding is dropped from ``codes``.
        ``pad=False`` rejects such a length instead.
    rounding, scale_rule : element rounding and shared-exponent rule; None takes the profile's
        (``"rne"`` and ``"floor"`` for ``"ocp"``).  Names: ``mxgold.ROUNDINGS``,
        ``mxgold.policy()``.
    profile : the starting policy (``mxgold.profiles()``).
    scale_format : ``"e8m0"`` (OCP), ``"ue4m3"`` or :func:`mxgold.scale_format`.
    random_bits : for ``rounding="sr"`` only: one unsigned 32-bit word per element, shape of x;
        the low ``sr_bits`` of each are added below the last kept bit (docs/semantics.md).
    engine : ``"exact"`` runs libmxgold (MPFR), ``"fast"`` libmxk (ValueError if the kernels do
        not implement this request), ``"auto"`` the kernels where they give the same bits
        (block 32, E8M0, float32/bfloat16 input, OCP policy with rule floor or rceil-fp32,
        roundings rne rna rtz rup rdn, and sr with sr_bits=16), libmxgold otherwise.
    **policy : any policy field by its name with ``_`` for ``-`` (``overflow="ovf"``,
        ``zero_scale=0x7F``...): see ``mxgold.policy()`` and docs/policies.md.
    element_flags : compute the flags of every element now (one more byte per element);
        otherwise ``MXArray.element_flags`` computes them on first use.
    out : an MXArray of the same shape, format and block whose scale and code arrays are
        written in place and which is returned (as numpy's ``out=``): repeated calls then
        allocate nothing of that size.

    >>> q = mxgold.quantize(np.array([1.0, -2.5, 448.0, 1e-9], np.float32), "e4m3", block=4)
    >>> q.scales, [hex(c) for c in q.codes]
    (array([127], dtype=uint8), ['0x38', '0xc2', '0x7e', '0x0'])
    >>> q.dequantize()
    array([  1. ,  -2.5, 448. ,   0. ], dtype=float32)
    """
    x = _as_input(x)
    ax = _axis(axis, x.ndim)
    _check_int(block, "block", 1, _core.MAX_K)
    if engine not in ENGINES:
        raise ValueError(f"engine={engine!r}; accepted: {', '.join(ENGINES)}")
    if not isinstance(pad, bool):
        raise TypeError("pad must be True or False")
    elem = resolve_format(fmt, "element", "fmt")
    sfmt = resolve_format(scale_format, "scale", "scale_format")
    pol, rnd = resolve_policy(profile, rounding, dict(policy, scale_rule=scale_rule), "quantize")
    infmt, ubits = input_format(x.dtype)
    is_sr = _names.ROUNDINGS[rnd] == "sr"
    if is_sr and random_bits is None:
        raise ValueError("rounding='sr' needs random_bits: one 32-bit word per element")
    if not is_sr and random_bits is not None:
        raise ValueError("random_bits goes with rounding='sr' only")
    if pol[_FIELDS.index("zero-scale")] >= 1 << sfmt.bits:
        raise ValueError(f"zero_scale={pol[_FIELDS.index('zero-scale')]:#x} does not fit the "
                         f"{sfmt.bits}-bit scale format {sfmt.name}")
    refusal = _fast_refusal(elem, sfmt, infmt, block, pol, rnd)
    if engine == "fast" and refusal:
        raise ValueError(f"engine='fast': the kernels do not implement {refusal}; use "
                         "engine='exact' or 'auto'")
    use_fast = engine == "fast" or (engine == "auto" and refusal is None)

    xb = _blocked(x, ax, block, pad, "x")
    rb = _random_bits(random_bits, x.shape, ax, block, pad) if is_sr else None
    nb = xb.size // block
    s_shape, s_dt = xb.shape[:-1] + (xb.shape[-1] // block,), np.dtype(_uint(sfmt.bits))
    if out is None:
        scales, codes = np.empty(s_shape, s_dt), np.empty(xb.shape, _uint(elem.bits))
    else:
        if not isinstance(out, MXArray):
            raise TypeError(f"out must be an MXArray, not {type(out).__name__}")
        scales, codes = out._scales_b, out._codes_b
        if (scales.shape != s_shape or scales.dtype != s_dt or codes.shape != xb.shape
                or codes.dtype != _uint(elem.bits) or not scales.flags.writeable
                or not codes.flags.writeable or out.axis != ax):
            raise ValueError("out does not match: it needs the shape, axis, block and format "
                             "widths of this quantization")
    flags = elem_flags = None
    bits = xb.view(ubits).reshape(-1)
    if use_fast:
        # sr: the kernels take each word's low 16 bits, all that sr_bits=16 uses
        _core.quantize_fast(bits, infmt.id, bits.size, elem.id, pol[_RULE], rnd,
                            scales.reshape(-1), codes.reshape(-1),
                            None if rb is None else (rb.reshape(-1) & 0xFFFF).astype(np.uint16))
    else:
        flags = np.empty(scales.shape, np.uint8)
        elem_flags = np.empty(codes.shape, np.uint8) if element_flags else None
        _core.quantize(bits, infmt.id, nb, block, elem.spec, sfmt.spec, pol, rnd,
                       None if rb is None else rb.reshape(-1), scales.reshape(-1),
                       codes.reshape(-1), flags.reshape(-1),
                       None if elem_flags is None else elem_flags.reshape(-1))
    return MXArray._make(x, ax, block, elem, sfmt, pol, rnd, profile, scales, codes, flags,
                         elem_flags, rb, "fast" if use_fast else "exact", into=out)


def fake_quantize(x, fmt: FormatLike, **kwargs) -> np.ndarray:
    """Quantize then dequantize (QDQ), back to x's dtype: each element is its code times its
    block's scale, rounded once (RNE) to that dtype.  Takes quantize's arguments.

    >>> x = np.array([0.3, 1.7, -5.0, 100.0], np.float32)
    >>> mxgold.fake_quantize(x, "e2m1", block=4)
    array([ 0.,  0., -8., 96.], dtype=float32)
    """
    x = _as_input(x)
    return quantize(x, fmt, **kwargs).dequantize(x.dtype)


class MXArray:
    """Blocks of MX data: one scale per block, one element code per value.

    Attributes
    ----------
    scales : uint8 (uint16 for wider custom scales); x's shape with the axis length replaced by
        the number of blocks.
    codes : uint8 (wider for wider custom formats), unpacked, the shape of x.
    flags : uint8 per block, the OR of MX_FLAG_* (``mxgold.FLAGS``).  The fast kernels give no
        flags: after ``engine="fast"`` they are computed by libmxgold on first use.
    format, scale_format, block, axis, policy (dict), rounding, profile, shape, engine.
    """

    def __init__(self):
        raise TypeError("MXArray is made by mxgold.quantize or MXArray.unpack")

    @classmethod
    def _make(cls, x, axis, block, elem, sfmt, pol, rnd, profile, scales_b, codes_b, flags_b,
              elem_flags_b, rbits_b, engine, shape=None, into=None):
        self = object.__new__(cls) if into is None else into
        self._x = x
        self.shape = tuple(x.shape) if shape is None else tuple(shape)
        self.axis, self.block, self.format, self.scale_format = axis, block, elem, sfmt
        self._pol, self._rnd, self.profile, self.engine = pol, rnd, profile, engine
        self._scales_b, self._codes_b, self._rbits_b = scales_b, codes_b, rbits_b
        self._flags_b, self._elem_flags_b = flags_b, elem_flags_b
        return self

    @classmethod
    def from_codes(cls, scales, codes, fmt: FormatLike, *, block: int = 32, axis: int = -1,
                   scale_format: FormatLike = "e8m0", profile: str = "ocp") -> "MXArray":
        """An MXArray from scales and codes made elsewhere (a third-party implementation's
        output, say), to dequantize, dot or matmul with mxgold.  ``codes`` has the shape of the
        data; ``scales`` that shape with the axis length replaced by the number of blocks.
        It has no input, so no flags or statistics.

        >>> m = mxgold.MXArray.from_codes([126], [0x38, 0x40], "e4m3", block=2)
        >>> m.dequantize()
        array([0.5, 1. ], dtype=float32)
        """
        _check_int(block, "block", 1, _core.MAX_K)
        elem = resolve_format(fmt, "element", "fmt")
        sfmt = resolve_format(scale_format, "scale", "scale_format")
        c, s = codes_array(codes, elem, "codes"), codes_array(scales, sfmt, "scales")
        if c.ndim == 0:
            raise ValueError("codes must have at least one dimension")
        ax = _axis(axis, c.ndim)
        cb = _blocked(c, ax, block, True, "codes")
        want = cb.shape[:-1] + (cb.shape[-1] // block,)
        sb = np.ascontiguousarray(np.moveaxis(s, ax, -1) if s.ndim == c.ndim else s,
                                  _uint(sfmt.bits))
        if sb.shape != want:
            raise ValueError(f"scales has shape {s.shape}; codes of shape {c.shape} in blocks "
                             f"of {block} along axis {ax} need "
                             f"{np.moveaxis(np.empty(want), -1, ax).shape}")
        pol, rnd = resolve_policy(profile, None, {}, "from_codes")
        return cls._make(None, ax, block, elem, sfmt, pol, rnd, profile, sb, cb, None, None,
                         None, "given", shape=c.shape)

    # The blocked layout (axis last, padded) is what the C calls take; the public views put the
    # axis back where it was.
    @property
    def _n(self) -> int:
        return self.shape[self.axis]

    @property
    def scales(self) -> np.ndarray:
        return np.moveaxis(self._scales_b, -1, self.axis)

    @property
    def codes(self) -> np.ndarray:
        return np.moveaxis(self._codes_b[..., :self._n], -1, self.axis)

    @property
    def policy(self) -> dict:
        return policy_dict(self._pol)

    @property
    def rounding(self) -> str:
        return _names.ROUNDINGS[self._rnd]

    def _exact_flags(self, elements: bool = False):
        if self._flags_b is None or (elements and self._elem_flags_b is None):
            if self._x is None:
                raise ValueError("flags are unknown: this MXArray was unpacked without them and "
                                 "without its input")
            q = quantize(self._x, self.format, axis=self.axis, block=self.block,
                         rounding=self.rounding, profile=self.profile,
                         scale_format=self.scale_format, engine="exact", element_flags=True,
                         random_bits=None if self._rbits_b is None else np.moveaxis(
                             self._rbits_b[..., :self._n], -1, self.axis),
                         **self.policy)
            if not (np.array_equal(q._scales_b, self._scales_b)
                    and np.array_equal(q._codes_b, self._codes_b)):
                raise AssertionError("libmxk and libmxgold disagree: please report this input")
            self._flags_b, self._elem_flags_b = q._flags_b, q._elem_flags_b
        return self._flags_b, self._elem_flags_b

    @property
    def flags(self) -> np.ndarray:
        return np.moveaxis(self._exact_flags()[0], -1, self.axis)

    @property
    def element_flags(self) -> np.ndarray:
        """The flags of each element (shape of x), as ``flags`` is for each block."""
        return np.moveaxis(self._exact_flags(True)[1][..., :self._n], -1, self.axis)

    def __repr__(self):
        return (f"MXArray(shape={self.shape}, format={self.format.name}, block={self.block}, "
                f"axis={self.axis}, scale_format={self.scale_format.name}, "
                f"rounding={self.rounding!r}, profile={self.profile!r}, engine={self.engine!r})")

    def __eq__(self, other):
        """Same formats, blocking and shape, and the same scale and code bits."""
        if not isinstance(other, MXArray):
            return NotImplemented
        return (self.format == other.format and self.scale_format == other.scale_format
                and self.block == other.block and self.axis == other.axis
                and self.shape == other.shape
                and np.array_equal(self._scales_b, other._scales_b)
                and np.array_equal(self.codes, other.codes))

    __hash__ = None

    def dequantize(self, dtype=np.float32, *, engine: str = "auto") -> np.ndarray:
        """The values, each code times its block's scale rounded once (RNE) to ``dtype``
        (float32, float64, float16 or bfloat16); a NaN scale gives NaN.  ``engine`` as in
        quantize: the kernels serve float32/bfloat16 out of block-32 E8M0 data.

        >>> mxgold.quantize(np.array([3.0, -0.75], np.float32), "e2m1", block=2).dequantize()
        array([ 3.  , -0.75], dtype=float32)
        """
        outfmt, dt = output_dtype(dtype)
        if engine not in ENGINES:
            raise ValueError(f"engine={engine!r}; accepted: {', '.join(ENGINES)}")
        refusal = None
        if not self.format.builtin or self.scale_format != _BUILTIN["e8m0"] or self.block != 32:
            refusal = "this format, scale format or block size"
        elif outfmt.name not in ("fp32", "bf16"):
            refusal = f"{outfmt.name} output (only float32 and bfloat16)"
        if engine == "fast" and refusal:
            raise ValueError(f"engine='fast': the kernels do not implement {refusal}")
        out = np.empty(self._codes_b.shape, dt)
        ob = out.view(_uint(outfmt.bits)).reshape(-1)
        if refusal is None and engine != "exact":
            _core.dequantize_fast(self._scales_b.reshape(-1), self._codes_b.reshape(-1), ob.size,
                                  self.format.id, outfmt.id, ob)
        else:
            _core.dequantize(self._scales_b.reshape(-1), self._codes_b.reshape(-1),
                             self._scales_b.size, self.block, self.format.spec,
                             self.scale_format.spec, outfmt.id, 0, ob)
        return np.moveaxis(out[..., :self._n], -1, self.axis)

    #-------------------------------------------------------------- packing -#
    def pack(self, packing: str) -> "PackedMXArray":
        """The element codes packed into bytes: ``"fp4-lo-first"`` (torchao), ``"fp4-j-j16"``
        (ggml block_mxfp4), ``"fp6-3byte"``, or ``"unpacked"``.  Blocks are packed one after
        the other in the blocked layout (axis last, padded to whole blocks).

        >>> q = mxgold.quantize(np.arange(4, dtype=np.float32), "e2m1", block=4)
        >>> [hex(c) for c in q.codes], [hex(b) for b in q.pack("fp4-lo-first").data]
        (['0x0', '0x4', '0x6', '0x7'], ['0x40', '0x76'])
        """
        if not isinstance(packing, str) or packing not in _names.PACKINGS:
            raise ValueError(f"packing={packing!r}; accepted: {', '.join(_names.PACKINGS)}")
        p = _names.PACKINGS.index(packing)
        if self.format.bits > 8:
            raise ValueError(f"packing: {self.format.name} codes are wider than a byte")
        per_block = _core.packed_size(p, self.block)
        if per_block == 0:
            raise ValueError(f"packing {packing!r} needs a block that is a multiple of its group "
                             f"(block={self.block})")
        codes = self._codes_b.reshape(-1)
        out = np.empty(per_block * (codes.size // self.block), np.uint8)
        if codes.size:
            try:
                _core.pack(codes, codes.size, self.format.spec, p, out)
            except ValueError:
                raise ValueError(f"packing {packing!r} does not hold {self.format.name} codes "
                                 f"({self.format.bits} bits)") from None
        return PackedMXArray(out, packing, self)

    @staticmethod
    def unpack(packed: "PackedMXArray") -> "MXArray":
        """The MXArray that ``pack`` packed (inverse of :meth:`pack`)."""
        if not isinstance(packed, PackedMXArray):
            raise TypeError(f"unpack takes a PackedMXArray, not {type(packed).__name__}")
        m = packed._meta
        p = _names.PACKINGS.index(packed.packing)
        codes = np.empty(m._scales_b.size * m.block, np.uint8)
        if codes.size:
            _core.unpack(packed.data, codes.size, m.format.spec, p, codes)
        codes_b = codes.reshape(m._scales_b.shape[:-1] + (m._scales_b.shape[-1] * m.block,))
        return MXArray._make(m._x, m.axis, m.block, m.format, m.scale_format, m._pol, m._rnd,
                             m.profile, packed.scales_blocked.copy(), codes_b, m._flags_b,
                             m._elem_flags_b, m._rbits_b, m.engine, m.shape)

    #----------------------------------------------------------- statistics -#
    def statistics(self) -> dict[str, Any]:
        """Quality and size figures of this quantization of its input (float64 arithmetic on
        the exact dequantized values; NaN and Inf inputs and outputs are left out of the error
        figures):

        ``bits_per_element`` (element bits + scale bits / block), ``compression_vs_fp16``,
        ``compression_vs_fp32``, ``mse``, ``max_abs_error``, ``sqnr_db`` (10 log10 of signal
        over error energy; inf when exact), ``saturated`` (share of elements whose rounded value
        exceeded max finite: the overflow flag), ``underflowed`` (share of nonzero finite inputs
        that became zero), ``nan`` (share of NaN outputs), ``scale_histogram`` (count per scale
        code).

        >>> s = mxgold.quantize(np.array([1.0, 2.0, 3.0, 33.0], np.float32), "e2m1", block=4).statistics()
        >>> s["bits_per_element"], float(s["mse"]), s["saturated"]
        (6.0, 1.75, 0.0)
        """
        if self._x is None:
            raise ValueError("statistics need the input: this MXArray was unpacked without it")
        x = np.asarray(self._x, np.float64)
        d = self.dequantize(np.float64)
        _, ef = self._exact_flags(True)
        ef = np.moveaxis(ef[..., :self._n], -1, self.axis)
        ok = np.isfinite(x) & np.isfinite(d)
        err = (d - x)[ok]
        sig = float(np.sum(x[ok] ** 2))
        noise = float(np.sum(err ** 2))
        n = x.size
        bpe = self.format.bits + self.scale_format.bits / self.block
        return {
            "bits_per_element": bpe,
            "compression_vs_fp16": 16 / bpe,
            "compression_vs_fp32": 32 / bpe,
            "mse": float(np.mean(err ** 2)) if err.size else 0.0,
            "max_abs_error": float(np.max(np.abs(err))) if err.size else 0.0,
            "sqnr_db": (math.inf if noise == 0 else
                        -math.inf if sig == 0 else 10 * math.log10(sig / noise)),
            "saturated": float(np.count_nonzero(ef & FLAG_OVERFLOW)) / n if n else 0.0,
            "underflowed": (float(np.count_nonzero(np.isfinite(x) & (x != 0) & (d == 0))) / n
                            if n else 0.0),
            "nan": float(np.count_nonzero(np.isnan(d))) / n if n else 0.0,
            "scale_histogram": np.bincount(self._scales_b.reshape(-1).astype(np.int64),
                                           minlength=1 << self.scale_format.bits),
        }

    #------------------------------------------------------------------ mxv -#
    def to_mxv(self, path: str | os.PathLike) -> None:
        """Write a quantize vectors file (docs/vectors.md): one case per block with the input,
        the scale, the codes and the flags, that ``mxgold verify FILE`` checks.  The file is
        written beside ``path`` and renamed over it only when complete."""
        if self._x is None:
            raise ValueError("to_mxv needs the input: this MXArray was unpacked without it")
        if not self.format.builtin or not self.scale_format.builtin:
            raise ValueError("to_mxv: .mxv headers name built-in formats only")
        infmt, ubits = input_format(self._x.dtype)
        flags, _ = self._exact_flags()
        xb = _blocked(self._x, self.axis, self.block, True, "x")
        u64 = np.uint64
        _core.write_mxv(os.fspath(path), self.format.id, self.scale_format.id, infmt.id,
                        self.block, self._pol, self._rnd, self.profile,
                        xb.view(ubits).reshape(-1).astype(u64), self._scales_b.reshape(-1)
                        .astype(u64), self._codes_b.reshape(-1).astype(u64),
                        flags.reshape(-1).astype(u64),
                        None if self._rbits_b is None else self._rbits_b.reshape(-1).astype(u64))


class PackedMXArray:
    """Packed element bytes (``data``, uint8) with their scales and everything
    :meth:`MXArray.unpack` needs."""

    def __init__(self, data: np.ndarray, packing: str, meta: MXArray):
        self.data, self.packing, self._meta = data, packing, meta
        self.scales_blocked = meta._scales_b

    @property
    def scales(self) -> np.ndarray:
        return self._meta.scales

    def __repr__(self):
        return (f"PackedMXArray({self.data.size} bytes, packing={self.packing!r}, "
                f"shape={self._meta.shape}, format={self._meta.format.name})")
