"""The conformance runner itself (python -m mxgold.conform), without any third-party library: its
inputs are what each probe class says, its comparison finds exactly the differences planted by a
fake adapter, its reports are well-formed, and its command line rejects bad options."""
import html.parser
import importlib.util
import json
import subprocess
import sys
import types
import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest

import mxgold
from mxgold import conform
from mxgold.conform import Mode, _inputs, _report, _runner

BF16 = pytest.importorskip("ml_dtypes").bfloat16


def _exact(v) -> Fraction:
    return Fraction(float(v))


def test_inputs_are_a_function_of_the_seed():
    a = _inputs.block_inputs("e2m1", "fp32", 7, 50, 20)
    b = _inputs.block_inputs("e2m1", "fp32", 7, 50, 20)
    c = _inputs.block_inputs("e2m1", "fp32", 8, 50, 20)
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].tobytes() == b[k].tobytes(), k
    assert a["random"].tobytes() != c["random"].tobytes()


@pytest.mark.parametrize("inp", ["fp32", "fp64", "fp16", "bf16"])
@pytest.mark.parametrize("fmt", ["e2m1", "e4m3", "int8"])
def test_ties_are_exact_midpoints(fmt, inp):
    f = mxgold.Format.get(fmt)
    grid = sorted({abs(_exact(v)) for v in mxgold.decode(np.arange(f.max_mag + 1, dtype=np.uint8),
                                                         fmt, np.float64)})
    mids = {(a + b) / 2 for a, b in zip(grid, grid[1:])}
    x = _inputs.block_inputs(fmt, inp, 3, 1, 40)["ties"]
    for row in x:
        vals = [abs(_exact(v)) for v in row.astype(np.float64)]
        amax = max(vals)
        s = amax / _exact(f.max)  # the block's FLOOR scale, a power of two
        assert s.numerator == 1 or s.denominator == 1
        assert sum(v / s in mids for v in vals) == len(vals) - 1


def test_special_classes_hold_what_they_say():
    x = _inputs.block_inputs("e4m3", "fp32", 5, 1, 64)
    assert (np.isnan(x["nan"]).sum(axis=1) == 1).all()
    assert not np.isinf(x["nan"]).any()
    assert (np.isinf(x["inf"]).sum(axis=1) == 1).all()
    assert ((np.isnan(x["nan-inf"]).sum(axis=1) == 1) & (np.isinf(x["nan-inf"]).sum(axis=1) == 1)).all()
    assert np.isnan(x["all-nan"]).all()
    assert (x["zero"] == 0).all() and np.signbit(x["zero"]).any()
    sub = np.abs(x["subnormal"][:, 1:])
    assert ((sub > 0) & (sub < np.finfo(np.float32).tiny)).all()
    assert np.signbit(x["neg-zero"][x["neg-zero"] == 0]).any()


def test_cast_inputs_exhaustive_for_16_bit_types():
    for inp, dt in (("fp16", np.float16), ("bf16", BF16)):
        x = _inputs.cast_inputs("e2m1", inp, 1, 10)["exhaustive"]
        assert x.dtype == np.dtype(dt)
        assert np.array_equal(np.sort(x.view(np.uint16)), np.arange(65536, dtype=np.uint16))


def test_suite_class_reads_the_committed_vectors(tmp_path):
    x = np.array([[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 0.0, 6.0]], np.float32)
    q = mxgold.quantize(x, "e2m1", block=4)
    q.to_mxv(tmp_path / "q.mxv")
    got = _inputs.suite(str(tmp_path), "quantize", "e2m1", "fp32", 4)
    assert np.array_equal(np.sort(got.view(np.uint32), axis=0), np.sort(x.view(np.uint32), axis=0))
    assert _inputs.suite(str(tmp_path), "quantize", "e4m3", "fp32", 4) is None


def _fake(kind="block", output="codes", plant=None):
    """An adapter whose 'library' is mxgold at a profile, with one planted difference."""
    ad = types.SimpleNamespace(NAME="fake", PACKAGE="numpy", TESTED="any", LIGHT=True,
                               MAPPING="mxgold itself", SABOTAGE={"zero_sign": "positive"})

    def run(mode, fmt, x, rbits):
        if kind == "cast":
            c = mxgold.cast(x, fmt, profile=mode.profile)
            if plant == "code" and c.size > 5:
                c = c.copy()
                c[5] ^= 1
            return c
        q = mxgold.quantize(x, fmt, block=x.shape[1], profile=mode.profile, random_bits=rbits,
                            rounding=mode.rounding)
        if output == "values":
            v = q.dequantize(x.dtype)
            if plant == "value" and v.shape[0] > 3:
                v[3, 0] = np.nextafter(v[3, 0], np.float32(np.inf))
            return v
        s, c = q.scales.copy(), q.codes.copy()
        if plant == "scale" and s.shape[0] > 2:
            s[2] ^= 1
        return s, c
    ad.run = run
    return ad


def _mode(kind="block", output="codes", profile="pychop", fmts=("e2m1",), inputs=("fp32",)):
    return Mode(kind=kind, name="m", path="fake", profile=profile, formats=fmts, inputs=inputs,
                output=output)


def _total(r):
    t = _runner.Cell()
    for c in r["classes"].values():
        t.add(c)
    return t


def test_runner_passes_an_exact_reproduction():
    for kind, output in (("block", "codes"), ("block", "values"), ("cast", "codes")):
        r = _runner.run_mode(_fake(kind, output), _mode(kind, output), seed=1, n_random=20,
                             n_probe=10)
        t = _total(r)
        assert t.n > 0 and t.mismatch == 0, (kind, output, t.first)


@pytest.mark.parametrize("kind,output,plant", [("block", "codes", "scale"),
                                                ("block", "values", "value"),
                                                ("cast", "codes", "code")])
def test_runner_finds_each_planted_difference(kind, output, plant):
    r = _runner.run_mode(_fake(kind, output, plant), _mode(kind, output), seed=1, n_random=20,
                         n_probe=10)
    classes = len(r["classes"])
    t = _total(r)
    # one planted difference per class large enough to hold it
    assert 0 < t.mismatch <= classes
    assert t.first is not None and t.first["format"] == "e2m1"


def test_runner_sees_a_flipped_policy_field():
    r = _runner.run_mode(_fake(), _mode(), seed=1, n_random=50, n_probe=50,
                         policy={"zero_sign": "keep"})
    assert r["classes"]["neg-zero"].mismatch > 0


def test_runner_compares_nan_scale_blocks_by_scale_only():
    ad = _fake()
    inner = ad.run

    def run(mode, fmt, x, rbits):
        s, c = inner(mode, fmt, x, rbits)
        c[s.reshape(-1) == 0xFF] = 7  # element codes under a NaN scale are undefined (OCP section 4)
        return s, c
    ad.run = run
    r = _runner.run_mode(ad, _mode(profile="ocp"), seed=1, n_random=10, n_probe=10)
    assert r["classes"]["nan"].n > 0 and _total(r).mismatch == 0


class _Strict(html.parser.HTMLParser):
    VOID = {"meta", "br", "img", "line", "rect", "hr"}

    def __init__(self):
        super().__init__()
        self.stack = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def test_reports_are_well_formed():
    recs = []
    for name, plant in (("good", None), ("bad", "scale")):
        ad = _fake(plant=plant)
        m = _mode()
        r = _runner.run_mode(ad, m, seed=1, n_random=10, n_probe=5)
        t = _total(r)
        recs.append({"adapter": name, "name": name, "package": "numpy", "version": "1",
                     "tested": "1", "light": True, "mapping": "", "status": "run",
                     "modes": [{"name": "m", "path": "a|b", "profile": "pychop", "kind": "block",
                                "formats": ["e2m1"], "inputs": ["fp32"], "output": "codes",
                                "rounding": None, "policy": {}, "note": "", "status": "run",
                                "classes": {c: v.to_json() for c, v in r["classes"].items()},
                                "total": t.to_json()}]})
    res = _report.result(recs, seed=1, n_random=10, n_probe=5, sabotage={}, seconds=0.1)
    assert res["mismatching_modes"] == ["bad:m"]
    json.loads(json.dumps(res))
    md = _report.markdown(res)
    assert "| good · m |" in md and "**" in md and "a\\|b" in md
    page = _report.html(res)
    p = _Strict()
    p.feed(page)
    p.close()
    assert p.stack == [], p.stack
    svgs = page.split("<svg")[1:]
    assert len(svgs) == 2
    for s in svgs:
        ET.fromstring("<svg" + s.split("</svg>")[0] + "</svg>")
    assert "key=value: conform_modes_mismatching=1" in _report.summary(res)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "mxgold.conform", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("args,msg", [
    (["--only", "nope"], "unknown adapter 'nope'"),
    (["--sabotage", "colour=red"], "expected FIELD=VALUE"),
    (["--sabotage", "zero-sign=sideways"], "--sabotage"),
    (["--random", "0"], "at least 1"),
    (["--expect-mismatch"], "goes with --sabotage"),
    (["--vectors", "/nonexistent"], "not a directory"),
    (["--merge", "/nonexistent.json"], "--merge /nonexistent.json"),
])
def test_cli_rejects_bad_options(args, msg):
    r = _cli(*args)
    assert r.returncode == 2 and msg in r.stderr, r.stderr


def test_cli_help_and_list():
    r = _cli("--help")
    assert r.returncode == 0 and "--sabotage" in r.stdout
    r = _cli("--list")
    assert r.returncode == 0
    for a in conform.ADAPTERS:
        assert a in r.stdout


def test_cli_skips_an_absent_library():
    absent = [a for a in conform.ADAPTERS
              if importlib.util.find_spec(conform.adapter(a).PACKAGE.replace("-", "_")) is None
              and _runner.package_version(conform.adapter(a).PACKAGE) is None]
    if not absent:
        pytest.skip("every adapter's library is installed here")
    r = _cli("--only", absent[0], "--random", "1", "--probe", "1")
    assert r.returncode == 77, r.stdout + r.stderr


def test_merge_joins_runs_and_rejects_mixed_inputs(tmp_path):
    def run(name, seed):
        r = _runner.run_mode(_fake(), _mode(), seed=seed, n_random=5, n_probe=5)
        t = _total(r)
        rec = {"adapter": name, "name": name, "package": "numpy", "version": "1", "tested": "1",
               "light": True, "mapping": "", "status": "run",
               "modes": [{"name": "m", "path": "p", "profile": "pychop", "kind": "block",
                          "formats": ["e2m1"], "inputs": ["fp32"], "output": "codes",
                          "rounding": None, "policy": {}, "note": "", "status": "run",
                          "classes": {c: v.to_json() for c, v in r["classes"].items()},
                          "total": t.to_json()}]}
        res = _report.result([rec], seed=seed, n_random=5, n_probe=5, sabotage={}, seconds=1)
        path = tmp_path / f"{name}{seed}.json"
        path.write_text(json.dumps(res))
        return str(path)
    a, b, c = run("gguf", 1), run("pychop", 1), run("gfloat", 2)
    out = tmp_path / "m.md"
    r = _cli("--merge", a, b, "--markdown", str(out))
    assert r.returncode == 0, r.stderr
    md = out.read_text()
    assert md.index("| pychop · m |") < md.index("| gguf · m |")  # the ADAPTERS order
    r = _cli("--merge", a, c)
    assert r.returncode == 2 and "differ in seed" in r.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    r = _cli("--merge", str(bad))
    assert r.returncode == 2 and "not JSON" in r.stderr
    # the committed RTL record joins the page verbatim; anything but rows and notes is refused
    rtl = tmp_path / "RESULTS.md"
    rtl.write_text("<!-- a\n comment -->\n| design | result |\n|---|---|\n| x (y) | 0 failed |\n"
                   "- a note\n")
    r = _cli("--merge", a, "--rtl", str(rtl), "--markdown", str(out))
    assert r.returncode == 0, r.stderr
    md = out.read_text()
    assert "## Third-party RTL" in md and "| x (y) | 0 failed |\n\n- a note\n" in md
    assert "comment" not in md
    for text, msg in (("| a | b |\nstray text\n", "RESULTS.md:2: expected a table row"),
                      ("- only a note\n", "no table"), (b"\xff\xfe", "not UTF-8")):
        (rtl.write_bytes if isinstance(text, bytes) else rtl.write_text)(text)
        r = _cli("--merge", a, "--rtl", str(rtl))
        assert r.returncode == 2 and msg in r.stderr, r.stderr
    r = _cli("--merge", a, "--rtl", str(tmp_path / "absent.md"))
    assert r.returncode == 2 and "absent.md" in r.stderr


def test_library_models_of_inc_and_quark_onnx():
    """The exception models reproduce outputs the real libraries gave (neural_compressor 3.10
    quantize_mx_op; Quark 0.13 MXQuantizeDequantize in onnxruntime 1.32) and name the condition."""
    from mxgold.conform import inc, quark

    x = np.zeros(32, BF16)
    x[0], x[1] = 4096, 63.75  # E2M3, scale 2^10: 63.75 / 1024 * 8 = 0.498046875 in BF16
    out, why = inc._model(x, "e2m3", "nearest", "bf16")
    assert out[:2].astype(np.float32).tolist() == [4096.0, 128.0]  # INC: one step up
    assert why and why[0].startswith("half-add-carry")
    x = np.zeros(32, np.uint32)
    x[:4] = [0x7FC00000, 0x7F800000, 0x40400000, 0x80000000]  # E5M2 [NaN, +Inf, 3, -0]
    out, why = quark._model_onnx(x.view(np.float32), "e5m2", 0)
    assert out.view(np.uint32)[:4].tolist() == [0x7FC00000, 0x7F800000, 0x40400000, 0]
    assert not why  # E5M2 holds both: quark-onnx writes them (inf-block pass)
    out, why = quark._model_onnx(x.view(np.float32), "e2m1", 0)
    assert [w.split(":")[0] for w in why] == ["nan-passthrough", "inf-passthrough"]
