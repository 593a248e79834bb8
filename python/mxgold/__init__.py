"""mxgold: a bit-exact reference model of the OCP Microscaling (MX) formats, on numpy arrays.

The exact engine is libmxgold (MPFR); the fast one is libmxk, used only where it gives the same
bits.  Names of formats, roundings, policy fields and profiles come from the C library's tables.
Guide: docs/python.md.

>>> import numpy as np, mxgold
>>> q = mxgold.quantize(np.array([1.0, 2.0, 3.0, 4.0], np.float32), "e2m1", block=4)
>>> q.scales, q.codes
(array([127], dtype=uint8), array([2, 4, 5, 6], dtype=uint8))
>>> q.dequantize()
array([1., 2., 3., 4.], dtype=float32)
"""
from . import _core, _names
from ._array import MXArray, PackedMXArray, fake_quantize, quantize
from ._formats import (FLAG_INEXACT, FLAG_INVALID, FLAG_NAMES, FLAG_OVERFLOW,
                       FLAG_SCALE_CLAMPED, FLAG_UNDERFLOW, Format, format, formats, policy,
                       profiles, scale_format)
from ._mxs import MXSArray, dequantize_mxs, quantize_mxs
from ._mxs import bits_per_element as mxs_bits_per_element
from ._mxs import element_format as mxs_element_format
from ._nvfp4 import (NVFP4Array, dequantize_nvfp4, nvfp4_amax, nvfp4_global_scale,
                     quantize_nvfp4)
from ._ops import cast, decode, dot, matmul
from ._plan import ParetoPoint, Plan, plan_formats
from ._table import Table, compare_formats, format_table

__version__ = _core.versions()[1]

ROUNDINGS = tuple(_names.ROUNDINGS)
ACCUMS = tuple(_names.ACCUMS)
TC_PRESETS = tuple(_names.TC_PRESETS)
PACKINGS = tuple(_names.PACKINGS)
MXS_FORMATS = {n: dict(d) for n, d in _names.MXS_FORMATS.items()}
FLAGS = dict(FLAG_NAMES)


def version() -> dict:
    """Versions of the package, the C library it runs, MPFR, and the kernel path on this CPU.

    >>> sorted(mxgold.version())
    ['kernels', 'library', 'mpfr', 'package']
    """
    lib, hdr, mpfr = _core.versions()
    return {"package": __version__, "library": lib, "mpfr": mpfr,
            "kernels": _core.kernel_path()}


__all__ = ["quantize", "fake_quantize", "MXArray", "PackedMXArray", "cast", "decode", "dot",
           "matmul", "format", "scale_format", "Format", "formats", "profiles", "policy",
           "compare_formats", "format_table", "Table", "plan_formats", "Plan", "ParetoPoint",
           "version", "ROUNDINGS", "ACCUMS", "TC_PRESETS", "PACKINGS", "FLAGS",
           "quantize_nvfp4", "dequantize_nvfp4", "nvfp4_amax", "nvfp4_global_scale",
           "NVFP4Array", "quantize_mxs", "dequantize_mxs", "MXSArray", "mxs_element_format",
           "mxs_bits_per_element", "MXS_FORMATS"]
