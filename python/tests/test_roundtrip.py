"""pack/unpack, to_mxv through mxgold verify, compare_formats against numpy, from_codes."""
import subprocess

import numpy as np
import pytest

import mxgold
from conftest import count, gen, read_mxv
from test_quantize import structured

PACKABLE = {"e2m1": ["unpacked", "fp4-lo-first", "fp4-j-j16"],
            "e2m3": ["unpacked", "fp6-3byte"], "e3m2": ["unpacked", "fp6-3byte"],
            "e4m3": ["unpacked"], "e5m2": ["unpacked"], "int8": ["unpacked"]}


@pytest.mark.parametrize("elem", list(PACKABLE))
def test_pack_unpack_round_trip(elem):
    x = structured(500, 2).reshape(50, 320)
    for axis in (0, 1):
        q = mxgold.quantize(x, elem, axis=axis)
        for p in PACKABLE[elem]:
            packed = q.pack(p)
            u = mxgold.MXArray.unpack(packed)
            assert u == q
            assert np.array_equal(u.dequantize(), q.dequantize(), equal_nan=True)
            count("blocks packed and unpacked back", q.scales.size)


def test_packed_bytes_equal_the_cli(cli, tmp_path):
    for elem, p in (("e2m1", "fp4-lo-first"), ("e2m1", "fp4-j-j16"), ("e2m3", "fp6-3byte"),
                    ("e3m2", "fp6-3byte")):
        h, f = read_mxv(gen(cli, tmp_path / "p.mxv", "--op", "quantize", "--format", elem,
                            "--packing", p, "-n", 500))
        x = f["in"].astype(np.uint32).view(np.float32).reshape(-1, 32)
        got = mxgold.quantize(x, elem).pack(p).data
        # the "codes" field of a packed file holds the packed bytes (docs/vectors.md)
        assert np.array_equal(got.astype(np.uint64), f["codes"]), f"{elem} {p}"
        count("packed blocks equal to the CLI's", x.shape[0])


def test_pack_rejects_what_does_not_fit():
    q = mxgold.quantize(np.ones(32, np.float32), "e4m3")
    with pytest.raises(ValueError, match="does not hold e4m3"):
        q.pack("fp4-lo-first")
    with pytest.raises(ValueError, match="packing="):
        q.pack("fp4")
    q = mxgold.quantize(np.ones(16, np.float32), "e2m1", block=16)
    with pytest.raises(ValueError, match="multiple of its group"):
        q.pack("fp4-j-j16")
    with pytest.raises(TypeError):
        mxgold.MXArray.unpack(q)


def test_to_mxv_passes_mxgold_verify(cli, tmp_path):
    import ml_dtypes
    x = structured(300, 4)
    cases = [dict(fmt="e4m3"), dict(fmt="e2m1", rounding="rna", scale_rule="ceil"),
             dict(fmt="int8", profile="microxcaling"), dict(fmt="e3m2", block=16),
             dict(fmt="e5m2", rounding="sr",
                  random_bits=np.arange(x.size, dtype=np.uint32).reshape(x.shape) * 2654435761)]
    for i, kw in enumerate(cases):
        for xin in (x, x.astype(np.float64), x.astype(ml_dtypes.bfloat16)):
            q = mxgold.quantize(xin, **kw)
            path = tmp_path / f"c{i}.mxv"
            q.to_mxv(path)
            r = subprocess.run([cli, "verify", str(path)], capture_output=True, text=True)
            assert r.returncode == 0, r.stdout + r.stderr
            assert f"{q.scales.size} passed, 0 failed" in r.stdout + r.stderr
            count("to_mxv blocks that mxgold verify passed", q.scales.size)
    # the check can fail: one wrong code is reported
    text = path.read_text().splitlines()
    # a block with no NaN scale (verify skips codes under a NaN scale)
    body = [j for j, line in enumerate(text) if not line.startswith("#")
            and not int(line.split()[-1], 16) & mxgold.FLAG_INVALID][5]
    words = text[body].split()
    words[-2] = "%02X" % (int(words[-2], 16) ^ 1)
    text[body] = " ".join(words)
    path.write_text("\n".join(text) + "\n")
    r = subprocess.run([cli, "verify", str(path)], capture_output=True, text=True)
    assert r.returncode == 1


def test_to_mxv_leaves_nothing_half_written(tmp_path):
    q = mxgold.quantize(np.ones(32, np.float32), "e4m3")
    with pytest.raises(OSError):
        q.to_mxv(tmp_path / "no" / "such" / "dir.mxv")
    (tmp_path / "d").mkdir()
    with pytest.raises(OSError):
        q.to_mxv(tmp_path / "d")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]
    with pytest.raises(ValueError, match="built-in"):
        mxgold.quantize(np.ones(32, np.float32), (3, 3)).to_mxv(tmp_path / "x.mxv")


def test_statistics_equal_numpy():
    rng = np.random.default_rng(8)
    x = (rng.standard_normal((64, 96)) * np.exp2(rng.integers(-8, 8, (64, 1)))).astype(np.float32)
    x[3, 5] = np.nan
    x[7, 9] = 1e-30
    x[9, :32] = 0
    x[11, 0] = 3e38
    table = mxgold.compare_formats(x, ["e4m3", "e2m1", "int8", "e5m2"])
    for row in table:
        q = mxgold.quantize(x, row["format"])
        d = q.dequantize(np.float64)
        x64 = x.astype(np.float64)
        ok = np.isfinite(x64) & np.isfinite(d)
        err = d[ok] - x64[ok]
        assert row["mse"] == np.mean(err ** 2)
        assert row["max_abs_error"] == np.max(np.abs(err))
        assert row["sqnr_db"] == 10 * np.log10(np.sum(x64[ok] ** 2) / np.sum(err ** 2))
        assert row["bits_per_element"] == q.format.bits + 8 / 32
        ef = q.element_flags
        assert row["saturated"] == np.count_nonzero(ef & mxgold.FLAG_OVERFLOW) / x.size
        s = q.statistics()
        assert s["scale_histogram"].sum() == q.scales.size
        assert s["scale_histogram"][q.scales[0, 0]] >= 1
        assert s["nan"] == np.count_nonzero(np.isnan(d)) / x.size
        assert s["underflowed"] == np.count_nonzero(np.isfinite(x64) & (x64 != 0) & (d == 0)) / x.size
        assert s["compression_vs_fp32"] == 32 / s["bits_per_element"]
    assert "| format |" in table.to_markdown() and "e2m1" in str(table)
    # the e2m1 row saturates somewhere (its max is 6 x scale, amax maps to 4..8)
    assert [r for r in table if r["format"] == "e2m1"][0]["saturated"] > 0


def test_from_codes_and_dot():
    q = mxgold.quantize(structured(4, 1).reshape(-1), "e4m3")
    m = mxgold.MXArray.from_codes(q.scales, q.codes, "e4m3")
    assert m == q
    assert np.array_equal(m.dequantize(), q.dequantize(), equal_nan=True)
    with pytest.raises(ValueError, match="flags are unknown"):
        m.flags
    with pytest.raises(ValueError, match="shape"):
        mxgold.MXArray.from_codes(q.scales[:2], q.codes, "e4m3")
    with pytest.raises(ValueError, match="does not fit"):
        mxgold.MXArray.from_codes(q.scales, q.codes.astype(np.int64) + 256, "e4m3")
