"""The runner's inputs: probe classes that separate implementations, and a seeded random sweep.

Every random number comes from mxgold's one PRNG (SplitMix64, ``_core.random``), each class from
its own stream keyed by (seed, class, format, input), so a seed gives the same inputs on every
machine and the classes do not shift when one of them changes.  Values are built exactly
(``np.ldexp`` of integers, ``nextafter`` in the input dtype); a value the input dtype cannot hold
is rounded once by numpy's cast (RNE) and is then simply another input.

>>> x = block_inputs("e2m1", "fp32", seed=1, n_random=10, n_probe=4)
>>> sorted(x)[:3], x["random"].shape
(['all-nan', 'amax-edges', 'even-bump'], (10, 32))
"""
from __future__ import annotations

import functools
import zlib

import numpy as np

from .. import _core, _names
from .._formats import Format, _bf16_dtype

# The probe classes of a block run, in the matrix's column order, with what each separates
# (the numbered probes of docs/conformance.md).
BLOCK_CLASSES = {
    "suite": "every input block of the committed suite (vectors/) for this format and input",
    "random": "seeded random blocks: random signs, mantissas, exponents spread under amax",
    "ties": "elements exactly halfway between two codes after the block's FLOOR scale (2)",
    "amax-edges": "amax at, just below and just above 2^k and max*2^k (1, 3, 9)",
    "even-bump": "amax mantissas near the EVEN rule's rounding point (14)",
    "zero": "all-zero blocks, +0, -0 and mixed (7)",
    "neg-zero": "-0 elements and negative values that underflow to zero (8)",
    "nan": "one NaN (either sign) among finite values (5)",
    "inf": "one +Inf or -Inf among finite values (6)",
    "nan-inf": "one NaN and one Inf (5, 6)",
    "all-nan": "every element NaN (5)",
    "subnormal": "subnormals of the input type, alone and beside normals (13)",
    "tiny": "magnitudes near the bottom of the input's range: scale clamped at 2^-127 (7, 13)",
    "huge": "magnitudes near the top of the input's range: scale at or past 2^127 (12)",
    "int8-min": "MXINT8 values that round to -2.0 (-128) after scaling (10)",
    "near-ties": "FP64 only: element ties moved by less than half an FP32 ulp (a narrowing to FP32 "
                 "first rounds them onto the tie)",
}

CAST_CLASSES = {
    "suite": "every input of the committed suite's casts (vectors/) to this format",
    "exhaustive": "every bit pattern of the input type (FP16, BF16)",
    "grid": "every value of the target, every midpoint, and their neighbours in the input (2, 4)",
    "overflow": "around and past the target's max, and +-Inf (4)",
    "specials": "+-0, +-Inf, NaNs of both signs and several payloads (5, 6, 8)",
    "underflow": "the target's subnormal range and below, and input subnormals (8, 13)",
    "random": "seeded random values over the target's range and past it",
}

INPUTS = ("fp32", "fp64", "fp16", "bf16")

# per input: (bits, exponent bits, mantissa bits) and the exponent range random values use
_IEEE = {"fp32": (32, 8, 23), "fp64": (64, 11, 52), "fp16": (16, 5, 10), "bf16": (16, 8, 7)}


def dtype(name: str) -> np.dtype:
    """The numpy dtype of an input name."""
    if name == "bf16":
        d = _bf16_dtype()
        if d is None:
            raise TypeError("bf16 inputs need ml_dtypes")
        return np.dtype(d)
    return np.dtype({"fp32": np.float32, "fp64": np.float64, "fp16": np.float16}[name])


def uint(name: str) -> np.dtype:
    return np.dtype({8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[_IEEE[name][0]])


class _Stream:
    """Numbers of one class from SplitMix64(seed mixed with the class's key)."""

    def __init__(self, seed: int, *key: str):
        self.seed = (int(seed) * 0x100000001B3 + zlib.crc32("/".join(key).encode())) % 2**64

    def words(self, n: int) -> np.ndarray:
        w = np.empty(n, np.uint64)
        _core.random(self.seed, w)
        self.seed = (self.seed + 0x632BE59BD9B4E019 * (n + 1)) % 2**64
        return w

    def ints(self, n: int, lo: int, hi: int) -> np.ndarray:
        """n integers uniform in lo..hi (inclusive; the modulo bias is below 2^-40)."""
        return (self.words(n) % np.uint64(hi - lo + 1)).astype(np.int64) + lo

    def unit(self, n: int) -> np.ndarray:
        """n integers in [2^52, 2^53): a random 53-bit significand."""
        return (self.words(n) >> np.uint64(11)) | np.uint64(1 << 52)

    def signs(self, n: int) -> np.ndarray:
        return np.where(self.words(n) & np.uint64(1), -1.0, 1.0)


def _limits(inp: str) -> tuple[int, int, int]:
    """(emin, emax, mantissa bits) of an input type."""
    bits, e, m = _IEEE[inp]
    emax = (1 << (e - 1)) - 1
    return 1 - emax, emax, m


def _values(st: _Stream, shape, exps: np.ndarray, inp: str) -> np.ndarray:
    """Random values of random sign with the given exponents, exact in float64, rounded to the
    input type once."""
    n = int(np.prod(shape))
    v = np.ldexp(st.unit(n).astype(np.float64), (exps.reshape(-1) - 52).astype(np.int64))
    v = (v * st.signs(n)).reshape(shape)
    with np.errstate(over="ignore"):
        return v.astype(dtype(inp))


def _random_blocks(st: _Stream, nb: int, k: int, inp: str, lo: int, hi: int) -> np.ndarray:
    """Blocks whose top exponent is uniform in lo..hi and elements spread 0..11 below it (a
    sixteenth of them further), with random signs."""
    top = st.ints(nb, lo, hi)[:, None]
    drop = st.ints(nb * k, 0, 11).reshape(nb, k)
    far = st.ints(nb * k, 0, 15).reshape(nb, k) == 0
    drop = np.where(far, drop * 4, drop)
    return _values(st, (nb, k), top - drop, inp)


def _grid(fmt: Format) -> np.ndarray:
    """Every nonnegative finite value of an element format, ascending (float64, exact)."""
    from .._ops import decode

    codes = np.arange(fmt.max_mag + 1, dtype=np.uint64)
    return decode(codes.astype(np.uint8 if fmt.bits <= 8 else np.uint16), fmt, np.float64)


def _next(a: np.ndarray, inp: str, up: bool) -> np.ndarray:
    dt = dtype(inp)
    a = np.asarray(a, dt)
    return np.nextafter(a, np.array(np.inf if up else -np.inf, dt))


def _exp_range(fmt: Format, inp: str) -> tuple[int, int]:
    """Scale exponents whose blocks the input type can carry, within E8M0's 2^-127..2^127."""
    emin, emax, m = _limits(inp)
    lo, hi = max(-127, emin - fmt.emin + 1), min(127, emax - fmt.emax - 1)
    if lo > hi:  # a format as wide as the input (E5M2 from FP16): the middle scale
        lo = hi = (lo + hi) // 2
    return lo, hi


def _fill(st: _Stream, nb: int, k: int, inp: str, scale_e: np.ndarray, fmt: Format) -> np.ndarray:
    """Blocks of random values below the largest magnitude of a block scaled by 2^scale_e."""
    return _values(st, (nb, k), scale_e[:, None] + fmt.emax - st.ints(nb * k, 1, 8).reshape(nb, k),
                   inp)


@functools.lru_cache(maxsize=None)
def _suite_headers(vectors: str) -> tuple:
    """(path, header) of every committed .mxv file under ``vectors``, each read once a process:
    a run asks for the suite once per mode, format and input type, and reading all 529 files
    each time was two thirds of a light adapter's run."""
    import glob
    import os

    return tuple((path, _core.read_mxv(path)[0])
                 for path in sorted(glob.glob(os.path.join(vectors, "**", "*.mxv"), recursive=True)))


@functools.lru_cache(maxsize=None)
def _suite(vectors: str, op: str, fmt_name: str, inp: str, k: int) -> np.ndarray | None:
    parts = []
    for path, h in _suite_headers(vectors):
        if h["op"] != op or h["elem"] != fmt_name or h["in"] != inp or (
                op == "quantize" and (h["k"] != k or h["scale"] != "e8m0")):
            continue
        _, names, data = _core.read_mxv(path)
        i = [n for n, _ in names].index("in")
        parts.append(np.frombuffer(data[i], np.uint64).astype(uint(inp)).reshape(h["cases"], -1))
    if not parts:
        return None
    a = np.unique(np.concatenate(parts), axis=0).view(dtype(inp))
    return a.reshape(-1, k) if op == "quantize" else a.reshape(-1)


def suite(vectors: str, op: str, fmt_name: str, inp: str, k: int = 1) -> np.ndarray | None:
    """The distinct inputs of the committed suite's ``op`` files (quantize: blocks of k; cast:
    values) to one format from one input type, or None if there are none (a fresh copy each
    call; the files are read once a process)."""
    a = _suite(vectors, op, fmt_name, inp, k)
    return None if a is None else a.copy()


def block_inputs(fmt_name: str, inp: str, seed: int, n_random: int,
                 n_probe: int = 1000, k: int = 32, vectors: str | None = None
                 ) -> dict[str, np.ndarray]:
    """The block inputs for one element format and input type: {class: (blocks, k) array}.

    n_random random blocks; about n_probe blocks per probe class; the committed suite's blocks
    when ``vectors`` names its directory.
    """
    if fmt_name in _names.MXS_FORMATS:  # MX9/MX6/MX4: the grid of their element format
        from .._mxs import element_format

        fmt = element_format(fmt_name)
    else:
        fmt = Format.get(fmt_name)
    dt = dtype(inp)
    emin, emax, m = _limits(inp)
    lo, hi = _exp_range(fmt, inp)
    out: dict[str, np.ndarray] = {}
    if vectors:
        v = suite(vectors, "quantize", fmt_name, inp, k)
        if v is not None:
            out["suite"] = v

    def stream(cls):
        return _Stream(seed, cls, fmt_name, inp)

    st = stream("random")
    out["random"] = _random_blocks(st, n_random, k, inp, max(emin - 4, -140),
                                   min(emax, 130) if inp != "fp64" else 140)

    # ties: amax = max * 2^s (FLOOR picks s), the rest at midpoints of the grid times 2^s
    st = stream("ties")
    g = _grid(fmt)
    mids = (g[:-1] + g[1:]) / 2
    s = st.ints(n_probe, lo, hi)
    pick = mids[st.ints(n_probe * k, 0, mids.size - 1)].reshape(n_probe, k)
    t = np.ldexp(pick * st.signs(n_probe * k).reshape(n_probe, k), s[:, None])
    t[np.arange(n_probe), st.ints(n_probe, 0, k - 1)] = np.ldexp(float(fmt.max), s)
    out["ties"] = t.astype(dt)

    # amax edges: 2^j and max*2^j (j around the scale range), exactly and one ulp either side
    st = stream("amax-edges")
    s = st.ints(n_probe, lo, hi)
    base = np.where(st.ints(n_probe, 0, 1) == 1, float(fmt.max), 2.0 ** fmt.emax)
    a = np.ldexp(base, s).astype(dt)
    side = st.ints(n_probe, -1, 1)
    a = np.where(side < 0, _next(a, inp, False), np.where(side > 0, _next(a, inp, True), a))
    b = _fill(st, n_probe, k, inp, s, fmt)
    b[np.arange(n_probe), st.ints(n_probe, 0, k - 1)] = a * st.signs(n_probe).astype(dt)
    out["amax-edges"] = b

    # EVEN: amax = (2 - 2^-j) * 2^e for j near the element's mantissa width, and neighbours
    st = stream("even-bump")
    s = st.ints(n_probe, lo, hi)
    j = st.ints(n_probe, 1, max(fmt.mbits, 1) + 3)
    a = np.ldexp(2.0 - np.ldexp(1.0, -j), s + fmt.emax).astype(dt)
    side = st.ints(n_probe, -1, 1)
    a = np.where(side < 0, _next(a, inp, False), np.where(side > 0, _next(a, inp, True), a))
    b = _fill(st, n_probe, k, inp, s, fmt)
    b[np.arange(n_probe), st.ints(n_probe, 0, k - 1)] = a * st.signs(n_probe).astype(dt)
    out["even-bump"] = b

    z = np.zeros((3, k), dt)
    z[1] = -z[1]
    z[2, ::2] = -z[2, ::2]
    out["zero"] = z

    # -0 among values, and negative values far below amax (they underflow to zero)
    st = stream("neg-zero")
    s = st.ints(n_probe, lo, hi)
    b = _fill(st, n_probe, k, inp, s, fmt)
    tiny = _values(st, (n_probe, k), s[:, None] + fmt.emin - st.ints(n_probe * k, 2, 12)
                   .reshape(n_probe, k), inp)
    b = np.where(st.ints(n_probe * k, 0, 2).reshape(n_probe, k) == 0, -np.abs(tiny), b)
    b[st.ints(n_probe * k, 0, 7).reshape(n_probe, k) == 0] = -0.0
    out["neg-zero"] = b

    def with_specials(cls, nan, inf):
        st = stream(cls)
        b = _random_blocks(st, n_probe, k, inp, lo + fmt.emax, hi + fmt.emax)
        r = np.arange(n_probe)
        i = st.ints(n_probe, 0, k - 1)
        if nan:
            b[r, i] = np.where(st.ints(n_probe, 0, 1) == 1, -np.nan, np.nan)
        if inf:
            j = (i + st.ints(n_probe, 1, k - 1)) % k
            b[r, j] = np.where(st.ints(n_probe, 0, 1) == 1, -np.inf, np.inf)
        return b

    out["nan"] = with_specials("nan", True, False)
    out["inf"] = with_specials("inf", False, True)
    out["nan-inf"] = with_specials("nan-inf", True, True)
    an = np.full((2, k), np.nan, dt)
    an[1, ::2] = -an[1, ::2]
    out["all-nan"] = an

    # subnormals of the input type: whole blocks of them, and beside normals
    st = stream("subnormal")
    sub = np.ldexp(st.ints(n_probe * k, 1, (1 << m) - 1).astype(np.float64), emin - m)
    sub = (sub * st.signs(n_probe * k)).reshape(n_probe, k).astype(dt)
    half = n_probe // 2
    sub[half:, 0] = _values(st, (n_probe - half,), st.ints(n_probe - half, emin, emin + 6), inp)
    out["subnormal"] = sub

    st = stream("tiny")
    out["tiny"] = _random_blocks(st, n_probe, k, inp, emin, emin + 8)
    st = stream("huge")
    top = emax if inp != "fp64" else 140
    hb = _random_blocks(st, n_probe, k, inp, top - 8, top)
    if inp == "fp64":
        hb[: n_probe // 4] = _random_blocks(st, n_probe // 4, k, inp, 129, 400)
    hb[0, 0] = np.finfo(dt).max if inp != "bf16" else _next(np.inf, inp, False)
    out["huge"] = hb

    if inp == "fp64":
        st = stream("near-ties")
        t = out["ties"].copy()
        off = np.ldexp(st.signs(t.size).reshape(t.shape), -st.ints(t.size, 26, 40).reshape(t.shape))
        keep = np.abs(t) == np.abs(t).max(axis=1, keepdims=True)
        out["near-ties"] = np.where(keep, t, t * (1.0 + off))
    if fmt.special == "int":
        st = stream("int8-min")
        s = st.ints(n_probe, lo, hi)
        v = np.array([127.5, 127.25, 127.75, 126.5, 127.0]) / 64
        b = _fill(st, n_probe, k, inp, s, fmt)
        b[np.arange(n_probe), st.ints(n_probe, 0, k - 1)] = np.ldexp(
            -v[st.ints(n_probe, 0, v.size - 1)], s).astype(dt)
        out["int8-min"] = b
    return {c: np.ascontiguousarray(out[c]) for c in BLOCK_CLASSES if c in out}


def cast_inputs(fmt_name: str, inp: str, seed: int, n_random: int,
                vectors: str | None = None) -> dict[str, np.ndarray]:
    """Scalar-cast inputs for one target format and input type: {class: 1-D array}."""
    fmt = Format.get(fmt_name)
    dt = dtype(inp)
    bits, ebits, m = _IEEE[inp]
    emin, emax, _ = _limits(inp)
    out: dict[str, np.ndarray] = {}
    if vectors:
        v = suite(vectors, "cast", fmt_name, inp)
        if v is not None:
            out["suite"] = v
    if bits == 16:
        out["exhaustive"] = np.arange(1 << 16, dtype=np.uint16).view(dt)
    g = _grid(fmt) if fmt.role == "element" or fmt.special != "pow2" else None
    if fmt.special == "pow2":
        g = np.ldexp(1.0, np.arange(fmt.emin, fmt.emax + 1))
    with np.errstate(over="ignore"):
        pts = np.concatenate([g, (g[:-1] + g[1:]) / 2]).astype(dt)
        pts = np.concatenate([pts, _next(pts, inp, False), _next(pts, inp, True)])
        out["grid"] = np.concatenate([pts, -pts])
        top = float(fmt.max)
        ulp = top - g[-2] if g.size > 1 else top
        ov = np.array([top, top + ulp / 4, top + ulp / 2, top + ulp, 2 * top, 1e6 * top],
                      np.float64).astype(dt)
        ov = np.concatenate([ov, _next(ov, inp, False), _next(ov, inp, True), [np.inf]])
        ov = ov.astype(dt)
        out["overflow"] = np.concatenate([ov, -ov])
    nan_bits = {16: [0x7E00, 0x7C01, 0x7FFF] if inp == "fp16" else [0x7FC0, 0x7F81, 0x7FFF],
                32: [0x7FC00000, 0x7F800001, 0x7FFFFFFF],
                64: [0x7FF8000000000000, 0x7FF0000000000001, 0x7FFFFFFFFFFFFFFF]}[bits]
    u = uint(inp)
    nans = np.array(nan_bits, np.uint64).astype(u)
    nans = np.concatenate([nans, nans | u.type(1 << (bits - 1))]).view(dt)
    out["specials"] = np.concatenate([np.array([0.0, -0.0, np.inf, -np.inf], dt), nans])
    st = _Stream(seed, "cast-underflow", fmt_name, inp)
    lo_e = fmt.emin - fmt.mbits if fmt.special != "int" else -fmt.mbits
    lo_u = max(lo_e - 6, emin - m)
    e = st.ints(4096, lo_u, max(lo_u, lo_e + 2))
    uf = _values(st, (4096,), e, inp)
    sub = np.ldexp(st.ints(1024, 1, (1 << m) - 1).astype(np.float64), emin - m)
    out["underflow"] = np.concatenate([uf, (sub * st.signs(1024)).astype(dt)])
    st = _Stream(seed, "cast-random", fmt_name, inp)
    e = st.ints(n_random, max(emin, lo_e - 4), min(emax, fmt.emax + 4))
    out["random"] = _values(st, (n_random,), e, inp)
    return {c: np.ascontiguousarray(out[c]) for c in CAST_CLASSES if c in out}


def random_bits(seed: int, shape, *key: str) -> np.ndarray:
    """uint32 random bits for stochastic rounding, the same for mxgold and the library."""
    w = _Stream(seed, "rbits", *key).words(int(np.prod(shape)))
    return (w >> np.uint64(32)).astype(np.uint32).reshape(shape)
