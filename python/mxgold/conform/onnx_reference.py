"""onnx: the reference evaluator (``onnx.reference.ReferenceEvaluator``) on one-node models.

Paths (onnx 1.23.2, opset 25):

- ``Cast(to=FLOAT8E4M3FN|FLOAT8E5M2, saturate=1)``: ``onnx/reference/ops/op_cast.py`` ``cast_to``
  -> ``onnx.numpy_helper.saturate_cast``: ``np.clip(x, finfo.min, finfo.max)`` in the input
  dtype, then ml_dtypes ``astype`` (RNE).  ``saturate=0``: plain ml_dtypes ``astype``
  (overflow -> NaN in E4M3, Inf in E5M2).
- ``Cast(to=FLOAT6E2M3|FLOAT6E3M2|FLOAT4E2M1)``: ml_dtypes ``astype`` whatever ``saturate`` says
  (these types have no Inf/NaN: overflow saturates, NaN -> a zero code).
- ``Cast(to=FLOAT8E8M0, saturate, round_mode)``: ``onnx.numpy_helper.to_float8e8m0``: the
  input is first cast to float32 (``np.asarray(x, np.float32)``), then the biased exponent field
  of the float32 bits is the code, incremented by the round mode ("up": any fraction bit;
  "nearest": fraction bit 22; "down": never); the sign bit is ignored; exponent field 0xFF
  (Inf, NaN) gives 0xFF; ``saturate`` only stops 0xFE from being incremented.
- ``QuantizeLinear(x, y_scale=1, y_zero_point=0 of the target type, saturate)``:
  ``op_quantize_linear.py`` ``_CommonQuantizeLinear``: ``x / y_scale`` (numpy, in the input
  dtype), then for FP8 ``saturate_cast`` / ``astype`` as Cast (the zero point is not added);
  for FP6/FP4 ``(x + zero_point).astype`` (so -0 + 0 = +0 first), ``saturate`` unused.

Profile ``onnx`` (proposed; the new fields are described in the report): rne, overflow sat,
wide-input fp32 (FP64 is rounded to FP32 first: ml_dtypes casts float64 through float, and
``to_float8e8m0`` converts to float32), nan-elem flipzero (ml_dtypes: +NaN -> the -0 code,
-NaN -> +0), e8m0-bottom subnormal (biased exponent 0 is rounded like a subnormal binade onto
{0 -> 0x00, 2^-126 -> 0x01}), scale-cast abs (E8M0: |x| is cast, +-Inf -> 0xFF even when
saturating).  saturate=0 is ``overflow=ovf``; round_mode up/down/nearest is rup/rdn/rne.

Input-precise exception (``exception``): QuantizeLinear to FP6/FP4 turns -0 into +0
(``x + zero_point`` is computed before the cast).

Outputs are ml_dtypes arrays with one element per byte (FP4/FP6 unpacked, the code in the low
bits); the storage byte is the code.
"""
from __future__ import annotations

import numpy as np

from . import Mode

NAME = "onnx"
PACKAGE = "onnx"
TESTED = "1.23.2"
LIGHT = True
MAPPING = ("ReferenceEvaluator returns ml_dtypes arrays, one element per byte (FP4/FP6 not "
           "packed): the storage byte viewed as uint8 is the code")
SABOTAGE = {"overflow": "ovf"}

OPSET = 25
ELEMENTS = ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1")
# the TensorProto names of the MX types (the FNUZ types are not MX formats)
_TP = {"e4m3": "FLOAT8E4M3FN", "e5m2": "FLOAT8E5M2", "e2m3": "FLOAT6E2M3",
       "e3m2": "FLOAT6E3M2", "e2m1": "FLOAT4E2M1", "e8m0": "FLOAT8E8M0"}
_IN = {"fp32": "FLOAT", "fp64": "DOUBLE", "fp16": "FLOAT16", "bf16": "BFLOAT16"}
# ONNX round_mode of Cast to FLOAT8E8M0 -> mxgold rounding (E8M0 values are positive)
E8M0_ROUND = {"up": "rup", "down": "rdn", "nearest": "rne"}


def _cast_modes(path_prefix: str, inputs_cast: tuple, inputs_q: tuple, profile: str,
                q_formats=ELEMENTS, cast_formats=ELEMENTS, e8m0_nosat: dict | None = None,
                notes: dict | None = None) -> list[Mode]:
    """Cast and QuantizeLinear, saturate 1 and 0, and Cast to E8M0 in each round_mode; the
    saturate=0 modes are the profile with overflow=ovf (and ``e8m0_nosat`` for E8M0).
    ``notes``: {"Cast"|"QuantizeLinear"|"e8m0": (note for sat=1, note for sat=0)}."""
    notes = notes or {}

    def note(key, sat):
        n = notes.get(key, ("", ""))
        return n[0] if sat else n[1]

    out = []
    for sat in (1, 0):
        pol = {} if sat else {"overflow": "ovf"}
        out.append(Mode(kind="cast", name=f"Cast sat={sat}", profile=profile,
                        formats=cast_formats, inputs=inputs_cast, policy=pol,
                        options={"op": "Cast", "saturate": sat}, note=note("Cast", sat),
                        path=f"{path_prefix} Cast(to=<type>, saturate={sat}), opset {OPSET}"))
    for sat in (1, 0):
        pol = {} if sat else {"overflow": "ovf"}
        out.append(Mode(kind="cast", name=f"QuantizeLinear sat={sat}", profile=profile,
                        formats=q_formats, inputs=inputs_q, policy=pol,
                        options={"op": "QuantizeLinear", "saturate": sat},
                        note=note("QuantizeLinear", sat),
                        path=f"{path_prefix} QuantizeLinear(x, y_scale=1 (x's type), "
                             f"y_zero_point=0 (<type>), saturate={sat}), opset {OPSET}"))
    for rm, rnd in E8M0_ROUND.items():
        for sat in (1, 0):
            pol = {} if sat else {"overflow": "ovf", **(e8m0_nosat or {})}
            out.append(Mode(kind="cast", name=f"Cast e8m0 {rm} sat={sat}", profile=profile,
                            formats=("e8m0",), inputs=inputs_cast, rounding=rnd, policy=pol,
                            options={"op": "Cast", "saturate": sat, "round_mode": rm},
                            note=note("e8m0", sat),
                            path=f"{path_prefix} Cast(to=FLOAT8E8M0, saturate={sat}, "
                                 f"round_mode='{rm}'), opset {OPSET}"))
    return out


def modes() -> list[Mode]:
    q = "exception: -0 gives +0 in FP6/FP4 (x + zero_point)"
    return _cast_modes("onnx.reference.ReferenceEvaluator", ("fp32", "fp64", "fp16", "bf16"),
                       ("fp32", "fp16", "bf16"), "onnx", notes={"QuantizeLinear": (q, q)})


def model(mode: Mode, fmt: str, inp: str, opset: int = OPSET):
    """The one-node ModelProto of a mode (input "x", 1-D, of the input type; output "y")."""
    from onnx import TensorProto, helper

    to = getattr(TensorProto, _TP[fmt])
    xt = getattr(TensorProto, _IN[inp])
    op = mode.options["op"]
    attrs = {"saturate": mode.options["saturate"]}
    if "round_mode" in mode.options:
        attrs["round_mode"] = mode.options["round_mode"]
    inits = []
    if op == "Cast":
        node = helper.make_node("Cast", ["x"], ["y"], to=to, **attrs)
    else:
        inits = [helper.make_tensor("s", xt, [], [1.0]), helper.make_tensor("z", to, [], [0.0])]
        node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", xt, [None])],
                          [helper.make_tensor_value_info("y", to, [None])], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 11
    return m


def _lib_code(described: dict) -> int:
    return int(described["lib"], 16)


def exception(mode: Mode, fmt: str, inp: str, cls: str, x, described: dict) -> str | None:
    """The input-precise exception of the reference evaluator (see the module docstring)."""
    xf = float(x)
    if (mode.options["op"] == "QuantizeLinear" and fmt in ("e2m3", "e3m2", "e2m1")
            and xf == 0.0 and np.signbit(xf) and _lib_code(described) == 0):
        return "QuantizeLinear computes x + zero_point (+0) for FP6/FP4: -0 + 0 = +0"
    return None


def _inp(x: np.ndarray) -> str:
    d = np.dtype(x.dtype)
    if d.name == "bfloat16":
        return "bf16"
    return {np.dtype(np.float32): "fp32", np.dtype(np.float64): "fp64",
            np.dtype(np.float16): "fp16"}[d]


_SESSIONS: dict = {}


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None) -> np.ndarray:
    from onnx.reference import ReferenceEvaluator

    inp = _inp(x)
    key = (mode.name, fmt, inp)
    if key not in _SESSIONS:
        _SESSIONS[key] = ReferenceEvaluator(model(mode, fmt, inp))
    with np.errstate(all="ignore"):
        y = _SESSIONS[key].run(None, {"x": np.ascontiguousarray(x)})[0]
    y = np.asarray(y)
    if y.dtype.itemsize != 1 or y.shape != x.shape:
        raise RuntimeError(f"unexpected output {y.dtype} {y.shape} for {x.shape} inputs")
    return y.view(np.uint8)
