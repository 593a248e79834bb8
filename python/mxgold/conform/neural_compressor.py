"""Intel Neural Compressor: the MX quantize of its torch mx_quant algorithm (a port of
microsoft/microxcaling), on CPU.

Path: ``neural_compressor.torch.algorithms.mx_quant.utils.quantize_mx_op(A, elem_format, round,
block_size=32, scale_bits=8, axes=-1)`` (``_quantize_mx``: ``floor(log2(amax))`` in A's dtype,
``shared_exp > 127 -> NaN``, ``< -127 -> -127``; ``_quantize_elemwise_core`` with
``saturate_normals=True``).  It returns dequantized values in the input's dtype.
"""
from __future__ import annotations

import numpy as np

from . import Mode

NAME = "neural_compressor"
PACKAGE = "neural-compressor"
TESTED = "3.10"
LIGHT = False
MAPPING = "the op's dequantized output in the input dtype, compared with mxgold's dequantize"
SABOTAGE = {"scale_rule": "ceil"}

_ELEM = {"e4m3": "fp8_e4m3", "e5m2": "fp8_e5m2", "e2m3": "fp6_e2m3", "e3m2": "fp6_e3m2",
         "e2m1": "fp4", "int8": "int8"}
_ROUND = {"nearest": "rna", "even": "rne", "floor": "rtz"}


def modes() -> list[Mode]:
    return [Mode(kind="block", name=f"round={r}", profile="microxcaling", rounding=rnd,
                 policy={"scale_rule": "floor-log2-input"}, formats=tuple(_ELEM),
                 inputs=("fp32",), output="values", options={"round": r},
                 note=("zero signs: a -0 input gives +0 (torch.sign(-0) is 0) while a negative "
                       "value rounding to 0 gives -0 (INT8: a -0.0 value); FP16/BF16 inputs are "
                       "computed in the input dtype (2**e underflows to 0 in FP16: NaN blocks) "
                       "and are not run"),
                 path=("neural_compressor.torch.algorithms.mx_quant.utils.quantize_mx_op(x, elem, "
                       f"'{r}', 32, axes=-1)"))
            for r, rnd in _ROUND.items()]


def _torch(x):
    import torch

    if x.dtype.name == "bfloat16":
        return torch.from_numpy(np.ascontiguousarray(x).view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(x).copy())


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None) -> np.ndarray:
    import torch
    from neural_compressor.torch.algorithms.mx_quant.utils import quantize_mx_op

    with torch.no_grad():
        y = quantize_mx_op(_torch(x), _ELEM[fmt], mode.options["round"], mode.block, axes=-1)
    y = y.contiguous()
    if y.dtype == torch.bfloat16:
        return y.view(torch.int16).numpy().view(x.dtype)
    return y.numpy()
