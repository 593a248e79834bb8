"""AutoRound (auto-round): its MX quantize-dequantize (the RTN path of the mx_fp/mx_int data
types), on CPU.

Paths: ``auto_round.data_type.mxfp.quant_mx(x, group_size=32, data_type=..., mantissa_rounding=)``
(``floor(log2 amax)`` in FP32, amax 0 taken as log2 = 1, exponent clamped to [-127, 127]) and
``quant_mx_rceil`` (``ceil(log2(amax / max_norm))`` in FP32).  Both return the dequantized values
in the input's dtype and the shared exponents.
"""
from __future__ import annotations

import numpy as np

from . import Mode

NAME = "auto_round"
PACKAGE = "auto-round"
TESTED = "0.16.1"
LIGHT = False
MAPPING = "the dequantized output in the input dtype, compared with mxgold's dequantize"
SABOTAGE = {"scale_rule": "ceil"}

_DT = {"e4m3": "mx_fp8e4m3", "e5m2": "mx_fp8e5m2", "e2m3": "mx_fp6e2m3", "e3m2": "mx_fp6e3m2",
       "e2m1": "mx_fp4e2m1", "int8": "mx_int8"}
# (name, function, mantissa_rounding, mxgold rounding, scale rule)
_VARIANTS = (("floor/even", "quant_mx", "even", "rne", "floor-log2f"),
             ("floor/floor", "quant_mx", "floor", "rtz", "floor-log2f"),
             ("rceil/even", "quant_mx_rceil", "even", "rne", "rceil-log2f"))


def modes() -> list[Mode]:
    return [Mode(kind="block", name=name, profile="ocp", rounding=rnd,
                 policy={"scale_rule": rule, "scale_overflow": "clamp"}, formats=tuple(_DT),
                 inputs=("fp32", "fp16", "bf16"), output="values",
                 options={"fn": fn, "mantissa_rounding": mr},
                 note=("zero signs: a -0 input gives +0 (torch.sign(-0) is 0) while a negative "
                       "value rounding to 0 gives -0 (INT8: a -0.0 value)"),
                 path=f"auto_round.data_type.mxfp.{fn}(x, group_size=32, data_type=<mx_*>, "
                      f"mantissa_rounding='{mr}')")
            for name, fn, mr, rnd, rule in _VARIANTS]


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None) -> np.ndarray:
    import torch
    from auto_round.data_type import mxfp

    if x.dtype.name == "bfloat16":
        t = torch.from_numpy(np.ascontiguousarray(x).view(np.int16).copy()).view(torch.bfloat16)
    else:
        t = torch.from_numpy(np.ascontiguousarray(x).copy())
    fn = getattr(mxfp, mode.options["fn"])
    with torch.no_grad():
        y, _, _ = fn(t, group_size=mode.block, data_type=_DT[fmt],
                     mantissa_rounding=mode.options["mantissa_rounding"])
    y = y.reshape(x.shape).contiguous()
    if y.dtype == torch.bfloat16:
        return y.view(torch.int16).numpy().view(x.dtype)
    return y.numpy()
