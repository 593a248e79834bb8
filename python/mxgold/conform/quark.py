"""AMD Quark (amd-quark): the MX fake-quantize op and the OCP_MX*Spec quantizers, run on CPU.

Code paths (amd-quark 0.13; ``quark/torch/kernel/hw_emulation/hw_emulation_interface.py``,
``quark/torch/quantization/{observer/observer.py,tensor_quantize.py,utils.py}``):

``mx-fake``   ``torch.ops.quark.non_scaled_fake_quantize(x, "mx", elem, -1, 32, mode)``, the op
              ``NonScaledFakeQuantize`` runs for ``Dtype.mx`` (``OCP_MXINT8Spec``); it calls
              ``fake_quantize_mx``.  Dequantized values only.
``spec-real`` the ``OCP_MXFP4Spec`` / ``OCP_MXFP6E2M3Spec`` / ``OCP_MXFP6E3M2Spec`` quantizer
              (``FakeQuantizeBase.get_fake_quantize`` -> ``DynamicScaledFakeQuantize``): its
              ``observe`` (``PerBlockMXObserver.get_scale``, scale_format e8m0) gives the FP32
              scale, and ``quark.torch.kernel.scaled_real_quantize(..., "per_group")``
              (``real_quantize_fp4_fp6_per_group``) the unscaled element values: scales + codes.
``spec-fake`` the ``OCP_MXFP8E4M3Spec`` / ``OCP_MXFP8E5M2Spec`` quantizers' ``forward``
              (``scaled_fake_quantize`` -> ``fake_quantize_fp8_per_group_with_scale``); FP8 has
              no per-group real quantize.  Dequantized values.
``mx-real``   ``quark.torch.kernel.non_scaled_real_quantize(x, "mx", elem, -1, 32)``
              (``real_quantize_mxfp``: FLOOR only, FP4/FP6): the FP32 scale, then the unscaled
              element values of each block.
``bfp16``     ``quark.torch.kernel.hw_emulation.hw_emulation_interface.fake_quantize_bfp16(x,
              -1, 8)`` (``Dtype.bfp16``; blocks of 8, which the function forces): NaN and Inf
              read as 0, steps 2^(floor(log2(amax)) - 6) through ``fake_quantize_int``
              (per-group, torch's ``round``: RNE), one exponent bump when a first-pass integer
              leaves [-128, 127].  FP32 inputs (the function computes in the input dtype).
              Dequantized values; the mode's blocks are 8 elements (``Mode.block``).

``onnx``      the ONNX custom op ``com.amd.quark::MXQuantizeDequantize`` (``quark/onnx/operators/
              custom_ops``: ``custom_op_mx.cc``, ``src/mx/cpu/mx_kernel.cc`` ``MXCPUKernel``,
              ``include/mx/funcs.cuh`` ``fake_quantize_element``) in onnxruntime's
              CPUExecutionProvider: a one-node model, ``element_dtype``, ``axis=1``,
              ``block_size=32``, ``rounding_mode`` (default 0).  The op library is built from the
              sources Quark ships, with the compiler named by ``$CXX`` (default g++; C++17), into
              a cache directory (``_onnx_lib``) on first use; without a compiler the mode is not
              run.  FP32 and FP16 inputs (the op takes no other).  Dequantized values; an INT8 -0
              (``std::round`` keeps the sign) is read as INT8's one zero, +0.

Quark computes its scales with FP32 (and, for FLOOR/CEIL on BF16/FP16 inputs, half-precision)
tensor arithmetic.  Where mxgold has no policy for that yet, ``exception`` marks the block, but
only after re-running the library on it and finding its output equal, bit for bit, to
``_model_block``: a Python model of the proposed policies (the scale as Quark computes it, the
elements by ``mxgold.cast``).  ``bfp16`` likewise, against ``_model_bfp16`` (Quark's two passes
in FP32), for the bumps that no scale-bump value expresses: Quark bumps by doubling amax and
re-taking floor(log2f), and its bump test reads an FP32 overflow of the first-pass product as an
out-of-range integer.
"""
from __future__ import annotations

import os

import numpy as np

from . import Mode, NotRunnable

NAME = "quark"
PACKAGE = "amd-quark"
TESTED = "0.13"
LIGHT = False
MAPPING = ("values modes: the op's dequantized output in the input dtype, compared with mxgold's "
           "dequantize; codes modes: an FP32 scale 2^e becomes E8M0 code e+127 (negative when the "
           "scale is an FP32 subnormal below 2^-127, which E8M0 cannot hold; NaN and +Inf, whose "
           "blocks dequantize to NaN, give 0xFF), and "
           "an unscaled element value becomes the code of that value in the element format (exact "
           "lookup; -1 when it is no value of the format: an Inf); the ONNX op's INT8 -0 (std::round "
           "keeps the sign) is read as INT8's one zero, +0")
SABOTAGE = {"scale_rule": "rceil"}

# mxgold format name -> Quark Dtype value, and the OCP_MX spec class of the per-group paths
_ELEM = {"e4m3": "fp8_e4m3", "e5m2": "fp8_e5m2", "e2m3": "fp6_e2m3", "e3m2": "fp6_e3m2",
         "e2m1": "fp4", "int8": "int8"}
_SPEC = {"e4m3": "OCP_MXFP8E4M3Spec", "e5m2": "OCP_MXFP8E5M2Spec", "e2m3": "OCP_MXFP6E2M3Spec",
         "e3m2": "OCP_MXFP6E3M2Spec", "e2m1": "OCP_MXFP4Spec"}
_FP8 = ("e4m3", "e5m2")
_MXS_M = {"mx9": 7, "mx6": 4}  # magnitude bits; Quark's quant_bit is m + 1
_FP46 = ("e2m3", "e3m2", "e2m1")
_IN = ("fp32", "fp16", "bf16")

# the profile each scale mode claims (profiles.def), and what each element family sets on top:
# FP8 goes through torch's float8 cast, which keeps -0; INT8 through torch's per-channel fake
# quantize, which clamps the step S/64 at FLT_MIN, so S >= 2^-120
_PROFILE = {"even": "quark-even", "floor": "quark-floor", "ceil": "quark-ceil"}
_FAMILY_POLICY = {"fp8": {"zero_sign": "keep"}, "fp46": {}, "int8": {"scale_min": 0x07}}


def _prof(sc: str, fam: str) -> dict:
    """profile= and policy= of a mode"""
    return {"profile": _PROFILE[sc], "policy": dict(_FAMILY_POLICY[fam])}


def _inputs_for(formats, sc: str) -> tuple:
    """The input dtypes: FP32, FP16, BF16; FP64 for EVEN only (Quark's FP64 path is then its FP32
    path on fl32(x), the profile's wide-input=fp32)."""
    return _IN + (("fp64",) if sc == "even" else ())


def modes() -> list[Mode]:
    out = []
    fam_formats = {"fp8": _FP8, "fp46": _FP46, "int8": ("int8",)}
    for sc in ("even", "floor", "ceil"):
        for fam, fmts in fam_formats.items():
            out.append(Mode(
                kind="block", name=f"mx-fake/{sc}/{fam}", **_prof(sc, fam), formats=fmts,
                inputs=_inputs_for(fmts, sc), output="values",
                options={"path": "mx-fake", "scale": sc},
                path=("torch.ops.quark.non_scaled_fake_quantize(x, 'mx', elem, -1, 32, "
                      f"'{sc}') -> fake_quantize_mx"),
                note=_note(sc, fam)))
    for sc in ("even", "floor", "ceil"):
        out.append(Mode(
            kind="block", name=f"spec-real/{sc}", **_prof(sc, "fp46"), formats=_FP46,
            inputs=_inputs_for(_FP46, sc), options={"path": "spec-real", "scale": sc},
            path=(f"OCP_MXFP4Spec/OCP_MXFP6*Spec(ch_axis=-1, scale_calculation_mode='{sc}'): "
                  "DynamicScaledFakeQuantize.observe (PerBlockMXObserver.get_scale) + "
                  "quark.torch.kernel.scaled_real_quantize(..., 'per_group')"),
            note=_note(sc, "fp46")))
    for sc in ("even", "floor", "ceil"):
        out.append(Mode(
            kind="block", name=f"spec-fake/{sc}", **_prof(sc, "fp8"), formats=_FP8,
            inputs=_inputs_for(_FP8, sc), output="values",
            options={"path": "spec-fake", "scale": sc},
            path=(f"OCP_MXFP8*Spec(ch_axis=-1, scale_calculation_mode='{sc}'): "
                  "DynamicScaledFakeQuantize.forward -> scaled_fake_quantize "
                  "(fake_quantize_fp8_per_group_with_scale)"),
            note=_note(sc, "fp8")))
    out.append(Mode(
        kind="block", name="mx-real/floor", **_prof("floor", "fp46"), formats=_FP46,
        inputs=_inputs_for(_FP46, "floor"), options={"path": "mx-real", "scale": "floor"},
        path=("quark.torch.kernel.non_scaled_real_quantize(x, 'mx', elem, -1, 32) -> "
              "real_quantize_mxfp"),
        note=_note("floor", "fp46")))
    out.append(Mode(
        kind="block", name="bfp16", profile="quark-bfp16", formats=("int8",), inputs=("fp32",),
        block=8, output="values", options={"path": "bfp16", "scale": "floor"},
        path=("quark.torch.kernel.hw_emulation.hw_emulation_interface.fake_quantize_bfp16(x, "
              "-1, 8) -> fake_quantize_int (per_group)"),
        note="blocks of 8 (BFP16)"))


    # the shared-microexponent formats MX9 and MX6 (the torch path has no MX4)
    for fmt in ("mx9", "mx6"):
        out.append(Mode(
            kind="mxs", name=f"{fmt}-real", profile="quark-mxs", formats=(fmt,),
            inputs=("fp32",), block=16, options={"path": "mxs-real", "scale": "floor"},
            path=("quark.torch.kernel.hw_emulation.hw_emulation_interface.real_quantize_mx6_mx9"
                  f"(x, -1, block_size=16, quant_bit={_MXS_M[fmt] + 1}, sub_block_size=2)"),
            note="MX9/MX6: scale, shift bits and codes; NaN and Inf have no code in Quark"))

    # the ONNX custom op: FP8/FP6/FP4 always round RNE (rounding_mode reaches INT8 only)
    out.append(Mode(
        kind="block", name="onnx", profile="quark-onnx", formats=_FP8 + _FP46,
        inputs=("fp32", "fp16"), output="values", options={"path": "onnx", "rm": 0},
        path=_ONNX_PATH.format(rm=0), note="rounding_mode 0 (the default); ignored by FP elements"))
    for rm, prof, rnd in ((0, "quark-onnx-int8", None), (1, "quark-onnx-int8", "rhu"),
                          (2, "quark-onnx", None)):
        out.append(Mode(
            kind="block", name=f"onnx/int8-rm{rm}", profile=prof, rounding=rnd,
            formats=("int8",), inputs=("fp32", "fp16"), output="values",
            options={"path": "onnx", "rm": rm}, path=_ONNX_PATH.format(rm=rm),
            note=f"rounding_mode {rm}" + (" (the default)" if rm == 0 else "")))
    return out


_ONNX_PATH = ("onnxruntime InferenceSession (CPU) of com.amd.quark::MXQuantizeDequantize("
              "element_dtype, axis=1, block_size=32, rounding_mode={rm}) from the library built "
              "from quark/onnx/operators/custom_ops -> MXCPUKernel")


def _note(sc: str, fam: str) -> str:
    return "FP8 keeps the sign of zeros (torch float8 cast)" if fam == "fp8" else ""


# ---------------------------------------------------------------------------------------------
# running the library

_TORCH = None


def _torch():
    global _TORCH
    if _TORCH is None:
        os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
        import torch

        import quark.torch.kernel  # noqa: F401  (registers torch.ops.quark)
        _TORCH = torch
    return _TORCH


def _to_torch(x: np.ndarray):
    torch = _torch()
    x = np.ascontiguousarray(x)
    if x.dtype.name == "bfloat16":
        return torch.from_numpy(x.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(x.copy())


def _to_numpy(t, like: np.ndarray) -> np.ndarray:
    torch = _torch()
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(like.dtype)
    return t.numpy()


def _e8m0(scale) -> np.ndarray:
    """Code of FP32 scales 2^e: e+127 (negative below 2^-127, which E8M0 cannot hold);
    NaN and +Inf -> 0xFF."""
    s = np.asarray(scale, np.float32).reshape(-1).astype(np.float64)
    out = np.full(s.shape, 0xFF, np.int64)
    ok = np.isfinite(s) & (s > 0)
    m, e = np.frexp(s[ok])
    if not np.all(m == 0.5):
        raise AssertionError("a Quark scale is not a power of two")
    out[ok] = e - 1 + 127
    # +Inf (amax Inf under FLOOR/CEIL): every element dequantizes to NaN (x/Inf = 0, 0*Inf)
    return out


_GRIDS: dict = {}


def _codes(fmt: str, v) -> np.ndarray:
    """Codes of unscaled element values (exact lookup); NaN -> 0; no value of fmt -> -1."""
    import mxgold

    from ._inputs import _grid

    F = mxgold.Format.get(fmt)
    g = _GRIDS.get(fmt)
    if g is None:
        g = _GRIDS[fmt] = _grid(F)
    v = np.asarray(v, np.float64)
    a = np.abs(v)
    i = np.clip(np.searchsorted(g, a), 0, g.size - 1)
    hit = g[i] == a
    sign = np.signbit(v).astype(np.int64) << (F.bits - 1)
    out = np.where(hit, i.astype(np.int64) | sign, -1)
    out[np.isnan(v)] = 0
    return out


def _spec_quantizer(fmt: str, sc: str):
    from quark.torch.quantization.config import config as C
    from quark.torch.quantization.tensor_quantize import FakeQuantizeBase

    spec = getattr(C, _SPEC[fmt])(ch_axis=-1, scale_calculation_mode=sc)
    return FakeQuantizeBase.get_fake_quantize(spec.to_quantization_spec())


# ---------------------------------------------------------------------------------------------
# the ONNX custom op: built from Quark's shipped sources, run in onnxruntime

_ONNX_SESSIONS: dict = {}


def _onnx_cache_dir() -> str:
    """Where the op library is built: $MXGOLD_QUARK_ONNX_DIR, else build/quark-onnx of the source
    tree this package runs from, else of the current directory (ci/conform.sh runs from build/),
    else ~/.cache/mxgold/quark-onnx."""
    from pathlib import Path

    env = os.environ.get("MXGOLD_QUARK_ONNX_DIR")
    if env:
        return env
    here = Path(__file__).resolve().parents[3] / "build"
    cwd = Path.cwd()
    for b in (here, cwd if cwd.name == "build" else None, cwd / "build"):
        if b is not None and b.is_dir():
            return str(b / "quark-onnx")
    return str(Path.home() / ".cache" / "mxgold" / "quark-onnx")


def _onnx_lib() -> str:
    """The path of the custom-op library compiled from the installed Quark's sources (the CPU
    execution provider's set: ORT glue, CPU BFP/MX wrappers and kernels, -DNO_GPU), built once
    per source hash and compiler."""
    import hashlib
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    import quark

    root = Path(quark.__file__).parent / "onnx" / "operators" / "custom_ops"
    src, inc = root / "src", root / "include"
    if not src.is_dir():
        raise NotRunnable(f"Quark's ONNX custom-op sources are absent ({src})")
    sources = [src / f for f in ("custom_op_library.cc", "custom_op_qdq.cc", "custom_op_in.cc",
                                 "custom_op_bfp.cc", "custom_op_mx.cc", "custom_op_lstm.cc",
                                 "bfp/cpu/bfp.cc", "mx/cpu/mx.cc", "bfp/cpu/bfp_kernel.cc",
                                 "mx/cpu/mx_kernel.cc")]
    cxx = os.environ.get("CXX", "g++")
    if shutil.which(cxx) is None:
        raise NotRunnable(f"no C++ compiler ({cxx}; set CXX) to build Quark's ONNX custom ops")
    ort = inc / "onnxruntime-1.17.0" / "onnxruntime"
    flags = ["-std=c++17", "-O2", "-fPIC", "-shared", "-DNO_GPU", f"-I{inc}", f"-I{src}",
             f"-I{ort}", f"-I{ort / 'core' / 'session'}", f"-I{inc / 'gsl-4.0.0'}", "-w"]
    h = hashlib.sha256(" ".join([cxx] + flags).encode())
    try:
        h.update(subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.encode())
    except OSError as e:
        raise NotRunnable(f"{cxx} does not run: {e}")
    for f in sorted(root.rglob("*")):
        if f.is_file() and f.suffix in (".cc", ".h", ".cuh", ".hpp", ""):
            h.update(str(f.relative_to(root)).encode() + f.read_bytes())
    out = Path(_onnx_cache_dir()) / h.hexdigest()[:16] / "libquark_custom_ops.so"
    if out.exists():
        return str(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=out.parent)
    os.close(fd)
    r = subprocess.run([cxx, *flags, *map(str, sources), "-o", tmp], capture_output=True,
                       text=True)
    if r.returncode != 0:
        os.unlink(tmp)
        raise NotRunnable(f"building Quark's ONNX custom ops with {cxx} failed: "
                          f"{r.stderr.strip()[-400:]}")
    os.replace(tmp, out)
    return str(out)


def _onnx_session(fmt: str, rm: int, inp: str):
    key = (fmt, rm, inp)
    if key not in _ONNX_SESSIONS:
        try:
            import onnxruntime as ort
            from onnx import TensorProto, helper
        except ImportError as e:
            raise NotRunnable(f"the ONNX op needs onnx and onnxruntime: {e}")

        dt = {"fp32": TensorProto.FLOAT, "fp16": TensorProto.FLOAT16}[inp]
        node = helper.make_node("MXQuantizeDequantize", ["x"], ["y"], domain="com.amd.quark",
                                element_dtype=_ELEM_ONNX[fmt], axis=1, block_size=32,
                                rounding_mode=rm)
        g = helper.make_graph([node], "mx", [helper.make_tensor_value_info("x", dt, [None, 32])],
                              [helper.make_tensor_value_info("y", dt, [None, 32])])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                                helper.make_opsetid("com.amd.quark", 1)])
        so = ort.SessionOptions()
        so.register_custom_ops_library(_onnx_lib())
        _ONNX_SESSIONS[key] = ort.InferenceSession(m.SerializeToString(), so,
                                                   providers=["CPUExecutionProvider"])
    return _ONNX_SESSIONS[key]


_ELEM_ONNX = {"e4m3": "fp8_e4m3", "e5m2": "fp8_e5m2", "e2m3": "fp6_e2m3", "e3m2": "fp6_e3m2",
              "e2m1": "fp4_e2m1", "int8": "int8"}


def _run_onnx(mode: Mode, fmt: str, x: np.ndarray) -> np.ndarray:
    from ._runner import _in_name

    if mode.block != 32 or x.shape[1] != 32:
        raise NotRunnable("the ONNX op is run with block_size 32")
    y = _onnx_session(fmt, mode.options["rm"], _in_name(x.dtype)).run(
        None, {"x": np.ascontiguousarray(x)})[0]
    if fmt == "int8":
        y = y + y.dtype.type(0)  # -0 + 0 = +0: INT8's one zero (std::round keeps the sign)
    return y


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None):
    if mode.options["path"] == "onnx":
        return _run_onnx(mode, fmt, x)
    torch = _torch()
    import quark.torch.kernel as K

    path, sc = mode.options["path"], mode.options["scale"]
    t = _to_torch(x)
    with torch.no_grad():
        if path == "mx-fake":
            y = torch.ops.quark.non_scaled_fake_quantize(t, "mx", _ELEM[fmt], -1, mode.block, sc)
            return _to_numpy(y, x)
        if path == "spec-fake":
            return _to_numpy(_spec_quantizer(fmt, sc)(t), x)
        if path == "spec-real":
            q = _spec_quantizer(fmt, sc)
            scale, zp = q.observe(t)
            v = K.scaled_real_quantize(q.dtype.value, t, scale, zp, q.ch_axis, q.group_size,
                                       q.quant_min, q.quant_max, q.round_method,
                                       q.qscheme_str_name)
            return _e8m0(scale.to(torch.float32).numpy()), _codes(fmt, v.to(torch.float32).numpy())
        if path == "bfp16":
            from quark.torch.kernel.hw_emulation.hw_emulation_interface import (
                fake_quantize_bfp16)

            return _to_numpy(fake_quantize_bfp16(t, -1, mode.block), x)
        if path == "mxs-real":
            from quark.torch.kernel.hw_emulation.hw_emulation_interface import (
                real_quantize_mx6_mx9)

            m = _MXS_M[fmt]
            r = real_quantize_mx6_mx9(t, -1, block_size=16, quant_bit=m + 1, sub_block_size=2)
            r = r.to(torch.float64).numpy().reshape(x.shape[0], 18)
            scales = r[:, 0].astype(np.int64) + 127
            bits = r[:, 1].astype(np.int64)
            shifts = (bits[:, None] >> np.arange(8)) & 1   # bit j: sub-block j
            v = r[:, 2:]
            mag = np.abs(np.where(np.isfinite(v), v, 0)).astype(np.int64)
            codes = np.where(np.signbit(v), 1 << m, 0) | mag
            codes = np.where(np.isfinite(x.astype(np.float64)), codes, MXS_NO_CODE)
            return scales, shifts, codes
        if path == "mx-real":
            r = K.non_scaled_real_quantize(t, "mx", _ELEM[fmt], -1, mode.block)
            r = r.to(torch.float32).numpy().reshape(x.shape[0], mode.block + 1)
            return _e8m0(r[:, 0]), _codes(fmt, r[:, 1:])
    raise NotRunnable(f"unknown path {path}")


# ---------------------------------------------------------------------------------------------
# the model of the proposed policies, and the exceptions it proves

_EMAX = {"e4m3": 8, "e5m2": 15, "e2m3": 2, "e3m2": 4, "e2m1": 2, "int8": 0}
# the m of Quark's EVEN (get_dtype_params: INT8 has mbits 8)
_M_EVEN = {"e4m3": 3, "e5m2": 2, "e2m3": 3, "e3m2": 2, "e2m1": 1, "int8": 8}
# 2^e as a value of the input dtype: (smallest, largest) e it holds
_POW_RANGE = {"fp32": (-149, 127), "bf16": (-133, 127), "fp16": (-24, 15)}
_EPS = 2.0 ** -23  # torch.finfo(torch.float32).eps, Quark's stand-in for a zero scale


def _exp2(v: float) -> int:
    return int(np.frexp(v)[1]) - 1


_BITS = {"fp32": 24, "bf16": 8, "fp16": 11, "fp64": 53}


def _log2_in(a: float, inp: str) -> float:
    """log2(a) as torch computes it on a tensor of the input dtype: in FP32 (correctly rounded
    here), then rounded to the input dtype."""
    from ._inputs import dtype

    lg = np.array([np.log2(float(a))], np.float64).astype(np.float32)
    return float(lg.astype(dtype(inp)).astype(np.float64)[0])


def _model_scale(a: float, fmt: str, sc: str, inp: str) -> tuple[float, list[str]]:
    """Quark's FP32 scale for a block with amax a (not NaN), and the conditions that decided it
    which no policy field models."""
    why = []
    emax = _EMAX[fmt]
    if sc == "even":
        a32 = float(np.float32(a))
        if np.isinf(a32):
            return 2.0 ** 127, why
        if a32 == 0:
            a32 = 2.0 ** -126
        E = max(_exp2(a32), -126)
        e0 = _exp2(a32 + 2.0 ** (E - _M_EVEN[fmt] - 1))
        if e0 >= 128:
            return 2.0 ** 127, why
        return 2.0 ** min(max(e0 - emax, -127), 127), why
    if a == 0:
        return _EPS, why
    if np.isinf(a):
        return np.inf, why
    rnd = np.floor if sc == "floor" else np.ceil
    # torch's log2 on a half tensor rounds the FP32 log2f to the half type; for every finite
    # BF16 and FP16 value that equals log2 rounded once to the half type (checked exhaustively)
    k = int(rnd(_log2_in(a, inp)))
    e = k - emax
    lo, hi = _POW_RANGE[inp]
    if e < lo:
        why.append(f"scale-underflow: 2^{e} is 0 in {inp}, and Quark uses FP32 eps 2^-23")
        return _EPS, why
    if e > hi:
        why.append(f"scale-overflow-in-input: 2^{e} is Inf in {inp}: a NaN block")
        return np.inf, why
    if e < -127:
        why.append(f"scale-below-e8m0: the scale is 2^{e}, no E8M0 value (FP32 subnormal)")
    return 2.0 ** e, why


def _model_block(x: np.ndarray, fmt: str, sc: str, inp: str, zero_keep: bool,
                 values: bool = False):
    """(FP32 scale, unscaled element values, dequantized values in x's dtype, conditions).
    values: the conditions are those of a values comparison."""
    import mxgold
    from mxgold._ops import decode

    xs = x.astype(np.float64)
    if np.isnan(xs).any():
        return np.nan, np.full(xs.shape, np.nan), np.full(xs.shape, np.nan).astype(x.dtype), []
    with np.errstate(over="ignore"):
        S, why = _model_scale(float(np.max(np.abs(xs))), fmt, sc, inp)
    pol = dict(profile="ocp", overflow="sat", zero_sign="keep" if zero_keep else "positive")
    with np.errstate(over="ignore"):
        x32 = x.astype(np.float32)
    with np.errstate(all="ignore"):
        if fmt == "int8":
            # the step S/64 goes through torch's per-channel fake quantize, which clamps it at
            # FLT_MIN: the effective scale is max(S, 2^-120)
            Sp = float(max(np.float32(S) / np.float32(64), np.float32(2.0 ** -126))) * 64
            if np.isinf(Sp):
                nan = np.full(xs.shape, np.nan)
                return S, nan, nan.astype(x.dtype), why
            q = decode(mxgold.cast(x32.astype(np.float64) / Sp, "int8", **pol), "int8",
                       np.float64)
            return S, q, _out(q, Sp, x.dtype, values, why), why
        y = (x32 / np.float32(S)).astype(np.float64)
        q = decode(mxgold.cast(y, fmt, **pol), fmt, np.float64)
        if fmt in _FP46:
            if np.isinf(y).any():
                why.append("fp46-inf-element: the FP4/FP6 element kernel returns an Inf "
                           "unchanged (no code)")
            q = np.where(np.isinf(y), y, q)
        q = np.where(np.isnan(y), np.nan, q)
        return S, q, _out(q, S, x.dtype, values, why), why


def _out(q: np.ndarray, S: float, dt, values: bool, why: list) -> np.ndarray:
    """Quark's dequantized output: the FP32 product, then the input dtype."""
    with np.errstate(all="ignore"):
        p = q * S
        o = p.astype(np.float32)
        if values and np.dtype(dt) == np.float64 and (np.isinf(o) & np.isfinite(p)).any():
            why.append("fp64-output-fp32: the dequantized product overflows FP32 to Inf before "
                       "it is widened to FP64")
        return o.astype(dt)


def _same_values(a: np.ndarray, b: np.ndarray) -> bool:
    from ._runner import _bits_of

    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    nan = np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64))
    return bool(((_bits_of(a) == _bits_of(b)) | nan).all())


def _bfp16_step(E: float) -> tuple[np.float32, np.float32]:
    """(scale, step) of ``fake_quantize_bfp16`` for exponent E: scale = torch.pow(2, E - 6) in FP32
    (0 below 2^-149, then eps; Inf past 2^127), step = that scale clamped at FLT_MIN by
    ``fake_quantize_per_channel_affine``."""
    with np.errstate(over="ignore"):
        S = (np.float32(np.ldexp(1.0, int(E) - 6)) if np.isfinite(E)
             else np.float32(np.inf if E > 0 else 0))
    if S == 0:
        S = np.float32(_EPS)
    return S, max(S, np.float32(2.0 ** -126))


def _bfp16_pass(b: np.ndarray, step: np.float32, lo: int, hi: int) -> np.ndarray:
    """fake_quantize_per_channel_affine: (clamp(round(b * (1/step)) + 0, lo, hi) - 0) * step in FP32
    (torch.round is RNE; adding the zero point turns -0 into +0)."""
    with np.errstate(all="ignore"):
        inv = np.float32(1) / step
        q = np.clip(np.rint(b * inv) + np.float32(0), lo, hi).astype(np.float32)
        return (q - np.float32(0)) * step


def _model_bfp16(x: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Quark's ``fake_quantize_bfp16`` on one FP32 block (the output values), and the conditions
    on which it departs from the scale-bump=once model (which raises the exponent by one)."""
    why = []
    b = np.nan_to_num(np.asarray(x, np.float32), nan=0.0, posinf=0.0, neginf=0.0)
    a = np.float32(np.max(np.abs(b)))

    def expo(v):
        return np.floor(_log2_in(float(v), "fp32")) if v > 0 else -np.inf

    E1 = expo(a)
    S1, st1 = _bfp16_step(E1)
    with np.errstate(all="ignore"):
        p1 = _bfp16_pass(b, st1, -129, 128)
        r = p1 / S1
        bump = bool(((r >= 128) | (r < -128)).any())
        a2 = a * np.float32(2) if bump else a
    E2 = expo(a2) if np.isfinite(a2) else np.inf
    if bump:
        q1 = np.clip(np.rint(b.astype(np.float64) / float(st1)), -129, 128)
        if np.isinf(p1).any() and not ((q1 >= 128) | (q1 < -128)).any():
            q = int(q1[np.isinf(p1)][0])
            inf = "-Inf" if q < 0 else "+Inf"
            why.append(f"bump-product-overflow: at step 2^{int(E1) - 6} the first-pass product "
                       f"{q} * step overflows FP32 to {inf}, which Quark's bump test reads as out "
                       "of range (the integer itself is in range)")
        if not np.isfinite(a2):
            why.append("bump-amax-overflow: Quark bumps by doubling amax, 2 * amax overflows FP32 "
                       "to Inf, the scale is Inf and every element 0 * Inf = NaN")
        elif _bfp16_step(E2)[1] != _bfp16_step(E1 + 1)[1]:
            why.append(f"bump-relog: Quark bumps by doubling amax and taking floor(log2f) again: "
                       f"log2f(amax) = {_log2_in(float(a), 'fp32')!r} floors to {int(E1)}, "
                       f"log2f(2 * amax) = {_log2_in(float(a2), 'fp32')!r} to {int(E2)}, "
                       "not one more")
    S2, st2 = _bfp16_step(E2)
    return _bfp16_pass(b, st2, -128, 127), why


def _model_onnx(x: np.ndarray, fmt: str, rm: int) -> tuple[np.ndarray, list[str]]:
    """MXCPUKernel on one block (the output values in x's dtype), and the conditions on which no
    MX result exists: the shared exponent (FP32 exponent field of the largest finite element, 0
    for NaN/Inf, minus 127 and emax, not clamped) below -127, and a NaN or Inf passed through
    into a format without it."""
    import mxgold
    from mxgold._ops import decode

    why = []
    x32 = np.asarray(x).astype(np.float32)
    field = (x32.view(np.uint32) >> 23) & 0xFF
    fin = np.isfinite(x32)
    se = int(np.max(np.where(fin, field, 0))) - 127 - _EMAX[fmt]
    if se < -127:
        why.append(f"scale-below-e8m0: the shared exponent is {se} (not clamped), no E8M0 value")
    S = np.float32(2.0 ** se)
    with np.errstate(all="ignore"):
        q = (x32 / S).astype(np.float64)
        rnd = {0: "rna", 1: "rhu", 2: "rne"}[rm] if fmt == "int8" else "rne"
        pol = dict(profile="ocp", overflow="sat", zero_sign="positive", int_range="full")
        v = decode(mxgold.cast(np.where(fin, q, 0.0), fmt, rounding=rnd, **pol), fmt,
                   np.float64)
        out = (np.float32(S) * v.astype(np.float32)).astype(np.float32)
    out = np.where(fin, out, x32)
    if np.isnan(x32).any() and fmt not in _FP8:
        why.append(f"nan-passthrough: a NaN element is returned as NaN, which {fmt} cannot hold")
    if np.isinf(x32).any() and fmt != "e5m2":
        why.append(f"inf-passthrough: an Inf element is returned as Inf, which {fmt} cannot hold")
    out = out.astype(np.asarray(x).dtype)
    if fmt == "int8":
        out = out + out.dtype.type(0)
    return out, why


MXS_NO_CODE = 0x1000  # a NaN or Inf element of real_quantize_mx6_mx9: it has no code


def exception(mode: Mode, fmt: str, inp: str, cls: str, x_row: np.ndarray, described: dict):
    """A block no policy expresses, proven: the library's output on it equals the model of
    Quark bit for bit, and the model names the deciding condition."""
    if mode.kind == "mxs":
        # only NaN/Inf elements differ, scale and shifts agree: Quark writes no code for them
        # ("MX6/MX9 have no encoding for Inf or NaN"), mxgold +0 flagged invalid (inf-block
        # zero) or under nan-elem
        el = described.get("elements", [])
        same = (described["scale"]["lib"] == described["scale"]["mxgold"]
                and described["shifts"]["lib"] == described["shifts"]["mxgold"])
        if same and el and all(int(e["lib"], 16) == MXS_NO_CODE for e in el):
            return "a NaN or Inf element, which real_quantize_mx6_mx9 gives no code"
        return None
    if mode.options["path"] == "onnx":
        out, why = _model_onnx(np.asarray(x_row), fmt, mode.options["rm"])
        if not why:
            return None
        lib = run(mode, fmt, np.asarray(x_row)[None, :])
        return "; ".join(why) if _same_values(np.asarray(lib).reshape(-1), out) else None
    if mode.options["path"] == "bfp16":
        out, why = _model_bfp16(np.asarray(x_row))
        if not why:
            return None
        lib = run(mode, fmt, np.asarray(x_row)[None, :])
        return "; ".join(why) if _same_values(np.asarray(lib).reshape(-1), out) else None
    sc = mode.options["scale"]
    S, q, out, why = _model_block(np.asarray(x_row), fmt, sc, inp, fmt in _FP8,
                                  mode.output == "values")
    if not why:
        return None
    lib = run(mode, fmt, np.asarray(x_row)[None, :])
    if mode.output == "values":
        ok = _same_values(np.asarray(lib).reshape(-1), out)
    else:
        ls, lc = lib
        ms = _e8m0(np.array([S]))[0]
        ok = int(ls[0]) == int(ms) and (
            ms == 0xFF or bool((np.asarray(lc[0]) == _codes(fmt, q)).all()))
    return "; ".join(why) if ok else None
