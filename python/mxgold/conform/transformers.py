"""Hugging Face transformers: the MXFP4 dequantization of gpt-oss checkpoints, on CPU.

Path: ``transformers.integrations.mxfp4.convert_moe_packed_tensors(blocks, scales, dtype=...)``
(``_convert_moe_packed_tensors``): a 16-entry FP4 table indexed by each nibble (low nibble first),
then ``torch.ldexp(value, scale - 127)`` into a tensor of ``dtype``.  transformers has no MXFP4
quantizer on the CPU (``quantize_to_mxfp4`` needs the triton_kernels hub), so the codes it
decodes are mxgold's own at the mode's profile: the comparison checks the decoding only.
"""
from __future__ import annotations

import numpy as np

from . import Mode

NAME = "transformers"
PACKAGE = "transformers"
TESTED = "5.16.1"
LIGHT = False
MAPPING = ("decode only: mxgold's codes and E8M0 scales (at the mode's profile) packed two per "
           "byte, low nibble first, as gpt-oss stores them; the library's dequantized values in "
           "the input dtype are compared with mxgold's dequantize")
SABOTAGE = {"zero_sign": "positive"}


def modes() -> list[Mode]:
    return [Mode(kind="block", name="dequant", profile="ocp", formats=("e2m1",),
                 inputs=("fp32", "fp16", "bf16"), output="values",
                 path=("transformers.integrations.mxfp4.convert_moe_packed_tensors(blocks, "
                       "scales, dtype=<input dtype>)"),
                 note="decoding only (the codes are mxgold's); a NaN scale (0xFF) is decoded as "
                      "2^128: exceptions")]


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None) -> np.ndarray:
    import torch
    from transformers.integrations.mxfp4 import convert_moe_packed_tensors

    import mxgold

    q = mxgold.quantize(x, fmt, block=x.shape[1], profile=mode.profile, rounding=mode.rounding,
                        **mode.policy)
    codes = q.codes.reshape(x.shape).astype(np.uint8)
    packed = (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
    nb = x.shape[0]
    blocks = torch.from_numpy(packed.reshape(1, nb, 1, x.shape[1] // 2).copy())
    scales = torch.from_numpy(q.scales.reshape(1, nb, 1).astype(np.uint8).copy())
    dt = {"float32": torch.float32, "float16": torch.float16,
          "bfloat16": torch.bfloat16}[x.dtype.name]
    with torch.no_grad():
        out = convert_moe_packed_tensors(blocks, scales, dtype=dt)  # (1, 32, nb)
    out = out[0].transpose(0, 1).contiguous()
    if dt == torch.bfloat16:
        return out.view(torch.int16).numpy().view(x.dtype)
    return out.numpy()


def exception(mode: Mode, fmt: str, inp: str, cls: str, x_row: np.ndarray, described: dict):
    """E8M0 0xFF (NaN) is decoded as 2^128: ldexp(v, 255 - 127) keeps a zero and turns any other
    value into +-Inf, so a NaN-scale block is not NaN.  Proven on the block: the library's
    output is exactly ldexp(element, 128) in the input dtype."""
    if described.get("mxgold_scale") != "0xff":
        return None
    import mxgold

    x = np.asarray(x_row)[None, :]
    q = mxgold.quantize(x, fmt, block=x.shape[1], profile=mode.profile, rounding=mode.rounding,
                        **mode.policy)
    v = mxgold.decode(q.codes.reshape(-1).astype(np.uint8), fmt, np.float64)
    with np.errstate(over="ignore"):
        want = np.ldexp(v, 128).astype(x.dtype)
    got = np.asarray(run(mode, fmt, x)).reshape(-1)
    from ._runner import _bits_of

    if (_bits_of(np.ascontiguousarray(got)) == _bits_of(np.ascontiguousarray(want))).all():
        return "E8M0 0xFF decoded as 2^128 (torch.ldexp(v, 128)): zeros stay zeros, no NaN"
    return None
