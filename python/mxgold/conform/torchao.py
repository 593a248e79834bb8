"""torchao: the MX quantize of ``torchao.prototype.mx_formats`` on CPU, eager mode.

Path: ``MXTensor.to_mx(x, elem_dtype, 32, scaling_mode)`` with the default
``kernel_preference=EMULATED``, which calls ``mx_tensor.to_mx`` (the pure-PyTorch code: amax by
``torch.amax(torch.abs(x))``; FLOOR/CEIL/EVEN read the FP32 exponent field of amax, RCEIL is
``_to_mx_rceil``'s eager fallback); elements by the eager ``Tensor.to(float8_*)`` cast (FP8) or
``custom_fp_utils._f32_to_floatx_unpacked`` (FP6, FP4).  Inputs: float32 and bfloat16 (``to_mx``
asserts on every other dtype, float16 included); bfloat16 is upcast to float32 exactly after amax,
so it gives the same bits as its float32 value.  No torch.compile, no Triton/CUDA kernel.
Run with torch 2.15.0 (CPU).

Profiles: torchao-floor, torchao-ceil, torchao-even, torchao-rceil.  While a build of mxgold lacks
the ceil/even rows, the mode runs at torchao-floor with its scale rule overridden (``_MODES``).
"""
from __future__ import annotations

import numpy as np

from . import Mode

NAME = "torchao"
PACKAGE = "torchao"
TESTED = "0.18.0"
LIGHT = False
MAPPING = ("scale: the float8_e8m0fnu byte; FP8 qdata viewed as uint8; FP6 qdata is one code per "
           "uint8 (low 6 bits); FP4 qdata packs two codes per byte, element 2i in the low nibble "
           "and 2i+1 in the high nibble (pack_uint4), unpacked here")
SABOTAGE = {"zero_sign": "positive"}

_ELEM = {"e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2", "e2m3": "fp6_e2m3",
         "e3m2": "fp6_e3m2", "e2m1": "float4_e2m1fn_x2"}
_FORMATS = tuple(_ELEM)
_INPUTS = ("fp32", "bf16")
_PATH = ("torchao.prototype.mx_formats.mx_tensor.MXTensor.to_mx(x, elem, 32, "
         "ScaleCalculationMode.{m}) -> to_mx (CPU, eager){extra}")

# ScaleCalculationMode -> (mode name, profile, (base profile, policy) while the profile is absent
# from this build of mxgold, path detail)
_MODES = (
    ("FLOOR", "floor", "torchao-floor", ""),
    ("CEIL", "ceil", "torchao-ceil", ""),
    ("EVEN", "even", "torchao-even", ""),
    ("RCEIL", "rceil", "torchao-rceil", ", _to_mx_rceil eager fallback"),
)


def modes() -> list[Mode]:
    out = []
    for m, name, prof, extra in _MODES:
        out.append(Mode(kind="block", name=name, profile=prof, formats=_FORMATS,
                        inputs=_INPUTS, path=_PATH.format(m=m, extra=extra),
                        options={"scaling_mode": m},
                        note="no float16/float64 input (to_mx asserts); element codes of "
                             "NaN-scale blocks are not compared"))
    return out


def _torch_in(torch, x: np.ndarray):
    x = np.ascontiguousarray(x)
    if x.dtype == np.float32:
        return torch.from_numpy(x.copy())
    if x.dtype.name == "bfloat16":
        return torch.from_numpy(x.view(np.int16).copy()).view(torch.bfloat16)
    raise TypeError(f"torchao to_mx takes float32 and bfloat16, not {x.dtype}")


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None):
    import torch
    from torchao.prototype.mx_formats.config import ScaleCalculationMode
    from torchao.prototype.mx_formats.mx_tensor import MXTensor

    elem = _ELEM[fmt]
    elem = getattr(torch, elem) if elem.startswith("float") else elem
    t = _torch_in(torch, x)
    nb, k = x.shape
    with torch.no_grad():
        mx = MXTensor.to_mx(t, elem, k, ScaleCalculationMode[mode.options["scaling_mode"]])
    scales = mx.scale.view(torch.uint8).numpy().reshape(nb).copy()
    q = mx.qdata
    if fmt in ("e4m3", "e5m2"):
        codes = q.view(torch.uint8).numpy().reshape(nb, k).copy()
    elif fmt == "e2m1":
        b = q.view(torch.uint8).numpy().reshape(nb, k // 2)
        codes = np.empty((nb, k), np.uint8)
        codes[:, 0::2] = b & 0x0F
        codes[:, 1::2] = b >> 4
    else:
        codes = q.numpy().reshape(nb, k).copy()
    return scales, codes
