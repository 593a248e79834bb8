"""A strict reader of .safetensors files (docs/planning.md): the 8-byte little-endian header
length, the JSON header, the data.  Every field is checked before it is used, as the reference
implementation checks it, and every error names the file and what was expected."""
from __future__ import annotations

import json
import math
import os
import struct

import numpy as np

# The reference implementation's limit on the header.
MAX_HEADER = 100 << 20

# Every byte-sized dtype of the format: name -> (numpy dtype, or None where numpy holds no such
# type, item size).  BF16 goes through ml_dtypes when it is installed.
_DTYPES = {
    "BOOL": (np.bool_, 1), "U8": (np.uint8, 1), "I8": (np.int8, 1),
    "U16": (np.uint16, 2), "I16": (np.int16, 2), "U32": (np.uint32, 4), "I32": (np.int32, 4),
    "U64": (np.uint64, 8), "I64": (np.int64, 8),
    "F16": (np.float16, 2), "BF16": (None, 2), "F32": (np.float32, 4), "F64": (np.float64, 8),
    "F8_E4M3": (None, 1), "F8_E5M2": (None, 1), "F8_E8M0": (None, 1), "C64": (np.complex64, 8),
}


def _bfloat16():
    try:
        import ml_dtypes
    except ImportError:
        return None
    return np.dtype(ml_dtypes.bfloat16)


class SafeTensors:
    """The header of a .safetensors file, checked, and its tensors read on demand.

    ``entries`` maps each name to (dtype name, shape, begin, end), in header order;
    ``metadata`` is the ``__metadata__`` dict (str -> str) or {}.  ValueError names the file and
    the problem: a truncated file, a header length past the end of the file, a header that is
    not UTF-8 JSON of the format's shape, an unknown dtype, a shape that does not match its byte
    range, byte ranges that overlap, leave a hole or run past the data.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        with open(self.path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(8)
            if len(head) < 8:
                self._fail(f"truncated: {size} bytes; a safetensors file starts with an 8-byte "
                           "header length")
            (n,) = struct.unpack("<Q", head)
            if n > size - 8:
                self._fail(f"the header length, {n} bytes, runs past the end of the file "
                           f"({size - 8} bytes after the length)")
            if n > MAX_HEADER:
                self._fail(f"the header length, {n} bytes, exceeds the limit of {MAX_HEADER}")
            raw = f.read(n)
        self._data_start, data_size = 8 + n, size - 8 - n
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            self._fail(f"the header is not UTF-8 ({e.reason} at byte {e.start})")
        if not text.startswith("{"):
            self._fail("the header is not a JSON object (it must start with '{')")
        try:
            header = json.loads(text, object_pairs_hook=self._no_duplicates)
        except json.JSONDecodeError as e:
            self._fail(f"the header is not JSON: {e}")
        self.metadata = header.pop("__metadata__", {})
        if not isinstance(self.metadata, dict) or not all(
                isinstance(v, str) for v in self.metadata.values()):
            self._fail("__metadata__ must be an object of strings")
        self.entries = {}
        for name, e in header.items():
            self.entries[name] = self._entry(name, e, data_size)
        end = 0
        for name, (_, _, b, e) in sorted(self.entries.items(), key=lambda kv: kv[1][2:]):
            if b < end:
                self._fail(f"tensor {name!r}: bytes {b}..{e} overlap the tensor before it "
                           f"(which ends at {end})")
            if b > end:
                self._fail(f"tensor {name!r}: bytes {end}..{b} of the data belong to no tensor")
            end = e
        if end != data_size:
            self._fail(f"the tensors end at byte {end} of the data; the data has {data_size} "
                       "bytes")

    def _fail(self, msg: str):
        raise ValueError(f"{self.path}: {msg}")

    def _no_duplicates(self, pairs):
        d = {}
        for k, v in pairs:
            if k in d:
                self._fail(f"the header names {k!r} twice")
            d[k] = v
        return d

    def _entry(self, name, e, data_size) -> tuple:
        if not isinstance(e, dict) or set(e) != {"dtype", "shape", "data_offsets"}:
            self._fail(f"tensor {name!r}: expected an object with dtype, shape and "
                       "data_offsets")
        dt, shape, offs = e["dtype"], e["shape"], e["data_offsets"]
        if dt not in _DTYPES:
            self._fail(f"tensor {name!r}: unknown dtype {dt!r}; accepted: "
                       f"{', '.join(_DTYPES)}")
        if not isinstance(shape, list) or not all(
                type(d) is int and d >= 0 for d in shape):
            self._fail(f"tensor {name!r}: shape must be a list of non-negative integers, "
                       f"not {shape!r}")
        if not (isinstance(offs, list) and len(offs) == 2
                and all(type(o) is int for o in offs) and 0 <= offs[0] <= offs[1]):
            self._fail(f"tensor {name!r}: data_offsets must be [begin, end] with "
                       f"0 <= begin <= end, not {offs!r}")
        b, end = offs
        if end > data_size:
            self._fail(f"tensor {name!r}: data_offsets {offs} run past the data "
                       f"({data_size} bytes)")
        need = math.prod(shape) * _DTYPES[dt][1]
        if need != end - b:
            self._fail(f"tensor {name!r}: shape {shape} of {dt} needs {need} bytes; "
                       f"data_offsets {offs} hold {end - b}")
        return dt, tuple(shape), b, end

    def dtype(self, name: str):
        """The numpy dtype of a tensor, or None when numpy (with ml_dtypes if installed) has no
        such type here."""
        dt = self.entries[name][0]
        return _bfloat16() if dt == "BF16" else None if _DTYPES[dt][0] is None \
            else np.dtype(_DTYPES[dt][0])

    def array(self, name: str) -> np.ndarray:
        """A tensor as a numpy array of its dtype.  BF16 without ml_dtypes becomes float32 (each
        value exactly: its 16 bits above 16 zero bits); F8 types raise ValueError."""
        dt, shape, b, e = self.entries[name]
        want = self.dtype(name)
        if want is None and dt != "BF16":
            self._fail(f"tensor {name!r}: dtype {dt} has no numpy type here")
        with open(self.path, "rb") as f:
            f.seek(self._data_start + b)
            raw = f.read(e - b)
        if len(raw) != e - b:
            self._fail(f"tensor {name!r}: the file ended while reading it (did it change?)")
        if dt == "BF16":
            u = np.frombuffer(raw, "<u2")
            if want is None:  # no ml_dtypes: the float32 of the same value
                return (u.astype(np.uint32) << 16).view(np.float32).reshape(shape)
            return u.astype(np.uint16).view(want).reshape(shape)
        return np.frombuffer(raw, want.newbyteorder("<")).astype(want).reshape(shape)

def read_safetensors(path: str | os.PathLike) -> dict:
    """Every tensor of a .safetensors file, by name, as numpy arrays (SafeTensors.array)."""
    st = SafeTensors(path)
    return {name: st.array(name) for name in st.entries}
