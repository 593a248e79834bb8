"""quantize's array handling (axis, padding, dtypes, random bits) and its engines, checked against
the exact engine on plain blocks: structured inputs with every special, FP32 subnormals, ties
after scaling, amax at powers of two."""
import numpy as np
import pytest

import mxgold
from conftest import count
from mxgold import _names

ELEMS = [n for n, d in _names.FORMATS.items() if d["role"] == "element"]
FAST_ROUNDINGS = ["rne", "rna", "rtz", "rup", "rdn"]


def structured(n_blocks, seed):
    """FP32 bit patterns: random magnitudes over the whole range, with specials, subnormals,
    zeros of both signs, ties and amax at powers of two mixed into the blocks."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**32, size=(n_blocks, 32), dtype=np.uint64).astype(np.uint32)
    # a third of the blocks share one exponent (elements then round, not flush)
    e = rng.integers(1, 254, size=(n_blocks // 3, 1), dtype=np.uint32)
    bits[: n_blocks // 3] = (bits[: n_blocks // 3] & 0x807FFFFF) | (e << 23)
    specials = np.array([0x7FC00000, 0xFFC00001, 0x7F800000, 0xFF800000, 0x00000001, 0x807FFFFF,
                         0x00000000, 0x80000000, 0x3F800000, 0x40400000, 0x3FC00000, 0x7F7FFFFF],
                        np.uint32)
    pos = rng.integers(0, 32, size=n_blocks)
    pick = rng.integers(0, specials.size, size=n_blocks)
    sel = rng.random(n_blocks) < 0.3
    bits[sel, pos[sel]] = specials[pick[sel]]
    return bits.view(np.float32)


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("rule", ["floor", "rceil-fp32"])
def test_fast_equals_exact(elem, rule):
    x = structured(20000, 3)
    import ml_dtypes
    for xin in (x, x.astype(ml_dtypes.bfloat16)):
        for rnd in FAST_ROUNDINGS:
            e = mxgold.quantize(xin, elem, rounding=rnd, scale_rule=rule, engine="exact")
            f = mxgold.quantize(xin, elem, rounding=rnd, scale_rule=rule, engine="fast")
            a = mxgold.quantize(xin, elem, rounding=rnd, scale_rule=rule)
            assert f.engine == "fast" and a.engine == "fast" and e.engine == "exact"
            assert np.array_equal(e.scales, f.scales) and np.array_equal(e.codes, f.codes)
            assert e == a
            # flags of a fast result come from libmxgold on first use
            assert np.array_equal(e.flags, f.flags)
            for dt in (np.float32, "bfloat16"):
                assert np.array_equal(e.dequantize(dt, engine="exact").view(np.uint8),
                                      e.dequantize(dt, engine="fast").view(np.uint8))
            count("blocks where engine='fast' equals 'exact' (structured)", x.shape[0])


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("rule", ["floor", "rceil-fp32"])
def test_fast_equals_exact_sr(elem, rule):
    """sr through libmxk's mxk_quantize_sr (sr_bits 16): the words' low halves favour the
    edges (0, 0xFFFF, 0x8000), their high halves are random and must not matter."""
    x = structured(5000, 5)
    import ml_dtypes
    rng = np.random.default_rng(11)
    rb = rng.integers(0, 2**32, size=x.shape, dtype=np.uint64).astype(np.uint32)
    edge = rng.integers(0, 6, size=x.shape)
    rb = np.where(edge == 0, rb & 0xFFFF0000, np.where(edge == 1, rb | 0xFFFF, rb))
    rb = np.where(edge == 2, (rb & 0xFFFF0000) | 0x8000, rb).astype(np.uint32)
    for xin in (x, x.astype(ml_dtypes.bfloat16)):
        kw = dict(rounding="sr", scale_rule=rule, random_bits=rb)
        e = mxgold.quantize(xin, elem, engine="exact", **kw)
        f = mxgold.quantize(xin, elem, engine="fast", **kw)
        a = mxgold.quantize(xin, elem, **kw)
        assert f.engine == "fast" and a.engine == "fast" and e.engine == "exact"
        assert np.array_equal(e.scales, f.scales) and np.array_equal(e.codes, f.codes)
        assert e == a
        assert np.array_equal(e.flags, f.flags)
        count("blocks where engine='fast' equals 'exact' (structured, sr)", x.shape[0])
    # another sr_bits, or an sr_frac other than trunc: not in the kernels
    assert mxgold.quantize(x, elem, sr_bits=8, **kw).engine == "exact"
    assert mxgold.quantize(x, elem, sr_frac="rne", **kw).engine == "exact"


def test_auto_takes_exact_when_fast_cannot():
    x = structured(10, 1)
    assert mxgold.quantize(x, "e4m3", rounding="rnz").engine == "exact"
    assert mxgold.quantize(x, "e4m3", block=16).engine == "exact"
    assert mxgold.quantize(x.astype(np.float64), "e4m3").engine == "exact"
    assert mxgold.quantize(x, "e4m3", overflow="ovf").engine == "exact"
    assert mxgold.quantize(x, "e4m3", scale_rule="ceil").engine == "exact"
    assert mxgold.quantize(x, "e4m3", profile="ggml-mxfp4").engine == "exact"  # rnz
    assert mxgold.quantize(x, "e4m3", sr_bits=8).engine == "fast"  # sr_bits unused off sr
    assert mxgold.quantize(x, "e4m3", scale_rule="rceil-fp32").engine == "fast"
    # torchao-rceil's rceil-log2f and min-scale-elem are not in the kernels
    assert mxgold.quantize(x, "e4m3", profile="torchao-rceil").engine == "exact"


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
def test_axis_is_the_blocked_axis(axis):
    x = structured(32, 7).reshape(4, 8, 8 * 4)  # 1024 values
    q = mxgold.quantize(x, "e5m2", axis=axis, block=4, engine="exact")
    m = np.moveaxis(x, axis, -1)
    r = mxgold.quantize(np.ascontiguousarray(m).reshape(-1, 4), "e5m2", block=4)
    assert q.codes.shape == x.shape
    assert np.array_equal(np.moveaxis(q.codes, axis, -1).reshape(-1, 4), r.codes)
    assert np.array_equal(np.moveaxis(q.scales, axis, -1).reshape(-1), r.scales.reshape(-1))
    assert np.array_equal(np.moveaxis(q.flags, axis, -1).reshape(-1), r.flags.reshape(-1))
    assert np.array_equal(np.moveaxis(q.dequantize(), axis, -1).reshape(-1, 4), r.dequantize(),
                          equal_nan=True)


def test_padding_is_trailing_zeros():
    x = structured(3, 11).reshape(-1)[:83]  # 83 = 2 whole blocks of 32 and 19
    q = mxgold.quantize(x, "e2m3", engine="exact")
    padded = np.concatenate([x, np.zeros(13, np.float32)])
    r = mxgold.quantize(padded, "e2m3", engine="exact")
    assert q.scales.shape == (3,) and q.codes.shape == (83,)
    assert np.array_equal(q.scales, r.scales) and np.array_equal(q.codes, r.codes[:83])
    assert np.array_equal(q.flags, r.flags)
    # the fast engine pads the same way
    assert mxgold.quantize(x, "e2m3", engine="fast") == q
    with pytest.raises(ValueError, match="multiple of block"):
        mxgold.quantize(x, "e2m3", pad=False)


def test_input_dtypes_read_exactly():
    x = structured(50, 5)
    import ml_dtypes
    for dt in (np.float64, np.float16, ml_dtypes.bfloat16):
        xd = x.astype(dt)
        q = mxgold.quantize(xd, "e4m3", scale_rule="even", engine="exact")
        # the same values, given as float64, give the same blocks (every value is exact there)
        r = mxgold.quantize(xd.astype(np.float64), "e4m3", scale_rule="even")
        assert np.array_equal(q.codes, r.codes) and np.array_equal(q.scales, r.scales)
    # a Python list is float64
    q = mxgold.quantize([1.0, 2.0], "e4m3", block=2)  # amax 2: scale 2^(1-8), codes 128 and 256
    assert q.scales.tolist() == [127 - 7] and q.codes.tolist() == [0x70, 0x78]


def test_stochastic_rounding_uses_the_given_bits():
    # amax 1 + 2^-5: scale 2^-8, elements 264, a quarter of the way from 256 (0x78) to 288 (0x79)
    x = np.full(32, 1.0 + 2.0**-5, np.float32)
    x[0] = 1.0
    zero = np.zeros(32, np.uint32)
    ones = np.full(32, 0xFFFF, np.uint32)
    lo = mxgold.quantize(x, "e4m3", rounding="sr", random_bits=zero)
    hi = mxgold.quantize(x, "e4m3", rounding="sr", random_bits=ones)
    assert lo.scales.tolist() == [127 - 8] and lo.codes[0] == 0x78 == hi.codes[0]
    assert lo.codes[1:].tolist() == [0x78] * 31 and hi.codes[1:].tolist() == [0x79] * 31
    # R = 16 bits: the threshold is 3/4 of 2^16
    mid = np.full(32, 0xC000, np.uint32)
    assert mxgold.quantize(x, "e4m3", rounding="sr", random_bits=mid).codes[1] == 0x79
    mid -= 1
    assert mxgold.quantize(x, "e4m3", rounding="sr", random_bits=mid).codes[1] == 0x78
    # only the low sr_bits of each word count
    hi16 = np.full(32, 0xFFFF0000, np.uint32)
    assert mxgold.quantize(x, "e4m3", rounding="sr", random_bits=hi16).codes[1] == 0x78


def test_custom_formats_equal_builtin_ones():
    x = structured(2000, 13)
    for name, f in (("e4m3", mxgold.format(4, 3, specials="fn")),
                    ("e5m2", mxgold.format(5, 2, specials="ieee")),
                    ("e2m1", mxgold.format(2, 1)), ("e3m2", (3, 2))):
        q = mxgold.quantize(x, name, engine="exact")
        c = mxgold.quantize(x, f)
        assert c.engine == "exact" or isinstance(f, tuple)
        assert np.array_equal(q.codes, c.codes) and np.array_equal(q.scales, c.scales)
        assert np.array_equal(q.flags, c.flags)
        count("blocks where a custom format equals the built-in one", x.shape[0])
    s5 = mxgold.scale_format(5)
    q = mxgold.quantize(x, "e4m3", scale_format=s5, engine="exact")
    assert q.scales.max() <= 31


def test_ekmm_scales():
    x = np.float32([[1.0, 2.0, -3.0, 0.125]])
    # E8M1 (bias 127; code = exponent field << 1 | mantissa bit): amax / max = 3 / 6 = 0.5 =
    # 2^-1, code 126 << 1 = 0xFC;
    # elements 1/0.5 = 2 (0x4), 4 (0x6), -6 (0xF), 0.25 a tie between 0 and 0.5: RNE gives +0
    q = mxgold.quantize(x, "e2m1", block=4, scale_format="e8m1")
    assert q.scales.tolist() == [[0xFC]] and q.codes.tolist() == [[0x4, 0x6, 0xF, 0x0]]
    assert q.scale_format == mxgold.scale_format(8, 1) and q.scale_format.name == "e8m1"
    # amax 5: 5/6 = 0.8333 lies between E8M1's 0.75 (0xFD) and 1.0 (0xFE), nearer 0.75: rne and
    # down give 0.75, under which 5 / 0.75 = 6.67 saturates to 6 (0x7); up gives 1.0, and 5 is
    # the tie between 4 (0x6) and 6 (0x7): RNE takes the even mantissa, 4
    y = np.float32([[5.0, 0.0, 0.0, 0.0]])
    for rnd, sc, c0 in (("rne", 0xFD, 0x7), ("up", 0xFE, 0x6), ("down", 0xFD, 0x7)):
        q = mxgold.quantize(y, "e2m1", block=4, scale_format=(8, 1),
                            scale_round=rnd)
        assert q.scales.tolist() == [[sc]] and q.codes.tolist()[0][0] == c0, rnd
    # amax 4.4: 4.4/6 = 0.733 rounds to 0.75 (0xFD) by rne and up, to 0.5 (0xFC, the E8M1 value
    # below 0.75) by down: 4.4/0.75 = 5.87 rounds to 6, 4.4/0.5 = 8.8 saturates to 6
    z = np.float32([[4.4, 0.0, 0.0, 0.0]])
    for rnd, sc in (("rne", 0xFD), ("up", 0xFD), ("down", 0xFC)):
        q = mxgold.quantize(z, "e2m1", block=4, scale_format="e8m1",
                            scale_round=rnd)
        assert q.scales.tolist() == [[sc]] and q.codes.tolist()[0][0] == 0x7, rnd
    with pytest.raises(ValueError, match=r"scale_format='e16m0': exp_bits=16 is out of range 2\.\.15"):
        mxgold.quantize(x, "e2m1", block=4, scale_format="e16m0")


def test_empty_and_tiny_inputs():
    q = mxgold.quantize(np.zeros((3, 0), np.float32), "e4m3")
    assert q.codes.shape == (3, 0) and q.scales.shape == (3, 0)
    q = mxgold.quantize(np.zeros((0, 64), np.float32), "e4m3")
    assert q.codes.shape == (0, 64) and q.scales.shape == (0, 2)
    q = mxgold.quantize(np.float32([5.0]), "e4m3")
    # amax 5: scale 2^(2-8), element 320 = 256 + 2 * 32
    assert q.scales.tolist() == [2 + 127 - 8] and q.codes.tolist() == [0x7A]


def test_out_reuses_the_arrays():
    q = mxgold.quantize(structured(100, 3), "e4m3")
    s, c = q._scales_b, q._codes_b
    y = structured(100, 4)
    r = mxgold.quantize(y, "e4m3", out=q)
    e = mxgold.quantize(y, "e4m3", engine="exact")
    assert r is q and r._codes_b is c and r._scales_b is s
    assert r == e and np.array_equal(r.flags, e.flags)
    with pytest.raises(ValueError, match="out does not match"):
        mxgold.quantize(y, "e4m3", block=16, out=q)
    with pytest.raises(ValueError, match="out does not match"):
        mxgold.quantize(y[:50], "e4m3", out=q)
    with pytest.raises(TypeError, match="out must be an MXArray"):
        mxgold.quantize(y, "e4m3", out=np.empty(3))


def test_element_flags_and_block_flags():
    x = structured(500, 6)
    e = mxgold.quantize(x, "e2m1", engine="exact", element_flags=True)
    f = mxgold.quantize(x, "e2m1", engine="fast")  # flags computed on first use
    assert np.array_equal(e.element_flags, f.element_flags)
    assert np.array_equal(e.flags, f.flags)
    # a block's flags hold the OR of its elements' flags
    ored = np.bitwise_or.reduce(e.element_flags.reshape(-1, 32), axis=1)
    assert not np.any(ored & ~e.flags[:, 0])
    assert np.any(e.flags & mxgold.FLAG_OVERFLOW) and np.any(e.flags & mxgold.FLAG_INVALID)
