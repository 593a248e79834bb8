"""Every error path: a bad name, dtype, axis, size or policy raises ValueError or TypeError
naming the argument (and the accepted values); nothing crashes, nothing falls back silently."""
import numpy as np
import pytest

import mxgold
from mxgold import _core

X = np.linspace(-4, 4, 64, dtype=np.float32)


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(fmt="e4m4"), ValueError, "fmt='e4m4'.*accepted: .*e4m3"),
    (dict(fmt="fp32"), ValueError, "fmt='fp32'"),
    (dict(fmt="e8m0"), ValueError, "scale format"),
    (dict(fmt=3), TypeError, "fmt must be"),
    (dict(fmt=(4, 3, 1)), ValueError, "exp_bits, man_bits"),
    (dict(fmt="e4m3", axis=1), ValueError, "axis=1 is out of range"),
    (dict(fmt="e4m3", axis=1.0), TypeError, "axis must be an integer"),
    (dict(fmt="e4m3", block=0), ValueError, "block=0 is out of range"),
    (dict(fmt="e4m3", block=4097), ValueError, "block=4097"),
    (dict(fmt="e4m3", block=2.0), TypeError, "block must be an integer"),
    (dict(fmt="e4m3", rounding="nearest"), ValueError, "rounding='nearest'.*rne"),
    (dict(fmt="e4m3", rounding=1), TypeError, "rounding must be a name"),
    (dict(fmt="e4m3", scale_rule="round"), ValueError, "scale_rule='round'.*floor"),
    (dict(fmt="e4m3", profile="torchao"), ValueError, "profile='torchao'.*torchao-floor"),
    (dict(fmt="e4m3", profile=None), TypeError, "profile must be a name"),
    (dict(fmt="e4m3", overflow="wrap"), ValueError, "overflow='wrap'.*sat, ovf"),
    (dict(fmt="e4m3", overflow=1), TypeError, "overflow takes a name"),
    (dict(fmt="e4m3", saturate=True), TypeError, "unexpected keyword argument 'saturate'"),
    (dict(fmt="e4m3", zero_scale=256), ValueError, "zero_scale=256 is out of range 0..255"),
    (dict(fmt="e4m3", zero_scale="xyz"), ValueError, "not a base-16 number"),
    (dict(fmt="e4m3", zero_scale=True), TypeError, "zero_scale must be an integer"),
    (dict(fmt="e4m3", sr_bits=0), ValueError, "sr_bits=0"),
    (dict(fmt="e4m3", sr_bits=33), ValueError, "sr_bits=33"),
    (dict(fmt="e2m1", scale_format="ue4m3", zero_scale=0xFF), ValueError, "does not fit"),
    (dict(fmt="e4m3", scale_format="e4m3"), ValueError, "scale_format='e4m3' is a element"),
    (dict(fmt="e4m3", scale_format="e9m8"), ValueError, "scale_format='e9m8': man_bits=8 is out of range 0..7"),
    (dict(fmt="e4m3", scale_format="e3m"), ValueError, "scale_format='e3m' is not a format name"),
    (dict(fmt="e4m3", rounding="sr"), ValueError, "needs random_bits"),
    (dict(fmt="e4m3", random_bits=np.zeros(64, np.uint32)), ValueError, "with rounding='sr'"),
    (dict(fmt="e4m3", rounding="sr", random_bits=np.zeros(63, np.uint32)), ValueError,
     "random_bits has shape"),
    (dict(fmt="e4m3", rounding="sr", random_bits=np.zeros(64)), TypeError, "integers"),
    (dict(fmt="e4m3", rounding="sr", random_bits=np.full(64, 2**32)), ValueError, "0..2\\^32"),
    (dict(fmt="e4m3", rounding="sr", random_bits=np.full(64, -1)), ValueError, "0..2\\^32"),
    (dict(fmt="e4m3", engine="gpu"), ValueError, "engine='gpu'; accepted: auto, exact, fast"),
    (dict(fmt="e4m3", engine="fast", block=16), ValueError, "block=16"),
    (dict(fmt="e4m3", engine="fast", rounding="rnz"), ValueError, "rounding 'rnz'"),
    (dict(fmt="e4m3", engine="fast", scale_rule="even"), ValueError, "scale_rule 'even'"),
    (dict(fmt="e4m3", engine="fast", overflow="ovf"), ValueError, "overflow away from"),
    (dict(fmt="e4m3", engine="fast", scale_format="ue4m3"), ValueError, "scale format ue4m3"),
    (dict(fmt=(3, 3), engine="fast"), ValueError, "custom element format"),
    (dict(fmt="e4m3", engine="fast", rounding="sr", sr_bits=8,
          random_bits=np.zeros(64, np.uint32)), ValueError, "sr_bits=8 \\(only 16\\)"),
    (dict(fmt="e4m3", engine="fast", rounding="sr", sr_frac="rne",
          random_bits=np.zeros(64, np.uint32)), ValueError, "sr_frac away from"),
    (dict(fmt="e4m3", pad=1), TypeError, "pad must be"),
    (dict(fmt="e4m3", block=48, pad=False), ValueError, "not a multiple of block=48"),
])
def test_quantize_rejects(kwargs, exc, match):
    kwargs = dict(kwargs)
    fmt = kwargs.pop("fmt")
    with pytest.raises(exc, match=match):
        mxgold.quantize(X, fmt, **kwargs)


@pytest.mark.parametrize("x, exc, match", [
    (np.arange(64), TypeError, "int64"),
    (np.arange(64, dtype=np.int8), TypeError, "int8 is not supported"),
    (np.ones(64, np.complex64), TypeError, "complex64 is not supported"),
    (np.ones(64, np.longdouble), TypeError, "is not supported"),
    ([1, 2, 3], TypeError, "int64 values"),
    (np.float32(1.0), ValueError, "at least one dimension"),
    (["a"], TypeError, "is not supported"),
])
def test_quantize_rejects_inputs(x, exc, match):
    with pytest.raises(exc, match=match):
        mxgold.quantize(x, "e4m3")
    if not isinstance(x, list) and np.asarray(x).ndim:
        with pytest.raises(exc):
            mxgold.fake_quantize(x, "e4m3")


def test_fast_on_fp64_input_is_refused():
    with pytest.raises(ValueError, match="fp64 input"):
        mxgold.quantize(X.astype(np.float64), "e4m3", engine="fast")


def test_dequantize_rejects():
    q = mxgold.quantize(X, "e4m3")
    with pytest.raises(TypeError, match="not supported"):
        q.dequantize(np.int32)
    with pytest.raises(TypeError, match="not a dtype"):
        q.dequantize("float3")
    with pytest.raises(ValueError, match="engine="):
        q.dequantize(engine="x")
    with pytest.raises(ValueError, match="fp64 output"):
        q.dequantize(np.float64, engine="fast")
    with pytest.raises(TypeError, match="made by mxgold.quantize"):
        mxgold.MXArray()


def test_cast_and_decode_reject():
    with pytest.raises(ValueError, match="to='e9m9'"):
        mxgold.cast(X, "e9m9")
    with pytest.raises(TypeError, match="from_format"):
        mxgold.cast(np.arange(3), "e4m3")
    with pytest.raises(ValueError, match="needs random_bits"):
        mxgold.cast(X, "e4m3", rounding="sr")
    with pytest.raises(ValueError, match="random_bits must be integers of shape"):
        mxgold.cast(X, "e4m3", rounding="sr", random_bits=np.zeros(3, np.uint32))
    with pytest.raises(ValueError, match="does not fit the 4-bit"):
        mxgold.decode(np.array([16]), "e2m1")
    with pytest.raises(ValueError, match="does not fit"):
        mxgold.decode(np.array([-1]), "e4m3")
    with pytest.raises(TypeError, match="integer codes"):
        mxgold.decode(np.array([1.0]), "e4m3")
    with pytest.raises(ValueError, match="fmt='fp32'"):
        mxgold.decode(np.array([1]), "fp32")


def test_dot_and_matmul_reject():
    a = mxgold.quantize(X, "e4m3")
    b = mxgold.quantize(X[:32], "e4m3")
    with pytest.raises(TypeError, match="MXArray"):
        mxgold.dot(X, a)
    with pytest.raises(ValueError, match="different lengths"):
        mxgold.dot(a, b)
    with pytest.raises(ValueError, match="accum='fast'"):
        mxgold.dot(a, a, accum="fast")
    with pytest.raises(ValueError, match="out="):
        mxgold.dot(a, a, out="fp64")
    with pytest.raises(ValueError, match="tc='a100'"):
        mxgold.dot(a, a, accum="tensor-core", tc="a100")
    with pytest.raises(ValueError, match="unknown field"):
        mxgold.dot(a, a, accum="tensor-core", tc={"width": 3})
    with pytest.raises(ValueError, match="invalid tensor-core model"):
        mxgold.dot(a, a, accum="tensor-core", tc={"group": 0})
    with pytest.raises(ValueError, match="rounding='sr'"):
        mxgold.dot(a, a, rounding="sr")
    with pytest.raises(ValueError, match="needs group="):
        mxgold.dot(a, a, accum="fused-group")
    for g in (0, 12, 64, -8):
        with pytest.raises(ValueError, match=f"group={g} does not divide the block 32"):
            mxgold.dot(a, a, accum="fused-group", group=g)
    with pytest.raises(TypeError, match="group must be an integer"):
        mxgold.dot(a, a, accum="fused-group", group="8")
    with pytest.raises(TypeError, match="group must be an integer"):
        mxgold.dot(a, a, accum="fused-group", group=True)
    with pytest.raises(ValueError, match="group= goes with accum='fused-group'"):
        mxgold.dot(a, a, group=8)
    with pytest.raises(ValueError, match="different blocks"):
        mxgold.dot(a, mxgold.quantize(X, "e4m3", block=16))
    m = mxgold.quantize(X.reshape(8, 8), "e4m3", block=8, axis=1)
    with pytest.raises(ValueError, match="axis=0"):
        mxgold.matmul(m, m)
    with pytest.raises(ValueError, match="1-D"):
        mxgold.dot(m, m)
    n = mxgold.quantize(X[:48].reshape(6, 8), "e4m3", block=8, axis=0)
    with pytest.raises(ValueError, match="do not chain"):
        mxgold.matmul(n.__class__.from_codes(np.zeros((8, 1), np.uint8), np.zeros((8, 7), np.uint8),
                                             "e4m3", block=8, axis=1), n)


def test_format_constructors_reject():
    with pytest.raises(ValueError, match="exp_bits=0"):
        mxgold.format(0, 3)
    with pytest.raises(ValueError, match="exp_bits=16"):
        mxgold.format(16, 3)
    with pytest.raises(ValueError, match="specials='nan'"):
        mxgold.format(4, 3, specials="nan")
    with pytest.raises(ValueError, match="is not a format"):
        mxgold.format(1, 0, specials="ieee")
    with pytest.raises(ValueError, match="bias="):
        mxgold.format(4, 3, bias=2**21)
    with pytest.raises(TypeError, match="man_bits must be an integer"):
        mxgold.format(4, 3.0)
    with pytest.raises(ValueError, match=r"man_bits=8 is out of range 0\.\.7"):
        mxgold.scale_format(8, 8)
    with pytest.raises(ValueError, match="unknown format"):
        mxgold.Format.get("e4")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        mxgold.policy("ocp", colour="red")
    f = mxgold.format(3, 3)
    with pytest.raises(AttributeError):
        f.bits = 9


def test_core_checks_its_buffers():
    """The C core checks sizes itself: a wrong internal call raises, it does not crash."""
    e4 = mxgold.Format.get("e4m3").spec
    s8 = mxgold.Format.get("e8m0").spec
    pol = _core.profile(0)[0]
    x = np.ones(64, np.uint32)
    out_s, out_c, out_f = np.empty(2, np.uint8), np.empty(64, np.uint8), np.empty(2, np.uint8)
    with pytest.raises(ValueError, match="input"):
        _core.quantize(x[:63], 8, 2, 32, e4, s8, pol, 0, None, out_s, out_c, out_f, None)
    with pytest.raises(ValueError, match="codes"):
        _core.quantize(x, 8, 2, 32, e4, s8, pol, 0, None, out_s, out_c[:5], out_f, None)
    with pytest.raises(ValueError):
        _core.quantize(x, 8, 2**62, 2**10, e4, s8, pol, 0, None, out_s, out_c, out_f, None)
    with pytest.raises(ValueError, match="policy"):
        _core.quantize(x, 8, 2, 32, e4, s8, pol[:3], 0, None, out_s, out_c, out_f, None)
    with pytest.raises(ValueError, match="rounding"):
        _core.quantize(x, 8, 2, 32, e4, s8, pol, 99, None, out_s, out_c, out_f, None)
    with pytest.raises(BufferError):
        _core.quantize(x, 8, 2, 32, e4, s8, pol, 0, None, b"ro", out_c, out_f, None)
    with pytest.raises(ValueError, match="no format"):
        _core.format_info((99, 1, 0, 3, 7, 0, 0))
    with pytest.raises(ValueError, match="quantize_fast"):
        _core.quantize_fast(x, 8, 63, 0, 0, 0, out_s, out_c)
    with pytest.raises(ValueError, match="not a readable"):
        _core.read_mxv("/dev/null/x")
