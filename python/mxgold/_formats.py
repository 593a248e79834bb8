"""Formats, roundings, policies and profiles: the package's view of libmxgold's tables.

Every name here comes from golden/include/mx/*.def, through the generated ``_names.py`` and the
C library itself; nothing is restated by hand.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Union

import numpy as np

from . import _core, _names

# mx_special and mx_role, in the order of golden/include/mx/ids.h
_SPECIALS = ["ieee", "fn", "none", "int", "pow2"]
_ROLES = ["element", "scale", "ieee"]
# format() names its special-value rules as users know them
_CUSTOM_SPECIALS = {"finite": 2, "ieee": 0, "fn": 1}

FLAG_INEXACT = 0x01
FLAG_UNDERFLOW = 0x02
FLAG_OVERFLOW = 0x04
FLAG_INVALID = 0x10
FLAG_SCALE_CLAMPED = 0x20
FLAG_NAMES = {FLAG_INEXACT: "inexact", FLAG_UNDERFLOW: "underflow", FLAG_OVERFLOW: "overflow",
              FLAG_INVALID: "invalid", FLAG_SCALE_CLAMPED: "scale-clamped"}


class Format:
    """A number format: one of the built-in ones (``mxgold.formats()``) or a custom one made by
    :func:`format` / :func:`scale_format`.  Immutable; equal formats compare equal.

    >>> f = mxgold.Format.get("e4m3")
    >>> f.bits, f.ebits, f.mbits, f.bias, float(f.max)
    (8, 4, 3, 7, 448.0)
    >>> f
    Format('e4m3')
    """

    __slots__ = ("name", "alias", "role", "bits", "sign", "ebits", "mbits", "bias", "special",
                 "emin", "emax", "max_mag", "id")

    def __init__(self, spec: tuple):
        info = _core.format_info(spec)
        (name, alias, role, bits, sign, ebits, mbits, bias, special, emin, emax, max_mag) = info
        object.__setattr__(self, "id", spec[0] if 0 <= spec[0] < _core.FORMAT_COUNT
                           else _core.FORMAT_COUNT)
        for k, v in zip(("name", "alias", "role", "bits", "sign", "ebits", "mbits", "bias",
                         "special", "emin", "emax", "max_mag"),
                        (name, alias, _ROLES[role], bits, sign, ebits, mbits, bias,
                         _SPECIALS[special], emin, emax, max_mag)):
            object.__setattr__(self, k, v)
        if self.id == _core.FORMAT_COUNT:
            # the EkMm scale formats have names of their own (mx_format_scale)
            object.__setattr__(self, "name", f"e{ebits}m{mbits}" if self.role == "scale"
                               else f"custom-e{ebits}m{mbits}")

    def __setattr__(self, k, v):
        raise AttributeError("Format is immutable")

    @staticmethod
    def get(name: str) -> "Format":
        """The built-in format of that name or OCP alias (``"e4m3"``, ``"mxfp8_e4m3"``)."""
        for n, d in _names.FORMATS.items():
            if name == n or name == d["alias"]:
                return _BUILTIN[n]
        raise ValueError(f"unknown format {name!r}; accepted: {', '.join(_names.FORMATS)}")

    @property
    def spec(self) -> tuple:
        """The tuple the C core takes: (id, sign, ebits, mbits, bias, special, role)."""
        return (self.id, self.sign, self.ebits, self.mbits, self.bias,
                _SPECIALS.index(self.special), _ROLES.index(self.role))

    @property
    def builtin(self) -> bool:
        return self.id < _core.FORMAT_COUNT

    def _value(self, code: int) -> np.float64:
        out = np.zeros(1, np.uint64)
        _core.cast(np.array([code], _uint(self.bits)), 1, self.spec, _BUILTIN["fp64"].spec,
                   _IEEE_POLICY, 0, None, out, None)
        return out.view(np.float64)[0]

    @property
    def max(self) -> np.float64:
        """The largest finite value (exact, as float64)."""
        return self._value(self.max_mag)

    @property
    def min_normal(self) -> np.float64:
        """The smallest positive normal value (INT8: its smallest step)."""
        if self.special == "int":
            return self._value(1)
        if self.special == "pow2":
            return self._value(0)
        return self._value(1 << self.mbits)

    @property
    def min_subnormal(self) -> np.float64:
        """The smallest positive value."""
        return self._value(0 if self.special == "pow2" else 1)

    def __eq__(self, other):
        return isinstance(other, Format) and self.spec[1:] == other.spec[1:]

    def __hash__(self):
        return hash(self.spec[1:])

    def __repr__(self):
        if self.builtin:
            return f"Format({self.name!r})"
        return (f"Format(ebits={self.ebits}, mbits={self.mbits}, bias={self.bias}, "
                f"special={self.special!r}, role={self.role!r})")


FormatLike = Union[str, Format, tuple]

# The IEEE policy of decodes and casts to IEEE formats: OCP-strict (an Inf into an IEEE format is
# exact under every policy, docs/semantics.md), so the OCP defaults serve.
_IEEE_POLICY = tuple(_core.profile(0)[0])


def _uint(bits: int):
    return np.uint8 if bits <= 8 else np.uint16 if bits <= 16 else np.uint32 if bits <= 32 \
        else np.uint64


_BUILTIN = {}
for _n, _d in _names.FORMATS.items():
    _BUILTIN[_n] = Format((_d["id"], _d["sign"], _d["ebits"], _d["mbits"], _d["bias"],
                           _SPECIALS.index(_d["special"].lower()), _ROLES.index(_d["role"])))

# pychop-style (exp_bits, man_bits) tuples of the OCP element formats
_TUPLES = {(f.ebits, f.mbits): f for f in _BUILTIN.values()
           if f.role == "element" and f.special != "int"}


def format(exp_bits: int, man_bits: int, *, bias: int | None = None,
           specials: str = "finite") -> Format:
    """A custom signed element format ExMy.

    ``bias`` defaults to 2^(exp_bits-1) - 1.  ``specials``: ``"finite"`` (no Inf or NaN, like the
    FP6/FP4 formats), ``"fn"`` (only the all-ones magnitude is NaN, like E4M3) or ``"ieee"``
    (IEEE 754 Inf and NaN, like E5M2).  Usable wherever a format name is.

    >>> f = mxgold.format(3, 3)
    >>> f.bits, f.bias, float(f.max), float(f.min_subnormal)
    (7, 3, 30.0, 0.03125)
    >>> mxgold.format(4, 3, specials="fn") == mxgold.Format.get("e4m3")
    True
    """
    _check_int(exp_bits, "exp_bits", 1, 15)
    _check_int(man_bits, "man_bits", 0, 52)
    if bias is None:
        bias = (1 << (exp_bits - 1)) - 1
    _check_int(bias, "bias", -(1 << 20), 1 << 20)
    if specials not in _CUSTOM_SPECIALS:
        raise ValueError(f"specials={specials!r}; accepted: {', '.join(_CUSTOM_SPECIALS)}")
    try:
        return Format((_core.FORMAT_COUNT, 1, exp_bits, man_bits, bias,
                       _CUSTOM_SPECIALS[specials], 0))
    except ValueError:
        raise ValueError(f"e{exp_bits}m{man_bits} with specials={specials!r} is not a format "
                         "(docs/semantics.md: IEEE needs 2+ exponent and 1+ mantissa bits)") \
            from None


def scale_format(exp_bits: int, man_bits: int = 0) -> Format:
    """The unsigned shared-scale format EkMm (pychop's ``scale_exp_bits``/``scale_sig_bits``),
    bias 2^(k-1) - 1.  ``man_bits=0``: powers of two with E8M0's rules (``scale_format(8)`` is
    E8M0; all-ones NaN, no zero).  ``man_bits > 0``: a linear scale with UE4M3's rules
    (``scale_format(4, 3)`` is UE4M3; only the all-ones code is NaN), rounded from amax / max by
    the ``scale-round`` policy (docs/semantics.md, "Custom scales").

    >>> mxgold.scale_format(8)
    Format('e8m0')
    >>> float(mxgold.scale_format(5).max)
    32768.0
    >>> s = mxgold.scale_format(8, 1)
    >>> s.name, s.bits, float(s.max)     # 2^128: only the all-ones code is NaN
    ('e8m1', 9, 3.402823669209385e+38)
    """
    _check_int(exp_bits, "exp_bits", 2, 15)
    _check_int(man_bits, "man_bits", 0, 7)
    for f in _BUILTIN.values():
        if f.role == "scale" and (f.ebits, f.mbits) == (exp_bits, man_bits):
            return f
    return Format((_core.FORMAT_COUNT, 0, exp_bits, man_bits, (1 << (exp_bits - 1)) - 1,
                   _SPECIALS.index("fn" if man_bits else "pow2"), _ROLES.index("scale")))


def codes_array(codes, fmt: Format, what: str) -> np.ndarray:
    """codes as a C-contiguous array of the unsigned type of fmt, each checked to fit it."""
    c = np.asarray(codes)
    if c.dtype.kind not in "iu":
        raise TypeError(f"{what} must hold integer codes, not {c.dtype}")
    if c.size and (c.min() < 0 or int(c.max()) >> fmt.bits):
        raise ValueError(f"{what}: a code does not fit the {fmt.bits}-bit format {fmt.name}")
    return np.require(c.astype(_uint(fmt.bits), copy=False), requirements="C")


def _check_int(v, what, lo, hi):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {type(v).__name__}")
    if not lo <= v <= hi:
        raise ValueError(f"{what}={v} is out of range {lo}..{hi}")


def resolve_format(f: FormatLike, role: str, what: str) -> Format:
    """A Format from a name, a Format or an (exp_bits, man_bits) tuple, checked for its role."""
    if isinstance(f, str):
        fmt = Format.get(f) if f in _names.FORMATS or f in _ALIASES else None
        km = re.fullmatch(r"e([0-9]+)m([0-9]+)", f)
        if fmt is None and role == "scale" and km:
            try:
                fmt = scale_format(int(km[1]), int(km[2]))
            except ValueError as e:
                raise ValueError(f"{what}={f!r}: {e}") from None
        if fmt is None:
            accepted = [n for n, d in _names.FORMATS.items() if d["role"] == role]
            raise ValueError(f"{what}={f!r} is not a format name; accepted: "
                             f"{', '.join(accepted)}")
    elif isinstance(f, Format):
        fmt = f
    elif isinstance(f, tuple):
        if len(f) != 2:
            raise ValueError(f"{what}: a format tuple is (exp_bits, man_bits), got {f!r}")
        if role == "scale":
            fmt = scale_format(*f)
        else:
            fmt = _TUPLES.get(tuple(int(v) for v in f)) or format(*f)
    else:
        raise TypeError(f"{what} must be a format name, a Format or an (exp_bits, man_bits) "
                        f"tuple, not {type(f).__name__}")
    if fmt.role != role:
        raise ValueError(f"{what}={fmt.name!r} is a {fmt.role} format; a {role} format is needed")
    return fmt


_ALIASES = {d["alias"] for d in _names.FORMATS.values()}


def formats() -> dict[str, Format]:
    """Every built-in format by name.

    >>> sorted(n for n, f in mxgold.formats().items() if f.role == "element")
    ['e2m1', 'e2m3', 'e3m2', 'e4m3', 'e5m2', 'int8']
    """
    return dict(_BUILTIN)


#------------------------------------------------------------------- policies -#
_FIELDS = list(_names.POLICY_FIELDS)           # CLI names, in policies.def order
_PY = {f.replace("-", "_"): i for i, f in enumerate(_FIELDS)}


def _field_value_name(i: int, v: int):
    values = _names.POLICY_FIELDS[_FIELDS[i]][0]
    return values[v] if isinstance(values, list) else v


def _parse_field(i: int, v: Any) -> int:
    name = _FIELDS[i].replace("-", "_")
    values = _names.POLICY_FIELDS[_FIELDS[i]][0]
    if isinstance(values, list):
        if not isinstance(v, str):
            raise TypeError(f"{name} takes a name, one of: {', '.join(values)}")
        if v not in values:
            raise ValueError(f"{name}={v!r}; accepted: {', '.join(values)}")
        return values.index(v)
    lo, hi, base = values
    if isinstance(v, str):
        try:
            v = int(v, base)
        except ValueError:
            raise ValueError(f"{name}={v!r} is not a base-{base} number") from None
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{name} must be an integer in {lo}..{hi}")
    if not lo <= v <= hi:
        raise ValueError(f"{name}={v} is out of range {lo}..{hi}")
    return int(v)


def _profile_id(profile: str) -> int:
    if not isinstance(profile, str):
        raise TypeError(f"profile must be a name, not {type(profile).__name__}")
    if profile not in _names.PROFILES:
        raise ValueError(f"profile={profile!r}; accepted: {', '.join(_names.PROFILES)}")
    return _names.PROFILES.index(profile)


def _rounding_id(r: str, what: str = "rounding", allow_sr: bool = True) -> int:
    names = _names.ROUNDINGS if allow_sr else [n for n in _names.ROUNDINGS if n != "sr"]
    if not isinstance(r, str):
        raise TypeError(f"{what} must be a name, one of: {', '.join(names)}")
    if r not in names:
        raise ValueError(f"{what}={r!r}; accepted: {', '.join(names)}")
    return _names.ROUNDINGS.index(r)


def resolve_policy(profile: str, rounding: str | None, overrides: Mapping[str, Any],
                   caller: str) -> tuple[tuple, int]:
    """(policy tuple, rounding id) of a profile with overrides by Python field name."""
    pol, rnd = _core.profile(_profile_id(profile))[:2]
    pol = list(pol)
    for k, v in overrides.items():
        if k not in _PY:
            raise TypeError(f"{caller}() got an unexpected keyword argument {k!r}; policy fields "
                            f"are: {', '.join(_PY)}")
        if v is not None:
            pol[_PY[k]] = _parse_field(_PY[k], v)
    if rounding is not None:
        rnd = _rounding_id(rounding)
    return tuple(pol), rnd


def policy_dict(pol: tuple) -> dict[str, Any]:
    return {k: _field_value_name(i, v) for (k, i), v in zip(_PY.items(), pol)}


def policy(profile: str = "ocp", **overrides) -> dict[str, Any]:
    """The policy of a profile, with overrides, as a dict of field -> value (Python names, value
    names as in docs/policies.md).

    >>> p = mxgold.policy("ocp")
    >>> p["scale_rule"], p["overflow"], p["zero_scale"]
    ('floor', 'sat', 0)
    >>> mxgold.policy("ocp", overflow="ovf")["overflow"]
    'ovf'
    """
    pol, _ = resolve_policy(profile, None, overrides, "policy")
    return policy_dict(pol)


def profiles() -> dict[str, dict[str, Any]]:
    """Every profile: its element rounding, its one-line description, its policy, the code it
    reproduces (``source``), and ``proof``: "run" (a real run of that code matches it bit for bit,
    ``proven`` True), "source" (derived from reading the code) or "spec".

    >>> mxgold.profiles()["microxcaling"]["rounding"]
    'rna'
    """
    out = {}
    for i, name in enumerate(_names.PROFILES):
        pol, rnd, _, doc, source, proven = _core.profile(i)
        out[name] = {"rounding": _names.ROUNDINGS[rnd], "doc": doc, "policy": policy_dict(pol),
                     "source": source, "proven": proven == 1,
                     "proof": ("source", "run", "spec")[proven]}
    return out


#---------------------------------------------------------------------- dtypes -#
def _bf16_dtype():
    try:
        import ml_dtypes
    except ImportError:
        return None
    return np.dtype(ml_dtypes.bfloat16)


def input_format(dtype: np.dtype) -> tuple[Format, type]:
    """The IEEE format of an array dtype and the unsigned dtype of its bits."""
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return _BUILTIN["fp32"], np.uint32
    if dtype == np.float64:
        return _BUILTIN["fp64"], np.uint64
    if dtype == np.float16:
        return _BUILTIN["fp16"], np.uint16
    if dtype.name == "bfloat16" and dtype.itemsize == 2:
        return _BUILTIN["bf16"], np.uint16
    raise TypeError(f"dtype {dtype} is not supported; accepted: float32, float64, float16, "
                    "bfloat16 (ml_dtypes)")


def output_dtype(dtype) -> tuple[Format, np.dtype]:
    """The IEEE format of an output dtype (float32, float64, float16, or 'bfloat16')."""
    if isinstance(dtype, str) and dtype in ("bfloat16", "bf16"):
        d = _bf16_dtype()
        if d is None:
            raise TypeError("dtype bfloat16 needs ml_dtypes (pip install mxgold[bfloat16])")
        dtype = d
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype {dtype!r} is not a dtype") from None
    return input_format(dt)[0], dt
