"""onnxruntime: one-node Cast / QuantizeLinear models on the CPU execution provider.

Paths (onnxruntime 1.32.0 CPUExecutionProvider, graph optimizations off, opset 25; the models
are built with ``onnx.helper``, so this adapter also needs the ``onnx`` package):

- ``Cast(to=FLOAT8E4M3FN|FLOAT8E5M2, saturate)``: ``onnxruntime/core/providers/cpu/tensor/
  cast_op.cc`` -> the ``Float8E4M3FN(float, saturate)`` / ``Float8E5M2(float, saturate)``
  constructors (``include/onnxruntime/core/common/float8.h``, bit manipulation of the float32);
  every source type is converted to float first.
- ``QuantizeLinear(x, y_scale=1, y_zero_point=0, saturate)`` to the same types (float and
  float16 inputs; ORT has no CPU kernel for bfloat16 inputs).
- ``Cast(to=FLOAT8E8M0, saturate, round_mode)``: ``Float8E8M0(float, saturate, RoundMode)``
  (PR #28435).  saturate=1: x <= 0 (and -Inf) -> 0x00, +Inf -> 0xFE; saturate=0: any x outside
  [2^-127, 2^127] before rounding (zero, negative, Inf, tiny, huge) -> 0xFF.

Not run (the library's own error is the reason): Cast/QuantizeLinear to FLOAT4E2M1 have no CPU
kernel (NOT_IMPLEMENTED); FLOAT6E2M3/FLOAT6E3M2 are not registered types; QuantizeLinear from
bfloat16 has no CPU kernel.

Profile ``onnxruntime`` (proposed; the new fields are described in the report): rne, overflow
sat, wide-input fp32 (every source type is converted to float first), nan-code ones (E5M2 NaN
is S.11111.11), scale-cast clamp.  saturate=0 is ``overflow=ovf`` (E8M0: and
``scale-cast=strict``); round_mode up/down/nearest is rup/rdn/rne.

Input-precise exceptions (``exception``): saturate=0 E4M3 gives +-448 for 480 <= |x| < 496 and
E5M2 gives NaN (0x7F) instead of Inf for 61440 <= |x| < 65536 (library bugs); saturate=0 from
BF16 turns -NaN into +NaN (0x7F).

Outputs are read as raw bytes from the output OrtValue (``data_ptr``, ``tensor_size_in_bytes``;
the Python binding cannot turn float8 outputs into numpy arrays): one code per byte; a packed
4-bit output (two per byte) would be unpacked low nibble first (not verifiable on 1.32).
"""
from __future__ import annotations

import numpy as np

from . import Mode, NotRunnable
from .onnx_reference import OPSET, _cast_modes, _inp, _lib_code, model

NAME = "onnxruntime"
PACKAGE = "onnxruntime"
TESTED = "1.32.0"
LIGHT = True
MAPPING = ("the output OrtValue's raw bytes (data_ptr, tensor_size_in_bytes) are the codes, one "
           "per byte; FP4 would be two per byte, low nibble first")
SABOTAGE = {"overflow": "ovf"}

_RUNS = ("e4m3", "e5m2")  # the MX element types ORT 1.32 CPU implements


def modes() -> list[Mode]:
    p = "onnxruntime.InferenceSession(CPUExecutionProvider)"
    bugs = ("exception: E4M3 480 <= |x| < 496 gives +-448, E5M2 61440 <= |x| < 65536 gives "
            "NaN (not Inf)")
    notes = {"Cast": ("", f"{bugs}; BF16 -NaN gives +NaN"), "QuantizeLinear": ("", bugs)}
    out = _cast_modes(p, ("fp32", "fp64", "fp16", "bf16"), ("fp32", "fp16"), "onnxruntime",
                      q_formats=_RUNS, cast_formats=_RUNS, e8m0_nosat={"scale_cast": "strict"},
                      notes=notes)
    # what ORT rejects: run anyway, so that a later version that implements them is compared
    rej = [
        ("Cast e2m1", "Cast", ("e2m1",), ("fp32", "fp64", "fp16", "bf16")),
        ("QuantizeLinear e2m1", "QuantizeLinear", ("e2m1",), ("fp32", "fp16", "bf16")),
        ("Cast fp6", "Cast", ("e2m3", "e3m2"), ("fp32", "fp64", "fp16", "bf16")),
        ("QuantizeLinear fp6", "QuantizeLinear", ("e2m3", "e3m2"), ("fp32", "fp16", "bf16")),
        ("QuantizeLinear bf16", "QuantizeLinear", _RUNS, ("bf16",)),
    ]
    for name, op, fmts, inputs in rej:
        out.append(Mode(kind="cast", name=name, profile="onnxruntime", formats=fmts,
                        inputs=inputs, options={"op": op, "saturate": 1},
                        path=f"{p} {op}(..., saturate=1), opset {OPSET}"))
    return out


def exception(mode: Mode, fmt: str, inp: str, cls: str, x, described: dict) -> str | None:
    """The input-precise exceptions of ORT 1.32 CPU (see the module docstring)."""
    lib = _lib_code(described)
    xf = float(x)
    with np.errstate(over="ignore", invalid="ignore"):
        a = abs(float(np.float32(xf)))
    sat = mode.options["saturate"]
    if (fmt == "e4m3" and not sat and 480.0 <= a < 496.0
            and lib == (0xFE if np.signbit(xf) else 0x7E)):
        return ("Float8E4M3FN(v, saturate=false) gives +-448 for 480 <= |v| < 496: the "
                "truncated code 0x7F is masked to 0x7E, and the overflow branch is reached "
                "only through the rounding bit below it, which is 0 there")
    if (fmt == "e5m2" and not sat and 61440.0 <= a < 65536.0
            and lib == (0xFF if np.signbit(xf) else 0x7F)):
        return ("Float8E5M2(v, saturate=false) gives NaN (0x7F) for 61440 <= |v| < 65536: "
                "rounding up from max ORs 0x7C into 0x7B instead of writing Inf")
    if (inp == "bf16" and not sat and fmt in ("e4m3", "e5m2") and np.isnan(xf)
            and np.signbit(xf) and lib == 0x7F):
        return ("the non-saturating path converts BFloat16 with static_cast<float>, "
                "which returns a positive quiet NaN for every NaN")
    return None


_SESSIONS: dict = {}


def _session(mode: Mode, fmt: str, inp: str):
    import onnxruntime as ort

    try:
        import onnx  # noqa: F401  (the models are built with onnx.helper)
    except ImportError as e:
        raise NotRunnable("building the one-node models needs the onnx package") from e

    key = (mode.name, fmt, inp)
    if key not in _SESSIONS:
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        so.log_severity_level = 3
        try:
            _SESSIONS[key] = ort.InferenceSession(model(mode, fmt, inp).SerializeToString(), so,
                                                  providers=["CPUExecutionProvider"])
        except Exception as e:  # ORT's own rejection of the model: not run, with its reason
            msg = str(e)
            if any(s in msg for s in ("NOT_IMPLEMENTED", "not currently registered",
                                      "Type Error")):
                raise NotRunnable(f"onnxruntime {ort.__version__} CPU rejects "
                                  f"{mode.options['op']} to {fmt} from {inp}: "
                                  + " ".join(msg.split())[:200]) from e
            raise
    return _SESSIONS[key]


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None) -> np.ndarray:
    import ctypes

    import onnxruntime as ort
    from onnx import TensorProto

    inp = _inp(x)
    s = _session(mode, fmt, inp)
    x = np.ascontiguousarray(x)
    if inp == "bf16":
        ov = ort.OrtValue.ortvalue_from_numpy_with_onnx_type(x.view(np.uint16),
                                                             TensorProto.BFLOAT16)
    else:
        ov = ort.OrtValue.ortvalue_from_numpy(x)
    y = s.run_with_ort_values(["y"], {"x": ov})[0]
    n = y.tensor_size_in_bytes()
    b = np.frombuffer(ctypes.string_at(y.data_ptr(), n), np.uint8).copy()
    if n == x.size:
        return b
    if n == (x.size + 1) // 2:  # packed 4-bit: element 2i in the low nibble
        return np.stack([b & 0x0F, b >> 4], axis=1).reshape(-1)[: x.size]
    raise RuntimeError(f"unexpected output size {n} bytes for {x.size} elements")
