"""python -m mxgold.conform: run third-party MX implementations against their mxgold profiles.

Exit status: 0 when every mode that ran matched its profile bit for bit (documented exceptions
aside), 1 when some did not (or, with --expect-mismatch, when none did), 2 on a usage error,
77 when none of the selected implementations is installed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from . import ADAPTERS, adapter
from . import _report, _runner
from .._io import write_atomic

EPILOG = """\
examples:
  python -m mxgold.conform --list
  python -m mxgold.conform --light --random 2000 --markdown conformance.md
  python -m mxgold.conform --only pychop --sabotage zero-sign=keep --expect-mismatch
The inputs (probe classes and random sweep) depend only on --seed, --random and --probe.
ci/conform.sh runs the whole matrix in a venv with the pinned versions (docs/conformance.md)."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mxgold.conform",
        description="Run each installed third-party MX implementation on the same inputs as "
        "mxgold and compare bit for bit with the profile that claims to reproduce it (and with "
        "ocp).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", action="store_true",
                   help="list the adapters, the installed version of each and its modes; exit")
    p.add_argument("--only", metavar="A,B", help="adapters to run (default: every installed one)")
    p.add_argument("--light", action="store_true",
                   help="only the adapters that need no torch (those ci/test.sh runs)")
    p.add_argument("--mode", metavar="M,N", help="only these modes (by name) of the adapters")
    p.add_argument("--seed", type=int, default=2026, help="input seed (default 2026)")
    p.add_argument("--random", type=int, default=5000, metavar="N",
                   help="random blocks per format x input x mode; a cast mode takes 32*N values "
                   "(default 5000: with the probe classes, about 10^5 blocks per format and "
                   "mode across the inputs)")
    p.add_argument("--probe", type=int, default=2000, metavar="N",
                   help="blocks per probe class (default 2000)")
    p.add_argument("--vectors", metavar="DIR",
                   help="also run every input of the committed suite in DIR (class 'suite')")
    p.add_argument("--merge", metavar="JSON", nargs="+",
                   help="run nothing: join the --json results of earlier runs (same seed and "
                   "counts; e.g. the light and the torch venvs) and write the outputs")
    p.add_argument("--rtl", metavar="FILE",
                   help="add the third-party RTL co-simulation results in FILE (a Markdown "
                   "table, sim/thirdparty/RESULTS.md) to the outputs")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON")
    p.add_argument("--markdown", metavar="PATH", help="write the matrix as Markdown")
    p.add_argument("--html", metavar="PATH", help="write the matrix as one HTML page with plots")
    p.add_argument("--sabotage", metavar="FIELD=VALUE", action="append", default=[],
                   help="override a policy field in every mode (a test that the comparison can "
                   "fail; not a conformance result); 'adapter' flips the field each adapter "
                   "names (its SABOTAGE)")
    p.add_argument("--expect-mismatch", action="store_true",
                   help="exit 0 only if some mode reported mismatches (with --sabotage); each "
                   "adapter stops at its first mismatching mode")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    return p


def _sabotage(items: list[str], p: argparse.ArgumentParser) -> dict:
    import mxgold
    from mxgold import _names

    out = {}
    if items == ["adapter"]:
        return "adapter"
    for it in items:
        field, sep, value = it.partition("=")
        field = field.replace("_", "-")
        if not sep or field not in _names.POLICY_FIELDS:
            p.error(f"--sabotage {it!r}: expected FIELD=VALUE with FIELD one of "
                    f"{', '.join(_names.POLICY_FIELDS)}")
        out[field.replace("-", "_")] = int(value) if value.isdigit() else value
    try:
        mxgold.policy("ocp", **out)
    except (ValueError, TypeError) as e:
        p.error(f"--sabotage: {e}")
    return out


def _select(args, p) -> list[str]:
    names = list(ADAPTERS)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        for n in names:
            if n not in ADAPTERS:
                p.error(f"--only: unknown adapter {n!r}; known: {', '.join(ADAPTERS)}")
    if args.light:
        names = [n for n in names if adapter(n).LIGHT]
    return names


def main(argv=None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    if args.random < 1 or args.probe < 1:
        p.error("--random and --probe must be at least 1")
    if args.expect_mismatch and not args.sabotage:
        p.error("--expect-mismatch goes with --sabotage")
    names = _select(args, p)
    sab = _sabotage(args.sabotage, p)
    if args.vectors and not os.path.isdir(args.vectors):
        p.error(f"--vectors {args.vectors!r}: not a directory")
    if args.list:
        for n in ADAPTERS:
            ad = adapter(n)
            v = _runner.package_version(ad.PACKAGE) or "not installed"
            print(f"{n:15} {ad.PACKAGE} {v} (tested {ad.TESTED}){'' if ad.LIGHT else ' [full]'}")
            for m in ad.modes():
                print(f"    {m.name:22} profile {m.profile:15} {m.path}")
        return 0
    modes = set(m.strip() for m in args.mode.split(",")) if args.mode else None

    def progress(s):
        if not args.quiet:
            print(s, file=sys.stderr, flush=True)

    try:
        rtl = _read_rtl(args.rtl) if args.rtl else None
    except ValueError as e:
        p.error(str(e))
    if args.merge:
        try:
            result = _report.merge([_read_json(j) for j in args.merge])
        except ValueError as e:
            p.error(str(e))
        if rtl is not None:
            result["rtl"] = rtl
        return _outputs(args, result, result["implementations"])
    t0 = time.monotonic()
    recs = []
    for n in names:
        progress(f"== {n}")
        recs.append(_runner.run_adapter(n, seed=args.seed, n_random=args.random,
                                        n_probe=args.probe, vectors=args.vectors, modes=modes,
                                        sabotage=sab, stop_on_mismatch=args.expect_mismatch,
                                        progress=progress))
    result = _report.result(recs, seed=args.seed, n_random=args.random, n_probe=args.probe,
                            sabotage=sab, seconds=time.monotonic() - t0)
    if rtl is not None:
        result["rtl"] = rtl
    return _outputs(args, result, recs)


def _read_rtl(path: str) -> list[str]:
    """The committed RTL results: Markdown table rows ('|...|') and notes ('- ...'), nothing
    else, so that a stray edit cannot break the generated page."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ValueError(f"--rtl {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"--rtl {path}: not UTF-8 text") from None
    out, comment = [], False
    for i, line in enumerate(lines, 1):
        if comment or line.startswith("<!--"):
            comment = "-->" not in line
            continue
        if not line.strip():
            continue
        if not (line.startswith("- ") or (line.startswith("|") and line.rstrip().endswith("|"))):
            raise ValueError(f"--rtl {path}:{i}: expected a table row '| ... |' or a note "
                             f"'- ...'")
        out.append(line.rstrip())
    if not any(line.startswith("|") for line in out):
        raise ValueError(f"--rtl {path}: no table")
    return out


def _read_json(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
    except OSError as e:
        raise ValueError(f"--merge {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"--merge {path}:{e.lineno}: not JSON ({e.msg})") from None
    if not isinstance(r, dict) or "implementations" not in r:
        raise ValueError(f"--merge {path}: not a results file (no 'implementations')")
    return r


def _outputs(args, result: dict, recs: list) -> int:
    if args.json:
        write_atomic(args.json, json.dumps(result, indent=1, sort_keys=False) + "\n",
                     makedirs=True)
    if args.markdown:
        write_atomic(args.markdown, _report.markdown(result), makedirs=True)
    if args.html:
        write_atomic(args.html, _report.html(result), makedirs=True)
    print(_report.summary(result))
    ran = [r for r in recs if r["status"] == "run"]
    if not ran:
        print("no selected implementation is installed: skipped", file=sys.stderr)
        return 77
    bad = result["mismatching_modes"]
    if args.expect_mismatch:
        return 0 if bad else 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
