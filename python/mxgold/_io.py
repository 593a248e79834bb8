"""The package's one way to write an output file: never half-written."""
import os
import tempfile


def write_atomic(path: str, text: str, *, makedirs: bool = False) -> None:
    """Write text beside path, then rename it over path: a reader never sees half a file, and a
    failure leaves nothing behind.  makedirs: make path's directory first if it is missing."""
    d = os.path.dirname(os.path.abspath(path))
    if makedirs:
        os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".mxgold-", suffix=".tmp")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
