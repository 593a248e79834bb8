"""plan_formats (docs/planning.md): the exact squared error against hand-derived values and a
pure-Fraction computation; the knapsack against hand-derived fronts; the safetensors reader
against hostile files; the CLI; and a real model's weights shipped in a wheel (wordllama)."""
import doctest
import hashlib
import importlib.metadata
import json
import os
import struct
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import mxgold
from mxgold import _plan, _safetensors
from mxgold._plan import squared_error
from mxgold._safetensors import SafeTensors, read_safetensors


def test_doctests():
    # test_doctests.py runs the modules it lists; these are run here
    r = doctest.testmod(_plan, extraglobs={"mxgold": mxgold},
                        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert r.attempted > 0 and r.failed == 0


def block(*head, n=32, dtype=np.float32):
    x = np.zeros(n, dtype)
    x[:len(head)] = head
    return x


def fraction_sse(x, q):
    """The reference: every element through Fractions, nothing shared with the fast path."""
    return sum(((Fraction(float(a)) - Fraction(float(b))) ** 2 for a, b in zip(x, q)),
               Fraction(0))


#------------------------------------------------------------- exactness -#
def test_hand_derived_e2m1_error():
    # amax 5 -> scale 2^(floor(log2 5) - 2) = 1; the e2m1 grid is 0 .5 1 1.5 2 3 4 6 and every
    # input below is a tie or nearly one, rounded to even (RNE):
    #   4.0 -> 4 exact; 1.25 -> 1 (err 1/4, sq 1/16); 2.5 -> 2 (sq 1/4); 5.0 -> 4 (sq 1);
    #   0.75 -> 1 (sq 1/16); float32(0.1) = 13421773 / 2^27 -> 0 (sq 13421773^2 / 2^54).
    x = block(4.0, 1.25, 2.5, 5.0, 0.1, 0.75)
    want = Fraction(1, 16) + Fraction(1, 4) + 1 + Fraction(1, 16) + Fraction(13421773 ** 2, 2 ** 54)
    p = mxgold.plan_formats({"t": x}, ["e2m1", "e4m3"], 4.25)
    assert p.errors["t", "e2m1"] == want
    assert p.error == want and p.choice == {"t": "e2m1"}
    signal = 16 + Fraction(25, 16) + Fraction(25, 4) + 25 + Fraction(9, 16) \
        + Fraction(13421773 ** 2, 2 ** 54)
    assert p.sqnr_db == pytest.approx(10 * np.log10(float(signal / want)), abs=1e-12)
    q = mxgold.quantize(x, "e2m1").dequantize(np.float64)
    assert squared_error(x.astype(np.float64), q) == fraction_sse(x, q) == want


def test_inexact_float64_subtraction_is_still_exact():
    # Under rounding toward +inf, 2^-30 (1 + 2^-52) in a block of amax 1 (scale 2^-2) rounds up
    # to the smallest e2m1 step, 0.5 * 2^-2 = 2^-3: x - q = -(2^-3 - 2^-30 - 2^-82) has 80
    # significant bits, so float64 subtraction rounds it.  2^-1074 goes to 2^-3 too.
    x = block(1.0, 2.0 ** -30 * (1 + 2.0 ** -52), 2.0 ** -1074, dtype=np.float64)
    q = mxgold.quantize(x, "e2m1", rounding="rup").dequantize(np.float64)
    assert q[1] == q[2] == 0.125
    assert Fraction(float(q[1] - x[1])) != Fraction(float(q[1])) - Fraction(float(x[1]))
    p = mxgold.plan_formats({"t": x}, ["e2m1"], 5, rounding="rup")
    assert p.errors["t", "e2m1"] == fraction_sse(x, q)
    # RNE flushes both tiny values to 0: the squares, 2^-60-ish and 2^-2148, are each kept,
    # though the second underflows to 0 in float64
    q = mxgold.quantize(x, "e2m1").dequantize(np.float64)
    assert q[1] == q[2] == 0 and x[2] * x[2] == 0
    assert fraction_sse(x[2:3], q[2:3]) == Fraction(1, 2 ** 2148)
    assert mxgold.plan_formats({"t": x}, ["e2m1"], 5).errors["t", "e2m1"] == fraction_sse(x, q)


def test_random_float64_against_fractions():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(32 * 40) * np.exp2(rng.integers(-60, 60, 32 * 40))
    x[::17] = 2.0 ** -1074
    x = x.reshape(40, 32)
    for fmt, rnd in (("e2m1", "rup"), ("e4m3", "rne"), ("e3m2", "rdn"), ("int8", "rtz")):
        q = mxgold.quantize(x, fmt, rounding=rnd).dequantize(np.float64)
        ok = np.isfinite(q).all(axis=-1)  # a scale overflow makes a block NaN: left out
        p = mxgold.plan_formats({"t": x}, [fmt], 9, rounding=rnd)
        assert p.errors["t", fmt] == fraction_sse(x[ok].ravel(), q[ok].ravel()), fmt


def test_overflowing_difference_falls_back_to_fractions():
    big = np.finfo(np.float64).max
    x, q = np.array([big, 1.0, -big]), np.array([-big, 0.5, 3.0])
    assert squared_error(x, q) == fraction_sse(x, q)


def test_nonfinite_inputs_are_counted_and_left_out():
    # OCP: a NaN or Inf in a block makes its scale NaN, so the whole block is left out
    x = np.concatenate([block(4.0, 1.25), block(np.nan, 1.0), block(np.inf, 2.0)])
    p = mxgold.plan_formats({"t": x}, ["e2m1", "e4m3"], 8.25)
    assert p.nonfinite == {"t": 2} and p._m.lost == {"t": 62}
    assert p.errors["t", "e2m1"] == Fraction(1, 16) and p.per_tensor[0]["lost"] == 62


def test_dtypes_and_bits_come_from_the_formats():
    import ml_dtypes
    x = np.linspace(-3, 3, 64)
    ts = {"f64": x, "f32": x.astype(np.float32), "f16": x.astype(np.float16),
          "bf16": x.astype(ml_dtypes.bfloat16)}
    p = mxgold.plan_formats(ts, ["e2m3", "e3m2", "e5m2"], 8)
    assert p.bits == {"e2m3": Fraction(25, 4), "e3m2": Fraction(25, 4), "e5m2": Fraction(33, 4)}
    # the four hold the same values but for the inputs' own rounding
    assert p.errors["f64", "e2m3"] > 0 and p.errors["bf16", "e2m3"] > 0
    # ue4m3 is a 7-bit format (no sign) in the table, and statistics() counts it so too
    p = mxgold.plan_formats({"t": x}, ["e2m1"], 5, block=16, scale_format="ue4m3")
    assert p.avg_bits == 4 + Fraction(7, 16)


#-------------------------------------------------------------- knapsack -#
# Three tensors where e4m3 is exact and e2m1 errs by a hand-derived amount (scale 1 as above):
#   A: 32 elements [4, 5, 0...]: 5 -> 4, error 1
#   B: 64 elements, two blocks [4, 2.5, 0...]: 2.5 -> 2 twice, error 1/2
#   C: 32 elements [4, 1.25, 0...]: 1.25 -> 1, error 1/16
# e4m3: scale 2^(2 - 8) = 2^-6; 5, 2.5, 1.25 are 320, 160, 80 times it: exact.
# 128 elements; e4m3 for A or C adds 1 bit to the average, for B 2 bits.  Assignments (A B C),
# 0 = e2m1, 1 = e4m3: 000 4.25 25/16; 100 5.25 9/16; 001 5.25 3/2; 010 6.25 17/16;
# 101 6.25 1/2; 110 7.25 1/16; 011 7.25 1; 111 8.25 0.  The front: 000 100 101 110 111.
A = block(4.0, 5.0)
B = np.concatenate([block(4.0, 2.5), block(4.0, 2.5)])
C = block(4.0, 1.25)
ABC = {"A": A, "B": B, "C": C}
OPTS = ["e2m1", "e4m3"]


def choice(bits):
    return dict(zip("ABC", (OPTS[int(b)] for b in bits)))


def test_hand_made_knapsack():
    p = mxgold.plan_formats(ABC, OPTS, 6)
    assert [(p_.avg_bits, p_.error, p_.formats) for p_ in p.front] == [
        (Fraction(17, 4), Fraction(25, 16), ("e2m1",) * 3),
        (Fraction(21, 4), Fraction(9, 16), ("e4m3", "e2m1", "e2m1")),
        (Fraction(25, 4), Fraction(1, 2), ("e4m3", "e2m1", "e4m3")),
        (Fraction(29, 4), Fraction(1, 16), ("e4m3", "e4m3", "e2m1")),
        (Fraction(33, 4), Fraction(0), ("e4m3",) * 3)]
    assert p.choice == choice("100") and p.avg_bits == Fraction(21, 4)
    assert p.error == Fraction(9, 16) and p.target_bits == 6
    for t, want in ((4.25, "000"), (6.25, "101"), (7, "101"), (7.25, "110"), (8.25, "111"),
                    (100, "111"), (Decimal("5.25"), "100"), (np.float32(6.5), "101")):
        assert p.at(t).choice == choice(want), t
    assert p.at(Fraction(29, 4)).avg_bits_float == 7.25
    text, md = str(p), p.to_markdown()
    assert "average 5.25 (21/4) bits" in text and "Pareto front (5 points)" in text
    assert "| A | 32 | 32 | e4m3 | 8.25 |" in md
    assert json.loads(json.dumps(p.to_dict()))["error"] == {"exact": "9/16", "float": 0.5625}


def test_ties_go_to_fewer_bits_then_the_first_option_early():
    # A and C are the same tensor: 100 and 001 tie in bits and error; the lexicographically
    # smallest assignment keeps the earlier group in the first option: e2m1 here, and e4m3
    # when the options are given the other way round
    p = mxgold.plan_formats({"A": C, "B": B, "C": C}, OPTS, 5.25)
    assert p.choice == choice("001")
    assert mxgold.plan_formats({"A": C, "B": B, "C": C}, OPTS[::-1], 5.25).choice == \
        choice("100")
    # a tensor e2m1 already holds exactly gains nothing from e4m3: fewer bits win
    exact = block(4.0, 1.0, 0.5)
    assert mxgold.plan_formats({"x": exact}, OPTS, 9).choice == {"x": "e2m1"}


def test_groups_share_a_format():
    # A and C together: 00 4.25 25/16; 10 (AC e4m3) 6.25 1/2; 01 (B) 6.25 17/16 is dominated
    p = mxgold.plan_formats(ABC, OPTS, 6.25, groups=[["A", "C"], ["B"]])
    assert p.choice == choice("101") and p.groups == (("A", "C"), ("B",))
    assert [(q.avg_bits, q.error) for q in p.front] == [
        (Fraction(17, 4), Fraction(25, 16)), (Fraction(25, 4), Fraction(1, 2)),
        (Fraction(33, 4), 0)]
    assert p.at(6).choice == choice("000")


def test_a_long_front_prints_around_the_plan():
    rng = np.random.default_rng(5)
    ts = {f"t{i:02}": rng.standard_normal(32).astype(np.float32) for i in range(45)}
    p = mxgold.plan_formats(ts, OPTS, 6)
    assert len(p.front) == 46 and p.counts() == {"e2m1": 26, "e4m3": 19}
    text = str(p)
    assert "Pareto front (46 points; points 1 to 41 shown" in text
    assert text.count("\n") - str(p.per_tensor).count("\n") == 2 + 3 + 2 + 41
    assert p.to_markdown().count("\n| ") == 45 + 1 + 46 + 1


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(options=["e9m9"]), ValueError, "options='e9m9' is not a format name; accepted"),
    (dict(options=["e8m0"]), ValueError, "scale format"),
    (dict(options="e2m1"), TypeError, "options must be a list"),
    (dict(options=[]), ValueError, "options is empty"),
    (dict(options=["e4m3", "mxfp8_e4m3"]), ValueError, "options: e4m3 is given twice"),
    (dict(groups=[["A", "B"], ["X"]]), ValueError, r"groups\[1\]: 'X' is not a tensor name"),
    (dict(groups=[["A", "B"], ["B", "C"]]), ValueError, "tensor 'B' is in more than one"),
    (dict(groups=[["A", "B"]]), ValueError, "tensor 'C' is in no group"),
    (dict(groups=[["A", "B", "C"], []]), ValueError, r"groups\[1\] is empty"),
    (dict(groups=["ABC"]), TypeError, r"groups\[0\] must be a list"),
    (dict(target_bits=4.2), ValueError,
     r"target_bits=4.2 \(21/5\) is below the smallest achievable average, 4.25 \(17/4\)"),
    (dict(target_bits="6"), TypeError, "target_bits must be a number"),
    (dict(target_bits=True), TypeError, "target_bits must be a number"),
    (dict(target_bits=float("nan")), ValueError, "not finite"),
    (dict(target_bits=Decimal("Infinity")), ValueError, "not finite"),
    (dict(tensors={"w": np.zeros((4, 33), np.float32)}), ValueError,
     r"tensor 'w' of shape \(4, 33\): the last axis, 33, is not a multiple of block=32"),
    (dict(tensors={"w": np.zeros((4, 32), np.int32)}), TypeError, "tensor 'w': dtype int32"),
    (dict(tensors={"w": np.float32(1)}), ValueError, "tensor 'w' of shape \\(\\) has no blocks"),
    (dict(tensors={}), ValueError, "tensors is empty"),
    (dict(tensors=[A]), TypeError, "tensors must be a dict"),
    (dict(block=0), ValueError, "block=0 is out of range"),
    (dict(profile="nope"), ValueError, "profile='nope'"),
    (dict(scale_format="e4m3"), ValueError, "scale_format='e4m3' is a element"),
])
def test_plan_rejects(kwargs, exc, match):
    args = dict(tensors=ABC, options=OPTS, target_bits=6)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        mxgold.plan_formats(args.pop("tensors"), args.pop("options"), args.pop("target_bits"),
                            **args)


#---------------------------------------------------------- safetensors -#
def st_bytes(header, data=b"", pad=True):
    h = header if isinstance(header, bytes) else json.dumps(header).encode()
    if pad:
        h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + data


def write(tmp_path, content, name="t.safetensors"):
    p = tmp_path / name
    p.write_bytes(content)
    return p


F32x4 = {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}


@pytest.mark.parametrize("content, match", [
    (b"\x10\x00\x00", "truncated: 3 bytes; a safetensors file starts with an 8-byte header"),
    (struct.pack("<Q", 1000) + b"{}", "header length, 1000 bytes, runs past the end of the file"),
    (st_bytes({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 32]}}, bytes(16)),
     r"tensor 'a': data_offsets \[0, 32\] run past the data \(16 bytes\)"),
    (st_bytes({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
               "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}, bytes(12)),
     r"tensor 'b': bytes 4..12 overlap the tensor before it \(which ends at 8\)"),
    (st_bytes({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
               "b": {"dtype": "F32", "shape": [2], "data_offsets": [12, 20]}}, bytes(20)),
     "bytes 8..12 of the data belong to no tensor"),
    (st_bytes({"a": F32x4}, bytes(20)), "the tensors end at byte 16 of the data; the data has 20"),
    (st_bytes({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 16]}}, bytes(16)),
     r"shape \[3\] of F32 needs 12 bytes; data_offsets \[0, 16\] hold 16"),
    (st_bytes({"a": {"dtype": "F7", "shape": [4], "data_offsets": [0, 4]}}, bytes(4)),
     "unknown dtype 'F7'; accepted: BOOL"),
    (st_bytes(b'{"a": nope}'), "the header is not JSON"),
    (st_bytes(b'[1, 2]'), "not a JSON object"),
    (st_bytes(b'{"\xff": 1}'), "the header is not UTF-8"),
    (st_bytes(b'{"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}, "a": {}}',
              bytes(16)), "the header names 'a' twice"),
    (st_bytes({"a": {"dtype": "F32", "shape": [4]}}), "expected an object with dtype, shape"),
    (st_bytes({"a": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}}, bytes(16)),
     "shape must be a list of non-negative integers"),
    (st_bytes({"a": {"dtype": "F32", "shape": [4.0], "data_offsets": [0, 16]}}, bytes(16)),
     "shape must be a list"),
    (st_bytes({"a": {"dtype": "F32", "shape": [4], "data_offsets": [16, 0]}}, bytes(16)),
     r"data_offsets must be \[begin, end\]"),
    (st_bytes({"__metadata__": {"k": 1}}), "__metadata__ must be an object of strings"),
])
def test_safetensors_rejects(tmp_path, content, match):
    p = write(tmp_path, content)
    with pytest.raises(ValueError, match=match) as e:
        SafeTensors(p)
    assert str(e.value).startswith(str(p) + ": ")


def test_safetensors_reads_every_float_dtype(tmp_path, monkeypatch):
    import ml_dtypes
    rng = np.random.default_rng(3)
    parts = {"f32": rng.standard_normal((2, 32)).astype(np.float32),
             "f64": rng.standard_normal(32), "f16": rng.standard_normal(32).astype(np.float16),
             "bf16": rng.standard_normal(32).astype(ml_dtypes.bfloat16),
             "i64": np.arange(3, dtype=np.int64)}
    codes = {"f32": "F32", "f64": "F64", "f16": "F16", "bf16": "BF16", "i64": "I64"}
    header, data = {"__metadata__": {"format": "pt"}}, b""
    for k, v in parts.items():
        b = v.tobytes()  # this host is little-endian, as the format is
        header[k] = {"dtype": codes[k], "shape": list(v.shape),
                     "data_offsets": [len(data), len(data) + len(b)]}
        data += b
    p = write(tmp_path, st_bytes(header, data))
    got = read_safetensors(p)
    for k, v in parts.items():
        assert got[k].dtype == v.dtype and np.array_equal(got[k].view(np.uint8),
                                                          v.view(np.uint8)), k
    assert SafeTensors(p).metadata == {"format": "pt"}
    # without ml_dtypes, BF16 becomes the float32 of each value, exactly
    monkeypatch.setattr(_safetensors, "_bfloat16", lambda: None)
    b = SafeTensors(p).array("bf16")
    assert b.dtype == np.float32 and np.array_equal(b, parts["bf16"].astype(np.float32))


#------------------------------------------------------------------- CLI -#
def run_cli(*args, cwd=None):
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(mxgold.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, "-m", "mxgold", "plan", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=cwd)


def test_cli_help():
    r = run_cli("--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: python -m mxgold plan")
    assert "--target-bits" in r.stdout and "--group" in r.stdout


def test_cli_good_run(tmp_path):
    npz = tmp_path / "w.npz"
    np.savez(npz, A=A, C=C, ids=np.arange(32), odd=np.ones((3, 5), np.float32))
    header, data = {}, B.tobytes()
    header["B"] = {"dtype": "F32", "shape": [64], "data_offsets": [0, len(data)]}
    st = write(tmp_path, st_bytes(header, data), "b.safetensors")
    js, md = tmp_path / "plan.json", tmp_path / "plan.md"
    r = run_cli(npz, st, "--target-bits", "6", "--json", js, "--markdown", md)
    assert r.returncode == 0, r.stderr
    assert "skipped 'ids': dtype int64 is not float32, float64, float16 or bfloat16" in r.stderr
    assert "skipped 'odd': shape (3, 5): the last axis is not a multiple of --block 32" in r.stderr
    assert "average 5.25 (21/4) bits" in r.stdout
    d = json.loads(js.read_text())
    assert d["choice"] == {"A": "e4m3", "C": "e2m1", "B": "e2m1"}
    assert d["error"]["exact"] == "9/16" and len(d["front"]) == 5
    assert md.read_text().startswith("- 3 tensors (128 elements)")
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".mxgold-plan-")]
    r = run_cli(npz, st, "--target-bits", "6.25", "--group", "A|C", "--quiet")
    assert r.returncode == 0 and "(e2m1: 1, e4m3: 2)" in r.stdout
    assert run_cli(npz, "--target-bits", "6", "--strict").returncode == 2


@pytest.mark.parametrize("args, match", [
    (["--target-bits", "6"], "the following arguments are required: FILE"),
    (["{npz}"], "the following arguments are required: --target-bits"),
    (["{npz}", "--target-bits", "six"], "'six' is not a number"),
    (["{npz}", "--target-bits", "4"], "below the smallest achievable average, 4.25"),
    (["{npz}", "--target-bits", "6", "--options", "e2m1,fp4"], "options='fp4' is not a format"),
    (["{npz}", "--target-bits", "6", "--group", "Z"], "--group 'Z' matches no tensor"),
    (["{npz}", "--target-bits", "6", "--group", "A", "--group", "A|C"], "matches --group 'A'"),
    (["{npz}", "--target-bits", "6", "--group", "("], "not a regular expression"),
    (["{npz}", "{npz}", "--target-bits", "6"], "tensor 'A' is also in"),
    (["{bad}", "--target-bits", "6"], "mxgold plan: {bad}: the header is not JSON"),
    (["{tmp}/missing.safetensors", "--target-bits", "6"], "cannot read: No such file"),
    (["{tmp}/w.txt", "--target-bits", "6"], "unknown file type; accepted: .npz, .safetensors"),
    (["{tmp}/fake.npz", "--target-bits", "6"], "fake.npz: not a readable .npz file"),
    (["{npz}", "--target-bits", "6", "--json", "{tmp}/no/dir/p.json"], "cannot write"),
])
def test_cli_rejects(tmp_path, args, match):
    npz = tmp_path / "w.npz"
    np.savez(npz, A=A, C=C)
    bad = write(tmp_path, st_bytes(b"{nope"), "bad.safetensors")
    (tmp_path / "w.txt").write_text("x")
    (tmp_path / "fake.npz").write_text("not a zip")
    args = [a.format(npz=npz, bad=bad, tmp=tmp_path) for a in args]
    r = run_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert match.format(bad=bad) in r.stderr


def test_cli_progress(tmp_path):
    npz = tmp_path / "w.npz"
    np.savez(npz, **{f"t{i}": C for i in range(5)})
    r = run_cli(npz, "--target-bits", "5")
    assert r.returncode == 0 and "mxgold plan: [5/5] t4 (32,)" in r.stderr
    assert run_cli(npz, "--target-bits", "5", "--quiet").stderr == ""


#----------------------------------------------------------- real weights -#
# wordllama ships its 256-dimensional token embedding (32000 x 256, F16) in its wheel; the
# numbers below are pinned to this version and this file (docs/planning.md, worked example).
WORDLLAMA = "0.4.0.post1"
WORDLLAMA_SHA256 = "64b47a2dc493cb8e85944076601189739852d7b64e0e1eedcb1937a251cd9fd5"


def wordllama_weights():
    try:
        files = importlib.metadata.files("wordllama") or []
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("wordllama is not installed (pip install --no-deps "
                    f"wordllama=={WORDLLAMA}): no real weights to plan")
    paths = [f for f in files if str(f).endswith(".safetensors")]
    if not paths:
        pytest.skip("the installed wordllama ships no .safetensors file")
    return str(paths[0].locate()), importlib.metadata.version("wordllama")


def test_real_weights_wordllama():
    path, version = wordllama_weights()
    w = SafeTensors(path).array("embedding.weight")
    assert w.dtype == np.float16 and w.shape == (32000, 256)
    # one tensor gives the planner nothing to mix: 16 slices of 2000 rows (tokens) each, the
    # whole file (8,192,000 elements), each slice its own tensor
    slices = {f"embedding.weight[{i}:{i + 2000}]": w[i:i + 2000] for i in range(0, 32000, 2000)}
    base = mxgold.plan_formats(slices, OPTS, 4.5)
    plans = {t: base.at(t) for t in (4.5, 6, 7.8)}
    for t, p in plans.items():
        print(f"\n-- target {t} bits\n{p}")
        assert p.avg_bits <= Fraction(str(t))
    assert plans[7.8].error <= plans[6].error <= plans[4.5].error
    front = base.front
    for a, b in zip(front, front[1:]):
        assert a.avg_bits < b.avg_bits and a.error > b.error       # so none dominates another
    assert (front[0].formats, front[-1].formats) == (("e2m1",) * 16, ("e4m3",) * 16)
    assert sum(base.nonfinite.values()) == 0
    if version != WORDLLAMA:
        pytest.skip(f"wordllama {version}: the numbers are pinned for {WORDLLAMA}")
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == WORDLLAMA_SHA256
    assert [p.counts() for p in plans.values()] == [
        {"e2m1": 15, "e4m3": 1}, {"e2m1": 9, "e4m3": 7}, {"e2m1": 2, "e4m3": 14}]
    assert [float(p.avg_bits) for p in plans.values()] == [4.5, 6.0, 7.75]
    assert [round(p.sqnr_db, 4) for p in plans.values()] == [19.0555, 21.3781, 27.5708]
    assert len(front) == 17
