"""Intel Neural Compressor (neural_compressor): its MX fake-quantize, run on the CPU.

Path (neural_compressor 3.10, ``torch/algorithms/mx_quant/utils.py``): ``quantize_mx_op(x, elem,
round, 32, axes=[-1])``, what ``MXLinear`` (``mx.py``, built by ``MXQuantConfig``) applies to its
weight and, unless weight-only, its input.  ``quantize_mx_op`` calls ``_quantize_mx``:

- ``_shared_exponents(method="max")``: ``floor(torch.log2(amax + FP32_MIN_NORMAL * (amax ==
  0)))`` in the input dtype (``torch.max`` propagates NaN; Inf gives Inf), minus the element's
  emax; above 127 the exponent is NaN (a NaN block), below -127 it is -127;
- ``A / 2**shared_exp`` in the input dtype;
- ``_quantize_elemwise_core(..., saturate_normals=True)``: a private exponent
  ``floor(torch.log2(|q| + (q == 0)))`` clipped at the element's emin, the scaled mantissa
  rounded by ``_round_mantissa`` as ``sign(x) * floor(|x| + 0.5)`` ('nearest', the default of
  ``MXQuantConfig``), ``... - ((|x| - 0.5) % 2 == 0)`` ('even') or ``sign(x) * floor(|x|)``
  ('floor'), then clamped to +-max_norm;
- ``* 2**shared_exp``.

Output: the dequantized values in the input dtype.  Inputs FP32, BF16, FP64; FP16 is not run
(2**shared_exp is formed in float16, which underflows to 0 for most blocks: 0/0 and x/0).  The
MXLinear wrapper's optional element-wise cast to ``out_dtype`` (bfloat16 by default) before the
MX step is a separate op, not part of this path.

Exceptions: ``floor(|x| + 0.5)`` with the sum rounded in the input dtype.  For |x| the largest
value below 1/2 (0.5 - 2^-25 in FP32, 0.5 - 2^-9 in BF16, 0.5 - 2^-54 in FP64) the sum is a tie
that rounds to 1, so the element rounds up to one step where every round-to-nearest gives 0
(the element's quotient just below half its smallest step).  And, under 'floor', a private
exponent ``floor(torch.log2(|q|))`` that the rounding of log2 pushes up by one just below a power
of two, which truncates at twice the step.  ``exception`` re-runs the library on the block and
compares it bit for bit with ``_model``, an emulation of ``_quantize_mx`` in the input dtype.
"""
from __future__ import annotations

import os

import numpy as np

from . import Mode

NAME = "inc"
PACKAGE = "neural_compressor"
TESTED = "3.10"
LIGHT = False
MAPPING = ("the op's dequantized output in the input dtype, compared with mxgold's dequantize "
           "(no codes: quantize_mx_op returns fake-quantized values); INT8 has one zero code, "
           "so a -0 the op returns for a negative INT8 element that rounds to 0 is read as the "
           "value 0 (+0)")
SABOTAGE = {"zero_sign": "keep"}

_ELEM = {"e4m3": "fp8_e4m3", "e5m2": "fp8_e5m2", "e3m2": "fp6_e3m2", "e2m3": "fp6_e2m3",
         "e2m1": "fp4_e2m1", "int8": "int8"}
_INPUTS = ("fp32", "bf16", "fp64")
_PATH = ("neural_compressor.torch.algorithms.mx_quant.utils.quantize_mx_op(x, elem, '{r}', 32, "
         "axes=[-1]) -> _quantize_mx")

# round_method -> (mode name, mxgold rounding; None: the profile's)
_ROUNDS = (("nearest", "mx", None), ("even", "mx-even", "rne"), ("floor", "mx-floor", "rtz"))


def modes() -> list[Mode]:
    return [Mode(kind="block", name=name, profile="inc-mx", rounding=rnd, formats=tuple(_ELEM),
                 inputs=_INPUTS, output="values", options={"round": r},
                 path=_PATH.format(r=r),
                 note=("round_method='nearest', the MXQuantConfig default" if r == "nearest"
                       else f"round_method='{r}'") + "; no float16 input")
            for r, name, rnd in _ROUNDS]


_TORCH = None


def _torch():
    global _TORCH
    if _TORCH is None:
        os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
        import torch
        _TORCH = torch
    return _TORCH


def _to_torch(x: np.ndarray):
    torch = _torch()
    x = np.ascontiguousarray(x)
    if x.dtype.name == "bfloat16":
        return torch.from_numpy(x.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(x.copy())


def run(mode: Mode, fmt: str, x: np.ndarray, rbits=None):
    torch = _torch()
    from neural_compressor.torch.algorithms.mx_quant.utils import quantize_mx_op

    t = _to_torch(x)
    with torch.no_grad():
        y = quantize_mx_op(t, _ELEM[fmt], mode.options["round"], x.shape[1], axes=[-1])
    y = y.detach().contiguous()
    if fmt == "int8":
        y = y + 0.0  # -0 + 0 = +0: the one zero of INT8 (MAPPING)
    if y.dtype == torch.bfloat16:
        return y.view(torch.int16).numpy().view(x.dtype)
    return y.numpy()


# ---------------------------------------------------------------------------------------------
# the model of INC's arithmetic, and the exceptions it proves

# (ebits, mbits incl. sign and implicit bit, emax, max_norm) as utils._get_format_params sets them
_PARAMS = {"e4m3": (4, 5, 8, 448.0), "e5m2": (5, 4, 15, 57344.0), "e3m2": (3, 4, 4, 28.0),
           "e2m3": (2, 5, 2, 7.5), "e2m1": (2, 3, 2, 6.0), "int8": (0, 8, 0, 127 / 64)}


def _rounder(inp: str):
    """r(v): float64 values rounded (RNE, gradual underflow) to the input dtype and back."""
    from ._inputs import dtype

    dt = dtype(inp)

    def r(v):
        with np.errstate(all="ignore"):
            return np.asarray(v, np.float64).astype(dt).astype(np.float64)
    return r


def _log2(v, inp: str):
    """torch.log2 on a tensor of the input dtype: log2f (correctly rounded here) then the input
    dtype; FP64: log2 in double."""
    from ._inputs import dtype

    with np.errstate(all="ignore"):
        v = np.asarray(v, np.float64)
        if inp == "fp64":
            return np.log2(v)
        return np.log2(v).astype(np.float32).astype(dtype(inp)).astype(np.float64)


def _model(x: np.ndarray, fmt: str, rnd: str, inp: str) -> tuple[np.ndarray, list[str]]:
    """INC's ``_quantize_mx`` on one block, every operation rounded to the input dtype (the
    output, in x's dtype), and the conditions no policy field expresses."""
    ebits, mbits, emax, max_norm = _PARAMS[fmt]
    r = _rounder(inp)
    why: list[str] = []
    xs = np.asarray(x).astype(np.float64)
    if np.isnan(xs).any():
        return np.full(xs.shape, np.nan).astype(x.dtype), why
    a = float(np.max(np.abs(xs)))
    if a == 0:
        a = float(r(2.0 ** -126))
    se = float(np.floor(_log2(a, inp))) - emax
    if not se <= 127:
        return np.full(xs.shape, np.nan).astype(x.dtype), why
    se = max(se, -127.0)
    with np.errstate(all="ignore"):
        q = r(xs / r(2.0 ** se))
        if ebits:
            lg = _log2(np.abs(q) + (q == 0), inp)
            pe = np.maximum(np.floor(lg), 2.0 - 2 ** (ebits - 1))
            if rnd == "floor":
                ex = (np.frexp(np.abs(q) + (q == 0))[1] - 1).astype(np.float64)  # exact
                ex = np.maximum(ex, 2.0 - 2 ** (ebits - 1))
                if (pe != ex).any():
                    i = int(np.nonzero(pe != ex)[0][0])
                    why.append(f"log2-up: element {i}'s quotient {q[i]!r} is below 2^{int(pe[i])}"
                               f" but torch.log2 in {inp} rounds to {lg[i]!r}, so 'floor' "
                               "truncates at twice the step")
            s = r(r(q / r(2.0 ** pe)) * 2.0 ** (mbits - 2))
        else:
            pe = np.zeros_like(q)
            s = r(q * 2.0 ** (mbits - 2))
        ab = np.abs(s)
        if rnd == "floor":
            m = np.floor(ab)
        else:
            # the library: the sum (and, 'even', the difference) rounded in the input dtype;
            # exact, floor(|x| + 1/2) is ties away and the mask makes it ties to even
            m = np.floor(r(ab + 0.5))
            exact = np.floor(ab + 0.5)
            if rnd == "even":
                m = m - (r(np.mod(r(ab - 0.5), 2.0)) == 0)
                exact = exact - (np.mod(ab - 0.5, 2.0) == 0)
            bad = m != exact
            if bad.any():
                i = int(np.nonzero(bad)[0][0])
                why.append(f"half-add-carry: element {i}'s scaled mantissa {s[i]!r} is the "
                           f"largest {inp} below 1/2, |x| + 0.5 rounds to 1 in {inp}, so it "
                           "rounds up to one step")
        sign = (s > 0).astype(np.float64) - (s < 0)  # torch.sign: 0 for -0
        out = sign * m
        out = r(r(out / 2.0 ** (mbits - 2)) * r(2.0 ** pe))
        out = np.clip(out, -max_norm, max_norm)
        out = r(out * r(2.0 ** se))
    return out.astype(x.dtype), why


def exception(mode: Mode, fmt: str, inp: str, cls: str, x_row: np.ndarray, described: dict):
    """A block no policy expresses, proven: the library's output equals ``_model`` bit for bit,
    and the model names the deciding condition."""
    from .quark import _same_values

    out, why = _model(np.asarray(x_row), fmt, mode.options["round"], inp)
    if not why:
        return None
    if fmt == "int8":
        out = out + out.dtype.type(0)  # as run() reads INT8 zeros
    lib = run(mode, fmt, np.asarray(x_row)[None, :])
    return "; ".join(why) if _same_values(np.asarray(lib).reshape(-1), out) else None
