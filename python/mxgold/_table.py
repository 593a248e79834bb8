"""compare_formats and format_table: pychop's compare_mx_formats / print_mx_format_table, exact."""
from __future__ import annotations

import sys
from typing import Any, Iterable

import numpy as np

from ._array import quantize
from ._formats import FormatLike, _BUILTIN, resolve_format


class Table(list):
    """A list of dicts (one per row) that prints as an aligned text table and has
    :meth:`to_markdown`."""

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        cols = list(self[0]) if self else []
        def cell(v):
            if isinstance(v, float):
                return f"{v:.6g}"
            return str(v)
        return cols, [[cell(r.get(c, "")) for c in cols] for r in self]

    def __str__(self) -> str:
        cols, rows = self._cells()
        w = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
        lines = ["  ".join(c.ljust(w[i]) for i, c in enumerate(cols)).rstrip(),
                 "  ".join("-" * x for x in w)]
        lines += ["  ".join(v.rjust(w[i]) if i else v.ljust(w[i]) for i, v in enumerate(r))
                  .rstrip() for r in rows]
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The table in Markdown (GitHub) syntax."""
        cols, rows = self._cells()
        out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(out)


def compare_formats(x, formats: Iterable[FormatLike] | None = None, *, block: int = 32,
                    **quantize_args: Any) -> Table:
    """Quantize x to each format and tabulate what it costs: bits per element, MSE, SQNR (dB),
    max abs error, saturated share (:meth:`MXArray.statistics`).  ``formats`` defaults to the six
    OCP element formats; other arguments go to :func:`quantize`.

    >>> x = np.linspace(-1, 1, 64, dtype=np.float32)
    >>> t = mxgold.compare_formats(x, ["e4m3", "e2m1"])
    >>> [(r["format"], r["bits_per_element"]) for r in t]
    [('e4m3', 8.25), ('e2m1', 4.25)]
    """
    if formats is None:
        formats = [n for n, f in _BUILTIN.items() if f.role == "element"]
    rows = Table()
    for f in formats:
        fmt = resolve_format(f, "element", "formats")
        s = quantize(x, fmt, block=block, **quantize_args).statistics()
        rows.append({"format": fmt.name, "bits_per_element": s["bits_per_element"],
                     "mse": s["mse"], "sqnr_db": s["sqnr_db"],
                     "max_abs_error": s["max_abs_error"], "saturated": s["saturated"]})
    return rows


def format_table(file=None) -> None:
    """Print the built-in formats: bits, exponent and mantissa bits, bias, largest finite,
    smallest normal and smallest positive values, special values.

    >>> mxgold.format_table()  # doctest: +ELLIPSIS
    name   alias       role     bits  ebits  mbits  bias  max  ...
    -----...
    e4m3   mxfp8_e4m3  element     8      4      3     7  448  ...
    """
    rows = Table()
    for f in _BUILTIN.values():
        rows.append({"name": f.name, "alias": f.alias, "role": f.role, "bits": f.bits,
                     "ebits": f.ebits, "mbits": f.mbits, "bias": f.bias,
                     "max": float(f.max), "min_normal": float(f.min_normal),
                     "min_subnormal": float(f.min_subnormal), "specials": f.special})
    print(rows, file=file or sys.stdout)
