"""cast, decode, dot and matmul."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _core, _names
from ._array import MXArray, _as_input, _blocked
from ._formats import (Format, FormatLike, _BUILTIN, _IEEE_POLICY, _rounding_id, _uint,
                       codes_array, input_format, output_dtype, resolve_format, resolve_policy)


def cast(x, to: FormatLike, *, rounding: str | None = None, profile: str = "ocp",
         random_bits=None, from_format: FormatLike | None = None, **policy) -> np.ndarray:
    """Convert each value of x to format ``to`` (no shared scale), returning its codes.

    x is a float array (float32, float64, float16, bfloat16), or integer codes of
    ``from_format``.  ``to`` is any element or IEEE format.  rounding (default: the profile's),
    profile and ``**policy`` as in :func:`quantize`; ``random_bits`` (uint32 per element) for
    ``rounding="sr"``.

    >>> [hex(c) for c in mxgold.cast(np.array([1.0, 500.0, -0.0], np.float32), "e4m3")]
    ['0x38', '0x7e', '0x80']
    >>> [hex(c) for c in mxgold.cast(np.array([0x7C], np.uint8), "fp32", from_format="e5m2")]
    ['0x7f800000']
    """
    if from_format is None:
        x = np.asarray(x)
        if x.dtype.kind in "iub":
            raise TypeError(f"x holds {x.dtype} values: float values, or codes with from_format")
        src, ubits = input_format(x.dtype)
        bits = np.require(x, requirements="C").view(ubits)
    else:
        src = _any_format(from_format, "from_format")
        bits = codes_array(x, src, "x")
    dst = _any_format(to, "to")
    pol, rnd = resolve_policy(profile, rounding, policy, "cast")
    rb = None
    if _names.ROUNDINGS[rnd] == "sr":
        if random_bits is None:
            raise ValueError("rounding='sr' needs random_bits: one 32-bit word per element")
        rb = np.asarray(random_bits)
        if rb.shape != bits.shape or rb.dtype.kind not in "iu":
            raise ValueError(f"random_bits must be integers of shape {bits.shape}")
        if rb.size and (rb.min() < 0 or rb.max() > 0xFFFFFFFF):
            raise ValueError("random_bits must lie in 0..2^32-1")
        rb = np.ascontiguousarray(rb, np.uint32).reshape(-1)
    elif random_bits is not None:
        raise ValueError("random_bits goes with rounding='sr' only")
    out = np.empty(bits.shape, _uint(dst.bits))
    flat = np.ascontiguousarray(bits).reshape(-1)
    _core.cast(flat, flat.size, src.spec, dst.spec, pol, rnd, rb, out.reshape(-1), None)
    return out


_IEEE_NAMES = [n for n, d in _names.FORMATS.items() if d["role"] == "ieee"]


def _any_format(f, what: str) -> Format:
    """An element, scale or IEEE format (cast and decode take all three)."""
    if isinstance(f, str) and f in _BUILTIN and _BUILTIN[f].role != "element":
        return _BUILTIN[f]
    if isinstance(f, Format) and f.role != "element":
        return f
    return resolve_format(f, "element", what)


def decode(codes, fmt: FormatLike, dtype=np.float32) -> np.ndarray:
    """The values of codes of ``fmt``, in ``dtype`` (exact for every element format into
    float32; NaN codes give NaN).

    >>> mxgold.decode(np.array([0x38, 0x7E, 0x7F], np.uint8), "e4m3")
    array([  1., 448.,  nan], dtype=float32)
    """
    fmt = resolve_format(fmt, "element", "fmt") if not (isinstance(fmt, str)
                                                        and fmt in ("e8m0", "ue4m3")) \
        else _BUILTIN[fmt]
    outfmt, dt = output_dtype(dtype)
    c = codes_array(codes, fmt, "codes")
    out = np.empty(c.shape, dt)
    flat = c.reshape(-1)
    _core.cast(flat, flat.size, fmt.spec, outfmt.spec, _IEEE_POLICY, 0, None,
               out.view(_uint(outfmt.bits)).reshape(-1), None)
    return out


#---------------------------------------------------------------- dot, matmul -#
_TC_FIELDS = ("group", "frac_bits", "align", "out", "cin_in_group", "scale_point",
              "denorm_products")


def _tc_model(tc) -> tuple:
    if tc is None:
        tc = "h100-fp8"
    if isinstance(tc, str):
        if tc not in _names.TC_PRESETS:
            raise ValueError(f"tc={tc!r}; accepted presets: {', '.join(_names.TC_PRESETS)}, "
                             "or a dict of model fields")
        return _core.tc_preset(_names.TC_PRESETS.index(tc))
    if not isinstance(tc, dict):
        raise TypeError("tc must be a preset name or a dict of tensor-core model fields")
    base = dict(zip(_TC_FIELDS, _core.tc_preset(0)))
    for k, v in tc.items():
        if k not in base:
            raise ValueError(f"tc: unknown field {k!r}; fields: {', '.join(_TC_FIELDS)}")
        if k in ("align", "out"):
            v = _rounding_id(v, f"tc[{k!r}]", allow_sr=False)
        elif k == "scale_point":
            if v not in ("product", "group"):
                raise ValueError("tc['scale_point'] is 'product' or 'group'")
            v = 0 if v == "product" else 1
        base[k] = int(v)
    return tuple(base[k] for k in _TC_FIELDS)


def _gemm(a: MXArray, b_t: np.ndarray, b_scales_t: np.ndarray, b: MXArray, m: int, n: int,
          accum: str, out, cin, tc, rounding: str, caller: str,
          group=None) -> tuple[np.ndarray, int]:
    if a.scale_format != b.scale_format:
        raise ValueError(f"{caller}: a and b have different scale formats")
    if a.block != b.block:
        raise ValueError(f"{caller}: a and b have different blocks ({a.block}, {b.block})")
    if not isinstance(accum, str) or accum not in _names.ACCUMS:
        raise ValueError(f"accum={accum!r}; accepted: {', '.join(_names.ACCUMS)}")
    if accum == "fused-group":
        if group is None:
            raise ValueError("accum='fused-group' needs group=, the products per group (a "
                             "divisor of the block; MXDOTP: 8, 16 for FP4)")
        if isinstance(group, bool) or not isinstance(group, (int, np.integer)):
            raise TypeError(f"group must be an integer, not {type(group).__name__}")
        if not 1 <= group <= a.block or a.block % group:
            raise ValueError(f"group={group} does not divide the block {a.block} (a group lies "
                             "inside one block)")
    elif group is not None:
        raise ValueError("group= goes with accum='fused-group'")
    outs = {"fp32": np.float32, "fp16": np.float16, "bf16": "bfloat16"}
    if isinstance(out, str) and out not in outs:
        raise ValueError(f"out={out!r}; accepted: fp32, bf16, fp16")
    outfmt, dt = output_dtype(outs.get(out, out) if isinstance(out, str) else out)
    if outfmt.name not in ("fp32", "bf16", "fp16"):
        raise ValueError(f"out={out!r}; accepted: fp32, bf16, fp16")
    rnd = _rounding_id(rounding, "rounding", allow_sr=False)
    kdim = a._codes_b.shape[-1]
    c_in = None
    if cin is not None:
        c = np.broadcast_to(np.asarray(cin, np.float32), (m, n))
        c_in = np.ascontiguousarray(c).view(np.uint32).astype(np.uint64).reshape(-1)
    res = np.empty(m * n, np.uint64)
    u64 = np.uint64
    flags = _core.gemm(m, n, kdim, a.block,
                       a._scales_b.reshape(-1).astype(u64), a._codes_b.reshape(-1).astype(u64),
                       a.format.spec, b_scales_t.reshape(-1).astype(u64),
                       b_t.reshape(-1).astype(u64), b.format.spec, a.scale_format.spec, c_in,
                       outfmt.id, _names.ACCUMS.index(accum), _tc_model(tc), rnd, res,
                       int(group or 0))
    return res.astype(_uint(outfmt.bits)).view(dt).reshape(m, n), flags


def dot(a: MXArray, b: MXArray, *, accum: str = "exact", out: Any = "fp32", cin=None, tc=None,
        rounding: str = "rne", group=None) -> np.floating:
    """OCP MX DotGeneral of two 1-D MXArrays (blocked along their one axis):
    ``cin + sum_j X_A[j] X_B[j] sum_i P_A[j][i] P_B[j][i]``, rounded to ``out`` (``"fp32"``,
    ``"bf16"``, ``"fp16"``) by ``rounding``.  ``accum``: ``"exact"`` (one rounding),
    ``"block-fp32"`` (each block's product rounded to FP32, then FP32 additions),
    ``"tensor-core"`` (the model ``tc``: a preset name in ``mxgold.TC_PRESETS`` or a dict of its
    fields) or ``"fused-group"`` (MXDOTP's: each ``group`` consecutive products of a block, a
    divisor of the block, added to the accumulator in the ``out`` format with one rounding);
    docs/semantics.md.

    >>> a = mxgold.quantize(np.ones(32, np.float32), "e4m3")
    >>> b = mxgold.quantize(np.full(32, 0.5, np.float32), "e2m1")
    >>> float(mxgold.dot(a, b))
    16.0
    """
    for v, nm in ((a, "a"), (b, "b")):
        if not isinstance(v, MXArray):
            raise TypeError(f"{nm} must be an MXArray (mxgold.quantize), not {type(v).__name__}")
        if len(v.shape) != 1:
            raise ValueError(f"{nm} must be 1-D; use matmul for matrices")
    if a.shape != b.shape:
        raise ValueError(f"a and b have different lengths ({a.shape[0]}, {b.shape[0]})")
    r, _ = _gemm(a, b._codes_b, b._scales_b, b, 1, 1, accum, out, cin, tc, rounding, "dot",
                 group)
    return r[0, 0]


def matmul(a: MXArray, b: MXArray, *, accum: str = "exact", out: Any = "fp32", cin=None,
           tc=None, rounding: str = "rne", return_flags: bool = False, group=None):
    """C = cin + A @ B with MX blocks along the contraction axis: A is (M, K) quantized with
    ``axis=1``, B is (K, N) quantized with ``axis=0``.  Each C element is :func:`dot` of its row
    and column (same ``accum``, ``out``, ``tc``, ``rounding``, ``group``); ``cin`` broadcasts
    to (M, N).
    With ``return_flags``, returns (C, flags).

    >>> A = mxgold.quantize(np.eye(32, dtype=np.float32)[:2], "e4m3", axis=1)
    >>> B = mxgold.quantize(np.arange(64, dtype=np.float32).reshape(32, 2), "e4m3", axis=0)
    >>> mxgold.matmul(A, B)
    array([[0., 1.],
           [2., 3.]], dtype=float32)
    """
    for v, nm, ax in ((a, "a", 1), (b, "b", 0)):
        if not isinstance(v, MXArray):
            raise TypeError(f"{nm} must be an MXArray (mxgold.quantize), not {type(v).__name__}")
        if len(v.shape) != 2 or v.axis != ax:
            raise ValueError(f"{nm} must be 2-D and quantized with axis={ax} (the contraction "
                             "axis)")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} do not chain")
    # B's blocked layout is already (N, K): column j of B is row j
    r, fl = _gemm(a, b._codes_b, b._scales_b, b, a.shape[0], b.shape[1], accum, out, cin, tc,
                  rounding, "matmul", group)
    return (r, fl) if return_flags else r
