"""Run adapters on the probe classes and the random sweep, compare bit for bit with mxgold.

A block compares equal when the scale codes are equal and, unless both scales are NaN (whose
element codes OCP section 4 leaves undefined, and mxgold writes as 0), every element code is
equal.  A cast compares its one code.  A fake-quantize compares the library's values with
mxgold's dequantize of its own result in the same dtype, bit for bit, every NaN equal to every
NaN (the libraries' NaN payloads and signs are not MX data).
"""
from __future__ import annotations

import importlib
import importlib.metadata
import time
from typing import Any, Callable

import numpy as np

import mxgold

from . import Mode, NotRunnable, adapter
from . import _inputs



def package_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _hex(v, bits: int) -> str:
    return f"0x{int(v):0{(bits + 3) // 4}x}"


def _bits_of(x: np.ndarray) -> np.ndarray:
    return x.view(_inputs.uint(_in_name(x.dtype)))


def _in_name(dt) -> str:
    dt = np.dtype(dt)
    if dt.name == "bfloat16":
        return "bf16"
    return {np.dtype(np.float32): "fp32", np.dtype(np.float64): "fp64",
            np.dtype(np.float16): "fp16"}[dt]


def _value_str(x: np.ndarray, i) -> str:
    b = _bits_of(x)[i]
    return f"{_hex(b, x.dtype.itemsize * 8)} ({float(x[i])!r})"


def _gold_block(fmt: str, x: np.ndarray, rb, profile: str, policy: dict, rounding,
                scale_format: str = "e8m0"):
    return mxgold.quantize(x, fmt, block=x.shape[1], profile=profile, rounding=rounding,
                           random_bits=rb, engine="exact", scale_format=scale_format, **policy)


def _cmp_block(mode, fmt, x, lib, q) -> tuple[np.ndarray, Callable[[int], dict]]:
    """(bad block mask, describe(i)) for one class."""
    nb, k = x.shape
    if mode.output == "values":
        want = q.dequantize(x.dtype)
        got = np.asarray(lib).reshape(nb, k).astype(x.dtype, copy=False)
        gb, wb = _bits_of(np.ascontiguousarray(got)), _bits_of(np.ascontiguousarray(want))
        same = (gb == wb) | (np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64)))
        bad = ~same.all(axis=1)

        def describe(i, limit=4):
            j = np.nonzero(~same[i])[0]
            return {"elements": [{"i": int(e), "in": _value_str(x[i], e),
                                  "lib": _value_str(got[i], e), "mxgold": _value_str(want[i], e)}
                                 for e in j[:limit]],
                    "mxgold_scale": _hex(q.scales[i, 0], 8)}
        return bad, describe
    scales, codes = lib[0], lib[1]
    ls = np.asarray(scales, np.int64).reshape(nb)
    lc = np.asarray(codes, np.int64).reshape(nb, k)
    gs = q.scales.reshape(nb).astype(np.int64)
    gc = q.codes.reshape(nb, k).astype(np.int64)
    nan_scale = (1 << q.scale_format.bits) - 1  # the all-ones code: NaN in every EkMm
    both_nan = (ls == nan_scale) & (gs == nan_scale)
    ediff = (lc != gc) & ~both_nan[:, None]
    bad = (ls != gs) | ediff.any(axis=1)
    fbits = mxgold.Format.get(fmt).bits

    def describe(i, limit=4):
        j = np.nonzero(ediff[i])[0]
        d = {"scale": {"lib": _hex(ls[i], 8), "mxgold": _hex(gs[i], 8)},
             "elements": [{"i": int(e), "in": _value_str(x[i], e), "lib": _hex(lc[i, e], fbits),
                           "mxgold": _hex(gc[i, e], fbits)} for e in j[:limit]]}
        if ls[i] != gs[i]:
            a = np.abs(x[i].astype(np.float64))
            a = a[~np.isnan(a)]
            d["amax"] = repr(float(a.max())) if a.size else "nan"
        return d
    return bad, describe


def _gold_mxs(fmt: str, x: np.ndarray, profile: str, policy: dict, rounding):
    return mxgold.quantize_mxs(x, fmt, profile=profile, rounding=rounding, **policy)


def _cmp_mxs(fmt, x, lib, q) -> tuple[np.ndarray, Callable[[int], dict]]:
    """A two-level block (MX9/MX6/MX4): scale, the sub-block shifts and the codes."""
    nb, k = x.shape
    ls = np.asarray(lib[0], np.int64).reshape(nb)
    lsh = np.asarray(lib[1], np.int64).reshape(nb, -1)
    lc = np.asarray(lib[2], np.int64).reshape(nb, k)
    gs = q.scales.reshape(nb).astype(np.int64)
    gsh = q.shifts.reshape(nb, -1).astype(np.int64)
    gc = q.codes.reshape(nb, k).astype(np.int64)
    ediff = lc != gc
    bad = (ls != gs) | (lsh != gsh).any(axis=1) | ediff.any(axis=1)
    fbits = q.element_format.bits

    def describe(i, limit=4):
        j = np.nonzero(ediff[i])[0]
        d = {"scale": {"lib": _hex(ls[i], 8), "mxgold": _hex(gs[i], 8)},
             "shifts": {"lib": "".join(str(int(v)) for v in lsh[i]),
                        "mxgold": "".join(str(int(v)) for v in gsh[i])},
             "elements": [{"i": int(e), "in": _value_str(x[i], e), "lib": _hex(lc[i, e], fbits),
                           "mxgold": _hex(gc[i, e], fbits)} for e in j[:limit]]}
        return d
    return bad, describe


def _cmp_cast(fmt, x, lib, want) -> tuple[np.ndarray, Callable[[int], dict]]:
    got = np.asarray(lib, np.int64).reshape(-1)
    w = want.astype(np.int64).reshape(-1)
    bad = got != w
    fbits = mxgold.Format.get(fmt).bits

    def describe(i, limit=4):
        return {"in": _value_str(x, i), "lib": _hex(got[i], fbits), "mxgold": _hex(w[i], fbits)}
    return bad, describe


def _gold_cast(fmt, x, rb, profile, policy, rounding):
    return mxgold.cast(x, fmt, profile=profile, rounding=rounding, random_bits=rb, **policy)


class Cell:
    """The comparison of one (mode, class): counts and the first diverging input."""

    def __init__(self):
        self.n = 0
        self.mismatch = 0
        self.first = None
        self.exceptions = 0
        self.exception_first = None
        self.ocp_mismatch = 0
        self.ocp_first = None

    def add(self, other: "Cell"):
        self.n += other.n
        for a in ("mismatch", "exceptions", "ocp_mismatch"):
            setattr(self, a, getattr(self, a) + getattr(other, a))
        for a in ("first", "exception_first", "ocp_first"):
            if getattr(self, a) is None:
                setattr(self, a, getattr(other, a))

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in ("n", "mismatch", "first", "exceptions",
                                              "exception_first", "ocp_mismatch", "ocp_first")}


def _where(fmt, inp, cls, i, d):
    return {"format": fmt, "input": inp, "class": cls, "index": int(i), **d}


def run_mode(ad, mode: Mode, *, seed: int, n_random: int, n_probe: int,
             vectors: str | None = None, profile: str | None = None, policy: dict | None = None,
             progress: Callable[[str], None] | None = None) -> dict:
    """Run one mode over its formats x inputs x classes; returns {"classes": {cls: Cell},
    "runs": [...]}.  profile/policy override the mode's (sabotage runs)."""
    prof = profile or mode.profile
    pol = dict(mode.policy)
    if policy:
        pol.update(policy)
    exception = getattr(ad, "exception", None)
    cells: dict[str, Cell] = {}
    n_random = max(1, int(n_random * mode.share))
    n_probe = max(1, int(n_probe * mode.share))
    for fmt in mode.formats:
        for inp in mode.inputs:
            t0 = time.monotonic()
            if mode.kind == "cast":
                classes = _inputs.cast_inputs(fmt, inp, seed, n_random * 32, vectors)
            else:
                classes = _inputs.block_inputs(fmt, inp, seed, n_random, n_probe, mode.block,
                                               vectors)
            n_items = 0
            for cls, x in classes.items():
                rb = (_inputs.random_bits(seed, x.shape, ad.NAME, mode.name, fmt, inp, cls)
                      if mode.random else None)
                lib = ad.run(mode, fmt, x, rb)
                c = Cell()
                if mode.kind == "cast":
                    want = _gold_cast(fmt, x, rb, prof, pol, mode.rounding)
                    bad, describe = _cmp_cast(fmt, x, lib, want)
                    ocp = _gold_cast(fmt, x, None, "ocp", {}, None)
                    obad, odescribe = _cmp_cast(fmt, x, lib, ocp)
                elif mode.kind == "mxs":
                    q = _gold_mxs(fmt, x, prof, pol, mode.rounding)
                    bad, describe = _cmp_mxs(fmt, x, lib, q)
                    obad, odescribe = _cmp_mxs(fmt, x, lib, _gold_mxs(fmt, x, "ocp", {}, None))
                else:
                    q = _gold_block(fmt, x, rb, prof, pol, mode.rounding, mode.scale_format)
                    bad, describe = _cmp_block(mode, fmt, x, lib, q)
                    qo = _gold_block(fmt, x, None, "ocp", {}, None, mode.scale_format)
                    obad, odescribe = _cmp_block(mode, fmt, x, lib, qo)
                c.n = int(bad.size)
                n_items += c.n
                for i in np.nonzero(bad)[0]:
                    # the exception sees every differing element; the record keeps four
                    why = (exception(mode, fmt, inp, cls, x[i], describe(i, limit=None))
                           if exception else None)
                    if why:
                        c.exceptions += 1
                        if c.exception_first is None:
                            c.exception_first = _where(fmt, inp, cls, i, describe(i)) | {
                                "why": why}
                    else:
                        c.mismatch += 1
                        if c.first is None:
                            c.first = _where(fmt, inp, cls, i, describe(i))
                c.ocp_mismatch = int(obad.sum())
                if c.ocp_mismatch:
                    i = np.nonzero(obad)[0][0]
                    c.ocp_first = _where(fmt, inp, cls, i, odescribe(i))
                cells.setdefault(cls, Cell()).add(c)
            if progress:
                progress(f"{ad.NAME} {mode.name} {fmt} {inp}: {n_items} "
                         f"{'values' if mode.kind == 'cast' else 'blocks'}, "
                         f"{time.monotonic() - t0:.1f} s")
    return {"classes": cells}


def run_adapter(name: str, *, seed: int, n_random: int, n_probe: int,
                vectors: str | None = None, modes: set | None = None,
                sabotage: dict | None = None, stop_on_mismatch: bool = False,
                progress: Callable[[str], None] | None = None) -> dict:
    """Run every mode of one adapter; returns its JSON record."""
    ad = adapter(name)
    ver = package_version(ad.PACKAGE)
    rec: dict[str, Any] = {"adapter": name, "name": ad.NAME, "package": ad.PACKAGE,
                           "version": ver, "tested": ad.TESTED, "light": ad.LIGHT,
                           "mapping": ad.MAPPING, "modes": []}
    if ver is None:
        rec["status"] = "not installed"
        rec["reason"] = f"{ad.PACKAGE} is not installed"
        return rec
    rec["status"] = "run"
    if sabotage == "adapter":
        sabotage = dict(ad.SABOTAGE)
        rec["sabotage"] = sabotage
    for mode in ad.modes():
        if modes and mode.name not in modes:
            continue
        m: dict[str, Any] = {"name": mode.name, "path": mode.path, "profile": mode.profile,
                             "kind": mode.kind, "formats": list(mode.formats),
                             "inputs": list(mode.inputs), "output": mode.output,
                             "rounding": mode.rounding, "policy": mode.policy,
                             "scale_format": mode.scale_format, "note": mode.note}
        t0 = time.monotonic()
        try:
            r = run_mode(ad, mode, seed=seed, n_random=n_random, n_probe=n_probe,
                         vectors=vectors, policy=sabotage, progress=progress)
        except NotRunnable as e:
            m["status"] = "not run"
            m["reason"] = str(e)
            rec["modes"].append(m)
            continue
        m["status"] = "run"
        m["seconds"] = round(time.monotonic() - t0, 1)
        m["classes"] = {c: cell.to_json() for c, cell in r["classes"].items()}
        tot = Cell()
        for cell in r["classes"].values():
            tot.add(cell)
        m["total"] = tot.to_json()
        rec["modes"].append(m)
        if stop_on_mismatch and tot.mismatch:
            break  # a sabotage run needs one mismatching mode
    return rec
