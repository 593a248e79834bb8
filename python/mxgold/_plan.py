"""plan_formats: one MX element format per tensor (or group of tensors) for a target average of
bits per element, by the exact squared error of each choice (docs/planning.md)."""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from . import _core
from ._array import quantize
from ._formats import FormatLike, _check_int, input_format, resolve_format
from ._safetensors import SafeTensors
from ._io import write_atomic
from ._table import Table

#------------------------------------------------------------ exact sums -#
# A dyadic rational n * 2^e is kept as the pair (n, e) of Python ints while it is summed.
_LIMB = 18
_LIMB_MASK = (1 << _LIMB) - 1
# Each of the 5 limb-product coefficients is below 3 * 2^36 < 2^38 in magnitude, so a chunk of
# 2^22 of them sums in int64 with room to spare.
_CHUNK = 1 << 22


def _mant_exp(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(m, e) with |a| = m * 2^e exactly: m a 53-bit int64, e an int16 (a finite, nonzero)."""
    mant, e = np.frexp(np.abs(a))
    return np.ldexp(mant, 53).astype(np.int64), (e - 53).astype(np.int16)


def _limbs(m: np.ndarray) -> list[np.ndarray]:
    return [m & _LIMB_MASK, (m >> _LIMB) & _LIMB_MASK, m >> (2 * _LIMB)]


def _dot_chunk(a: np.ndarray, b: np.ndarray | None) -> tuple[int, int]:
    """(n, e) with sum a_i * b_i = n * 2^e (b None: sum a_i^2)."""
    keep = a != 0 if b is None else (a != 0) & (b != 0)
    a = a[keep]
    if a.size == 0:
        return 0, 0
    ma, ea = _mant_exp(a)
    la = _limbs(ma)
    if b is None:
        lb, e, neg = la, ea + ea, None
    else:
        b = b[keep]
        mb, eb = _mant_exp(b)
        lb, e, neg = _limbs(mb), ea + eb, np.signbit(a) ^ np.signbit(b)
    # m_a * m_b = sum over k of c_k 2^(18k): summed per exponent bucket, in int64
    order = np.argsort(e, kind="stable")  # a radix sort on int16
    es = e[order]
    starts = np.flatnonzero(np.concatenate(([True], es[1:] != es[:-1])))
    sums = []
    for k in range(5):
        c = sum(la[i] * lb[k - i] for i in range(max(0, k - 2), min(k, 2) + 1))
        if neg is not None:
            c = np.where(neg, -c, c)
        sums.append(np.add.reduceat(c[order], starts).tolist())
    e0 = int(es[0])
    total = 0
    for j, s in enumerate(starts.tolist()):
        v = sum(sums[k][j] << (_LIMB * k) for k in range(5))
        total += v << (int(es[s]) - e0)
    return total, e0


def _exact_dot(a: np.ndarray, b: np.ndarray | None = None) -> Fraction:
    """sum a_i * b_i (b None: sum a_i^2) of float64 arrays of finite values, exactly."""
    total = Fraction(0)
    for i in range(0, a.size, _CHUNK):
        n, e = _dot_chunk(a[i:i + _CHUNK], None if b is None else b[i:i + _CHUNK])
        total += n * Fraction(2) ** e
    return total


def squared_error(x: np.ndarray, q: np.ndarray) -> Fraction:
    """sum (x_i - q_i)^2 of two float64 arrays of finite values, exactly.

    x - q = s + t exactly (TwoSum, exact without overflow); t is 0 wherever float64 subtraction
    was exact, as it is wherever q is 0 or within a factor 2 of x (Sterbenz).  The few elements
    where TwoSum overflowed are summed with Fractions.

    >>> x = np.array([1 + 2.0**-52, 2.0**-1074]); q = np.array([1.0, 0.0])
    >>> squared_error(x, q) == Fraction(1, 2**104) + Fraction(1, 2**2148)
    True
    """
    x, q = np.asarray(x, np.float64).reshape(-1), np.asarray(q, np.float64).reshape(-1)
    with np.errstate(over="ignore", invalid="ignore"):
        s = x - q
        bb = s - x
        t = (x - (s - bb)) + (-q - bb)
    bad = ~np.isfinite(t)  # an overflowed s makes t NaN too
    total = sum((Fraction(float(u)) - Fraction(float(v))) ** 2 for u, v in zip(x[bad], q[bad]))
    if bad.any():
        s, t = s[~bad], t[~bad]
    total += _exact_dot(s)
    inexact = t != 0
    if inexact.any():
        s, t = s[inexact], t[inexact]
        total += 2 * _exact_dot(s, t) + _exact_dot(t)
    return Fraction(total)


def _sqnr_db(signal: Fraction, error: Fraction) -> float:
    """10 log10(signal / error) from the exact values (math.log10 takes ints of any size)."""
    if error == 0:
        return math.inf
    if signal == 0:
        return -math.inf
    return 10 * (math.log10(signal.numerator * error.denominator)
                 - math.log10(signal.denominator * error.numerator))


#--------------------------------------------------------------- planning -#
@dataclass(frozen=True)
class ParetoPoint:
    """One non-dominated assignment: no other has both fewer bits and less error.  ``formats``
    has one format name per group, in :attr:`Plan.groups` order."""
    avg_bits: Fraction
    error: Fraction
    sqnr_db: float
    formats: tuple


@dataclass(frozen=True)
class _Measured:
    """What a plan is made from, whatever the target: the exact error of every (tensor, option)
    and the Pareto front of the assignments of options to groups."""
    options: tuple          # format names
    units: tuple            # bits per element of each option, times block (integers)
    block: int
    shapes: dict            # tensor -> shape, in the order given
    errors: dict            # (tensor, format) -> Fraction
    signal: dict            # tensor -> Fraction: sum of x^2 over the compared elements
    nonfinite: dict         # tensor -> count of NaN/Inf inputs
    lost: dict              # tensor -> count of finite inputs that an option made NaN/Inf
    groups: tuple           # tuples of tensor names
    front: list             # (units, error, option index per group), units increasing

    @property
    def size(self) -> int:
        return sum(math.prod(s) for s in self.shapes.values())


@dataclass(frozen=True, eq=False)
class Plan:
    """The result of :func:`plan_formats`.

    ``choice`` maps every tensor to its format; ``avg_bits`` (a Fraction; ``avg_bits_float``)
    is the size-weighted mean of bits per element; ``error`` the exact total squared error;
    ``sqnr_db`` 10 log10(sum x^2 / error) over every tensor; ``per_tensor`` a
    :class:`~mxgold.Table`; ``front`` the Pareto front as :class:`ParetoPoint`s by increasing
    bits.  ``errors[(tensor, format)]`` is each exact squared error, ``nonfinite[tensor]`` the
    count of NaN/Inf inputs left out, ``bits`` the bits per element of each option.
    :meth:`at` plans again for another target from the same measurements, at no cost.
    """
    options: tuple
    block: int
    target_bits: Fraction
    groups: tuple
    choice: dict
    avg_bits: Fraction
    error: Fraction
    sqnr_db: float
    per_tensor: Table = field(repr=False)
    front: list = field(repr=False)
    errors: dict = field(repr=False)
    nonfinite: dict = field(repr=False)
    _m: _Measured = field(repr=False)

    @property
    def avg_bits_float(self) -> float:
        return float(self.avg_bits)

    @property
    def bits(self) -> dict:
        """Bits per element of each option: element bits + scale bits / block (a Fraction)."""
        return {o: Fraction(u, self.block) for o, u in zip(self.options, self._m.units)}

    def counts(self) -> dict:
        """Tensors per format, every option listed."""
        return {o: sum(1 for f in self.choice.values() if f == o) for o in self.options}

    def at(self, target_bits) -> "Plan":
        """The plan for another target, from the same measurements."""
        return _make_plan(self._m, target_bits)

    def _summary(self) -> list[str]:
        m = self._m
        opts = ", ".join(f"{o} ({u / m.block:g} bits)" for o, u in zip(m.options, m.units))
        counts = ", ".join(f"{o}: {n}" for o, n in self.counts().items())
        return [f"{_count(len(m.shapes), 'tensor')} ({m.size} elements) in "
                f"{_count(len(m.groups), 'group')}; "
                f"options {opts}; block {m.block}",
                f"target {_num(self.target_bits)} bits per element: average "
                f"{_num(self.avg_bits)} bits, SQNR {self.sqnr_db:.4f} dB ({counts})"]

    def front_table(self) -> Table:
        """The Pareto front as a Table: average bits, SQNR, tensors per format, the plan's
        point marked."""
        t = Table()
        for p in self.front:
            row = {"avg_bits": float(p.avg_bits), "sqnr_db": p.sqnr_db}
            for o in self.options:
                row[o] = sum(len(g) for g, f in zip(self.groups, p.formats) if f == o)
            row["plan"] = "*" if (p.avg_bits, p.error) == (self.avg_bits, self.error) else ""
            t.append(row)
        return t

    def __str__(self) -> str:
        front = self.front_table()
        head = f"Pareto front ({len(front)} points):"
        if len(front) > 2 * _AROUND + 1:  # a long front: the points around the plan's
            i = next(i for i, r in enumerate(front) if r["plan"])
            lo = max(0, min(i - _AROUND, len(front) - 2 * _AROUND - 1))
            front = Table(front[lo:lo + 2 * _AROUND + 1])
            head = (f"Pareto front ({len(self.front)} points; points {lo + 1} to "
                    f"{lo + len(front)} shown, all in .front and to_markdown()):")
        return "\n".join(self._summary() + ["", str(self.per_tensor), "", head, str(front)])

    def to_markdown(self) -> str:
        """The summary, the per-tensor table and the Pareto front in Markdown."""
        return "\n".join([f"- {s}" for s in self._summary()] + [
            "", self.per_tensor.to_markdown(), "",
            f"Pareto front ({len(self.front)} points):", "", self.front_table().to_markdown()])

    def to_dict(self) -> dict:
        """Everything as JSON-ready values: exact numbers as "n/d" strings beside their floats,
        infinite SQNRs as "inf"."""
        def num(f: Fraction) -> dict:
            return {"exact": str(f), "float": float(f)}
        return {
            "options": list(self.options), "block": self.block,
            "target_bits": num(self.target_bits), "avg_bits": num(self.avg_bits),
            "error": num(self.error), "sqnr_db": _json_float(self.sqnr_db),
            "choice": self.choice, "groups": [list(g) for g in self.groups],
            "tensors": [{**{k: _json_float(v) for k, v in row.items()},
                         "errors": {o: num(self.errors[row["tensor"], o])
                                    for o in self.options}} for row in self.per_tensor],
            "front": [{"avg_bits": num(p.avg_bits), "error": num(p.error),
                       "sqnr_db": _json_float(p.sqnr_db), "formats": list(p.formats)}
                      for p in self.front],
        }


_AROUND = 20  # str(Plan) shows this many front points on either side of the plan


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _num(f: Fraction) -> str:
    return str(f) if f.denominator == 1 else f"{float(f):.6g} ({f})"


def _json_float(v):
    return v if not isinstance(v, float) or math.isfinite(v) else str(v)


def _as_target(t) -> Fraction:
    if isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating, Rational,
                                                 Decimal)):
        raise TypeError(f"target_bits must be a number, not {type(t).__name__}")
    if isinstance(t, (float, np.floating)):
        if not math.isfinite(t):
            raise ValueError(f"target_bits={t} is not finite")
        return Fraction(repr(float(t)))  # 7.8 means 39/5, as written
    try:
        return Fraction(t)
    except (ValueError, OverflowError):  # Decimal NaN and Infinity
        raise ValueError(f"target_bits={t} is not finite") from None


def _check_options(options) -> list:
    if isinstance(options, (str, bytes)) or not isinstance(options, Iterable):
        raise TypeError("options must be a list of element formats, e.g. ['e2m1', 'e4m3']")
    fmts = [resolve_format(o, "element", "options") for o in options]
    if not fmts:
        raise ValueError("options is empty; give at least one element format")
    names = [f.name for f in fmts]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise ValueError(f"options: {n} is given twice")
    return fmts


def _check_tensors(tensors, block: int) -> dict:
    if not isinstance(tensors, Mapping):
        raise TypeError(f"tensors must be a dict of name -> array, not {type(tensors).__name__}")
    if not tensors:
        raise ValueError("tensors is empty")
    out = {}
    for name, x in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"tensors: the name {name!r} is not a string")
        x = np.asarray(x)
        try:
            input_format(x.dtype)
        except TypeError as e:
            raise TypeError(f"tensor {name!r}: {e}") from None
        if x.ndim == 0 or x.size == 0:
            raise ValueError(f"tensor {name!r} of shape {x.shape} has no blocks to quantize")
        if x.shape[-1] % block:
            raise ValueError(f"tensor {name!r} of shape {x.shape}: the last axis, "
                             f"{x.shape[-1]}, is not a multiple of block={block}")
        out[name] = x
    return out


def _check_groups(groups, names: list) -> tuple:
    if groups is None:
        return tuple((n,) for n in names)
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Iterable):
        raise TypeError("groups must be a list of lists of tensor names")
    seen, out = set(), []
    for i, g in enumerate(groups):
        if isinstance(g, (str, bytes)) or not isinstance(g, Iterable):
            raise TypeError(f"groups[{i}] must be a list of tensor names, not "
                            f"{type(g).__name__}")
        g = tuple(g)
        if not g:
            raise ValueError(f"groups[{i}] is empty")
        for n in g:
            if n not in names:
                raise ValueError(f"groups[{i}]: {n!r} is not a tensor name")
            if n in seen:
                raise ValueError(f"groups: tensor {n!r} is in more than one group")
            seen.add(n)
        out.append(g)
    for n in names:
        if n not in seen:
            raise ValueError(f"groups: tensor {n!r} is in no group (every tensor must be in "
                             "exactly one)")
    return tuple(out)


def _pareto(costs: list, errs: list) -> list:
    """Every non-dominated (units, error, assignment) over the groups, by increasing units.

    costs[g][o], errs[g][o]: the integer units and integer error of option o for group g.  Among
    assignments of equal units and error the lexicographically smallest (by option index, group
    by group) is kept; so the rank of each kept prefix in that order is enough to break ties
    when it is extended, and a parent pointer rebuilds it."""
    front = [(0, 0, 0)]                 # (units, error, lexicographic rank)
    levels = []                         # per group: (parent index, option) of each kept point
    for cu, ce in zip(costs, errs):
        cand = sorted((u + cu[o], e + ce[o], r, o, i) for i, (u, e, r) in enumerate(front)
                      for o in range(len(cu)))
        kept = []
        for c in cand:
            if not kept or c[1] < kept[-1][1]:
                kept.append(c)
        rank = [0] * len(kept)
        for pos, j in enumerate(sorted(range(len(kept)), key=lambda j: kept[j][2:4])):
            rank[j] = pos
        front = [(c[0], c[1], rank[j]) for j, c in enumerate(kept)]
        levels.append([(c[4], c[3]) for c in kept])
    out = []
    for j, (u, e, _) in enumerate(front):
        assign = []
        for lv in reversed(levels):
            j, o = lv[j]
            assign.append(o)
        out.append((u, e, tuple(reversed(assign))))
    return out


def _measure(tensors: dict, fmts: list, groups: tuple, block: int, quantize_args: dict,
             progress) -> _Measured:
    names = list(tensors)
    errors, signal, nonfinite, lost = {}, {}, {}, {}
    for i, name in enumerate(names):
        if progress is not None:
            progress(i, len(names), name)
        x = tensors[name]
        x64 = x.astype(np.float64).reshape(-1)
        finite = np.isfinite(x64)
        qs = [quantize(x, f, block=block, pad=False, **quantize_args)
              .dequantize(np.float64).reshape(-1) for f in fmts]
        # every option is judged on the same elements: finite in and finite out under all
        ok = finite.copy()
        for q in qs:
            ok &= np.isfinite(q)
        nonfinite[name] = int(x64.size - np.count_nonzero(finite))
        lost[name] = int(np.count_nonzero(finite) - np.count_nonzero(ok))
        xo = x64[ok]
        signal[name] = _exact_dot(xo)
        for f, q in zip(fmts, qs):
            errors[name, f.name] = squared_error(xo, q[ok])
    sfmt_bits = quantize_args["scale_format"].bits
    units = tuple(f.bits * block + sfmt_bits for f in fmts)
    # errors are dyadic: as integers over one power of two, the DP adds ints, not Fractions
    k = max(e.denominator.bit_length() - 1 for e in errors.values())
    size = {n: math.prod(tensors[n].shape) for n in names}
    costs = [[sum(size[n] for n in g) * u for u in units] for g in groups]
    errs = [[sum(errors[n, f.name].numerator << (k + 1 - errors[n, f.name].denominator
                                                 .bit_length()) for n in g) for f in fmts]
            for g in groups]
    front = [(u, Fraction(e, 1 << k), a) for u, e, a in _pareto(costs, errs)]
    return _Measured(tuple(f.name for f in fmts), units, block,
                     {n: tuple(tensors[n].shape) for n in names}, errors, signal, nonfinite,
                     lost, groups, front)


def _make_plan(m: _Measured, target_bits) -> Plan:
    target = _as_target(target_bits)
    total = m.size
    budget = math.floor(target * total * m.block)       # in units of 1/block bit
    if m.front[0][0] > budget:
        least = Fraction(m.front[0][0], total * m.block)
        raise ValueError(f"target_bits={_num(target)} is below the smallest achievable average, "
                         f"{_num(least)} bits per element (every group in its fewest-bit option)")
    units, error, assign = [p for p in m.front if p[0] <= budget][-1]
    choice = {}
    for g, o in zip(m.groups, assign):
        for n in g:
            choice[n] = m.options[o]
    choice = {n: choice[n] for n in m.shapes}
    sig = sum(m.signal.values(), Fraction(0))
    rows = Table()
    for n, shape in m.shapes.items():
        fmt = choice[n]
        row = {"tensor": n, "shape": "x".join(map(str, shape)), "elements": math.prod(shape),
               "format": fmt, "bits": float(Fraction(m.units[m.options.index(fmt)], m.block))}
        for o in m.options:
            row[f"sqnr_{o}"] = _sqnr_db(m.signal[n], m.errors[n, o])
        row["nonfinite"] = m.nonfinite[n]
        if any(m.lost.values()):
            row["lost"] = m.lost[n]
        rows.append(row)
    front = [ParetoPoint(Fraction(u, total * m.block), e, _sqnr_db(sig, e),
                         tuple(m.options[o] for o in a)) for u, e, a in m.front]
    return Plan(m.options, m.block, target, m.groups, choice, Fraction(units, total * m.block),
                error, _sqnr_db(sig, error), rows, front, dict(m.errors), dict(m.nonfinite), m)


def plan_formats(tensors: Mapping[str, np.ndarray], options: Sequence[FormatLike], target_bits,
                 groups: Sequence[Sequence[str]] | None = None, *, block: int = 32,
                 rounding: str | None = None, profile: str = "ocp",
                 scale_format: FormatLike = "e8m0",
                 progress: Callable[[int, int, str], None] | None = None) -> Plan:
    """Choose one element format per group of tensors, among ``options``, that minimises the
    total exact squared error with an average of at most ``target_bits`` bits per element
    (Neural Compressor's MXFP4/MXFP8 mix by target bits, solved exactly).  docs/planning.md.

    Parameters
    ----------
    tensors : dict of name -> array (float32, float64, float16 or bfloat16), each quantized along
        its last axis in blocks of ``block``; that axis must be a multiple of ``block``.
    options : element formats (``["e2m1", "e4m3"]``).  An option costs its element bits plus
        the scale bits / block per element: e2m1 at block 32 is 4.25 bits, e4m3 8.25.
    target_bits : the largest allowed average, weighted by tensor size.  Exact: an int,
        Fraction or Decimal as is, a float as its shortest decimal (7.8 is 39/5).
    groups : lists of tensor names that must share a format; every tensor in exactly one.
        Default: each tensor alone.
    block, rounding, profile, scale_format : as in :func:`quantize` (None: the profile's rounding).
    progress : called as progress(i, n, name) before each tensor is measured.

    The error of a tensor under a format is sum (x - dequantize(quantize(x)))^2 over the
    elements that are finite in x and in every option's output, computed exactly (a Fraction,
    no rounding anywhere); NaN/Inf inputs are counted in ``Plan.nonfinite``.  The plan is the
    assignment of least error within the budget; ties go to fewer bits, then to the
    lexicographically smallest assignment by option order.  Returns a :class:`Plan` with the
    whole Pareto front.  ValueError when target_bits is below the smallest achievable average.

    >>> w = {"a": np.linspace(-1, 1, 64, dtype=np.float32),
    ...      "b": np.geomspace(1e-3, 1, 64).astype(np.float32)}
    >>> p = mxgold.plan_formats(w, ["e2m1", "e4m3"], 6.25)
    >>> p.choice, p.avg_bits
    ({'a': 'e4m3', 'b': 'e2m1'}, Fraction(25, 4))
    >>> [(float(q.avg_bits), round(q.sqnr_db, 2)) for q in p.front]
    [(4.25, 19.93), (6.25, 25.07), (8.25, 32.03)]
    """
    _check_int(block, "block", 1, _core.MAX_K)
    fmts = _check_options(options)
    tensors = _check_tensors(tensors, block)
    groups = _check_groups(groups, list(tensors))
    target = _as_target(target_bits)
    sfmt = resolve_format(scale_format, "scale", "scale_format")
    m = _measure(tensors, fmts, groups, block,
                 dict(rounding=rounding, profile=profile, scale_format=sfmt), progress)
    return _make_plan(m, target)


#-------------------------------------------------------------------- CLI -#
class _Bad(Exception):
    """Bad input or usage: the CLI prints the message and exits 2."""


_ST_FLOATS = {"F16": "float16", "BF16": "bfloat16", "F32": "float32", "F64": "float64"}


def _load(path: str, block: int, strict: bool, notes: list) -> dict:
    """The tensors of a .npz or .safetensors file that can be planned; the others are noted
    (an error under strict)."""
    ext = os.path.splitext(path)[1].lower()
    found = []                          # (name, dtype name, shape, read: () -> array)
    if ext == ".npz":
        try:
            npz = np.load(path, allow_pickle=False)
        except (OSError, ValueError, EOFError) as e:
            raise _Bad(f"{path}: not a readable .npz file ({e})") from None
        if not isinstance(npz, np.lib.npyio.NpzFile):
            raise _Bad(f"{path}: a single .npy array, not a .npz archive")
        with npz:
            for name in npz.files:
                try:
                    a = npz[name]
                except Exception as e:  # a bad member: zip, zlib, .npy header or pickle errors
                    raise _Bad(f"{path}: member {name!r}: {e}") from None
                found.append((name, a.dtype.name, a.shape, lambda a=a: a))
    elif ext == ".safetensors":
        try:
            st = SafeTensors(path)
        except OSError as e:
            raise _Bad(f"{path}: cannot read: {e.strerror}") from None
        except ValueError as e:
            raise _Bad(str(e)) from None
        for name, (dt, shape, _, _) in st.entries.items():
            found.append((name, _ST_FLOATS.get(dt, dt), shape, lambda name=name: st.array(name)))
    else:
        raise _Bad(f"{path}: unknown file type; accepted: .npz, .safetensors")
    out = {}
    for name, dt, shape, read in found:
        if dt not in _ST_FLOATS.values():
            why = f"dtype {dt} is not float32, float64, float16 or bfloat16"
        elif not shape or shape[-1] % block:
            why = f"shape {shape}: the last axis is not a multiple of --block {block}"
        elif 0 in shape:
            why = f"shape {shape} has no elements"
        else:
            out[name] = read()
            continue
        if strict:
            raise _Bad(f"{path}: tensor {name!r}: {why} (--strict)")
        notes.append(f"{path}: skipped {name!r}: {why}")
    return out


def _target(s: str) -> Fraction:
    try:
        return Fraction(s)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{s!r} is not a number") from None


def main(argv=None) -> int:
    """python -m mxgold plan: exit 0 on success, 2 on bad input or usage."""
    p = argparse.ArgumentParser(
        prog="python -m mxgold plan",
        description="Choose one MX element format per tensor (or per --group) for a target "
        "average of bits per element, minimising the exact total squared error; print the plan "
        "and its Pareto front (docs/planning.md).  Reads .npz and .safetensors files; tensors "
        "are quantized along their last axis.")
    p.add_argument("files", nargs="+", metavar="FILE", help=".npz or .safetensors files")
    p.add_argument("--options", default="e2m1,e4m3",
                   help="element formats, comma-separated (default: e2m1,e4m3)")
    p.add_argument("--target-bits", type=_target, required=True, metavar="BITS",
                   help="the largest average bits per element, scales included (e.g. 6, 4.5)")
    p.add_argument("--group", action="append", default=[], metavar="REGEX",
                   help="tensors whose whole name matches REGEX share a format (repeatable; "
                   "every other tensor is its own group)")
    p.add_argument("--block", type=int, default=32, help="block size (default 32)")
    p.add_argument("--rounding", help="element rounding (default: the profile's)")
    p.add_argument("--profile", default="ocp", help="policy profile (default ocp)")
    p.add_argument("--scale-format", default="e8m0", help="scale format (default e8m0)")
    p.add_argument("--json", metavar="OUT", help="write the plan as JSON to OUT")
    p.add_argument("--markdown", metavar="OUT", help="write the plan as Markdown to OUT")
    p.add_argument("--strict", action="store_true",
                   help="a tensor that cannot be planned (not floating point, last axis not a "
                   "multiple of --block) is an error, not a note")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    a = p.parse_args(argv)

    def say(msg):
        print(f"mxgold plan: {msg}", file=sys.stderr, flush=True)

    try:
        if a.block < 1:
            raise _Bad(f"--block {a.block} must be positive")
        tensors, origin, notes = {}, {}, []
        for path in a.files:
            for name, x in _load(path, a.block, a.strict, notes).items():
                if name in tensors:
                    raise _Bad(f"{path}: tensor {name!r} is also in {origin[name]}")
                tensors[name], origin[name] = x, path
        for n in notes:
            say(n)
        if not tensors:
            raise _Bad("no tensor to plan: every one was skipped")
        groups = _cli_groups(a.group, list(tensors))
        def progress(i, n, name):
            say(f"[{i + 1}/{n}] {name} {tensors[name].shape}")
        plan = plan_formats(tensors, [o.strip() for o in a.options.split(",")], a.target_bits,
                            groups, block=a.block, rounding=a.rounding, profile=a.profile,
                            scale_format=a.scale_format,
                            progress=progress if len(tensors) > 4 and not a.quiet else None)
    except (_Bad, ValueError, TypeError) as e:
        say(e)
        return 2
    print(plan)
    for out, text in ((a.json, lambda: json.dumps(plan.to_dict(), indent=1) + "\n"),
                      (a.markdown, lambda: plan.to_markdown() + "\n")):
        if out:
            try:
                write_atomic(out, text())
            except OSError as e:
                say(f"{out}: cannot write: {e.strerror or e}")
                return 2
    return 0


def _cli_groups(regexes: list, names: list) -> list:
    """--group REGEX...: a group per regex of the names it matches whole, each placed where its
    first member is; every other name alone."""
    pats = []
    for r in regexes:
        try:
            pats.append(re.compile(r))
        except re.error as e:
            raise _Bad(f"--group {r!r} is not a regular expression: {e}") from None
    member = {}
    for n in names:
        hits = [i for i, pt in enumerate(pats) if pt.fullmatch(n)]
        if len(hits) > 1:
            raise _Bad(f"tensor {n!r} matches --group {regexes[hits[0]]!r} and "
                       f"--group {regexes[hits[1]]!r}")
        if hits:
            member[n] = hits[0]
    for i, r in enumerate(regexes):
        if i not in member.values():
            raise _Bad(f"--group {r!r} matches no tensor")
    groups, placed = [], {}
    for n in names:
        if n not in member:
            groups.append([n])
        elif member[n] in placed:
            placed[member[n]].append(n)
        else:
            placed[member[n]] = [n]
            groups.append(placed[member[n]])
    return groups
