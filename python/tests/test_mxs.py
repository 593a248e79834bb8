"""quantize_mxs, dequantize_mxs: hand-derived MX9, MX6 and MX4 blocks (docs/semantics.md
section 5b; bits worked out in the comments), the policy fields that apply, the layout along any
axis, and an exact integer model of finite blocks (as tests/slow_mxs.c is one in C)."""
import math
from fractions import Fraction as Q

import ml_dtypes
import numpy as np
import pytest

import mxgold
from conftest import count

BF16 = np.dtype(ml_dtypes.bfloat16)
NAN32 = 0x7FC00000


def block(*v, dtype=np.float32):
    x = np.zeros(16, dtype)
    x[:len(v)] = v
    return x


def u32(a):
    return np.asarray(a, np.float32).view(np.uint32).tolist()


#----------------------------------------------------------------------- hand blocks -#
def test_mx9_amax_one():
    """MX9: m = 7, M = P * 64, code = sign << 7 | M.  amax 1.0: E = floor(log2 1) = 0, scale
    E8M0 0x7F.  Sub-blocks (shift 1 iff both elements lie below 2^E):
      0 (1.0, -0.5): 1.0 is at 2^0, shift 0; codes 64 = 0x40, 0x80 | 32 = 0xA0
      1 (0.25, 0): shift 1, grid 2^-7; 0.25 = P 2^-1, P = 0.5, M = 32: 0x20; 0: 0x00
      2 (1 + 2^-7, 0.75): shift 0, grid 2^-6; 1 + 2^-7 is M = 64.5, a tie: rne 64 (0x40),
        rna 65 (0x41), inexact; 0.75: M = 48, 0x30
      3 (0.5 + 2^-8, -0.375): shift 1, grid 2^-7: M = 64.5, rne 0x40, rna 0x41; P = 1 + 2^-7
        >= 1, no underflow; -0.375: P = 0.75, M = 48: 0xB0
      4 (2^-10, -2^-9): shift 1: P = 2^-9, M = 2^-3 -> 0 (inexact, underflow); M = 2^-2 -> -0
        (0x80, zero-sign keep)
      5..7 (zeros): shift 1
    Flags: inexact | underflow = 0x03."""
    x = block(1.0, -0.5, 0.25, 0, 1 + 2 ** -7, 0.75, 0.5 + 2 ** -8, -0.375, 2 ** -10, -2 ** -9)
    q = mxgold.quantize_mxs(x, "mx9")
    assert q.scales.tolist() == [0x7F] and q.flags.tolist() == [0x03]
    assert q.shifts.tolist() == [0, 1, 0, 1, 1, 1, 1, 1]
    assert q.codes.tolist() == [0x40, 0xA0, 0x20, 0, 0x40, 0x30, 0x40, 0xB0, 0, 0x80] + [0] * 6
    assert q.dequantize().tolist() == [1, -0.5, 0.25, 0, 1, 0.75, 0.5, -0.375, 0, -0.0] + [0] * 6
    r = mxgold.quantize_mxs(x, "mx9", rounding="rna")
    assert r.codes[[4, 6]].tolist() == [0x41, 0x41] and r.rounding == "rna"
    # 65 * 2^-6 = 1.015625 and 65 * 2^-7 = 0.5078125: exact in FP32
    assert r.dequantize()[[4, 6]].tolist() == [1.015625, 0.5078125]


def test_mx6_saturates():
    """MX6: m = 4, M = P * 8.  1.96875 = 63/32: E = 0 (0x7F), shift 0, M = 15.75 -> 16, above
    2^4 - 1: saturates to 15 (0x0F), overflow | inexact (0x05).  -1.0: M = 8, 0x10 | 8 = 0x18.
    Dequantized: 15/8 = 1.875, -1."""
    q = mxgold.quantize_mxs(block(1.96875, -1.0), "mx6")
    assert (q.scales.tolist(), q.flags.tolist()) == ([0x7F], [0x05])
    assert q.shifts.tolist() == [0] + [1] * 7
    assert q.codes.tolist() == [0x0F, 0x18] + [0] * 14
    assert q.dequantize()[:2].tolist() == [1.875, -1.0]


@pytest.mark.parametrize("rounding, c4, v4", [("rne", 0x2, 1.0), ("rna", 0x3, 1.5)])
def test_mx4_roundings(rounding, c4, v4):
    """MX4: m = 2, M = P * 2, code = sign << 2 | M.  amax 3: E = 1 (0x80).
      0 (3, -1): shift 0, grid 1: M = 3 (0x3), M = 1 (0x4 | 1 = 0x5)
      1 (0.5, -0.75): max exponent -1, two below E: shift 1 (the cap), grid 0.5: M = 1 (0x1);
        M = 1.5, a tie, to 2 either way (0x6); P = 0.75 < 1 and inexact: underflow
      2 (1.25, 0): exponent 0 < E: shift 1, grid 0.5: M = 2.5: rne 2, rna 3
    Flags: inexact | underflow (0x03)."""
    q = mxgold.quantize_mxs(block(3, -1, 0.5, -0.75, 1.25), "mx4", rounding=rounding)
    assert (q.scales.tolist(), q.flags.tolist()) == ([0x80], [0x03])
    assert q.shifts.tolist() == [0, 1, 1] + [1] * 5
    assert q.codes[:6].tolist() == [0x3, 0x5, 0x1, 0x6, c4, 0]
    assert q.dequantize()[:5].tolist() == [3, -1, 0.5, -1, v4]
    assert q.element_format.bits == 3 and float(q.element_format.max) == 1.5
    assert mxgold.decode(q.codes[:2], q.element_format).tolist() == [1.5, -0.5]  # P = M / 2


#------------------------------------------------------------------------- specials -#
def test_nan_block_default_and_ignore():
    x = block(1.0, np.nan, 0.5)
    q = mxgold.quantize_mxs(x, "mx9")
    # nan-block propagate: scale 0xFF, every shift and code 0, invalid; NaN everywhere out
    assert (q.scales.tolist(), q.flags.tolist()) == ([0xFF], [0x10])
    assert q.shifts.tolist() == [0] * 8 and q.codes.tolist() == [0] * 16
    assert u32(q.dequantize()) == [NAN32] * 16
    # ignore: amax 1, E = 0; the NaN encodes under nan-elem: zero +0, max +(2^7 - 1) = 0x7F.
    # 0.5 is alone in sub-block 1, below 2^E: shift 1, P = 0.5 / 2^-1 = 1, M = 64 (0x40)
    g = mxgold.quantize_mxs(x, "mx9", nan_block="ignore")
    assert (g.scales.tolist(), g.flags.tolist()) == ([0x7F], [0x10])
    assert g.codes[:3].tolist() == [0x40, 0x00, 0x40] and g.shifts[:2].tolist() == [0, 1]
    m = mxgold.quantize_mxs(x, "mx9", nan_block="ignore", nan_elem="max")
    assert m.codes[:3].tolist() == [0x40, 0x7F, 0x40]


def test_inf_block():
    x = block(1.0, -np.inf)
    assert mxgold.quantize_mxs(x, "mx9").scales.tolist() == [0xFF]
    # sat: left out of amax (E = 0), -Inf is -max: 0x80 | 0x7F, overflow | inexact
    s = mxgold.quantize_mxs(x, "mx9", inf_block="sat")
    assert (s.scales.tolist(), s.codes[:2].tolist(), s.flags.tolist()) == \
        ([0x7F], [0x40, 0xFF], [0x05])
    # zero (Quark's nan_to_num): +0, invalid
    z = mxgold.quantize_mxs(x, "mx9", inf_block="zero")
    assert (z.codes[:2].tolist(), z.flags.tolist()) == ([0x40, 0x00], [0x10])


def test_zero_block_and_zero_scale():
    """No finite nonzero element: the scale is zero-scale (0x00 by default) and every shift 0;
    -0 keeps its sign (0x80)."""
    q = mxgold.quantize_mxs(block(0.0, -0.0), "mx6")
    assert (q.scales.tolist(), q.shifts.tolist(), q.codes[:2].tolist(), q.flags.tolist()) == \
        ([0x00], [0] * 8, [0x00, 0x10], [0])
    assert mxgold.quantize_mxs(block(), "mx6", zero_scale=0x7F).scales.tolist() == [0x7F]


def test_subnormal_input_and_flush():
    """FP32 2^-149 (bits 1): E = -149 is clamped to -127 (0x00, scale-clamped 0x20); it lies 22
    below: shift 1; P = 2^-149 / 2^-128 = 2^-21 rounds to 0 (inexact, underflow): flags 0x23.
    subnormals='flush' makes it +0 first (underflow | inexact): a zero block."""
    x = np.zeros(16, np.uint32)
    x[0] = 1
    x = x.view(np.float32)
    q = mxgold.quantize_mxs(x, "mx9")
    assert (q.scales.tolist(), q.shifts[:1].tolist(), q.codes[0], q.flags.tolist()) == \
        ([0x00], [1], 0, [0x23])
    f = mxgold.quantize_mxs(x, "mx9", subnormals="flush")
    assert (f.scales.tolist(), f.shifts.tolist(), f.flags.tolist()) == ([0x00], [0] * 8, [0x03])


def test_fp64_above_the_scale_range():
    """2^200 (FP64): E = 200 > 127.  scale-overflow nan: scale 0xFF, invalid.  clamp: E = 127
    (0xFE), scale-clamped; 2^200 / 2^127 saturates to 0x7F (overflow, inexact); 1.0 is
    P = 2^-127, 0 (underflow): flags 0x27; sub-block 0's exponent is above E: shift 0."""
    x = block(2.0 ** 200, 1.0, dtype=np.float64)
    n = mxgold.quantize_mxs(x, "mx9")
    assert (n.scales.tolist(), n.flags.tolist()) == ([0xFF], [0x10])
    c = mxgold.quantize_mxs(x, "mx9", scale_overflow="clamp")
    assert (c.scales.tolist(), c.shifts[0], c.codes[:2].tolist(), c.flags.tolist()) == \
        ([0xFE], 0, [0x7F, 0x00], [0x27])


def test_input_dtypes():
    """1.0, -0.5 and 0.25 in every input type give the block of test_mx9_amax_one."""
    want = [0x40, 0xA0, 0x20]
    for dt in (np.float32, np.float64, np.float16, BF16):
        q = mxgold.quantize_mxs(block(1.0, -0.5, 0.25, dtype=dt), "mx9")
        assert q.scales.tolist() == [0x7F] and q.codes[:3].tolist() == want, dt
        for out in (np.float32, np.float64, np.float16, "bfloat16"):
            assert q.dequantize(out)[:3].astype(np.float64).tolist() == [1.0, -0.5, 0.25]


#------------------------------------------------------------------------- layout -#
def test_axis_padding_and_dequantize_from_arrays():
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((3, 20)) * 8).astype(np.float32)
    q = mxgold.quantize_mxs(x, "mx6")
    assert q.scales.shape == (3, 2) and q.shifts.shape == (3, 16) and q.codes.shape == (3, 20)
    assert q.flags.shape == (3, 2) and q.codes.dtype == np.uint8
    p = np.zeros((3, 32), np.float32)
    p[:, :20] = x
    qp = mxgold.quantize_mxs(p, "mx6")
    assert np.array_equal(qp.codes[:, :20], q.codes) and np.array_equal(qp.scales, q.scales)
    assert np.array_equal(qp.shifts, q.shifts)
    qt = mxgold.quantize_mxs(x.T, "mx6", axis=0)
    for a in ("scales", "shifts", "codes", "flags"):
        assert np.array_equal(getattr(qt, a), getattr(q, a).T), a
    d = mxgold.dequantize_mxs(q.scales, q.shifts, q.codes, "mx6")
    assert np.array_equal(d.view(np.uint32), q.dequantize().view(np.uint32))
    dt = mxgold.dequantize_mxs(qt.scales, qt.shifts, qt.codes, "mx6", axis=0, dtype=np.float64)
    assert np.array_equal(dt.view(np.uint64), qt.dequantize(np.float64).view(np.uint64))
    assert np.array_equal(dt.T.astype(np.float32).view(np.uint32), d.view(np.uint32))


def test_dequantize_mxs_by_hand():
    """MX4, scale 0x80 (E = 1): shift 0: 0x3 is 1.5 * 2 = 3, 0x5 is -0.5 * 2 = -1; shift 1:
    0x1 is 0.5, 0x6 is -1.0; a NaN scale (0xFF) gives NaN for its whole block."""
    codes = [0x3, 0x5, 0x1, 0x6] + [0] * 12 + [0x3] * 16
    d = mxgold.dequantize_mxs([0x80, 0xFF], [0, 1] + [1] * 6 + [0] * 8, codes, "mx4")
    assert d[:4].tolist() == [3, -1, 0.5, -1] and u32(d[16:]) == [NAN32] * 16


#------------------------------------------------------------ an exact integer model -#
def model(v, m):
    """Finite inputs, RNE, default policy: (scale, shifts, codes) from rationals alone."""
    mags = [abs(Q(float(t))) for t in v]
    nz = [a for a in mags if a]
    if not nz:
        return 0, [0] * 8, [(1 << m) if math.copysign(1, float(t)) < 0 else 0 for t in v]
    ex = lambda a: math.frexp(a)[1] - 1                           # floor(log2 a), exact
    e = max(-127, ex(float(max(nz))))
    shifts = []
    for j in range(8):
        s = 1
        for a in mags[2 * j:2 * j + 2]:
            if a:
                s = min(s, max(0, e - ex(float(a))))
        shifts.append(s)
    codes = []
    for i, t in enumerate(v):
        p = mags[i] / Q(2) ** (e - shifts[i // 2] - m + 1)         # M before rounding
        n = math.floor(p)
        n += p - n > Q(1, 2) or (p - n == Q(1, 2) and n % 2)
        codes.append((1 << m if math.copysign(1, float(t)) < 0 else 0) | min(n, (1 << m) - 1))
    return e + 127, shifts, codes


@pytest.mark.parametrize("fmt", ["mx9", "mx6", "mx4"])
def test_random_blocks_against_the_model(fmt):
    rng = np.random.default_rng(["mx9", "mx6", "mx4"].index(fmt))
    m = mxgold.MXS_FORMATS[fmt]["m"]
    nb = 400
    # exponents at, one below and far below the block's; exact ties of every grid; zeros
    base = rng.integers(-140, 120, (nb, 1))
    e = base - rng.choice([0, 0, 1, 2, 5, 30], (nb, 16))
    mant = rng.integers(1 << 23, 1 << 24, (nb, 16)).astype(np.float64) / (1 << 23)
    tie = rng.random((nb, 16)) < 0.2
    mant[tie] = (rng.integers(1 << m, 1 << (m + 1), tie.sum()) + 0.5) / (1 << m)
    x = (np.where(rng.random((nb, 16)) < 0.5, -1, 1) * mant * np.exp2(e))
    x[rng.random((nb, 16)) < 0.1] = 0
    x = x.astype(np.float32)                                         # FP32 inputs, read exactly
    q = mxgold.quantize_mxs(x, fmt)
    for i in range(nb):
        s, sh, c = model(x[i], m)
        assert (q.scales[i, 0], q.shifts[i].tolist(), q.codes[i].tolist()) == (s, sh, c), i
    count(f"{fmt} blocks against the integer model", nb)


#------------------------------------------------------------------------- errors -#
X = np.ones(32, np.float32)


@pytest.mark.parametrize("args, kwargs, exc, match", [
    ((X, "mx8"), {}, ValueError, "format='mx8'; accepted: mx9, mx6, mx4"),
    ((X, 9), {}, TypeError, "format must be a name"),
    ((X,), dict(rounding="sr"), ValueError, "rounding='sr' is not defined for mx9"),
    ((X,), dict(rounding="near"), ValueError, "rounding='near'"),
    ((X,), dict(scale_rule="ceil"), ValueError, "scale_rule='ceil'.*must be 'floor'"),
    ((X,), dict(profile="quark-even"), ValueError, "scale_rule='even-fp32' \\(profile='quark-even'\\)"),
    ((X,), dict(scale_bump="once"), ValueError, "scale_bump='once'"),
    ((X,), dict(scale_div="input"), ValueError, "scale_div='input'"),
    ((X,), dict(min_scale_elem="unit"), ValueError, "min_scale_elem='unit'"),
    ((X,), dict(inf_block="maxscale"), ValueError, "inf_block='maxscale'.*nan, sat, zero"),
    ((X,), dict(inf_block="pow128"), ValueError, "inf_block='pow128'"),
    ((X,), dict(overflowing=1), TypeError, "unexpected keyword argument 'overflowing'"),
    ((X[:20],), dict(pad=False), ValueError, "not a multiple of block=16"),
    ((X,), dict(pad=0), TypeError, "pad must be True or False"),
    ((X,), dict(axis=2), ValueError, "axis=2 is out of range"),
    ((np.arange(32),), {}, TypeError, "int64"),
])
def test_quantize_mxs_rejects(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        mxgold.quantize_mxs(*args, **kwargs)


@pytest.mark.parametrize("args, kwargs, exc, match", [
    (([0x7F], [2] + [0] * 7, [0] * 16), {}, ValueError, "shifts must lie in 0..1"),
    (([0x7F], [0] * 8, [8] + [0] * 15, "mx4"), {}, ValueError, "codes: a code does not fit"),
    (([0x7F], [0] * 7, [0] * 16), {}, ValueError, r"shifts has shape \(7,\).*\(8,\)"),
    (([0x7F, 0], [0] * 8, [0] * 16), {}, ValueError, r"scales has shape \(2,\)"),
    (([0x100], [0] * 8, [0] * 16), {}, ValueError, "scales: a code does not fit"),
    (([0x7F], [0.0] * 8, [0] * 16), {}, TypeError, "shifts must hold integers"),
    (([0x7F], [0] * 8, [0] * 16, "bfp16"), {}, ValueError, "format='bfp16'"),
    (([0x7F], [0] * 8, [0] * 16), dict(dtype=np.int32), TypeError, "int32 is not supported"),
])
def test_dequantize_mxs_rejects(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        mxgold.dequantize_mxs(*args, **kwargs)
