"""quantize_nvfp4, dequantize_nvfp4, nvfp4_amax, nvfp4_global_scale: hand-derived tensors (each
FP32 step of docs/semantics.md section 9 worked out below, with exact rationals where a step
rounds), the layout along any axis, and bit-for-bit agreement with `mxgold nvfp4`."""
import math
import subprocess
from fractions import Fraction as Q

import ml_dtypes
import numpy as np
import pytest

import mxgold
from conftest import count

BF16 = np.dtype(ml_dtypes.bfloat16)
FLT_MAX = 0x7F7FFFFF


def bits32(v) -> int:
    return int(np.asarray(v, np.float32).view(np.uint32))


def f32(*bits) -> np.ndarray:
    return np.array(bits, np.uint32).view(np.float32)


def fl32(x: Q) -> Q:
    """x rounded to FP32 by RNE, exactly (normal range: all these examples stay in it)."""
    if x == 0:
        return Q(0)
    a = abs(x)
    e = math.floor(math.log2(a))
    e += (Q(2) ** (e + 1) <= a) - (Q(2) ** e > a)  # log2 of a rational may be off by one
    q = a / Q(2) ** (e - 23)
    n = math.floor(q)
    if q - n > Q(1, 2) or (q - n == Q(1, 2) and n % 2):
        n += 1
    return (1 if x > 0 else -1) * n * Q(2) ** (e - 23)


def q_bits(q: Q) -> int:
    """The FP32 bits of a rational that FP32 holds."""
    b = bits32(np.float32(float(q)))
    assert Q(float(f32(b)[0])) == q
    return b


#------------------------------------------------------------------------ S_enc, amax -#
@pytest.mark.parametrize("amax, s_enc", [
    (0x45280000, 0x3F800000),   # 2688 -> 2688/2688 = 1 exactly
    (0x40E00000, 0x43C00000),   # 7 -> 2688/7 = 384 exactly
    (0x00000000, 0x3F800000),   # 0 -> 1 (TE's amax == 0 case)
    (0x7F800000, 0x3F800000),   # Inf -> 2688/Inf = 0 -> 1
    (0x7FC00000, FLT_MAX),      # NaN -> fminf(NaN, FLT_MAX) = FLT_MAX
    (0x00000001, FLT_MAX),      # 2^-149 -> 2688 * 2^149 overflows to Inf -> FLT_MAX
    (0x3F800000, 0x45280000),   # 1 -> 2688
])
def test_global_scale_by_hand(amax, s_enc):
    assert bits32(mxgold.nvfp4_global_scale(f32(amax)[0])) == s_enc


def test_global_scale_of_flt_max():
    # 2688 / FLT_MAX rounded to FP32, exactly; docs/semantics.md gives the same 0x05280001
    flt_max = Q(2 ** 24 - 1) * Q(2) ** 104
    assert q_bits(fl32(Q(2688) / flt_max)) == 0x05280001
    assert bits32(mxgold.nvfp4_global_scale(f32(FLT_MAX)[0])) == 0x05280001


def test_amax_ignores_nan_and_sign():
    x = f32(0x3FC00000, 0xC0E00000, 0x7FC00000, 0x80000000)  # 1.5, -7, NaN, -0
    assert bits32(mxgold.nvfp4_amax(x)) == 0x40E00000
    assert bits32(mxgold.nvfp4_amax(f32(0x7FC00000, 0xFFC00000))) == 0       # NaNs only: +0
    assert bits32(mxgold.nvfp4_amax(f32(0x80000000))) == 0                   # -0: +0
    assert bits32(mxgold.nvfp4_amax(np.array([0xC0E0], np.uint16).view(BF16))) == 0x40E00000
    assert bits32(mxgold.nvfp4_amax(np.array([0x7BFF], np.uint16).view(np.float16))) == \
        0x477FE000                                                            # FP16 max 65504
    # a tensor longer than the binding's 64 Ki-element chunks: the max (|-3.5|) in the third
    big = np.zeros(200_000, np.float32)
    big[[10, 70_000, 150_000]] = [np.nan, 2.0, -3.5]
    assert bits32(mxgold.nvfp4_amax(big)) == 0x40600000


#-------------------------------------------------------------------- hand tensors -#
def test_amax_7_block():
    """tests/tcli.sh's block: amax 7, S_enc 384, S_dec_b = 7 * fl32(384 * fl32(1/6)) = 7 * 64 =
    448 (0x7E, exact).  rcp = fl32(1 / fl32(448 * fl32(1/384))) = 0.85714281; x * rcp: 6 -> 5.14
    -> 6 (7), 3 -> 2.57 -> 3 (5), -1.5 -> -1.29 -> -1.5 (B), .25 -> .21 -> 0, .75 -> .64 -> .5
    (1), 5 -> 4.29 -> 4 (6), -7 -> -6 (F): inexact (01)."""
    x = np.zeros(16, np.float32)
    x[:7] = f32(0x40C00000, 0x40400000, 0xBFC00000, 0x3E800000, 0x3F400000, 0x40A00000,
                0xC0E00000)
    q = mxgold.quantize_nvfp4(x)
    assert (bits32(q.amax), bits32(q.s_enc), q.flags) == (0x40E00000, 0x43C00000, 0x01)
    assert q.scales.tolist() == [0x7E]
    assert q.codes.tolist() == [7, 5, 0xB, 0, 1, 6, 0xF] + [0] * 9
    # dequantize with the amax: f = fl32(fl32(448 * 7) * fl32(1/2688)), fl32(1/2688) =
    # 12782641 * 2^-35, so f = fl32(3136 * 12782641 * 2^-35) = 4893355 * 2^-22 (0x3F955556)
    f = fl32(Q(3136) * fl32(Q(1, 2688)))
    assert fl32(Q(1, 2688)) == Q(12782641, 2 ** 35) and q_bits(f) == 0x3F955556
    e2m1 = [0, .5, 1, 1.5, 2, 3, 4, 6]
    want = [q_bits(fl32((-1 if c & 8 else 1) * Q(e2m1[c & 7]) * f)) for c in q.codes.tolist()]
    assert want[:3] == [0x40E00001, 0x40600001, 0xBFE00001]   # 7.0000005, 3.5000002, -1.7500001
    assert q.dequantize().view(np.uint32).tolist() == want


def test_s_enc_one_ties_and_a_zero_scale_block():
    """amax 2688 (given): S_enc 1.  Block 0, amax 6: S_dec_b = fl32(6 * fl32(1/6)) = fl32(6 *
    0x3E2AAAAB) = fl32(1 + 2^-25.1) = 1, scale 0x38; rcp = 1, so x is rounded as it is: 6, -6,
    3, 1, 0.5 exact; ties to even 1.25 -> 1 (2), 2.5 -> 2 (4), 5 -> 4 (6), 0.25 -> 0 (0); -0 keeps
    its sign (8).  Block 1, amax 2^-20: S_dec_b = 2^-20 * fl32(1/6) < 2^-10: scale 0, rcp =
    fminf(1/0, FLT_MAX) = FLT_MAX, 2^-20 * FLT_MAX saturates to 6 (7), -2^-21 to -6 (F),
    overflow (04); 0 stays 0.  Flags: inexact | overflow."""
    x = np.zeros(32, np.float32)
    x[:10] = [6, -6, 3, 1, 0.5, 1.25, 2.5, 5, 0.25, -0.0]
    x[16:19] = [2.0 ** -20, -(2.0 ** -21), 0]
    q = mxgold.quantize_nvfp4(x, amax=np.float32(2688))
    assert (bits32(q.amax), bits32(q.s_enc), q.flags) == (0x45280000, 0x3F800000, 0x05)
    assert q.scales.tolist() == [0x38, 0x00]
    assert q.codes.tolist() == ([7, 0xF, 5, 2, 1, 2, 4, 6, 0, 8] + [0] * 6
                                + [7, 0xF] + [0] * 14)
    # f = fl32(fl32(1 * 2688) * fl32(1/2688)) = fl32(2688 * 12782641 * 2^-35) = fl32(1 + 640 *
    # 2^-35) = 1: block 0 dequantizes to its E2M1 values; block 1 (scale 0, f = 0) to signed 0
    d = q.dequantize()
    assert d[:10].tolist() == [6, -6, 3, 1, 0.5, 1, 2, 4, 0, -0.0]
    assert np.signbit(d[9]) and not np.signbit(d[8])
    assert d[16:].view(np.uint32).tolist() == [0, 0x80000000] + [0] * 14


def test_sr_uses_the_low_byte():
    """S_enc 1 and block amax 6 (scale 1, rcp 1, as above).  1.25: step 0.5, frac(1.25/0.5) =
    0.5, so it rounds up iff 0.5 + r8/256 >= 1, r8 >= 0x80.  6 never moves (t < 8).  Only the
    low 8 bits of each word count: 0xFFFFFF7F is r8 0x7F."""
    x = np.zeros(16, np.float32)
    x[:5] = [6, 1.25, 1.25, -1.25, 1.25]
    rb = np.zeros(16, np.uint32)
    rb[:5] = [0xFF, 0x7F, 0x80, 0x180, 0xFFFFFF7F]
    q = mxgold.quantize_nvfp4(x, amax=np.float32(2688), rounding="sr", random_bits=rb)
    assert q.scales.tolist() == [0x38]
    assert q.codes[:5].tolist() == [7, 2, 3, 0xB, 2]   # 6, 1, 1.5, -1.5, 1
    assert q.flags == 0x01 and q.rounding == "sr"


def test_tile_2d():
    """32 x 16 with amax 2688 given.  Tile 0 (rows 0-15) holds 6 at [0, 0] and 1.0 elsewhere:
    one scale 0x38 for all 16 rows.  In 1D, row 5 has amax 1: S_dec_b = fl32(1/6) = 0.1666667
    = 1.333 * 2^-3, which E4M3 rounds to 1.375 * 2^-3: exponent -3 + 7 = 4, mantissa 3: 0x23.
    Tile 1 (rows 16-31) is zero: scale 0."""
    x = np.zeros((32, 16), np.float32)
    x[:16] = 1.0
    x[0, 0] = 6.0
    q2 = mxgold.quantize_nvfp4(x, tile_2d=True, amax=np.float32(2688))
    q1 = mxgold.quantize_nvfp4(x, amax=np.float32(2688))
    assert q2.scales.shape == (32, 1) and q2.tile_2d
    assert q2.scales[:, 0].tolist() == [0x38] * 16 + [0] * 16
    assert q1.scales[:, 0].tolist() == [0x38] + [0x23] * 15 + [0] * 16
    assert q2.codes[1].tolist() == [2] * 16          # 1.0 at scale 1: code 2
    # a last tile of 4 rows: its own scale, from its own amax (0.5 in row 18)
    y = np.zeros((20, 16), np.float32)
    y[18, 3] = 3.0
    s = mxgold.quantize_nvfp4(y, tile_2d=True, amax=np.float32(2688)).scales[:, 0]
    # S_dec_b = fl32(3 * fl32(1/6)) = fl32(0.5 + 2^-26) = 0.5: E4M3 0x30
    assert s.tolist() == [0] * 16 + [0x30] * 4


def test_bf16_and_fp16_inputs_and_outputs():
    # bf16 7.0 = 0x40E0: the amax-7 block above, read through BF16
    x = np.zeros(16, np.uint16)
    x[:3] = [0x40C0, 0x4040, 0xC0E0]                  # 6, 3, -7
    q = mxgold.quantize_nvfp4(x.view(BF16))
    assert (bits32(q.amax), q.scales.tolist(), q.codes[:3].tolist()) == \
        (0x40E00000, [0x7E], [7, 5, 0xF])
    # the same bits as FP16 6, 3, -7 = 0x4600, 0x4200, 0xC700
    h = np.zeros(16, np.uint16)
    h[:3] = [0x4600, 0x4200, 0xC700]
    qh = mxgold.quantize_nvfp4(h.view(np.float16))
    assert qh.codes.tolist() == q.codes.tolist() and qh.scales.tolist() == [0x7E]
    # out: 7.0000005 (0x40E00001) rounds to 7 in BF16 (0x40E0) and FP16 (0x4700)
    assert q.dequantize("bfloat16").view(np.uint16)[2] == 0xC0E0
    assert q.dequantize(np.float16).view(np.uint16)[2] == 0xC700


#----------------------------------------------------------------------- layout -#
def test_axis_padding_and_dequantize_from_arrays():
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((3, 40)) * 4).astype(np.float32)
    q = mxgold.quantize_nvfp4(x)
    assert q.codes.shape == (3, 40) and q.scales.shape == (3, 3) and q.codes.dtype == np.uint8
    # padding with +0 changes nothing: the same as quantizing the padded tensor
    p = np.zeros((3, 48), np.float32)
    p[:, :40] = x
    qp = mxgold.quantize_nvfp4(p)
    assert np.array_equal(qp.codes[:, :40], q.codes) and np.array_equal(qp.scales, q.scales)
    # along axis 0 of the transpose: the same bits, transposed
    qt = mxgold.quantize_nvfp4(x.T, axis=0)
    assert np.array_equal(qt.codes, q.codes.T) and np.array_equal(qt.scales, q.scales.T)
    assert np.array_equal(qt.dequantize().view(np.uint32), q.dequantize().T.view(np.uint32))
    # dequantize_nvfp4 from the arrays gives what the object gives
    d = mxgold.dequantize_nvfp4(q.codes, q.scales, q.amax)
    assert np.array_equal(d.view(np.uint32), q.dequantize().view(np.uint32))
    d0 = mxgold.dequantize_nvfp4(qt.codes, qt.scales, qt.amax, axis=0, dtype=np.float16)
    assert np.array_equal(d0.view(np.uint16), qt.dequantize(np.float16).view(np.uint16))
    # a 3-D tensor: rows are the leading axes flattened
    x3 = x.reshape(3, 2, 20)
    q3 = mxgold.quantize_nvfp4(x3, axis=-1)
    assert q3.codes.shape == (3, 2, 20) and q3.scales.shape == (3, 2, 2)


def test_rows_of_a_1d_tensor_are_independent():
    """Under one amax each row's blocks depend on that row alone: 40 rows at once (the binding
    hands them to the C library 16 at a time) give each row's own quantization, SR included."""
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((40, 32)) * np.exp2(rng.integers(-8, 8, (40, 1)))).astype(np.float32)
    rb = rng.integers(0, 2 ** 32, x.shape, dtype=np.uint32)
    a = mxgold.nvfp4_amax(x)
    for rounding, bits in (("rne", None), ("sr", rb)):
        q = mxgold.quantize_nvfp4(x, rounding=rounding, random_bits=bits)
        assert bits32(q.amax) == bits32(a)
        for r in range(40):
            qr = mxgold.quantize_nvfp4(x[r], amax=a, rounding=rounding,
                                       random_bits=None if bits is None else bits[r])
            assert np.array_equal(qr.codes, q.codes[r]) and np.array_equal(qr.scales, q.scales[r])
            assert np.array_equal(qr.dequantize().view(np.uint32), q.dequantize()[r].view(np.uint32))


#------------------------------------------------------------------------ the CLI -#
def _rows(rng, n_rows, cols, dtype):
    """Rows of mixed magnitudes with NaN, Inf, -0 and subnormals here and there."""
    v = rng.standard_normal((n_rows, cols)) * np.exp2(rng.integers(-12, 12, (n_rows, 1)))
    v *= np.where(rng.random((n_rows, cols)) < 0.3, 2.0 ** -rng.integers(0, 30, (n_rows, cols)), 1)
    x = v.astype(dtype)
    ub = np.uint32 if x.dtype.itemsize == 4 else np.uint16
    bits = x.view(ub)
    for r in range(n_rows):
        k = r % 8
        if k == 1:
            x[r, rng.integers(cols)] = np.nan
        elif k == 2:
            x[r, rng.integers(cols)] = np.inf
        elif k == 3:
            x[r, rng.integers(cols)] = -0.0
        elif k == 4:
            bits[r, rng.integers(cols)] = 1                          # smallest subnormal
        elif k == 5:
            x[r] = 0
    return x, bits


@pytest.mark.parametrize("dtype", ["fp32", "bf16", "fp16"])
@pytest.mark.parametrize("rounding", ["rne", "sr"])
def test_agrees_with_the_cli(cli, dtype, rounding):
    rng = np.random.default_rng(["fp32", "bf16", "fp16"].index(dtype) * 2 + (rounding == "sr"))
    cols, n_rows = 48, 120
    dt = {"fp32": np.float32, "bf16": BF16, "fp16": np.float16}[dtype]
    x, bits = _rows(rng, n_rows, cols, dt)
    digits = 8 if dtype == "fp32" else 4
    text = "\n".join(" ".join(f"{int(b):0{digits}X}" for b in row) for row in bits) + "\n"
    args = [cli, "nvfp4", "--cols", str(cols), "--input", dtype, "--flags"]
    rb = None
    if rounding == "sr":
        rb = rng.integers(0, 2 ** 32, cols, dtype=np.uint32)
        args += ["--rounding", "sr", "--random-bits", ",".join(f"{int(w):X}" for w in rb)]
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == n_rows
    for row, line in zip(x, lines):
        w = [int(t, 16) for t in line.split()]
        q = mxgold.quantize_nvfp4(row, rounding=rounding, random_bits=rb)
        got = ([bits32(q.amax), bits32(q.s_enc)] + q.scales.tolist() + q.codes.tolist()
               + [q.flags])
        assert got == w, line
    count("nvfp4 rows against the CLI", n_rows)


#------------------------------------------------------------------------- errors -#
X = np.ones(32, np.float32)


@pytest.mark.parametrize("x, kwargs, exc, match", [
    (X.astype(np.float64), {}, TypeError, "float64 is not an NVFP4 input.*float32, float16"),
    (np.arange(32), {}, TypeError, "int64"),
    (X, dict(rounding="rna"), ValueError, "rounding='rna'; accepted: rne, sr"),
    (X, dict(rounding=0), TypeError, "rounding must be a name"),
    (X, dict(rounding="sr"), ValueError, "needs random_bits"),
    (X, dict(random_bits=np.zeros(32, np.uint32)), ValueError, "with rounding='sr' only"),
    (X, dict(rounding="sr", random_bits=np.zeros(31, np.uint32)), ValueError, "shape"),
    (X, dict(amax=-1.0), ValueError, "sign bit set"),
    (X, dict(amax=-0.0), ValueError, "sign bit set"),
    (X, dict(amax=0.1), ValueError, r"amax=0.1 is not a float32 value; pass np.float32"),
    (X, dict(amax="7"), TypeError, "amax must be a float32 value"),
    (X, dict(amax=10 ** 40), ValueError, "is not a float32 value"),
    (X, dict(tile_2d=1), TypeError, "tile_2d must be True or False"),
    (X, dict(axis=1), ValueError, "axis=1 is out of range"),
    (X[:20], dict(pad=False), ValueError, "not a multiple of block=16"),
])
def test_quantize_nvfp4_rejects(x, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        mxgold.quantize_nvfp4(x, **kwargs)


@pytest.mark.parametrize("args, kwargs, exc, match", [
    (([0] * 16, [0], 1.0), dict(dtype=np.float64), TypeError, "float64 is not an NVFP4 output"),
    (([16] + [0] * 15, [0], 1.0), {}, ValueError, "codes: a code does not fit"),
    (([0] * 16, [0x80], 1.0), {}, ValueError, "scales: a code does not fit"),
    (([0] * 16, [0, 0], 1.0), {}, ValueError, r"scales has shape \(2,\)"),
    (([0.0] * 16, [0], 1.0), {}, TypeError, "codes must hold integer codes"),
    (([0] * 16, [0], -2.0), {}, ValueError, "sign bit set"),
])
def test_dequantize_nvfp4_rejects(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        mxgold.dequantize_nvfp4(*args, **kwargs)
    with pytest.raises(ValueError, match="sign bit"):
        mxgold.nvfp4_global_scale(np.float32(-1))
